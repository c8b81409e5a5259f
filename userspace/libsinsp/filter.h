/*
 * filter.h - the sysdig filter language (docs/filters.md).
 *
 * filter_compile() parses an expression such as
 *   proc.name=httpd and (fd.type=file or evt.buffer contains SELECT)
 * once into a tree; filter_run() evaluates it on an event using the field
 * extractors of fields.h.  Used by the command line (capture filter, -d),
 * -w, chisels (chisel.set_filter) and csysdig.
 */
#ifndef FILTER_H
#define FILTER_H

#include <stddef.h>
#include "sinsp.h"

struct filter;

/* Deepest nesting of parentheses a filter may have; deeper filters are
 * rejected with "filter nested too deeply" (every walk of the compiled
 * tree is recursive, so this bounds the stack a filter can use). */
#define FILTER_MAX_DEPTH 1000

/* NULL on error, with a one-line message ("filter error at position N: ...")
 * in err. */
struct filter *filter_compile(const char *expr, char *err, size_t errlen);
/* The same for the chisel thread-table calls: a field of an event class
 * (evt, evtin, span, syslog, util) is refused, as 0.29.3 does. */
struct filter *filter_compile_thread_table(const char *expr, char *err, size_t errlen);

/* 1 if the event matches, 0 if not. */
int filter_run(struct filter *f, struct sinsp *s, struct sinsp_evt *e);

/* The error a check raised while it ran, NULL while there is none: as
 * 0.29.3, fd.ip/fd.net/fd.port/fd.proto with an operator they do not
 * support fail on the first event on an IP socket (the check is false from
 * then on); the caller stops with this line, exit status 1. */
const char *filter_error(const struct filter *f);

/* Event-type pre-selection: 0 if no event of this type can ever match
 * (so callers may skip the event before extracting anything). */
int filter_may_match_type(const struct filter *f, uint16_t evtype);

/* 1 when every check of f compares proc.name (=, != or in): the filter
 * reads the thread's comm and nothing of the fd state. */
int filter_only_proc_name(const struct filter *f);

/*
 * What the live driver may select on (filter_pushdown.c): every event f
 * accepts comes from a task named one of comms (when any), of one of pids /
 * tids (when the list is not empty), a descendant of one of roots
 * (when not empty) and in a container of cids (when not empty).  Taken from the checks the whole filter needs.
 */
#define FILTER_PUSH_MAX 64
struct filter_pushdown {
	char comms[FILTER_PUSH_MAX][16];	/* proc.name values */
	uint32_t ncomms;			/* 0: any name */
	uint32_t pids[FILTER_PUSH_MAX], npids;	/* proc.pid */
	uint32_t tids[FILTER_PUSH_MAX], ntids;	/* thread.tid */
	uint32_t roots[FILTER_PUSH_MAX], nroots;	/* proc.apid, proc.ppid */
	char cids[FILTER_PUSH_MAX][13];		/* container.id (12 hex digits) */
	uint32_t ncids;
};
void filter_pushdown(const struct filter *f, struct filter_pushdown *pd);

void filter_free(struct filter *f);

#endif
