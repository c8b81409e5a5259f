/*
 * event_format.h - the contract between the capture drivers and userspace.
 *
 * Both drivers (driver/bpf, driver/kmod) write events in exactly this layout
 * into per-CPU ring buffers; libscap reads them and the .scap file format
 * stores them unchanged (scap_format.md section 6).  Event ids, parameter
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
#define PPM_MAX_ARG_SIZE 65000

/* Drop markers (PPME_DROP_E/X) carry the sampling ratio as parameter. */

#endif
