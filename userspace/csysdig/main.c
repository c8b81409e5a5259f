/*
 * main.c - csysdig: command line options, then either --raw (the view's
 * rows as plain text on stdout) or the ncurses interface (ui.c).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "csysdig.h"
#include "render.h"

enum { OPT_RAW = 256, OPT_LOGFILE, OPT_TERM_COMPAT, OPT_VERSION, OPT_PC };

static const struct option g_long[] = {
	{ "print-ascii", no_argument, 0, 'A' },
	{ "bpf", optional_argument, 0, 'B' },
	{ "delay", required_argument, 0, 'd' },
	{ "help", no_argument, 0, 'h' },
	{ "list", no_argument, 0, 'l' },
	{ "logfile", required_argument, 0, OPT_LOGFILE },
	{ "force-term-compat", no_argument, 0, OPT_TERM_COMPAT },
	{ "numevents", required_argument, 0, 'n' },
	{ "resolve-ports", no_argument, 0, 'R' },
	{ "read", required_argument, 0, 'r' },
	{ "raw", no_argument, 0, OPT_RAW },
	{ "snaplen", required_argument, 0, 's' },
	{ "view", required_argument, 0, 'v' },
	{ "version", no_argument, 0, OPT_VERSION },
	{ "print-hex-ascii", no_argument, 0, 'X' },
	{ "pcontainer", no_argument, 0, OPT_PC },
	{ 0, 0, 0, 0 }
};

static void usage(FILE *out)
{
	fprintf(out,
		"csysdig version " CSYSDIG_VERSION "\n"
		"Usage: csysdig [options] [filter]\n\n"
		"Options:\n"
		" -A, --print-ascii  In the echo window (F5), print only the text of data buffers.\n"
		" -B, --bpf          Capture live with the eBPF driver (the default when there is\n"
		"                    no kernel module).\n"
		" -d <period>, --delay=<period>\n"
		"                    Delay between updates, in milliseconds (default 2000).\n"
		" --force-term-compat\n"
		"                    Use simple terminal settings (xterm-1002 mouse reporting) for\n"
		"                    terminals such as putty.\n"
		" -h, --help         Print this page.\n"
		" -l, --list         List the fields that can be used in views.\n"
		" --logfile=<file>   Write csysdig's own log (view changes, filters) to <file>.\n"
		" -n <num>, --numevents=<num>\n"
		"                    Stop after <num> events.\n"
		" -pc, -pcontainer   Container-friendly views: add the container columns.\n"
		" -R, --resolve-ports\n"
		"                    Show port numbers as service names.\n"
		" -r <file>, --read=<file>\n"
		"                    Read events from <file> (repeatable: files are read in order).\n"
		" --raw              Print the view's rows as plain text instead of the\n"
		"                    ncurses interface.\n"
		" -s <len>, --snaplen=<len>\n"
		"                    Capture the first <len> bytes of each I/O buffer (default 80).\n"
		" -v <view_id>, --view=<view_id>\n"
		"                    Start with the view <view_id> (see F2 for the list).\n"
		" --version          Print the version number.\n"
		" -X, --print-hex-ascii\n"
		"                    In the echo window (F5), print data buffers in hex and ASCII.\n\n"
		"Views are the v_*.lua files of the chisel path (SYSDIG_CHISEL_DIR first).\n"
		"Without -r, csysdig captures live (root).  Press F1 inside for the keys.\n");
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		return -1;
	*out = v;
	return 0;
}

static void list_fields(void)
{
	const struct field_info *fi;
	size_t n = field_catalogue(&fi);
	const char *cls = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!cls || strcmp(cls, fi[i].cls) != 0) {
			cls = fi[i].cls;
			printf("%s-------------\nField Class: %s\n\n", i ? "\n" : "", cls);
		}
		printf("%-24s %s\n", fi[i].name, fi[i].description);
	}
}

/* -pc / -pcontainer are single-dash long options: rewrite them for getopt */
static void rewrite_pc(int argc, char **argv)
{
	static char pc[] = "--pcontainer";

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "-pc") == 0 || strcmp(argv[i], "-pcontainer") == 0)
			argv[i] = pc;
	}
}

static int parse_args(struct app *a, int argc, char **argv, int *exit_now)
{
	struct opts *o = &a->o;
	uint64_t v;
	int c;

	*exit_now = 0;
	o->delay_ms = 2000;
	o->render = (struct render_opts)RENDER_OPTS_DEFAULT;
	rewrite_pc(argc, argv);
	while ((c = getopt_long(argc, argv, "AB::d:hln:Rr:s:v:X", g_long, NULL)) != -1) {
		switch (c) {
		case 'A': o->render.bufmode = RB_ASCII; break;
		case 'X': o->render.bufmode = RB_HEXASCII; break;
		case 'B': o->driver = SCAP_DRIVER_BPF; break;
		case 'd':
			if (parse_u64(optarg, &o->delay_ms) < 0 || o->delay_ms == 0) {
				fprintf(stderr, "invalid delay %s\n", optarg);
				return -1;
			}
			break;
		case 'h': usage(stdout); *exit_now = 1; return 0;
		case 'l': list_fields(); *exit_now = 1; return 0;
		case 'n':
			if (parse_u64(optarg, &o->max_events) < 0) {
				fprintf(stderr, "invalid number of events %s\n", optarg);
				return -1;
			}
			break;
		case 'R': render_resolve_ports(1); break;
		case 'r':
			if (o->ninputs == MAX_INPUTS) {
				fprintf(stderr, "too many -r files\n");
				return -1;
			}
			o->inputs[o->ninputs++] = optarg;
			break;
		case 's':
			if (parse_u64(optarg, &v) < 0 || v > 0xffffffffULL) {
				fprintf(stderr, "invalid snaplen %s\n", optarg);
				return -1;
			}
			o->snaplen = (uint32_t)v;
			break;
		case 'v': o->view_id = optarg; break;
		case OPT_RAW: o->raw = 1; break;
		case OPT_LOGFILE: o->logfile = optarg; break;
		case OPT_TERM_COMPAT: o->term_compat = 1; break;
		case OPT_PC: o->print_containers = 1; break;
		case OPT_VERSION: printf("csysdig version %s\n", CSYSDIG_VERSION); *exit_now = 1; return 0;
		default:
			return -1;
		}
	}
	if (optind < argc) {
		size_t len = 0;

		for (int i = optind; i < argc; i++)
			len += strlen(argv[i]) + 1;
		o->filter = calloc(1, len + 1);
		for (int i = optind; i < argc; i++) {
			if (i > optind)
				strcat(o->filter, " ");
			strcat(o->filter, argv[i]);
		}
	}
	return 0;
}

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

/* --raw: the samples of the view as text, until the files end (or ^C) */
static int run_raw(struct app *a)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	while (!g_stop) {
		int rc = app_step(a, 4096);

		if (rc < 0) {
			fflush(stdout);
			fprintf(stderr, "%s\n", a->err);
			return 1;
		}
		if (rc == 2)
			break;
	}
	fflush(stdout);
	return 0;
}

static int check_filter(struct app *a)
{
	struct filter *f;

	if (!a->o.filter)
		return 0;
	f = filter_compile(a->o.filter, a->err, sizeof(a->err));
	if (!f)
		return -1;
	filter_free(f);
	return 0;
}

int main(int argc, char **argv)
{
	static struct app a;
	int exit_now, status;
	struct view *v;

	if (parse_args(&a, argc, argv, &exit_now) < 0) {
		free(a.o.filter);
		return 1;
	}
	if (exit_now)
		return 0;
	if (a.o.logfile && !(a.log = fopen(a.o.logfile, "a"))) {
		fprintf(stderr, "can't open log file %s: %s\n", a.o.logfile, strerror(errno));
		return 1;
	}
	if (check_filter(&a) < 0) {
		fprintf(stderr, "%s\n", a.err);
		app_close(&a);
		free(a.o.filter);
		return 1;
	}
	if (view_load_all(&a.views, a.err, sizeof(a.err)) < 0) {
		fprintf(stderr, "%s\n", a.err);
		app_close(&a);
		free(a.o.filter);
		return 1;
	}
	v = view_find(&a.views, a.o.view_id ? a.o.view_id : "procs");
	if (!v && a.o.view_id) {
		fprintf(stderr, "view %s not found\n", a.o.view_id);
		app_close(&a);
		free(a.o.filter);
		return 1;
	}
	if (!v && a.views.n)
		v = &a.views.v[0];
	if (!v) {
		fprintf(stderr, "no views found (looked for v_*.lua in the chisel directories)\n");
		app_close(&a);
		free(a.o.filter);
		return 1;
	}
	a.stack[0].view = v;
	if (!a.o.raw && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "csysdig needs a terminal (use --raw for plain text output)\n");
		app_close(&a);
		free(a.o.filter);
		return 1;
	}
	if (!a.o.raw && !ui_terminal_usable()) {
		fprintf(stderr, "csysdig: the terminal (TERM=%s) cannot show the interface; "
			"printing the view as with --raw\n", getenv("TERM") ? getenv("TERM") : "");
		a.o.raw = 1;
	}
	if (app_start(&a) < 0) {
		fprintf(stderr, "%s\n", a.err);
		app_close(&a);
		free(a.o.filter);
		return 1;
	}
	status = a.o.raw ? run_raw(&a) : ui_run(&a);
	app_close(&a);
	free(a.o.filter);
	return status;
}
