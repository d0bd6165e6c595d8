/*
 * pipe-pingpong: two threads, not pinned, wake each other through two pipes as
 * `perf bench sched pipe` does, each spinning A (-a) or B (-b) ns before its write; counts the
 * wakeups that ran on the waker's last CPU and those across, and prints each thread's
 * nr_migrations and PELT averages (/proc/self/task/TID/sched) at the end (docs/validation.md,
 * "Wakeup packing").
 *
 *   cc -O2 -o pipe-pingpong host/src/main/c/pipe-pingpong.c -lpthread
 *   ./pipe-pingpong -a 0 -b 0 -d 2             perf bench's pair
 *   ./pipe-pingpong -a 400000 -b 400000 -d 2   each runs 400 us per round
 *   ./pipe-pingpong -s -d 2                    the pair kept apart: a on CPU 0, b on CPU 1
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long spin_ns[2];
static int split; /* -s: thread i pinned to CPU i */
static int pipes[2][2]; /* pipes[i]: thread i reads from [0], the other writes to [1] */
static volatile int stop;
static volatile int last_cpu[2] = {-1, -1};
static long same[2], across[2];
static char sched_line[2][256];

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void spin(long ns) {
  long end = now_ns() + ns;
  while (now_ns() < end) {
  }
}

/* The calling thread's nr_migrations, runnable_avg, util_avg and util_est. */
static void snapshot(int me) {
  static const char *keys[] = {"nr_migrations", "runnable_avg", "util_avg", "util_est"};
  char path[64], line[256];
  int n = 0;
  snprintf(path, sizeof path, "/proc/self/task/%ld/sched", (long)syscall(SYS_gettid));
  FILE *f = fopen(path, "r");
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    for (int k = 0; k < 4; k++) {
      char *colon = strchr(line, ':');
      if (colon && strstr(line, keys[k]) && n < (int)sizeof sched_line[me]) {
        n += snprintf(sched_line[me] + n, sizeof sched_line[me] - n, "%s=%ld ", keys[k],
                      atol(colon + 1));
      }
    }
  }
  fclose(f);
}

static void *player(void *arg) {
  int me = (int)(long)arg, other = 1 - me;
  char c = 'x';
  if (split) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(me, &set);
    sched_setaffinity(0, sizeof set, &set);
  }
  if (me == 1 && read(pipes[1][0], &c, 1) != 1) return NULL; /* thread 0 serves first */
  while (!stop) {
    int cpu = sched_getcpu();
    last_cpu[me] = cpu;
    if (last_cpu[other] >= 0) {
      if (cpu == last_cpu[other]) same[me]++;
      else across[me]++;
    }
    if (spin_ns[me]) spin(spin_ns[me]);
    if (write(pipes[other][1], &c, 1) != 1) break;
    if (read(pipes[me][0], &c, 1) != 1) break;
  }
  snapshot(me);
  return NULL;
}

int main(int argc, char **argv) {
  double secs = 2;
  int o;
  while ((o = getopt(argc, argv, "a:b:d:s")) != -1) {
    switch (o) {
      case 'a': spin_ns[0] = atol(optarg); break;
      case 'b': spin_ns[1] = atol(optarg); break;
      case 'd': secs = atof(optarg); break;
      case 's': split = 1; break;
      default:
        fprintf(stderr, "pipe-pingpong: see the options at the top of the source\n");
        return 2;
    }
  }
  if (pipe(pipes[0]) || pipe(pipes[1])) return 1;
  pthread_t t[2];
  pthread_create(&t[1], NULL, player, (void *)1L);
  pthread_create(&t[0], NULL, player, (void *)0L);
  struct timespec d = {(long)secs, (long)((secs - (long)secs) * 1e9)};
  nanosleep(&d, NULL);
  stop = 1;
  char c = 'x'; /* either may be blocked in read(): one more byte each */
  if (write(pipes[0][1], &c, 1) != 1 || write(pipes[1][1], &c, 1) != 1) return 1;
  pthread_join(t[0], NULL);
  pthread_join(t[1], NULL);
  printf("spin a=%ld b=%ld ns: a woke on b's CPU %ld, across %ld; b on a's %ld, across %ld\n",
         spin_ns[0], spin_ns[1], same[0], across[0], same[1], across[1]);
  printf("  a: %s\n  b: %s\n", sched_line[0], sched_line[1]);
  return 0;
}
