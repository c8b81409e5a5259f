/*
 * kmod_engine.h - the kmod live engine: capture through the sysdigc kernel
 * module (driver/kmod).  scap_open_live() (live.c) picks it when
 * SCAP_KMOD_DEVICE exists; tools can also open it directly.
 */
#ifndef KMOD_ENGINE_H
#define KMOD_ENGINE_H

#include "scap.h"

#define SCAP_KMOD_DEVICE "/dev/sysdigc0"

/* Open every /dev/sysdigcN, map the rings, take the /proc snapshot and
 * start capturing.  NULL with one line in err (module not loaded, needs
 * root, busy). */
struct scap *scap_kmod_open(const struct scap_live_opts *opts, char *err);

/* the module's event mask for these options (KMOD_IOC_SET_MASK): the
 * events of opts->syscall_mask, whole pairs, plus the state events every
 * capture keeps (scap_live_wants_pair); the --stacks bits */
struct kmod_mask;
void scap_kmod_mask(const struct scap_live_opts *opts, struct kmod_mask *mask);

/* 1 if the sysdigc module's first device exists */
int scap_kmod_available(void);

#endif
