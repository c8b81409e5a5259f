/*
 * sinsp.c - the libsinsp event loop: open, next, close.
 *
 * sinsp_open() takes a libscap handle and builds the thread/fd state from
 * its metadata; sinsp_next() reads one event, applies the removals left by
 * the previous event (procexit thread, closed fd), numbers the event, runs
 * the state parsers (parser.c) and hands back the event with its context.
 * A new section in a file (SCAP_NEW_SECTION) drops the state and reloads
 * it from the new metadata, as sinsp::restart_capture does (the container
 * table too: the new section's container events fill it again).
 */
#include <stdio.h>
#include <stdlib.h>
#include "sinsp_int.h"
#include "tracer.h"
#include "stacks.h"

static int load_state(struct sinsp *s)
{
	s->meta = &s->scap->meta;
	s->pending_thread_removal = -1;
	s->pending_fd_removal_tid = -1;
	s->pending_fd_removal = -1;
	if (threads_load(s, s->meta)) {
		snprintf(s->err, sizeof(s->err), "out of memory loading the process list");
		return -1;
	}
	return 0;
}

struct sinsp *sinsp_open(struct scap *scap, char *err)
{
	struct sinsp *s = calloc(1, sizeof(*s));

	if (!s || !(s->threads = calloc(1, sizeof(*s->threads))) ||
	    !(s->fd_pool = calloc(1, sizeof(*s->fd_pool)))) {
		if (err)
			snprintf(err, SCAP_ERRBUF_SIZE, "out of memory");
		if (s) {
			free(s->threads);
			free(s);
		}
		if (scap)
			scap_close(scap);
		return NULL;
	}
	s->scap = scap;
	s->render = (struct render_opts)RENDER_OPTS_DEFAULT;
	parser_init();
	if (load_state(s)) {
		if (err)
			snprintf(err, SCAP_ERRBUF_SIZE, "%s", s->err);
		sinsp_close(s);
		return NULL;
	}
	return s;
}

void sinsp_close(struct sinsp *s)
{
	if (!s)
		return;
	threads_clear(s);
	free(s->threads);
	containers_clear(s);
	thread_free(s->container_thread);
	stacks_free(s->stacks);
	tracer_spans_free(s->spans);
	free(s->tracer_evt);
	if (s->fd_pool) {
		fd_pool_free(s->fd_pool);
		free(s->fd_pool);
	}
	if (s->scap)
		scap_close(s->scap);
	free(s);
}

/* removals scheduled by the previous event (procexit, close) */
static void apply_pending(struct sinsp *s)
{
	if (s->pending_thread_removal != -1) {
		thread_remove(s, s->pending_thread_removal, 0);
		s->pending_thread_removal = -1;
	}
	if (s->pending_fd_removal_tid != -1) {
		struct sinsp_threadinfo *t = thread_find(s, s->pending_fd_removal_tid);
		struct sinsp_fdtable *ft = t ? sinsp_thread_fdtable(s, t) : NULL;

		if (ft)
			fdtable_remove(ft, s->pending_fd_removal);
		s->pending_fd_removal_tid = -1;
		s->pending_fd_removal = -1;
	}
}

int sinsp_next(struct sinsp *s, struct sinsp_evt *evt)
{
	int rc;

	for (;;) {
		rc = scap_next(s->scap, &evt->scap);
		if (rc != SCAP_NEW_SECTION)
			break;
		threads_clear(s);
		containers_clear(s);
		if (load_state(s))
			return SCAP_FAILURE;
	}
	if (rc != SCAP_SUCCESS) {
		if (rc == SCAP_FAILURE)
			snprintf(s->err, sizeof(s->err), "%s", s->scap->err);
		return rc;
	}
	return sinsp_parse(s, evt);
}

void sinsp_enable_tracers(struct sinsp *s)
{
	if (s->is_live && !s->tracers_enabled) {
		s->tracers_enabled = 1;
		scap_enable_tracers(s->scap);
	}
}

void sinsp_evt_begin(struct sinsp *s, struct sinsp_evt *evt)
{
	evt->info = ppm_event_info_of(evt->scap.type);
	evt->thread = NULL;
	evt->fdinfo = NULL;
	evt->fd = -1;
	evt->errorcode = 0;
	evt->filtered_out = 0;
	evt->has_enter = 0;
	evt->enter_decoded = 0;
	evt->uses_fd = 0;
	evt->rejected = 0;
	evt->tracer = SINSP_TRACER_NONE;
	/* our stack events are state, not counted (sysdig 0.29.3 skips them) */
	if (ppm_event_is_ext(evt->scap.type)) {
		evt->num = 0;
		evt->filtered_out = 1;
		stacks_event(s, evt);
		return;
	}
	s->nevents++;
	if (s->first_ts == 0)	/* container events of a file can have ts 0 */
		s->first_ts = evt->scap.ts;
	evt->num = s->nevents;
}

int sinsp_parse(struct sinsp *s, struct sinsp_evt *evt)
{
	apply_pending(s);
	sinsp_evt_begin(s, evt);
	if (ppm_event_is_ext(evt->scap.type))
		return SCAP_SUCCESS;
	parse_event(s, evt);
	if (evt->scap.dump_flags & SCAP_DF_STATE_ONLY)
		evt->filtered_out = 1;
	return SCAP_SUCCESS;
}
