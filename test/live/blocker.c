/*
 * blocker.c - calls that take a known time, for the live latency test
 * (live_test.sh latency) and the socket-type test (sock_flags).
 *
 * usage: blocker latency GATE
 *   nanosleep(250 ms), then a read(2) of 16 bytes on a pipe that blocks
 *   until GATE exists: a child polls for it, writes "wake!" and exits.
 * usage: blocker sockets PORT
 *   a TCP listener on 127.0.0.1:PORT made with SOCK_STREAM|SOCK_CLOEXEC, a
 *   client made with SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC connecting to it
 *   (EINPROGRESS, then poll), 4 bytes each way; a UDP socket made with
 *   SOCK_DGRAM|SOCK_CLOEXEC sending 6 bytes to PORT + 1.
 * usage: blocker spin MS
 *   a busy loop in user space for MS ms of wall time (topprocs_cpu)
 * usage: blocker signal
 *   sends itself SIGUSR1 (caught) with kill(2), then SIGUSR2 with tgkill(2)
 * usage: blocker write FILE N
 *   one write(2) of N bytes (10 <= N <= 65536) to FILE: "0123456789" repeated,
 *   the last 10 bytes "<THE-END!>" (a snaplen test sees whether they came)
 * usage: blocker statx FILE
 *   statx(AT_FDCWD, FILE, AT_SYMLINK_NOFOLLOW, STATX_MODE|STATX_SIZE), then
 *   statx(AT_FDCWD, FILE + ".missing", 0, STATX_BASIC_STATS) (ENOENT);
 *   exits 0 when the first one saw a regular file
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int latency(const char *gate)
{
	struct timespec ts = { 0, 250000000 };
	char buf[16];
	struct stat st;
	int p[2];
	pid_t pid;

	syscall(SYS_nanosleep, &ts, NULL);
	if (pipe(p))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		pid_t parent = getppid();

		/* gone with its parent (a test killed on failure) */
		while (stat(gate, &st) && getppid() == parent)
			usleep(20000);
		_exit(write(p[1], "wake!", 5) != 5);
	}
	if (read(p[0], buf, sizeof(buf)) != 5)
		return 1;
	return waitpid(pid, NULL, 0) != pid;
}

static struct sockaddr_in loopback(int port)
{
	struct sockaddr_in a;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static int sockets(int port)
{
	struct sockaddr_in a = loopback(port), u = loopback(port + 1);
	int one = 1, l, c, s, d;
	struct pollfd pf;
	char buf[8];

	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 4))
		return 1;
	c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c < 0)
		return 1;
	connect(c, (struct sockaddr *)&a, sizeof(a));
	pf.fd = c;
	pf.events = POLLOUT;
	if (poll(&pf, 1, 2000) != 1)
		return 1;
	s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (s < 0 || send(c, "ping", 4, 0) != 4 || recv(s, buf, sizeof(buf), 0) != 4 ||
	    send(s, "pong", 4, 0) != 4)
		return 1;
	pf.events = POLLIN;
	if (poll(&pf, 1, 2000) != 1 || recv(c, buf, sizeof(buf), 0) != 4)
		return 1;
	d = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (d < 0 || sendto(d, "dgram!", 6, 0, (struct sockaddr *)&u, sizeof(u)) != 6)
		return 1;
	close(d);
	close(s);
	close(c);
	close(l);
	return 0;
}

static double wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int spin(long ms)
{
	volatile unsigned long x = 0;
	double end = wall_ms() + ms;

	while (wall_ms() < end)
		for (int i = 0; i < 100000; i++)
			x += i;
	return 0;
}

static int write_file(const char *path, long n)
{
	static char buf[65536];
	FILE *f;
	long i;

	if (n < 10 || n > (long)sizeof(buf))
		return 2;
	for (i = 0; i < n - 10; i++)
		buf[i] = '0' + i % 10;
	memcpy(buf + n - 10, "<THE-END!>", 10);
	f = fopen(path, "w");
	if (!f || write(fileno(f), buf, n) != n)
		return 1;
	return fclose(f) != 0;
}

static int stat_file(const char *path)
{
	char missing[4096];
	struct statx st;
	int rc;

	snprintf(missing, sizeof(missing), "%s.missing", path);
	rc = statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MODE | STATX_SIZE, &st);
	if (statx(AT_FDCWD, missing, 0, STATX_BASIC_STATS, &st) == 0)
		return 1;
	return rc != 0;
}

static volatile sig_atomic_t got;

static void on_signal(int sig)
{
	got += sig;
}

static int signals(void)
{
	signal(SIGUSR1, on_signal);
	signal(SIGUSR2, on_signal);
	kill(getpid(), SIGUSR1);
	syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), SIGUSR2);
	return got != SIGUSR1 + SIGUSR2;
}

int main(int argc, char **argv)
{
	/* the fds the tests expect: 3, 4, ... (ctest may pass others down) */
	syscall(SYS_close_range, 3, ~0U, 0);
	if (argc == 3 && !strcmp(argv[1], "latency"))
		return latency(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "sockets"))
		return sockets(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "spin"))
		return spin(atol(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "signal"))
		return signals();
	if (argc == 4 && !strcmp(argv[1], "write"))
		return write_file(argv[2], atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "statx"))
		return stat_file(argv[2]);
	fprintf(stderr, "usage: blocker latency GATE | sockets PORT | spin MS | signal | write FILE N | statx FILE\n");
	return 2;
}
