/*
 * storm.c - syscall storms for the drop test and the capture benchmark
 * (scripts/bench/capture).
 *
 * usage: storm getppid|rw1|rw64k N   -> prints "ns_per_syscall <x>"
 * (process CPU time; wall-clock time with STORM_WALL=1: a ptrace tracer
 * stops the process instead of charging it)
 *   getppid  N getppid() calls
 *   rw1      N/2 1-byte write + read pairs through a pipe
 *   rw64k    N/2 64 KiB write + read pairs through a pipe
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

/* CPU time of the process: robust against other load on the machine
 * (the probe runs in the syscall path, so it is charged to us) */
static double now(void)
{
	static int wall = -1;
	struct timespec ts;

	if (wall < 0)
		wall = getenv("STORM_WALL") != NULL;
	clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* write then read sz bytes through a pipe (64 KiB = the pipe capacity) */
static void rw(long pairs, size_t sz)
{
	static char buf[65536];
	int p[2];
	long i;

	if (pipe(p))
		exit(1);
	for (i = 0; i < pairs; i++)
		if (write(p[1], buf, sz) != (ssize_t)sz || read(p[0], buf, sz) != (ssize_t)sz)
			exit(1);
}

int main(int argc, char **argv)
{
	long n, i;
	double t0;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: storm getppid|rw1|rw64k N\n");
		return 2;
	}
	t0 = now();
	if (!strcmp(argv[1], "getppid")) {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (!strcmp(argv[1], "rw1")) {
		rw(n / 2, 1);
	} else if (!strcmp(argv[1], "rw64k")) {
		rw(n / 2, 65536);
	} else {
		fprintf(stderr, "storm: unknown storm %s\n", argv[1]);
		return 2;
	}
	printf("ns_per_syscall %.1f\n", (now() - t0) / n);
	return 0;
}
