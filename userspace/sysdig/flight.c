/*
 * flight.c - the flight recorder: `--flight-recorder SIZE[,SECONDS] -w FILE`
 * keeps the last SIZE bytes (and at most the last SECONDS) of the events
 * that -w would write, in a ring in memory, and writes them as a normal
 * .scap file FILE<N> (N = 0, 1, ...; modulo -W when given) on SIGUSR1, once
 * the window of a --trigger FILTER event is over (--trigger-window
 * SECONDS), and when the capture ends.  The capture goes on after a dump.
 *
 * The ring is one block of SIZE bytes holding whole entries (a small header
 * and the event as the engine gave it); a new entry evicts the oldest ones
 * until it fits, so the memory is SIZE plus the state engine's tables,
 * whatever the event rate.  A dump starts with the metadata of the
 * capture (machine, interfaces, users) and the thread and fd tables of the
 * state engine at that moment (state_metadata.c), plus the threads that
 * exited while their events are in the ring (copied at their procexit, at
 * most SIZE / 4 bytes of them), then the ring's events, oldest first.  capture.c hands us what its writer would write (writer_event).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "filter.h"
#include "flight.h"

#define NS_PER_SEC 1000000000ULL
#define FLIGHT_MIN_SIZE (64 * 1024)

/* one event in the ring; the event follows, padded to 8 bytes */
struct ring_entry {
	uint32_t len;
	uint16_t cpuid;
	uint16_t pad;
	uint32_t flags;
	uint32_t pad2;
};

struct ring {
	uint8_t *buf;
	uint64_t cap;
	/* entries lie in [start, end), or in [start, wrap_at) then [0, end)
	 * when wrapped */
	uint64_t start, end, wrap_at;
	int wrapped;
	uint64_t count, bytes;
};

/* a thread that exited while its events are in the ring: its table entry
 * goes to the dumps (the state engine forgot it) */
struct exited {
	uint64_t ts;		/* of its procexit */
	uint64_t clone_ts;	/* of its clone, 0: from the /proc snapshot */
	uint64_t made_ts;	/* sinsp_threadinfo.made_ts */
	uint64_t bytes;
	struct scap_threadinfo t;
};

/* a FIFO of exited threads, at most EXITED_SHARE of the ring's size */
#define EXITED_SHARE 4
struct exited_list {
	struct exited *v;
	uint64_t head, n, cap;	/* v[head], ... v[(head + n - 1) % cap] */
	uint64_t bytes;
};

/* an fd closed while events using it may be in the ring: it goes back
 * into its process's table in the dumps (when the number is free there) */
struct closed_fd {
	uint64_t ts;		/* of its close */
	int64_t pid;		/* the thread owning the fd table */
	struct scap_fdinfo fd;	/* the name is ours */
};

struct closed_list {
	struct closed_fd *v;
	uint64_t head, n, cap;
	uint64_t bytes;
};

struct flight {
	struct ring ring;
	struct exited_list exited;
	struct closed_list closed;
	const struct cli_opts *o;
	struct filter *trigger;
	uint64_t window_ns;		/* SECONDS bound, 0: none */
	uint64_t trigger_window_ns;
	uint64_t deadline;		/* end of the trigger window, 0: not armed */
	uint64_t too_large;		/* events larger than the ring */
	uint64_t seq;			/* dumps written */
	int all_events;			/* no capture filter: every event goes to the ring */
	int failed;			/* a dump failed (printed) */
};

static volatile sig_atomic_t g_dump_requested;

static void on_usr1(int sig)
{
	(void)sig;
	g_dump_requested = 1;
}

/* ------------------------------------------------------------- options */

/* "64M", "512k", "1G", "100000": bytes (k, M, G are 1024-based) */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	default: break;
	}
	if (*end || v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

/* "2", "0.5": nanoseconds; zero allowed when zero_ok */
static int parse_secs(const char *s, uint64_t *out, int zero_ok)
{
	char *end;
	double v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || v != v || v > 1e9 || (v <= 0 && !zero_ok) || v < 0)
		return -1;
	*out = (uint64_t)(v * 1e9);
	return 0;
}

static int parse_recorder(struct flight_opts *fo, const char *arg)
{
	char size[64];
	const char *comma = strchr(arg, ',');
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);

	if (n >= sizeof(size) || (memcpy(size, arg, n), size[n] = 0, parse_size(size, &fo->size))) {
		fprintf(stderr, "invalid --flight-recorder size '%.*s': a number of bytes, with k, M or G (e.g. 64M)\n",
			(int)n, arg);
		return -1;
	}
	if (fo->size < FLIGHT_MIN_SIZE) {
		fprintf(stderr, "--flight-recorder size %s is too small: at least 64k\n", size);
		return -1;
	}
	if (pages > 0 && psize > 0 && fo->size > (uint64_t)pages * (uint64_t)psize) {
		fprintf(stderr, "--flight-recorder size %s is more than this machine's memory (%llu MiB)\n",
			size, (unsigned long long)((uint64_t)pages * (uint64_t)psize >> 20));
		return -1;
	}
	fo->window_ns = 0;
	if (comma && parse_secs(comma + 1, &fo->window_ns, 0)) {
		fprintf(stderr, "invalid --flight-recorder seconds '%s': a positive number of seconds\n",
			comma + 1);
		return -1;
	}
	return 0;
}

int flight_parse_opt(struct flight_opts *fo, int opt, const char *arg)
{
	switch (opt) {
	case OPT_FLIGHT_RECORDER:
		return parse_recorder(fo, arg);
	case OPT_TRIGGER:
		if (!*arg) {
			fprintf(stderr, "--trigger needs a filter\n");
			return -1;
		}
		fo->trigger = arg;
		return 0;
	case OPT_TRIGGER_WINDOW:
		if (parse_secs(arg, &fo->trigger_window_ns, 1)) {
			fprintf(stderr, "invalid --trigger-window '%s': a number of seconds (0 or more)\n", arg);
			return -1;
		}
		fo->trigger_window_set = 1;
		return 0;
	default:
		return -1;
	}
}

/* ---------------------------------------------------------------- ring */

static uint64_t entry_size(uint32_t len)
{
	return (sizeof(struct ring_entry) + (uint64_t)len + 7) & ~7ULL;
}

static struct ring_entry *entry_at(const struct ring *r, uint64_t off)
{
	return (struct ring_entry *)(r->buf + off);
}

static uint64_t entry_ts(const struct ring_entry *en)
{
	uint64_t ts;

	memcpy(&ts, (const uint8_t *)(en + 1), 8);	/* the event header starts with ts */
	return ts;
}

static void ring_evict(struct ring *r)
{
	uint64_t sz = entry_size(entry_at(r, r->start)->len);

	r->start += sz;
	r->bytes -= sz;
	r->count--;
	if (r->wrapped && r->start == r->wrap_at) {
		r->start = 0;
		r->wrapped = 0;
	}
	if (!r->count)
		r->start = r->end = r->wrap_at = 0, r->wrapped = 0;
}

/* room for need bytes (need <= cap), evicting the oldest entries */
static uint8_t *ring_reserve(struct ring *r, uint64_t need)
{
	for (;;) {
		uint64_t at;

		if (!r->wrapped && r->end + need <= r->cap) {
			at = r->end;
		} else if (!r->wrapped && need <= r->start) {
			r->wrap_at = r->end;
			r->wrapped = 1;
			at = 0;
		} else if (r->wrapped && r->end + need <= r->start) {
			at = r->end;
		} else {
			ring_evict(r);
			continue;
		}
		r->end = at + need;
		r->bytes += need;
		r->count++;
		return r->buf + at;
	}
}

static void ring_add(struct ring *r, const struct scap_evt *ev, uint16_t cpuid, uint32_t flags)
{
	uint64_t need = entry_size(ev->len);
	struct ring_entry *en = (struct ring_entry *)ring_reserve(r, need);

	memset(en, 0, sizeof(*en));
	en->len = ev->len;
	en->cpuid = cpuid;
	en->flags = flags;
	memcpy(en + 1, ev->data, ev->len);
}

/* calls cb on every entry, oldest first, until it returns non-zero */
static int ring_foreach(const struct ring *r, int (*cb)(const struct ring_entry *en, void *arg), void *arg)
{
	uint64_t off = r->start, left = r->count;

	while (left) {
		const struct ring_entry *en;
		int rc;

		if (r->wrapped && off == r->wrap_at)
			off = 0;
		en = entry_at(r, off);
		rc = cb(en, arg);
		if (rc)
			return rc;
		off += entry_size(en->len);
		left--;
	}
	return 0;
}

/* ------------------------------------------------------- exited threads */

static struct exited *exited_at(const struct exited_list *l, uint64_t i)
{
	return &l->v[(l->head + i) % l->cap];
}

static void exited_drop_oldest(struct exited_list *l)
{
	struct exited *x = exited_at(l, 0);

	l->bytes -= x->bytes;
	scap_thread_free(&x->t);
	l->head = (l->head + 1) % l->cap;
	l->n--;
}

/* keeps those that exited after the ring's oldest event, within max bytes */
static void exited_prune(struct exited_list *l, const struct ring *r, uint64_t max)
{
	uint64_t oldest = r->count ? entry_ts(entry_at(r, r->start)) : UINT64_MAX;

	while (l->n && (exited_at(l, 0)->ts < oldest || l->bytes > max))
		exited_drop_oldest(l);
}

static void exited_add(struct exited_list *l, struct sinsp *s, struct sinsp_evt *e)
{
	struct exited *x;
	long bytes;

	if (l->n == l->cap) {
		uint64_t cap = l->cap ? l->cap * 2 : 64;
		struct exited *v = malloc(cap * sizeof(*v));

		if (!v)
			return;
		for (uint64_t i = 0; i < l->n; i++)
			v[i] = *exited_at(l, i);
		free(l->v);
		l->v = v;
		l->cap = cap;
		l->head = 0;
	}
	x = &l->v[(l->head + l->n) % l->cap];
	bytes = sinsp_thread_copy(s, e->thread, &x->t);
	if (bytes < 0)
		return;
	x->ts = e->scap.ts;
	x->clone_ts = e->thread->clone_ts;
	x->made_ts = e->thread->made_ts;
	x->bytes = (uint64_t)bytes;
	l->bytes += x->bytes;
	l->n++;
}

static void exited_free(struct exited_list *l)
{
	while (l->n)
		exited_drop_oldest(l);
	free(l->v);
}

/* --------------------------------------------------------- closed fds */

static struct closed_fd *closed_at(const struct closed_list *l, uint64_t i)
{
	return &l->v[(l->head + i) % l->cap];
}

static void closed_prune(struct closed_list *l, const struct ring *r, uint64_t max)
{
	uint64_t oldest = r->count ? entry_ts(entry_at(r, r->start)) : UINT64_MAX;

	while (l->n && (closed_at(l, 0)->ts < oldest || l->bytes > max)) {
		struct closed_fd *c = closed_at(l, 0);

		l->bytes -= sizeof(*c) + strlen(c->fd.name) + 1;
		free(c->fd.name);
		l->head = (l->head + 1) % l->cap;
		l->n--;
	}
}

static void closed_add(struct closed_list *l, struct sinsp *s, struct sinsp_evt *e)
{
	struct sinsp_threadinfo *owner = e->thread;
	struct closed_fd *c;

	if (!owner->fdtable)	/* a thread of a process: its table */
		owner = sinsp_get_main_thread(s, owner);
	if (!owner)
		return;
	if (l->n == l->cap) {
		uint64_t cap = l->cap ? l->cap * 2 : 64;
		struct closed_fd *v = malloc(cap * sizeof(*v));

		if (!v)
			return;
		for (uint64_t i = 0; i < l->n; i++)
			v[i] = *closed_at(l, i);
		free(l->v);
		l->v = v;
		l->cap = cap;
		l->head = 0;
	}
	c = &l->v[(l->head + l->n) % l->cap];
	sinsp_fd_to_scap(&c->fd, e->fdinfo);
	c->fd.name = strdup(e->fdinfo->name);
	if (!c->fd.name)
		return;
	c->ts = e->scap.ts;
	c->pid = owner->tid;
	l->bytes += sizeof(*c) + strlen(c->fd.name) + 1;
	l->n++;
}

static void closed_free(struct closed_list *l)
{
	for (uint64_t i = 0; i < l->n; i++)
		free(closed_at(l, i)->fd.name);
	free(l->v);
}

static struct scap_threadinfo *table_find(struct scap_metadata *m, uint32_t n, int64_t tid)
{
	for (uint32_t i = 0; i < n; i++)
		if ((int64_t)m->threads[i].tid == tid)
			return &m->threads[i];
	return NULL;
}

/* the closed fds back into the first n threads of m, where their number is
 * free (the newest close of a number wins); 0 or -1 (no memory) */
static int dump_closed_fds(const struct closed_list *l, struct scap_metadata *m, uint32_t n)
{
	for (uint64_t i = l->n; i-- > 0;) {
		const struct closed_fd *c = closed_at(l, i);
		struct scap_threadinfo *t = table_find(m, n, c->pid);
		uint32_t j;

		if (!t)
			continue;
		for (j = 0; j < t->nfds && t->fds[j].fd != c->fd.fd; j++)
			;
		if (j < t->nfds)
			continue;
		if (t->nfds == t->fds_cap) {
			uint32_t cap = t->fds_cap ? t->fds_cap * 2 : 16;
			struct scap_fdinfo *v = realloc(t->fds, cap * sizeof(*v));

			if (!v)
				return -1;
			t->fds = v;
			t->fds_cap = cap;
		}
		t->fds[t->nfds++] = c->fd;
	}
	return 0;
}

/*
 * The dump's process table: the state's threads, then the exited ones
 * that the state no longer has, then the closed fds put back.  When every
 * event goes to the ring (no capture filter), a thread cloned after the
 * ring's oldest event is left out: the reader makes it from its clone
 * event, and shows its name before and after its execve as it was then.
 * Every entry's fd array is m's own (sinsp_state_metadata_free frees them).
 * 0 or -1 (no memory).
 */
static int dump_table(struct flight *f, struct sinsp *s, struct scap_metadata *m)
{
	const struct exited_list *l = &f->exited;
	uint64_t born_before = UINT64_MAX;

	if (f->all_events && f->ring.count)
		born_before = entry_ts(entry_at(&f->ring, f->ring.start));
	if (sinsp_state_metadata(s, m, born_before))
		return -1;
	for (uint64_t i = 0; i < l->n; i++) {
		const struct exited *x = exited_at(l, i);
		struct scap_threadinfo *t;

		if (sinsp_thread_born_in(x->clone_ts, x->made_ts, born_before) ||
		    sinsp_get_thread(s, (int64_t)x->t.tid))
			continue;
		if (m->nthreads == m->threads_cap) {
			uint32_t cap = m->threads_cap ? m->threads_cap * 2 : 64;
			struct scap_threadinfo *v = realloc(m->threads, cap * sizeof(*v));

			if (!v)
				goto fail;
			m->threads = v;
			m->threads_cap = cap;
		}
		t = &m->threads[m->nthreads];
		*t = x->t;
		t->fds = NULL;
		t->fds_cap = t->nfds;
		if (t->nfds && !(t->fds = malloc(t->nfds * sizeof(*t->fds))))
			goto fail;
		if (t->nfds)
			memcpy(t->fds, x->t.fds, t->nfds * sizeof(*t->fds));
		m->nthreads++;
	}
	if (dump_closed_fds(&f->closed, m, m->nthreads))
		goto fail;
	return 0;
fail:
	sinsp_state_metadata_free(m);
	return -1;
}

/* ---------------------------------------------------------------- dumps */

struct dump_ctx {
	struct scap_dumper *d;
	uint64_t first_ts, last_ts;
};

static int dump_entry(const struct ring_entry *en, void *arg)
{
	struct dump_ctx *c = arg;
	struct scap_evt ev;

	memset(&ev, 0, sizeof(ev));
	ev.data = (const uint8_t *)(en + 1);
	ev.len = en->len;
	if (!c->first_ts)
		c->first_ts = entry_ts(en);
	c->last_ts = entry_ts(en);
	return scap_dump_event(c->d, &ev, en->cpuid, en->flags) ? -1 : 0;
}

static void format_ts(uint64_t ts, char *buf, size_t len)
{
	time_t t = (time_t)(ts / NS_PER_SEC);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), ".%06llu",
		 (unsigned long long)(ts % NS_PER_SEC / 1000));
}

/* writes the ring as FILE<seq>; why: what asked for it (for the log line) */
static int flight_dump(struct flight *f, struct sinsp *s, const char *why)
{
	char path[4096], err[SCAP_ERRBUF_SIZE] = "", t0[32] = "-", t1[32] = "-";
	struct dump_ctx c = { 0 };
	struct scap_metadata m;
	uint64_t idx = f->seq;
	int rc = 0;

	g_dump_requested = 0;
	f->deadline = 0;
	if (f->o->file_limit)
		idx %= (uint64_t)f->o->file_limit;
	snprintf(path, sizeof(path), "%s%llu", f->o->write_path, (unsigned long long)idx);
	f->seq++;
	c.d = scap_dump_open(path, f->o->compress, err);
	if (!c.d) {
		fprintf(stderr, "flight recorder: %s\n", err[0] ? err : "can't open the dump file");
		f->failed = 1;
		return -1;
	}
	exited_prune(&f->exited, &f->ring, f->ring.cap / EXITED_SHARE);
	closed_prune(&f->closed, &f->ring, f->ring.cap / EXITED_SHARE);
	if (dump_table(f, s, &m)) {
		fprintf(stderr, "flight recorder: out of memory for the process table of %s\n", path);
		rc = -1;
	} else {
		if (scap_dump_metadata(c.d, &m) || ring_foreach(&f->ring, dump_entry, &c)) {
			fprintf(stderr, "flight recorder: %s: %s\n", path, scap_dump_error(c.d));
			rc = -1;
		}
		sinsp_state_metadata_free(&m);
	}
	if (scap_dump_close(c.d, err) && !rc) {
		fprintf(stderr, "flight recorder: %s: %s\n", path, err[0] ? err : "write error");
		rc = -1;
	}
	if (rc) {
		f->failed = 1;
		return -1;
	}
	if (c.first_ts) {
		format_ts(c.first_ts, t0, sizeof(t0));
		format_ts(c.last_ts, t1, sizeof(t1));
	}
	fprintf(stderr, "flight recorder: %s: wrote %s (%llu events, %s to %s)\n", why, path,
		(unsigned long long)f->ring.count, t0, t1);
	if (f->too_large)
		fprintf(stderr, "flight recorder: %llu events larger than the ring were left out\n",
			(unsigned long long)f->too_large);
	return 0;
}

/* ------------------------------------------------------------ interface */

struct flight *flight_start(const struct cli_opts *o, char *err, size_t errlen)
{
	const struct flight_opts *fo = &o->flight;
	struct sigaction sa;
	struct flight *f;

	err[0] = 0;
	if (!fo->size) {
		if (fo->trigger || fo->trigger_window_set)
			snprintf(err, errlen, "%s needs --flight-recorder SIZE",
				 fo->trigger ? "--trigger" : "--trigger-window");
		return NULL;
	}
	if (!o->write_path || !strcmp(o->write_path, "-")) {
		snprintf(err, errlen, "--flight-recorder needs -w FILE: the dumps are FILE0, FILE1, ...");
		return NULL;
	}
	if (o->file_size_mb || o->rotate_secs || o->events_per_file) {
		snprintf(err, errlen, "--flight-recorder cannot be used with -C, -G or -e (the dumps are its files)");
		return NULL;
	}
	if (fo->trigger_window_set && !fo->trigger) {
		snprintf(err, errlen, "--trigger-window needs --trigger FILTER");
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f || !(f->ring.buf = malloc(fo->size))) {
		free(f);
		snprintf(err, errlen, "--flight-recorder: cannot allocate %llu bytes",
			 (unsigned long long)fo->size);
		return NULL;
	}
	f->ring.cap = fo->size;
	f->o = o;
	f->all_events = !o->filter || o->display_filter;
	f->window_ns = fo->window_ns;
	f->trigger_window_ns = fo->trigger_window_ns;
	if (fo->trigger) {
		char ferr[512] = "";

		f->trigger = filter_compile(fo->trigger, ferr, sizeof(ferr));
		if (!f->trigger) {
			snprintf(err, errlen, "--trigger: %s", ferr);
			flight_free(f);
			return NULL;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	return f;
}

/* the reader's longest sleep on empty rings (ring_reader.c POLL_MAX_NS)
 * and a margin */
#define FLIGHT_IDLE_SLACK_NS (20 * 1000000ULL)

int flight_event(struct flight *f, struct sinsp *s, struct sinsp_evt *e, uint32_t flags)
{
	uint64_t ts = e->scap.ts;

	if (g_dump_requested)
		flight_dump(f, s, "SIGUSR1");
	if (f->deadline && ts >= f->deadline)
		flight_dump(f, s, "trigger");
	if (entry_size(e->scap.len) > f->ring.cap) {
		f->too_large++;
		return 0;
	}
	ring_add(&f->ring, &e->scap, e->scap.cpuid, flags);
	while (f->window_ns && f->ring.count > 1 &&
	       ts > entry_ts(entry_at(&f->ring, f->ring.start)) + f->window_ns)
		ring_evict(&f->ring);
	/* (a thread made up for an unknown tid is made up by the reader too) */
	if ((e->scap.type == PPME_PROCEXIT_E || e->scap.type == PPME_PROCEXIT_1_E) && e->thread &&
	    strcmp(e->thread->comm, "<NA>")) {
		exited_add(&f->exited, s, e);
		exited_prune(&f->exited, &f->ring, f->ring.cap / EXITED_SHARE);
	}
	if (e->info && (e->info->flags & EF_DESTROYS_FD) && e->fdinfo && e->thread && !e->errorcode) {
		closed_add(&f->closed, s, e);
		closed_prune(&f->closed, &f->ring, f->ring.cap / EXITED_SHARE);
	}
	if (f->trigger && !f->deadline && !(flags & SCAP_DF_STATE_ONLY) && filter_run(f->trigger, s, e)) {
		f->deadline = ts + f->trigger_window_ns;
		if (!f->trigger_window_ns)
			flight_dump(f, s, "trigger");
	}
	return 0;
}

void flight_tick(struct flight *f, struct sinsp *s, uint64_t now)
{
	if (g_dump_requested)
		flight_dump(f, s, "SIGUSR1");
	if (f->deadline && now == FLIGHT_CLOCK) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		/* idle: the rings were empty before the reader's last sleep
		 * (at most 10 ms), so events of the window may have come
		 * during it; only a clock past the window by more than a
		 * sleep says every event of the window was read */
		now = (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
		now = now > FLIGHT_IDLE_SLACK_NS ? now - FLIGHT_IDLE_SLACK_NS : 0;
	}
	if (f->deadline && now >= f->deadline)
		flight_dump(f, s, "trigger");
}

int flight_finish(struct flight *f, struct sinsp *s)
{
	flight_dump(f, s, f->deadline ? "trigger (end of capture)" : "end of capture");
	return f->failed ? -1 : 0;
}

void flight_free(struct flight *f)
{
	if (!f)
		return;
	if (f->trigger)
		filter_free(f->trigger);
	exited_free(&f->exited);
	closed_free(&f->closed);
	free(f->ring.buf);
	free(f);
}
