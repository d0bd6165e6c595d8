/*
 * switch-ring: N processes on one CPU pass a byte around a ring of pipes; prints N and the ns per
 * hop (a write, a wakeup, a context switch and a read). With two processes every switch-in finds
 * its task's lines still cached; from about ten on, none. The difference is the cache refill of a
 * switch (latency.switch_refill in docs/model.md; docs/validation.md, hackbench).
 *
 *   cc -O2 -o switch-ring host/src/main/c/switch-ring.c
 *   for n in 2 3 4 6 8 10 20 40; do ./switch-ring $n 200000 1; done    on CPU 1
 *
 * Arguments: N, hops (rounded down to whole rounds), CPU (default 0). Run on an idle machine.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: switch-ring N HOPS [CPU]\n");
    return 2;
  }
  int n = atoi(argv[1]);
  long hops = atol(argv[2]);
  int cpu = argc > 3 ? atoi(argv[3]) : 0;
  if (n < 2 || hops < n) {
    fprintf(stderr, "switch-ring: N must be 2 or more and HOPS at least N\n");
    return 2;
  }
  int (*p)[2] = malloc(sizeof(int[2]) * n);
  for (int i = 0; i < n; i++) {
    if (pipe(p[i])) {
      perror("pipe");
      return 1;
    }
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set)) {
    perror("sched_setaffinity");
    return 1;
  }
  long rounds = hops / n;
  char c = 'x';
  for (int i = 1; i < n; i++) {
    if (fork() == 0) { /* process i reads pipe i and writes pipe i + 1 */
      for (long r = 0; r < rounds; r++) {
        if (read(p[i][0], &c, 1) != 1 || write(p[(i + 1) % n][1], &c, 1) != 1) {
          _exit(1);
        }
      }
      _exit(0);
    }
  }
  double t0 = now_ns();
  for (long r = 0; r < rounds; r++) {
    if (write(p[1][1], &c, 1) != 1 || read(p[0][0], &c, 1) != 1) {
      perror("ring");
      return 1;
    }
  }
  double t1 = now_ns();
  while (wait(NULL) > 0) {
  }
  printf("%d %.0f\n", n, (t1 - t0) / ((double)rounds * n));
  return 0;
}
