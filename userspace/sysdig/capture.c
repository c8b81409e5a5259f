/*
 * capture.c - the event loop of the sysdig CLI: opens each -r file (or the
 * live engine), runs the state engine, applies the capture / display
 * filter, prints events through the formatter into one big output buffer,
 * writes -w files (with -z, -F, -C/-G/-W/-e rotation), feeds chisels and
 * prints the -S summary and -v statistics at the end.  Live captures push
 * what they can into the driver (live_pushdown: event types, proc.name),
 * and a live -w without filter skips the state engine (is_raw_dump).
 * With --flight-recorder the writer's events go to its ring (flight.c).
 */
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "chisel.h"
#include "cli.h"
#include "filter.h"
#include "format.h"
#include "plugin.h"
#include "render.h"
#include "sinsp.h"
#include "stacks.h"
#include "trace_cmd.h"

#define DEFAULT_FORMAT "*%evt.num %evt.outputtime %evt.cpu %proc.name (%thread.tid) %evt.dir %evt.type %evt.info"
#define TTY_FORMAT "*%evt.num %evt.outputtime %evt.cpu \x1b[01;32m%proc.name\x1b[00m (\x1b[01;36m%proc.pid\x1b[00m.%thread.tid) %evt.dir \x1b[01;34m%evt.type\x1b[00m %evt.info"
#define PLUGIN_FORMAT "*%evt.num %evt.datetime.s [%evt.pluginname] %evt.plugininfo"
#define TTY_PLUGIN_FORMAT "*%evt.num %evt.datetime.s [\x1b[01;32m%evt.pluginname\x1b[00m] %evt.plugininfo"
#define OUT_FLUSH_SIZE (256 * 1024)

static volatile sig_atomic_t g_stop;
static uint64_t g_events_read;	/* run_capture_events() */
static struct chisel_runtime *volatile g_chisels;	/* interrupted with the loop */

#define CHISEL_GRACE_SECS 1
static volatile sig_atomic_t g_stop_sig;

/* The first SIGINT/SIGTERM stops the capture (and a chisel stuck in Lua,
 * and a blocking read or open: no SA_RESTART); the second one kills. */
static void on_signal(int sig)
{
	if (g_stop) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	g_stop = 1;
	g_stop_sig = sig;
	if (g_chisels) {
		chisel_interrupt(g_chisels);
		alarm(CHISEL_GRACE_SECS);
	}
}

/* the grace time after a stop signal: a chisel still in Lua (a loop that
 * LuaJIT compiled never runs the hook) ends the process as a second signal
 * would */
static void on_alarm(int sig)
{
	static const char msg[] = "chisel still running after the stop signal: exiting\n";

	(void)sig;
	if (!chisel_running())
		return;
	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to say */
	}
	signal(g_stop_sig, SIG_DFL);
	raise(g_stop_sig);
}

static void catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* an error caused by the stop signal (interrupted read or chisel): a stop */
static int stopped_by_signal(const char *err)
{
	return g_stop && (strstr(err, CHISEL_INTERRUPTED) || strstr(err, "nterrupted"));
}

/* -D: one timestamped line of what the capture does, on stderr (the
 * format of sysdig's log: "MM-DD HH:MM:SS.uuuuuu message") */
static void debug_log(const struct cli_opts *o, const char *fmt, ...)
{
	struct timeval tv;
	struct tm tm;
	char stamp[32];
	va_list ap;

	if (!o->debug)
		return;
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%m-%d %H:%M:%S", &tm);
	fprintf(stderr, "%s.%06ld ", stamp, (long)tv.tv_usec);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ------------------------------------------------------------- summary */

#define SUMMARY_SLOTS (PPM_EVENT_MAX + 2 * 1024)

struct summary {
	uint64_t count[SUMMARY_SLOTS];
};

/* generic events are counted per syscall id */
static size_t summary_slot(const struct sinsp_evt *e)
{
	uint16_t t = e->scap.type;

	if ((t == PPME_GENERIC_E || t == PPME_GENERIC_X) && e->scap.nparams) {
		uint64_t id = render_load_u(e->scap.pval[0], e->scap.plen[0], 2);

		if (id >= 1024)
			id = 0;
		return PPM_EVENT_MAX + (size_t)id * 2 + (t & 1);
	}
	return t < PPM_EVENT_MAX ? t : 0;
}

struct summary_row {
	char dir;
	const char *name;
	uint64_t n;
};

static int cmp_rows(const void *a, const void *b)
{
	const struct summary_row *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

static void print_summary(FILE *out, const struct summary *sm)
{
	static struct summary_row rows[SUMMARY_SLOTS];
	size_t n = 0;

	for (size_t k = 0; k < SUMMARY_SLOTS; k++) {
		if (!sm->count[k])
			continue;
		if (k < PPM_EVENT_MAX) {
			rows[n].dir = ppm_event_is_enter((uint16_t)k) ? '>' : '<';
			rows[n].name = render_evt_type_raw((uint16_t)k, NULL, 0);
		} else {
			size_t id = (k - PPM_EVENT_MAX) / 2;
			uint8_t idb[2] = { (uint8_t)id, (uint8_t)(id >> 8) };

			rows[n].dir = ((k - PPM_EVENT_MAX) & 1) ? '<' : '>';
			rows[n].name = render_evt_type_raw(PPME_GENERIC_E, idb, 2);
		}
		rows[n].n = sm->count[k];
		n++;
	}
	qsort(rows, n, sizeof(rows[0]), cmp_rows);
	fputs("----------------------\nEvent           #Calls\n----------------------\n", out);
	for (size_t k = 0; k < n && k < 100; k++)
		fprintf(out, "%c %-16s%llu\n", rows[k].dir, rows[k].name, (unsigned long long)rows[k].n);
}

/* an error line; over the -P progress number when one is shown */
static int g_progress_shown;

static void error_line(const char *msg)
{
	fprintf(stderr, "%s%s\n", g_progress_shown ? "\r" : "", msg);
	g_progress_shown = 0;
}

/* ---------------------------------------------------------- the writer */

struct writer {
	const struct cli_opts *o;
	struct scap_dumper *d;
	const struct scap_metadata *meta;
	struct sinsp *s;		/* --filter-proclist: the state the filter reads */
	struct filter *flt;		/* --filter-proclist: NULL when off */
	struct flight *fr;		/* --flight-recorder: the ring instead of files */
	int index;		/* file number for rotation */
	uint64_t events;	/* events in the current file */
	uint64_t file_start_ts;
	int failed;		/* the error was printed */
	char path[4096];
};

/*
 * --filter-proclist: whether the capture filter keeps a thread of the
 * process table.  As sysdig does, the filter runs on a made-up read exit
 * of that thread with no parameters and no fd.
 */
static int proclist_keeps(struct writer *w, const struct scap_threadinfo *t)
{
	static uint8_t hdr[PPM_EVT_HDR_LEN];
	struct sinsp_evt e;
	uint16_t type = PPME_SYSCALL_READ_X;
	uint32_t len = PPM_EVT_HDR_LEN;

	memset(&e, 0, sizeof(e));
	scap_evt_write_header(hdr, 0, t->tid, len, type, 0);
	e.scap.data = hdr;
	e.scap.len = len;
	e.scap.tid = t->tid;
	e.scap.type = type;
	e.info = &g_event_info[type];
	e.thread = sinsp_get_thread(w->s, (int64_t)t->tid);
	e.fd = -1;
	return e.thread && filter_run(w->flt, w->s, &e);
}

/* the metadata to write: w->meta, or with --filter-proclist a copy whose
 * process table holds only the threads the filter keeps (*tmp to free) */
static const struct scap_metadata *writer_meta(struct writer *w, struct scap_metadata *copy,
					       struct scap_threadinfo **tmp)
{
	const struct scap_metadata *m = w->meta;

	*tmp = NULL;
	if (!w->flt || !m->nthreads)
		return m;
	*copy = *m;
	*tmp = malloc(m->nthreads * sizeof(**tmp));
	if (!*tmp)
		return m;
	copy->threads = *tmp;
	copy->nthreads = 0;
	for (uint32_t i = 0; i < m->nthreads; i++)
		if (proclist_keeps(w, &m->threads[i]))
			(*tmp)[copy->nthreads++] = m->threads[i];
	return copy;
}

/* an output file that is one of the -r inputs would be truncated while
 * being read: refused (same device and inode, whatever the names) */
static int is_an_input(const struct cli_opts *o, const char *path)
{
	struct stat out, in;

	if (stat(path, &out) != 0)
		return 0;
	for (int i = 0; i < o->ninputs; i++) {
		int r = strcmp(o->inputs[i], "-") ? stat(o->inputs[i], &in) : fstat(0, &in);

		if (r == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
			fprintf(stderr, "refusing to write %s: it is the input file %s\n", path,
				o->inputs[i]);
			return 1;
		}
	}
	return 0;
}

static int writer_open(struct writer *w, uint64_t ts)
{
	char err[SCAP_ERRBUF_SIZE] = "";
	const struct cli_opts *o = w->o;

	if (o->file_size_mb || o->rotate_secs || o->events_per_file) {
		int idx = w->index;

		/* -W: a ring of W files (with -G too: 0.29.3 keeps the last W
		 * slices rather than stopping, measured on files) */
		if (o->file_limit)
			idx %= (int)o->file_limit;
		if (o->rotate_secs) {
			char tb[4096];
			time_t t = (time_t)(ts / 1000000000ULL);
			struct tm tm;

			localtime_r(&t, &tm);
			if (!strftime(tb, sizeof(tb), o->write_path, &tm))
				snprintf(tb, sizeof(tb), "%s", o->write_path);
			if (strcmp(tb, o->write_path) != 0)
				snprintf(w->path, sizeof(w->path), "%s", tb);
			else
				snprintf(w->path, sizeof(w->path), "%s%d", o->write_path, idx);
		} else {
			snprintf(w->path, sizeof(w->path), "%s%d", o->write_path, idx);
		}
	} else {
		snprintf(w->path, sizeof(w->path), "%s", o->write_path);
	}
	if (strcmp(w->path, "-") && is_an_input(o, w->path)) {
		w->failed = 1;
		return -1;
	}
	w->d = scap_dump_open(w->path, o->compress, err);
	if (!w->d) {
		error_line(err[0] ? err : "can't open the output file");
		w->failed = 1;
		return -1;
	}
	/* the metadata goes to the file at once: it is a valid capture from
	 * the first moment */
	if (w->meta) {
		struct scap_metadata copy;
		struct scap_threadinfo *tmp;
		int rc = scap_dump_metadata(w->d, writer_meta(w, &copy, &tmp));

		free(tmp);
		if (rc != 0 || scap_dump_flush(w->d) != 0) {
			error_line(scap_dump_error(w->d));
			w->failed = 1;
			return -1;
		}
	}
	w->events = 0;
	w->file_start_ts = ts;
	return 0;
}

static int writer_close(struct writer *w)
{
	char err[SCAP_ERRBUF_SIZE] = "";

	if (!w->d)
		return 0;
	if (scap_dump_close(w->d, err) != 0) {
		w->d = NULL;
		if (!w->failed)
			error_line(err[0] ? err : "error writing the output file");
		w->failed = 1;
		return -1;
	}
	w->d = NULL;
	return 0;
}

/* 0, or -1 on a write error (printed) */
static int writer_event(struct writer *w, struct sinsp_evt *e, uint32_t flags)
{
	const struct cli_opts *o = w->o;
	int rotate = 0;

	/* a tracer goes to the file as the write it was, flagged (as the
	 * reference dumps it) */
	if (e->tracer == SINSP_TRACER_EVENT) {
		struct sinsp_evt we = *e;

		we.scap = e->tracer_write;
		we.tracer = SINSP_TRACER_NONE;
		return writer_event(w, &we, flags | SCAP_DF_TRACER);
	}

	if (w->fr)
		return flight_event(w->fr, w->s, e, flags);

	if (w->d) {
		/* -C: every byte counts (headers, metadata); the file stays
		 * within N MB unless a single event is larger */
		if (o->file_size_mb && w->events &&
		    scap_dump_size(w->d) + SCAP_DUMP_BLOCK_MAX(e->scap.len) >
			    (uint64_t)o->file_size_mb * 1000000ULL)
			rotate = 1;
		/* -G: whole seconds of event time, as 0.29.3 counts them: a file
		 * whose first event is at 12:00:31.49 ends before 12:00:33 with
		 * -G 2 (measured: same files as the reference with -G 1 and 2) */
		if (o->rotate_secs &&
		    (int64_t)(e->scap.ts / 1000000000ULL - w->file_start_ts / 1000000000ULL) >= o->rotate_secs)
			rotate = 1;
		/* -e N: N events a file, the first file N - 1 (0.29.3 counts its
		 * first event before it is written; measured on ref029_light) */
		if (o->events_per_file && w->events + (w->index == 0) >= (uint64_t)o->events_per_file)
			rotate = 1;
		if (rotate) {
			if (writer_close(w))
				return -1;
			w->index++;
		}
	}
	if (!w->d && writer_open(w, e->scap.ts))
		return -1;
	if (scap_dump_event(w->d, &e->scap, e->scap.cpuid, flags) != 0) {
		error_line(scap_dump_error(w->d));
		w->failed = 1;
		return -1;
	}
	w->events++;
	return 0;
}

/* ---------------------------------------------------------- the output */

struct output {
	struct sbuf buf;
	int unbuffered;
};

static void out_flush(struct output *out)
{
	if (out->buf.len) {
		fwrite(out->buf.p, 1, out->buf.len, stdout);
		out->buf.len = 0;
	}
	fflush(stdout);
}

static void out_maybe_flush(struct output *out)
{
	if (out->buf.len >= OUT_FLUSH_SIZE || out->unbuffered) {
		fwrite(out->buf.p, 1, out->buf.len, stdout);
		out->buf.len = 0;
		if (out->unbuffered)
			fflush(stdout);
	}
}

/* ------------------------------------------------------------ the loop */

struct run {
	struct cli_opts *o;
	struct formatter *fmt;
	/* no -p and reading files: the plugin format, taken when the first
	 * event is a plugin event (as sysdig 0.29.3 picks it), else dropped */
	struct formatter *plugin_fmt;
	struct filter *flt;
	struct filter *stacks_flt;	/* --stacks-filter */
	struct chisel_runtime *chisels;
	struct summary *sm;
	struct output out;
	struct writer w;
	struct fleet *fleet;	/* --metrics-listen / --export, NULL: none */
	struct flight *fr;	/* --flight-recorder, NULL: none */
	int last_source;	/* the source run_source reads is the last one */
	struct traced_cmd *cmd;	/* -- CMD, NULL: none */
	int cmd_idle;		/* empty polls since CMD was reaped */
	uint64_t nread;		/* events read (passing the capture filter) */
	uint64_t total;		/* events returned by the engine */
	int stop;
	int status;
	int past_leading;	/* an event other than a container one was seen */
	char err[1024];
};

static int is_container_json(const struct sinsp_evt *e)
{
	return e->scap.type == PPME_CONTAINER_JSON_E || e->scap.type == PPME_CONTAINER_JSON_2_E;
}

static int is_hidden(const struct run *r, const struct sinsp_evt *e)
{
	if ((e->scap.dump_flags & SCAP_DF_STATE_ONLY) || e->filtered_out)
		return 1;
	if (r->o->debug)
		return 0;
	if (e->info && (e->info->category & EC_INTERNAL))
		return 1;
	return 0;
}

static int modifies_state(const struct sinsp_evt *e)
{
	return e->info && (e->info->flags & (EF_MODIFIES_STATE | EF_CREATES_FD | EF_DESTROYS_FD));
}

/* a stack event to the -w file, after the mappings read for it */
static int write_stack_event(struct run *r, struct sinsp *s, struct sinsp_evt *e)
{
	const struct scap_evt *maps = stacks_take_maps(s);

	if (!r->w.o)
		return 0;
	if (maps) {
		struct sinsp_evt me = *e;

		me.scap = *maps;
		if (writer_event(&r->w, &me, 0))
			return -1;
	}
	return writer_event(&r->w, e, e->scap.dump_flags);
}

/* the filter met a check 0.29.3 refuses on this event (filter_error) */
static int filter_failed(struct run *r)
{
	const char *msg = r->flt ? filter_error(r->flt) : NULL;

	if (msg)
		snprintf(r->err, sizeof(r->err), "%s", msg);
	return msg != NULL;
}

/* one event; returns 0 to go on, 1 to stop, -1 on error */
static int handle_event(struct run *r, struct sinsp *s, struct sinsp_evt *e)
{
	struct cli_opts *o = r->o;
	int is_procinfo = e->scap.type == PPME_PROCINFO_E;
	int pass = 1;
	int rc;

	/* our stack events: state for %evt.stack, kept in the file (with the
	 * mappings read for them first) */
	if (ppm_event_is_ext(e->scap.type))
		return write_stack_event(r, s, e);
	/* the container events at the start of a file are metadata the
	 * reference consumes while opening it: they keep their event numbers
	 * but no output (not even -D), no -n count, no chisel's on_event (its
	 * container table has them); later ones are events like the others */
	if (!r->past_leading && is_container_json(e)) {
		/* chisels get them only in their container table */
		if (r->chisels && chisel_event(r->chisels, e, r->err, sizeof(r->err)) < 0)
			return -1;
		if (r->w.o)
			return writer_event(&r->w, e, e->scap.dump_flags);
		return 0;
	}
	r->past_leading = 1;
	if (o->max_secs && e->scap.ts >= s->first_ts + o->max_secs * 1000000000ULL)
		return 1;
	if (r->plugin_fmt) {
		if (e->scap.type == PPME_PLUGINEVENT_E) {
			formatter_free(r->fmt);
			r->fmt = r->plugin_fmt;
		} else {
			formatter_free(r->plugin_fmt);
		}
		r->plugin_fmt = NULL;
	}
	r->total++;
	if (r->fleet && !(r->total & 4095))
		fleet_tick(r->fleet, s->scap);
	if (filter_failed(r))
		return -1;
	if (r->flt && !o->display_filter)
		pass = !e->rejected;	/* capture_filter() ran inside the parser */
	if (!pass) {
		if (r->w.o && (is_procinfo || (o->fatfile && modifies_state(e)))) {
			rc = writer_event(&r->w, e, is_procinfo ? e->scap.dump_flags : SCAP_DF_STATE_ONLY);
			if (rc)
				return rc;
		}
		if (r->chisels && chisel_event_dropped(r->chisels, e, r->err, sizeof(r->err)) < 0)
			return -1;
		return 0;
	}
	/* the enter of a tracer write, a tracer not ended yet: in the file
	 * only (the reference hides them unless it writes one) */
	if (e->tracer == SINSP_TRACER_HIDDEN)
		return r->w.o ? writer_event(&r->w, e, e->scap.dump_flags) : 0;
	r->nread++;
	if (r->stacks_flt && !filter_run(r->stacks_flt, s, e))
		stacks_hide(s, e);
	if (r->sm && !r->chisels && !is_container_json(e))
		r->sm->count[summary_slot(e)]++;
	if (r->fleet)
		fleet_event(r->fleet, s, e);
	if (r->w.o) {
		rc = writer_event(&r->w, e, e->scap.dump_flags);
		if (rc)
			return rc;
	}
	if (r->chisels) {
		rc = chisel_event(r->chisels, e, r->err, sizeof(r->err));
		if (rc < 0)
			return -1;
		if (rc == 1)
			return 1;
	} else if (!o->quiet && !is_hidden(r, e) &&
		   (!r->flt || !o->display_filter || filter_run(r->flt, s, e))) {
		rc = formatter_format(r->fmt, s, e, o->json, &r->out.buf, r->err, sizeof(r->err));
		if (rc < 0)
			return -1;
		if (rc == 1) {
			sb_putc(&r->out.buf, '\n');
			out_maybe_flush(&r->out);
		}
	}
	if (filter_failed(r))
		return -1;
	if (o->max_events && r->nread >= o->max_events)
		return 1;
	return 0;
}

static void print_progress(struct scap *h, int final)
{
	double p = final ? 1.0 : (h->ops->progress ? h->ops->progress(h) : -1);

	if (p < 0)
		return;
	fprintf(stderr, "\r%.2lf", p * 100.0);
	g_progress_shown = !final;
	if (final)
		fputc('\n', stderr);
}

/* the capture filter, run by the state engine before the state update */
static int capture_filter(void *ctx, struct sinsp *s, struct sinsp_evt *e)
{
	struct run *r = ctx;

	if (r->o->debug && e->scap.type == PPME_PROCINFO_E)
		return 1;
	return filter_run(r->flt, s, e);
}

/*
 * -w of a live capture with no filter, chisel or summary: nothing reads the
 * thread/fd state, so the events go to the file straight from the engine
 * (the state engine would cost more than the capture itself).
 */
static int is_raw_dump(const struct run *r, const struct sinsp *s)
{
	return s->is_live && r->o->write_path && !r->flt && !r->chisels && !r->sm && !r->fleet && !r->fr;
}

/* the next event from the engine, without the state engine */
static int raw_read(struct sinsp *s, struct scap *h, struct sinsp_evt *e)
{
	int n = scap_next(h, &e->scap);

	if (n == SCAP_FAILURE)
		snprintf(s->err, sizeof(s->err), "%s", h->err);
	return n;
}

static int raw_next(struct sinsp *s, struct scap *h, struct sinsp_evt *e)
{
	int n = raw_read(s, h, e);

	if (n == SCAP_SUCCESS)
		sinsp_evt_begin(s, e);
	return n;
}

/*
 * Nothing prints or reads an fd: -w (or -q) with no chisel, summary or
 * display filter, and a capture filter made of proc.name checks only.  The
 * state engine may then skip the fd work of reads and writes
 * (sinsp.fd_state_unread): what the filter keeps, hence the file, is the same.
 */
static int nothing_reads_fds(const struct run *r)
{
	const struct cli_opts *o = r->o;

	return o->quiet && !r->chisels && !r->sm && !r->fleet && !r->fr && !o->display_filter &&
	       r->flt && filter_only_proc_name(r->flt);
}

/* what the options change in an engine before the state engine sees it:
 * -E drops the user/group tables, -U suppresses comms */
static int prepare_source(const struct cli_opts *o, struct scap *h)
{
	if (o->exclude_users)
		scap_metadata_drop_users(&h->meta);
	if (o->nsuppress && scap_suppress_comms(h, o->suppress, o->nsuppress, !o->ninputs) < 0) {
		fprintf(stderr, "out of memory\n");
		return -1;
	}
	return 0;
}

static int run_source(struct run *r, struct scap *h)
{
	char err[SCAP_ERRBUF_SIZE] = "";
	struct sinsp *s = prepare_source(r->o, h) ? NULL : sinsp_open(h, err);
	struct sinsp_evt e;
	int progress = r->o->progress || (r->o->write_path && r->o->ninputs && !r->fr);
	int rc = 0, raw;

	if (!s) {
		fprintf(stderr, "%s\n", err[0] ? err : "can't initialize the state engine");
		return 1;
	}
	s->is_live = r->o->ninputs == 0;
	s->large_env = r->o->large_env;
	s->render = r->o->render;
	if (r->flt && !r->o->display_filter) {
		s->capture_filter = capture_filter;
		s->capture_filter_ctx = r;
	}
	s->fd_state_unread = nothing_reads_fds(r);
	if (r->chisels) {
		chisel_set_sinsp(r->chisels, s);
		if (chisel_capture_start(r->chisels, r->err, sizeof(r->err)) < 0) {
			fprintf(stderr, "%s\n", r->err);
			if (chisel_engine_error(r->chisels))
				chisel_capture_end(r->chisels, r->err, sizeof(r->err));
			sinsp_close(s);
			return 1;
		}
	}
	if (r->o->write_path) {
		r->w.o = r->o;
		r->w.meta = &h->meta;
		r->w.s = s;
		r->w.flt = r->o->filter_proclist ? r->flt : NULL;
		r->w.fr = r->fr;
		/* the file exists, with its metadata, from the start: a signal
		 * before the first event still leaves a valid capture (a -G
		 * name from the first event's time must wait for it) */
		if (!r->w.d && !r->fr && !(r->o->rotate_secs && !s->is_live) &&
		    writer_open(&r->w, (uint64_t)time(NULL) * 1000000000ULL)) {
			sinsp_close(s);
			return 1;
		}
	}
	if (progress)
		fputs("\r", stderr);
	raw = is_raw_dump(r, s);
	debug_log(r->o, "%s: %u threads, %u users, %u groups in the process table; capture filter: %s%s",
		  h->ops->name, h->meta.nthreads, h->meta.nusers, h->meta.ngroups,
		  r->o->filter ? r->o->filter : "(none)", raw ? " (raw dump, no state engine)" : "");
	memset(&e, 0, sizeof(e));
	while (!g_stop) {
		int n = raw ? raw_next(s, h, &e) : sinsp_next(s, &e);

		if (n == SCAP_TIMEOUT) {
			/* CMD gone (its procexit not seen: dropped or filtered)
			 * and the rings empty twice: nothing of it is in flight */
			if (r->cmd && traced_cmd_gone(r->cmd) && r->cmd_idle++)
				break;
			if (r->fleet)
				fleet_tick(r->fleet, h);
			if (r->fr)
				flight_tick(r->fr, s, FLIGHT_CLOCK);
			/* live: on_interval keeps its pace without events */
			if (r->chisels && chisel_tick(r->chisels, r->err, sizeof(r->err)) < 0) {
				fprintf(stderr, "%s\n", r->err);
				rc = 1;
				break;
			}
			continue;
		}
		if (n == SCAP_EOF)
			break;
		if (n != SCAP_SUCCESS) {
			out_flush(&r->out);
			if (stopped_by_signal(s->err))
				break;
			error_line(s->err[0] ? s->err : "error reading events");
			rc = 1;
			break;
		}
		if (r->o->recover && h->recovered) {
			out_flush(&r->out);
			error_line(h->note);
			h->recovered = 0;
		}
		if (progress && r->total % 10000 == 9999)
			print_progress(h, 0);
		if (r->cmd && !traced_cmd_keep(r->cmd, &e.scap))
			continue;
		n = handle_event(r, s, &e);
		if (r->fr && n == 0)
			flight_tick(r->fr, s, e.scap.ts);
		if (n < 0 && stopped_by_signal(r->err))
			break;
		if (n < 0) {
			out_flush(&r->out);
			if (r->err[0])
				error_line(r->err);
			rc = 1;
			r->stop = 1;
			break;
		}
		if (n == 1 || (r->cmd && r->cmd->exited)) {
			r->stop = 1;
			break;
		}
	}
	if (progress && !rc) {	/* after an error, its line is the last one */
		fputs("\r\r", stderr);
		print_progress(h, 1);
	}
	if (r->fleet)
		fleet_tick(r->fleet, h);
	out_flush(&r->out);
	if (r->chisels)
		chisel_interrupt_clear(r->chisels);	/* on_capture_end runs; a second signal kills */
	if (r->chisels && chisel_capture_end(r->chisels, r->err, sizeof(r->err)) < 0) {
		fprintf(stderr, "%s\n", r->err);
		rc = 1;
	}
	fflush(stdout);
	if (r->w.d && writer_close(&r->w))
		rc = 1;
	/* the flight recorder's dump at the end, with this source's state */
	if (r->fr && (r->last_source || r->stop || g_stop || rc) && flight_finish(r->fr, s))
		rc = 1;
	if (r->o->recover && h->skipped_regions) {
		fprintf(stderr, "--recover: skipped %llu damaged regions (%llu bytes)\n",
			(unsigned long long)h->skipped_regions, (unsigned long long)h->skipped_bytes);
		rc = 1;
	}
	debug_log(r->o, "%s: end of capture, %llu events read, %llu passed the filter, %llu suppressed by -U",
		  h->ops->name, (unsigned long long)r->total, (unsigned long long)r->nread,
		  (unsigned long long)scap_suppressed_count(h));
	if (r->o->verbose || s->is_live) {
		struct scap_stats st = { 0 };

		if (h->ops->get_stats)
			h->ops->get_stats(h, &st);
		debug_log(r->o, "%s: driver: %llu events, %llu suppressed by comm, %llu of unselected pids",
			  h->ops->name, (unsigned long long)st.n_evts, (unsigned long long)st.n_suppressed,
			  (unsigned long long)st.n_unselected);
		st.n_suppressed += scap_suppressed_count(h);
		if (r->o->verbose) {
			double cpu = (double)clock() / CLOCKS_PER_SEC;

			fprintf(stderr, "Driver Events:%llu\nDriver Drops:%llu\nSuppressed by Comm:%llu\n",
				(unsigned long long)st.n_evts, (unsigned long long)st.n_drops,
				(unsigned long long)st.n_suppressed);
			fprintf(stderr, "Elapsed time: %.3lf, Captured Events: %llu, %.2lf eps\n", cpu,
				(unsigned long long)r->total, cpu > 0 ? (double)r->total / cpu : 0.0);
		} else if (st.n_drops) {
			fprintf(stderr, "Driver Drops:%llu\n", (unsigned long long)st.n_drops);
		}
	}
	sinsp_close(s);
	return rc;
}

static int setup_chisels(struct run *r)
{
	struct cli_opts *o = r->o;
	struct chisel_host host = { 0 };

	if (!o->nchisels)
		return 0;
	r->chisels = chisel_runtime_new(NULL, r->err, sizeof(r->err));
	if (!r->chisels)
		return -1;
	host.filter = o->filter;
	host.evtsource = o->ninputs ? o->inputs[0] : NULL;
	host.is_live = o->ninputs == 0;
	host.print_container = o->print_container;
	host.json = o->json;
	host.user_buffer_format = o->json || o->render.bufmode != RB_DOTS;
	chisel_set_host(r->chisels, &host);
	for (int i = 0; i < o->nchisels; i++)
		if (chisel_load(r->chisels, o->chisels[i].name, o->chisels[i].args, r->err,
				sizeof(r->err)) < 0)
			return -1;
	g_chisels = r->chisels;
	if (chisel_init(r->chisels, r->err, sizeof(r->err)) < 0)
		return stopped_by_signal(r->err) ? 0 : -1;
	if (chisel_global_filter(r->chisels) && !o->filter)
		o->filter = strdup(chisel_global_filter(r->chisels));
	return 0;
}

static int getenv_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/*
 * What the live driver can leave out: event types that the capture filter
 * or, with chisels, every chisel's own filter rejects (the engine adds the
 * ones the state needs), the tasks the capture filter cannot accept
 * (filter_pushdown: proc.name, proc.pid, thread.tid, proc.apid/ppid) and
 * the -U names.  A display filter (-d) sees every event.
 */
static void live_pushdown(struct run *r, struct scap_live_opts *lo)
{
	static uint8_t mask[PPM_EVENT_MAX];
	static struct filter_pushdown pd;
	static const char *names[FILTER_PUSH_MAX], *cids[FILTER_PUSH_MAX];
	static struct scap_select sel;
	const struct filter *f = r->o->display_filter ? NULL : r->flt;

	lo->suppress = r->o->suppress;
	lo->nsuppress = r->o->nsuppress;
	if (!f && !r->chisels)
		return;
	for (int t = 0; t < PPM_EVENT_MAX; t++)
		mask[t] = (!f || filter_may_match_type(f, (uint16_t)t)) &&
			  (!r->chisels || chisel_may_match_type(r->chisels, (uint16_t)t));
	lo->syscall_mask = mask;
	/* SYSDIG_NO_PUSHDOWN=1: no task selection in the driver (to check
	 * that it changes nothing but the cost) */
	if (!f || getenv_flag("SYSDIG_NO_PUSHDOWN"))
		return;
	filter_pushdown(f, &pd);
	/* one name: compared in place by the driver; several: a map */
	lo->comm = pd.ncomms == 1 ? pd.comms[0] : NULL;
	for (uint32_t i = 0; pd.ncomms > 1 && i < pd.ncomms; i++)
		names[i] = pd.comms[i];
	lo->comms = names;
	lo->ncomms = pd.ncomms > 1 ? (int)pd.ncomms : 0;
	sel.pids = pd.pids;
	sel.npids = pd.npids;
	sel.tids = pd.tids;
	sel.ntids = pd.ntids;
	sel.roots = pd.roots;
	sel.nroots = pd.nroots;
	for (uint32_t i = 0; i < pd.ncids; i++)
		cids[i] = pd.cids[i];
	sel.container_ids = cids;
	sel.ncontainer_ids = pd.ncids;
	if (sel.npids + sel.ntids + sel.nroots + sel.ncontainer_ids)
		lo->select = &sel;
}

/* -- CMD: forked held (0, or the exit code of a failure), its process tree is what the driver captures (the
 * filter's own pid pushdown would widen it: the driver keeps the union) */
static int start_cmd(struct run *r, struct scap_live_opts *lo)
{
	static struct traced_cmd cmd;
	static struct scap_select sel;
	static uint32_t root;
	int rc = traced_cmd_start(&cmd, r->o->cmd, r->o->cmd_user, r->err, sizeof(r->err));

	if (rc) {
		fprintf(stderr, "%s\n", r->err);
		return rc;
	}
	r->cmd = &cmd;
	root = (uint32_t)cmd.pid;
	memset(&sel, 0, sizeof(sel));
	sel.roots = &root;
	sel.nroots = 1;
	sel.exact = 1;
	lo->select = &sel;
	debug_log(r->o, "-- %s: pid %u", r->o->cmd[0], root);
	return 0;
}

/* the exit code: CMD's, unless the capture failed; a stop signal is
 * passed on to CMD, unless it came from the terminal whose foreground
 * group we share with CMD (then CMD got it too) */
static int finish_cmd(struct run *r, int status)
{
	int code;

	if (!r->cmd)
		return status;
	if (g_stop && !(isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp()))
		traced_cmd_signal(r->cmd, g_stop_sig);
	code = traced_cmd_finish(r->cmd);
	r->cmd = NULL;
	return status ? status : code;
}

/*
 * --stacks: the syscalls whose stacks the driver takes, those the stacks
 * filter (else the capture filter) may select by event type; the rest of
 * --stacks-filter is applied to each event (handle_event)
 */
static void stacks_pushdown(struct run *r, struct scap_live_opts *lo)
{
	static uint8_t mask[PPM_EVENT_MAX];
	const struct filter *f = r->stacks_flt ? r->stacks_flt : r->flt;

	if (!r->o->stacks)
		return;
	for (int t = 0; t < PPM_EVENT_MAX; t++)
		mask[t] = !f || filter_may_match_type(f, (uint16_t)t);
	lo->stack_mask = mask;
}

int run_capture(struct cli_opts *o)
{
	static struct run r;
	const char *fmt = o->format;
	int status = 0;

	catch_stop_signals();
	r.o = o;
	r.out.unbuffered = o->unbuffered;
	if (!fmt && o->source)
		fmt = isatty(STDOUT_FILENO) && !o->json ? TTY_PLUGIN_FORMAT : PLUGIN_FORMAT;
	if (!fmt)
		fmt = isatty(STDOUT_FILENO) && !o->json ? TTY_FORMAT : DEFAULT_FORMAT;
	r.fmt = formatter_new(fmt, r.err, sizeof(r.err));
	if (!r.fmt) {
		fprintf(stderr, "%s\n", r.err);
		return 1;
	}
	if (!o->format && !o->source && o->ninputs)
		r.plugin_fmt = formatter_new(isatty(STDOUT_FILENO) && !o->json ? TTY_PLUGIN_FORMAT : PLUGIN_FORMAT,
					     r.err, sizeof(r.err));
	if (setup_chisels(&r) < 0) {
		fprintf(stderr, "%s\n", r.err);
		return 1;
	}
	if (o->filter && *o->filter) {
		r.flt = filter_compile(o->filter, r.err, sizeof(r.err));
		if (!r.flt) {
			fprintf(stderr, "%s\n", r.err);
			return 1;
		}
	}
	if (o->stacks && (o->ninputs || o->source)) {
		fprintf(stderr, "--stacks works on live captures only (the stacks in a file are printed by %%evt.stack)\n");
		return 1;
	}
	if (o->stacks_filter) {
		r.stacks_flt = filter_compile(o->stacks_filter, r.err, sizeof(r.err));
		if (!r.stacks_flt) {
			fprintf(stderr, "--stacks-filter: %s\n", r.err);
			return 1;
		}
	}
	if (o->summary) {
		r.sm = calloc(1, sizeof(*r.sm));
		if (!r.sm)
			return 1;
	}
	r.fleet = fleet_start(&o->fleet, r.err, sizeof(r.err));
	if (!r.fleet && r.err[0]) {
		fprintf(stderr, "%s\n", r.err);
		return 1;
	}
	r.fr = flight_start(o, r.err, sizeof(r.err));
	if (!r.fr && r.err[0]) {
		fprintf(stderr, "%s\n", r.err);
		fleet_finish(r.fleet, 0, &g_stop);
		return 1;
	}
	r.last_source = !o->ninputs;
	if (r.chisels && fleet_metrics(r.fleet))
		chisel_set_metrics_sink(r.chisels, metrics_publish, fleet_metrics(r.fleet));

	if (o->source) {
		char err[SCAP_ERRBUF_SIZE] = "";
		struct scap *h = plugin_open_source(o->source, o->input_params, err);

		if (!h) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		debug_log(o, "starting capture from the source plugin %s", o->source->name);
		status = run_source(&r, h);
	} else if (o->ninputs == 0) {
		struct scap_live_opts lo = { 0 };
		char err[SCAP_ERRBUF_SIZE] = "";
		struct scap *h;

		if (o->progress) {
			fprintf(stderr, "the -P flag cannot be used with live captures.\n");
			fleet_finish(r.fleet, 0, &g_stop);
			return 1;
		}
		lo.driver = (enum scap_live_driver)o->driver;
		lo.snaplen = o->snaplen;
		/* a chisel's sysdig.set_snaplen() (its on_init ran in
		 * setup_chisels), unless -s says otherwise, as in sysdig */
		if (r.chisels && chisel_snaplen(r.chisels) && !o->snaplen_set)
			lo.snaplen = chisel_snaplen(r.chisels);
		lo.skip_self = !o->debug;
		lo.page_faults = o->page_faults;
		lo.tracers = o->force_tracers;
		lo.exit_only = o->exit_only;
		lo.buffer_bytes_per_cpu = o->buffer_bytes;
		live_pushdown(&r, &lo);
		stacks_pushdown(&r, &lo);
		lo.kernel_stacks = o->kernel_stacks;
		if (o->cmd && (status = start_cmd(&r, &lo))) {
			fleet_finish(r.fleet, 0, &g_stop);
			return status;
		}
		debug_log(o, "starting live capture");
		h = scap_open_live(&lo, err);
		if (!h) {
			fprintf(stderr, "%s\n", err[0] ? err : "cannot open the live capture");
			status = 1;
		} else if (r.cmd && traced_cmd_release(r.cmd, r.err, sizeof(r.err))) {
			fprintf(stderr, "%s\n", r.err);
			scap_close(h);
			status = 127;
		} else {
			status = run_source(&r, h);
		}
		status = finish_cmd(&r, status);
	}
	if (o->force_tracers && o->ninputs)
		fprintf(stderr, "sysdig: -T has no effect: tracers are captured live (a file holds what was captured)\n");
	/* the first input is opened even after an early signal: its -w file
	 * then holds the metadata (valid, no events) */
	for (int i = 0; i < o->ninputs && !r.stop && (i == 0 || !g_stop); i++) {
		char err[SCAP_ERRBUF_SIZE] = "";
		struct scap *h;

		debug_log(o, "starting offline capture of %s", o->inputs[i]);
		h = scap_open_file(o->inputs[i], err);

		if (h)
			h->recover = o->recover;

		if (!h && stopped_by_signal(err))
			break;
		if (!h) {
			out_flush(&r.out);
			fprintf(stderr, "%s\n", err[0] ? err : "can't open file");
			status = 1;
			break;
		}
		r.last_source = i == o->ninputs - 1;
		status = run_source(&r, h);
		if (status)
			break;
	}
	if (fleet_finish(r.fleet, o->ninputs > 0 && !status, &g_stop))
		status = 1;
	if (strchr(fmt, '\x1b') && !o->json && !o->quiet && !r.chisels)
		fputs("\x1b[00m", stdout);
	if (r.sm)
		print_summary(stdout, r.sm);
	fflush(stdout);
	formatter_free(r.fmt);
	formatter_free(r.plugin_fmt);
	if (r.flt)
		filter_free(r.flt);
	if (r.stacks_flt)
		filter_free(r.stacks_flt);
	g_chisels = NULL;
	if (r.chisels) {
		if (chisel_run_app(r.chisels) && !status)
			o->rerun = strdup(chisel_run_app(r.chisels));
		chisel_runtime_free(r.chisels);
	}
	sb_free(&r.out.buf);
	free(r.sm);
	flight_free(r.fr);
	r.fr = NULL;
	g_events_read = r.total;
	return status;
}

uint64_t run_capture_events(void)
{
	return g_events_read;
}
