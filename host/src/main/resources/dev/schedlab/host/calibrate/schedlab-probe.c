/*
 * schedlab-probe: the micro-benchmarks of `schedlab host --calibrate`.
 *
 * Each prints key=value lines (times in ns). Unprivileged: the measuring tasks are SCHED_OTHER
 * with a 1 ns timer slack (prctl PR_SET_TIMERSLACK), the background spinner is SCHED_IDLE.
 * The engine models each one as the workload tool `schedlab-probe` with the same arguments.
 *
 *   syscall N                    getppid() N times: ns_per_call
 *   pipe CPU_A CPU_B N           two processes pinned to A and B ping-pong one byte over two pipes
 *                                N times: ns_per_roundtrip
 *   wake CPU_A CPU_B N GAP BUSY  a process on A writes its clock_gettime() into a pipe every GAP ns;
 *                                a process on B, blocked in read(), measures the delay: the wakeup
 *                                of B idle (BUSY 0) or running a SCHED_IDLE spinner (BUSY 1);
 *                                write_p50: the median write() on A, which with BUSY 1 sends the
 *                                reschedule IPI (a VM exit in a guest)
 *   timer CPU N SLEEP BUSY       a process on CPU sleeps SLEEP ns (relative clock_nanosleep) N
 *                                times and measures how late it is back
 *   arm CPU N NEAR               a process on CPU arms a timerfd NEAR ns ahead and disarms it, N
 *                                times, then the same with the timer 10 s ahead: near_p50 and
 *                                far_p50, the median arm-and-disarm pair of each. A timer earlier
 *                                than the running tick reprograms the clockevent at the arm and
 *                                again at the disarm (hrtimer_reprogram(), __remove_hrtimer());
 *                                a later one does neither, so the difference is two clockevent
 *                                writes (in a guest, two local-APIC timer exits)
 *   noise SECONDS MIN            a process per online CPU reads the clock in a loop and records
 *                                every gap of MIN ns or more: what takes the CPU away from a task
 *                                that no other task preempts (cpuN=START:LENGTH,... per CPU, START
 *                                in CLOCK_MONOTONIC ns, so ticks show by their phase).
 *                                As SCHED_FIFO 99 where allowed (all CPUs at once, in windows of
 *                                0.5 s with 0.2 s pauses, well inside the RT throttling budget);
 *                                else SCHED_OTHER, one CPU at a time so that other tasks have
 *                                another CPU to run on (fifo=1 or 0 says which).
 *   ring CPU N HOPS              N processes on CPU pass a byte around a ring of pipes, HOPS hops:
 *                                ns_per_hop (median of three runs). With two, each task switched in
 *                                finds its cache lines as it left them; with more, the others ran
 *                                in between and evicted some (the switch refill)
 *   paths SIZE BATCHES           the tools' own kernel paths without any scheduling: in one process,
 *                                batches of 64 write()s of SIZE bytes into an AF_UNIX stream
 *                                socketpair, the 64 read()s back, the same over a pipe, and 64
 *                                getppid(); per call, the median over the batches:
 *                                socket_write_p50, socket_read_p50, pipe_write_p50,
 *                                pipe_read_p50, getppid_p50 (nobody sleeps, no wakeup is made)
 *   line CPU_A CPU_B N           two processes pinned to A and B pass one cache line back and forth
 *                                N times: each waits for the other's count in a shared word, then
 *                                writes its own (plain loads and stores, no fence):
 *                                ns_per_roundtrip, the median over batches of 1000 (a batch in
 *                                which either process was preempted is an outlier). A round trip is two
 *                                handoffs; in each, the writer takes the line from the spinning
 *                                reader's copy, and the reader fetches it back: four transfers
 * Quantile lines: p10, p50, p90, p99 and max of the samples.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void die(const char *what) {
  fprintf(stderr, "schedlab-probe: %s: %s\n", what, strerror(errno));
  exit(1);
}

static void pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  if (sched_setaffinity(0, sizeof s, &s) != 0) die("sched_setaffinity");
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

static int cmp_ll(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return x < y ? -1 : x > y;
}

static void quantiles(long long *v, long n) {
  qsort(v, n, sizeof *v, cmp_ll);
  printf("samples=%ld\n", n);
  if (n == 0) return;
  printf("p10=%lld\np50=%lld\np90=%lld\np99=%lld\nmax=%lld\n", v[n * 10 / 100], v[n / 2],
         v[n * 90 / 100], v[n * 99 / 100], v[n - 1]);
}

/* A SCHED_IDLE process spinning on CPU: a busy CPU that any other task preempts at once. */
static pid_t spinner(int cpu) {
  pid_t p = fork();
  if (p < 0) die("fork");
  if (p == 0) {
    struct sched_param sp = {0};
    pin(cpu);
    if (sched_setscheduler(0, SCHED_IDLE, &sp) != 0) die("SCHED_IDLE");
    for (;;) __asm__ volatile("" ::: "memory");
  }
  return p;
}

static void stop(pid_t p) {
  if (p > 0) {
    kill(p, SIGKILL);
    waitpid(p, NULL, 0);
  }
}

static void bench_syscall(long n) {
  long long best[5];
  for (int r = 0; r < 5; r++) {
    long long t0 = now_ns();
    for (long i = 0; i < n; i++) getppid();
    best[r] = (now_ns() - t0) / n;
  }
  qsort(best, 5, sizeof best[0], cmp_ll);
  printf("ns_per_call=%lld\n", best[2]);
}

static void bench_pipe(int a, int b, long n) {
  long long runs[3];
  for (int r = 0; r < 3; r++) {
    int p1[2], p2[2];
    char c = 0;
    if (pipe(p1) || pipe(p2)) die("pipe");
    pid_t child = fork();
    if (child < 0) die("fork");
    if (child == 0) {
      pin(b);
      for (long i = 0; i < n; i++) {
        if (read(p1[0], &c, 1) != 1 || write(p2[1], &c, 1) != 1) _exit(1);
      }
      _exit(0);
    }
    pin(a);
    long long t0 = now_ns();
    for (long i = 0; i < n; i++) {
      if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1) die("pipe round trip");
    }
    runs[r] = (now_ns() - t0) / n;
    waitpid(child, NULL, 0);
    close(p1[0]); close(p1[1]); close(p2[0]); close(p2[1]);
  }
  qsort(runs, 3, sizeof runs[0], cmp_ll);
  printf("ns_per_roundtrip=%lld\n", runs[1]);
}

static void bench_wake(int a, int b, long n, long gap, int busy) {
  int p[2];
  if (pipe(p)) die("pipe");
  long long *lat = mmap(NULL, n * sizeof *lat, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (lat == MAP_FAILED) die("mmap");
  pid_t spin = busy ? spinner(b) : 0;
  pid_t child = fork();
  if (child < 0) die("fork");
  if (child == 0) {
    long long t;
    pin(b);
    for (long i = 0; i < n; i++) {
      if (read(p[0], &t, sizeof t) != sizeof t) _exit(1);
      lat[i] = now_ns() - t;
    }
    _exit(0);
  }
  long long *wr = malloc(n * sizeof *wr);
  if (!wr) die("malloc");
  pin(a);
  struct timespec g = {gap / 1000000000L, gap % 1000000000L};
  for (long i = 0; i < n; i++) {
    clock_nanosleep(CLOCK_MONOTONIC, 0, &g, NULL);
    long long t = now_ns();
    if (write(p[1], &t, sizeof t) != sizeof t) die("write");
    wr[i] = now_ns() - t;
  }
  waitpid(child, NULL, 0);
  stop(spin);
  quantiles(lat, n);
  qsort(wr, n, sizeof *wr, cmp_ll);
  if (n > 0) printf("write_p50=%lld\n", wr[n / 2]);
  free(wr);
}

static void bench_ring(int cpu, int n, long hops) {
  long long runs[3];
  long rounds = hops / n;
  for (int r = 0; r < 3; r++) {
    int (*p)[2] = malloc(sizeof(int[2]) * n);
    char c = 'x';
    if (!p) die("malloc");
    for (int i = 0; i < n; i++) {
      if (pipe(p[i])) die("pipe");
    }
    pin(cpu);
    for (int i = 1; i < n; i++) {
      pid_t child = fork();
      if (child < 0) die("fork");
      if (child == 0) { /* process i reads pipe i and writes pipe i + 1 */
        for (long k = 0; k < rounds; k++) {
          if (read(p[i][0], &c, 1) != 1 || write(p[(i + 1) % n][1], &c, 1) != 1) _exit(1);
        }
        _exit(0);
      }
    }
    long long t0 = now_ns();
    for (long k = 0; k < rounds; k++) {
      if (write(p[1][1], &c, 1) != 1 || read(p[0][0], &c, 1) != 1) die("ring");
    }
    runs[r] = (now_ns() - t0) / (rounds * n);
    while (wait(NULL) > 0) {
    }
    for (int i = 0; i < n; i++) {
      close(p[i][0]);
      close(p[i][1]);
    }
    free(p);
  }
  qsort(runs, 3, sizeof runs[0], cmp_ll);
  printf("ns_per_hop=%lld\n", runs[1]);
}

/* Round trips per batch of the line probe: a batch in which either process was preempted is slow,
 * and the median batch is not. */
#define LINE_BATCH 1000

static void bench_line(int a, int b, long n) {
  long batches = n / LINE_BATCH;
  long long *v = malloc(sizeof *v * batches);
  long *word = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (!v || word == MAP_FAILED) die("mmap");
  pid_t child = fork();
  if (child < 0) die("fork");
  if (child == 0) { /* B answers each odd count with the next even one */
    pin(b);
    for (long i = 0; i < batches * LINE_BATCH; i++) {
      while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != 2 * i + 1) {
      }
      __atomic_store_n(word, 2 * i + 2, __ATOMIC_RELEASE);
    }
    _exit(0);
  }
  pin(a);
  for (long k = 0; k < batches; k++) {
    long long t0 = now_ns();
    for (long i = k * LINE_BATCH; i < (k + 1) * LINE_BATCH; i++) {
      __atomic_store_n(word, 2 * i + 1, __ATOMIC_RELEASE);
      while (__atomic_load_n(word, __ATOMIC_ACQUIRE) != 2 * i + 2) {
      }
    }
    v[k] = (now_ns() - t0) / LINE_BATCH;
  }
  waitpid(child, NULL, 0);
  munmap(word, 4096);
  qsort(v, batches, sizeof *v, cmp_ll);
  printf("ns_per_roundtrip=%lld\n", v[batches / 2]);
  free(v);
}

static void bench_timer(int cpu, long n, long sleep, int busy) {
  long long *late = malloc(n * sizeof *late);
  if (!late) die("malloc");
  pid_t spin = busy ? spinner(cpu) : 0;
  pin(cpu);
  struct timespec s = {sleep / 1000000000L, sleep % 1000000000L};
  for (long i = 0; i < n; i++) {
    long long t0 = now_ns();
    clock_nanosleep(CLOCK_MONOTONIC, 0, &s, NULL);
    late[i] = now_ns() - t0 - sleep;
  }
  stop(spin);
  quantiles(late, n);
}

/* The median time of n arm-and-disarm pairs of fd's timer, armed ahead ns ahead. */
static long long arm_pairs_p50(int fd, long n, long ahead, long long *v) {
  struct itimerspec on = {{0, 0}, {ahead / 1000000000L, ahead % 1000000000L}}, off = {{0, 0}, {0, 0}};
  for (long i = 0; i < n; i++) {
    long long t0 = now_ns();
    if (timerfd_settime(fd, 0, &on, NULL) || timerfd_settime(fd, 0, &off, NULL)) die("timerfd_settime");
    v[i] = now_ns() - t0;
  }
  qsort(v, n, sizeof *v, cmp_ll);
  return v[n / 2];
}

static void bench_arm(int cpu, long n, long near) {
  long long *v = malloc(n * sizeof *v);
  int fd = timerfd_create(CLOCK_MONOTONIC, 0);
  if (!v) die("malloc");
  if (fd < 0) die("timerfd_create");
  pin(cpu);
  printf("near_p50=%lld\n", arm_pairs_p50(fd, n, near, v));
  printf("far_p50=%lld\n", arm_pairs_p50(fd, n, 10000000000L, v));
  close(fd);
  free(v);
}

/* One spinner on cpu for secs, windowed if fifo; records gaps >= min into out; returns the count. */
static long spin_gaps(int cpu, double secs, long min, int fifo, long long *out, long cap) {
  /* out holds start,length pairs */
  long n = 0;
  pin(cpu);
  if (fifo) {
    struct sched_param sp = {.sched_priority = 99};
    if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) die("SCHED_FIFO");
  }
  double window = fifo ? 0.5 : secs;
  for (double done = 0; done < secs; done += window) {
    double w = secs - done < window ? secs - done : window;
    long long start = now_ns(), end = start + (long long)(w * 1e9), prev = start, t;
    while ((t = now_ns()) < end) {
      if (t - prev >= min && n < cap) {
        out[2 * n] = prev;
        out[2 * n + 1] = t - prev;
        n++;
      }
      prev = t;
    }
    if (fifo && done + window < secs) {
      struct timespec pause = {0, 200000000};
      clock_nanosleep(CLOCK_MONOTONIC, 0, &pause, NULL);
    }
  }
  return n;
}

static void bench_noise(double secs, long min) {
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN), cap = 1 << 16;
  long long *gaps = mmap(NULL, 2 * ncpu * cap * sizeof *gaps, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  long *count = mmap(NULL, ncpu * sizeof *count, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                     -1, 0);
  if (gaps == MAP_FAILED || count == MAP_FAILED) die("mmap");
  struct sched_param sp = {.sched_priority = 1};
  int fifo = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
  if (fifo) {
    sp.sched_priority = 0;
    sched_setscheduler(0, SCHED_OTHER, &sp);
  }
  for (long c = 0; c < ncpu; c++) {
    pid_t p = fork();
    if (p < 0) die("fork");
    if (p == 0) {
      count[c] = spin_gaps((int)c, secs, min, fifo, gaps + 2 * c * cap, cap);
      _exit(0);
    }
    if (!fifo) waitpid(p, NULL, 0); /* one CPU at a time */
  }
  while (wait(NULL) > 0) {
  }
  printf("cpus=%ld\nseconds=%.3f\nfifo=%d\n", ncpu, secs, fifo);
  for (long c = 0; c < ncpu; c++) {
    printf("cpu%ld=", c);
    for (long i = 0; i < count[c]; i++) {
      long long *g = gaps + 2 * (c * cap + i);
      printf(i ? ",%lld:%lld" : "%lld:%lld", g[0], g[1]);
    }
    printf("\n");
  }
}

#define PER_BATCH 64

/* The median per-call time of 64 calls of op over the batches. */
static long long per_call_p50(long long *v, long batches) {
  qsort(v, batches, sizeof *v, cmp_ll);
  return v[batches / 2];
}

/* 64 writes of size bytes into fds[1], then the 64 reads back from fds[0]; per-call ns each. */
static void write_read_batch(const int fds[2], char *msg, int size, long long *w, long long *r) {
  long long t0 = now_ns();
  for (int i = 0; i < PER_BATCH; i++)
    if (write(fds[1], msg, size) != size) die("write");
  long long t1 = now_ns();
  for (int i = 0; i < PER_BATCH; i++)
    for (int done = 0; done < size;) {
      ssize_t n = read(fds[0], msg + done, size - done);
      if (n <= 0) die("read");
      done += n;
    }
  *w = (t1 - t0) / PER_BATCH;
  *r = (now_ns() - t1) / PER_BATCH;
}

static void bench_paths(int size, long batches) {
  int sock[2], pfd[2];
  char *msg = calloc(1, size);
  long long *v = malloc(5 * batches * sizeof *v);
  if (!msg || !v) die("malloc");
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sock)) die("socketpair");
  if (pipe(pfd)) die("pipe");
  for (long b = 0; b < batches; b++) {
    write_read_batch(sock, msg, size, &v[b], &v[batches + b]);
    write_read_batch(pfd, msg, size, &v[2 * batches + b], &v[3 * batches + b]);
    long long t0 = now_ns();
    for (int i = 0; i < PER_BATCH; i++) getppid();
    v[4 * batches + b] = (now_ns() - t0) / PER_BATCH;
  }
  printf("socket_write_p50=%lld\n", per_call_p50(v, batches));
  printf("socket_read_p50=%lld\n", per_call_p50(v + batches, batches));
  printf("pipe_write_p50=%lld\n", per_call_p50(v + 2 * batches, batches));
  printf("pipe_read_p50=%lld\n", per_call_p50(v + 3 * batches, batches));
  printf("getppid_p50=%lld\n", per_call_p50(v + 4 * batches, batches));
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc >= 3 && !strcmp(argv[1], "syscall")) bench_syscall(atol(argv[2]));
  else if (argc >= 5 && !strcmp(argv[1], "pipe")) bench_pipe(atoi(argv[2]), atoi(argv[3]), atol(argv[4]));
  else if (argc >= 7 && !strcmp(argv[1], "wake"))
    bench_wake(atoi(argv[2]), atoi(argv[3]), atol(argv[4]), atol(argv[5]), atoi(argv[6]));
  else if (argc >= 6 && !strcmp(argv[1], "timer"))
    bench_timer(atoi(argv[2]), atol(argv[3]), atol(argv[4]), atoi(argv[5]));
  else if (argc >= 5 && !strcmp(argv[1], "arm") && atol(argv[3]) > 0)
    bench_arm(atoi(argv[2]), atol(argv[3]), atol(argv[4]));
  else if (argc >= 4 && !strcmp(argv[1], "noise")) bench_noise(atof(argv[2]), atol(argv[3]));
  else if (argc >= 4 && !strcmp(argv[1], "paths") && atoi(argv[2]) > 0 && atol(argv[3]) >= 10)
    bench_paths(atoi(argv[2]), atol(argv[3]));
  else if (argc >= 5 && !strcmp(argv[1], "ring") && atoi(argv[3]) >= 2 && atol(argv[4]) >= atoi(argv[3]))
    bench_ring(atoi(argv[2]), atoi(argv[3]), atol(argv[4]));
  else if (argc >= 5 && !strcmp(argv[1], "line") && atol(argv[4]) >= LINE_BATCH)
    bench_line(atoi(argv[2]), atoi(argv[3]), atol(argv[4]));
  else {
    fprintf(stderr, "usage: schedlab-probe syscall N | pipe A B N | wake A B N GAP BUSY | "
                    "timer CPU N SLEEP BUSY | arm CPU N NEAR | noise SECONDS MIN | paths SIZE BATCHES | "
                    "ring CPU N HOPS | line A B N\n");
    return 2;
  }
  return 0;
}
