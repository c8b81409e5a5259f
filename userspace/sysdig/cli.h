/*
 * cli.h - shared declarations of the sysdig command line tool: the parsed
 * options (main.c), the listings that take no input (list.c) and the
 * capture loop (capture.c).
 */
#ifndef SYSDIG_CLI_H
#define SYSDIG_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "fleet.h"
#include "flight.h"
#include "sinsp.h"

#define SYSDIG_VERSION "0.29.3"	/* the sysdig we are compatible with */
#ifndef SYSDIGC_VERSION
#define SYSDIGC_VERSION "0.0.0"	/* set by CMake from the project version */
#endif
#define MAX_INPUTS 64
#define MAX_CHISELS 32
#define MAX_SUPPRESS 32
#define MAX_PLUGINS 16

struct cli_plugin {
	const char *name;	/* -H name or path */
	const char *config;	/* init config, "" when none */
};

struct plugin;

struct cli_chisel {
	const char *name;
	const char *args;	/* NULL when none */
};

struct cli_opts {
	const char *inputs[MAX_INPUTS];	/* -r, in order */
	int ninputs;
	const char *write_path;		/* -w */
	int compress;			/* -z */
	int fatfile;			/* -F */
	int64_t file_size_mb;		/* -C */
	int64_t rotate_secs;		/* -G */
	int64_t file_limit;		/* -W */
	int64_t events_per_file;	/* -e */
	char *format;			/* -p (escaped), NULL: default */
	int print_container;		/* -pc */
	char *filter;			/* trailing words */
	int display_filter;		/* -d */
	int debug;			/* -D */
	int quiet;			/* -q */
	int summary;			/* -S */
	int verbose;			/* -v */
	int progress;			/* -P */
	int json;			/* -j */
	struct render_opts render;	/* -A -b -x -X, -t, -j, truncation: given to each sinsp */
	uint64_t max_events;		/* -n, 0: none */
	uint64_t max_secs;		/* -M, 0: none */
	uint32_t snaplen;		/* -s */
	int snaplen_set;		/* -s given: it wins over a chisel's set_snaplen() */
	int driver;			/* enum scap_live_driver */
	int unbuffered;
	int page_faults;		/* --page-faults */
	int force_tracers;		/* -T: tracer writes with the tracer snaplen */
	int exit_only;			/* --exit-only */
	int stacks;			/* --stacks */
	const char *stacks_filter;	/* --stacks-filter (implies --stacks) */
	int kernel_stacks;		/* --kernel-stacks (implies --stacks) */
	int recover;			/* --recover: skip damaged parts of -r files */
	uint64_t buffer_bytes;		/* --buffer-bytes-per-cpu, 0: default */
	struct cli_chisel chisels[MAX_CHISELS];
	int nchisels;
	int exclude_users;		/* -E */
	const char *suppress[MAX_SUPPRESS];	/* -U */
	int nsuppress;
	int large_env;			/* --large-environment */
	int filter_proclist;		/* --filter-proclist */
	struct cli_plugin plugins[MAX_PLUGINS];	/* -H, --plugin-config-file */
	int nplugins;
	const char *input_plugin;	/* -I name, NULL: none */
	const char *input_params;	/* -I name:params */
	int list_plugins;		/* -Il */
	const char *plugin_config_file;	/* --plugin-config-file */
	struct plugin *source;		/* -I: the source plugin (plugin.h) */
	char *rerun;			/* a chisel's sysdig.run_app arguments */
	char **cmd;			/* -- CMD ARGS... (NULL: none) */
	const char *cmd_user;		/* --user NAME: CMD runs as NAME */
	struct fleet_opts fleet;		/* --metrics-listen, --export (fleet.h) */
	struct flight_opts flight;	/* --flight-recorder, --trigger (flight.h) */
	int bench_runs;			/* --bench N, 0: off (bench_mode.c) */
};

/* plugin_cli.c */
int plugin_option(struct cli_opts *o, int opt, const char *arg);
/* loads the plugins of the options; -1: error (printed), 0: done (-Il),
 * 1: go on with the capture */
int plugins_setup(struct cli_opts *o);

/* list.c */
void list_fields(FILE *out, int verbose, int markdown);
void list_events(FILE *out);
void print_help(FILE *out);

/* capture.c: runs the whole capture; returns the exit status */
int run_capture(struct cli_opts *o);
/* events the engines returned in the last run_capture() */
uint64_t run_capture_events(void);

/* bench_mode.c: --bench N; returns the exit status */
int bench_run(struct cli_opts *o);

#endif
