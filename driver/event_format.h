/*
 * event_format.h - the contract between the capture drivers and userspace.
 *
 * Both drivers (driver/bpf, driver/kmod) write events in exactly this layout
 * into per-CPU ring buffers; libscap reads them and the .scap file format
 * stores them unchanged (docs/scap_format.md, "Events").  Event ids, parameter
 * types and the syscall map are generated from the TSV files (event_ids.h,
 * syscall_table.h).
 */
#ifndef EVENT_FORMAT_H
#define EVENT_FORMAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

#include "event_ids.h"

/*
 * Event header, 26 bytes, packed. Followed by nparams lengths (u16, or u32
 * for EF_LARGE_PAYLOAD events) and then the parameter values back to back.
 * len counts the header, the length array and the values.
 */
struct ppm_evt_hdr {
	uint64_t ts;		/* ns since the epoch */
	uint64_t tid;
	uint32_t len;
	uint16_t type;		/* enum ppm_event_code */
	uint32_t nparams;
} __attribute__((packed));

#define PPM_EVT_HDR_LEN 26

/* clone exit flag (flags.tsv clone_flags) the drivers add to the syscall's
 * flags: the caller's pid namespace is not the initial one, or its children
 * get another one; userspace then takes vtid/vpid from the event */
#define PPM_CL_CHILD_IN_PIDNS (1u << 29)
#define PPM_MAX_ARG_SIZE 65000

/* Drop markers (PPME_DROP_E/X) carry the sampling ratio as parameter. */

/*
 * Live capture contract between driver/bpf and userspace/libscap/engine/bpf.
 *
 * Rings: one per CPU, written by the driver without a lock (one producer per
 * CPU) and read by userspace through mmap.  The data of CPU i is element i of
 * the BPF array map `rings` (ring bytes, a power of two, plus
 * SCAP_BPF_RING_SLACK unused bytes the verifier needs); its positions are
 * ring_pos[i] in the program's .bss.  head and tail count bytes since the
 * start (position in the ring = count & (ring bytes - 1)).  A record is an
 * 8-byte header (u32 length of what follows, u32 flags), then its events back
 * to back (a syscall's enter event followed by its exit event, or drop
 * markers, or a single event), padded to 8 bytes.  A record never wraps: when
 * it does not fit before the end, a record flagged SCAP_BPF_REC_PAD covers
 * the rest of the ring.  The driver publishes a record by moving head past it;
 * the reader releases it by moving tail.  Nobody is woken: the reader polls.
 * The kernel side writes enter and exit from the sys_exit hook, so an enter
 * event always sits right before its exit (the state engine pairs them: docs/architecture.md).
 *
 * Counters: one struct scap_bpf_counters per CPU in the program's .bss, in
 * events (an enter+exit pair counts 2).  n_evts = seen, n_written = put in
 * the ring, n_drops_buffer = seen but the ring was full.  After a run of
 * drops the next record on that CPU is preceded by PPME_DROP_E (at the time
 * of the first drop) and PPME_DROP_X (now), ratio 1.
 */
#define SCAP_BPF_MAX_CPUS 256
#define SCAP_BPF_MAX_SYSCALLS 512
#define SCAP_BPF_SCRATCH_SIZE (1 << 16)	/* per-CPU record building area */
#define SCAP_BPF_DEFAULT_SNAPLEN 80
#define SCAP_BPF_RING_SLACK (68 << 10)	/* > 8 + the largest record (64 KiB) */
#define SCAP_BPF_REC_HDR 8
#define SCAP_BPF_REC_PAD 1		/* record flag: skip to the ring's end */

/* positions of one CPU's ring; head and tail on their own cache lines */
struct scap_bpf_ring_pos {
	uint64_t head;		/* driver: bytes published */
	uint64_t tail_seen;	/* driver: its last read of tail */
	uint32_t busy;		/* driver: a record is being written */
	uint32_t pad0;
	uint64_t pad1[5];
	uint64_t tail;		/* reader: bytes released */
	uint64_t pad2[7];
};

struct scap_bpf_counters {
	uint64_t n_evts;
	uint64_t n_written;
	uint64_t n_drops_buffer;
	uint64_t n_drops_scratch;	/* record too large to build */
	uint64_t in_drop;		/* 1 while drops are pending a marker */
	uint64_t drop_ts;		/* time of the first pending drop */
	uint64_t n_suppressed;		/* not captured: comm filter or -U (select.bpf.h) */
	uint64_t n_unselected;		/* not captured: not a selected pid (SCAP_BPF_F_PIDS) */
};

/* settings.flags: exit-only mode (--exit-only): the sys_enter hook is not
 * attached and each enter event is written at syscall exit, right before its
 * exit event, with the exit time (evt.latency 0).  Default (flag clear): the
 * enter event is written at syscall entry with the entry time. */
#define SCAP_BPF_F_EXIT_ONLY 1
/* The selection flags COMM, SUPPRESS, PIDS, TREE and TIDS, the pid limit and
 * struct scap_bpf_comm are the kernel module's too (kmod_abi.h struct
 * kmod_select, driver/kmod/select.c): both drivers select alike. */
/* settings.flags: only tasks named settings.comm (their own comm or their
 * thread group leader's) are captured, plus the process lifecycle: the
 * syscalls marked SCAP_BPF_SC_LIFECYCLE and procexit of every task */
#define SCAP_BPF_F_COMM 2
/* settings.flags: stack events (SCAP_BPF_SC_STACK) carry the kernel stack
 * too (--kernel-stacks) */
#define SCAP_BPF_F_KSTACK 64
/* settings.flags: the tasks named one of the sel_comms map (-U) are not
 * captured, except their lifecycle (driver/bpf/select.bpf.h) */
#define SCAP_BPF_F_SUPPRESS 4
/* settings.flags: only the processes / threads of sel_tgids / sel_tids */
#define SCAP_BPF_F_PIDS 8
/* settings.flags: with SCAP_BPF_F_PIDS, the children of a selected
 * process are selected (the process tree) */
#define SCAP_BPF_F_TREE 16
/* settings.flags: with SCAP_BPF_F_PIDS, the threads of sel_tids too */
#define SCAP_BPF_F_TIDS 32
/* settings.flags: only tasks named one of the want_comms map (their own
 * comm or their thread group leader's), plus the lifecycle, as
 * SCAP_BPF_F_COMM for a list of names (proc.name in (a, b, ...)) */
#define SCAP_BPF_F_COMMS 128
/* settings.flags: only tasks with a cgroup (of any hierarchy) in the
 * sel_cgroups map, plus the lifecycle (container.id = X): the cgroups
 * whose path names X when the capture starts, those made later whose name
 * ends in an id of want_ids (+ ".scope"), and the children of selected ones */
#define SCAP_BPF_F_CGROUPS 256
/* settings.flags: sysdig tracers (-T, or a tracer write seen): a write to
 * /dev/null captures up to SCAP_TRACER_SNAPLEN bytes whatever the snaplen */
#define SCAP_BPF_F_TRACERS 512
#define SCAP_TRACER_SNAPLEN 4096	/* RW_SNAPLEN_EVENT */

/* the selection bitmaps: one bit per pid up to the kernel's PID_MAX_LIMIT
 * (pid_max cannot be set higher); the -U map holds up to 32 names, NUL-padded */
#define SCAP_BPF_PID_LIMIT (1u << 22)
#define SCAP_BPF_PID_WORDS (SCAP_BPF_PID_LIMIT / 64)
#define SCAP_BPF_MAX_SUPPRESSED 32
#define SCAP_BPF_MAX_COMMS 64	/* want_comms: FILTER_PUSH_MAX names */
#define SCAP_BPF_MAX_CGROUPS 8192	/* sel_cgroups: kernfs ids of cgroups */
#define SCAP_BPF_CG_HINT_WORDS 1024	/* sel_cg_hint: bit (id % 65536) of each */
/* want_ids: a container id (12 characters), NUL-padded */
struct scap_bpf_cid {
	char id[16];
};
#define SCAP_BPF_CID_LEN 12
#define SCAP_BPF_MAX_CIDS 64	/* want_ids */
struct scap_bpf_comm {
	char name[16];
};

/* settings.syscall_mask[nr] bits */
#define SCAP_BPF_SC_CAPTURE 1		/* captured */
#define SCAP_BPF_SC_LIFECYCLE 2		/* clone/fork/execve...: passes the comm filter */
#define SCAP_BPF_SC_STACK 4		/* --stacks: a PPME_STACK_E before its enter event */

/* PPME_STACK_E (driver/ext_events.tsv): what the drivers take at most */
#define SCAP_STACK_USER_FRAMES 64	/* user return addresses, frame pointer walk */
#define SCAP_STACK_TOP_BYTES 256	/* the user stack from sp */
#define SCAP_STACK_KERNEL_FRAMES 32

struct scap_bpf_settings {
	uint64_t boot_epoch_ns;	/* epoch ns at boot: added to ktime_get_boot_ns */
	uint32_t self_tgid;	/* process not captured (the capturer) */
	uint32_t snaplen;	/* bytes of I/O buffers captured */
	uint32_t enabled;	/* 0: the programs do nothing */
	uint32_t flags;		/* SCAP_BPF_F_* */
	uint8_t syscall_mask[SCAP_BPF_MAX_SYSCALLS];	/* nr -> SCAP_BPF_SC_* bits */
	/* SCAP_BPF_F_COMM: the name, NUL-padded, and which of its 16 bytes
	 * to compare (0xff up to and including its NUL) */
	uint64_t comm[2];
	uint64_t comm_mask[2];
};

#endif
