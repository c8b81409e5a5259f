/*
 * ring_reader.h - the per-CPU ring reader shared by the live engines
 * (engine/bpf, engine/kmod).
 *
 * Both drivers write events (driver/event_format.h) into one ring per CPU
 * that userspace maps and polls: nobody is woken.  The reader merges the
 * rings by the timestamp of each ring's next chunk, returns the events of a
 * chunk one by one, pointing straight into the mapping, releases a chunk at
 * the call after its last event (the event returned last stays valid until
 * then), and when every ring is empty sleeps for a time adapted to the
 * event rate, then says SCAP_TIMEOUT (whatever arrived meanwhile is
 * returned by the next call).
 *
 * An engine only says how to look at and move along its rings (struct
 * ring_ops, passed to ring_reader_next()).  A chunk is what the driver publishes at once, events back to
 * back: a BPF record (a syscall's enter and exit event, or drop markers) or
 * one event of the kernel module.
 */
#ifndef RING_READER_H
#define RING_READER_H

#include <stdint.h>
#include <string.h>
#include "scap.h"

/* the events of a chunk, back to back, in the ring's mapping */
struct ring_chunk {
	const uint8_t *data;
	uint32_t len;
};

struct ring_ops {
	/* the oldest unread chunk of ring i into *c; 0 when the ring is read up
	 * to what the driver published */
	int (*peek)(void *engine, uint32_t ring, struct ring_chunk *c);
	/* the chunk peek gave for ring is read: move past it (the driver may
	 * reuse its space from now on, or from the next idle()); returns the
	 * ring bytes it took */
	uint64_t (*advance)(void *engine, uint32_t ring);
	/* every ring is empty and the reader is going to sleep: hand what was
	 * read back to the driver.  NULL if advance() already does. */
	void (*idle)(void *engine);
};

/* a ring's chunk being merged */
struct ring_head {
	struct ring_chunk chunk;	/* data NULL: none peeked */
	uint64_t ts;			/* of its first event */
};

struct ring_reader {
	void *engine;		/* given to every ring_ops function */
	const char *name;	/* the engine's, for messages */
	uint32_t nrings;
	uint64_t ring_bytes;	/* data bytes of one ring */
	struct ring_head *heads;
	int cur;		/* ring of the chunk being returned, or -1 */
	uint32_t cur_off;	/* next event in it */
	long poll_ns;		/* next sleep when every ring is empty */
	uint64_t awake_bytes;	/* ring bytes read since the last sleep */
};

/* 0, or -1 with a line in err (out of memory) */
int ring_reader_init(struct ring_reader *rr, void *engine, const char *name, uint32_t nrings,
		     uint64_t ring_bytes, char *err);
void ring_reader_free(struct ring_reader *rr);

/*
 * The oldest event of the rings into evt: SCAP_SUCCESS; SCAP_TIMEOUT when
 * every ring was empty (after one sleep); SCAP_FAILURE with a line in err
 * for an event that cannot come from the driver.  Inline, with the engine's
 * ops as a constant, so that the compiler calls them directly: this is the
 * path every captured event takes.
 */
static inline int ring_reader_next(struct ring_reader *rr, const struct ring_ops *ops,
				   struct scap_evt *evt, char *err);

/* ---- below: the parts of ring_reader_next() (ring_reader.c: the rest) ---- */

/* every ring is empty: sleep for an adaptive time (ring_reader.c) */
void ring_reader_sleep(struct ring_reader *rr);
/* the event at the read position cannot come from the driver (its length,
 * or its parameters for type >= 0): say so, skip the rest of its chunk;
 * SCAP_FAILURE */
int ring_reader_refuse(struct ring_reader *rr, int type, uint32_t len, uint32_t rest, char *err);

/* 1 if ring i has a chunk to merge (peeked now or before) */
static inline int ring_reader_peek(struct ring_reader *rr, const struct ring_ops *ops, uint32_t i)
{
	struct ring_head *hd = &rr->heads[i];

	if (hd->chunk.data)
		return 1;
	if (!ops->peek(rr->engine, i, &hd->chunk)) {
		hd->chunk.data = NULL;
		return 0;
	}
	/* a chunk too short for a header is merged first and refused by next() */
	hd->ts = 0;
	if (hd->chunk.len >= PPM_EVT_HDR_LEN)
		memcpy(&hd->ts, hd->chunk.data + PPM_HDR_OFF(ts), sizeof(hd->ts));
	return 1;
}

/* ring whose chunk starts with the oldest event, or -1 */
static inline int ring_reader_pick(struct ring_reader *rr, const struct ring_ops *ops)
{
	uint64_t best_ts = 0;
	int best = -1;
	uint32_t i;

	for (i = 0; i < rr->nrings; i++)
		if (ring_reader_peek(rr, ops, i) && (best < 0 || rr->heads[i].ts < best_ts)) {
			best_ts = rr->heads[i].ts;
			best = (int)i;
		}
	return best;
}

static inline int ring_reader_next(struct ring_reader *rr, const struct ring_ops *ops,
				   struct scap_evt *evt, char *err)
{
	const struct ring_chunk *c;
	uint32_t rest, len = 0;

	if (rr->cur >= 0 && rr->cur_off >= rr->heads[rr->cur].chunk.len) {
		rr->heads[rr->cur].chunk.data = NULL;
		rr->awake_bytes += ops->advance(rr->engine, (uint32_t)rr->cur);
		rr->cur = -1;
	}
	if (rr->cur < 0) {
		rr->cur = ring_reader_pick(rr, ops);
		if (rr->cur < 0) {
			/* not picked again after the sleep: a reader woken
			 * through a kernel thread (the timer thread of a
			 * PREEMPT_RT kernel) finds that thread's switch event
			 * after every sleep and would never say idle */
			if (ops->idle)
				ops->idle(rr->engine);
			ring_reader_sleep(rr);
			return SCAP_TIMEOUT;
		}
		rr->cur_off = 0;
	}
	c = &rr->heads[rr->cur].chunk;
	rest = c->len - rr->cur_off;
	evt->data = c->data + rr->cur_off;
	if (rest >= PPM_EVT_HDR_LEN)
		memcpy(&len, evt->data + PPM_HDR_OFF(len), sizeof(len));
	if (len < PPM_EVT_HDR_LEN || len > rest)
		return ring_reader_refuse(rr, -1, len, rest, err);
	scap_evt_read_header(evt);
	evt->cpuid = (uint16_t)rr->cur;
	evt->dump_flags = 0;
	rr->cur_off += len;
	if (scap_decode_params(evt))
		return ring_reader_refuse(rr, evt->type, len, rest, err);
	return SCAP_SUCCESS;
}

#endif
