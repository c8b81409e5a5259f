/*
 * stackprog.c - the workload of the --stacks test (test/live/stacks_test.sh):
 * main() -> marker_caller() -> marker_func_write() -> write(2), N times to
 * stdout, then one write to stderr from main(), then it waits a little so
 * that its mappings can still be read.
 * Built with symbols and frame pointers (-g -fno-omit-frame-pointer).
 *
 *   stackprog N
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

int main(int argc, char **argv)
{
	struct timespec pause = { 0, 300 * 1000 * 1000 };
	int n = argc > 1 ? atoi(argv[1]) : 3;

	for (int i = 0; i < n; i++)
		marker_caller(i);
	if (write(STDERR_FILENO, "done\n", 5) != 5)
		return 1;
	syscall(SYS_nanosleep, &pause, NULL);	/* glibc's nanosleep is clock_nanosleep */
	return 0;
}
