/*
 * flight.h - the flight recorder (flight.c, --flight-recorder SIZE[,SECONDS]):
 * the events that -w would write go to a bounded ring in memory instead of
 * the file; on SIGUSR1, after a --trigger FILTER event (plus
 * --trigger-window SECONDS) and at the end of the capture the ring is
 * written as a normal .scap file, FILE0, FILE1... after -w FILE, starting
 * with the thread and fd tables of that moment.  The capture goes on.
 * Also the option of the benchmark mode (bench_mode.c, --bench N).
 */
#ifndef SYSDIG_FLIGHT_H
#define SYSDIG_FLIGHT_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include "sinsp.h"

#define OPT_FLIGHT_BASE 3000
enum {
	OPT_FLIGHT_RECORDER = OPT_FLIGHT_BASE,
	OPT_TRIGGER,
	OPT_TRIGGER_WINDOW,
	OPT_BENCH,
	OPT_FLIGHT_END,
};

#define FLIGHT_LONG_OPTS \
	{ "flight-recorder", required_argument, 0, OPT_FLIGHT_RECORDER }, \
	{ "trigger", required_argument, 0, OPT_TRIGGER }, \
	{ "trigger-window", required_argument, 0, OPT_TRIGGER_WINDOW }, \
	{ "bench", required_argument, 0, OPT_BENCH }

struct flight_opts {
	uint64_t size;		/* ring bytes, 0: no flight recorder */
	uint64_t window_ns;	/* keep the last SECONDS too, 0: no time bound */
	const char *trigger;	/* --trigger FILTER, NULL: none */
	uint64_t trigger_window_ns;	/* --trigger-window */
	int trigger_window_set;
};

/* an option of FLIGHT_LONG_OPTS but --bench (main.c): 0, or -1 after
 * printing the error */
int flight_parse_opt(struct flight_opts *fo, int opt, const char *arg);

struct flight;
struct cli_opts;
/* NULL with err (bad combination, bad trigger, no memory); also NULL
 * without err when no flight recorder is asked for */
struct flight *flight_start(const struct cli_opts *o, char *err, size_t errlen);
/* an event that -w would write (flags: SCAP_DF_*): into the ring; a
 * pending SIGUSR1 or the end of a trigger window writes a dump first.
 * Returns 0: a dump that fails is printed, the capture goes on and
 * flight_finish() fails */
int flight_event(struct flight *f, struct sinsp *s, struct sinsp_evt *e, uint32_t flags);
/* after every event (now: its time) and when the engine is idle (now
 * FLIGHT_CLOCK: the clock): a pending SIGUSR1, or a trigger window over at
 * now, writes a dump (also when the filter keeps no event) */
#define FLIGHT_CLOCK UINT64_MAX
void flight_tick(struct flight *f, struct sinsp *s, uint64_t now);
/* the capture is over: the last dump.  0, or -1 when a dump failed */
int flight_finish(struct flight *f, struct sinsp *s);
void flight_free(struct flight *f);

#endif
