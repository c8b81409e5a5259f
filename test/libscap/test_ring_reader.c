/*
 * test_ring_reader.c - unit tests of the live engines' ring reader
 * (userspace/libscap/ring_reader.c) on a fake engine: rings made of
 * hand-written chunks.  Checks the merge by timestamp, that a chunk's
 * events come together and the chunk is released at the call after its
 * last event, the idle hook and the sleep's adaptation, that a sleep ends
 * in SCAP_TIMEOUT even when it brought an event, and that a chunk
 * that cannot come from a driver is refused with one line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ring_reader.h"

#define MAX_CHUNKS 8

/* a fake ring: chunks published in order; peek gives chunks[pos] */
struct fake_ring {
	uint8_t buf[MAX_CHUNKS][128];
	uint32_t len[MAX_CHUNKS];
	uint32_t n, pos;
};

struct fake_engine {
	struct fake_ring rings[2];
	unsigned advances, idles;
	int wake_event;		/* each sleep brings an event into ring 0 */
};

/* adds an event (no parameters) with timestamp ts to the ring's last chunk
 * (new_chunk: to a new one) */
static void put_event(struct fake_ring *r, int new_chunk, uint64_t ts, uint64_t tid)
{
	if (new_chunk)
		r->n++;
	scap_evt_write_header(r->buf[r->n - 1] + r->len[r->n - 1], ts, tid, PPM_EVT_HDR_LEN,
			      PPME_SYSCALL_CLOSE_E, 0);
	r->len[r->n - 1] += PPM_EVT_HDR_LEN;
}

static int fake_peek(void *engine, uint32_t i, struct ring_chunk *c)
{
	struct fake_ring *r = &((struct fake_engine *)engine)->rings[i];

	if (r->pos >= r->n)
		return 0;
	c->data = r->buf[r->pos];
	c->len = r->len[r->pos];
	return 1;
}

static uint64_t fake_advance(void *engine, uint32_t i)
{
	struct fake_engine *e = engine;
	struct fake_ring *r = &e->rings[i];

	e->advances++;
	return r->len[r->pos++];
}

static void fake_idle(void *engine)
{
	struct fake_engine *e = engine;

	e->idles++;
	if (e->wake_event)
		put_event(&e->rings[0], 1, e->idles, 18);
}

static const struct ring_ops fake_ops = { fake_peek, fake_advance, fake_idle };

static void test_merge(void **state)
{
	static struct fake_engine e;
	struct ring_reader rr;
	struct scap_evt evt;
	char err[SCAP_ERRBUF_SIZE];
	/* expected order: (ts, cpu); ring 0's pair 10/40 stays together */
	const uint64_t want_ts[] = { 5, 10, 40, 20, 30 };
	const uint16_t want_cpu[] = { 1, 0, 0, 1, 0 };

	(void)state;
	memset(&e, 0, sizeof(e));
	put_event(&e.rings[0], 1, 10, 100);
	put_event(&e.rings[0], 0, 40, 100);
	put_event(&e.rings[0], 1, 30, 101);
	put_event(&e.rings[1], 1, 5, 200);
	put_event(&e.rings[1], 1, 20, 201);
	assert_int_equal(ring_reader_init(&rr, &e, "fake", 2, 4096, err), 0);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_SUCCESS);
		assert_int_equal(evt.ts, want_ts[i]);
		assert_int_equal(evt.cpuid, want_cpu[i]);
		assert_int_equal(evt.len, PPM_EVT_HDR_LEN);
		assert_int_equal(evt.type, PPME_SYSCALL_CLOSE_E);
		assert_int_equal(evt.nparams, 0);
		if (i == 1)	/* the second event of the pair: its chunk is still held */
			assert_int_equal(e.advances, 1);
	}
	assert_int_equal(e.advances, 3);
	assert_int_equal(e.idles, 0);
	/* the last chunk is released, then every ring is empty: one sleep */
	assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_TIMEOUT);
	assert_int_equal(e.advances, 4);
	assert_int_equal(e.idles, 1);
	ring_reader_free(&rr);
}

static void test_poll_adapts(void **state)
{
	static struct fake_engine e;
	struct ring_reader rr;
	struct scap_evt evt;
	char err[SCAP_ERRBUF_SIZE];
	long first;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(ring_reader_init(&rr, &e, "fake", 2, 1024, err), 0);
	first = rr.poll_ns;
	/* nothing read: the next sleep is longer */
	assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_TIMEOUT);
	assert_int_equal(rr.poll_ns, first * 2);
	/* more than 1/16 of a ring read since: shorter again */
	for (unsigned i = 0; i < 4; i++)
		put_event(&e.rings[1], 1, i, 1);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_SUCCESS);
	assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_TIMEOUT);
	assert_int_equal(rr.poll_ns, first);
	assert_int_equal(e.idles, 2);
	ring_reader_free(&rr);
}

static void test_corrupt(void **state)
{
	static struct fake_engine e;
	struct ring_reader rr;
	struct scap_evt evt;
	char err[SCAP_ERRBUF_SIZE];

	(void)state;
	memset(&e, 0, sizeof(e));
	/* an event whose length runs past its chunk */
	put_event(&e.rings[0], 1, 7, 1);
	e.rings[0].buf[0][PPM_HDR_OFF(len)] = 60;
	/* a chunk shorter than a header */
	e.rings[1].n = 1;
	e.rings[1].len[0] = 10;
	assert_int_equal(ring_reader_init(&rr, &e, "fake", 2, 4096, err), 0);
	err[0] = 0;
	assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_FAILURE);
	assert_string_equal(err, "fake: corrupted event on cpu 1 (length 0, 10 bytes left)");
	assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_FAILURE);
	assert_string_equal(err, "fake: corrupted event on cpu 0 (length 60, 26 bytes left)");
	/* both chunks were skipped, never looped on */
	assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_TIMEOUT);
	assert_int_equal(e.advances, 2);
	ring_reader_free(&rr);
}

/*
 * The reader's own wakeup makes an event (on a PREEMPT_RT kernel the timer
 * thread that wakes it switches to it): every sleep still ends in
 * SCAP_TIMEOUT, and the event comes at the next call.  A reader that
 * looked again after the sleep never said idle there.
 */
static void test_woken_by_a_thread(void **state)
{
	static struct fake_engine e;
	struct ring_reader rr;
	struct scap_evt evt;
	char err[SCAP_ERRBUF_SIZE];

	(void)state;
	memset(&e, 0, sizeof(e));
	e.wake_event = 1;
	assert_int_equal(ring_reader_init(&rr, &e, "fake", 2, 4096, err), 0);
	for (unsigned i = 1; i < MAX_CHUNKS; i++) {
		assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_TIMEOUT);
		assert_int_equal(e.idles, i);
		assert_int_equal(ring_reader_next(&rr, &fake_ops, &evt, err), SCAP_SUCCESS);
		assert_int_equal(evt.ts, i);
		assert_int_equal(evt.cpuid, 0);
	}
	ring_reader_free(&rr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_poll_adapts),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_woken_by_a_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
