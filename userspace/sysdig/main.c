/*
 * main.c - sysdig command line: option parsing (sysdig 0.29.3 compatible,
 * docs/filters.md, sysdig-c(8)), listing commands, then the capture (capture.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "chisel.h"
#include "cli.h"
#include "format.h"
#include "plugin.h"
#include "render.h"
#include "scap.h"

#define DEFAULT_FORMAT "*%evt.num %evt.outputtime %evt.cpu %proc.name (%thread.tid) %evt.dir %evt.type %evt.info"
#define PC_FORMAT "*%evt.num %evt.outputtime %evt.cpu %container.name (%container.id) %proc.name (%thread.tid:%thread.vtid) %evt.dir %evt.type %evt.info"
#define PK_FORMAT "*%evt.num %evt.outputtime %evt.cpu %k8s.pod.name (%container.id) %proc.name (%thread.tid:%thread.vtid) %evt.dir %evt.type %evt.info"
#define PM_FORMAT "*%evt.num %evt.outputtime %evt.cpu %mesos.task.name (%container.id) %proc.name (%thread.tid:%thread.vtid) %evt.dir %evt.type %evt.info"

enum {
	OPT_LIST_MARKDOWN = 1000,
	OPT_VERSION,
	OPT_LIBS_VERSION,
	OPT_UNBUFFERED,
	OPT_KMOD,
	OPT_NO_K8S,
	OPT_NO_CRI,
	OPT_LARGE_ENV,
	OPT_FILTER_PROCLIST,
	OPT_PLUGIN_CONFIG,
	OPT_PAGE_FAULTS,
	OPT_EXIT_ONLY,
	OPT_BUFFER_BYTES,
	OPT_RECOVER,
	OPT_STACKS,
	OPT_STACKS_FILTER,
	OPT_KERNEL_STACKS,
	OPT_USER,
};

static const struct option g_long_opts[] = {
	{ "print-ascii", no_argument, 0, 'A' },
	{ "print-base64", no_argument, 0, 'b' },
	{ "bpf", optional_argument, 0, 'B' },
	{ "kmod", no_argument, 0, OPT_KMOD },
	{ "chisel", required_argument, 0, 'c' },
	{ "list-chisels", no_argument, 0, 'l' + 256 },
	{ "file-size", required_argument, 0, 'C' },
	{ "displayflt", no_argument, 0, 'd' },
	{ "debug", no_argument, 0, 'D' },
	{ "exclude-users", no_argument, 0, 'E' },
	{ "event-limit", required_argument, 0, 'e' },
	{ "fatfile", no_argument, 0, 'F' },
	{ "seconds", required_argument, 0, 'G' },
	{ "help", no_argument, 0, 'h' },
	{ "plugin", required_argument, 0, 'H' },
	{ "input", required_argument, 0, 'I' },
	{ "k8s-api", required_argument, 0, 'k' },
	{ "k8s-api-cert", required_argument, 0, 'K' },
	{ "mesos-api", required_argument, 0, 'm' },
	{ "chisel-info", required_argument, 0, 'i' },
	{ "json", no_argument, 0, 'j' },
	{ "list", no_argument, 0, 'l' },
	{ "list-events", no_argument, 0, 'L' },
	{ "list-markdown", no_argument, 0, OPT_LIST_MARKDOWN },
	{ "numevents", required_argument, 0, 'n' },
	{ "progress", no_argument, 0, 'P' },
	{ "print", required_argument, 0, 'p' },
	{ "quiet", no_argument, 0, 'q' },
	{ "resolve-ports", no_argument, 0, 'R' },
	{ "readfile", required_argument, 0, 'r' },
	{ "snaplen", required_argument, 0, 's' },
	{ "summary", no_argument, 0, 'S' },
	{ "timetype", required_argument, 0, 't' },
	{ "force-tracers-capture", no_argument, 0, 'T' },
	{ "suppress-comm", required_argument, 0, 'U' },
	{ "verbose", no_argument, 0, 'v' },
	{ "limit", required_argument, 0, 'W' },
	{ "writefile", required_argument, 0, 'w' },
	{ "print-hex", no_argument, 0, 'x' },
	{ "print-hex-ascii", no_argument, 0, 'X' },
	{ "compress", no_argument, 0, 'z' },
	{ "version", no_argument, 0, OPT_VERSION },
	{ "libs-version", no_argument, 0, OPT_LIBS_VERSION },
	{ "unbuffered", no_argument, 0, OPT_UNBUFFERED },
	{ "page-faults", no_argument, 0, OPT_PAGE_FAULTS },
	{ "exit-only", no_argument, 0, OPT_EXIT_ONLY },
	{ "buffer-bytes-per-cpu", required_argument, 0, OPT_BUFFER_BYTES },
	{ "recover", no_argument, 0, OPT_RECOVER },
	{ "stacks", no_argument, 0, OPT_STACKS },
	{ "stacks-filter", required_argument, 0, OPT_STACKS_FILTER },
	{ "kernel-stacks", no_argument, 0, OPT_KERNEL_STACKS },
	{ "user", required_argument, 0, OPT_USER },
	{ "large-environment", no_argument, 0, OPT_LARGE_ENV },
	{ "filter-proclist", no_argument, 0, OPT_FILTER_PROCLIST },
	{ "cri", required_argument, 0, OPT_NO_CRI },
	{ "cri-timeout", required_argument, 0, OPT_NO_CRI },
	{ "node-name", required_argument, 0, OPT_NO_K8S },
	{ "plugin-config-file", required_argument, 0, OPT_PLUGIN_CONFIG },
	FLEET_LONG_OPTS,
	FLIGHT_LONG_OPTS,
	{ 0, 0, 0, 0 },
};

/* one line on stderr for an option that cannot apply here, once per kind */
static void warn_no_effect(int *warned, const char *opt, const char *why)
{
	if (*warned)
		return;
	*warned = 1;
	fprintf(stderr, "sysdig: %s has no effect: %s\n", opt, why);
}

static int die(const char *msg)
{
	fprintf(stderr, "%s\n", msg);
	return 1;
}

/* strict integer parse; 0 on success */
static int parse_int(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	v = strtoll(s, &end, 10);
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int set_bufmode(struct cli_opts *o, enum render_bufmode m, int *set, int quirk_exit0)
{
	if (*set) {
		fprintf(stderr, "you cannot specify more than one output format\n");
		exit(quirk_exit0 ? 0 : 1);
	}
	*set = 1;
	o->render.bufmode = m;
	return 0;
}

/* join words with single spaces (malloc'd), NULL when there are none */
static char *join_words(char **w, int n)
{
	size_t len = 0;
	char *s;

	if (n <= 0)
		return NULL;
	for (int i = 0; i < n; i++)
		len += strlen(w[i]) + 1;
	s = malloc(len + 1);
	if (!s)
		return NULL;
	s[0] = 0;
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, w[i]);
	}
	return s;
}

/*
 * sysdig.run_app(args) of a chisel: once the capture is over, sysdig runs
 * again with args as its whole command line (split on spaces, double
 * quotes group words and are removed), e.g. around's
 * "-F -rFILE -wDUMP (evt.around[...]=1000 and thread.tid=5) or ...".
 * We exec ourselves with it; the new run shares stdout and the exit status.
 */
static int run_again(const char *args)
{
	size_t n = strlen(args), argc = 1;
	char **argv = calloc(n + 2, sizeof(*argv));
	char *buf = malloc(n + 1), *w = buf;
	const char *p = args;

	if (!argv || !buf)
		return die("out of memory");
	argv[0] = "sysdig";
	while (*p) {
		int quoted = 0;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		argv[argc++] = w;
		while (*p && (quoted || *p != ' ')) {
			if (*p == '"')
				quoted = !quoted;
			else
				*w++ = *p;
			p++;
		}
		*w++ = 0;
	}
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	execv("/proc/self/exe", argv);
	fprintf(stderr, "sysdig.run_app: cannot run again: %s\n", strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	static struct cli_opts o;
	int bufmode_set = 0, list = 0, list_md = 0, list_ev = 0, list_chisels = 0;
	const char *chisel_info = NULL;
	int warned_u = 0, warned_k8s = 0, warned_mesos = 0, warned_cri = 0;
	char *format = NULL;
	int c;

	argv[0] = "sysdig";	/* getopt messages read "sysdig: ..." */
	/* `-- CMD ARGS...`: the options and the filter end there */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			o.cmd = argv + i + 1;
			argc = i;
			break;
		}
	o.snaplen = 80;
	o.render = (struct render_opts)RENDER_OPTS_DEFAULT;
	o.driver = SCAP_DRIVER_AUTO;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "AbB::c:C:dDEe:FG:hH:I:i:jk:K:lLm:M:n:Pp:qRr:Ss:t:TU:uvW:w:xXz",
				g_long_opts, NULL)) != -1) {
		int64_t v;

		switch (c) {
		case 'A': set_bufmode(&o, RB_ASCII, &bufmode_set, 1); break;
		case 'b': set_bufmode(&o, RB_BASE64, &bufmode_set, 1); break;
		case 'x': set_bufmode(&o, RB_HEX, &bufmode_set, 0); break;
		case 'X': set_bufmode(&o, RB_HEXASCII, &bufmode_set, 0); break;
		case 'B': o.driver = SCAP_DRIVER_BPF; break;
		case OPT_KMOD: o.driver = SCAP_DRIVER_KMOD; break;
		case 'c':
			if (strcmp(optarg, "l") == 0) {
				list_chisels = 1;
				break;
			}
			if (o.nchisels >= MAX_CHISELS)
				return die("too many chisels");
			/* its argument string is taken from the remaining words */
			o.chisels[o.nchisels++].name = optarg;
			break;
		case 'l' + 256: list_chisels = 1; break;
		case 'C':
			if (parse_int(optarg, &v) || v <= 0)
				return die("invalid file size");
			o.file_size_mb = v;
			break;
		case 'G':
			if (parse_int(optarg, &v) || v <= 0)
				return die("invalid duration");
			o.rotate_secs = v;
			break;
		case 'W':
			if (parse_int(optarg, &v) || v <= 0)
				return die("invalid limit");
			o.file_limit = v;
			break;
		case 'e':
			if (parse_int(optarg, &v) || v <= 0)
				return die("invalid event limit");
			o.events_per_file = v;
			break;
		case 'd': o.display_filter = 1; break;
		case 'D': o.debug = 1; break;
		case 'E': o.exclude_users = 1; break;
		case 'T': o.force_tracers = 1; break;
		case 'u': warn_no_effect(&warned_u, "-u", "an undocumented no-op of sysdig 0.29.3"); break;
		case 'k': case 'K': case OPT_NO_K8S:
			warn_no_effect(&warned_k8s, c == 'k' ? "-k" : c == 'K' ? "-K" : "--node-name",
				       "Kubernetes metadata is not collected by this build (k8s.* fields stay empty)");
			break;
		case 'm':
			warn_no_effect(&warned_mesos, "-m",
				       "Mesos metadata is not collected by this build (mesos.* fields stay empty)");
			break;
		case OPT_NO_CRI:
			warn_no_effect(&warned_cri, "--cri",
				       "this build does not query CRI runtimes (container metadata comes from the cgroups)");
			break;
		case 'U':
			if (o.nsuppress >= MAX_SUPPRESS)
				return die("too many -U comms");
			o.suppress[o.nsuppress++] = optarg;
			break;
		case OPT_LARGE_ENV: o.large_env = 1; break;
		case OPT_FILTER_PROCLIST: o.filter_proclist = 1; break;
		case 'H':
		case 'I':
		case OPT_PLUGIN_CONFIG:
			if (plugin_option(&o, c == 'H' ? 'H' : c == 'I' ? 'I' : 'C', optarg) < 0)
				return 1;
			break;
		case 'F': o.fatfile = 1; break;
		case 'h': print_help(stdout); return 0;
		case 'i': chisel_info = optarg; break;
		case 'j': o.json = 1; break;
		case 'l': list = 1; break;
		case 'L': list_ev = 1; break;
		case OPT_LIST_MARKDOWN: list_md = 1; break;
		case 'M':
			if (parse_int(optarg, &v) || v <= 0)
				return die("invalid -M argument");
			o.max_secs = (uint64_t)v;
			break;
		case 'n':
			if (parse_int(optarg, &v) || v <= 0)
				return die("can't parse the -n argument, make sure it's a number");
			o.max_events = (uint64_t)v;
			break;
		case 'P': o.progress = 1; break;
		case 'p':
			if (!strcmp(optarg, "p")) {
				puts(DEFAULT_FORMAT);
				return 0;
			}
			if (!strcmp(optarg, "c") || !strcmp(optarg, "container")) {
				o.print_container = 1;
				format = NULL;
				break;
			}
			if (!strcmp(optarg, "k") || !strcmp(optarg, "kubernetes")) {
				o.print_container = 1;
				format = PK_FORMAT;
				break;
			}
			if (!strcmp(optarg, "m") || !strcmp(optarg, "mesos")) {
				o.print_container = 1;
				format = PM_FORMAT;
				break;
			}
			format = optarg;
			break;
		case 'q': o.quiet = 1; break;
		case 'R': render_resolve_ports(1); break;
		case 'r':
			if (o.ninputs >= MAX_INPUTS)
				return die("too many input files");
			o.inputs[o.ninputs++] = optarg;
			break;
		case 's':
			if (parse_int(optarg, &v) || v <= 0)
				return die("invalid snaplen");
			o.snaplen = (uint32_t)v;
			o.snaplen_set = 1;
			break;
		case 'S': o.summary = 1; break;
		case 't':
			if (strlen(optarg) != 1 || !strchr("hardD", optarg[0]))
				return die("invalid modifier for flag -t");
			o.render.timemode = optarg[0];
			break;
		case 'v': o.verbose = 1; break;
		case 'w': o.write_path = optarg; break;
		case 'z': o.compress = 1; break;
		case OPT_VERSION:
			printf("sysdig-c version %s (compatible with sysdig %s)\n", SYSDIGC_VERSION,
			       SYSDIG_VERSION);
			return 0;
		case OPT_LIBS_VERSION:
			printf("sysdig-c libscap/libsinsp version %s (no falcosecurity/libs inside)\n",
			       SYSDIGC_VERSION);
			return 0;
		case OPT_UNBUFFERED: o.unbuffered = 1; break;
		case OPT_PAGE_FAULTS: o.page_faults = 1; break;
		case OPT_EXIT_ONLY: o.exit_only = 1; break;
		case OPT_RECOVER: o.recover = 1; break;
		case OPT_STACKS: o.stacks = 1; break;
		case OPT_STACKS_FILTER:
			o.stacks = 1;
			o.stacks_filter = optarg;
			break;
		case OPT_KERNEL_STACKS: o.stacks = o.kernel_stacks = 1; break;
		case OPT_USER: o.cmd_user = optarg; break;
		case OPT_BUFFER_BYTES:
			if (parse_int(optarg, &v) || v <= 0 || v > (1LL << 30))
				return die("invalid --buffer-bytes-per-cpu (1 to 1073741824)");
			o.buffer_bytes = (uint64_t)v;
			break;
		default:
			if (c == OPT_BENCH) {
				if (parse_int(optarg, &v) || v <= 0 || v > 1000)
					return die("invalid --bench N: a number of runs from 1 to 1000");
				o.bench_runs = (int)v;
				break;
			}
			if (c >= OPT_FLIGHT_BASE && c < OPT_FLIGHT_END) {
				if (flight_parse_opt(&o.flight, c, optarg))
					return 1;
				break;
			}
			if (c >= OPT_FLEET_BASE && c < OPT_FLEET_END) {
				if (fleet_parse_opt(&o.fleet, c, optarg))
					return 1;
				break;
			}
			return 1;	/* getopt printed the message */
		}
	}
	{
		int r = plugins_setup(&o);

		if (r <= 0) {
			plugin_unload_all();
			return r < 0 ? 1 : 0;
		}
	}
	if (list || list_md) {
		list_fields(stdout, o.verbose, list_md);
		return 0;
	}
	if (list_ev) {
		list_events(stdout);
		return 0;
	}
	if (list_chisels)
		return chisel_list(stdout) < 0 ? 1 : 0;
	if (chisel_info)
		return chisel_describe(stdout, chisel_info) < 0 ? 1 : 0;

	/* the remaining words: chisel arguments, then the filter */
	char **words = argv + optind;
	int nwords = argc - optind;
	int first = 0;

	for (int i = 0; i < o.nchisels; i++) {
		char err[512] = "";
		char *rest = join_words(words + first, nwords - first);
		int r = chisel_consumes_next(o.chisels[i].name, first < nwords ? words[first] : NULL,
					     rest ? rest : "", err, sizeof(err));

		free(rest);
		if (r < 0)
			return die(err[0] ? err : "invalid chisel arguments");
		o.chisels[i].args = NULL;
		if (r == 1)
			o.chisels[i].args = words[first++];
	}
	o.filter = join_words(words + first, nwords - first);
	if (o.cmd && !o.cmd[0])
		return die("--: no command to run");
	if (o.cmd && (o.ninputs || o.source))
		return die("-- CMD: traces a command live, not with -r or -I");
	if (o.cmd_user && !o.cmd)
		return die("--user: only with -- CMD");

	if (o.write_path || fleet_enabled(&o.fleet))
		o.quiet = 1;
	if (o.nchisels == 0 && !o.verbose)
		o.render.truncate = 1;
	else
		o.render.truncate = 0;
	o.render.json = o.json;
	if (o.print_container && !format) {
		o.format = strdup(PC_FORMAT);
	} else if (format) {
		o.format = strdup(format);
		format_unescape(o.format);
	}
	c = o.bench_runs ? bench_run(&o) : run_capture(&o);
	plugin_unload_all();
	if (!c && o.rerun)
		return run_again(o.rerun);
	return c;
}
