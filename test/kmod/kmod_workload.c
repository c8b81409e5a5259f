/*
 * kmod_workload.c - deterministic syscall workload for the kmod VM test.
 *
 * Each step uses a known file, size or address so the rig can check the
 * captured parameters exactly (vm_check.sh): open/write/read/close of
 * /tmp/kmodwl.txt (13 bytes), openat of a missing path (ENOENT), statx of
 * the file (AT_SYMLINK_NOFOLLOW, STATX_MODE|STATX_SIZE), a pipe with
 * 5 bytes, fork + execve of /bin/true, a TCP exchange on 127.0.0.1:PORT.
 * Paths are built in stack buffers, as most programs do: a probe cannot
 * fault in a never-touched .rodata page, so a literal passed straight to
 * the syscall may read as <NA> in enter events (same as the reference).
 * usage: kmod_workload [port]   (default 5555)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define WL_FILE "/tmp/kmodwl.txt"
#define WL_TEXT "hello kmod!!\n"	/* 13 bytes */

static int fail(const char *what)
{
	perror(what);
	return 1;
}

static int file_step(void)
{
	char buf[64], path[64], missing[64];
	struct statx st;
	int fd;

	snprintf(path, sizeof(path), "%s", WL_FILE);
	snprintf(missing, sizeof(missing), "/nonexistent/%s", "kmod_missing");
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	if (fd < 0 || write(fd, WL_TEXT, 13) != 13)
		return fail("write " WL_FILE);
	close(fd);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != 13)
		return fail("read " WL_FILE);
	close(fd);
	if (openat(AT_FDCWD, missing, O_RDONLY) >= 0)
		return fail("openat missing");
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MODE | STATX_SIZE, &st) ||
	    st.stx_size != 13)
		return fail("statx " WL_FILE);
	return 0;
}

static int pipe_step(void)
{
	int p[2];
	char buf[8];

	if (pipe(p) || write(p[1], "pipe!", 5) != 5 || read(p[0], buf, 8) != 5)
		return fail("pipe");
	close(p[0]);
	close(p[1]);
	return 0;
}

static int exec_step(void)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		char path[32], a0[8], a1[16];
		char *argv[] = { a0, a1, NULL };

		snprintf(path, sizeof(path), "/bin/%s", "true");
		snprintf(a0, sizeof(a0), "%s", "true");
		snprintf(a1, sizeof(a1), "%s", "kmodarg");
		execve(path, argv, (char *[]){ NULL });
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return fail("exec /bin/true");
	return 0;
}

static int tcp_step(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, ls, cs, as;
	char buf[16];

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 4))
		return fail("tcp listen");
	cs = socket(AF_INET, SOCK_STREAM, 0);
	if (cs < 0 || connect(cs, (struct sockaddr *)&a, sizeof(a)))
		return fail("tcp connect");
	as = accept(ls, NULL, NULL);
	if (as < 0 || sendto(cs, "ping", 4, 0, NULL, 0) != 4 ||
	    recvfrom(as, buf, sizeof(buf), 0, NULL, NULL) != 4)
		return fail("tcp exchange");
	close(as);
	close(cs);
	close(ls);
	return 0;
}

int main(int argc, char **argv)
{
	int port = argc > 1 ? atoi(argv[1]) : 5555;

	if (file_step() || pipe_step() || exec_step() || tcp_step(port))
		return 1;
	printf("workload done\n");
	return 0;
}
