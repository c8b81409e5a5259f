/* evtin_wl.c - the workload of evtin.scap (README.md): spans seen from other
 * threads and processes, for the evtin.* fields.  Built as evi_wl and run as
 *   ./evi_wl quiet & ./evi_wl other & ./evi_wl main; wait
 * recorded with our BPF driver: sysdig-c -z -w evtin.scap proc.name=evi_wl.
 * main: nested spans; a thread with its own span and one it never closes;
 * a child process (events before and after its own tracer); an id span, an
 * invalid tracer and an exit without enter inside the outer span.  other: a
 * sibling process writing a non-tracer to /dev/null, then sleeping during
 * main's span; quiet: a sibling that never writes to /dev/null. */
#include <fcntl.h>
#include <pthread.h>
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
	nap(1);
	w(">:t:th:x=2:");
	nap(2);
	w("<:t:th::");
	w(">:t:leak:l=1:");
	nap(1);
	return 0;
}
static int sibling(int tracer_fd)
{
	if (tracer_fd) {
		fd = open("/dev/null", O_WRONLY);
		nap(15);
		w("hello");
	} else {
		nap(15);
	}
	for (int i = 0; i < 4; i++)
		nap(10);
	return 0;
}
int main(int argc, char **argv)
{
	pthread_t th;
	pid_t c;

	if (argc > 1 && strcmp(argv[1], "other") == 0)
		return sibling(1);
	if (argc > 1 && strcmp(argv[1], "quiet") == 0)
		return sibling(0);
	fd = open("/dev/null", O_WRONLY);
	w(">:t:outer:k=1,j=2:");
	nap(2);
	w(">:t:outer.inner:q=x:");
	nap(2);
	pthread_create(&th, 0, thread_main, 0);
	pthread_join(th, 0);
	w("<:t:outer.inner::");
	c = fork();
	if (c == 0) {
		nap(1);
		w(">:p:child:c=3:");
		nap(2);
		w("<:p:child::");
		nap(1);
		_exit(0);
	}
	waitpid(c, 0, 0);
	nap(40);
	w(">:12:num::");
	nap(1);
	w("<:12:num::");
	w("garbage");
	nap(1);
	w("<:t:nosuch::");
	nap(1);
	w("<:t:outer:st=ok:");
	nap(1);
	close(fd);
	return 0;
}
