/*
 * list.c - the listings of the sysdig CLI that take no input: fields (-l,
 * -lv, --list-markdown), event types (-L) and the help text (-h).
 * Field data comes from the catalogue of fields.h, events from the
 * generated event table.
 */
#include <string.h>
#include "cli.h"
#include "event_table.h"
#include "fields.h"
#include "plugin.h"

#define FIELD_HIDDEN_FLAG 8	/* fields_internal.h: not listed by -l */

struct class_info {
	const char *cls;
	const char *md_name;
	const char *description;
};

static const struct class_info g_classes[] = {
	{ "evt (All event types)", "evt", "Fields available for every event type." },
	{ "evt (Syscall events only)", "evt", "Fields of system call events; evt.arg gives access to each argument of the call, e.g. evt.arg.fd." },
	{ "process", "process", "The process and thread that generated the event." },
	{ "user", "user", "The user the process runs as." },
	{ "group", "group", "The group the process runs as." },
	{ "container", "container", "The container of the process; 'host' when the process runs on the host." },
	{ "fd", "fd", "The file descriptor the event refers to (argument, result or last used fd)." },
	{ "syslog", "syslog", "Messages written to /dev/log." },
	{ "fdlist", "fdlist", "The file descriptor lists of poll-like events." },
	{ "k8s", "k8s", "Kubernetes metadata (not collected by this tool)." },
	{ "mesos", "mesos", "Mesos metadata (not collected by this tool)." },
	{ "span", "span", "Distributed tracing spans." },
	{ "evtin", "evtin", "Distributed tracing spans the event is part of." },
};

static const char *const g_type_names[] = {
	"NONE", "INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64",
	"CHARBUF", "BYTEBUF", "ERRNO", "SOCKADDR", "SOCKTUPLE", "FD", "PID", "FDLIST", "FSPATH",
	"SYSCALLID", "SIGTYPE", "RELTIME", "ABSTIME", "PORT", "L4PROTO", "SOCKFAMILY", "BOOL",
	"IPV4ADDR", "DYNAMIC", "FLAGS8", "FLAGS16", "FLAGS32", "UID", "GID", "DOUBLE", "SIGSET",
	"CHARBUFARRAY", "CHARBUF_PAIR_ARRAY", "IPV4NET", "IPV6ADDR", "IPV6NET", "IPADDR", "IPNET",
	"MODE", "FSRELPATH",
};

static const char *type_name(uint8_t t)
{
	return t < sizeof(g_type_names) / sizeof(g_type_names[0]) ? g_type_names[t] : "UNKNOWN";
}

/* words of text, each followed by a space, wrapped so that no line (its
 * trailing space included) passes 120 columns, with a 30-column hanging
 * indent: sysdig 0.29.3's layout */
static void print_wrapped(FILE *out, const char *prefix, const char *text)
{
	size_t col = 30;
	char word[512];
	const char *p;

	if (prefix) {
		fputs(prefix, out);
		col += strlen(prefix);
	}
	for (p = text; *p;) {
		size_t n = 0;

		while (*p == ' ')
			p++;
		while (p[n] && p[n] != ' ' && n < sizeof(word) - 1)
			n++;
		if (!n)
			break;
		memcpy(word, p, n);
		word[n] = 0;
		p += n;
		if (col + n + 1 > 120 && col > 30) {
			fprintf(out, "\n%30s", "");
			col = 30;
		}
		fprintf(out, "%s ", word);
		col += n + 1;
	}
	fputc('\n', out);
}

/* the fields of the loaded plugins, one class per plugin, in the layout
 * of sysdig 0.29.3 (no class description) */
static void list_plugin_fields(FILE *out, int verbose, int markdown)
{
	int listed = 0;

	for (int i = 0; i < plugin_count(); i++) {
		const struct plugin *p = plugin_at(i);

		if (!p->nfields)
			continue;
		if (markdown && listed++)
			fputc('\n', out);
		if (markdown)
			fprintf(out, "## Field Class: %s (plugin)\n\n\n\nName | Type | Description\n:----|:-----|:-----------\n",
				p->name);
		else
			fprintf(out, "-------------------------------\n%-30s%s (plugin)\n\n", "Field Class:", p->name);
		for (int k = 0; k < p->nfields; k++) {
			const struct plugin_field *f = &p->fields[k];
			const char *type = f->type == PLUGIN_FIELD_UINT64 ? "UINT64" : "CHARBUF";
			char text[2048];

			if (markdown) {
				fprintf(out, "`%s` | %s | %s\n", f->name, type, f->desc);
				continue;
			}
			if (strlen(f->name) >= 30)
				fprintf(out, "%s\n%30s", f->name, "");
			else
				fprintf(out, "%-30s", f->name);
			snprintf(text, sizeof(text), "%s%s%s%s", verbose ? "(Type: " : "", verbose ? type : "",
				 verbose ? ") " : "", f->desc);
			print_wrapped(out, NULL, text);
		}
		if (!markdown)
			fputc('\n', out);
	}
}

void list_fields(FILE *out, int verbose, int markdown)
{
	const struct field_info *cat;
	size_t n = field_catalogue(&cat);

	for (size_t c = 0; c < sizeof(g_classes) / sizeof(g_classes[0]); c++) {
		const struct class_info *ci = &g_classes[c];

		if (markdown) {
			fprintf(out, "## Field Class: %s\n\n%s\n\nName | Type | Description\n:----|:-----|:-----------\n",
				ci->md_name, ci->description);
		} else {
			fprintf(out, "-------------------------------\n%-30s%s\n", "Field Class:", ci->cls);
			fprintf(out, "%-30s", "Description:");
			print_wrapped(out, NULL, ci->description);
			fputc('\n', out);
		}
		for (size_t k = 0; k < n; k++) {
			char prefix[96], text[2048];

			if (strcmp(cat[k].cls, ci->cls) || (cat[k].flags & FIELD_HIDDEN_FLAG))
				continue;
			if (markdown) {
				fprintf(out, "`%s` | %s | %s\n", cat[k].name, type_name(cat[k].type),
					cat[k].description);
				continue;
			}
			if (strlen(cat[k].name) >= 30)
				fprintf(out, "%s\n%30s", cat[k].name, "");
			else
				fprintf(out, "%-30s", cat[k].name);
			prefix[0] = 0;
			if (verbose)
				snprintf(prefix, sizeof(prefix), "(Type: %s) %s", type_name(cat[k].type),
					 (cat[k].flags & FIELD_FILTER_ONLY) ? "(FILTER ONLY) " : "");
			snprintf(text, sizeof(text), "%s%s", prefix, cat[k].description);
			print_wrapped(out, NULL, text);
		}
		fputc('\n', out);
	}
	list_plugin_fields(out, verbose, markdown);
}

void list_events(FILE *out)
{
	for (int t = 0; t < PPM_EVENT_MAX; t++) {
		const struct ppm_event_info *ei = &g_event_info[t];

		if (!ei->name || (ei->flags & (EF_UNUSED | EF_OLD_VERSION)) ||
		    (ei->category & EC_INTERNAL))
			continue;
		fprintf(out, "%c %s(", ppm_event_is_enter((uint16_t)t) ? '>' : '<', ei->name);
		for (uint32_t j = 0; j < ei->nparams; j++)
			fprintf(out, "%s%s %s", j ? ", " : "", type_name(ei->params[j].type),
				ei->params[j].name);
		fputs(")\n", out);
	}
}

void print_help(FILE *out)
{
	static const char *const text[] = {
		"sysdig-c version " SYSDIGC_VERSION " (compatible with sysdig " SYSDIG_VERSION ")",
		"Usage: sysdig [options] [-p <output_format>] [filter]",
		"       sysdig [options] [filter] -- <command> [args...]   [sysdig-c]",
		"",
		"Options marked [sysdig-c] are additions of this implementation; every other",
		"option behaves as in sysdig " SYSDIG_VERSION ".",
		"",
		"Options:",
		" -A, --print-ascii  Print only the printable part of data buffers and keep",
		"                    their line ends: handy to read text protocols.",
		" -b, --print-base64 Print data buffers in base64 (for binary data carried",
		"                    over text, e.g. with -j).",
		" -B, --bpf          Capture live with the eBPF driver (the default when the",
		"                    kernel module is not loaded). The probe is built into this",
		"                    binary: a probe argument (-B<probe>, --bpf=<probe>) or",
		"                    SYSDIG_BPF_PROBE is accepted and not needed.",
		" --kmod             [sysdig-c] Capture live with the kernel module (the",
		"                    sysdigc module must be loaded).",
		" --buffer-bytes-per-cpu <bytes>",
		"                    [sysdig-c] Size of the live ring buffer of each CPU",
		"                    (default 8 MiB). Bigger rings drop fewer events in bursts.",
		" --recover          [sysdig-c] With -r: skip damaged data to the next valid",
		"                    event, say what was skipped (exit status 1 if anything was).",
		" --metrics-listen [ADDR:]PORT",
		"                    [sysdig-c] Serve Prometheus metrics at /metrics",
		"                    (docs/fleet.md).",
		" --metrics-labels F,...",
		"                    [sysdig-c] Per-process metric labels (default proc.name).",
		" --metrics-max-series N",
		"                    [sysdig-c] Series kept at most (default 10000).",
		" --metrics-top N    [sysdig-c] Only the N largest series of a family per scrape.",
		" --export clickhouse://HOST:PORT/DB.TABLE",
		"                    [sysdig-c] Stream the events into ClickHouse.",
		" --hostname NAME    [sysdig-c] Host column of --export (default: this machine).",
		" --export-batch N   [sysdig-c] Rows per insert (default 50000).",
		" --export-queue N   [sysdig-c] Batches waiting at most, then dropped and counted",
		"                    (default 8).",
		" --flight-recorder SIZE[,SECONDS]",
		"                    [sysdig-c] With -w FILE: keep the last SIZE bytes (k, M, G)",
		"                    of events, and at most the last SECONDS, in memory; write",
		"                    them to FILE0, FILE1, ... on SIGUSR1, after a --trigger and",
		"                    at the end. The capture goes on after a dump.",
		" --trigger FILTER   [sysdig-c] With --flight-recorder: dump once an event",
		"                    matches FILTER (and its --trigger-window is over).",
		" --trigger-window SECONDS",
		"                    [sysdig-c] Events after a trigger kept in its dump (default 0).",
		" --bench N          [sysdig-c] With -r: run the pipeline N times for plain",
		"                    parsing, the filter and each -c chisel; print CPU seconds",
		"                    (mean, variance) and ns per event.",
		" -c <chiselname> <chiselargs>, --chisel <chiselname> <chiselargs>",
		"                    Run a chisel. Its arguments, when it takes any, follow the",
		"                    name as the next word(s) of the command line. Repeatable.",
		" -cl, --list-chisels",
		"                    List the chisels found in ./chisels, ~/.chisels and the",
		"                    installed chisel directory, by category.",
		" -C <file_size>, --file-size=<file_size>",
		"                    With -w: before writing an event, if the current file is",
		"                    already file_size million bytes (10^6) or more, close it",
		"                    and go on in a new one. The files are named after -w with",
		"                    a counter appended (0, 1, 2...). See -W for a ring.",
		" --cri <path>       Path of a CRI runtime socket for container metadata. This",
		"                    build reads container ids from cgroups and does not query",
		"                    CRI runtimes: the option is accepted with a warning.",
		" --cri-timeout <timeout_ms>",
		"                    Timeout of CRI queries (accepted with a warning, as --cri).",
		" -d, --displayflt   Apply the filter after the state engine has seen the",
		"                    event instead of before. Slower, but events the filter",
		"                    drops still update the state (e.g. fd names).",
		" -D, --debug        Also capture sysdig itself, show internal events, and log",
		"                    what the capture does on stderr.",
		" -E, --exclude-users",
		"                    Do not build the user and group tables, and leave them out",
		"                    of -w files. user.name, group.name and similar fields are",
		"                    then empty; it avoids storing account data.",
		" -e <num_events>, --event-limit=<num_events>",
		"                    With -w: start a new file every num_events events. With -W,",
		"                    the files form a ring of W files.",
		" -F, --fatfile      With -w and a filter: also write the events the filter",
		"                    drops but that change the state (clone, open, close...),",
		"                    marked so that readers use them and do not show them. The",
		"                    file then rebuilds the full state; it is bigger.",
		" --filter-proclist  Apply the filter to the process table written at the start",
		"                    of a -w file too, so it holds only matching processes.",
		" -G <num_seconds>, --seconds=<num_seconds>",
		"                    With -w: start a new file every num_seconds seconds. The -w",
		"                    name may hold strftime(3) conversions (e.g. %H%M%S); without",
		"                    any, a counter is appended. With -W, a ring of W files.",
		" -h, --help         Print this text.",
		" -H <pluginname>[:<initconfig>], --plugin <pluginname>[:<initconfig>]",
		"                    Register a plugin (a name looked up in the plugin",
		"                    directories, or a path to a .so), passing it the init",
		"                    config. Its format is the plugin's own.",
		" -I <pluginname>[:<openparams>], --input <pluginname>[:<openparams>]",
		"                    Capture from a source plugin instead of the kernel, opening",
		"                    it with openparams (the plugin's own format). Without -H,",
		"                    every plugin of the plugin directories is registered first:",
		"                    SYSDIG_PLUGIN_DIR (';'-separated) and the installed",
		"                    plugin directory.",
		" -Il                List the registered plugins (without -H: those found in the",
		"                    plugin directories), with their fields.",
		" -i <chiselname>, --chisel-info <chiselname>",
		"                    Describe a chisel and its arguments.",
		" -j, --json         Print events as JSON objects, one per line. Data buffers are",
		"                    encoded as -A/-b/-x/-X say.",
		" -k <url>, --k8s-api=<url>",
		"                    Kubernetes API server. This build does not collect",
		"                    Kubernetes metadata: accepted with a warning, k8s.* fields",
		"                    stay empty. Also -K/--k8s-api-cert and --node-name.",
		" -K <bt_file> | <cert_file>:<key_file[#password]>[:<ca_cert_file>], --k8s-api-cert=...",
		"                    Credentials for the Kubernetes API server (see -k).",
		" --node-name=<name> Node name used to select pods on the API server (see -k).",
		" -L, --list-events  List the event types the engine knows, with their",
		"                    parameters.",
		" -l, --list         List the fields usable in filters and -p formats; -lv adds",
		"                    types and details.",
		" --libs-version     Print the version of the capture libraries of this build.",
		" --large-environment",
		"                    Read the whole environment of processes from /proc when",
		"                    the driver's copy is cut at its limit.",
		" --list-markdown    Like -l, as markdown.",
		" -m <url[,marathon_url]>, --mesos-api=<url[,marathon_url]>",
		"                    Mesos API server. Not collected by this build: accepted",
		"                    with a warning, mesos.* fields stay empty.",
		" -M <num_seconds>   Stop after num_seconds seconds of capture time.",
		" -n <num>, --numevents=<num>",
		"                    Stop after num events.",
		" --page-faults      Also capture page faults (live).",
		" --stacks           [sysdig-c] Take the user call stack of the events",
		"                    of the filter (%evt.stack: symbolised, also in -w files).",
		" --stacks-filter <filter>",
		"                    [sysdig-c] Take stacks for the events of <filter> only.",
		" --kernel-stacks    [sysdig-c] Also take the kernel stack (%evt.kstack).",
		" --exit-only        [sysdig-c] (eBPF) Write enter events at syscall exit:",
		"                    cheaper, but evt.latency is 0 and blocked calls show late.",
		" -- <command> [args...]",
		"                    [sysdig-c] Run command and capture it and its descendants",
		"                    (selected in the driver) from its execve to its exit; exit",
		"                    with its exit code. --user <name>: run it as name (root).",
		" --plugin-config-file <file>",
		"                    Load plugins as the plugins section of a Falco style yaml",
		"                    file says (library_path, init_config, open_params;",
		"                    load_plugins picks some). Not to be mixed with -H or -I.",
		" -P, --progress     Print the progress of reading files on stderr.",
		" -p <output_format>, --print=<output_format>",
		"                    The format of each event line (see \"Output format\" below).",
		"                    -pc (-pcontainer), -pk (-pkubernetes) and -pm (-pmesos) use",
		"                    the container, kubernetes and mesos presets; -pp prints the",
		"                    default format.",
		" -q, --quiet        Do not print events (e.g. when writing with -w).",
		" -R, --resolve-ports",
		"                    Show port numbers as service names (/etc/services), in",
		"                    evt.info, fd.name and the fd.*proto fields.",
		" -r <readfile>, --readfile=<readfile>, --read=<readfile>",
		"                    Read events from a capture file (plain or gzip). Repeat to",
		"                    read several files one after the other.",
		" -S, --summary      At the end, print the number of events of each type.",
		" -s <len>, --snaplen=<len>",
		"                    Bytes of each I/O buffer the live driver copies (default",
		"                    80). Large values make big captures.",
		" -t <timetype>, --timetype=<timetype>",
		"                    The time column: h human readable (default), a absolute",
		"                    (seconds.nanoseconds since the epoch), r relative to the",
		"                    first event, d the latency of the thread's last system call",
		"                    (enter to exit), D delta from the previous printed event.",
		" -T, --force-tracers-capture",
		"                    Capture writes to /dev/null (sysdig tracers) with 4096",
		"                    bytes of data from the start; without it, from the",
		"                    first tracer write recognised (live only).",
		" --unbuffered       Flush the output after every event (costs CPU; useful when",
		"                    piping into a script).",
		" -U <comm>, --suppress-comm=<comm>",
		"                    Leave out every event of processes named comm and of their",
		"                    descendants (repeatable). Live, the process table loses",
		"                    them too.",
		" -v, --verbose      Print whole data buffers (up to the snaplen) instead of the",
		"                    first 40 characters, and statistics at the end.",
		" --version          Print the version.",
		" -w <writefile>, --writefile=<writefile>, --write=<writefile>",
		"                    Write the events (those the filter keeps) to a capture file.",
		" -W <num>, --limit <num>",
		"                    With -C, -e or -G: keep at most num files, overwriting",
		"                    the oldest (a ring).",
		" -x, --print-hex    Print data buffers as hex.",
		" -X, --print-hex-ascii",
		"                    Print data buffers as hex and ASCII.",
		" -z, --compress     With -w, gzip the file.",
		"",
		"Output format:",
		"",
		"By default each event is one line:",
		"",
		" %evt.num %evt.outputtime %evt.cpu %proc.name (%thread.tid) %evt.dir %evt.type %evt.info",
		"",
		" evt.num         the number of the event, from 1",
		" evt.outputtime  its time, as -t says",
		" evt.cpu         the CPU it happened on",
		" proc.name       the process that caused it",
		" thread.tid      the thread id (the pid of single thread processes)",
		" evt.dir         > for the enter of a system call, < for its exit",
		" evt.type        the event name, e.g. open or read",
		" evt.info        its arguments, name=value",
		"",
		"-p takes any text with fields of 'sysdig -l' in it, as %field or",
		"%field[arg]; %Nfield pads a field to N columns. A format that starts with",
		"'*' prints every event; otherwise an event is left out when a field of the",
		"format does not exist for it. \\n, \\t and \\\\ are escapes.",
		"",
		"With -pc or -pcontainer the format is:",
		"",
		" %evt.num %evt.outputtime %evt.cpu %container.name (%container.id) %proc.name (%thread.tid:%thread.vtid) %evt.dir %evt.type %evt.info",
		"",
		"-pk (-pkubernetes) shows %k8s.pod.name and -pm (-pmesos) %mesos.task.name",
		"in place of %container.name.",
		"",
		"Events read from a source plugin (-I) print as:",
		"",
		" %evt.num %evt.datetime.s [%evt.pluginname] %evt.plugininfo",
		"",
		"Filters:",
		"",
		"A filter keeps the events for which it is true. It compares fields with",
		"values and combines the comparisons:",
		"",
		" field op value   ops: = != < <= > >= contains icontains startswith",
		"                  endswith glob pmatch in intersects (value lists in",
		"                  parentheses: fd.port in (80, 443))",
		" exists           field exists, e.g. fd.name exists",
		" and, or, not, ( ) to combine",
		"",
		"Values with spaces or special characters go in quotes. Examples:",
		" proc.name=cat and evt.type=open",
		" fd.type=ipv4 and not fd.sport in (22, 80)",
		" evt.type=write and evt.buffer contains \"password\"",
		"",
		"Examples:",
		"",
		" Capture all the events of the live system and print them",
		"   $ sysdig",
		"",
		" Capture all the events of the live system into a file",
		"   $ sysdig -w dumpfile.scap",
		"",
		" Read events from a file and print them",
		"   $ sysdig -r dumpfile.scap",
		"",
		" Print the open system calls of cat",
		"   $ sysdig proc.name=cat and evt.type=open",
		"",
		" Print the names of the files cat opens",
		"   $ sysdig -p\"%evt.arg.name\" proc.name=cat and evt.type=open",
		"",
		" Keep the last hour of activity in 60 files of one minute",
		"   $ sysdig -w trace.scap -G 60 -W 60",
		"",
		" Top processes by network I/O (a chisel)",
		"   $ sysdig -c topprocs_net",
		"",
		" List the plugins, then capture from the source plugin 'dummy'",
		"   $ sysdig -Il",
		"   $ sysdig -H dummy:'{\"jitter\":50}' -I dummy:'{\"start\":1,\"maxEvents\":10}'",
	};

	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		fprintf(out, "%s\n", text[i]);
}
