/*
 * stackprog.c - the workload of the --stacks test (test/live/stacks_test.sh):
 * main() -> marker_caller() -> marker_func_write() -> write(2), N times to
 * stdout, then one write to stderr from main(), then it waits a little so
 * that its mappings can still be read when the consumer gets to its stacks
 * (300 ms, or $STACKPROG_PAUSE_MS: the qemu rig's consumer lags further).
 * Built with symbols and frame pointers (-g -fno-omit-frame-pointer).
 * With -t (the write storm of scripts/bench/stacks) it prints the process
 * CPU time per write, "ns_per_write X", to stderr at the end.
 *
 *   stackprog N [-t]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

__attribute__((noinline)) void marker_func_write(int i)
{
	char line[32];
	int n = snprintf(line, sizeof(line), "stackprog %d\n", i);

	if (write(STDOUT_FILENO, line, (size_t)n) != n)
		exit(1);
}

__attribute__((noinline)) void marker_caller(int i)
{
	marker_func_write(i);
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}

static double cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *pause_ms = getenv("STACKPROG_PAUSE_MS");
	long ms = pause_ms ? atol(pause_ms) : 300;
	struct timespec pause = { ms / 1000, (ms % 1000) * 1000 * 1000 };
	int n = argc > 1 ? atoi(argv[1]) : 3;
	double t0 = cpu_ns();

	for (int i = 0; i < n; i++)
		marker_caller(i);
	if (argc > 2 && !strcmp(argv[2], "-t")) {
		fprintf(stderr, "ns_per_write %.1f\n", n > 0 ? (cpu_ns() - t0) / n : 0.0);
		return 0;
	}
	if (write(STDERR_FILENO, "done\n", 5) != 5)
		return 1;
	syscall(SYS_nanosleep, &pause, NULL);	/* glibc's nanosleep is clock_nanosleep */
	return 0;
}
