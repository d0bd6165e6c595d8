/*
 * fork-preempt: does a new task preempt its parent when it is woken? The parent, pinned to CPU 0,
 * spins S ns (its slice, and the protection it got when it was picked, are long over), forks, then
 * spins W ns more and looks whether the child, pinned to the same CPU, has run meanwhile (a flag in
 * shared memory). On v6.18 the child, placed at the parent's vruntime with half a slice to its
 * deadline, is the pick and preempts the parent at the return from fork(); on a kernel with Mel
 * Gorman's NEXT_BUDDY rework check_preempt_wakeup_fair() returns for WF_FORK before any pick
 * (docs/validation.md, "New tasks"). Run it on an otherwise idle machine.
 *
 *   cc -O2 -o fork-preempt host/src/main/c/fork-preempt.c
 *   ./fork-preempt ITERATIONS [S_NS [W_NS]]      defaults 200, 5000000, 100000
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static long now_ns(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000L+t.tv_nsec;}
static void spin(long ns){long e=now_ns()+ns;while(now_ns()<e){}}
int main(int argc,char**argv){
  int iters=argc>1?atoi(argv[1]):200; long s=argc>2?atol(argv[2]):5000000, w=argc>3?atol(argv[3]):100000;
  cpu_set_t set; CPU_ZERO(&set); CPU_SET(0,&set); sched_setaffinity(0,sizeof set,&set);
  volatile int *ran=mmap(0,4096,PROT_READ|PROT_WRITE,MAP_SHARED|MAP_ANONYMOUS,-1,0);
  int first=0;
  for(int i=0;i<iters;i++){
    *ran=0; usleep(2000); spin(s);
    pid_t c=fork();
    if(c==0){*ran=1;_exit(0);}
    spin(w);
    if(*ran)first++;
    waitpid(c,0,0);
  }
  printf("the child ran within %ld ns of its fork %d times of %d (parent spun %ld ns first)\n",w,first,iters,s);
  return 0;
}
