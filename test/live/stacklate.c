/*
 * stacklate.c - the workload of stacks_test.sh late_lib: --stacks on code
 * mapped after the process's first stacks were symbolised.  main() writes
 * "early" to stdout, waits until the file GATE exists (the test creates it
 * once sysdig printed that write, so its mappings were read), dlopen()s LIB
 * (stacklate_lib.c) and calls its late_lib_write(), which writes "late";
 * then it waits 300 ms so that its mappings can still be read.
 * Built with symbols and frame pointers.
 *
 *   stacklate LIB GATE
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct timespec ms = { 0, 1000 * 1000 }, pause = { 0, 300 * 1000 * 1000 };
	void (*late_write)(int);
	void *lib;

	if (argc < 3 || write(STDOUT_FILENO, "early\n", 6) != 6)
		return 1;
	while (access(argv[2], F_OK))
		syscall(SYS_nanosleep, &ms, NULL);
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib)
		return 2;
	late_write = (void (*)(int))dlsym(lib, "late_lib_write");
	if (!late_write)
		return 3;
	late_write(STDOUT_FILENO);
	syscall(SYS_nanosleep, &pause, NULL);
	return 0;
}
