/*
 * bpf_engine.c - the eBPF live engine behind the scap_engine_ops vtable.
 *
 * Loads driver/bpf/probe.bpf.c through its bpftool skeleton, sizes the
 * per-CPU rings (driver/bpf/ring.bpf.h, layout in event_format.h), fills the
 * filler program array, attaches the hooks and takes the /proc snapshot for
 * the metadata.  The rings are read through one mmap of the rings map (no
 * copies, no callbacks) by the shared ring reader (ring_reader.c: merge by
 * timestamp, adaptive polling); this file only says how to find the next
 * record of a ring (an enter and its exit, skipping pads) and release it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "event_format.h"
#include "event_table.h"
#include "bpf_engine.h"
#include "bpf_kernel_check.h"
#include "bpf_select.h"
#include "live_select.h"
#include "proc_snapshot.h"
#include "ring_reader.h"
#include "syscall_table.h"
#include "fill_table.h"
#include "probe.skel.h"

#define DEFAULT_RING_BYTES (8u << 20)

struct ring {
	uint64_t *head;		/* the driver's position (ring_pos in .bss) */
	uint64_t *tail;		/* ours, published on release */
	const uint8_t *data;
	uint64_t mask;
	uint64_t cons;		/* our position */
	uint64_t head_seen;	/* last value read from *head */
	uint64_t rec_next;	/* our position after the record peeked last */
};

struct bpf_engine {
	struct probe_bpf *skel;
	struct ring *rings;
	uint32_t nrings;
	void *ring_area;	/* the mmap of every ring */
	size_t ring_area_len;
	long page;
	struct ring_reader reader;	/* merges and polls the rings */
};

static uint64_t load_acquire(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* libbpf logs (verifier output included) only with SYSDIG_BPF_DEBUG set */
static int quiet_print(enum libbpf_print_level lvl, const char *fmt, va_list ap)
{
	(void)lvl;
	return getenv("SYSDIG_BPF_DEBUG") ? vfprintf(stderr, fmt, ap) : 0;
}

/* ---- the rings, as ring_reader.c reads them ---- */

static void ring_set_tail(struct ring *r, uint64_t pos)
{
	r->cons = pos;
	__atomic_store_n(r->tail, pos, __ATOMIC_RELEASE);
}

/* the ring's next published record (its events) into *c; 1 if there is one */
static int ring_peek(void *engine, uint32_t i, struct ring_chunk *c)
{
	struct ring *r = &((struct bpf_engine *)engine)->rings[i];

	for (;;) {
		const uint8_t *hdr;
		uint32_t len, flags;
		uint64_t off;

		if (r->cons >= r->head_seen) {
			r->head_seen = load_acquire(r->head);
			if (r->cons >= r->head_seen)
				return 0;
		}
		off = r->cons & r->mask;
		hdr = r->data + off;
		memcpy(&len, hdr, 4);
		memcpy(&flags, hdr + 4, 4);
		if (off + SCAP_BPF_REC_HDR + len > r->mask + 1) {
			/* cannot come from the driver: skip what was published */
			ring_set_tail(r, r->head_seen);
			return 0;
		}
		if ((flags & SCAP_BPF_REC_PAD) || len < PPM_EVT_HDR_LEN) {
			ring_set_tail(r, r->cons + ((SCAP_BPF_REC_HDR + len + 7) & ~7u));
			continue;
		}
		c->data = hdr + SCAP_BPF_REC_HDR;
		c->len = len;
		r->rec_next = r->cons + ((SCAP_BPF_REC_HDR + len + 7) & ~7u);
		return 1;
	}
}

/* the record peeked last is read: the driver may reuse its space */
static uint64_t ring_advance(void *engine, uint32_t i)
{
	struct ring *r = &((struct bpf_engine *)engine)->rings[i];
	uint64_t n = r->rec_next - r->cons;

	ring_set_tail(r, r->rec_next);
	return n;
}

static const struct ring_ops bpf_ring_ops = {
	.peek = ring_peek,
	.advance = ring_advance,
};

static int bpf_next(struct scap *h, struct scap_evt *evt)
{
	struct bpf_engine *e = h->engine;

	return ring_reader_next(&e->reader, &bpf_ring_ops, evt, h->err);
}

static int bpf_get_stats(struct scap *h, struct scap_stats *st)
{
	struct bpf_engine *e = h->engine;
	uint32_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < e->nrings && i < SCAP_BPF_MAX_CPUS; i++) {
		const volatile struct scap_bpf_counters *c = &e->skel->bss->counters[i];

		st->n_evts += c->n_evts;
		st->n_suppressed += c->n_suppressed;
		st->n_unselected += c->n_unselected;
		st->n_drops_buffer += c->n_drops_buffer;
		st->n_drops += c->n_drops_buffer + c->n_drops_scratch;
	}
	return 0;
}

static void engine_free(struct bpf_engine *e)
{
	if (!e)
		return;
	if (e->skel && e->skel->bss)
		e->skel->bss->settings.enabled = 0;
	if (e->ring_area)
		munmap(e->ring_area, e->ring_area_len);
	free(e->rings);
	ring_reader_free(&e->reader);
	probe_bpf__destroy(e->skel);
	free(e);
}

/* scap_close() frees the metadata and the handle */
static void bpf_close(struct scap *h)
{
	engine_free(h->engine);
	h->engine = NULL;
}

static int bpf_selected(struct scap *h, uint64_t pid, uint64_t tid)
{
	struct bpf_engine *e = h->engine;

	return bpf_select_has(e->skel, pid, tid);
}

static int bpf_enable_tracers(struct scap *h)
{
	struct bpf_engine *e = h->engine;

	e->skel->bss->settings.flags |= SCAP_BPF_F_TRACERS;
	return 0;
}

static const struct scap_engine_ops bpf_ops = {
	.name = "bpf",
	.next = bpf_next,
	.get_stats = bpf_get_stats,
	.close = bpf_close,
	.selected = bpf_selected,
	.enable_tracers = bpf_enable_tracers,
};

/* ---- setup ---- */

static uint32_t ring_bytes(uint64_t want, long page)
{
	uint64_t n = (uint64_t)page;

	if (!want)
		want = DEFAULT_RING_BYTES;
	while (n < want && n < (1u << 30))
		n <<= 1;
	return n;
}

/* opts (--buffer-bytes-per-cpu), else $SYSDIG_BPF_BUFFER_BYTES, else default */
static uint64_t ring_bytes_wanted(const struct scap_live_opts *o)
{
	const char *env = getenv("SYSDIG_BPF_BUFFER_BYTES");

	if (o->buffer_bytes_per_cpu)
		return o->buffer_bytes_per_cpu;
	return env ? strtoull(env, NULL, 0) : 0;
}

/* map every CPU's ring (element i of the rings map) read-only */
static int map_rings(struct bpf_engine *e, uint32_t bytes, char *err)
{
	size_t elem = (size_t)bytes + SCAP_BPF_RING_SLACK;
	struct scap_bpf_ring_pos *pos = e->skel->bss->ring_pos;
	uint32_t i;

	e->rings = calloc(e->nrings, sizeof(*e->rings));
	if (!e->rings) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: out of memory");
		return -1;
	}
	e->ring_area_len = elem * e->nrings;
	e->ring_area = mmap(NULL, e->ring_area_len, PROT_READ, MAP_SHARED,
			    bpf_map__fd(e->skel->maps.rings), 0);
	if (e->ring_area == MAP_FAILED) {
		e->ring_area = NULL;
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot map the %u-byte rings: %s",
			 bytes, strerror(errno));
		return -1;
	}
	for (i = 0; i < e->nrings; i++) {
		struct ring *r = &e->rings[i];

		r->data = (const uint8_t *)e->ring_area + i * elem;
		r->mask = bytes - 1;
		r->head = (uint64_t *)&pos[i].head;
		r->tail = (uint64_t *)&pos[i].tail;
		r->cons = r->head_seen = load_acquire(r->tail);
	}
	return 0;
}

/* a filler: its sys_exit program and its sys_enter twin (FILLER in probe.bpf.c) */
struct filler_set {
	struct bpf_program *prog, *enter;
};

static int set_filler(struct bpf_engine *e, const struct filler_set *f, uint32_t evt, char *err)
{
	int fd = bpf_program__fd(f->prog), efd = bpf_program__fd(f->enter);

	if (bpf_map_update_elem(bpf_map__fd(e->skel->maps.fillers), &evt, &fd, BPF_ANY) ||
	    bpf_map_update_elem(bpf_map__fd(e->skel->maps.enter_fillers), &evt, &efd, BPF_ANY)) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot install filler %s: %s",
			 bpf_program__name(f->prog), strerror(errno));
		return -1;
	}
	return 0;
}

/* every event pair gets the filler events.tsv names (g_bpf_filler) */
static int install_fillers(struct bpf_engine *e, char *err)
{
	struct probe_bpf *s = e->skel;
#define FILLER_SET(id, name) [BPF_FILLER_##id] = { s->progs.fill_##name, s->progs.fill_##name##_enter },
	const struct filler_set sets[] = { BPF_FILLERS(FILLER_SET) };
#undef FILLER_SET
	uint32_t i;

	for (i = 0; i < PPM_EVENT_MAX; i++)
		if (g_bpf_filler[i] && set_filler(e, &sets[g_bpf_filler[i]], i, err))
			return -1;
	return 0;
}

static uint64_t boot_epoch_ns(void)
{
	struct timespec rt, bt;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	return (uint64_t)rt.tv_sec * 1000000000ull + rt.tv_nsec -
	       ((uint64_t)bt.tv_sec * 1000000000ull + bt.tv_nsec);
}


static void apply_settings(struct bpf_engine *e, const struct scap_live_opts *o)
{
	volatile struct scap_bpf_settings *st = &e->skel->bss->settings;
	uint32_t nr;

	st->boot_epoch_ns = boot_epoch_ns();
	st->self_tgid = o->skip_self ? (uint32_t)getpid() : 0;
	st->snaplen = o->snaplen ? o->snaplen : SCAP_BPF_DEFAULT_SNAPLEN;
	st->flags = (o->exit_only ? SCAP_BPF_F_EXIT_ONLY : 0) |
		    (o->kernel_stacks ? SCAP_BPF_F_KSTACK : 0) |
		    (o->tracers ? SCAP_BPF_F_TRACERS : 0);
	for (nr = 0; nr < SCAP_BPF_MAX_SYSCALLS; nr++) {
		uint16_t ev = nr < SYSCALL_TABLE_SIZE ? g_syscall_table[nr].enter_event : 0;

		st->syscall_mask[nr] = !scap_live_wants_pair(o, ev) ? 0 :
			SCAP_BPF_SC_CAPTURE | (live_select_lifecycle(ev) ? SCAP_BPF_SC_LIFECYCLE : 0);
		if (st->syscall_mask[nr] && o->stack_mask &&
		    (o->stack_mask[ev] || (ev + 1 < PPM_EVENT_MAX && o->stack_mask[ev + 1])))
			st->syscall_mask[nr] |= SCAP_BPF_SC_STACK;
	}
}

/*
 * Hooks that are not always on: sys_enter (not in exit-only mode), the
 * page fault tracepoints (--page-faults, not even loaded otherwise),
 * sched_switch and signal_deliver (on, as in the reference, unless the
 * event mask drops them).
 */
static void choose_hooks(struct bpf_engine *e, const struct scap_live_opts *o)
{
	struct probe_bpf *s = e->skel;
	struct bpf_program *p;
	int pf = o->page_faults && scap_live_wants_pair(o, PPME_PAGE_FAULT_E);

	bpf_object__for_each_program(p, s->obj)
		if (!strncmp(bpf_program__name(p), "fill_", 5))
			bpf_program__set_autoattach(p, false);
	if (o->exit_only)
		bpf_program__set_autoattach(s->progs.sys_enter, false);
	bpf_program__set_autoload(s->progs.page_fault_user, pf);
	bpf_program__set_autoload(s->progs.page_fault_kernel, pf);
	if (!scap_live_wants_pair(o, PPME_SCHEDSWITCH_6_E))
		bpf_program__set_autoattach(s->progs.sched_switch, false);
	if (!scap_live_wants_pair(o, PPME_SIGNALDELIVER_E))
		bpf_program__set_autoattach(s->progs.signal_deliver, false);
	bpf_select_hooks(s, o);
}

/* the newest kernel whose tracepoints were read to run our programs with
 * preemption disabled (6.14+: the syscall tracepoints' own guard for BPF) */
#define NON_PREEMPTIBLE_UNTIL (6 * 1000 + 18)

/*
 * 1 if two of our programs can interleave on one CPU other than by nesting:
 * PREEMPT_RT, a kernel newer than NON_PREEMPTIBLE_UNTIL, or
 * SYSDIG_BPF_RING_ATOMIC=1.  The rings then take their busy flag with
 * locked adds (ring.bpf.h), else with plain stores.
 */
static int programs_preemptible(void)
{
	const char *env = getenv("SYSDIG_BPF_RING_ATOMIC");
	struct utsname u;
	char rt = '0';
	int major = 0, minor = 0;
	FILE *f;

	if (env && *env)
		return strcmp(env, "0") != 0;
	f = fopen("/sys/kernel/realtime", "r");
	if (f) {
		if (fread(&rt, 1, 1, f) != 1)
			rt = '1';
		fclose(f);
	}
	if (rt != '0' || uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 1;
	return major * 1000 + minor > NON_PREEMPTIBLE_UNTIL;
}

static int open_skel(struct bpf_engine *e, const struct scap_live_opts *o, uint32_t bytes, char *err)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	int rc;

	if (getenv("SYSDIG_BPF_KERNEL_BTF"))
		open_opts.btf_custom_path = bpf_kernel_btf_path();
	e->skel = probe_bpf__open_opts(&open_opts);
	if (!e->skel) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot open the bpf program: %s", strerror(errno));
		return -1;
	}
	bpf_map__set_max_entries(e->skel->maps.rings, e->nrings);
	bpf_map__set_value_size(e->skel->maps.rings, bytes + SCAP_BPF_RING_SLACK);
	e->skel->rodata->ring_mask = bytes - 1;
	e->skel->rodata->ring_atomic_busy = programs_preemptible();
	bpf_map__set_max_entries(e->skel->maps.scratch_map, e->nrings);
	choose_hooks(e, o);
	rc = probe_bpf__load(e->skel);
	if (rc) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot load the bpf program: %s%s",
			 strerror(-rc), -rc == EPERM ? " (needs root)" : " (SYSDIG_BPF_DEBUG=1 for details)");
		return -1;
	}
	return 0;
}

struct scap *scap_bpf_open(const struct scap_live_opts *opts, char *err)
{
	struct scap_live_opts def = { 0 };
	struct bpf_engine *e;
	struct scap *h;
	uint32_t bytes;
	int n;

	if (!opts)
		opts = &def;
	if (geteuid() != 0) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: needs root (the bpf driver needs CAP_BPF and CAP_PERFMON)");
		return NULL;
	}
	if (bpf_kernel_check(bpf_kernel_btf_path(), err))
		return NULL;
	libbpf_set_print(quiet_print);
	h = calloc(1, sizeof(*h));
	e = calloc(1, sizeof(*e));
	if (!h || !e) {
		free(h);
		free(e);
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: out of memory");
		return NULL;
	}
	e->page = sysconf(_SC_PAGESIZE);
	n = libbpf_num_possible_cpus();
	e->nrings = n > 0 ? (uint32_t)n : 1;
	if (e->nrings > SCAP_BPF_MAX_CPUS)
		e->nrings = SCAP_BPF_MAX_CPUS;
	bytes = ring_bytes(ring_bytes_wanted(opts), e->page);
	if (ring_reader_init(&e->reader, e, "bpf", e->nrings, bytes, err) ||
	    open_skel(e, opts, bytes, err) || map_rings(e, bytes, err) || install_fillers(e, err))
		goto fail;
	apply_settings(e, opts);
	if (bpf_select_apply(e->skel, opts, err))
		goto fail;
	if (probe_bpf__attach(e->skel)) {
		snprintf(err, SCAP_ERRBUF_SIZE, "live capture: cannot attach the bpf programs: %s", strerror(errno));
		goto fail;
	}
	h->ops = &bpf_ops;
	h->engine = e;
	e->skel->bss->settings.enabled = 1;
	if (scap_proc_snapshot(&h->meta, err)) {
		engine_free(e);
		scap_metadata_free(&h->meta);
		free(h);
		return NULL;
	}
	bpf_select_snapshot(e->skel, opts, &h->meta);
	return h;
fail:
	engine_free(e);
	free(h);
	return NULL;
}
