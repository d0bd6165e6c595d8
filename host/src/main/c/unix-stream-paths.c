/*
 * unix-stream-paths: times hackbench's two syscalls without its scheduling: write() of one
 * message into an AF_UNIX stream socketpair and read() of it back, in one process, so that no
 * reader or writer ever sleeps (sock_def_readable() finds no sleeper, the send buffer never
 * fills). getppid() is timed the same way: the bare syscall entry and exit.
 *
 *   cc -O2 -o unix-stream-paths host/src/main/c/unix-stream-paths.c
 *   ./unix-stream-paths [SIZE [BATCHES]]        e.g. ./unix-stream-paths 100 3000
 *
 * Each batch writes 64 messages of SIZE bytes (64 x 768 bytes of skbs for 100-byte messages,
 * well below the 212992-byte sk_sndbuf), reads them back, then makes 64 getppid() calls; the
 * per-call time of each is the batch's CLOCK_MONOTONIC time over 64. Prints min, p10 and p50
 * of the per-call times over the batches; a batch that another task preempted lands in the tail.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define PER_BATCH 64

static long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void report(const char *what, long *v, int n)
{
	qsort(v, n, sizeof(*v), by_value);
	printf("%-16s min %5ld  p10 %5ld  p50 %5ld ns\n", what, v[0], v[n / 10], v[n / 2]);
}

int main(int argc, char **argv)
{
	int size = argc > 1 ? atoi(argv[1]) : 100;
	int batches = argc > 2 ? atoi(argv[2]) : 3000;
	int fds[2];
	char *msg = calloc(1, size > 0 ? size : 1);
	long *w = malloc(batches * sizeof(long));
	long *r = malloc(batches * sizeof(long));
	long *g = malloc(batches * sizeof(long));

	if (size < 1 || batches < 10 || !msg || !w || !r || !g) {
		fprintf(stderr, "usage: unix-stream-paths [SIZE >= 1 [BATCHES >= 10]]\n");
		return 2;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds)) {
		perror("socketpair");
		return 1;
	}
	for (int b = 0; b < batches; b++) {
		long t0 = now_ns();
		for (int i = 0; i < PER_BATCH; i++)
			if (write(fds[1], msg, size) != size)
				return 1;
		long t1 = now_ns();
		for (int i = 0; i < PER_BATCH; i++) {
			for (int done = 0; done < size;) {
				ssize_t n = read(fds[0], msg + done, size - done);
				if (n <= 0)
					return 1;
				done += n;
			}
		}
		long t2 = now_ns();
		for (int i = 0; i < PER_BATCH; i++)
			getppid();
		long t3 = now_ns();
		w[b] = (t1 - t0) / PER_BATCH;
		r[b] = (t2 - t1) / PER_BATCH;
		g[b] = (t3 - t2) / PER_BATCH;
	}
	printf("unix stream socketpair, %d-byte messages, %d batches of %d\n", size, batches,
	       PER_BATCH);
	report("write()", w, batches);
	report("read()", r, batches);
	report("getppid()", g, batches);
	return 0;
}
