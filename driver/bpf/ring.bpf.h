/*
 * ring.bpf.h - the per-CPU event rings: one producer per CPU, no lock.
 *
 * Each CPU owns one element of the mmap'able array map `rings` (ring_mask + 1
 * data bytes, plus SCAP_BPF_RING_SLACK so that the verifier can bound every
 * write) and one struct scap_bpf_ring_pos in .bss.  A record is an 8-byte
 * header (length, flags) and its events, padded to 8 bytes; a record never
 * wraps: the rest of the ring is skipped with a SCAP_BPF_REC_PAD record.
 * The record is published by storing the new head after it is written
 * (x86 stores are not reordered with older stores).  The producer reads the
 * consumer's tail only when its last copy says the ring is full.
 *
 * A program of ours that runs on a CPU whose ring is being written (nesting,
 * or a preempted writer on kernels where syscall tracepoints are
 * preemptible) finds `busy` set and counts a drop: the window between
 * ring_reserve() and ring_commit() only writes the reserved bytes.
 * `busy` is set and cleared with plain stores where our programs only ever
 * nest (a tracepoint runs with preemption disabled: an inner program runs to
 * its end before the outer one goes on), with locked adds where they can be
 * preempted (ring_atomic_busy, chosen by userspace: bpf_engine.c).  The
 * locked pair costs ~20 ns per event, about a tenth of a getppid.
 * The layout is driver/event_format.h; the reader is
 * userspace/libscap/engine/bpf/bpf_engine.c.
 */
#ifndef RING_BPF_H
#define RING_BPF_H

/* one element per CPU; max_entries and value_size are set by userspace */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 4096 + SCAP_BPF_RING_SLACK);
} rings SEC(".maps");

/* data bytes of a ring - 1 (a power of two - 1), set by userspace */
const volatile __u64 ring_mask = 4095;

struct scap_bpf_ring_pos ring_pos[SCAP_BPF_MAX_CPUS];

/* a reserved record, until ring_commit() */
struct ring_rec {
	struct scap_bpf_ring_pos *rp;
	__u64 head;		/* head after the record */
};

/* 1: two of our programs can interleave on a CPU (set by userspace) */
const volatile __u32 ring_atomic_busy = 1;

/* 0: the ring of rp is ours until ring_unbusy(); -1: it is being written */
static __always_inline int ring_busy(struct scap_bpf_ring_pos *rp)
{
	if (!ring_atomic_busy) {
		/* a program nested between the load and the store has
		 * ended before we store: the head is read after it */
		if (*(volatile __u32 *)&rp->busy)
			return -1;
		*(volatile __u32 *)&rp->busy = 1;
		asm volatile("" ::: "memory");
		return 0;
	}
	__sync_fetch_and_add(&rp->busy, 1);
	if (rp->busy != 1) {
		__sync_fetch_and_add(&rp->busy, -1);
		return -1;
	}
	return 0;
}

static __always_inline void ring_unbusy(struct scap_bpf_ring_pos *rp)
{
	if (!ring_atomic_busy) {
		asm volatile("" ::: "memory");
		*(volatile __u32 *)&rp->busy = 0;
		return;
	}
	__sync_fetch_and_add(&rp->busy, -1);
}

/* room for n bytes of events in the ring of cpu, or NULL (full or busy) */
static __always_inline __u8 *ring_reserve(struct ring_rec *r, __u32 cpu, __u32 n)
{
	struct scap_bpf_ring_pos *rp = &ring_pos[cpu & (SCAP_BPF_MAX_CPUS - 1)];
	__u64 size = ring_mask + 1, head, pos, skip, need;
	__u8 *ring = bpf_map_lookup_elem(&rings, &cpu);

	if (!ring)
		return NULL;
	if (ring_busy(rp))
		return NULL;
	head = rp->head;
	pos = head & ring_mask;
	need = (n + SCAP_BPF_REC_HDR + 7) & ~7ULL;
	skip = pos + need > size ? size - pos : 0;
	if (head + skip + need - rp->tail_seen > size) {
		rp->tail_seen = *(volatile __u64 *)&rp->tail;
		if (head + skip + need - rp->tail_seen > size) {
			ring_unbusy(rp);
			return NULL;
		}
	}
	if (skip) {
		*(__u32 *)(ring + pos) = skip - SCAP_BPF_REC_HDR;
		*(__u32 *)(ring + pos + 4) = SCAP_BPF_REC_PAD;
		pos = 0;
	}
	*(__u32 *)(ring + pos) = n;
	*(__u32 *)(ring + pos + 4) = 0;
	r->rp = rp;
	r->head = head + skip + need;
	return ring + pos + SCAP_BPF_REC_HDR;
}

/* publish the record: the consumer sees it whole or not at all */
static __always_inline void ring_commit(struct ring_rec *r)
{
	asm volatile("" ::: "memory");
	*(volatile __u64 *)&r->rp->head = r->head;
	ring_unbusy(r->rp);
}

/* one record of n bytes copied from kernel memory src; 0 or -1 (dropped) */
static __always_inline int ring_output(__u32 cpu, const void *src, __u32 n)
{
	struct ring_rec r;
	__u8 *p = ring_reserve(&r, cpu, n);

	if (!p)
		return -1;
	bpf_probe_read_kernel(p, n, src);
	ring_commit(&r);
	return 0;
}

#endif
