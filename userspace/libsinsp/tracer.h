/*
 * tracer.h - sysdig tracers (spans): applications write ">:t:tag1.tag2:a=1:"
 * (enter) and "<:t:tag1.tag2::" (exit), or the JSON form
 * ["<", 12, ["tag"], [{"a":"1"}]], to /dev/null; sysdig 0.29.3 turns such
 * writes into tracer events in userspace (docs/tracers.md).
 *
 * tracer.c parses the text (per thread, with the fragments of a message cut
 * over several writes) and keeps the open spans of the capture (an enter
 * waiting for its exit, 128 at most).  parser.c decides which writes are
 * tracers and replaces them with the tracer event; fields.c reads span.*.
 */
#ifndef TRACER_H
#define TRACER_H

#include <stdint.h>

#define TRACER_DEVICE "/dev/null"	/* the file tracers are written to */

/* sinsp_fdinfo.tracer: what an fd is for tracers */
enum tracer_fd_kind {
	TRACER_FD_NONE = 0,	/* not /dev/null, or found not to be a tracer */
	TRACER_FD_FILE = 1,	/* /dev/null, not known yet */
	TRACER_FD_YES = 2,	/* a write parsed as a tracer: every write is one */
};

enum tracer_result {
	TRACER_OK = 0,
	TRACER_COMMA = 1,	/* internal: a number ended by ',' (JSON) */
	TRACER_FAILED = 2,
	TRACER_TRUNCATED = 3,	/* valid so far, kept until the next write */
};

/* a span's enter (or exit) as stored: tags and args NUL-separated */
struct tracer_span {
	int64_t id;
	int64_t tid;		/* the thread that wrote it (evtin.*) */
	uint64_t time;
	char *tags;		/* "t1\0t2\0" then one more NUL */
	uint32_t tags_len;	/* bytes of tags, both NULs counted */
	uint32_t ntags, nargs;
	char *names, *vals;	/* "n1\0n2\0", "v1\0v2\0" */
	uint32_t names_len, vals_len;
	uint32_t tags_cap, names_cap, vals_cap;
};

/* the parse of one thread's last tracer write */
struct tracer_parser {
	char *buf;		/* fragment kept + this write, cut in place */
	uint32_t cap;
	uint32_t frag_len;	/* bytes kept from an incomplete message */
	char *whole;		/* copy of the joined fragments (NULL: none) */
	int res;		/* enum tracer_result */
	char type;		/* '>' enter, else exit */
	int64_t id;		/* kept when a parse fails, as the reference */
	char **tags;
	uint32_t *taglens;
	uint32_t ntags, nlens, tags_cap;
	uint32_t taglen0;	/* the first length ever stored (see fields.c) */
	char **names, **vals;
	uint32_t nargs, nvals, args_cap;
	struct tracer_span *enter;	/* the span of this enter / exit, or NULL */
	struct tracer_span exit;	/* this exit, when spans are tracked */
	char *error;		/* the "invalid tracer" text, malloc'd */
	int invalid;		/* the event is an "invalid tracer" one */
};

#define TRACER_MAX_OPEN 128	/* open spans kept (the reference's pool) */

/* the open spans of a capture (struct sinsp) */
struct tracer_spans {
	struct tracer_span pool[TRACER_MAX_OPEN];
	uint8_t open[TRACER_MAX_OPEN];	/* pool indexes, most recent first
					 * (the order evtin.* scans them in) */
	uint8_t spare[TRACER_MAX_OPEN];	/* free pool indexes, last freed last */
	uint32_t nopen, nspare;
};

struct tracer_ids {
	int64_t tid, pid, ptid;
};

/* parse one write's data; spans are matched when track is set; returns
 * enum tracer_result (also in p->res) */
int tracer_parse(struct tracer_parser *p, struct tracer_spans *sp, const char *data, uint32_t len,
		 uint64_t ts, const struct tracer_ids *ids, int track);
void tracer_parser_free(struct tracer_parser *p);
struct tracer_spans *tracer_spans_new(void);
void tracer_spans_free(struct tracer_spans *sp);
/* the open span of the parent of this span (tags minus the last), or NULL */
const struct tracer_span *tracer_parent(const struct tracer_parser *p,
					const struct tracer_spans *sp);

/* set by fields.c when a field needs the spans matched (span.duration,
 * span.args...: the reference's request_tracer_state_tracking) */
extern int g_tracer_track;

#endif
