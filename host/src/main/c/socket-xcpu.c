/*
 * socket-xcpu: the cost of a unix stream socket's write() and read() of 100 bytes when the reader
 * runs on the writer's CPU and when it runs on another (the socket's and the skbs' lines then
 * cross between the CPUs, as between hackbench's senders and receivers; docs/validation.md,
 * hackbench). The writer, pinned to CPU 0, writes 64 messages; then the reader, pinned to READER_CPU,
 * reads them; 2000 times. Prints the medians of the batches' means.
 *
 *   cc -O2 -o socket-xcpu host/src/main/c/socket-xcpu.c -lpthread
 *   ./socket-xcpu 0; ./socket-xcpu 1
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define ROUNDS 2000
#define SIZE 100

static int sv[2];
static int reader_cpu;
static atomic_int phase;
static double write_ns[ROUNDS], read_ns[ROUNDS];

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set)) {
    perror("sched_setaffinity");
    exit(1);
  }
}

static void *reader(void *arg) {
  char buf[SIZE];
  (void)arg;
  pin(reader_cpu);
  for (int r = 0; r < ROUNDS; r++) {
    while (atomic_load(&phase) != 2 * r + 1) {
    }
    double t0 = now_ns();
    for (int i = 0; i < BATCH; i++) {
      if (read(sv[1], buf, SIZE) != SIZE) {
        perror("read");
        exit(1);
      }
    }
    read_ns[r] = (now_ns() - t0) / BATCH;
    atomic_store(&phase, 2 * r + 2);
  }
  return NULL;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  char buf[SIZE] = {0};
  pthread_t t;
  if (argc < 2) {
    fprintf(stderr, "usage: socket-xcpu READER_CPU\n");
    return 2;
  }
  reader_cpu = atoi(argv[1]);
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
    perror("socketpair");
    return 1;
  }
  pin(0);
  pthread_create(&t, NULL, reader, NULL);
  for (int r = 0; r < ROUNDS; r++) {
    while (atomic_load(&phase) != 2 * r) {
    }
    double t0 = now_ns();
    for (int i = 0; i < BATCH; i++) {
      if (write(sv[0], buf, SIZE) != SIZE) {
        perror("write");
        return 1;
      }
    }
    write_ns[r] = (now_ns() - t0) / BATCH;
    atomic_store(&phase, 2 * r + 1);
  }
  pthread_join(t, NULL);
  qsort(write_ns, ROUNDS, sizeof(double), by_value);
  qsort(read_ns, ROUNDS, sizeof(double), by_value);
  printf("reader on CPU %d: write %.0f ns, read %.0f ns\n", reader_cpu, write_ns[ROUNDS / 2],
         read_ns[ROUNDS / 2]);
  return 0;
}
