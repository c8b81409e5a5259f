/*
 * render.c - parameter rendering exactly as sysdig 0.29.3 prints it
 * (docs/event_table.md).  See render.h for how it fits with fields.c and
 * the formatter.  Nothing here allocates per event: everything is appended
 * to caller-owned, reused struct sbuf buffers.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "render.h"
#include "sinsp_int.h"

static int resolve_ports;	/* -R */

void render_resolve_ports(int on)
{
	resolve_ports = on;
}

int render_resolves_ports(void)
{
	return resolve_ports;
}

/* ---------------------------------------------------------------- sbuf */

void sb_grow(struct sbuf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 256;

	while (cap < need)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (!p) {
		fputs("out of memory\n", stderr);
		exit(1);
	}
	b->p = p;
	b->cap = cap;
}

void sb_free(struct sbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void sb_u64(struct sbuf *b, uint64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char tmp[24], *end = tmp + sizeof(tmp), *p = end;
	size_t n;

	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	n = (size_t)(end - p);
	sb_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = 0;
}

void sb_i64(struct sbuf *b, int64_t v)
{
	if (v < 0) {
		sb_putc(b, '-');
		sb_u64(b, (uint64_t)0 - (uint64_t)v);
	} else {
		sb_u64(b, (uint64_t)v);
	}
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (!b->p || b->len + (size_t)n + 1 > b->cap) {
		sb_reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void sb_put_width(struct sbuf *b, const char *s, size_t len, uint32_t width)
{
	if (len >= width) {
		sb_put(b, s, width);
		return;
	}
	sb_put(b, s, len);
	sb_reserve(b, width - len);
	memset(b->p + b->len, ' ', width - len);
	b->len += width - len;
	b->p[b->len] = 0;
}

/* Decode one UTF-8 sequence like jsoncpp; returns the code point and
 * advances *i; invalid sequences give 0xFFFD. */
static uint32_t utf8_next(const unsigned char *s, size_t len, size_t *i)
{
	unsigned c = s[*i];
	uint32_t cp;
	size_t n;

	if (c < 0xC0) {
		(*i)++;
		return c < 0x80 ? c : 0xFFFD;
	}
	if (c < 0xE0) {
		cp = c & 0x1F;
		n = 1;
	} else if (c < 0xF0) {
		cp = c & 0x0F;
		n = 2;
	} else {
		cp = c & 0x07;
		n = 3;
	}
	if (*i + n >= len) {
		*i = len;
		return 0xFFFD;
	}
	for (size_t k = 1; k <= n; k++) {
		if ((s[*i + k] & 0xC0) != 0x80) {
			*i += k;
			return 0xFFFD;
		}
		cp = (cp << 6) | (s[*i + k] & 0x3F);
	}
	*i += n + 1;
	return cp;
}

static void sb_u16hex(struct sbuf *b, uint32_t v)
{
	static const char hx[] = "0123456789abcdef";
	char t[6] = { '\\', 'u', hx[(v >> 12) & 15], hx[(v >> 8) & 15], hx[(v >> 4) & 15], hx[v & 15] };

	sb_put(b, t, 6);
}

void sb_json_string(struct sbuf *b, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	static uint8_t plain[256];	/* 1: copied as is */

	if (!plain['a']) {
		for (unsigned c = 0x20; c < 0x80; c++)
			plain[c] = c != '"' && c != '\\';
	}
	sb_reserve(b, len + 2);
	b->p[b->len++] = '"';
	while (i < len) {
		unsigned c = s[i];

		if (plain[c]) {
			size_t j = i + 1;

			while (j < len && plain[s[j]])
				j++;
			sb_put(b, str + i, j - i);
			i = j;
			continue;
		}
		switch (c) {
		case '"': sb_put(b, "\\\"", 2); i++; continue;
		case '\\': sb_put(b, "\\\\", 2); i++; continue;
		case '\b': sb_put(b, "\\b", 2); i++; continue;
		case '\f': sb_put(b, "\\f", 2); i++; continue;
		case '\n': sb_put(b, "\\n", 2); i++; continue;
		case '\r': sb_put(b, "\\r", 2); i++; continue;
		case '\t': sb_put(b, "\\t", 2); i++; continue;
		default:
			break;
		}
		if (c < 0x20) {
			sb_u16hex(b, c);
			i++;
			continue;
		}
		uint32_t cp = utf8_next(s, len, &i);

		if (cp < 0x10000) {
			sb_u16hex(b, cp);
		} else {
			cp -= 0x10000;
			sb_u16hex(b, 0xD800 + (cp >> 10));
			sb_u16hex(b, 0xDC00 + (cp & 0x3FF));
		}
	}
	sb_putc(b, '"');
}

/* ------------------------------------------------------- small lookups */

uint64_t render_load_u(const uint8_t *p, uint32_t len, uint32_t size)
{
	uint64_t v = 0;

	if (len > size)
		len = size;
	for (uint32_t i = 0; i < len; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

#define ERRNO_MAX 1024
static const char *g_errno_by_num[ERRNO_MAX];
static const char *g_signal_by_num[65];
static int g_lookups_ready;

static void init_lookups(void)
{
	if (g_lookups_ready)
		return;
	for (const struct ppm_name_value *nv = sinsp_errno_names; nv->name; nv++)
		if (nv->value < 0 && -nv->value < ERRNO_MAX && !g_errno_by_num[-nv->value])
			g_errno_by_num[-nv->value] = nv->name;
	for (const struct ppm_name_value *nv = sinsp_signal_names; nv->name; nv++)
		if (nv->value > 0 && nv->value < 65 && !g_signal_by_num[nv->value])
			g_signal_by_num[nv->value] = nv->name;
	g_lookups_ready = 1;
}

const char *render_errno_name(int64_t v)
{
	init_lookups();
	if (v < 0 && v > -ERRNO_MAX)
		return g_errno_by_num[-v];
	return NULL;
}

const char *render_signal_name(uint64_t sig)
{
	init_lookups();
	return sig < 65 ? g_signal_by_num[sig] : NULL;
}

void render_flags(const struct ppm_name_value *tbl, uint64_t v, struct sbuf *out)
{
	uint64_t rest = v;
	int first = 1;

	if (!tbl)
		return;
	for (; tbl->name; tbl++) {
		uint64_t fv = (uint64_t)tbl->value;
		int take;

		if (fv == v) {
			if (!first)
				sb_putc(out, '|');
			sb_puts(out, tbl->name);
			return;
		}
		take = (fv == 0 && v == 0) || (fv != 0 && v != 0 && (rest & fv) == fv);
		if (take) {
			if (!first)
				sb_putc(out, '|');
			sb_puts(out, tbl->name);
			first = 0;
			rest &= ~fv;
		}
	}
}

const char *render_evt_type_raw(uint16_t type, const uint8_t *idparam, uint32_t idlen)
{
	if (type == PPME_GENERIC_E || type == PPME_GENERIC_X) {
		uint64_t id = render_load_u(idparam, idlen, 2);

		if (idparam && id < g_ppm_sc_count && g_ppm_sc_names[id] && id != 0)
			return g_ppm_sc_names[id];
		return "<unknown>";
	}
	if (type < PPM_EVENT_MAX)
		return g_event_info[type].name;
	return "<unknown>";
}

const char *render_evt_type(const struct sinsp_evt *e)
{
	return render_evt_type_raw(e->scap.type, e->scap.nparams ? e->scap.pval[0] : NULL,
				   e->scap.nparams ? e->scap.plen[0] : 0);
}

void render_fd_typechars(const struct sinsp_fdinfo *fd, struct sbuf *out)
{
	sb_putc(out, sinsp_fd_typechar(fd));
	switch (fd->type) {	/* a socket with no role yet shows no protocol */
	case SCAP_FD_IPV4_SOCK:
	case SCAP_FD_IPV6_SOCK:
	case SCAP_FD_IPV4_SERVSOCK:
	case SCAP_FD_IPV6_SERVSOCK:
		switch (sinsp_fd_l4proto(fd)) {
		case SCAP_L4_TCP: sb_putc(out, 't'); break;
		case SCAP_L4_UDP: sb_putc(out, 'u'); break;
		case SCAP_L4_ICMP: sb_putc(out, 'i'); break;
		case SCAP_L4_RAW: sb_putc(out, 'r'); break;
		default: break;
		}
		break;
	default:
		break;
	}
}

static struct sinsp_fdinfo *render_thread_fd(struct sinsp *s, struct sinsp_threadinfo *t, int64_t fd)
{
	struct sinsp_fdtable *ft;

	if (!s || !t || fd < 0)
		return NULL;
	ft = sinsp_thread_fdtable(s, t);
	return ft ? sinsp_fd_lookup(ft, fd) : NULL;
}

void render_fd_resolved(struct sinsp *s, struct sinsp_threadinfo *t, int64_t fd, struct sbuf *out)
{
	struct sinsp_fdinfo *fi;

	if (fd == -100) {
		sb_puts(out, "AT_FDCWD");
		return;
	}
	if (fd < 0) {
		const char *n = render_errno_name(fd);

		if (n)
			sb_puts(out, n);
		return;
	}
	fi = render_thread_fd(s, t, fd);
	if (!fi)
		return;
	sb_putc(out, '<');
	render_fd_typechars(fi, out);
	sb_putc(out, '>');
	sb_puts(out, fi->name);
}

/* ------------------------------------------------------------- paths */

void render_concat_path(const char *dir, const char *rel, size_t rellen, struct sbuf *out)
{
	char full[SINSP_MAX_PATH + 1];
	size_t dlen = strlen(dir);

	/* sinsp_utils::concatenate_paths: the directory as stored, then the
	 * relative path with ".", ".." and "//" resolved */
	ss_concatenate_paths(full, sizeof(full), dir, dlen, rel, rellen);
	sb_puts(out, full);
}

/* copy a path dropping non-printable characters */
static void put_sanitized(struct sbuf *out, const char *p, size_t len)
{
	sb_reserve(out, len);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c >= 0x20 && c < 0x7F)
			out->p[out->len++] = (char)c;
	}
	out->p[out->len] = 0;
}

static size_t str_len(const uint8_t *p, uint32_t len)
{
	const uint8_t *z = p ? memchr(p, 0, len) : NULL;

	return z ? (size_t)(z - p) : (p ? len : 0);
}

/* ----------------------------------------------------------- buffers */

static void bytebuf_dots(const uint8_t *p, uint32_t len, int truncate, struct sbuf *out)
{
	uint32_t n = len;

	if (truncate && n > RENDER_TRUNCATE_LEN)
		n = RENDER_TRUNCATE_LEN;
	sb_reserve(out, n);
	char *d = out->p + out->len;

	for (uint32_t i = 0; i < n; i++)
		d[i] = (p[i] >= 0x20 && p[i] < 0x7F) ? (char)p[i] : '.';
	if (truncate && len > RENDER_TRUNCATE_LEN)
		memcpy(d + n - 3, "...", 3);
	out->len += n;
	out->p[out->len] = 0;
}

static void bytebuf_ascii(const uint8_t *p, uint32_t len, struct sbuf *out)
{
	if (len == 0)
		return;
	sb_reserve(out, len + 1);
	char *d = out->p + out->len;
	size_t k = 0;

	d[k++] = '\n';
	for (uint32_t j = 0; j < len; j++) {
		uint8_t c = p[j];

		if (c >= 0x20 && c < 0x7F)
			d[k++] = (char)c;
		else if (c == '\r')
			d[k++] = '\n';
		else if (c == '\n' && j > 0 && p[j - 1] != '\r')
			d[k++] = '\n';
	}
	out->len += k;
	out->p[out->len] = 0;
}

static void bytebuf_hex(const uint8_t *p, uint32_t len, int ascii, struct sbuf *out)
{
	static const char hx[] = "0123456789abcdef";

	if (len == 0)
		return;

	for (uint32_t j = 0; j < len; j += 16) {
		char row[96];
		int k = 0, chunks = 0;
		uint32_t q = j;

		row[k++] = '\n';
		row[k++] = '\t';
		row[k++] = '0';
		row[k++] = 'x';
		row[k++] = hx[(j >> 12) & 15];
		row[k++] = hx[(j >> 8) & 15];
		row[k++] = hx[(j >> 4) & 15];
		row[k++] = hx[j & 15];
		row[k++] = ':';
		if (j > 0xFFFF) {	/* wider offsets: fall back to printf */
			k = snprintf(row, sizeof(row), "\n\t0x%.4x:", j);
		}
		while (chunks < 8 && q < len) {
			row[k++] = ' ';
			row[k++] = hx[p[q] >> 4];
			row[k++] = hx[p[q] & 15];
			q++;
			if (q < len) {
				row[k++] = hx[p[q] >> 4];
				row[k++] = hx[p[q] & 15];
				q++;
			}
			chunks++;
		}
		if (ascii) {
			while (chunks < 8) {
				memcpy(row + k, "     ", 5);
				k += 5;
				chunks++;
			}
			row[k++] = ' ';
			row[k++] = ' ';
			for (uint32_t m = 0; m < 16 && j + m < len; m++) {
				uint8_t c = p[j + m];

				row[k++] = (c >= 0x20 && c < 0x7F) ? (char)c : '.';
			}
		}
		sb_put(out, row, (size_t)k);
	}
	sb_putc(out, '\n');
}

static void bytebuf_base64(const uint8_t *p, uint32_t len, struct sbuf *out)
{
	static const char tb[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t i = 0;

	sb_reserve(out, (len + 2) / 3 * 4);
	char *d = out->p + out->len;
	size_t k = 0;

	for (; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];

		d[k++] = tb[v >> 18];
		d[k++] = tb[(v >> 12) & 63];
		d[k++] = tb[(v >> 6) & 63];
		d[k++] = tb[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0);

		d[k++] = tb[v >> 18];
		d[k++] = tb[(v >> 12) & 63];
		d[k++] = i + 1 < len ? tb[(v >> 6) & 63] : '=';
		d[k++] = '=';
	}
	out->len += k;
	out->p[out->len] = 0;
}

void render_bytebuf(const uint8_t *p, uint32_t len, enum render_bufmode mode, int truncate,
		    struct sbuf *out)
{
	if (!p)
		len = 0;
	switch (mode) {
	case RB_ASCII:
		bytebuf_ascii(p, len, out);
		break;
	case RB_HEX:
		bytebuf_hex(p, len, 0, out);
		break;
	case RB_HEXASCII:
		bytebuf_hex(p, len, 1, out);
		break;
	case RB_BASE64:
		bytebuf_base64(p, len, out);
		break;
	default:
		bytebuf_dots(p, len, truncate, out);
		break;
	}
}

/* ------------------------------------------------------------ numbers */

static uint32_t type_size(uint8_t type)
{
	switch (type) {
	case PT_INT8: case PT_UINT8: case PT_FLAGS8: case PT_SIGTYPE:
	case PT_L4PROTO: case PT_SOCKFAMILY:
		return 1;
	case PT_INT16: case PT_UINT16: case PT_FLAGS16: case PT_SYSCALLID: case PT_PORT:
		return 2;
	case PT_INT32: case PT_UINT32: case PT_FLAGS32: case PT_UID: case PT_GID:
	case PT_BOOL: case PT_IPV4ADDR: case PT_SIGSET: case PT_MODE:
		return 4;
	default:
		return 8;
	}
}

static int64_t sign_extend(uint64_t v, uint32_t size)
{
	switch (size) {
	case 1: return (int8_t)v;
	case 2: return (int16_t)v;
	case 4: return (int32_t)v;
	default: return (int64_t)v;
	}
}

/* a number in the table entry's print format */
static void render_number(uint64_t v, uint32_t size, uint8_t fmt, struct sbuf *out)
{
	switch (fmt) {
	case PF_HEX:
		sb_printf(out, "%" PRIX64, v);
		break;
	case PF_OCT:
		sb_printf(out, "%#" PRIo64, v);
		break;
	case PF_10_PADDED_DEC:
		sb_printf(out, "%09" PRId64, sign_extend(v, size));
		break;
	default:
		sb_i64(out, sign_extend(v, size));
		break;
	}
}

/* ------------------------------------------------- sockets and tuples */

static void put_ipv4(struct sbuf *out, const uint8_t *a)
{
	sb_u64(out, a[0]);
	sb_putc(out, '.');
	sb_u64(out, a[1]);
	sb_putc(out, '.');
	sb_u64(out, a[2]);
	sb_putc(out, '.');
	sb_u64(out, a[3]);
}

static void put_ipv6(struct sbuf *out, const uint8_t *a)
{
	char t[INET6_ADDRSTRLEN];

	if (inet_ntop(AF_INET6, a, t, sizeof(t)))
		sb_puts(out, t);
}

static int is_v4mapped(const uint8_t *a)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(a, pfx, 12) == 0;
}

/* -R: the service name of a port (/etc/services, any protocol), cached;
 * NULL when -R is off or the port has no name */
const char *render_port_name(uint16_t port)
{
	static char **names;	/* [65536]; "" for a port without name */
	struct servent *se;

	if (!resolve_ports)
		return NULL;
	if (!names && !(names = calloc(65536, sizeof(*names))))
		return NULL;
	if (!names[port]) {
		se = getservbyport(htons(port), NULL);
		names[port] = strdup(se && se->s_name ? se->s_name : "");
		if (!names[port])
			return NULL;
	}
	return names[port][0] ? names[port] : NULL;
}

static void put_port(struct sbuf *out, uint16_t port)
{
	const char *name = render_port_name(port);

	if (name)
		sb_puts(out, name);
	else
		sb_u64(out, port);
}

static void render_sockaddr(const uint8_t *p, uint32_t len, struct sbuf *out)
{
	if (len == 0) {
		sb_puts(out, "NULL");
		return;
	}
	switch (p[0]) {
	case 2:
		if (len < 7)
			break;
		put_ipv4(out, p + 1);
		sb_putc(out, ':');
		put_port(out, (uint16_t)render_load_u(p + 5, 2, 2));
		return;
	case 10:
		if (len < 19)
			break;
		put_ipv6(out, p + 1);
		sb_putc(out, ':');
		put_port(out, (uint16_t)render_load_u(p + 17, 2, 2));
		return;
	case 1:
		put_sanitized(out, (const char *)p + 1, str_len(p + 1, len - 1));
		return;
	default:
		break;
	}
	sb_printf(out, "family %d", p[0]);
}

static void render_socktuple(const uint8_t *p, uint32_t len, struct sbuf *out)
{
	if (len == 0) {
		sb_puts(out, "NULL");
		return;
	}
	switch (p[0]) {
	case 2:
		if (len < 13)
			break;
		put_ipv4(out, p + 1);
		sb_putc(out, ':');
		put_port(out, (uint16_t)render_load_u(p + 5, 2, 2));
		sb_put(out, "->", 2);
		put_ipv4(out, p + 7);
		sb_putc(out, ':');
		put_port(out, (uint16_t)render_load_u(p + 11, 2, 2));
		return;
	case 10:
		if (len < 37)
			break;
		if (is_v4mapped(p + 1) && is_v4mapped(p + 19)) {
			put_ipv4(out, p + 13);
			sb_putc(out, ':');
			put_port(out, (uint16_t)render_load_u(p + 17, 2, 2));
			sb_put(out, "->", 2);
			put_ipv4(out, p + 31);
		} else {
			put_ipv6(out, p + 1);
			sb_putc(out, ':');
			put_port(out, (uint16_t)render_load_u(p + 17, 2, 2));
			sb_put(out, "->", 2);
			put_ipv6(out, p + 19);
		}
		sb_putc(out, ':');
		put_port(out, (uint16_t)render_load_u(p + 35, 2, 2));
		return;
	case 1:
		if (len < 17)
			break;
		sb_printf(out, "%" PRIx64 "->%" PRIx64 " ", render_load_u(p + 1, 8, 8),
			  render_load_u(p + 9, 8, 8));
		put_sanitized(out, (const char *)p + 17, str_len(p + 17, len - 17));
		return;
	default:
		break;
	}
	sb_printf(out, "family %d", p[0]);
}

static void render_fdlist(struct sinsp *s, struct sinsp_threadinfo *t, const uint8_t *p,
			  uint32_t len, struct sbuf *out)
{
	uint32_t n = (uint32_t)render_load_u(p, len, 2);
	uint32_t off = 2;

	for (uint32_t j = 0; j < n && off + 10 <= len; j++, off += 10) {
		int64_t fd = (int64_t)render_load_u(p + off, 8, 8);
		uint16_t fl = (uint16_t)render_load_u(p + off + 8, 2, 2);
		struct sinsp_fdinfo *fi = render_thread_fd(s, t, fd);

		sb_u64(out, (uint64_t)fd);	/* unsigned, as the reference: -1 is 2^64-1 */
		sb_putc(out, ':');
		sb_putc(out, fi ? sinsp_fd_typechar(fi) : '?');
		sb_printf(out, "%x", fl);
		if (j + 1 < n)
			sb_putc(out, ' ');
	}
}

/* ------------------------------------------------------------- params */

static void render_path(struct sinsp *s, const struct sinsp_evt *e, const struct ppm_param_info *pi,
			const uint8_t *p, uint32_t len, struct sbuf *val, struct sbuf *res)
{
	size_t n = str_len(p, len);
	size_t vstart = val->len;

	put_sanitized(val, (const char *)p, n);
	const char *v = val->p + vstart;
	size_t vl = val->len - vstart;

	if ((vl > 0 && v[0] == '/') || (vl == 4 && memcmp(v, "<NA>", 4) == 0) || !e->thread)
		return;
	const char *dir = NULL;
	char dirbuf[SINSP_MAX_PATH + 2];
	struct sinsp_threadinfo *mt = sinsp_get_main_thread(s, e->thread);

	if (!mt)
		mt = e->thread;
	dir = mt->cwd;
	if (pi->type == PT_FSRELPATH && pi->dirfd_param >= 0 &&
	    (uint32_t)pi->dirfd_param < e->scap.nparams) {
		int64_t dfd = (int64_t)render_load_u(e->scap.pval[pi->dirfd_param],
						     e->scap.plen[pi->dirfd_param], 8);

		if (dfd != -100) {
			struct sinsp_fdinfo *fi = render_thread_fd(s, e->thread, dfd);

			/* always one more '/', as the reference: "etc" under "/" is "//etc" */
			if (fi) {
				snprintf(dirbuf, sizeof(dirbuf), "%s/", fi->name);
				dir = dirbuf;
			} else {
				dir = "<UNKNOWN>";
			}
		}
	}
	/* an empty path stored with its NUL is the directory itself, as the
	 * reference joins the NUL too: mkdir("") under /tmp is "path=(/tmp)" */
	render_concat_path(dir ? dir : "", v, vl ? vl : (len > 0), res);
}

/* the NUL-separated lists of tracer events (parser.c make_tracer_event) */
static void render_string_list(const uint8_t *p, uint32_t len, int pairs, struct sbuf *out)
{
	uint32_t i = 0, n = 0;

	while (i < len) {
		size_t l = strnlen((const char *)p + i, len - i);

		if (n)
			sb_putc(out, !pairs ? '.' : (n & 1) ? ':' : ',');
		sb_put(out, (const char *)p + i, l);
		i += (uint32_t)l + 1;
		n++;
	}
}

static void render_typed(struct sinsp *s, const struct sinsp_evt *e, const struct ppm_param_info *pi,
			 uint8_t type, uint8_t fmt, const uint8_t *p, uint32_t len,
			 enum render_bufmode bufmode, int truncate, struct sbuf *val, struct sbuf *res)
{
	uint64_t u;

	switch (type) {
	case PT_INT8: case PT_INT16: case PT_INT32: case PT_INT64:
	case PT_UINT8: case PT_UINT16: case PT_UINT32: case PT_UINT64:
		render_number(render_load_u(p, len, type_size(type)), type_size(type), fmt, val);
		break;
	case PT_CHARBUF:
		sb_put(val, (const char *)p, str_len(p, len));
		break;
	case PT_BYTEBUF:
		render_bytebuf(p, len, bufmode, truncate, val);
		break;
	case PT_ERRNO: {
		int64_t v = (int64_t)render_load_u(p, len, 8);
		const char *n;

		sb_i64(val, v);
		if (v < 0 && (n = render_errno_name(v)))
			sb_puts(res, n);
		break;
	}
	case PT_SOCKADDR:
		render_sockaddr(p, len, val);
		break;
	case PT_SOCKTUPLE:
		render_socktuple(p, len, val);
		break;
	case PT_FD: {
		int64_t fd = (int64_t)render_load_u(p, len, 8);

		sb_i64(val, fd);
		render_fd_resolved(s, e->thread, fd, res);
		break;
	}
	case PT_PID: {
		int64_t pid = (int64_t)render_load_u(p, len, 8);
		struct sinsp_threadinfo *t = s ? sinsp_get_thread(s, pid) : NULL;

		sb_i64(val, pid);
		if (t)
			sb_puts(res, t->comm);
		break;
	}
	case PT_FDLIST:
		render_fdlist(s, e->thread, p, len, val);
		break;
	case PT_FSPATH:
	case PT_FSRELPATH:
		render_path(s, e, pi, p, len, val, res);
		break;
	case PT_SYSCALLID:
		u = render_load_u(p, len, 2);
		sb_u64(val, u);
		if (u == 0)
			sb_puts(res, "<unknown>");
		else if (u < g_ppm_sc_count && g_ppm_sc_names[u])
			sb_puts(res, g_ppm_sc_names[u]);
		else
			sb_puts(res, "<unknown syscall>");
		break;
	case PT_SIGTYPE: {
		const char *n;

		u = render_load_u(p, len, 1);
		sb_u64(val, u);
		if ((n = render_signal_name(u)))
			sb_puts(res, n);
		break;
	}
	case PT_RELTIME:
		u = render_load_u(p, len, 8);
		if (u == UINT64_MAX) {
			sb_puts(val, "none");
		} else {
			sb_u64(val, u);
			sb_printf(res, "%lgs", (double)u / 1000000000.0);
		}
		break;
	case PT_FLAGS8: case PT_FLAGS16: case PT_FLAGS32:
		u = render_load_u(p, len, type_size(type));
		sb_u64(val, u);
		render_flags(pi->names, u, res);
		break;
	case PT_MODE:
		u = render_load_u(p, len, 4);
		render_number(u, 4, fmt, val);
		render_flags(pi->names, u, res);
		break;
	case PT_UID:
	case PT_GID: {
		const char *n;

		u = render_load_u(p, len, 4);
		if (u == 0xFFFFFFFFu) {
			sb_puts(val, "-1");
			sb_puts(res, "<NONE>");
			break;
		}
		sb_i64(val, (int32_t)u);
		n = !s ? NULL : type == PT_UID ? sinsp_user_name(s, (uint32_t)u)
						: sinsp_group_name(s, (uint32_t)u);
		sb_puts(res, n ? n : "<NA>");
		break;
	}
	case PT_SIGSET: {
		int first = 1;

		u = render_load_u(p, len, 4);
		for (unsigned i = 0; i < 32; i++) {
			const char *n;

			if (!(u & (1u << i)) || !(n = render_signal_name(i + 1)))
				continue;
			if (!first)
				sb_putc(val, ' ');
			sb_puts(val, n);
			first = 0;
		}
		break;
	}
	case PT_CHARBUFARRAY:		/* tracer tags: "t1\0t2\0" as t1.t2 */
	case PT_CHARBUF_PAIR_ARRAY:	/* tracer args: "n\0v\0" as n:v,... */
		render_string_list(p, len, type == PT_CHARBUF_PAIR_ARRAY, val);
		break;
	case PT_ABSTIME:
		sb_puts(val, "INVALID DYNAMIC PARAMETER");
		break;
	default:
		sb_puts(val, "(n.a.)");
		break;
	}
}

void render_param(struct sinsp *s, const struct sinsp_evt *e, uint32_t idx,
		  enum render_bufmode bufmode, int truncate, struct sbuf *val, struct sbuf *res)
{
	const struct ppm_param_info *pi;
	const uint8_t *p;
	uint32_t len;

	if (!e->info || idx >= e->scap.nparams || idx >= e->info->nparams)
		return;
	pi = &e->info->params[idx];
	p = e->scap.pval[idx];
	len = e->scap.plen[idx];
	if (!p)
		len = 0;
	if (pi->type == PT_DYN) {
		uint32_t ntab = 0;

		if (pi->dyn)
			while (pi->dyn[ntab].type)
				ntab++;
		if (len < 1 || p[0] >= ntab) {
			sb_puts(val, "INVALID DYNAMIC PARAMETER");
			return;
		}
		render_typed(s, e, pi, pi->dyn[p[0]].type, pi->fmt, p + 1, len - 1, bufmode,
			     truncate, val, res);
		return;
	}
	render_typed(s, e, pi, pi->type, pi->fmt, p, len, bufmode, truncate, val, res);
}

void render_evt_info(struct sinsp *s, const struct sinsp_evt *e, enum render_bufmode bufmode,
		     int truncate, struct sbuf *out)
{
	static struct sbuf res;
	uint32_t n;

	if (!e->info || e->scap.type == PPME_GENERIC_E || e->scap.type == PPME_GENERIC_X)
		return;
	n = e->scap.nparams < e->info->nparams ? e->scap.nparams : e->info->nparams;
	for (uint32_t j = 0; j < n; j++) {
		sb_puts(out, e->info->params[j].name);
		sb_putc(out, '=');
		sb_reset(&res);
		render_param(s, e, j, bufmode, truncate, out, &res);
		if (res.len) {
			sb_putc(out, '(');
			sb_put(out, res.p, res.len);
			sb_putc(out, ')');
		}
		sb_putc(out, ' ');
	}
}
