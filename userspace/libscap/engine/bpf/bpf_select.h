/*
 * bpf_select.h - the bpf engine's side of the kernel selection
 * (driver/bpf/select.bpf.h): fills its settings and maps from the open
 * options.
 */
#ifndef BPF_SELECT_H
#define BPF_SELECT_H

#include "scap.h"

struct probe_bpf;

/* before load: the fork hook only with process trees */
void bpf_select_hooks(struct probe_bpf *s, const struct scap_live_opts *o);
/* after load, before attach: the flags and the maps; 0 or -1 (err) */
int bpf_select_apply(struct probe_bpf *s, const struct scap_live_opts *o, char *err);
/* after the /proc snapshot: the descendants of the trees' roots */
void bpf_select_snapshot(struct probe_bpf *s, const struct scap_live_opts *o,
			 const struct scap_metadata *m);

/* 0 when the driver leaves thread tid of process pid out (pid selection) */
int bpf_select_has(const struct probe_bpf *s, uint64_t pid, uint64_t tid);

#endif
