/*
 * format.h - the output formatter (sysdig -p, chisel formatters).
 *
 * A format string such as "*%evt.num %5proc.name %evt.info" is parsed once
 * (formatter_new) into literal text and field references with optional
 * widths; formatter_format() then renders one event as a text line or as a
 * JSON object (sorted keys, jsoncpp escaping) into a reused buffer.
 * Without a leading '*', an event for which some field has no value is
 * skipped; with it, missing values print as <NA> (null in JSON).
 * Rendering options (buffers, -j, -t, truncation) come from s->render.
 */
#ifndef FORMAT_H
#define FORMAT_H

#include <stddef.h>
#include "fields.h"
#include "render.h"

struct formatter;

/* NULL with a one-line message in err on a bad format */
struct formatter *formatter_new(const char *fmt, char *err, size_t errlen);
void formatter_free(struct formatter *f);

/* Render e into out (appended, no trailing newline).  Returns 1 when the
 * event is to be printed, 0 when it is skipped (missing value without '*'),
 * -1 on a rendering error (message in err, e.g. "wrong event type 14"). */
int formatter_format(struct formatter *f, struct sinsp *s, struct sinsp_evt *e, int json,
		     struct sbuf *out, char *err, size_t errlen);

/* number of field references and access to them (chisels, -pc checks) */
size_t formatter_nfields(const struct formatter *f);
const struct field_ref *formatter_field(const struct formatter *f, size_t i);

/* sysdig's escape processing of -p strings: \n \t \e \\ (in place) */
void format_unescape(char *s);

/* Append the text of an extracted value (fields.c). */
void field_value_append(const struct field_ref *f, struct field_value *v, struct sbuf *out);
/* Append the JSON value (number, bool, string); -1 with err when the type
 * cannot be emitted (DOUBLE, ERRNO raw args: "wrong event type N"). */
int field_value_append_json(const struct field_ref *f, struct field_value *v, struct sbuf *out,
			    char *err, size_t errlen);

#endif
