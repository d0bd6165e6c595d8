/*
 * socket-depth: the cost of a unix stream socket's write() and read() of 100 bytes on one CPU as
 * the messages queued at once grow past what the CPU's private caches hold (hackbench's senders
 * keep 20 sockets per group full, 278 messages each; docs/validation.md, hackbench). Pinned to CPU
 * 0, it writes DEPTH messages to each of SOCKETS socketpairs in turn (as a hackbench sender does),
 * then reads them back socket by socket (as the receivers do); REPS times. Prints the medians of
 * the repetitions' means per call.
 *
 *   cc -O2 -o socket-depth host/src/main/c/socket-depth.c
 *   ./socket-depth 1 64 200; ./socket-depth 20 250 30; ./socket-depth 80 250 10
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SIZE 100

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: socket-depth SOCKETS DEPTH REPS\n");
    return 2;
  }
  int n = atoi(argv[1]), d = atoi(argv[2]), reps = atoi(argv[3]);
  if (n < 1 || d < 1 || reps < 1) {
    fprintf(stderr, "socket-depth: SOCKETS, DEPTH and REPS must be positive\n");
    return 2;
  }
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(0, &s);
  sched_setaffinity(0, sizeof s, &s);
  int (*fd)[2] = malloc(sizeof(int[2]) * n);
  for (int i = 0; i < n; i++) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fd[i]) != 0) {
      perror("socketpair");
      return 1;
    }
  }
  char buf[SIZE] = {1};
  long *w = malloc(sizeof(long) * reps), *r = malloc(sizeof(long) * reps);
  for (int k = 0; k < reps; k++) {
    long t0 = now_ns();
    for (int j = 0; j < d; j++)
      for (int i = 0; i < n; i++)
        if (write(fd[i][1], buf, SIZE) != SIZE) {
          perror("write (a full socket: lower DEPTH)");
          return 1;
        }
    long t1 = now_ns();
    for (int i = 0; i < n; i++)
      for (int j = 0; j < d; j++)
        if (read(fd[i][0], buf, SIZE) != SIZE) {
          perror("read");
          return 1;
        }
    long t2 = now_ns();
    w[k] = (t1 - t0) / ((long)n * d);
    r[k] = (t2 - t1) / ((long)n * d);
  }
  qsort(w, reps, sizeof(long), cmp);
  qsort(r, reps, sizeof(long), cmp);
  printf("sockets %d depth %d queued %d: write %ld ns, read %ld ns\n", n, d, n * d, w[reps / 2],
         r[reps / 2]);
  return 0;
}
