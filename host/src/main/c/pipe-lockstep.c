/*
 * pipe-lockstep: does a woken task preempt the task that woke it, whatever their run times? Two
 * processes pinned to CPU 0 pass a byte back and forth through two pipes N times; the parent A
 * spins A_NS after each read, the child B spins B_NS after each. In the lockstep the child's write
 * wakes the parent, which preempts it at once (the child is runnable when the parent writes back,
 * so that wakeup is not traced), and the parent's read blocks. Trace sched_switch and sched_waking
 * around it and count, for each wakeup on CPU 0, whether the waker's next switch is its own
 * preemption (R) or its sleep (S) (docs/trace-replay.md, "How close", `pipe-quiet`).
 *
 *   cc -O2 -o pipe-lockstep host/src/main/c/pipe-lockstep.c
 *   ./pipe-lockstep A_NS B_NS N      e.g. 10000 0 2000
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static long now_ns(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000L+t.tv_nsec;}
static void spin(long ns){if(ns<=0)return;long e=now_ns()+ns;while(now_ns()<e){}}
int main(int argc,char**argv){
  if(argc<4){fprintf(stderr,"usage: %s A_NS B_NS N\n",argv[0]);return 2;}
  long sa=atol(argv[1]), sb=atol(argv[2]); int n=atoi(argv[3]);
  int a[2],b[2]; char c=0; if(pipe(a)||pipe(b))return 1;
  cpu_set_t s; CPU_ZERO(&s); CPU_SET(0,&s); sched_setaffinity(0,sizeof s,&s);
  if(fork()==0){
    for(int i=0;i<n;i++){ if(read(a[0],&c,1)<0)_exit(1); spin(sb); if(write(b[1],&c,1)<0)_exit(1); }
    _exit(0);
  }
  for(int i=0;i<n;i++){ if(write(a[1],&c,1)<0||read(b[0],&c,1)<0)return 1; spin(sa); }
  wait(NULL);
  return 0;
}
