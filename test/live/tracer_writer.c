/*
 * tracer_writer.c - the workload of tracers_test.sh: writes sysdig tracers
 * to /dev/null.  "short" (the default): a short enter ">:t:job.step:n=1:",
 * 30 ms, its exit, 300 ms (the consumer recognises the tracer fd), then a
 * 300-byte tracer pair "long.bbb...".  "long": the 300-byte pair first.
 * "cut-first": the 300-byte pair on a /dev/null fd of its own, then
 * "short" on another one (the kmod VM test kmod_tracers_auto: the first
 * pair comes before any tracer is recognised).  TRACER_WRITER_NAP_MS sets
 * the pause before the last pair (300 ms; the VM's consumer is slower).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int put(int fd, const char *s)
{
	return write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : 1;
}

static void nap(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

static int long_pair(int fd)
{
	char big[301];

	memset(big, 'b', 300);
	memcpy(big, ">:t:long.", 9);
	memcpy(big + 294, ":k=v:", 6);
	big[300] = 0;
	if (put(fd, big))
		return 1;
	big[0] = '<';
	return put(fd, big);
}

int main(int argc, char **argv)
{
	const char *nap_ms = getenv("TRACER_WRITER_NAP_MS");
	int fd = open("/dev/null", O_WRONLY);
	int rc = 0;

	if (fd < 0)
		return 1;
	if (argc > 1 && strcmp(argv[1], "long") == 0)
		return long_pair(fd);
	if (argc > 1 && strcmp(argv[1], "cut-first") == 0) {
		rc |= long_pair(fd);
		fd = open("/dev/null", O_WRONLY);
		if (fd < 0)
			return 1;
	}
	rc |= put(fd, ">:t:job.step:n=1:");
	nap(30);
	rc |= put(fd, "<:t:job.step::");
	nap(nap_ms ? atol(nap_ms) : 300);
	rc |= long_pair(fd);
	return rc;
}
