/*
 * delayed-wake: does a woken delayed-dequeue task keep its CPU? B spins S ns on CPU 0 beside a
 * hog pinned there (so it blocks with negative lag: delayed under DELAY_DEQUEUE), unpins itself and
 * blocks in read(); D ns later the hog writes. Counts where B woke while CPU 1 was idle
 * (docs/validation.md, "Delayed wakees"). Run it on an otherwise idle machine.
 *
 *   cc -O2 -o delayed-wake host/src/main/c/delayed-wake.c -lpthread
 *   ./delayed-wake ITERATIONS [S_NS [D_NS]]      defaults 500, 1500000, 200000
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static int p[2];
static volatile int blocking, stop;
static long now_ns(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000L+t.tv_nsec;}
static void spin(long ns){long e=now_ns()+ns;while(now_ns()<e){}}
static void pin(int mask){cpu_set_t s;CPU_ZERO(&s);for(int c=0;c<2;c++)if(mask&(1<<c))CPU_SET(c,&s);sched_setaffinity(0,sizeof s,&s);}
static long bspin=1500000, hdelay=200000;
static void *hog(void*a){pin(1);char c=1;while(!stop){while(!blocking&&!stop){}blocking=0;spin(hdelay);write(p[1],&c,1);}return 0;}
int main(int argc,char**argv){
  int iters=argc>1?atoi(argv[1]):500; if(argc>2)bspin=atol(argv[2]); if(argc>3)hdelay=atol(argv[3]);
  pipe(p); pthread_t h; pthread_create(&h,0,hog,0);
  int on0=0,on1=0; char c;
  for(int i=0;i<iters;i++){
    pin(1); spin(bspin); pin(3);
    blocking=1; read(p[0],&c,1);
    if(sched_getcpu()==0)on0++;else on1++;
  }
  stop=1; blocking=1; write(p[1],&c,1);
  printf("B woke on CPU 0 (its queue, the hog's) %d, on CPU 1 (idle) %d\n",on0,on1);
  return 0;
}
