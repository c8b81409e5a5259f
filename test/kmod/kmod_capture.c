/*
 * kmod_capture.c - small capture tool for the kmod VM test and benchmark.
 *
 * Opens the kmod engine (scap_kmod_open), runs a command while capturing,
 * keeps reading for a short tail, then writes everything to a .scap file and
 * prints the driver counters.  Used inside the qemu guest, where the full
 * sysdig CLI may not be available yet.
 * usage: kmod_capture OUT.scap [-s SNAPLEN] [-n] [-d] -- CMD [ARGS...]
 *        -n: do not write events (count only)
 *        -d: read nothing until CMD ended (the probes' own cost, given a
 *            ring large enough for the whole run)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "scap.h"
#include "kmod_engine.h"

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + t.tv_nsec;
}

static pid_t spawn(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		fprintf(stderr, "kmod_capture: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* read events until the child ended and 300 ms passed */
static int capture(struct scap *h, struct scap_dumper *d, pid_t child,
		   uint64_t *nevts, int *status, int defer)
{
	uint64_t end = 0;
	struct scap_evt ev;

	if (defer && waitpid(child, status, 0) == child)
		end = now_ns() + 300000000ull;
	for (;;) {
		int rc = scap_next(h, &ev);

		if (rc == SCAP_SUCCESS) {
			(*nevts)++;
			if (d && scap_dump_event(d, &ev, ev.cpuid, 0)) {
				fprintf(stderr, "kmod_capture: %s\n", scap_dump_error(d));
				return -1;
			}
		} else if (rc != SCAP_TIMEOUT) {
			fprintf(stderr, "kmod_capture: %s\n", h->err);
			return -1;
		}
		/* poll the child only when idle or every 64k events: a syscall
		 * per event would slow the capture down */
		if (!end && (rc == SCAP_TIMEOUT || (*nevts & 0xffff) == 0) &&
		    waitpid(child, status, WNOHANG) == child)
			end = now_ns() + 300000000ull;
		if (end && now_ns() > end && rc == SCAP_TIMEOUT)
			return 0;
	}
}

int main(int argc, char **argv)
{
	struct scap_live_opts o = { .driver = SCAP_DRIVER_KMOD, .snaplen = 80, .skip_self = 1 };
	char err[SCAP_ERRBUF_SIZE];
	struct scap_dumper *d = NULL;
	struct scap_stats st;
	uint64_t n = 0, t0;
	int i = 2, count_only = 0, defer = 0, status = 0;
	struct scap *h;
	pid_t child;

	if (argc < 4) {
		fprintf(stderr, "usage: kmod_capture OUT.scap [-s SNAPLEN] [-n] [-d] -- CMD [ARGS...]\n");
		return 2;
	}
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc)
			o.snaplen = (uint32_t)atoi(argv[++i]);
		else if (!strcmp(argv[i], "-n"))
			count_only = 1;
		else if (!strcmp(argv[i], "-d"))
			defer = 1;
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "kmod_capture: missing -- CMD\n");
		return 2;
	}
	h = scap_kmod_open(&o, err);
	if (!h) {
		fprintf(stderr, "kmod_capture: %s\n", err);
		return 1;
	}
	if (!count_only) {
		d = scap_dump_open(argv[1], 0, err);
		if (!d || scap_dump_metadata(d, &h->meta)) {
			fprintf(stderr, "kmod_capture: %s\n", d ? scap_dump_error(d) : err);
			scap_close(h);
			return 1;
		}
	}
	t0 = now_ns();
	child = spawn(argv + i + 1);
	if (capture(h, d, child, &n, &status, defer)) {
		scap_close(h);
		return 1;
	}
	if (h->ops->get_stats(h, &st))
		memset(&st, 0, sizeof(st));
	scap_close(h);
	if (d && scap_dump_close(d, err)) {
		fprintf(stderr, "kmod_capture: %s\n", err);
		return 1;
	}
	printf("kmod_capture: events=%llu seen=%llu drops=%llu wall_ms=%llu child_status=%d\n",
	       (unsigned long long)n, (unsigned long long)st.n_evts,
	       (unsigned long long)st.n_drops,
	       (unsigned long long)((now_ns() - t0) / 1000000), WEXITSTATUS(status));
	return 0;
}
