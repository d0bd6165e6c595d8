/*
 * delayed-lag: does a woken delayed-dequeue task keep the lag it earned while delayed? A parent
 * forks a child (which stays on its vCPU on this project's guest: fork packing), runs P us and
 * blocks reading a pipe: it ran after the child was placed at its vruntime, so it blocks with
 * negative lag, delayed. The child runs C us, reads procs_running from /proc/stat (2 while the
 * blocked parent still counts: delayed) and writes the pipe. If the parent's lag, positive once
 * C > P, is kept, the parent is eligible and the child is not: the parent preempts the child at
 * its write; clipped to zero (DELAY_ZERO), the parent is placed at the child's vruntime with a
 * whole slice, behind the child's deadline, and waits. The parent sees which happened: whether
 * the child got back from its write before the parent's read returned (docs/validation.md,
 * "Delayed wakees"). Run it on an otherwise idle machine.
 *
 *   cc -O2 -o delayed-lag host/src/main/c/delayed-lag.c
 *   ./delayed-lag P_US C_US ITERATIONS      e.g. 20 70 200
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static long now_ns(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000L+t.tv_nsec;}
static void spin(long ns){long e=now_ns()+ns;while(now_ns()<e){}}
static int procs_running(void){char b[4096];int fd=open("/proc/stat",O_RDONLY);int n=read(fd,b,sizeof b-1);close(fd);b[n>0?n:0]=0;char*q=strstr(b,"procs_running ");return q?atoi(q+14):-1;}
int main(int argc,char**argv){
  if(argc<4){fprintf(stderr,"usage: %s P_US C_US ITERATIONS\n",argv[0]);return 2;}
  long p=atol(argv[1])*1000, c=atol(argv[2])*1000; int n=atoi(argv[3]);
  volatile int *sh=mmap(0,4096,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);
  int t[4][2]={{0}}; /* [procs_running, 1-3][the child preempted] */
  for(int i=0;i<n;i++){
    int a[2],b[2]; char x=0; if(pipe(a)||pipe(b))return 1; sh[0]=0; sh[1]=0;
    if(fork()==0){spin(c); if(read(a[0],&x,1)<0)_exit(1); sh[1]=procs_running(); if(write(b[1],&x,1)<0)_exit(1); sh[0]=1; spin(5000); _exit(0);}
    spin(p); if(write(a[1],&x,1)<0||read(b[0],&x,1)<0)return 1;
    int pr=sh[1]<1?1:sh[1]>3?3:sh[1];
    t[pr][sh[0]==0]++;
    wait(NULL); close(a[0]);close(a[1]);close(b[0]);close(b[1]); usleep(2000);
  }
  for(int pr=1;pr<=3;pr++)
    printf("procs_running %d%s: the parent preempted the child %d, the child went on %d\n",
           pr,pr>=2?" (the parent delayed)":"",t[pr][1],t[pr][0]);
  return 0;
}
