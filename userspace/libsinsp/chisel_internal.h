/*
 * chisel_internal.h - private structures shared by the chisel runtime files.
 *
 * chisel.c      loading, argument splitting, callbacks, intervals, public API
 * chisel_lua.c  the Lua tables sysdig.*, chisel.*, evt.* and value mapping
 * The calls go one way: chisel.c registers the API (chisel_lua_register)
 * and reads what the API functions store in struct chisel / chisel_runtime;
 * chisel_lua.c calls nothing of chisel.c.
 * chisel_list.c -cl / -i listing
 * chisel_fmt.c  the per-chisel event formatter (chisel.set_event_formatter)
 * chisel_metrics.c     sysdig.publish_metrics (the --metrics-listen endpoint)
 * Not installed, not used outside these files.
 */
#ifndef CHISEL_INTERNAL_H
#define CHISEL_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include <lua.h>
#include "chisel.h"
#include "fields.h"
#include "filter.h"

#define CHISEL_ERRLEN 1024

struct chisel_fmt;

/* a chisel.request_field handle (the light userdata given to Lua points
 * to ref, the first member) */
struct chisel_field {
	struct field_ref ref;
};

struct chisel {
	struct chisel_runtime *rt;
	char *name;		/* as given to chisel_load, trimmed */
	lua_State *L;
	int nreq, nopt;		/* declared required / optional args */
	int single_filter_arg;	/* exactly one arg, of argtype "filter" */
	struct filter *filter;	/* chisel.set_filter */
	struct chisel_fmt *fmt;	/* chisel.set_event_formatter */
	/* intervals (docs/chisel_api.md, "Callbacks") */
	uint64_t interval_ns;	/* aligned */
	uint64_t precise_ns;
	int have_sample, have_call, have_precise;
	uint64_t last_sample, last_call_ts, precise_last;
	/* chisel.request_field handles, owned here */
	struct chisel_field **fields;
	size_t nfields;
	/* pending chisel.exec from on_init */
	char *exec_args;	/* joined argument string, NULL when none */
	char *exec_name;
	struct sinsp_evt *evt;	/* current event (sievt) or NULL */
	struct field_value *val;	/* evt.field() extraction buffer */
	int on_event_key;	/* registry ref of the string "on_event" */
	int api_error;		/* an API function printed its own message */
	int engine_error;	/* the engine refused a call: "C++ exception", the
				 * capture ends (on_capture_end still runs) */
};

struct chisel_runtime {
	struct sinsp *s;
	struct chisel **ch;
	size_t n;
	struct chisel_host host;
	char *cli_filter;	/* the global filter from the command line */
	char *set_filter;	/* sysdig.set_filter, NULL when not called */
	int end_capture;
	char *run_app;
	char *output_format;	/* sysdig.set_output_format, NULL none */
	enum render_bufmode bufmode;	/* its buffer rendering, if bufmode_set */
	int bufmode_set;
	uint32_t snaplen;
	int fatfile;
	int inited, started, ended;
	uint64_t first_ts, last_ts;
	int have_ts;
	int udp_fd;
	chisel_metrics_sink metrics_sink;	/* sysdig.publish_metrics, NULL: none */
	void *metrics_ctx;
};

/* chisel.c */
int chisel_split_args(const char *in, char ***out, int *n);
void chisel_free_args(char **v, int n);
const char *const *chisel_dirs(void);
const char *chisel_untrusted(const char *path);
void chisel_add_package_path(lua_State *L);

/* chisel_lua.c */
/* the API tables, every function a closure over c (NULL: no chisel) */
void chisel_lua_register(lua_State *L, struct chisel *c);
/* the chisel of the running API function (only valid inside one) */
struct chisel *chisel_from_lua(lua_State *L);
/* an API function's fatal problem: msg on stderr, then a Lua error */
void chisel_fatal_msg(lua_State *L, const char *msg);

/* chisel_metrics.c: sysdig.publish_metrics */
int chisel_l_publish_metrics(lua_State *L);

/* chisel_fmt.c */
struct chisel_fmt *chisel_fmt_new(const char *fmt, char *err, size_t errlen);
void chisel_fmt_print(struct chisel_fmt *f, struct sinsp *s, struct sinsp_evt *e, FILE *out);
void chisel_fmt_free(struct chisel_fmt *f);

#endif
