/*
 * render.h - text rendering of event parameters (evt.info / evt.args) and
 * the small growable string buffer every output path writes into.
 *
 * render.c turns each parameter type into the exact text sysdig 0.29.3
 * prints (docs/event_table.md): fds "3(<f>/path)", errno names, flags,
 * modes, socket addresses/tuples, fd lists, PT_DYN, relative paths,
 * uid/gid, signals, buffers (dots / ascii / hex / hexascii / base64).
 * fields.c, format.c and the chisel runtime all render through here.
 * The output options (-A/-x/-X/-b, -j, -v truncation, -t) are the
 * sinsp's (s->render, set by the command line and the chisel API) and
 * passed to what renders; -R (port names) is the switch of the port name
 * table, render_resolve_ports().
 */
#ifndef RENDER_H
#define RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "sinsp.h"

#define RENDER_TRUNCATE_LEN 80

/* A growable byte buffer.  Reused across events, so it only allocates
 * while it grows. */
struct sbuf {
	char *p;
	size_t len, cap;
};

void sb_grow(struct sbuf *b, size_t need);
void sb_free(struct sbuf *b);

static inline void sb_reset(struct sbuf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = 0;
}

static inline void sb_reserve(struct sbuf *b, size_t n)
{
	if (b->len + n + 1 > b->cap)
		sb_grow(b, b->len + n + 1);
}

static inline void sb_put(struct sbuf *b, const char *s, size_t n)
{
	sb_reserve(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

static inline void sb_puts(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static inline void sb_putc(struct sbuf *b, char c)
{
	sb_reserve(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = 0;
}

void sb_u64(struct sbuf *b, uint64_t v);
void sb_i64(struct sbuf *b, int64_t v);
/* printf-style append (not for hot paths) */
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* append s resized to exactly width characters (pad right or cut) */
void sb_put_width(struct sbuf *b, const char *s, size_t len, uint32_t width);
/* append a JSON string literal ("..."), escaped like jsoncpp */
void sb_json_string(struct sbuf *b, const char *s, size_t len);

/* The value and resolved text of parameter idx of e.  Both are appended.
 * bufmode applies to PT_BYTEBUF; truncate enables the 80-char cap. */
void render_param(struct sinsp *s, const struct sinsp_evt *e, uint32_t idx,
		  enum render_bufmode bufmode, int truncate,
		  struct sbuf *val, struct sbuf *res);

/* evt.info / evt.args: "name=value(resolved) " for every parameter. */
void render_evt_info(struct sinsp *s, const struct sinsp_evt *e,
		     enum render_bufmode bufmode, int truncate, struct sbuf *out);

/* A byte buffer in one of the modes (dots mode honours truncate). */
void render_bytebuf(const uint8_t *p, uint32_t len, enum render_bufmode mode,
		    int truncate, struct sbuf *out);

/* Names of flag bits per the 0.29.3 greedy algorithm, joined with '|'. */
void render_flags(const struct ppm_name_value *tbl, uint64_t v, struct sbuf *out);

/* "<f>/path" style resolution of an fd of thread t (nothing if unknown). */
void render_fd_resolved(struct sinsp *s, struct sinsp_threadinfo *t, int64_t fd,
			struct sbuf *out);

/* errno name for a negative value (-2 -> "ENOENT"), NULL if unknown */
const char *render_errno_name(int64_t v);
/* signal name (9 -> "SIGKILL"), NULL if unknown */
const char *render_signal_name(uint64_t sig);

/* Event type name as evt.type shows it (generic events: syscall name). */
const char *render_evt_type(const struct sinsp_evt *e);
const char *render_evt_type_raw(uint16_t type, const uint8_t *idparam, uint32_t idlen);

/* Normalised concatenation of a directory and a relative path. */
void render_concat_path(const char *dir, const char *rel, size_t rellen, struct sbuf *out);

/* fd type letter pair "f", "4t", ... into out (no brackets) */
void render_fd_typechars(const struct sinsp_fdinfo *fd, struct sbuf *out);

/* Little-endian loads that tolerate short parameters (missing bytes = 0) */
uint64_t render_load_u(const uint8_t *p, uint32_t len, uint32_t size);
/* -R: the service name of a port, NULL when -R is off or it has none */
const char *render_port_name(uint16_t port);
/* -R: ports are named from /etc/services from now on (render_port_name) */
void render_resolve_ports(int on);
int render_resolves_ports(void);

#endif
