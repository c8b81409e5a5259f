/*
 * empty_hooks.c - attaches empty_hooks.bpf.c (programs that only count their
 * runs on sys_enter, sys_exit and sched_switch) until SIGINT or SIGTERM, then
 * prints the counts.  A mode of scripts/bench/overhead and a baseline of
 * scripts/bench/capture: the least any tracer hooked there costs.
 * usage: empty_hooks [--exit-only] [--stamp]   (--exit-only: no sys_enter
 * hook, the hooks of the capture driver's exit-only mode; --stamp: each
 * syscall program also reads the clock and the current task, what every
 * timestamped event needs).  Needs root.
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

int main(int argc, char **argv)
{
	struct empty_hooks_bpf *skel;
	int exit_only = 0, stamp = 0, rc, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--exit-only"))
			exit_only = 1;
		else if (!strcmp(argv[i], "--stamp"))
			stamp = 1;
		else {
			fprintf(stderr, "usage: empty_hooks [--exit-only] [--stamp]\n");
			return 2;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	skel = empty_hooks_bpf__open();
	if (!skel) {
		fprintf(stderr, "empty_hooks: cannot open: %s\n", strerror(errno));
		return 1;
	}
	if (exit_only)
		bpf_program__set_autoattach(skel->progs.empty_sys_enter, false);
	skel->rodata->stamp = stamp;
	rc = empty_hooks_bpf__load(skel);
	if (rc) {
		fprintf(stderr, "empty_hooks: cannot load: %s\n", strerror(-rc));
		empty_hooks_bpf__destroy(skel);
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
	fprintf(stderr, "sys_enter runs: %llu\nsys_exit runs: %llu\nsched_switch runs: %llu\n",
		(unsigned long long)skel->bss->runs[2], (unsigned long long)skel->bss->runs[0],
		(unsigned long long)skel->bss->runs[1]);
	empty_hooks_bpf__destroy(skel);
	return 0;
}
