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

/* words of text, each followed by a space, wrapped at 120 columns with a
 * 30-column hanging indent */
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
		if (col + n > 120 && col > 30) {
			fprintf(out, "\n%30s", "");
			col = 30;
		}
		fprintf(out, "%s ", word);
		col += n + 1;
	}
	fputc('\n', out);
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
	fputs("sysdig version " SYSDIG_VERSION "\n"
	      "Usage: sysdig [options] [-p <output_format>] [filter]\n\n"
	      "Options:\n"
	      " -A, --print-ascii     print only the printable part of data buffers\n"
	      " -b, --print-base64    print data buffers in base64\n"
	      " -x, --print-hex       print data buffers as a hex dump\n"
	      " -X, --print-hex-ascii print data buffers as a hex dump with ASCII\n"
	      " -j, --json            one JSON object per event\n"
	      " -p, --print=FMT       output format (%field, %Nfield, leading * keeps\n"
	      "                       events with missing fields); -pc container preset,\n"
	      "                       -pp prints the default format\n"
	      " -c, --chisel NAME [ARGS]  run a chisel (repeatable)\n"
	      " -cl, --list-chisels   list the available chisels\n"
	      " -i, --chisel-info NAME  describe a chisel\n"
	      " -l, --list            list the fields (-lv: with types)\n"
	      " --list-markdown       list the fields as markdown\n"
	      " -L, --list-events     list the event types\n"
	      " -r, --read FILE       read events from a capture file (repeatable)\n"
	      " -w, --write FILE      write the (filtered) events to a capture file\n"
	      " -z, --compress        gzip the -w file\n"
	      " -F, --fatfile         with -w, also keep state events the filter drops\n"
	      " -C, --file-size N     with -w, rotate every N MB\n"
	      " -G, --seconds N       with -w, rotate every N seconds\n"
	      " -W, --limit N         with -C/-G, number of files\n"
	      " -e, --event-limit N   with -w, events per file\n"
	      " -n, --numevents N     stop after N events\n"
	      " -M N                  stop after N seconds of capture time\n"
	      " -s, --snaplen N       bytes of I/O buffers captured live (default 80)\n"
	      " -B, --bpf             live capture with the eBPF probe\n"
	      " --kmod                live capture with the kernel module\n"
	      " --page-faults         also capture page faults (live)\n"
	      " --exit-only           (eBPF) write enter events at syscall exit: cheaper,\n"
	      "                       but evt.latency is 0 and blocked calls show late\n"
	      " --recover             -r: skip damaged data to the next valid event, say\n"
	      "                       what was skipped (exit status 1 if anything was)\n"
	      " --buffer-bytes-per-cpu N  live ring buffer size per CPU (default 8 MiB)\n"
	      " --metrics-listen [ADDR:]PORT  serve Prometheus metrics at /metrics (docs/fleet.md)\n"
	      " --metrics-labels F,...  per-process labels (default proc.name)\n"
	      " --metrics-max-series N  series kept at most (default 10000)\n"
	      " --metrics-top N       only the N largest series of a family per scrape\n"
	      " --export clickhouse://HOST:PORT/DB.TABLE  stream the events into ClickHouse\n"
	      " --hostname NAME       host column of --export (default: this machine's name)\n"
	      " --export-batch N      rows per insert (default 50000)\n"
	      " --export-queue N      batches waiting at most, then dropped and counted (default 8)\n"
	      " -d, --displayflt      apply the filter after state processing\n"
	      " -D, --debug           also print internal events\n"
	      " -q, --quiet           do not print events\n"
	      " -S, --summary         print event counts at the end\n"
	      " -t, --timetype h|a|r|d|D  time column format\n"
	      " -v, --verbose         do not truncate buffers; print statistics\n"
	      " -P, --progress        print progress on stderr when reading files\n"
	      " -R, --resolve-ports   show port names\n"
	      " --unbuffered          flush after every event\n"
	      " -h, --help            this text\n"
	      " --version             print the version\n", out);
}
