/*
 * stacklate_lib.c - the library stacklate.c loads late: one function that
 * writes "late" (its frame must be named in the write's stack).
 */
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) void late_lib_write(int fd)
{
	if (write(fd, "late\n", 5) != 5)
		exit(1);
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}
