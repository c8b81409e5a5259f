/*
 * bench_mode.c - `sysdig --bench N -r FILE [-c CHISEL ...] [FILTER]`: the
 * seed's benchmark mode (collectd -b N: iterate the read loop N times and
 * report the CPU time), for chisel and filter authors.
 *
 * The whole pipeline (capture.c: read, state engine, filter, chisel) runs
 * N times over the files for each configuration: plain parsing, the filter
 * alone (when one is given) and each chisel alone (with the filter, as
 * `sysdig -c CHISEL FILTER` runs it).  Each run is a child process (fork),
 * so that a run starts from the same state as the others and its CPU time
 * (user + system, from wait4) is its own; its stdout goes to /dev/null.
 * The table gives the mean and the sample variance of the CPU seconds, the
 * CPU nanoseconds per event read from the files, and the ratio to parsing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"

#define BENCH_MAX_CONFIGS (MAX_CHISELS + 2)

struct bench_config {
	char name[128];
	const char *filter;		/* NULL: none */
	const struct cli_chisel *chisel;	/* NULL: none */
};

struct bench_result {
	double mean, var;	/* CPU seconds */
	uint64_t events;
};

/* the child: one run of the pipeline, its event count on fd out */
static void bench_child(const struct cli_opts *o, const struct bench_config *c, int out)
{
	static struct cli_opts copy;
	uint64_t events;
	int null = open("/dev/null", O_WRONLY);
	int rc;

	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		_exit(125);
	close(null);
	copy = *o;
	copy.bench_runs = 0;
	copy.quiet = 1;
	copy.filter = c->filter ? strdup(c->filter) : NULL;
	copy.nchisels = 0;
	if (c->chisel)
		copy.chisels[copy.nchisels++] = *c->chisel;
	rc = run_capture(&copy);
	fflush(stdout);
	events = run_capture_events();
	if (write(out, &events, sizeof(events)) != (ssize_t)sizeof(events))
		rc = 125;
	_exit(rc);
}

/* one run: its CPU seconds in *cpu, its events in *events; 0 or -1 (printed) */
static int bench_once(const struct cli_opts *o, const struct bench_config *c, double *cpu,
		      uint64_t *events)
{
	struct rusage ru;
	int fds[2], status;
	pid_t pid;
	ssize_t n;

	if (pipe(fds) < 0) {
		fprintf(stderr, "--bench: pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "--bench: fork: %s\n", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		bench_child(o, c, fds[1]);
	}
	close(fds[1]);
	*events = 0;
	do
		n = read(fds[0], events, sizeof(*events));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "--bench: wait: %s\n", strerror(errno));
			return -1;
		}
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || n != (ssize_t)sizeof(*events)) {
		fprintf(stderr, "--bench: the run of '%s' failed (%s %d)\n", c->name,
			WIFEXITED(status) ? "exit status" : "signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	*cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return 0;
}

/* N runs of one configuration: mean and sample variance (0 for one run) */
static int bench_config_run(const struct cli_opts *o, const struct bench_config *c,
			    struct bench_result *res)
{
	double sum = 0, sumsq = 0;
	int n = o->bench_runs;

	for (int i = 0; i < n; i++) {
		double cpu;

		if (bench_once(o, c, &cpu, &res->events) < 0)
			return -1;
		sum += cpu;
		sumsq += cpu * cpu;
	}
	res->mean = sum / n;
	res->var = n > 1 ? (sumsq - sum * sum / n) / (n - 1) : 0;
	if (res->var < 0)
		res->var = 0;	/* rounding */
	return 0;
}

static int bench_configs(const struct cli_opts *o, struct bench_config *cfg)
{
	int n = 0;

	snprintf(cfg[n].name, sizeof(cfg[n].name), "parse");
	n++;
	if (o->filter) {
		snprintf(cfg[n].name, sizeof(cfg[n].name), "filter");
		cfg[n].filter = o->filter;
		n++;
	}
	for (int i = 0; i < o->nchisels; i++) {
		snprintf(cfg[n].name, sizeof(cfg[n].name), "chisel %s%s%s", o->chisels[i].name,
			 o->chisels[i].args ? " " : "", o->chisels[i].args ? o->chisels[i].args : "");
		cfg[n].filter = o->filter;
		cfg[n].chisel = &o->chisels[i];
		n++;
	}
	return n;
}

int bench_run(struct cli_opts *o)
{
	static struct bench_config cfg[BENCH_MAX_CONFIGS];
	static struct bench_result res[BENCH_MAX_CONFIGS];
	int n;

	if (!o->ninputs) {
		fprintf(stderr, "--bench needs -r FILE: it runs the pipeline over a capture file\n");
		return 1;
	}
	if (o->write_path || o->source || fleet_enabled(&o->fleet) || o->flight.size) {
		fprintf(stderr, "--bench cannot be used with -w, -I, --flight-recorder, --metrics-listen or --export\n");
		return 1;
	}
	n = bench_configs(o, cfg);
	for (int i = 0; i < n; i++)
		if (bench_config_run(o, &cfg[i], &res[i]) < 0)
			return 1;
	printf("%-32s %5s %12s %12s %12s %10s %8s\n", "run", "runs", "events", "cpu_s_mean",
	       "cpu_s_var", "ns/event", "x_parse");
	for (int i = 0; i < n; i++) {
		double ns = res[i].events ? res[i].mean * 1e9 / (double)res[i].events : 0;

		printf("%-32s %5d %12llu %12.6f %12.3e %10.1f %8.2f\n", cfg[i].name, o->bench_runs,
		       (unsigned long long)res[i].events, res[i].mean, res[i].var, ns,
		       res[0].mean > 0 ? res[i].mean / res[0].mean : 0);
	}
	fflush(stdout);
	return 0;
}
