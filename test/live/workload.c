/*
 * workload.c - a known sequence of syscalls for the live capture tests
 * (test/live/live_test.sh): every call below must show up in the capture
 * with exactly these arguments.
 *
 * usage: workload TAG BASEPORT [GATE]
 *   waits until the file GATE exists (so a capture can filter on our pid)
 *   files  /tmp/sdlive-TAG.txt (write 37, read 37), rename to .ren, unlink;
 *          openat of /tmp/sdlive-TAG.missing fails with ENOENT
 *   pipe + dup2(pipe write end, 100), 5 bytes through it
 *   fork; the child execs /bin/true live-arg-1 live-arg-2 with env LIVE_ENV=42
 *   TCP 127.0.0.1:BASEPORT (4 bytes each way), TCP [::1]:BASEPORT+2 (4 bytes
 *   each way), then UDP 127.0.0.1:BASEPORT+1 (6 bytes, sendto from a
 *   connected socket, recvfrom on the bound receiver, see udp())
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILE_BYTES 37

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void files(const char *tag)
{
	char path[256], ren[256], missing[256], buf[64];
	const char *data = "0123456789abcdefghijklmnopqrstuvwxyz\n";
	int fd;

	snprintf(path, sizeof(path), "/tmp/sdlive-%s.txt", tag);
	snprintf(ren, sizeof(ren), "/tmp/sdlive-%s.ren", tag);
	snprintf(missing, sizeof(missing), "/tmp/sdlive-%s.missing", tag);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0640);
	if (fd < 0)
		die("open");
	if (write(fd, data, FILE_BYTES) != FILE_BYTES)
		die("write");
	close(fd);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != FILE_BYTES)
		die("read");
	close(fd);
	if (openat(AT_FDCWD, missing, O_RDONLY) >= 0 || errno != ENOENT)
		die("openat missing");
	if (rename(path, ren))
		die("rename");
	if (unlink(ren))
		die("unlink");
}

static void pipes(void)
{
	int p[2];
	char buf[8];

	if (pipe(p))
		die("pipe");
	if (dup2(p[1], 100) != 100)
		die("dup2");
	if (write(100, "pipe!", 5) != 5 || read(p[0], buf, sizeof(buf)) != 5)
		die("pipe io");
	close(100);
	close(p[0]);
	close(p[1]);
}

static void child_exec(void)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		char *argv[] = { "true", "live-arg-1", "live-arg-2", NULL };
		char *envp[] = { "LIVE_ENV=42", NULL };

		execve("/bin/true", argv, envp);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("child");
}

static void tcp(int family, int port)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	int srv, cli, acc, one = 1;
	char buf[8];

	if (family == AF_INET) {
		struct sockaddr_in *in = (void *)&ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (void *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		in6->sin6_addr = in6addr_loopback;
		len = sizeof(*in6);
	}
	srv = socket(family, SOCK_STREAM, 0);
	if (srv < 0)
		die("socket");
	setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(srv, (void *)&ss, len) || listen(srv, 4))
		die("bind/listen");
	cli = socket(family, SOCK_STREAM, 0);
	if (cli < 0 || connect(cli, (void *)&ss, len))
		die("connect");
	acc = accept(srv, NULL, NULL);
	if (acc < 0)
		die("accept");
	if (send(cli, "ping", 4, 0) != 4 || recv(acc, buf, sizeof(buf), 0) != 4)
		die("tcp ping");
	if (send(acc, "pong", 4, 0) != 4 || recv(cli, buf, sizeof(buf), 0) != 4)
		die("tcp pong");
	close(acc);
	close(cli);
	close(srv);
}

/*
 * UDP on loopback, to the known port: the sender is connected (its
 * ephemeral port bound by connect), sends with sendto() to the receiver,
 * bound to port, which takes the datagram with recvfrom().  This avoids
 * the two patterns where the reference reader prints uninitialised memory
 * as an fd's address: a sendto() from an unbound socket, and any use of a
 * bound socket's fd after a recvfrom() on it.  So the receiver is not
 * closed: the workload ends right after (the close at exit is no event).
 */
static void udp(int port)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	int rx, tx;
	char buf[16];

	in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0 || bind(rx, (void *)&in, sizeof(in)))
		die("udp socket");
	if (connect(tx, (void *)&in, sizeof(in)))
		die("udp connect");
	if (sendto(tx, "dgram!", 6, 0, (void *)&in, sizeof(in)) != 6)
		die("sendto");
	if (recvfrom(rx, buf, sizeof(buf), 0, (void *)&from, &fl) != 6)
		die("recvfrom");
	close(tx);
}

int main(int argc, char **argv)
{
	int port;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: workload TAG BASEPORT [GATE]\n");
		return 2;
	}
	port = atoi(argv[2]);
	for (int fd = 3; fd < 1024; fd++)	/* known fd numbers whoever runs us */
		close(fd);
	while (argc == 4 && access(argv[3], F_OK))
		usleep(10000);
	files(argv[1]);
	pipes();
	child_exec();
	tcp(AF_INET, port);
	tcp(AF_INET6, port + 2);
	udp(port + 1);	/* last: leaves its receiver open */
	return 0;
}
