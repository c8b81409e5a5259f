/*
 * live.c - scap_open_live(): picks the live capture engine.
 *
 * The kernel module engine (engine/kmod, built with SCAP_HAVE_KMOD) is used
 * when its device (SCAP_KMOD_DEVICE) exists, else the CO-RE eBPF engine
 * (engine/bpf, built with SCAP_HAVE_BPF).  opts->driver forces one of them.
 * An engine that was not built reports so with one clear line.  Every live
 * handle gets the procinfo layer (procinfo.c) in front of its engine.
 * scap_live_wants_pair() is the one rule by which both engines turn an
 * event mask into what their driver captures.
 */
#include <stdio.h>
#include <unistd.h>
#include "scap.h"
#include "event_table.h"
#include "procinfo.h"
#ifdef SCAP_HAVE_BPF
#include "engine/bpf/bpf_engine.h"
#endif
#ifdef SCAP_HAVE_KMOD
#include "engine/kmod/kmod_engine.h"	/* struct scap *scap_kmod_open(opts, err) */
#endif

#ifdef SCAP_KMOD_DEVICE	/* the sysdigc module (engine/kmod/kmod_engine.h) */
#define KMOD_DEVICE SCAP_KMOD_DEVICE
#else
#define KMOD_DEVICE "/dev/scap0"
#endif

static struct scap *open_bpf(const struct scap_live_opts *opts, char *err)
{
#ifdef SCAP_HAVE_BPF
	return scap_bpf_open(opts, err);
#else
	(void)opts;
	snprintf(err, SCAP_ERRBUF_SIZE,
		 "live capture: the bpf driver was not built (needs BUILD_BPF=ON, clang, bpftool and libbpf)");
	return NULL;
#endif
}

static struct scap *open_kmod(const struct scap_live_opts *opts, char *err)
{
#ifdef SCAP_HAVE_KMOD
	return scap_kmod_open(opts, err);
#else
	(void)opts;
	snprintf(err, SCAP_ERRBUF_SIZE, "live capture: the kernel module engine was not built");
	return NULL;
#endif
}

static struct scap *open_engine(const struct scap_live_opts *opts, char *err)
{
	enum scap_live_driver d = opts ? opts->driver : SCAP_DRIVER_AUTO;

	if (d == SCAP_DRIVER_KMOD)
		return open_kmod(opts, err);
	if (d == SCAP_DRIVER_BPF)
		return open_bpf(opts, err);
#ifdef SCAP_HAVE_KMOD
	if (access(SCAP_KMOD_DEVICE, F_OK) == 0)
		return open_kmod(opts, err);
#endif
	return open_bpf(opts, err);
}

struct scap *scap_open_live(const struct scap_live_opts *opts, char *err)
{
	struct scap *h = open_engine(opts, err);

	if (h && scap_procinfo_wrap(h, err)) {
		scap_close(h);
		return NULL;
	}
	return h;
}

/* events the thread and fd state is built from */
#define STATE_FLAGS (EF_CREATES_FD | EF_DESTROYS_FD | EF_MODIFIES_STATE)

int scap_live_wants_pair(const struct scap_live_opts *opts, uint16_t ev)
{
	const uint8_t *m = opts ? opts->syscall_mask : NULL;
	int has_exit = ev + 1 < PPM_EVENT_MAX;

	if (ev >= PPM_EVENT_MAX)
		return 0;
	if (!m || m[ev] || (has_exit && m[ev + 1]))
		return 1;
	return ((g_event_info[ev].flags | (has_exit ? g_event_info[ev + 1].flags : 0)) &
		STATE_FLAGS) != 0;
}
