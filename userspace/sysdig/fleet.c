/*
 * fleet.c - the options of the metrics endpoint and the export (see
 * fleet.h), and the few calls capture.c makes into both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fleet.h"
#include "scap.h"

struct fleet {
	struct metrics *m;
	struct ch_export *x;
};

static int parse_count(const char *opt, const char *arg, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!arg || !*arg || *arg == '-')
		goto bad;
	v = strtoull(arg, &end, 10);
	if (*end || v == 0 || v > max)
		goto bad;
	*out = v;
	return 0;
bad:
	fprintf(stderr, "invalid --%s '%s' (1 to %llu)\n", opt, arg ? arg : "",
		(unsigned long long)max);
	return -1;
}

int fleet_parse_opt(struct fleet_opts *fo, int opt, const char *arg)
{
	switch (opt) {
	case OPT_METRICS_LISTEN: fo->metrics_listen = arg; return 0;
	case OPT_METRICS_LABELS: fo->metrics_labels = arg; return 0;
	case OPT_METRICS_MAX_SERIES:
		return parse_count("metrics-max-series", arg, 10000000, &fo->metrics_max_series);
	case OPT_METRICS_TOP: return parse_count("metrics-top", arg, 10000000, &fo->metrics_top);
	case OPT_EXPORT: fo->export_url = arg; return 0;
	case OPT_HOSTNAME:
		if (!*arg) {
			fprintf(stderr, "invalid --hostname ''\n");
			return -1;
		}
		fo->hostname = arg;
		return 0;
	case OPT_EXPORT_BATCH: return parse_count("export-batch", arg, 10000000, &fo->export_batch);
	case OPT_EXPORT_QUEUE: return parse_count("export-queue", arg, 4096, &fo->export_queue);
	}
	return -1;
}

int fleet_enabled(const struct fleet_opts *fo)
{
	return fo->metrics_listen || fo->export_url;
}

const char *fleet_hostname(const struct fleet_opts *fo)
{
	static char name[256];

	if (fo->hostname)
		return fo->hostname;
	if (!name[0] && gethostname(name, sizeof(name) - 1))
		snprintf(name, sizeof(name), "localhost");
	return name;
}

static void fleet_free(struct fleet *f)
{
	if (f->m)
		metrics_stop(f->m);
	free(f);
}

struct fleet *fleet_start(const struct fleet_opts *fo, char *err, size_t errlen)
{
	struct fleet *f;

	err[0] = 0;
	if (!fo->metrics_listen && (fo->metrics_labels || fo->metrics_max_series || fo->metrics_top)) {
		snprintf(err, errlen, "--metrics-labels/--metrics-max-series/--metrics-top need --metrics-listen");
		return NULL;
	}
	if (!fo->export_url && (fo->hostname || fo->export_batch || fo->export_queue)) {
		snprintf(err, errlen, "--hostname/--export-batch/--export-queue need --export");
		return NULL;
	}
	if (!fleet_enabled(fo))
		return NULL;
	/* latencies need the time of the enter: the BPF driver stamps enter
	 * events with the exit time unless asked (driver/bpf/README.md); an
	 * explicit SYSDIG_BPF_PRECISE_ENTER=0 is left as it is */
	setenv("SYSDIG_BPF_PRECISE_ENTER", "1", 0);
	f = calloc(1, sizeof(*f));
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (fo->metrics_listen && !(f->m = metrics_start(fo, err, errlen)))
		goto fail;
	if (fo->export_url && !(f->x = ch_export_start(fo, err, errlen)))
		goto fail;
	return f;
fail:
	fleet_free(f);
	return NULL;
}

void fleet_event(struct fleet *f, struct sinsp *s, struct sinsp_evt *e)
{
	if (f->m)
		metrics_event(f->m, s, e);
	if (f->x)
		ch_export_event(f->x, s, e);
}

void fleet_tick(struct fleet *f, struct scap *h)
{
	if (f->x)
		ch_export_tick(f->x);
	if (!f->m)
		return;
	if (h && h->ops->get_stats) {
		struct scap_stats st = { 0 };

		h->ops->get_stats(h, &st);
		metrics_set_driver(f->m, st.n_evts, st.n_drops);
	}
	if (f->x) {
		uint64_t rows, drops, failed;

		ch_export_counters(f->x, &rows, &drops, &failed);
		metrics_set_export(f->m, rows, drops, failed);
	}
}

void *fleet_metrics(struct fleet *f)
{
	return f ? f->m : NULL;
}

int fleet_finish(struct fleet *f, int from_files, volatile sig_atomic_t *stop)
{
	int rc = 0;

	if (!f)
		return 0;
	if (f->x) {
		uint64_t t[3];

		rc = ch_export_finish(f->x, t);
		f->x = NULL;
		if (f->m)
			metrics_set_export(f->m, t[0], t[1], t[2]);
	}
	if (f->m && from_files) {
		fprintf(stderr, "metrics: end of input, serving until interrupted\n");
		while (!*stop)
			usleep(100000);
	}
	fleet_free(f);
	return rc;
}
