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
 *   ./wake-packing -w -d 1.5                   B blocks in read(); CPU 0 writes every 1 ms
 *   ./wake-packing -w -H 0 -W 800000 -B 50000  the writer spins 800 us before each write, B is put
 *                                              on CPU 0 (the writer's) and spins 50 us; -E: an
 *                                              eventfd in place of the pipe (a wakeup without
 *                                              WF_SYNC)
 *   ./wake-packing -h 2 -u 10000 -B 500000     B spins 500 us after each wakeup
 *   ./wake-packing -F 1 -d 1.5                 B creates a thread on CPU 0 every 1 ms instead of
 *                                              sleeping; counts where each new thread first runs,
 *                                              and by the state of CPU 0's task (-h 2) at the fork
 *   ./wake-packing -F 2 -d 1.5                 the same with fork(): a child process
 *   ./wake-packing -F 3 -d 1.5                 fork() then execve() of this program (-X), which
 *                                              counts where sched_exec() put the new image
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
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000L

static volatile int stop;
static int hog_mode;              /* CPU 0's task: 0 none, 1 spins, 2 periodic (-p, -u) */
static int hog_fifo;              /* -f */
static long hog_period_ns = 100000;
static long hog_slack = -1;       /* -S, -1: inherited */
static long hog_busy_ns;          /* -u: spin after each periodic wakeup */
static int cpu1_busy;             /* -c 1 */
static long b_slack = 50000;      /* -s */
static long b_sleep_ns = 1000000; /* -b */
static int b_repin = 1;           /* -r clears it */
static long b_busy_ns;            /* -B */
static long b_period_ns;          /* -P: absolute period from T0, 0 for relative sleeps */
static long b_offset_ns;          /* -O */
static int wake_mode;             /* -w */
static long writer_busy_ns;       /* -W: the writer spins before each write */
static int use_eventfd;           /* -E: an eventfd in place of the pipe (no WF_SYNC) */
static int home_opt = -1;         /* -H: where B is put before each sleep */
static int fork_mode;             /* -F: 1 pthread_create(), 2 fork(), 3 fork() and execve() */
static volatile int hog_awake;    /* the periodic task between its wakeup and its next sleep */
static volatile long hog_next;    /* its next expiry (ns, CLOCK_MONOTONIC) */
static int *shared_cpu;           /* -F 2/3: where a child process notes its CPU */
static int shared_fd;
static char *self_path;
static double secs = 5;           /* -d */
static struct timespec t0;
static int pfd[2];
static long lates[100000];
static long nlate;

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * NS + t.tv_nsec;
}

static void add_ns(struct timespec *t, long ns) {
  t->tv_nsec += ns;
  while (t->tv_nsec >= NS) {
    t->tv_nsec -= NS;
    t->tv_sec++;
  }
}

static void spin(long ns) {
  long end = now_ns() + ns;
  while (now_ns() < end) {
  }
}

static void allow(int cpu0, int cpu1) {
  cpu_set_t s;
  CPU_ZERO(&s);
  if (cpu0) CPU_SET(0, &s);
  if (cpu1) CPU_SET(1, &s);
  sched_setaffinity(0, sizeof s, &s);
}

/* Puts the calling thread on cpu, then lets it run anywhere again (it stays there). */
static void put_on(int cpu) {
  allow(cpu == 0, cpu == 1);
  allow(1, 1);
}

static void *hog(void *arg) {
  (void)arg;
  allow(1, 0);
  if (hog_fifo) {
    struct sched_param p = {.sched_priority = 50};
    sched_setscheduler(0, SCHED_FIFO, &p);
  }
  if (hog_slack >= 0) prctl(PR_SET_TIMERSLACK, hog_slack == 0 ? 1 : hog_slack);
  if (hog_mode == 1) {
    while (!stop) {
    }
    return NULL;
  }
  struct timespec t = t0;
  while (!stop) {
    add_ns(&t, hog_period_ns);
    hog_next = t.tv_sec * NS + t.tv_nsec;
    hog_awake = 0;
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
    hog_awake = 1;
    if (hog_busy_ns) spin(hog_busy_ns);
  }
  return NULL;
}

static void *cpu1_spinner(void *arg) {
  (void)arg;
  allow(0, 1);
  while (!stop) {
  }
  return NULL;
}

/* -w: writes a byte into the pipe every b_sleep_ns from CPU 0. */
static void *writer(void *arg) {
  (void)arg;
  allow(1, 0);
  struct timespec t = t0;
  while (!stop) {
    add_ns(&t, b_sleep_ns);
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
    if (writer_busy_ns) spin(writer_busy_ns);
    if (use_eventfd) {
      unsigned long long one = 1;
      if (write(pfd[1], &one, sizeof one) != sizeof one) break;
    } else if (write(pfd[1], "x", 1) != 1) {
      break;
    }
  }
  return NULL;
}

/* CPU 1's idle and iowait ticks from /proc/stat. */
static long cpu1_idle_ticks(void) {
  FILE *f = fopen("/proc/stat", "r");
  char line[512];
  long v = -1, a[5];
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "cpu1 ", 5) &&
        sscanf(line + 5, "%ld %ld %ld %ld %ld", &a[0], &a[1], &a[2], &a[3], &a[4]) == 5) {
      v = a[3] + a[4];
    }
  }
  fclose(f);
  return v;
}

/* CPU 0's root cfs_rq util_avg from /sys/kernel/debug/sched/debug, -1 when unreadable. */
static long cpu0_util(void) {
  FILE *f = fopen("/sys/kernel/debug/sched/debug", "r");
  char line[512];
  int in = 0;
  long v = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "cfs_rq[0]:/\n", 12)) {
      in = 1;
    } else if (in && strstr(line, ".util_avg ")) {
      v = atol(strchr(line, ':') + 1);
      break;
    }
  }
  fclose(f);
  return v;
}

static long nr_migrations(void) {
  char path[64], line[256];
  long v = -1;
  snprintf(path, sizeof path, "/proc/self/task/%ld/sched", (long)syscall(SYS_gettid));
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    if (strstr(line, "nr_migrations")) v = atol(strchr(line, ':') + 1);
  }
  fclose(f);
  return v;
}

/* A new thread: notes the CPU its placement (wake_up_new_task()) gave it, and exits. */
static void *newborn(void *arg) {
  *(int *)arg = sched_getcpu();
  return NULL;
}

/* CPU 0's periodic task when B creates a child: 0 asleep, 1 awake (runnable or preempted by B),
 * 2 its expiry passed but it has not run yet (woken and waiting, or its timer late). */
static int hog_state(void) {
  if (hog_mode != 2) return 0;
  if (hog_awake) return 1;
  return now_ns() >= hog_next ? 2 : 0;
}

/* -F 2/3: a child process notes its CPU (3: then execs this program with -X, which notes the CPU
 * sched_exec() gave it) and exits. */
static void child(void) {
  *shared_cpu = sched_getcpu();
  if (fork_mode == 3) {
    dup2(shared_fd, 3);
    execl(self_path, self_path, "-X", (char *)NULL);
  }
  _exit(0);
}

/* -F: B, running on CPU 0, creates a thread (or a process) and waits for it, then sleeps
 * b_sleep_ns; the CPU the child first ran on is returned in place of B's own wakeup CPU, and the
 * CPU 0 task's state at the creation in *state. */
static int fork_once(int *state, int *exec_cpu) {
  int cpu = -1;
  *state = hog_state();
  if (fork_mode == 1) {
    pthread_t t;
    if (pthread_create(&t, NULL, newborn, &cpu) == 0) pthread_join(t, NULL);
  } else {
    shared_cpu[0] = shared_cpu[1] = -1;
    pid_t pid = fork();
    if (pid == 0) child();
    if (pid > 0) waitpid(pid, NULL, 0);
    cpu = shared_cpu[0];
    *exec_cpu = shared_cpu[1];
  }
  struct timespec d = {0, b_sleep_ns};
  clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
  return cpu;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

/* One sleep of B: blocked in read(), or a relative or absolute timer. */
static void b_sleep(struct timespec *bt) {
  if (wake_mode) {
    unsigned long long c;
    size_t len = use_eventfd ? sizeof c : 1;
    if (read(pfd[0], &c, len) != (ssize_t)len) stop = 1;
  } else if (b_period_ns) {
    add_ns(bt, b_period_ns);
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, bt, NULL);
    if (nlate < 100000) lates[nlate++] = now_ns() - (bt->tv_sec * NS + bt->tv_nsec);
  } else {
    struct timespec d = {b_sleep_ns / NS, b_sleep_ns % NS};
    clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
  }
}

int main(int argc, char **argv) {
  int o;
  self_path = argv[0];
  shared_fd = memfd_create("wake-packing", 0);
  if (shared_fd < 0 || ftruncate(shared_fd, 4096)) return 1;
  shared_cpu = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd, 0);
  if (argc == 2 && !strcmp(argv[1], "-X")) { /* -F 3's exec'd child */
    shared_cpu = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0);
    if (shared_cpu != MAP_FAILED) shared_cpu[1] = sched_getcpu();
    return 0;
  }
  while ((o = getopt(argc, argv, "h:fp:u:S:c:s:b:rB:P:O:wW:EH:F:d:")) != -1) {
    switch (o) {
      case 'h': hog_mode = atoi(optarg); break;
      case 'f': hog_fifo = 1; break;
      case 'p': hog_period_ns = atol(optarg); break;
      case 'u': hog_busy_ns = atol(optarg); break;
      case 'S': hog_slack = atol(optarg); break;
      case 'c': cpu1_busy = atoi(optarg); break;
      case 's': b_slack = atol(optarg); break;
      case 'b': b_sleep_ns = atol(optarg); break;
      case 'r': b_repin = 0; break;
      case 'B': b_busy_ns = atol(optarg); break;
      case 'P': b_period_ns = atol(optarg); break;
      case 'O': b_offset_ns = atol(optarg); break;
      case 'w': wake_mode = 1; break;
      case 'W': writer_busy_ns = atol(optarg); break;
      case 'E': use_eventfd = 1; break;
      case 'H': home_opt = atoi(optarg); break;
      case 'F': fork_mode = atoi(optarg); break;
      case 'd': secs = atof(optarg); break;
      default:
        fprintf(stderr, "wake-packing: see the options at the top of the source\n");
        return 2;
    }
  }
  prctl(PR_SET_TIMERSLACK, b_slack == 0 ? 1 : b_slack);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  t0.tv_sec += 1;
  t0.tv_nsec = 0;
  pthread_t h, c, w;
  if (hog_mode) pthread_create(&h, NULL, hog, NULL);
  if (cpu1_busy) pthread_create(&c, NULL, cpu1_spinner, NULL);
  if (wake_mode) {
    if (use_eventfd) {
      pfd[0] = pfd[1] = eventfd(0, 0);
      if (pfd[0] < 0) return 1;
    } else if (pipe(pfd)) {
      return 1;
    }
    pthread_create(&w, NULL, writer, NULL);
  }
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t0, NULL);

  int home = home_opt >= 0 ? home_opt : wake_mode ? 1 : 0; /* where B is put before each sleep */
  struct timespec bt = t0;
  add_ns(&bt, b_offset_ns);
  long on[2] = {0, 0}, moves = 0, n = 0, util[3] = {-1, -1, -1};
  long by_state[3][2] = {{0}}, exec_on[2][2] = {{0}};
  long start = now_ns(), end = start + (long)(secs * 1e9);
  put_on(home);
  long m0 = nr_migrations(), i0 = cpu1_idle_ticks();
  int last = sched_getcpu();
  while (!stop && now_ns() < end) {
    for (int k = 0; k < 3; k++) {
      long at = start + (long)(secs * 1e9 * (k + 1) / 4);
      if (util[k] < 0 && now_ns() > at) util[k] = cpu0_util();
    }
    if (b_repin && (fork_mode || last != home)) put_on(home);
    int cpu;
    if (fork_mode) {
      int state, exec_cpu = -1;
      cpu = fork_once(&state, &exec_cpu);
      if (cpu < 0) continue;
      by_state[state][cpu & 1]++;
      if (exec_cpu >= 0) exec_on[cpu & 1][exec_cpu & 1]++;
    } else {
      b_sleep(&bt);
      cpu = sched_getcpu();
    }
    on[cpu & 1]++;
    n++;
    if (b_busy_ns) spin(b_busy_ns);
    if (!b_repin && cpu != last) moves++;
    last = cpu;
  }
  long m1 = nr_migrations(), i1 = cpu1_idle_ticks();
  stop = 1;
  if (nlate) {
    qsort(lates, nlate, sizeof(long), cmp_long);
    printf("B late us: p50 %ld p90 %ld p99 %ld max %ld\n", lates[nlate / 2] / 1000,
           lates[nlate * 9 / 10] / 1000, lates[nlate * 99 / 100] / 1000, lates[nlate - 1] / 1000);
  }
  if (hog_mode) pthread_join(h, NULL);
  if (cpu1_busy) pthread_join(c, NULL);
  printf("%s hog=%d%s busy=%ld period=%ld cpu1=%s B: busy=%ld slack=%ld sleep=%ld repin=%d\n",
         fork_mode ? fork_mode == 1 ? "new threads from CPU 0" : fork_mode == 2 ? "new processes from CPU 0" : "new processes exec'ing from CPU 0" : wake_mode ? use_eventfd ? "eventfd from CPU 0" : "pipe from CPU 0" : "timer", hog_mode, hog_fifo ? " fifo" : "", hog_busy_ns,
         hog_period_ns, cpu1_busy ? "busy" : "idle", b_busy_ns, b_slack, b_sleep_ns, b_repin);
  if (wake_mode) printf("writer spins %ld ns before each write; B put on CPU %d\n", writer_busy_ns, home);
  printf("wakeups %ld on_cpu0 %ld on_cpu1 %ld moves %ld nr_migrations %ld cpu1_idle %.0f%%"
         " cpu0_util_avg %ld %ld %ld\n",
         n, on[0], on[1], moves, m1 - m0,
         (i1 - i0) / (secs * sysconf(_SC_CLK_TCK)) * 100, util[0], util[1], util[2]);
  if (fork_mode) {
    printf("CPU 0's task at the creation: asleep %ld/%ld, awake %ld/%ld, expired not run %ld/%ld"
           " (children on cpu0/cpu1)\n",
           by_state[0][0], by_state[0][1], by_state[1][0], by_state[1][1], by_state[2][0],
           by_state[2][1]);
  }
  if (fork_mode == 3) {
    printf("after exec: forked on cpu0 -> cpu0 %ld cpu1 %ld; forked on cpu1 -> cpu0 %ld cpu1 %ld\n",
           exec_on[0][0], exec_on[0][1], exec_on[1][0], exec_on[1][1]);
  }
  return 0;
}
