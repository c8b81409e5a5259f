/*
 * fleet.h - sysdig past one machine: the Prometheus metrics endpoint
 * (metrics.c, --metrics-listen) and the event export into ClickHouse
 * (export_clickhouse.c, --export).  Both are fed by the capture loop
 * (capture.c) with the events that pass the filter; both do their network
 * I/O on threads of their own, so a slow scraper or sink never stalls the
 * capture.  Options are parsed here (fleet_opts.c) to keep main.c small.
 * docs/fleet.md describes the metrics, the table and the queries.
 */
#ifndef SYSDIG_FLEET_H
#define SYSDIG_FLEET_H

#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "sinsp.h"

#define OPT_FLEET_BASE 2000
enum {
	OPT_METRICS_LISTEN = OPT_FLEET_BASE,
	OPT_METRICS_LABELS,
	OPT_METRICS_MAX_SERIES,
	OPT_METRICS_TOP,
	OPT_EXPORT,
	OPT_HOSTNAME,
	OPT_EXPORT_BATCH,
	OPT_EXPORT_QUEUE,
	OPT_FLEET_END,
};

#define FLEET_LONG_OPTS \
	{ "metrics-listen", required_argument, 0, OPT_METRICS_LISTEN }, \
	{ "metrics-labels", required_argument, 0, OPT_METRICS_LABELS }, \
	{ "metrics-max-series", required_argument, 0, OPT_METRICS_MAX_SERIES }, \
	{ "metrics-top", required_argument, 0, OPT_METRICS_TOP }, \
	{ "export", required_argument, 0, OPT_EXPORT }, \
	{ "hostname", required_argument, 0, OPT_HOSTNAME }, \
	{ "export-batch", required_argument, 0, OPT_EXPORT_BATCH }, \
	{ "export-queue", required_argument, 0, OPT_EXPORT_QUEUE }

struct fleet_opts {
	const char *metrics_listen;	/* [ADDR:]PORT, NULL: no endpoint */
	const char *metrics_labels;	/* comma-separated fields, default proc.name */
	uint64_t metrics_max_series;	/* 0: default */
	uint64_t metrics_top;		/* 0: every series */
	const char *export_url;		/* clickhouse://HOST:PORT/DB.TABLE */
	const char *hostname;		/* --hostname, NULL: gethostname() */
	uint64_t export_batch;		/* rows per INSERT, 0: default */
	uint64_t export_queue;		/* batches waiting at most, 0: default */
};

/* an option of FLEET_LONG_OPTS: 0, or -1 after printing the error */
int fleet_parse_opt(struct fleet_opts *fo, int opt, const char *arg);
/* 1 when an endpoint or an export is requested */
int fleet_enabled(const struct fleet_opts *fo);
/* the --hostname value or this machine's name */
const char *fleet_hostname(const struct fleet_opts *fo);

/* fleet.c: what capture.c calls (metrics and export together) */
struct fleet;
struct scap;
/* NULL with err; also NULL without err when nothing is requested */
struct fleet *fleet_start(const struct fleet_opts *fo, char *err, size_t errlen);
void fleet_event(struct fleet *f, struct sinsp *s, struct sinsp_evt *e);
/* every 4096 events and when the engine is idle: counters, export batch age */
void fleet_tick(struct fleet *f, struct scap *h);
/* the sink for sysdig.publish_metrics (NULL without an endpoint) */
void *fleet_metrics(struct fleet *f);
/* the capture is over: with files read (-r) the endpoint keeps serving
 * until *stop; sends the export's last rows.  Returns an exit status. */
int fleet_finish(struct fleet *f, int from_files, volatile sig_atomic_t *stop);

/* ------------------------------------------------------------ metrics.c */
struct metrics;

/* starts the HTTP endpoint; NULL with err */
struct metrics *metrics_start(const struct fleet_opts *fo, char *err, size_t errlen);
/* an event that passed the filter */
void metrics_event(struct metrics *m, struct sinsp *s, struct sinsp_evt *e);
/* driver and export counters, shown as sysdig_driver_* / sysdig_export_* */
void metrics_set_driver(struct metrics *m, uint64_t events, uint64_t drops);
void metrics_set_export(struct metrics *m, uint64_t rows, uint64_t drops, uint64_t failed);
/* sysdig.publish_metrics from a chisel: replaces gauge family NAME */
void metrics_publish(void *m, const char *name, const char *label, const char *help,
		     const char *const *keys, const double *values, size_t n);
/* stops the endpoint and frees everything */
void metrics_stop(struct metrics *m);

/* --------------------------------------------------- export_clickhouse.c */
struct ch_export;

/* checks the URL, creates the database and table when missing; NULL with err */
struct ch_export *ch_export_start(const struct fleet_opts *fo, char *err, size_t errlen);
/* an event that passed the filter (never blocks: a full queue drops) */
void ch_export_event(struct ch_export *x, struct sinsp *s, struct sinsp_evt *e);
/* hands a batch older than a second to the sender (call when idle too) */
void ch_export_tick(struct ch_export *x);
void ch_export_counters(struct ch_export *x, uint64_t *rows, uint64_t *drops, uint64_t *failed);
/* sends what is left, waits for the sender, prints the totals on stderr
 * and stores them (rows, drops, failed) in totals unless NULL; returns 0,
 * or 1 when rows were lost to errors of the sink */
int ch_export_finish(struct ch_export *x, uint64_t totals[3]);

#endif
