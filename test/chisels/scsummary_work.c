/*
 * scsummary_work.c - a program with known system call counts for the
 * scsummary live test (scsummary_live.sh): 50 + 3 writes (3 by a forked
 * child), 7 failing opens (ENOENT), 4 failing closes (EBADF), 20 reads,
 * 5 getppid, one fork and one wait4, on top of the C runtime's start-up.
 * Built static and without sanitizers so that its calls are the same under
 * strace and under a capture.
 */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	char buf[64];
	int i, out = open("/dev/null", O_WRONLY), in = open("/dev/zero", O_RDONLY);
	pid_t child;

	if (out < 0 || in < 0)
		return 1;
	for (i = 0; i < 50; i++)
		if (write(out, "x", 1) != 1)
			return 1;
	for (i = 0; i < 7; i++)
		if (open("/nonexistent/scsummary", O_RDONLY) >= 0)
			return 1;
	for (i = 0; i < 4; i++)
		close(-1);
	for (i = 0; i < 20; i++)
		if (read(in, buf, sizeof(buf)) != sizeof(buf))
			return 1;
	child = fork();
	if (child == 0) {
		for (i = 0; i < 3; i++)
			if (write(out, "y", 1) != 1)
				_exit(1);
		_exit(0);
	}
	if (child < 0 || waitpid(child, NULL, 0) != child)
		return 1;
	for (i = 0; i < 5; i++)
		getppid();
	close(out);
	close(in);
	return 0;
}
