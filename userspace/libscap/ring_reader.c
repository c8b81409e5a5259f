/*
 * ring_reader.c - the cold parts of the live engines' ring reader
 * (ring_reader.h has the merge, inline): setup, the adaptive sleep and
 * the refusal of an event that cannot come from a driver.
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

int ring_reader_init(struct ring_reader *rr, void *engine, const char *name, uint32_t nrings,
		     uint64_t ring_bytes, char *err)
{
	memset(rr, 0, sizeof(*rr));
	rr->heads = calloc(nrings ? nrings : 1, sizeof(*rr->heads));
	if (!rr->heads) {
		snprintf(err, SCAP_ERRBUF_SIZE, "%s: out of memory", name);
		return -1;
	}
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

/*
 * Much read since the last sleep (more than 1/16 of a ring's worth) halves
 * the next sleep, little (under 1/64) doubles it.
 */
void ring_reader_sleep(struct ring_reader *rr)
{
	struct timespec ts = { 0, 0 };

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

int ring_reader_refuse(struct ring_reader *rr, int type, uint32_t len, uint32_t rest, char *err)
{
	rr->cur_off = rr->heads[rr->cur].chunk.len;	/* released at the next call, never looped on */
	if (type >= 0)
		snprintf(err, SCAP_ERRBUF_SIZE, "%s: undecodable event of type %d on cpu %d",
			 rr->name, type, rr->cur);
	else
		snprintf(err, SCAP_ERRBUF_SIZE, "%s: corrupted event on cpu %d (length %u, %u bytes left)",
			 rr->name, rr->cur, len, rest);
	return SCAP_FAILURE;
}
