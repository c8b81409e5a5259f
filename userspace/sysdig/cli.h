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
	int exit_only;			/* --exit-only */
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
	struct fleet_opts fleet;		/* --metrics-listen, --export (fleet.h) */
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

#endif
