/*
 * procinfo.h - the procinfo meta-events of live captures (procinfo.c).
 */
#ifndef SCAP_PROCINFO_H
#define SCAP_PROCINFO_H

#include "scap.h"

/* puts the procinfo layer in front of the live engine of h; 0, or -1 with
 * err filled (h is left as it was) */
int scap_procinfo_wrap(struct scap *h, char *err);

#endif
