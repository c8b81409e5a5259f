/*
 * empty_hooks.c - attaches empty_hooks.bpf.c (programs that only count their
 * runs on sys_exit and sched_switch) until SIGINT or SIGTERM, then prints the
 * counts.  A mode of scripts/bench/overhead: the least any tracer hooked
 * there costs.  Needs root.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "empty_hooks.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(void)
{
	struct empty_hooks_bpf *skel;
	int rc;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	skel = empty_hooks_bpf__open_and_load();
	if (!skel) {
		fprintf(stderr, "empty_hooks: cannot load: %s\n", strerror(errno));
		return 1;
	}
	rc = empty_hooks_bpf__attach(skel);
	if (rc) {
		fprintf(stderr, "empty_hooks: cannot attach: %s\n", strerror(-rc));
		empty_hooks_bpf__destroy(skel);
		return 1;
	}
	while (!stop)
		pause();
	fprintf(stderr, "sys_exit runs: %llu\nsched_switch runs: %llu\n",
		(unsigned long long)skel->bss->runs[0], (unsigned long long)skel->bss->runs[1]);
	empty_hooks_bpf__destroy(skel);
	return 0;
}
