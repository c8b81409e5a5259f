/*
 * procinfo.c - the procinfo meta-events of a live capture.
 *
 * sysdig 0.29.3 does not get procinfo events from its driver: its libsinsp
 * asks the driver for the CPU time of every thread once per second of event
 * time and inserts one procinfo event per thread (cpu_usr, cpu_sys: user
 * and system time in clock ticks), all stamped with the second boundary
 * minus 1 ns, before the first event at or past the boundary.  The
 * topprocs_cpu chisel, thread.cpu and csysdig's CPU columns read them.
 * We do the same for every live engine: scap_procinfo_wrap() puts this
 * layer in front of the engine's next(), reading the times from
 * /proc/<pid>/task/<tid>/stat (utime, stime: clock ticks, as the driver's
 * list).  When no event comes for a while (a filter that keeps the driver
 * quiet), the batch is made by the clock instead, 200 ms past the second.
 * The events are also what -w writes, as sysdig writes them.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "scap.h"
#include "procinfo.h"

#define NS_PER_SEC 1000000000ull
#define PROCINFO_LEN (PPM_EVT_HDR_LEN + 2 * 2 + 2 * 8)
/* a batch due by the clock waits this long past its second */
#define FLUSH_GRACE_NS 200000000ull

struct procinfo_entry {
	uint64_t tid, utime, stime;
};

struct procinfo_layer {
	const struct scap_engine_ops *inner_ops;
	void *inner;
	uint64_t next_flush;		/* 0 until the first event */
	struct procinfo_entry *list;	/* the batch being returned */
	size_t n, cap, cur;
	uint64_t batch_ts;
	int have_held;
	struct scap_evt held;		/* the engine's event that starts the second */
	uint8_t buf[PROCINFO_LEN];	/* the procinfo event returned */
};

/* utime and stime (fields 14 and 15) of a stat line, after the comm */
static int stat_times(const char *path, uint64_t *ut, uint64_t *st)
{
	char line[1024], *p;
	unsigned long long u, s;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = 0;
	p = strrchr(line, ')');
	/* ") S ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime" */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &u, &s) != 2)
		return -1;
	*ut = u;
	*st = s;
	return 0;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

static void add_entry(struct procinfo_layer *l, uint64_t tid, uint64_t ut, uint64_t st)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 512;
		struct procinfo_entry *p = realloc(l->list, cap * sizeof(*p));

		if (!p)
			return;	/* a shorter batch; the next second tries again */
		l->list = p;
		l->cap = cap;
	}
	l->list[l->n].tid = tid;
	l->list[l->n].utime = ut;
	l->list[l->n].stime = st;
	l->n++;
}

/* every thread of the machine the driver captures, in /proc order */
static void read_threads(struct scap *h, struct procinfo_layer *l)
{
	DIR *proc = opendir("/proc"), *task;
	struct dirent *p, *t;
	char path[600];	/* two d_name of at most 255 bytes */
	uint64_t ut, st, pid = 0;

	l->n = l->cur = 0;
	if (!proc)
		return;
	while ((p = readdir(proc))) {
		if (!all_digits(p->d_name))
			continue;
		if (l->inner_ops->selected) {
			h->engine = l->inner;
			pid = strtoull(p->d_name, NULL, 10);
		}
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((t = readdir(task))) {
			if (!all_digits(t->d_name) || (l->inner_ops->selected &&
			    !l->inner_ops->selected(h, pid, strtoull(t->d_name, NULL, 10))))
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", p->d_name, t->d_name);
			if (!stat_times(path, &ut, &st))
				add_entry(l, strtoull(t->d_name, NULL, 10), ut, st);
		}
		closedir(task);
	}
	h->engine = l;
	closedir(proc);
}

static void make_event(struct procinfo_layer *l, const struct procinfo_entry *pe,
		       uint16_t cpuid, struct scap_evt *evt)
{
	uint8_t *b = l->buf;
	uint32_t len = PROCINFO_LEN, np = 2;
	uint16_t type = PPME_PROCINFO_E, plen = 8;

	scap_evt_write_header(b, l->batch_ts, pe->tid, len, type, np);
	memcpy(b + PPM_EVT_HDR_LEN, &plen, 2);
	memcpy(b + PPM_EVT_HDR_LEN + 2, &plen, 2);
	memcpy(b + PPM_EVT_HDR_LEN + 4, &pe->utime, 8);
	memcpy(b + PPM_EVT_HDR_LEN + 12, &pe->stime, 8);
	memset(evt, 0, sizeof(*evt));
	evt->data = b;
	evt->len = len;
	evt->ts = l->batch_ts;
	evt->tid = pe->tid;
	evt->type = type;
	evt->cpuid = cpuid;
	scap_decode_params(evt);
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* the batch of the second that ended before ts; 0 when /proc gave none */
static int start_batch(struct scap *h, struct procinfo_layer *l, uint64_t ts)
{
	l->batch_ts = l->next_flush - 1;
	l->next_flush = (ts / NS_PER_SEC + 1) * NS_PER_SEC;
	read_threads(h, l);
	return l->n > 0;
}

static int procinfo_next(struct scap *h, struct scap_evt *evt)
{
	struct procinfo_layer *l = h->engine;
	uint64_t now;
	int rc;

	if (l->cur < l->n) {
		make_event(l, &l->list[l->cur++], l->have_held ? l->held.cpuid : 0, evt);
		return SCAP_SUCCESS;
	}
	if (l->have_held) {
		*evt = l->held;
		l->have_held = 0;
		return SCAP_SUCCESS;
	}
	h->engine = l->inner;
	rc = l->inner_ops->next(h, evt);
	h->engine = l;
	/* nothing arrives (a filter that keeps the driver quiet, a machine
	 * that sleeps): the batch is due by the clock, once the second is
	 * over by a margin no event still in flight can be older than */
	if (rc == SCAP_TIMEOUT && l->next_flush &&
	    (now = wall_ns()) >= l->next_flush + FLUSH_GRACE_NS && start_batch(h, l, now)) {
		make_event(l, &l->list[l->cur++], 0, evt);
		return SCAP_SUCCESS;
	}
	if (rc != SCAP_SUCCESS)
		return rc;
	if (!l->next_flush) {
		l->next_flush = (evt->ts / NS_PER_SEC + 1) * NS_PER_SEC;
		return SCAP_SUCCESS;
	}
	if (evt->ts < l->next_flush || !start_batch(h, l, evt->ts))
		return SCAP_SUCCESS;
	l->held = *evt;
	l->have_held = 1;
	make_event(l, &l->list[l->cur++], evt->cpuid, evt);
	return SCAP_SUCCESS;
}

/* the engine's own operations run with its own state in h->engine */
static int procinfo_get_stats(struct scap *h, struct scap_stats *st)
{
	struct procinfo_layer *l = h->engine;
	int rc;

	h->engine = l->inner;
	rc = l->inner_ops->get_stats ? l->inner_ops->get_stats(h, st) : -1;
	h->engine = l;
	return rc;
}

/* an op of the inner engine, called with its own engine state */
static double inner_progress(struct scap *h, double (*op)(struct scap *))
{
	struct procinfo_layer *l = h->engine;
	double p;

	h->engine = l->inner;
	p = op ? op(h) : -1;
	h->engine = l;
	return p;
}

static double procinfo_progress(struct scap *h)
{
	return inner_progress(h, ((struct procinfo_layer *)h->engine)->inner_ops->progress);
}

static double procinfo_reference_progress(struct scap *h)
{
	return inner_progress(h, ((struct procinfo_layer *)h->engine)->inner_ops->reference_progress);
}

static int procinfo_enable_tracers(struct scap *h)
{
	struct procinfo_layer *l = h->engine;
	int r;

	if (!l->inner_ops->enable_tracers)
		return 0;
	h->engine = l->inner;
	r = l->inner_ops->enable_tracers(h);
	h->engine = l;
	return r;
}

static void procinfo_close(struct scap *h)
{
	struct procinfo_layer *l = h->engine;

	h->engine = l->inner;
	h->ops = l->inner_ops;
	if (h->ops->close)
		h->ops->close(h);
	free(l->list);
	free(l);
}

static const struct scap_engine_ops procinfo_ops = {
	.name = "procinfo",
	.next = procinfo_next,
	.get_stats = procinfo_get_stats,
	.progress = procinfo_progress,
	.reference_progress = procinfo_reference_progress,
	.close = procinfo_close,
	.enable_tracers = procinfo_enable_tracers,
};

int scap_procinfo_wrap(struct scap *h, char *err)
{
	struct procinfo_layer *l = calloc(1, sizeof(*l));

	if (!l) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: out of memory");
		return -1;
	}
	l->inner_ops = h->ops;
	l->inner = h->engine;
	h->ops = &procinfo_ops;
	h->engine = l;
	return 0;
}
