/* evtin_edge_wl.c - the workload of evtin_edge.scap (README.md): edge cases of
 * the evtin.* fields.  Built as evj_wl, recorded with our BPF driver:
 * sysdig-c -z -w evtin_edge.scap proc.name=evj_wl.  A span a thread opens and
 * the main thread closes; an invalid tracer inside the thread's own span; a
 * JSON span; a child that forks a grandchild and then execs itself (its
 * parser across the exec); 130 enters never closed (the pool of 128 open
 * spans is emptied and starts again). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static int fd;
static void w(const char *s) { if (write(fd, s, strlen(s)) < 0) _exit(2); }
static void nap(long ms) { struct timespec t = { 0, ms * 1000000L }; nanosleep(&t, 0); }
static void *thread_main(void *arg)
{
	(void)arg;
	w(">:p:pspan:who=thread:");
	nap(1);
	return 0;
}
int main(int argc, char **argv)
{
	char buf[64], self[256] = { 0 };
	pthread_t th;
	pid_t c;

	if (argc > 1 && strcmp(argv[1], "exec") == 0) {
		fd = 3;		/* the /dev/null kept across the exec */
		nap(1);
		w("<:t:child::");
		nap(1);
		return 0;
	}
	if (readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
		return 1;
	fd = open("/dev/null", O_WRONLY);
	if (fd != 3)
		return 1;
	w(">:t:x:a=1:");
	w("garbage");
	nap(1);
	w("<:t:x::");
	pthread_create(&th, 0, thread_main, 0);
	pthread_join(th, 0);
	nap(1);
	w("<:p:pspan::");
	w("[\">\", 7, [\"js\", \"on\"], [{\"k\":\"v\"}, {\"k2\":\"v2\"}]]");
	c = fork();
	if (c == 0) {
		w(">:t:child:c=1:");
		if (fork() == 0) {
			nap(1);
			w(">:t:grand::");
			nap(1);
			_exit(0);
		}
		wait(0);
		execl(self, "evj_wl", "exec", (char *)0);
		_exit(3);
	}
	waitpid(c, 0, 0);
	w("[\"<\", 7, [\"js\", \"on\"], []]");
	for (int i = 0; i < 130; i++) {
		snprintf(buf, sizeof(buf), ">:%d:many.t%d:i=%d:", 1000 + i, i, i);
		w(buf);
	}
	nap(1);
	w("<:1005:many.t5::");
	w("<:1129:many.t129::");
	nap(1);
	close(fd);
	return 0;
}
