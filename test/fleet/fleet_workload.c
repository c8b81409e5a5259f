/*
 * fleet_workload.c - a workload with known numbers for the fleet tests
 * (fleet_test.sh).  The test runs it through symlinks, so each role has its
 * own process name:
 *   fleet_srv PORT IN OUT   accepts one TCP connection on 127.0.0.1:PORT,
 *                           reads IN bytes (until EOF), then writes OUT bytes
 *   fleet_cli PORT OUT IN   connects, writes OUT bytes in 1000-byte writes,
 *                           shuts down its side, reads IN bytes (until EOF)
 *   fleet_calls N           N chdir() calls on a missing directory (ENOENT),
 *                           then 5 poll(NULL, 0, 20): 20 ms each
 *   fleet_rate R S          R getppid() calls a second for S seconds, paced
 *                           every millisecond (scripts/bench/fleet); prints
 *                           the calls made
 * A file fleet_srv.ready is created (in the current directory) once the
 * server listens.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static long drain(int fd)
{
	char buf[4096];
	long total = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0)
		die("read");
	return total;
}

static void pour(int fd, long bytes)
{
	char buf[1000];

	memset(buf, 'x', sizeof(buf));
	while (bytes > 0) {
		ssize_t n = write(fd, buf, bytes < (long)sizeof(buf) ? (size_t)bytes : sizeof(buf));

		if (n <= 0)
			die("write");
		bytes -= n;
	}
}

static struct sockaddr_in loopback(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

static int server(int port, long in, long out)
{
	struct sockaddr_in a = loopback(port);
	int one = 1, s = socket(AF_INET, SOCK_STREAM, 0), c, fd;
	long got;

	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 1))
		die("listen");
	fd = open("fleet_srv.ready", O_CREAT | O_WRONLY, 0644);
	if (fd < 0)
		die("ready file");
	close(fd);
	c = accept(s, NULL, NULL);
	if (c < 0)
		die("accept");
	got = drain(c);
	pour(c, out);
	close(c);
	close(s);
	if (got != in) {
		fprintf(stderr, "server: read %ld bytes, expected %ld\n", got, in);
		return 1;
	}
	return 0;
}

static int client(int port, long out, long in)
{
	struct sockaddr_in a = loopback(port);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	long got;

	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)))
		die("connect");
	pour(s, out);
	shutdown(s, SHUT_WR);
	got = drain(s);
	close(s);
	if (got != in) {
		fprintf(stderr, "client: read %ld bytes, expected %ld\n", got, in);
		return 1;
	}
	return 0;
}

static int calls(long n)
{
	for (long i = 0; i < n; i++)
		if (chdir("/nonexistent/fleet-workload") == 0)
			return 1;
	for (int i = 0; i < 5; i++)
		poll(NULL, 0, 20);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int rate(double per_s, double secs)
{
	double t0 = now_s(), t;
	long done = 0;

	while ((t = now_s() - t0) < secs) {
		long due = (long)(t * per_s);

		while (done < due) {
			syscall(SYS_getppid);
			done++;
		}
		usleep(1000);
	}
	printf("%ld\n", done);
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	if (!strcmp(role, "fleet_srv") && argc == 4)
		return server(atoi(argv[1]), atol(argv[2]), atol(argv[3]));
	if (!strcmp(role, "fleet_cli") && argc == 4)
		return client(atoi(argv[1]), atol(argv[2]), atol(argv[3]));
	if (!strcmp(role, "fleet_calls") && argc == 2)
		return calls(atol(argv[1]));
	if (!strcmp(role, "fleet_rate") && argc == 3)
		return rate(atof(argv[1]), atof(argv[2]));
	fprintf(stderr, "usage: fleet_srv PORT IN OUT | fleet_cli PORT OUT IN | fleet_calls N | "
		"fleet_rate R S\n");
	return 2;
}
