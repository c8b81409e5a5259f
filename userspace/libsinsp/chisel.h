/*
 * chisel.h - the Lua chisel runtime (docs/chisel_api.md).
 *
 * Loads chisels (Lua scripts) from the search path, passes their arguments,
 * and drives their callbacks (on_init, on_capture_start, on_event,
 * on_interval, on_capture_end) from the main event loop of the sysdig CLI.
 */
#ifndef CHISEL_H
#define CHISEL_H

#include <stdio.h>
#include <stddef.h>
#include "sinsp.h"

struct chisel_runtime;

struct chisel_runtime *chisel_runtime_new(struct sinsp *s, char *err, size_t errlen);
void chisel_runtime_free(struct chisel_runtime *rt);

/* load chisel NAME with its argument string (split as sysdig does);
 * 0 on success, -1 with err */
int chisel_load(struct chisel_runtime *rt, const char *name, const char *args,
		char *err, size_t errlen);

int chisel_capture_start(struct chisel_runtime *rt, char *err, size_t errlen);
/* 1 when the last failure was an engine exception of a chisel API call:
 * as 0.29.3, the capture ends there and on_capture_end still runs */
int chisel_engine_error(const struct chisel_runtime *rt);
/* 0: continue, 1: a chisel asked to end the capture, -1: error (err) */
int chisel_event(struct chisel_runtime *rt, struct sinsp_evt *e, char *err, size_t errlen);
int chisel_capture_end(struct chisel_runtime *rt, char *err, size_t errlen);

/* -cl and -i NAME */
int chisel_list(FILE *out);
int chisel_describe(FILE *out, const char *name);

/* ---- additions for the CLI (all optional; defaults suit `sysdig -r F -c X`) ---- */

/* What the command line knows; copy taken by chisel_set_host(). */
struct chisel_host {
	const char *filter;	/* global filter from the command line, NULL/"" none */
	const char *evtsource;	/* -r file name, NULL when live */
	int is_live;
	int print_container;	/* -pc / -pcontainer / -pk / -pm given */
	int json;		/* -j given */
	int user_buffer_format;	/* -A -x -X -b or -j given: set_output_format ignored */
	int debug;		/* -D given: sysdig.log messages go to stderr */
};
void chisel_set_host(struct chisel_runtime *rt, const struct chisel_host *h);
/* the state handle, when it was not known at chisel_runtime_new() */
void chisel_set_sinsp(struct chisel_runtime *rt, struct sinsp *s);

/* Argument declaration of chisel NAME, to decide whether the next command
 * line word is its argument string (docs/chisel_api.md, "Globals").  0, or -1 with err. */
int chisel_arg_counts(const char *name, int *required, int *optional,
		      int *single_filter_arg, char *err, size_t errlen);
/* the "filter" argument rule in one call: 1 if NEXT (the following non-option word, may be
 * NULL) is to be consumed as NAME's argument string, 0 if not, -1 with err
 * ("missing arguments for chisel NAME"). REST = all remaining non-option
 * words joined by spaces (NEXT included). */
int chisel_consumes_next(const char *name, const char *next, const char *rest,
			 char *err, size_t errlen);

/* on_init of every loaded chisel (before the capture is opened); called by
 * chisel_capture_start when not done yet.  0 or -1 with err. */
int chisel_init(struct chisel_runtime *rt, char *err, size_t errlen);
/* live captures: call when the engine timed out without an event, so that
 * on_interval keeps running on wall-clock time.  0 or -1 with err. */
int chisel_tick(struct chisel_runtime *rt, char *err, size_t errlen);
/* events dropped by the global filter: interval processing only */
int chisel_event_dropped(struct chisel_runtime *rt, struct sinsp_evt *e,
			 char *err, size_t errlen);

/* 0 if no loaded chisel can be handed an event of this type (each has a
 * chisel.set_filter that rejects it): the CLI leaves such events out of a
 * live capture (the state events still come, see scap_live_opts) */
int chisel_may_match_type(const struct chisel_runtime *rt, uint16_t evtype);

/* where sysdig.publish_metrics sends a chisel's table (chisel_metrics.c):
 * family NAME, label LABEL, n keys and values */
typedef void (*chisel_metrics_sink)(void *ctx, const char *name, const char *label,
				    const char *help, const char *const *keys,
				    const double *values, size_t n);
void chisel_set_metrics_sink(struct chisel_runtime *rt, chisel_metrics_sink fn, void *ctx);

/* requests made by chisels, for the CLI to apply */
const char *chisel_global_filter(const struct chisel_runtime *rt); /* sysdig.set_filter or NULL */
uint32_t chisel_snaplen(const struct chisel_runtime *rt);	    /* 0 = not set */
const char *chisel_run_app(const struct chisel_runtime *rt);	    /* run_app args or NULL */
/* From a signal handler: make the Lua code running now (or next) fail with
 * an error containing CHISEL_INTERRUPTED, so a chisel looping forever
 * stops; chisel_interrupt_clear() before calling the chisels again (e.g.
 * on_capture_end after the stop). */
#define CHISEL_INTERRUPTED "interrupted by a signal"
void chisel_interrupt(struct chisel_runtime *rt);
void chisel_interrupt_clear(struct chisel_runtime *rt);
/* 1 while chisel Lua code runs: a loop that LuaJIT compiled to machine
 * code never sees the interrupt hook, so the CLI gives up on it after a
 * grace time */
int chisel_running(void);

#endif
