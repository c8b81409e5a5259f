/*
 * forker.c - a process tree with known members, for `sysdig -- CMD`
 * (live_test.sh trace_cmd) and scripts/bench/trace_cmd.
 *
 * usage: forker PIDFILE [EXIT_CODE]
 * The process (P) forks A and B; B forks C, which execs /bin/true.  Each
 * of P, A, B, C appends "<pid> <role>\n" to PIDFILE (one write), A also
 * writes "forker-A-data" to /dev/null; P waits for A and B (B for C) and
 * exits with EXIT_CODE (default 7).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *g_file;

static void note(const char *role)
{
	char line[64];
	int fd = open(g_file, O_WRONLY | O_APPEND | O_CREAT, 0644);
	int n = snprintf(line, sizeof(line), "%d %s\n", (int)getpid(), role);

	if (fd < 0 || write(fd, line, (size_t)n) != n)
		_exit(2);
	close(fd);
}

static pid_t child(void (*body)(void))
{
	pid_t p = fork();

	if (p < 0)
		exit(3);
	if (p == 0) {
		body();
		_exit(0);
	}
	return p;
}

static void body_a(void)
{
	int fd = open("/dev/null", O_WRONLY);

	note("A");
	if (fd < 0 || write(fd, "forker-A-data", 13) != 13)
		_exit(2);
}

static void body_c(void)
{
	note("C");
	execl("/bin/true", "true", (char *)NULL);
	_exit(4);
}

static void body_b(void)
{
	int st;

	note("B");
	if (waitpid(child(body_c), &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		_exit(5);
}

int main(int argc, char **argv)
{
	pid_t a, b;
	int st, code = argc > 2 ? atoi(argv[2]) : 7;

	if (argc < 2)
		return 1;
	g_file = argv[1];
	note("P");
	a = child(body_a);
	b = child(body_b);
	if (waitpid(a, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return 6;
	if (waitpid(b, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		return 6;
	return code;
}
