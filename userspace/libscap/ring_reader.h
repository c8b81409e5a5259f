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
 * event rate before it says SCAP_TIMEOUT.
 *
 * An engine only says how to look at and move along its rings (struct
 * ring_ops).  A chunk is what the driver publishes at once, events back to
 * back: a BPF record (a syscall's enter and exit event, or drop markers) or
 * one event of the kernel module.
 */
#ifndef RING_READER_H
#define RING_READER_H

#include <stdint.h>
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
	const struct ring_ops *ops;
	void *engine;
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
int ring_reader_init(struct ring_reader *rr, const struct ring_ops *ops, void *engine,
		     const char *name, uint32_t nrings, uint64_t ring_bytes, char *err);
void ring_reader_free(struct ring_reader *rr);

/* the oldest event of the rings into evt: SCAP_SUCCESS; SCAP_TIMEOUT when
 * every ring stayed empty through one sleep; SCAP_FAILURE with a line in err
 * for an event that cannot come from the driver */
int ring_reader_next(struct ring_reader *rr, struct scap_evt *evt, char *err);

#endif
