/*
 * kmod_abi.h - contract between the sysdigc kernel module and its userspace
 * engine (userspace/libscap/engine/kmod).
 *
 * The module creates one character device per possible CPU, /dev/sysdigcN.
 * Opening a device allocates that CPU's ring buffer; mmap() of offset 0
 * with length KMOD_INFO_SIZE + ring size maps the info page (struct
 * kmod_ring_info) followed by the ring data.  The module writes events
 * (driver/event_format.h layout) at head; the reader consumes from tail
 * and stores the new tail back into the info page.
 *
 * Ring rules: every event starts at an 8-byte aligned offset and is
 * followed by padding up to the next multiple of 8.  An event never wraps:
 * if fewer than KMOD_WRAP_MIN bytes remain before the end of the ring, or
 * the header at tail has len == 0, the reader continues at offset 0.
 */
#ifndef KMOD_ABI_H
#define KMOD_ABI_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/ioctl.h>
#else
#include <stdint.h>
#include <sys/ioctl.h>
#endif
#include "event_format.h"	/* the selection rules both drivers share */

#define KMOD_NAME "sysdigc"
#define KMOD_DEV_PREFIX "/dev/sysdigc"
#define KMOD_INFO_SIZE 4096
#define KMOD_WRAP_MIN 24
#define KMOD_EVT_ALIGN 8
#define KMOD_MASK_SIZE 512	/* bytes of the event mask (>= PPM_EVENT_MAX) */

struct kmod_ring_info {
	uint64_t head;		/* written by the module */
	uint64_t tail;		/* written by the reader */
	uint64_t size;		/* bytes of ring data */
	uint64_t n_seen;	/* events that reached the probe */
	uint64_t n_written;	/* events written to the ring */
	uint64_t n_drops_buffer;	/* ring full */
	uint64_t n_drops_fault;	/* event larger than the scratch area */
	uint64_t n_suppressed;	/* not captured: comm filter or -U (select.c) */
	uint64_t n_unselected;	/* not captured: not a selected pid */
};

struct kmod_stats {
	uint64_t n_seen;
	uint64_t n_written;
	uint64_t n_drops_buffer;
	uint64_t n_drops_fault;
	uint64_t n_suppressed;
	uint64_t n_unselected;
};

struct kmod_mask {
	uint8_t events[KMOD_MASK_SIZE];	/* indexed by ppm event id, KMOD_MASK_* bits */
};
#define KMOD_MASK_CAPTURE 1	/* captured */
#define KMOD_MASK_STACK 2	/* --stacks: a PPME_STACK_E before the enter event */
#define KMOD_MASK_KSTACK 4	/* ... with the kernel stack (--kernel-stacks) */
#define KMOD_MASK_LIFECYCLE 8	/* clone/fork/execve, procexit: passes the comm rules */

/*
 * Which tasks are captured: the rules of the BPF driver (settings.flags
 * SCAP_BPF_F_COMM, _COMMS, _CGROUPS, _SUPPRESS, _PIDS, _TREE, _TIDS of
 * event_format.h, see driver/bpf/select.bpf.h), set while the capture is
 * stopped.  The processes and threads of SCAP_BPF_F_PIDS are added one by
 * one (KMOD_IOC_SELECT_ID, at any time); with SCAP_BPF_F_TREE the module
 * adds the processes they fork and removes a process with its last thread.
 * The lists of SCAP_BPF_F_COMMS and _CGROUPS come before, by
 * KMOD_IOC_SET_LISTS; the cgroups of SCAP_BPF_F_CGROUPS are added one by
 * one (KMOD_IOC_SELECT_CGROUP, at any time), and the module adds those
 * made later below a selected one or named for one of the container ids.
 */
struct kmod_select {
	uint32_t flags;		/* SCAP_BPF_F_COMM | _COMMS | _CGROUPS | _SUPPRESS | _PIDS | ... */
	uint32_t nsuppress;	/* names in suppress (SCAP_BPF_F_SUPPRESS, -U) */
	uint64_t comm[2];	/* SCAP_BPF_F_COMM: the name, NUL-padded ... */
	uint64_t comm_mask[2];	/* ... and its bytes compared (settings.comm) */
	struct scap_bpf_comm suppress[SCAP_BPF_MAX_SUPPRESSED];
};

/* the names of SCAP_BPF_F_COMMS and the container ids of
 * SCAP_BPF_F_CGROUPS (for the cgroups made later), NUL-padded; taken by
 * the next KMOD_IOC_SET_SELECT */
struct kmod_select_lists {
	uint32_t ncomms;
	uint32_t ncids;
	struct scap_bpf_comm comms[SCAP_BPF_MAX_COMMS];
	struct scap_bpf_cid cids[SCAP_BPF_MAX_CIDS];
};

/* one process (tid 0: tgid pid, all its threads) or thread (tid) */
struct kmod_select_id {
	uint32_t pid;
	uint32_t tid;
};

#define KMOD_IOC_MAGIC 'z'
/* start/stop writing events (all CPUs) */
#define KMOD_IOC_START _IO(KMOD_IOC_MAGIC, 1)
#define KMOD_IOC_STOP _IO(KMOD_IOC_MAGIC, 2)
/* bytes of I/O buffers copied into events */
#define KMOD_IOC_SET_SNAPLEN _IOW(KMOD_IOC_MAGIC, 3, uint32_t)
/* which events to capture */
#define KMOD_IOC_SET_MASK _IOW(KMOD_IOC_MAGIC, 4, struct kmod_mask)
/* this device's counters */
#define KMOD_IOC_GET_STATS _IOR(KMOD_IOC_MAGIC, 5, struct kmod_stats)
/* do not capture this process (tgid); 0 = capture everything */
#define KMOD_IOC_SKIP_TGID _IOW(KMOD_IOC_MAGIC, 6, int32_t)
/* the schema hash of the tables the module was built from (SCHEMA_HASH in
 * the generated event_ids.h); the engine refuses a module with another */
#define KMOD_IOC_GET_SCHEMA _IOR(KMOD_IOC_MAGIC, 7, uint64_t)
/* the selection rules (capture stopped, else EBUSY) */
#define KMOD_IOC_SET_SELECT _IOW(KMOD_IOC_MAGIC, 8, struct kmod_select)
/* select a process (pid) or a thread (tid) */
#define KMOD_IOC_SELECT_ID _IOW(KMOD_IOC_MAGIC, 9, struct kmod_select_id)
/* 1 when thread tid of process pid is captured by the pid rules, else 0 */
#define KMOD_IOC_IS_SELECTED _IOW(KMOD_IOC_MAGIC, 10, struct kmod_select_id)
/* sysdig tracers: writes to /dev/null keep SCAP_TRACER_SNAPLEN bytes */
#define KMOD_IOC_SET_TRACERS _IO(KMOD_IOC_MAGIC, 11)
/* the lists of the next KMOD_IOC_SET_SELECT (capture stopped, else EBUSY) */
#define KMOD_IOC_SET_LISTS _IOW(KMOD_IOC_MAGIC, 12, struct kmod_select_lists)
/* select a cgroup by its kernfs id (the inode number of its directory);
 * ENOSPC past SCAP_BPF_MAX_CGROUPS */
#define KMOD_IOC_SELECT_CGROUP _IOW(KMOD_IOC_MAGIC, 13, uint64_t)

#endif
