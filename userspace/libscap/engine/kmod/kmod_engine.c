/*
 * kmod_engine.c - libscap live engine for the sysdigc kernel module.
 *
 * Opens /dev/sysdigc0..N-1 (one per CPU), maps each ring (kmod_abi.h:
 * info page + data), configures snaplen / event mask / self-skip through
 * ioctls, pushes the process selection into the module (live_select.c:
 * pids, threads, process trees, comm names, -U names and container
 * cgroups) and starts the capture.
 * The rings are read by the shared ring
 * reader (ring_reader.c: merge by timestamp, adaptive polling), one event
 * a chunk; this file says how to find the event at a ring's read position
 * and move past it.  A ring's head is read again only once the reader
 * reached the head seen last; consumed space is handed back to the module
 * when every ring is read (or every KMOD_RELEASE_BYTES).
 * The metadata comes from the shared /proc snapshot (proc_snapshot.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "scap.h"
#include "kmod_engine.h"
#include "kmod_abi.h"
#include "live_select.h"
#include "proc_snapshot.h"
#include "ring_reader.h"

#define KMOD_MAX_CPUS 1024
#define KMOD_RELEASE_BYTES 262144	/* hand consumed space back at least this often */

struct kmod_cpu {
	int fd;
	uint8_t *map;
	size_t map_len;
	volatile struct kmod_ring_info *info;
	const uint8_t *data;
	uint64_t size;
	uint64_t pos;		/* next byte to read */
	uint64_t head;		/* head as last read from the info page */
	uint64_t peeked;	/* ring bytes of the event at pos */
	uint64_t unreleased;	/* bytes consumed since the tail was stored */
};

struct kmod_engine {
	struct kmod_cpu *cpus;
	unsigned ncpus;
	struct ring_reader reader;	/* merges and polls the rings */
	uint32_t select_flags;	/* SCAP_BPF_F_* pushed into the module */
	int select_errno;	/* a KMOD_IOC_SELECT_ID failed */
};

static void seterr(char *err, const char *fmt, const char *a, int e)
{
	snprintf(err, SCAP_ERRBUF_SIZE, fmt, a, strerror(e));
}

int scap_kmod_available(void)
{
	return access(SCAP_KMOD_DEVICE, F_OK) == 0;
}

static int open_error(const char *path, int e, char *err)
{
	if (e == ENOENT || e == ENXIO || e == ENODEV)
		seterr(err, "kmod: %s: %s (is the sysdigc module loaded?)", path, e);
	else if (e == EPERM || e == EACCES)
		seterr(err, "kmod: %s: %s (capture needs root)", path, e);
	else if (e == EBUSY)
		seterr(err, "kmod: %s: %s (another capture is using the driver)", path, e);
	else
		seterr(err, "kmod: %s: %s", path, e);
	return -1;
}

static int map_cpu(struct kmod_cpu *c, const char *path, char *err)
{
	void *p = mmap(NULL, KMOD_INFO_SIZE, PROT_READ, MAP_SHARED, c->fd, 0);
	uint64_t size;

	if (p == MAP_FAILED) {
		seterr(err, "kmod: mmap %s: %s", path, errno);
		return -1;
	}
	size = ((struct kmod_ring_info *)p)->size;
	munmap(p, KMOD_INFO_SIZE);
	if (size < KMOD_INFO_SIZE || (size & (size - 1))) {
		snprintf(err, SCAP_ERRBUF_SIZE, "kmod: %s: ring size %llu is not a power of two",
			 path, (unsigned long long)size);
		return -1;
	}
	c->map_len = KMOD_INFO_SIZE + size;
	p = mmap(NULL, c->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED) {
		seterr(err, "kmod: mmap %s: %s", path, errno);
		return -1;
	}
	c->map = p;
	c->info = p;
	c->data = c->map + KMOD_INFO_SIZE;
	c->size = size;
	return 0;
}

/* the module must come from the same tables as this reader: the layout of
 * every event depends on them (driver/gen_tables.py schema_hash) */
static int check_schema(int fd, char *err)
{
	uint64_t theirs = 0;

	if (ioctl(fd, KMOD_IOC_GET_SCHEMA, &theirs)) {
		if (errno == ENOTTY || errno == EINVAL)
			snprintf(err, SCAP_ERRBUF_SIZE, "kmod: the loaded %s module does not say which event "
				 "tables it was built from (older than this sysdig): rmmod it and load the "
				 "module of this version", KMOD_NAME);
		else
			seterr(err, "kmod: asking %s for its schema: %s", KMOD_DEV_PREFIX "0", errno);
		return -1;
	}
	if (theirs != SCHEMA_HASH) {
		snprintf(err, SCAP_ERRBUF_SIZE, "kmod: the loaded %s module was built from other event "
			 "tables (schema %016llx, this sysdig %016llx): rmmod it and load the module of "
			 "this version", KMOD_NAME, (unsigned long long)theirs,
			 (unsigned long long)SCHEMA_HASH);
		return -1;
	}
	return 0;
}

/* ---- process selection in the module (select.c) ---- */

static void select_id(void *engine, uint32_t pid, uint32_t tid)
{
	struct kmod_engine *k = engine;
	struct kmod_select_id id = { .pid = pid, .tid = tid };

	if (ioctl(k->cpus[0].fd, KMOD_IOC_SELECT_ID, &id))
		k->select_errno = errno;
}

static int select_has(void *engine, uint32_t pid)
{
	struct kmod_engine *k = engine;
	struct kmod_select_id id = { .pid = pid };

	return ioctl(k->cpus[0].fd, KMOD_IOC_IS_SELECTED, &id) == 1;
}

/* a container cgroup (live_select_cgroups) */
static int select_cgroup(void *engine, uint64_t id)
{
	struct kmod_engine *k = engine;

	return ioctl(k->cpus[0].fd, KMOD_IOC_SELECT_CGROUP, &id) ? errno : 0;
}

static int select_apply(struct kmod_engine *k, const struct scap_live_opts *o, char *err)
{
	struct kmod_select ks = { 0 };
	struct kmod_select_lists kl = { 0 };
	struct live_select ls;

	if (live_select_plan(o, &ls, err))
		return -1;
	kl.ncomms = ls.ncomms;
	kl.ncids = ls.ncids;
	memcpy(kl.comms, ls.comms, sizeof(kl.comms));
	memcpy(kl.cids, ls.cids, sizeof(kl.cids));
	if ((ls.flags & (SCAP_BPF_F_COMMS | SCAP_BPF_F_CGROUPS)) &&
	    ioctl(k->cpus[0].fd, KMOD_IOC_SET_LISTS, &kl)) {
		seterr(err, "kmod: selecting process names and containers in %s: %s",
		       KMOD_DEV_PREFIX "0", errno);
		return -1;
	}
	ks.flags = ls.flags;
	ks.nsuppress = ls.nsuppress;
	memcpy(ks.comm, ls.comm, sizeof(ks.comm));
	memcpy(ks.comm_mask, ls.comm_mask, sizeof(ks.comm_mask));
	memcpy(ks.suppress, ls.suppress, sizeof(ks.suppress));
	if (ioctl(k->cpus[0].fd, KMOD_IOC_SET_SELECT, &ks)) {
		seterr(err, "kmod: selecting processes in %s: %s", KMOD_DEV_PREFIX "0", errno);
		return -1;
	}
	live_select_ids(o, select_id, k);
	if (k->select_errno) {
		seterr(err, "kmod: selecting processes in %s: %s", KMOD_DEV_PREFIX "0", k->select_errno);
		return -1;
	}
	if (ls.ncids && live_select_cgroups(&ls, select_cgroup, k, err))
		return -1;
	k->select_flags = ls.flags;
	return 0;
}

/* after the /proc snapshot: the descendants of the process trees, and the
 * container cgroups made since the first walk (the module follows those
 * made from the start on) */
static void select_snapshot(struct kmod_engine *k, const struct scap_live_opts *o,
			    const struct scap_metadata *m)
{
	char err[SCAP_ERRBUF_SIZE];
	struct live_select ls;

	if ((k->select_flags & SCAP_BPF_F_CGROUPS) && !live_select_plan(o, &ls, err))
		live_select_cgroups(&ls, select_cgroup, k, err);
	live_select_descendants(o, m, select_has, select_id, k);
}

void scap_kmod_mask(const struct scap_live_opts *o, struct kmod_mask *mask)
{
	/* by pairs (enter ids are even), the state events always in */
	memset(mask, KMOD_MASK_CAPTURE, sizeof(*mask));
	for (unsigned i = 0; o && o->syscall_mask && i < PPM_EVENT_MAX; i += 2) {
		mask->events[i] = scap_live_wants_pair(o, (uint16_t)i) ? KMOD_MASK_CAPTURE : 0;
		if (i + 1 < PPM_EVENT_MAX)
			mask->events[i + 1] = mask->events[i];
	}
	for (unsigned i = 0; i < PPM_EVENT_MAX; i++)
		if (mask->events[i] && live_select_lifecycle((uint16_t)i))
			mask->events[i] |= KMOD_MASK_LIFECYCLE;
	/* --stacks: on the enter events of the selected syscalls (the stack is
	 * taken at entry) */
	for (unsigned i = 0; o && o->stack_mask && i < PPM_EVENT_MAX; i += 2)
		if (mask->events[i] && (o->stack_mask[i] || o->stack_mask[i + 1]))
			mask->events[i] |= KMOD_MASK_STACK | (o->kernel_stacks ? KMOD_MASK_KSTACK : 0);
}

static int configure(struct kmod_engine *k, const struct scap_live_opts *o, char *err)
{
	uint32_t snaplen = o && o->snaplen ? o->snaplen : 80;
	int32_t self = o && o->skip_self ? (int32_t)getpid() : 0;
	struct kmod_mask mask;
	int fd = k->cpus[0].fd;

	scap_kmod_mask(o, &mask);
	if (ioctl(fd, KMOD_IOC_SET_SNAPLEN, &snaplen) ||
	    ioctl(fd, KMOD_IOC_SET_MASK, &mask) ||
	    ioctl(fd, KMOD_IOC_SKIP_TGID, &self)) {
		seterr(err, "kmod: configuring %s: %s", KMOD_DEV_PREFIX "0", errno);
		return -1;
	}
	if (o && select_apply(k, o, err))
		return -1;
	if (ioctl(fd, KMOD_IOC_START) || (o && o->tracers && ioctl(fd, KMOD_IOC_SET_TRACERS))) {
		seterr(err, "kmod: starting %s: %s", KMOD_DEV_PREFIX "0", errno);
		return -1;
	}
	return 0;
}

static void kmod_release_all(struct kmod_engine *k)
{
	for (unsigned i = 0; i < k->ncpus; i++) {
		struct kmod_cpu *c = &k->cpus[i];

		if (i == 0 && c->fd >= 0)
			ioctl(c->fd, KMOD_IOC_STOP);
		if (c->map)
			munmap(c->map, c->map_len);
		if (c->fd >= 0)
			close(c->fd);
	}
	free(k->cpus);
	ring_reader_free(&k->reader);
	free(k);
}

static void kmod_close(struct scap *h)
{
	if (h->engine)
		kmod_release_all(h->engine);
	h->engine = NULL;
}

/* ---- the rings, as ring_reader.c reads them ---- */

/* the reader's position becomes the ring tail: the module may reuse it */
static void ring_release(struct kmod_cpu *c)
{
	__atomic_store_n(&c->info->tail, c->pos, __ATOMIC_RELEASE);
	c->unreleased = 0;
}

/* the event at the read position of cpu i into *c, or 0 when that ring is
 * read up to its head (events never wrap: a short or zero-length tail
 * means offset 0).  The head is read again when reached, so that events of
 * the other CPUs are not returned ahead of newer, older-stamped ones of
 * this CPU. */
static int ring_peek(void *engine, uint32_t i, struct ring_chunk *chunk)
{
	struct kmod_cpu *c = &((struct kmod_engine *)engine)->cpus[i];
	uint32_t len;

	if (c->pos == c->head)
		c->head = __atomic_load_n(&c->info->head, __ATOMIC_ACQUIRE);
	while (c->pos != c->head) {
		if (c->size - c->pos >= KMOD_WRAP_MIN) {
			memcpy(&len, c->data + c->pos + PPM_HDR_OFF(len), sizeof(len));
			/* a zero length at offset 0 is corruption: the reader says so */
			if (len != 0 || c->pos == 0) {
				chunk->data = c->data + c->pos;
				chunk->len = len < c->size - c->pos ? len : (uint32_t)(c->size - c->pos);
				c->peeked = (chunk->len + KMOD_EVT_ALIGN - 1) & ~(uint64_t)(KMOD_EVT_ALIGN - 1);
				return 1;
			}
		}
		c->pos = 0;
	}
	return 0;
}

/* the event peeked last is read; its space goes back to the module every
 * KMOD_RELEASE_BYTES, and whenever the reader waits (ring_idle) */
static uint64_t ring_advance(void *engine, uint32_t i)
{
	struct kmod_cpu *c = &((struct kmod_engine *)engine)->cpus[i];

	c->pos += c->peeked;
	if (c->pos >= c->size)
		c->pos = 0;
	c->unreleased += c->peeked;
	if (c->unreleased >= KMOD_RELEASE_BYTES)
		ring_release(c);
	return c->peeked;
}

static void ring_idle(void *engine)
{
	struct kmod_engine *k = engine;

	for (unsigned i = 0; i < k->ncpus; i++)
		ring_release(&k->cpus[i]);
}

static const struct ring_ops kmod_ring_ops = {
	.peek = ring_peek,
	.advance = ring_advance,
	.idle = ring_idle,
};

static int kmod_next(struct scap *h, struct scap_evt *evt)
{
	struct kmod_engine *k = h->engine;

	return ring_reader_next(&k->reader, &kmod_ring_ops, evt, h->err);
}

static int kmod_get_stats(struct scap *h, struct scap_stats *st)
{
	struct kmod_engine *k = h->engine;

	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < k->ncpus; i++) {
		struct kmod_stats s;

		if (ioctl(k->cpus[i].fd, KMOD_IOC_GET_STATS, &s))
			return SCAP_FAILURE;
		st->n_evts += s.n_seen;
		st->n_drops += s.n_drops_buffer + s.n_drops_fault;
		st->n_drops_buffer += s.n_drops_buffer;
		st->n_suppressed += s.n_suppressed;
		st->n_unselected += s.n_unselected;
	}
	return SCAP_SUCCESS;
}

static int kmod_enable_tracers(struct scap *h)
{
	struct kmod_engine *k = h->engine;

	return ioctl(k->cpus[0].fd, KMOD_IOC_SET_TRACERS) ? -1 : 0;
}

/* 0 when the module leaves thread tid of process pid out (pid selection) */
static int kmod_selected(struct scap *h, uint64_t pid, uint64_t tid)
{
	struct kmod_engine *k = h->engine;
	struct kmod_select_id id = { .pid = (uint32_t)pid, .tid = (uint32_t)tid };

	if (!(k->select_flags & SCAP_BPF_F_PIDS))
		return 1;
	return pid < SCAP_BPF_PID_LIMIT && tid < SCAP_BPF_PID_LIMIT &&
	       ioctl(k->cpus[0].fd, KMOD_IOC_IS_SELECTED, &id) == 1;
}

static const struct scap_engine_ops kmod_ops = {
	.name = "kmod",
	.next = kmod_next,
	.get_stats = kmod_get_stats,
	.enable_tracers = kmod_enable_tracers,
	.close = kmod_close,
	.selected = kmod_selected,
};

static int open_cpus(struct kmod_engine *k, char *err)
{
	char path[64];

	for (unsigned i = 0; i < KMOD_MAX_CPUS; i++) {
		struct kmod_cpu *c = &k->cpus[i];

		snprintf(path, sizeof(path), KMOD_DEV_PREFIX "%u", i);
		c->fd = open(path, O_RDWR | O_CLOEXEC);
		if (c->fd < 0) {
			if (errno == ENOENT && i > 0)
				return 0;
			return open_error(path, errno, err);
		}
		k->ncpus++;
		if (map_cpu(c, path, err))
			return -1;
	}
	return 0;
}

struct scap *scap_kmod_open(const struct scap_live_opts *opts, char *err)
{
	struct kmod_engine *k;
	struct scap *h;

	k = calloc(1, sizeof(*k));
	h = calloc(1, sizeof(*h));

	if (!k || !h || !(k->cpus = calloc(KMOD_MAX_CPUS, sizeof(*k->cpus)))) {
		snprintf(err, SCAP_ERRBUF_SIZE, "kmod: out of memory");
		free(h);
		if (k)
			free(k->cpus);
		free(k);
		return NULL;
	}
	/* start first, then snapshot /proc: no gap between the two */
	if (open_cpus(k, err) || check_schema(k->cpus[0].fd, err) ||
	    ring_reader_init(&k->reader, k, "kmod", k->ncpus, k->cpus[0].size, err) ||
	    configure(k, opts, err) || scap_proc_snapshot(&h->meta, err)) {
		kmod_release_all(k);
		scap_metadata_free(&h->meta);
		free(h);
		return NULL;
	}
	if (opts)
		select_snapshot(k, opts, &h->meta);
	h->ops = &kmod_ops;
	h->engine = k;
	return h;
}
