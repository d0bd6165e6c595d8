/*
 * cgroup-write: the time of writing the calling thread's TID into a cgroup-v1 cpu group's tasks
 * file as rt-app's set_thread_taskgroup() does (fopen, fprintf, fclose), alternating between two
 * groups, with GAP_US between writes; and of getppid() for the system call's entry and exit.
 * Back to back (GAP_US 0) the threadgroup rwsem's rcu_sync stays entered and no write waits for a
 * grace period: that is cost.cgroup_write. With gaps of 100 ms each write finds it idle and waits
 * one grace period (docs/workloads.md, taskgroup).
 *
 *   cc -O2 -o cgroup-write host/src/main/c/cgroup-write.c
 *   mkdir -p /sys/fs/cgroup/cpu/a /sys/fs/cgroup/cpu/b       (as root)
 *   ./cgroup-write /sys/fs/cgroup/cpu/a /sys/fs/cgroup/cpu/b 2000 0
 *   ./cgroup-write /sys/fs/cgroup/cpu/a /sys/fs/cgroup/cpu/b 50 100000
 *
 * Arguments: GROUP_A GROUP_B WRITES GAP_US. Prints the writes' p10, p50, p90 and max, and
 * getppid()'s p50 (200 000 calls), in ns. Run on an idle machine.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int write_tid(const char *group, int tid) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tasks", group);
  FILE *f = fopen(path, "we");
  if (!f) {
    perror(path);
    return -1;
  }
  if (fprintf(f, "%d", tid) < 0 || fclose(f)) {
    perror(path);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: cgroup-write GROUP_A GROUP_B WRITES GAP_US\n");
    return 2;
  }
  int n = atoi(argv[3]);
  long gap = atol(argv[4]);
  int tid = (int)syscall(SYS_gettid);
  double *d = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; i++) {
    double t0 = now_ns();
    if (write_tid(argv[1 + i % 2], tid)) {
      return 1;
    }
    d[i] = now_ns() - t0;
    if (gap > 0) {
      usleep((useconds_t)gap);
    }
  }
  qsort(d, (size_t)n, sizeof(double), cmp);
  enum { CALLS = 200000, BATCH = 1000 };
  double g[CALLS / BATCH];
  for (int b = 0; b < CALLS / BATCH; b++) {
    double t0 = now_ns();
    for (int i = 0; i < BATCH; i++) {
      syscall(SYS_getppid);
    }
    g[b] = (now_ns() - t0) / BATCH;
  }
  qsort(g, CALLS / BATCH, sizeof(double), cmp);
  printf("writes %d gap %ld us: p10 %.0f p50 %.0f p90 %.0f max %.0f ns; getppid p50 %.0f ns\n", n,
         gap, d[n / 10], d[n / 2], d[n * 9 / 10], d[n - 1], g[CALLS / BATCH / 2]);
  return 0;
}
