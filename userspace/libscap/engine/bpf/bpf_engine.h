/*
 * bpf_engine.h - entry point of the CO-RE eBPF live engine (bpf_engine.c),
 * used by scap_open_live() in live.c.
 */
#ifndef BPF_ENGINE_H
#define BPF_ENGINE_H

#include "scap.h"

/* NULL with one line in err when the driver cannot be loaded */
struct scap *scap_bpf_open(const struct scap_live_opts *opts, char *err);

#endif
