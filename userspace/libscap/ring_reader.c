/*
 * ring_reader.c - merges the per-CPU rings of a live engine by timestamp
 * and polls them (ring_reader.h says what an engine provides).
 *
 * Each ring's oldest chunk is peeked once and kept in heads[]; next()
 * returns the events of the chunk whose first event is the oldest, one by
 * one, and gives the chunk back to the engine at the call after its last
 * event.  Between two events of one chunk another CPU's event is never
 * returned: a chunk is a unit the driver wrote at once (a syscall's enter
 * and exit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ring_reader.h"

/* sleep between polls of empty rings: adapted to the event rate, so that a
 * ring is at most about 1/16 full when polled (POLL_MIN_NS) and a quiet or
 * steady capture wakes up rarely (POLL_MAX_NS); each wakeup costs a context
 * switch, more than a thousand events cost to read */
#define POLL_MIN_NS 250000L
#define POLL_MAX_NS 10000000L

int ring_reader_init(struct ring_reader *rr, const struct ring_ops *ops, void *engine,
		     const char *name, uint32_t nrings, uint64_t ring_bytes, char *err)
{
	memset(rr, 0, sizeof(*rr));
	rr->heads = calloc(nrings ? nrings : 1, sizeof(*rr->heads));
	if (!rr->heads) {
		snprintf(err, SCAP_ERRBUF_SIZE, "%s: out of memory", name);
		return -1;
	}
	rr->ops = ops;
	rr->engine = engine;
	rr->name = name;
	rr->nrings = nrings;
	rr->ring_bytes = ring_bytes;
	rr->cur = -1;
	rr->poll_ns = POLL_MIN_NS;
	return 0;
}

void ring_reader_free(struct ring_reader *rr)
{
	free(rr->heads);
	rr->heads = NULL;
	rr->nrings = 0;
}

/* 1 if ring i has a chunk to merge (peeked now or before) */
static int head_peek(struct ring_reader *rr, uint32_t i)
{
	struct ring_head *hd = &rr->heads[i];

	if (hd->chunk.data)
		return 1;
	if (!rr->ops->peek(rr->engine, i, &hd->chunk)) {
		hd->chunk.data = NULL;
		return 0;
	}
	/* a chunk too short for a header is merged first and refused by next() */
	hd->ts = 0;
	if (hd->chunk.len >= PPM_EVT_HDR_LEN)
		memcpy(&hd->ts, hd->chunk.data + PPM_HDR_OFF(ts), sizeof(hd->ts));
	return 1;
}

static void head_release(struct ring_reader *rr, uint32_t i)
{
	rr->heads[i].chunk.data = NULL;
	rr->awake_bytes += rr->ops->advance(rr->engine, i);
}

/* ring whose chunk starts with the oldest event, or -1 */
static int pick_ring(struct ring_reader *rr)
{
	uint64_t best_ts = 0;
	int best = -1;
	uint32_t i;

	for (i = 0; i < rr->nrings; i++)
		if (head_peek(rr, i) && (best < 0 || rr->heads[i].ts < best_ts)) {
			best_ts = rr->heads[i].ts;
			best = (int)i;
		}
	return best;
}

/*
 * Every ring is empty: sleep.  Much read since the last sleep (more than
 * 1/16 of a ring's worth) halves the next sleep, little (under 1/64)
 * doubles it.
 */
static void poll_sleep(struct ring_reader *rr)
{
	struct timespec ts = { 0, 0 };

	if (rr->ops->idle)
		rr->ops->idle(rr->engine);
	if (rr->awake_bytes > rr->ring_bytes / 16 && rr->poll_ns > POLL_MIN_NS)
		rr->poll_ns /= 2;
	else if (rr->awake_bytes < rr->ring_bytes / 64 && rr->poll_ns < POLL_MAX_NS)
		rr->poll_ns *= 2;
	if (rr->poll_ns > POLL_MAX_NS)
		rr->poll_ns = POLL_MAX_NS;
	rr->awake_bytes = 0;
	ts.tv_nsec = rr->poll_ns;
	nanosleep(&ts, NULL);
}

int ring_reader_next(struct ring_reader *rr, struct scap_evt *evt, char *err)
{
	const struct ring_chunk *c;
	uint32_t rest, len = 0;

	if (rr->cur >= 0 && rr->cur_off >= rr->heads[rr->cur].chunk.len) {
		head_release(rr, (uint32_t)rr->cur);
		rr->cur = -1;
	}
	if (rr->cur < 0) {
		rr->cur = pick_ring(rr);
		if (rr->cur < 0) {
			poll_sleep(rr);
			rr->cur = pick_ring(rr);
			if (rr->cur < 0)
				return SCAP_TIMEOUT;
		}
		rr->cur_off = 0;
	}
	c = &rr->heads[rr->cur].chunk;
	rest = c->len - rr->cur_off;
	evt->data = c->data + rr->cur_off;
	if (rest >= PPM_EVT_HDR_LEN)
		memcpy(&len, evt->data + PPM_HDR_OFF(len), sizeof(len));
	if (len < PPM_EVT_HDR_LEN || len > rest) {
		rr->cur_off = c->len;	/* released at the next call */
		snprintf(err, SCAP_ERRBUF_SIZE, "%s: corrupted event on cpu %d (length %u, %u bytes left)",
			 rr->name, rr->cur, len, rest);
		return SCAP_FAILURE;
	}
	scap_evt_read_header(evt);
	evt->cpuid = (uint16_t)rr->cur;
	evt->dump_flags = 0;
	rr->cur_off += len;
	if (scap_decode_params(evt)) {
		snprintf(err, SCAP_ERRBUF_SIZE, "%s: undecodable event of type %u on cpu %d",
			 rr->name, evt->type, rr->cur);
		return SCAP_FAILURE;
	}
	return SCAP_SUCCESS;
}
