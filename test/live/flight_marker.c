/*
 * flight_marker.c - the workload of the flight recorder tests
 * (flight_test.sh): numbered markers written to /dev/null, so that a dump
 * can be checked for which of them it holds.
 *
 * usage: fr_marker PREFIX:COUNT:SLEEP_US ...
 *   for each argument, writes "PREFIX-1" ... "PREFIX-COUNT" (one write
 *   each), sleeping SLEEP_US microseconds after each one
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void pause_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	if (us > 0)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0 || argc < 2) {
		fprintf(stderr, "usage: fr_marker PREFIX:COUNT:SLEEP_US ...\n");
		return 2;
	}
	for (int a = 1; a < argc; a++) {
		char prefix[64], buf[96];
		long count, sleep_us;

		if (sscanf(argv[a], "%63[^:]:%ld:%ld", prefix, &count, &sleep_us) != 3) {
			fprintf(stderr, "fr_marker: bad argument %s\n", argv[a]);
			return 2;
		}
		for (long i = 1; i <= count; i++) {
			int n = snprintf(buf, sizeof(buf), "%s-%ld", prefix, i);

			if (write(fd, buf, (size_t)n) != n)
				return 1;
			pause_us(sleep_us);
		}
	}
	return 0;
}
