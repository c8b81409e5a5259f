/*
 * kmod_engine.c - libscap live engine for the sysdigc kernel module.
 *
 * Opens /dev/sysdigc0..N-1 (one per CPU), maps each ring (kmod_abi.h:
 * info page + data), configures snaplen / event mask / self-skip through
 * ioctls and starts the capture.  next() returns the oldest event among the
 * CPU rings, pointing straight into the mapped ring; it stays valid until
 * the following call.  A ring's head is read again only once the reader
 * reached the head seen last, consumed space is handed back to the module
 * when every ring is read (or every KMOD_RELEASE_BYTES), and when the rings
 * are nearly empty the reader sleeps for an adaptive time.
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
#include <time.h>
#include <unistd.h>
#include "scap.h"
#include "kmod_engine.h"
#include "kmod_abi.h"
#include "proc_snapshot.h"

#define KMOD_MAX_CPUS 1024
#define KMOD_NAP_MIN_NS 200000ull	/* shortest sleep when the rings are quiet */
#define KMOD_NAP_MAX_NS 30000000ull	/* longest one (events then wait <= 30 ms) */
#define KMOD_BATCH_BYTES 65536	/* less than this (or 1/8 ring) pending: nap */
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
	uint64_t unreleased;	/* bytes consumed since the tail was stored */
};

struct kmod_engine {
	struct kmod_cpu *cpus;
	unsigned ncpus;
	int last;		/* cpu whose event was returned last, or -1 */
	uint64_t last_alen;
	uint64_t nap_ns;	/* next sleep, adapted to the event rate */
	uint64_t batch;		/* fewer unread bytes than this: nap */
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

static int configure(struct kmod_engine *k, const struct scap_live_opts *o, char *err)
{
	uint32_t snaplen = o && o->snaplen ? o->snaplen : 80;
	int32_t self = o && o->skip_self ? (int32_t)getpid() : 0;
	struct kmod_mask mask;
	int fd = k->cpus[0].fd;

	memset(&mask, KMOD_MASK_CAPTURE, sizeof(mask));
	if (o && o->syscall_mask)
		for (unsigned i = 0; i < PPM_EVENT_MAX; i++)
			mask.events[i] = o->syscall_mask[i] ? KMOD_MASK_CAPTURE : 0;
	/* --stacks: on the enter events of the selected syscalls (the stack is
	 * taken at entry) */
	for (unsigned i = 0; o && o->stack_mask && i < PPM_EVENT_MAX; i += 2)
		if (mask.events[i] && (o->stack_mask[i] || o->stack_mask[i + 1]))
			mask.events[i] |= KMOD_MASK_STACK | (o->kernel_stacks ? KMOD_MASK_KSTACK : 0);
	if (ioctl(fd, KMOD_IOC_SET_SNAPLEN, &snaplen) ||
	    ioctl(fd, KMOD_IOC_SET_MASK, &mask) ||
	    ioctl(fd, KMOD_IOC_SKIP_TGID, &self) ||
	    ioctl(fd, KMOD_IOC_START)) {
		seterr(err, "kmod: configuring %s: %s", KMOD_DEV_PREFIX "0", errno);
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
	free(k);
}

static void kmod_close(struct scap *h)
{
	if (h->engine)
		kmod_release_all(h->engine);
	h->engine = NULL;
}

/* the reader's position becomes the ring tail: the module may reuse it */
static void ring_release(struct kmod_cpu *c)
{
	__atomic_store_n(&c->info->tail, c->pos, __ATOMIC_RELEASE);
	c->unreleased = 0;
}

/* bytes the module wrote that are not read yet */
static uint64_t ring_refresh(struct kmod_cpu *c)
{
	c->head = __atomic_load_n(&c->info->head, __ATOMIC_ACQUIRE);
	return (c->head + c->size - c->pos) & (c->size - 1);
}

/* event at the read position of c, or NULL when c is read up to its head
 * (events never wrap: a short or zero-length tail means offset 0).  The
 * head is read again when reached, so that events of the other CPUs are
 * not returned ahead of newer, older-stamped ones of this CPU. */
static const uint8_t *ring_peek(struct kmod_cpu *c)
{
	uint32_t len;

	if (c->pos == c->head)
		ring_refresh(c);
	while (c->pos != c->head) {
		if (c->size - c->pos >= KMOD_WRAP_MIN) {
			memcpy(&len, c->data + c->pos + 16, 4);
			/* a zero length at offset 0 is corruption: next() says so */
			if (len != 0 || c->pos == 0)
				return c->data + c->pos;
		}
		c->pos = 0;
	}
	return NULL;
}

static void ring_advance(struct kmod_cpu *c, uint64_t alen)
{
	c->pos += alen;
	if (c->pos >= c->size)
		c->pos = 0;
	c->unreleased += alen;
	if (c->unreleased >= KMOD_RELEASE_BYTES)
		ring_release(c);
}

/* cpu holding the oldest unread event, or -1 */
static int pick_cpu(struct kmod_engine *k)
{
	uint64_t best_ts = 0, ts;
	int best = -1;

	for (unsigned i = 0; i < k->ncpus; i++) {
		const uint8_t *e = ring_peek(&k->cpus[i]);

		if (!e)
			continue;
		memcpy(&ts, e, 8);
		if (best < 0 || ts < best_ts) {
			best = (int)i;
			best_ts = ts;
		}
	}
	return best;
}

/* release what was read, look at the heads again; returns the largest
 * number of unread bytes in one ring */
static uint64_t refresh_all(struct kmod_engine *k)
{
	uint64_t most = 0;

	for (unsigned i = 0; i < k->ncpus; i++) {
		uint64_t n;

		ring_release(&k->cpus[i]);
		n = ring_refresh(&k->cpus[i]);
		if (n > most)
			most = n;
	}
	return most;
}

/* Sleep while the rings are (nearly) empty, as the reference consumer does:
 * a wake-up per event or per millisecond costs more than the events.  The
 * next sleep doubles while little arrives and halves when a ring filled
 * past 1/16 during the sleep, so bursts cannot overrun the rings. */
static void nap(struct kmod_engine *k)
{
	struct timespec t = { (time_t)(k->nap_ns / 1000000000ull),
			      (long)(k->nap_ns % 1000000000ull) };
	uint64_t got;

	nanosleep(&t, NULL);
	got = refresh_all(k);
	if (got > k->cpus[0].size / 16)
		k->nap_ns = k->nap_ns / 2 > KMOD_NAP_MIN_NS ? k->nap_ns / 2 : KMOD_NAP_MIN_NS;
	else if (got < k->batch)
		k->nap_ns = k->nap_ns * 2 < KMOD_NAP_MAX_NS ? k->nap_ns * 2 : KMOD_NAP_MAX_NS;
}

static int kmod_next(struct scap *h, struct scap_evt *evt)
{
	struct kmod_engine *k = h->engine;
	const uint8_t *e;
	int cpu;

	if (k->last >= 0)
		ring_advance(&k->cpus[k->last], k->last_alen);
	k->last = -1;
	cpu = pick_cpu(k);
	if (cpu < 0) {
		if (refresh_all(k) < k->batch)
			nap(k);
		cpu = pick_cpu(k);
		if (cpu < 0)
			return SCAP_TIMEOUT;
	}
	e = k->cpus[cpu].data + k->cpus[cpu].pos;
	evt->data = e;
	memcpy(&evt->ts, e, 8);
	memcpy(&evt->tid, e + 8, 8);
	memcpy(&evt->len, e + 16, 4);
	memcpy(&evt->type, e + 20, 2);
	evt->cpuid = (uint16_t)cpu;
	evt->dump_flags = 0;
	k->last = cpu;
	k->last_alen = (evt->len + KMOD_EVT_ALIGN - 1) & ~(uint64_t)(KMOD_EVT_ALIGN - 1);
	if (evt->len < PPM_EVT_HDR_LEN || evt->len > k->cpus[cpu].size - k->cpus[cpu].pos ||
	    scap_decode_params(evt)) {
		snprintf(h->err, SCAP_ERRBUF_SIZE, "kmod: corrupted event on cpu %d (len %u)",
			 cpu, evt->len);
		return SCAP_FAILURE;
	}
	return SCAP_SUCCESS;
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
	}
	return SCAP_SUCCESS;
}

static double kmod_progress(struct scap *h)
{
	(void)h;
	return -1;
}

static const struct scap_engine_ops kmod_ops = {
	.name = "kmod",
	.next = kmod_next,
	.get_stats = kmod_get_stats,
	.progress = kmod_progress,
	.close = kmod_close,
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

	/* no process selection in the module (yet): it delivers every task */
	if (opts && opts->select && opts->select->exact) {
		snprintf(err, SCAP_ERRBUF_SIZE, "kmod: the kernel module cannot select a process tree (sysdig -- CMD): use --bpf");
		return NULL;
	}
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
	k->last = -1;
	k->nap_ns = KMOD_NAP_MIN_NS;
	/* start first, then snapshot /proc: no gap between the two */
	if (open_cpus(k, err) || check_schema(k->cpus[0].fd, err) || configure(k, opts, err) ||
	    scap_proc_snapshot(&h->meta, err)) {
		kmod_release_all(k);
		scap_metadata_free(&h->meta);
		free(h);
		return NULL;
	}
	k->batch = k->cpus[0].size / 8 < KMOD_BATCH_BYTES ? k->cpus[0].size / 8 : KMOD_BATCH_BYTES;
	h->ops = &kmod_ops;
	h->engine = k;
	return h;
}
