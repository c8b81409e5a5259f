/*
 * bpf_engine.c - the eBPF live engine behind the scap_engine_ops vtable.
 *
 * Loads driver/bpf/probe.bpf.c through its bpftool skeleton, sizes the
 * per-CPU rings (driver/bpf/ring.bpf.h, layout in event_format.h), fills the
 * filler program array, attaches the hooks and takes the /proc snapshot for
 * the metadata.  next() reads the rings directly through one mmap of the
 * rings map (no copies, no callbacks) and merges the CPUs by the timestamp
 * of each ring's head record; a record (an enter and its exit) is released
 * when the call after its last event comes.  When every ring is empty it
 * sleeps one poll period (adapted to the event rate, poll_sleep) and returns
 * SCAP_TIMEOUT: the driver never wakes us.
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
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "event_format.h"
#include "event_table.h"
#include "bpf_engine.h"
#include "bpf_kernel_check.h"
#include "bpf_select.h"
#include "proc_snapshot.h"
#include "syscall_table.h"
#include "fill_spec.h"
#include "probe.skel.h"

#define DEFAULT_RING_BYTES (8u << 20)
/* sleep between polls of empty rings: adapted to the event rate, so that a
 * ring is at most about 1/16 full when polled (POLL_MIN_NS) and a quiet or
 * steady capture wakes up rarely (POLL_MAX_NS); each wakeup costs a context
 * switch, more than a thousand events cost to read */
#define POLL_MIN_NS 250000L
#define POLL_MAX_NS 10000000L

struct ring {
	uint64_t *head;		/* the driver's position (ring_pos in .bss) */
	uint64_t *tail;		/* ours, published on release */
	const uint8_t *data;
	uint64_t mask;
	uint64_t cons;		/* our position */
	uint64_t head_seen;	/* last value read from *head */
	/* head record, if any */
	const uint8_t *rec;
	uint32_t rec_len;
	uint64_t rec_next;	/* consumer position after it */
	uint64_t head_ts;
};

struct bpf_engine {
	struct probe_bpf *skel;
	struct ring *rings;
	uint32_t nrings;
	void *ring_area;	/* the mmap of every ring */
	size_t ring_area_len;
	long page;
	/* record being returned */
	int cur;		/* ring index or -1 */
	uint32_t cur_off;
	/* polling */
	long poll_ns;		/* current sleep when every ring is empty */
	uint64_t awake_bytes;	/* ring bytes consumed since the last sleep */
	uint64_t ring_len;	/* data bytes of one ring */
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

/* ---- ring reading ---- */

static void ring_set_tail(struct ring *r, uint64_t pos)
{
	r->cons = pos;
	__atomic_store_n(r->tail, pos, __ATOMIC_RELEASE);
}

/* look at the ring's next published record; 1 if there is one */
static int ring_peek(struct ring *r)
{
	if (r->rec)
		return 1;
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
		r->rec = hdr + SCAP_BPF_REC_HDR;
		r->rec_len = len;
		r->rec_next = r->cons + ((SCAP_BPF_REC_HDR + len + 7) & ~7u);
		memcpy(&r->head_ts, r->rec, 8);
		return 1;
	}
}

static void ring_release(struct bpf_engine *e, struct ring *r)
{
	e->awake_bytes += r->rec_next - r->cons;
	r->rec = NULL;
	ring_set_tail(r, r->rec_next);
}

/*
 * Every ring is empty: sleep.  Much read since the last sleep (more than
 * 1/16 of a ring's worth) halves the next sleep, little (under 1/64)
 * doubles it.
 */
static void poll_sleep(struct bpf_engine *e)
{
	struct timespec ts = { 0, 0 };

	if (e->awake_bytes > e->ring_len / 16 && e->poll_ns > POLL_MIN_NS)
		e->poll_ns /= 2;
	else if (e->awake_bytes < e->ring_len / 64 && e->poll_ns < POLL_MAX_NS)
		e->poll_ns *= 2;
	if (e->poll_ns > POLL_MAX_NS)
		e->poll_ns = POLL_MAX_NS;
	e->awake_bytes = 0;
	ts.tv_nsec = e->poll_ns;
	nanosleep(&ts, NULL);
}

/* ring whose head record is the oldest, or -1 */
static int pick_ring(struct bpf_engine *e)
{
	uint64_t best_ts = UINT64_MAX;
	int best = -1;
	uint32_t i;

	for (i = 0; i < e->nrings; i++) {
		struct ring *r = &e->rings[i];

		if (ring_peek(r) && r->head_ts < best_ts) {
			best_ts = r->head_ts;
			best = i;
		}
	}
	return best;
}

static int bpf_next(struct scap *h, struct scap_evt *evt)
{
	struct bpf_engine *e = h->engine;
	struct ring *r;
	uint32_t len;

	if (e->cur >= 0 && e->cur_off >= e->rings[e->cur].rec_len) {
		ring_release(e, &e->rings[e->cur]);
		e->cur = -1;
	}
	if (e->cur < 0) {
		e->cur = pick_ring(e);
		if (e->cur < 0) {
			poll_sleep(e);
			e->cur = pick_ring(e);
			if (e->cur < 0)
				return SCAP_TIMEOUT;
		}
		e->cur_off = 0;
	}
	r = &e->rings[e->cur];
	memcpy(&len, r->rec + e->cur_off + 16, 4);
	if (len < PPM_EVT_HDR_LEN || len > r->rec_len - e->cur_off) {
		/* corrupt record: skip it, never loop on it */
		e->cur_off = r->rec_len;
		snprintf(h->err, SCAP_ERRBUF_SIZE, "bpf: bad event length %u in ring %d", len, e->cur);
		return SCAP_TIMEOUT;
	}
	evt->data = r->rec + e->cur_off;
	evt->len = len;
	memcpy(&evt->ts, evt->data, 8);
	memcpy(&evt->tid, evt->data + 8, 8);
	memcpy(&evt->type, evt->data + 20, 2);
	evt->cpuid = e->cur;
	evt->dump_flags = 0;
	e->cur_off += len;
	if (scap_decode_params(evt)) {
		snprintf(h->err, SCAP_ERRBUF_SIZE, "bpf: undecodable event type %u", evt->type);
		return SCAP_TIMEOUT;
	}
	return SCAP_SUCCESS;
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

static double bpf_progress(struct scap *h)
{
	(void)h;
	return -1;
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

static const struct scap_engine_ops bpf_ops = {
	.name = "bpf",
	.next = bpf_next,
	.get_stats = bpf_get_stats,
	.progress = bpf_progress,
	.close = bpf_close,
	.selected = bpf_selected,
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
	uint16_t events[10];
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

#define FILLER_PROGS(s, name) (s)->progs.name, (s)->progs.name##_enter

static int install_fillers(struct bpf_engine *e, char *err)
{
	struct probe_bpf *s = e->skel;
	const struct filler_set simple = { FILLER_PROGS(s, fill_simple), { 0 } };
	const struct filler_set sets[] = {
		{ FILLER_PROGS(s, fill_rw), { PPME_SYSCALL_READ_E, PPME_SYSCALL_WRITE_E, PPME_SYSCALL_PREAD_E,
					      PPME_SYSCALL_PWRITE_E, PPME_SYSCALL_READV_E, PPME_SYSCALL_WRITEV_E,
					      PPME_SYSCALL_PREADV_E, PPME_SYSCALL_PWRITEV_E } },
		{ FILLER_PROGS(s, fill_pipe), { PPME_SYSCALL_PIPE_E } },
		{ FILLER_PROGS(s, fill_sock), { PPME_SOCKET_CONNECT_E, PPME_SOCKET_BIND_E, PPME_SOCKET_ACCEPT_5_E,
						PPME_SOCKET_ACCEPT4_5_E, PPME_SOCKET_SENDTO_E, PPME_SOCKET_RECVFROM_E,
						PPME_SOCKET_SENDMSG_E, PPME_SOCKET_RECVMSG_E, PPME_SOCKET_SOCKETPAIR_E } },
		{ FILLER_PROGS(s, fill_clone), { PPME_SYSCALL_CLONE_20_E, PPME_SYSCALL_FORK_20_E,
						 PPME_SYSCALL_VFORK_20_E, PPME_SYSCALL_CLONE3_E } },
		{ FILLER_PROGS(s, fill_execve), { PPME_SYSCALL_EXECVE_19_E, PPME_SYSCALL_EXECVEAT_E } },
		{ FILLER_PROGS(s, fill_misc), { PPME_SYSCALL_POLL_E, PPME_SYSCALL_PPOLL_E, PPME_SOCKET_SETSOCKOPT_E,
						PPME_SOCKET_GETSOCKOPT_E, PPME_SYSCALL_BPF_E, PPME_SYSCALL_PTRACE_E } },
	};
	uint32_t i, j;

	for (i = 0; i < PPM_EVENT_MAX; i++) {
		const struct simple_spec *sp = &s->rodata->simple_specs[i];

		if ((sp->ne || sp->nx || sp->used) && set_filler(e, &simple, i, err))
			return -1;
	}
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		for (j = 0; j < 10 && sets[i].events[j]; j++)
			if (set_filler(e, &sets[i], sets[i].events[j], err))
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

/* events the thread and fd state is built from: always captured */
#define STATE_FLAGS (EF_CREATES_FD | EF_DESTROYS_FD | EF_MODIFIES_STATE)

/*
 * Event pair of enter event ev wanted by the capture's event mask (NULL:
 * everything): its enter or exit type is in the mask, or it feeds the state.
 */
static int wanted(const struct scap_live_opts *o, uint16_t ev)
{
	const uint8_t *m = o->syscall_mask;

	if (!m || m[ev] || (ev + 1 < PPM_EVENT_MAX && m[ev + 1]))
		return 1;
	return ((g_event_info[ev].flags |
		 (ev + 1 < PPM_EVENT_MAX ? g_event_info[ev + 1].flags : 0)) & STATE_FLAGS) != 0;
}

/* the process lifecycle: passes the comm filter, so the thread table of
 * userspace stays complete */
static int is_lifecycle(uint16_t ev)
{
	switch (ev) {
	case PPME_SYSCALL_CLONE_20_E:
	case PPME_SYSCALL_FORK_20_E:
	case PPME_SYSCALL_VFORK_20_E:
	case PPME_SYSCALL_CLONE3_E:
	case PPME_SYSCALL_EXECVE_19_E:
	case PPME_SYSCALL_EXECVEAT_E:
		return 1;
	}
	return 0;
}

static void apply_settings(struct bpf_engine *e, const struct scap_live_opts *o)
{
	volatile struct scap_bpf_settings *st = &e->skel->bss->settings;
	uint32_t nr;

	st->boot_epoch_ns = boot_epoch_ns();
	st->self_tgid = o->skip_self ? (uint32_t)getpid() : 0;
	st->snaplen = o->snaplen ? o->snaplen : SCAP_BPF_DEFAULT_SNAPLEN;
	st->flags = (o->exit_only ? SCAP_BPF_F_EXIT_ONLY : 0) |
		    (o->kernel_stacks ? SCAP_BPF_F_KSTACK : 0);
	for (nr = 0; nr < SCAP_BPF_MAX_SYSCALLS; nr++) {
		uint16_t ev = nr < SYSCALL_TABLE_SIZE ? g_syscall_table[nr].enter_event : 0;

		st->syscall_mask[nr] = !wanted(o, ev) ? 0 :
			SCAP_BPF_SC_CAPTURE | (is_lifecycle(ev) ? SCAP_BPF_SC_LIFECYCLE : 0);
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
	int pf = o->page_faults && wanted(o, PPME_PAGE_FAULT_E);

	bpf_object__for_each_program(p, s->obj)
		if (!strncmp(bpf_program__name(p), "fill_", 5))
			bpf_program__set_autoattach(p, false);
	if (o->exit_only)
		bpf_program__set_autoattach(s->progs.sys_enter, false);
	bpf_program__set_autoload(s->progs.page_fault_user, pf);
	bpf_program__set_autoload(s->progs.page_fault_kernel, pf);
	if (!wanted(o, PPME_SCHEDSWITCH_6_E))
		bpf_program__set_autoattach(s->progs.sched_switch, false);
	if (!wanted(o, PPME_SIGNALDELIVER_E))
		bpf_program__set_autoattach(s->progs.signal_deliver, false);
	bpf_select_hooks(s, o);
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
	e->cur = -1;
	e->poll_ns = POLL_MIN_NS;
	e->page = sysconf(_SC_PAGESIZE);
	n = libbpf_num_possible_cpus();
	e->nrings = n > 0 ? (uint32_t)n : 1;
	if (e->nrings > SCAP_BPF_MAX_CPUS)
		e->nrings = SCAP_BPF_MAX_CPUS;
	bytes = ring_bytes(ring_bytes_wanted(opts), e->page);
	e->ring_len = bytes;
	if (open_skel(e, opts, bytes, err) || map_rings(e, bytes, err) || install_fillers(e, err))
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
