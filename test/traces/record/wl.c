/* wl.c - workloads recorded with the reference sysdig 0.29.3 in the qemu guest
 * (record.sh): sockets of every family and role, failed connects, threads,
 * pid namespaces. Built static on the host and run inside the guest as
 * `wl NAME` (after the capture started) or `wl NAME pre GOFILE` (sets up its
 * state first, then waits until GOFILE exists, i.e. until the capture runs).
 * Every step is plain syscalls so the capture shows the exact sequence. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *gofile;

static void wait_go(void)
{
	if (!gofile)
		return;
	while (access(gofile, F_OK) != 0)
		usleep(20000);
}

static socklen_t mkaddr(int fam, const char *ip, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (fam == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;
		a->sin_family = AF_INET;
		a->sin_port = htons(port);
		inet_pton(AF_INET, ip, &a->sin_addr);
		return sizeof(*a);
	}
	struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
	a->sin6_family = AF_INET6;
	a->sin6_port = htons(port);
	inet_pton(AF_INET6, ip, &a->sin6_addr);
	return sizeof(*a);
}

static int port_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);
	getsockname(fd, (struct sockaddr *)&ss, &l);
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

static int bound(int fam, int type, const char *ip, int port)
{
	struct sockaddr_storage ss;
	socklen_t l = mkaddr(fam, ip, port, &ss);
	int fd = socket(fam, type, 0);
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, l) < 0)
		perror("bind");
	return fd;
}

static int dial(int fam, int type, const char *ip, int port)
{
	struct sockaddr_storage ss;
	socklen_t l = mkaddr(fam, ip, port, &ss);
	int fd = socket(fam, type | SOCK_CLOEXEC, 0);
	if (connect(fd, (struct sockaddr *)&ss, l) < 0)
		perror("connect");
	return fd;
}

/* TCP: a listener, a client connecting to it (in this process or in a
 * forked child), one request and one reply, shutdown, close */
static void tcp(int fam, const char *ip, int two_procs)
{
	char buf[64];
	int ls = bound(fam, SOCK_STREAM, ip, 0), port = port_of(ls);
	listen(ls, 4);
	wait_go();
	pid_t child = two_procs ? fork() : 0;
	if (!two_procs || child == 0) {
		int c = dial(fam, SOCK_STREAM, ip, port);
		if (!two_procs) {
			int a = accept(ls, NULL, NULL);
			write(c, "ping", 4);
			read(a, buf, sizeof(buf));
			write(a, "pong", 4);
			read(c, buf, sizeof(buf));
			shutdown(c, SHUT_WR);
			close(a);
			close(c);
			close(ls);
			return;
		}
		write(c, "ping", 4);
		read(c, buf, sizeof(buf));
		close(c);
		_exit(0);
	}
	int a = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
	read(a, buf, sizeof(buf));
	write(a, "pong", 4);
	waitpid(child, NULL, 0);
	close(a);
	close(ls);
}

/* UDP: a bound receiver; an unbound sender (sendto); the receiver replies
 * with sendto; a connected UDP socket (connect, send, recv), reconnected to
 * another port; recvfrom on the sender */
static void udp(int fam, const char *ip)
{
	char buf[64];
	struct sockaddr_storage to, from;
	socklen_t fl = sizeof(from);
	int r = bound(fam, SOCK_DGRAM, ip, 0), rport = port_of(r);
	int s = socket(fam, SOCK_DGRAM, 0);
	wait_go();
	socklen_t tl = mkaddr(fam, ip, rport, &to);
	sendto(s, "one", 3, 0, (struct sockaddr *)&to, tl);
	recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	sendto(r, "two", 3, 0, (struct sockaddr *)&from, fl);
	fl = sizeof(from);
	recvfrom(s, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	int c = dial(fam, SOCK_DGRAM, ip, rport);
	send(c, "three", 5, 0);
	fl = sizeof(from);
	recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	sendto(r, "four", 4, 0, (struct sockaddr *)&from, fl);
	recv(c, buf, sizeof(buf), 0);
	tl = mkaddr(fam, ip, rport + 1, &to);
	connect(c, (struct sockaddr *)&to, tl);
	send(c, "five", 4, 0);
	recv(c, buf, sizeof(buf), MSG_DONTWAIT);
	close(c);
	close(s);
	close(r);
}

/* failed connects: unix path that does not exist, inet ports nobody
 * listens on, an unreachable address */
static void failconn(void)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	struct sockaddr_storage ss;
	socklen_t l;
	int fd;
	wait_go();
	strcpy(un.sun_path, "/tmp/no-such-socket");
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	connect(fd, (struct sockaddr *)&un, sizeof(un));
	close(fd);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	l = mkaddr(AF_INET, "127.0.0.1", 1, &ss);
	connect(fd, (struct sockaddr *)&ss, l);
	close(fd);
	fd = socket(AF_INET6, SOCK_STREAM, 0);
	l = mkaddr(AF_INET6, "::1", 1, &ss);
	connect(fd, (struct sockaddr *)&ss, l);
	close(fd);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	l = mkaddr(AF_INET, "10.1.2.3", 53, &ss);
	connect(fd, (struct sockaddr *)&ss, l);
	close(fd);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	l = mkaddr(AF_INET, "192.0.2.1", 80, &ss);
	connect(fd, (struct sockaddr *)&ss, l);
	close(fd);
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	close(fd);
	fd = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	close(fd);
	fd = socket(AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6);
	close(fd);
}

/* sockets created before the capture (in the /proc snapshot), used after */
static void presock(void)
{
	char buf[64];
	struct sockaddr_storage to, from;
	socklen_t fl = sizeof(from);
	int ls = bound(AF_INET, SOCK_STREAM, "127.0.0.1", 0), lport = port_of(ls);
	listen(ls, 4);
	int c = dial(AF_INET, SOCK_STREAM, "127.0.0.1", lport);
	int a = accept(ls, NULL, NULL);
	int r = bound(AF_INET, SOCK_DGRAM, "0.0.0.0", 0), rport = port_of(r);
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	int r6 = bound(AF_INET6, SOCK_DGRAM, "::", 0), r6port = port_of(r6);
	int s6 = socket(AF_INET6, SOCK_DGRAM, 0);
	int us[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, us);
	wait_go();
	write(c, "pre", 3);
	read(a, buf, sizeof(buf));
	socklen_t tl = mkaddr(AF_INET, "127.0.0.1", rport, &to);
	sendto(s, "u4", 2, 0, (struct sockaddr *)&to, tl);
	recvfrom(r, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	sendto(r, "r4", 2, 0, (struct sockaddr *)&from, fl);
	tl = mkaddr(AF_INET6, "::1", r6port, &to);
	sendto(s6, "u6", 2, 0, (struct sockaddr *)&to, tl);
	fl = sizeof(from);
	recvfrom(r6, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
	sendto(r6, "r6", 2, 0, (struct sockaddr *)&from, fl);
	write(us[0], "unix", 4);
	read(us[1], buf, sizeof(buf));
	tl = mkaddr(AF_INET, "127.0.0.1", 9, &to);
	sendto(s, "fixed", 5, 0, (struct sockaddr *)&to, tl);
	close(c);
	close(a);
	close(ls);
	close(r);
	close(s);
	close(r6);
	close(s6);
	close(us[0]);
	close(us[1]);
}

static void *worker(void *arg)
{
	char path[64];
	long n = (long)arg;
	wait_go();
	snprintf(path, sizeof(path), "/tmp/wl-thread-%ld", n);
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	write(fd, path, strlen(path));
	close(fd);
	unlink(path);
	return NULL;
}

/* threads: 3 started before the capture, 12 after, each writes a file */
static void threads(void)
{
	pthread_t t[15];
	long i;
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	wait_go();
	for (; i < 15; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (i = 0; i < 15; i++)
		pthread_join(t[i], NULL);
}

static char stack[256 * 1024];

static int nschild(void *arg)
{
	(void)arg;
	pid_t p = fork();
	if (p == 0) {
		int fd = open("/etc/passwd", O_RDONLY);
		char buf[32];
		read(fd, buf, sizeof(buf));
		close(fd);
		_exit(3);
	}
	waitpid(p, NULL, 0);
	threads();
	return 0;
}

/* a process in a new pid namespace forking a child, then threads */
static void pidns(void)
{
	wait_go();
	pid_t p = clone(nschild, stack + sizeof(stack), CLONE_NEWPID | SIGCHLD, NULL);
	if (p < 0) {
		perror("clone");
		return;
	}
	waitpid(p, NULL, 0);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (argc >= 4 && !strcmp(argv[2], "pre"))
		gofile = argv[3];
	const char *w = argv[1];
	if (!strcmp(w, "tcp4"))
		tcp(AF_INET, "127.0.0.1", 0), tcp(AF_INET, "127.0.0.1", 1);
	else if (!strcmp(w, "tcp6"))
		tcp(AF_INET6, "::1", 0), tcp(AF_INET6, "::1", 1);
	else if (!strcmp(w, "udp4"))
		udp(AF_INET, "127.0.0.1");
	else if (!strcmp(w, "udp6"))
		udp(AF_INET6, "::1");
	else if (!strcmp(w, "failconn"))
		failconn();
	else if (!strcmp(w, "presock"))
		presock();
	else if (!strcmp(w, "threads"))
		threads();
	else if (!strcmp(w, "pidns"))
		pidns();
	else
		return 2;
	return 0;
}
