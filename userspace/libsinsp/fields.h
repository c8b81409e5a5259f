/*
 * fields.h - filter/output fields (evt.*, proc.*, thread.*, fd.*, user.*, ...).
 *
 * A field reference ("fd.name", "evt.arg.flags", "proc.aname[2]") is parsed
 * once into a struct field_ref; field_extract() then evaluates it on an
 * event without allocating.  The formatter (-p), the filter compiler and the
 * chisel runtime all use this one extractor, so a field means the same thing
 * everywhere.  Field catalogue: fields_catalogue.c (docs/fields.md), rendering: docs/filters.md.
 */
#ifndef FIELDS_H
#define FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include "sinsp.h"

#define FIELD_STRBUF_SIZE 8192

/* field flags of the catalogue entries (fields_catalogue.c) */
#define FIELD_FILTER_ONLY 1
#define FIELD_PRINT_ONLY 2
#define FIELD_REQUIRES_ARG 4
/* set by field_parse: only the name was consumed although text follows it
 * (the reference's -p then prints that text again, from the name on) */
#define FIELD_NAME_ONLY 16
/* set by the filter compiler: the value the reference's filters see (some
 * are set by its parser only after the filter ran: fd.name_changed) */
#define FIELD_IN_FILTER 32

struct field_def;		/* catalogue entry (fields.c) */

struct field_ref {
	const struct field_def *def;
	int id;			/* field id inside fields.c */
	uint8_t type;		/* PT_* value type of the field, as -lv shows it */
	uint32_t flags;		/* FIELD_* */
	/* argument: "[N]" index or ".name"/"[name]" string */
	int has_arg;
	int64_t arg_index;
	char arg_name[64];
	char name[96];		/* full text as written, e.g. "evt.arg.flags" */
	uint64_t state;		/* per-reference memory of stateful fields
				 * (evt.deltatime, evt.latency.human); starts 0 */
	int plugin, plugin_field;	/* id FIELD_ID_PLUGIN: plugin.h indexes */
};

/* field_ref.id of a field of a loaded plugin (def is NULL then) */
#define FIELD_ID_PLUGIN (-2)

/* An extracted value.  str points into the event, the state or buf; it is
 * valid until the next extraction into the same struct. */
struct field_value {
	uint8_t type;		/* PT_* of the value */
	int64_t i;		/* integers, bools, errno, fd, pid, times */
	uint64_t u;
	double d;
	const char *str;	/* string / buffer bytes */
	uint32_t len;		/* bytes of str */
	uint8_t ip[16];		/* PT_IPV4ADDR (4 bytes) / PT_IPV6ADDR */
	uint8_t pad9;		/* text output: 9 zero-padded digits (ns parts) */
	uint8_t hex;		/* integer shown as upper-case hex text (fd.dev) */
	uint8_t bufmode;	/* PT_BYTEBUF as text: enum render_bufmode (s->render's) */
	uint32_t rawlen;	/* evt.rawarg of a PT_BYTEBUF: every byte (str
				 * holds them; len stops at the first NUL) */
	char buf[FIELD_STRBUF_SIZE];
};

/* Parse the longest known field name at the start of text (with its
 * argument).  Returns the number of characters consumed, 0 when no field
 * matches, -1 on a malformed argument (err filled). */
int field_parse(const char *text, struct field_ref *out, char *err, size_t errlen);

/* evt.latency.quantized buckets 11 decades of latency from 1 ns over a
 * screen this many columns wide (csysdig's spectrogram); -1, the
 * default, gives every latency bucket 1 (as --raw prints it) */
void field_set_quantize_width(int columns);

/* fd.type of the event as field_extract gives it ("ipv4", "unix"...), NULL
 * where the field does not exist; for filters comparing it in place */
const char *field_fd_type(struct sinsp *s, struct sinsp_evt *e);
/* the fd the fd.* fields of the event read (the event's, else its thread's
 * last event fd), NULL where they do not exist */
struct sinsp_fdinfo *field_fd(struct sinsp *s, struct sinsp_evt *e);

/* Extract a field: 1 with *v filled, 0 when the field has no value for this
 * event (<NA> / skipped line). */
int field_extract(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
		  struct field_value *v);

/* evtin.* in a filter: 1 when a span the event is inside gives a value
 * accept() takes (sysdig 0.29.3's compare: filters see every thread,
 * tracer events too, where -p shows nothing; docs/tracers.md) */
int field_evtin_match(struct sinsp *s, struct sinsp_evt *e, const struct field_ref *f,
		      struct field_value *v, int (*accept)(void *ctx, struct field_value *v), void *ctx);

/* Render an extracted value as text the way sysdig prints it in -p output
 * (buffer mode from the output options).  Returns the string (may point into
 * v->buf or into out). */
const char *field_to_string(const struct field_ref *f, struct field_value *v,
			    char *out, size_t outlen);

/* Catalogue access for -l / -lv / --list-markdown and chisels */
struct field_info {
	const char *cls;	/* class as printed by -l, e.g. "evt" */
	const char *name;
	uint8_t type;
	uint32_t flags;
	const char *description;
};
size_t field_catalogue(const struct field_info **out);

#endif
