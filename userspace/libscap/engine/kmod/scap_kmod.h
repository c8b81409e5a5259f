/*
 * scap_kmod.h - the kmod live engine: capture through the sysdigc kernel
 * module (driver/kmod).  scap_open_live() picks it when /dev/sysdigc0
 * exists; it can also be opened directly.
 */
#ifndef SCAP_KMOD_H
#define SCAP_KMOD_H

#include "scap.h"

/* Open every /dev/sysdigcN, map the rings and start capturing.
 * NULL with one line in err (module not loaded, needs root, busy). */
struct scap *scap_open_kmod(const struct scap_live_opts *opts, char *err);

/* 1 if the sysdigc module's first device exists */
int scap_kmod_available(void);

#endif
