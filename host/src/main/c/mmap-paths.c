/*
 * mmap-paths: times, one call at a time, each kernel path that the stress-ng V0.17.04 --mmap
 * worker (stress-mmap.c stress_mmap_child(), default options) runs, in the order and page
 * states it runs them, so the model's per-path costs can be compared with this kernel's.
 *
 *   cc -O2 -o mmap-paths host/src/main/c/mmap-paths.c
 *   ./mmap-paths PAGES ATTEMPTS [SEED]        e.g. ./mmap-paths 1024 20
 *
 * One attempt: mmap of the region (no MAP_POPULATE: the steady state, after the first failing
 * MAP_HUGETLB draw cleared it), a random madvise and MADV_MERGEABLE of the region,
 * MADV_POPULATE_READ, the fill (a write fault on every zero-page PTE), MADV_POPULATE_READ again;
 * step 1: per page in shuffled order a random madvise and a one-page munmap; munmap of the
 * emptied region; step 2: per page (reshuffled) mmap(MAP_FIXED or MAP_FIXED_NOREPLACE),
 * MADV_POPULATE_READ, a random madvise, MADV_MERGEABLE, the fill (write fault), the check;
 * step 3: per page a random madvise and a one-page munmap. The random advice is one of the 16
 * of V0.17.04's madvise_options[] (x86-64). Each call is timed with CLOCK_MONOTONIC (vDSO); the
 * median of an empty pair of clock reads is subtracted. A write fault is timed around the first
 * store to the page. getppid() is timed too: the bare syscall entry and exit. After the attempts,
 * ATTEMPTS rounds of a MAP_POPULATE mmap of the region and its munmap give the per-page costs.
 *
 * Prints per path: count, min, p50, p90, p99, max and mean in ns. Tails include preemption by
 * other tasks at the path's voluntary points and host (vCPU) preemption: read p50/p90 as cost.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_COLD
#define MADV_COLD 20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static const int advice[] = {MADV_NORMAL,    MADV_RANDOM,   MADV_SEQUENTIAL, MADV_WILLNEED,
                             MADV_DONTFORK,  MADV_DOFORK,   MADV_MERGEABLE,  MADV_UNMERGEABLE,
                             MADV_HUGEPAGE,  MADV_NOHUGEPAGE, MADV_DONTDUMP, MADV_DODUMP,
                             MADV_COLD,      MADV_PAGEOUT,  MADV_POPULATE_READ,
                             MADV_POPULATE_WRITE};
static const char *advice_name[] = {"NORMAL",     "RANDOM",     "SEQUENTIAL", "WILLNEED",
                                    "DONTFORK",   "DOFORK",     "MERGEABLE",  "UNMERGEABLE",
                                    "HUGEPAGE",   "NOHUGEPAGE", "DONTDUMP",   "DODUMP",
                                    "COLD",       "PAGEOUT",    "POPULATE_READ",
                                    "POPULATE_WRITE"};
#define N_ADV (sizeof(advice) / sizeof(advice[0]))

struct path {
  char name[64];
  long *ns;
  size_t n, cap;
};
static struct path paths[128];
static int n_paths;
static long clock_pair;
static uint64_t rnd_state = 88172645463325252ULL;

static uint64_t rnd(void) {
  rnd_state ^= rnd_state << 13;
  rnd_state ^= rnd_state >> 7;
  rnd_state ^= rnd_state << 17;
  return rnd_state;
}

static inline long now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void record(const char *name, long ns) {
  int i;
  for (i = 0; i < n_paths && strcmp(paths[i].name, name); i++) {
  }
  if (i == n_paths) {
    snprintf(paths[n_paths++].name, sizeof(paths[0].name), "%s", name);
  }
  struct path *p = &paths[i];
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 1024;
    p->ns = realloc(p->ns, p->cap * sizeof(long));
    if (!p->ns) {
      perror("realloc");
      exit(1);
    }
  }
  p->ns[p->n++] = ns - clock_pair;
}

#define TIMED(name, call)   \
  do {                      \
    long t0_ = now();       \
    call;                   \
    record(name, now() - t0_); \
  } while (0)

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

static void shuffle(size_t *idx, size_t n) {
  for (size_t i = n - 1; i > 0; i--) {
    size_t j = rnd() % (i + 1), t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
}

static void random_madvise(const char *step, void *addr, size_t len, const char *state) {
  int a = rnd() % N_ADV;
  char name[64];
  snprintf(name, sizeof(name), "%s madvise %s (%s)", step, advice_name[a], state);
  TIMED(name, madvise(addr, len, advice[a]));
}

/* A one-page munmap splits its VMA once per neighbour page still mapped (both: two splits). */
static const char *unmap_name(const char *step, const uint8_t *mapped, size_t n, size_t pages) {
  static char name[64];
  int splits = (n > 0 && mapped[n - 1]) + (n + 1 < pages && mapped[n + 1]);
  snprintf(name, sizeof(name), "%s munmap 1 page (anon), neighbours mapped: %d", step, splits);
  return name;
}

/* The first store to a page faults (write over the zero page or an absent PTE); then the rest. */
static void fill(const char *name, uint8_t *page, size_t ps) {
  long t0 = now();
  *(volatile uint8_t *)page = 1;
  record(name, now() - t0);
  t0 = now();
  memset(page, 0x5a, ps);
  record("user: fill 4 KiB (memset)", now() - t0);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s PAGES ATTEMPTS [SEED]\n", argv[0]);
    return 2;
  }
  /* Samples grow on the brk heap: a malloc'd mmap could land in the region's hole of step 1. */
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  size_t pages = strtoul(argv[1], NULL, 0);
  int attempts = atoi(argv[2]);
  if (argc > 3) {
    rnd_state ^= strtoull(argv[3], NULL, 0) * 0x9E3779B97F4A7C15ULL;
  }
  const size_t ps = (size_t)sysconf(_SC_PAGESIZE), sz = pages * ps;
  size_t *idx = calloc(pages, sizeof(*idx));
  uint8_t *mapped = calloc(pages, 1);
  if (!idx || !mapped || pages < 2 || attempts < 1) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  long pair[1001];
  for (int i = 0; i < 1001; i++) {
    long t0 = now();
    pair[i] = now() - t0;
  }
  qsort(pair, 1001, sizeof(long), cmp_long);
  clock_pair = pair[500];

  for (int at = 0; at < attempts; at++) {
    uint8_t *buf;
    for (int i = 0; i < 64; i++) {
      TIMED("getppid (bare syscall)", (void)getppid());
    }
    TIMED("region: mmap (no populate)",
          buf = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (buf == MAP_FAILED) {
      perror("mmap");
      return 1;
    }
    random_madvise("region", buf, sz, "absent");
    TIMED("region: madvise MERGEABLE (absent)", madvise(buf, sz, MADV_MERGEABLE));
    TIMED("region: MADV_POPULATE_READ (absent -> zero page)",
          madvise(buf, sz, MADV_POPULATE_READ));
    for (size_t n = 0; n < pages; n++) {
      fill("fault: write over zero-page PTE (wp_page_copy)", buf + n * ps, ps);
    }
    TIMED("region: MADV_POPULATE_READ (anon)", madvise(buf, sz, MADV_POPULATE_READ));
    for (size_t n = 0; n < pages; n++) {
      idx[n] = n;
      mapped[n] = 1;
    }
    shuffle(idx, pages);
    for (size_t n = 0; n < pages; n++) { /* step 1 */
      uint8_t *p = buf + idx[n] * ps;
      random_madvise("step1", p, ps, "anon");
      TIMED(unmap_name("step1", mapped, idx[n], pages), munmap(p, ps));
      mapped[idx[n]] = 0;
    }
    TIMED("region: munmap (empty range)", munmap(buf, sz));
    shuffle(idx, pages);
    for (size_t n = 0; n < pages; n++) { /* step 2 */
      uint8_t *p = buf + idx[n] * ps, *q;
      int fixed = (rnd() & 1) ? MAP_FIXED_NOREPLACE : MAP_FIXED;
      TIMED(fixed == MAP_FIXED ? "step2 mmap 1 page MAP_FIXED" : "step2 mmap 1 page MAP_FIXED_NOREPLACE",
            q = mmap(p, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | fixed, -1, 0));
      if (q != p) {
        continue;
      }
      mapped[idx[n]] = 1;
      TIMED("step2 MADV_POPULATE_READ 1 page (absent -> zero page)",
            madvise(p, ps, MADV_POPULATE_READ));
      random_madvise("step2", p, ps, "zero");
      TIMED("step2 madvise MERGEABLE 1 page", madvise(p, ps, MADV_MERGEABLE));
      fill("fault: write over zero-page PTE (wp_page_copy)", p, ps);
    }
    for (size_t n = 0; n < pages; n++) { /* step 3 */
      uint8_t *p = buf + n * ps;
      if (!mapped[n]) {
        continue;
      }
      random_madvise("step3", p, ps, "anon");
      TIMED(unmap_name("step3", mapped, n, pages), munmap(p, ps));
      mapped[n] = 0;
    }
  }

  /* The first attempts (MAP_POPULATE still set) and a populated range's munmap, per page. */
  for (int at = 0; at < attempts; at++) {
    uint8_t *buf;
    TIMED("bulk: mmap MAP_POPULATE (write faults via GUP)",
          buf = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                     -1, 0));
    if (buf == MAP_FAILED) {
      perror("mmap");
      return 1;
    }
    TIMED("bulk: munmap of the populated range", munmap(buf, sz));
  }

  printf("# clock pair %ld ns subtracted; pages %zu attempts %d\n", clock_pair, pages, attempts);
  printf("%-58s %7s %7s %7s %7s %7s %8s %7s\n", "path", "count", "min", "p50", "p90", "p99",
         "max", "mean");
  for (int i = 0; i < n_paths; i++) {
    struct path *p = &paths[i];
    double sum = 0;
    qsort(p->ns, p->n, sizeof(long), cmp_long);
    for (size_t k = 0; k < p->n; k++) {
      sum += p->ns[k];
    }
    printf("%-58s %7zu %7ld %7ld %7ld %7ld %8ld %7.0f\n", p->name, p->n, p->ns[0],
           p->ns[p->n / 2], p->ns[p->n * 9 / 10], p->ns[p->n * 99 / 100], p->ns[p->n - 1],
           sum / p->n);
  }
  return 0;
}
