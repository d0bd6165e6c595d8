/*
 * wake-packing: where a SCHED_OTHER task B wakes when its target CPU 0 is busy and CPU 1 idle, to
 * see a guest kernel's wakeup packing (docs/validation.md, "Wakeup packing"). B is not pinned; it
 * is put back on CPU 0 (on CPU 1 with -w) before each sleep and counts the CPU it wakes on
 * (sched_getcpu()), its se.nr_migrations, CPU 1's idle share (/proc/stat) and CPU 0's root cfs_rq
 * util_avg three times (/sys/kernel/debug/sched/debug, root).
 *
 *   cc -O2 -o wake-packing host/src/main/c/wake-packing.c -lpthread
 *   ./wake-packing -h 2 -u 46000 -d 1.5        a task on CPU 0 woken every 100 us spins 46 us;
 *                                              B sleeps 1 ms (relative, 50 us slack)
 *   ./wake-packing -h 1 -d 1.5                 a task spinning on CPU 0 all the time
 *   ./wake-packing -w -d 1.5                   B blocks in read(); a task on CPU 0 writes every 1 ms
 *   ./wake-packing -h 2 -u 10000 -B 500000     B spins 500 us after each wakeup
 *   ./wake-packing -h 2 -p 10000000 -u 1000000 -P 10000000 -O 0 -B 3000000 -d 3
 *                                              rt-app's light and heavy pair: CPU 0's task 1 ms
 *                                              every 10 ms, B 3 ms every 10 ms (absolute, from the
 *                                              same start, O ns later); prints B's lateness
 *
 * Other options: -f CPU 0's task SCHED_FIFO 50 (root), -S its timer slack, -s B's, -c 1 a spinner
 * on CPU 1, -b B's sleep or the writer's period (ns), -r B not put back (counts moves), -d seconds.
 * Runs with CPU 1 idle much less than all the time measure the other users of the machine.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static volatile int stop;
static int hog_mode;      // 0 none, 1 busy loop on CPU0, 2 periodic sleeper on CPU0 (100us abs)
static int hog_fifo;
static long hog_period_ns = 100000;
static long hog_slack = -1;
static long hog_busy_ns = 0; // mode 2: spin this long after each wakeup
static int cpu1_mode;     // 0 idle, 1 busy
static long b_slack = 50000;
static long b_sleep_ns = 1000000;
static int b_repin = 1;   // re-pin to CPU0 before every sleep
static double secs = 5;
static long b_busy_ns;    // B spins this long after each wakeup
static long b_period_ns;  // B sleeps to absolute multiples of this from T0 (0: relative sleeps)
static long b_offset_ns;  // B's phase after the hog's
static struct timespec T0;
static long lates[100000]; static long nlate;
static int cmpl(const void *a, const void *b) { long x = *(const long *)a, y = *(const long *)b; return x < y ? -1 : x > y; }
static int wake_mode;     // 1: B blocks on a pipe written every b_sleep_ns by a waker pinned to CPU0; B re-pinned to CPU1 before each read
static int pfd[2];

static void *waker(void *arg) {
  (void)arg;
  cpu_set_t s; CPU_ZERO(&s); CPU_SET(0, &s); sched_setaffinity(0, sizeof s, &s);
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  while (!stop) {
    t.tv_nsec += b_sleep_ns; while (t.tv_nsec >= 1000000000L) { t.tv_nsec -= 1000000000L; t.tv_sec++; }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
    if (write(pfd[1], "x", 1) != 1) break;
  }
  return NULL;
}

static void pin(int cpu) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s); sched_setaffinity(0, sizeof s, &s); }
static void unpin(void) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(0, &s); CPU_SET(1, &s); sched_setaffinity(0, sizeof s, &s); }
static long nsnow(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000000000L + t.tv_nsec; }

static void *hog(void *arg) {
  (void)arg;
  pin(0);
  if (hog_fifo) { struct sched_param p = {.sched_priority = 50}; sched_setscheduler(0, SCHED_FIFO, &p); }
  if (hog_slack >= 0) prctl(PR_SET_TIMERSLACK, hog_slack == 0 ? 1 : hog_slack);
  if (hog_mode == 1) { while (!stop) {} return NULL; }
  struct timespec t = T0;
  while (!stop) {
    t.tv_nsec += hog_period_ns; while (t.tv_nsec >= 1000000000L) { t.tv_nsec -= 1000000000L; t.tv_sec++; }
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
    if (hog_busy_ns) { long e = nsnow() + hog_busy_ns; while (nsnow() < e) {} }
  }
  return NULL;
}

static void *cpu1hog(void *arg) { (void)arg; pin(1); while (!stop) {} return NULL; }

static long idle1(void) {
  FILE *f = fopen("/proc/stat", "r"); char line[512]; long v = -1;
  while (fgets(line, sizeof line, f)) if (!strncmp(line, "cpu1 ", 5)) { long a[8]; sscanf(line + 5, "%ld %ld %ld %ld %ld %ld %ld %ld", &a[0],&a[1],&a[2],&a[3],&a[4],&a[5],&a[6],&a[7]); v = a[3] + a[4]; }
  fclose(f); return v;
}

static long util0(void) {
  FILE *f = fopen("/sys/kernel/debug/sched/debug", "r"); char line[512]; int in = 0; long v = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "cfs_rq[0]:/\n", 12)) in = 1;
    else if (in && strstr(line, ".util_avg ")) { v = atol(strchr(line, ':') + 1); break; }
  }
  fclose(f); return v;
}

static long migrations(void) {
  char path[64], line[256]; long v = -1;
  snprintf(path, sizeof path, "/proc/self/task/%ld/sched", (long)syscall(SYS_gettid));
  FILE *f = fopen(path, "r"); if (!f) return -1;
  while (fgets(line, sizeof line, f)) if (strstr(line, "nr_migrations")) { char *c = strchr(line, ':'); v = atol(c + 1); }
  fclose(f); return v;
}

int main(int argc, char **argv) {
  int o;
  while ((o = getopt(argc, argv, "h:fp:S:c:s:b:rd:u:wB:P:O:")) != -1) switch (o) {
    case 'h': hog_mode = atoi(optarg); break;
    case 'f': hog_fifo = 1; break;
    case 'p': hog_period_ns = atol(optarg); break;
    case 'S': hog_slack = atol(optarg); break;
    case 'c': cpu1_mode = atoi(optarg); break;
    case 's': b_slack = atol(optarg); break;
    case 'b': b_sleep_ns = atol(optarg); break;
    case 'r': b_repin = 0; break;
    case 'd': secs = atof(optarg); break;
    case 'w': wake_mode = 1; break;
    case 'B': b_busy_ns = atol(optarg); break;
    case 'P': b_period_ns = atol(optarg); break;
    case 'O': b_offset_ns = atol(optarg); break;
    case 'u': hog_busy_ns = atol(optarg); break;
  }
  prctl(PR_SET_TIMERSLACK, b_slack == 0 ? 1 : b_slack);
  clock_gettime(CLOCK_MONOTONIC, &T0); T0.tv_sec += 1; T0.tv_nsec = 0;
  pthread_t h, c;
  if (hog_mode) pthread_create(&h, NULL, hog, NULL);
  if (cpu1_mode) pthread_create(&c, NULL, cpu1hog, NULL);
  pthread_t w;
  if (wake_mode) { if (pipe(pfd)) return 1; pthread_create(&w, NULL, waker, NULL); }
  { struct timespec w = T0; clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &w, NULL); }
  struct timespec bt = T0; bt.tv_nsec += b_offset_ns;
  long on[2] = {0, 0}, moves = 0, n = 0;
  long end = nsnow() + (long)(secs * 1e9);
  pin(0); unpin();
  long m0 = migrations(); long i0 = idle1();
  int last = sched_getcpu();
  long u0 = -1, mid = nsnow() + (long)(secs * 5e8), ua = -1, ub = -1, qa = nsnow() + (long)(secs * 2.5e8), qb = nsnow() + (long)(secs * 7.5e8);
  while (nsnow() < end) {
    if (ua < 0 && nsnow() > qa) ua = util0();
    if (u0 < 0 && nsnow() > mid) u0 = util0();
    if (ub < 0 && nsnow() > qb) ub = util0();
    if (wake_mode) {
      if (b_repin && last != 1) { pin(1); unpin(); }
      char c; if (read(pfd[0], &c, 1) != 1) break;
    } else {
      if (b_repin && last != 0) { pin(0); unpin(); }
      if (b_period_ns) {
        bt.tv_nsec += b_period_ns; while (bt.tv_nsec >= 1000000000L) { bt.tv_nsec -= 1000000000L; bt.tv_sec++; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &bt, NULL);
        long late = nsnow() - (bt.tv_sec * 1000000000L + bt.tv_nsec);
        if (nlate < 100000) lates[nlate++] = late;
      } else {
        struct timespec d = {b_sleep_ns / 1000000000L, b_sleep_ns % 1000000000L};
        clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
      }
    }
    int cpu = sched_getcpu();
    on[cpu & 1]++; n++;
    if (b_busy_ns) { long e = nsnow() + b_busy_ns; while (nsnow() < e) {} }
    if (!b_repin && cpu != last) moves++;
    last = cpu;
  }
  long m1 = migrations(); long i1 = idle1();
  if (nlate) { qsort(lates, nlate, sizeof(long), cmpl); printf("B late us: p50 %ld p90 %ld p99 %ld max %ld\n", lates[nlate/2]/1000, lates[nlate*9/10]/1000, lates[nlate*99/100]/1000, lates[nlate-1]/1000); }
  stop = 1;
  if (hog_mode) pthread_join(h, NULL);
  if (cpu1_mode) pthread_join(c, NULL);
  if (wake_mode) { close(pfd[1]); close(pfd[0]); }
  printf("Bbusy=%ld %shog=%d%s busy=%ld period=%ld cpu1=%s slackB=%ld sleepB=%ld repin=%d: wakeups %ld on_cpu0 %ld on_cpu1 %ld moves %ld nr_migrations %ld cpu1_idle %.0f%% util0 %ld %ld %ld\n",
         b_busy_ns, wake_mode ? "pipe-from-cpu0 " : "", hog_mode, hog_fifo ? "fifo" : "other", hog_busy_ns, hog_period_ns, cpu1_mode ? "busy" : "idle", b_slack, b_sleep_ns, b_repin,
         n, on[0], on[1], moves, m1 - m0, (i1 - i0) / (secs * sysconf(_SC_CLK_TCK)) * 100, ua, u0, ub);
  return 0;
}
