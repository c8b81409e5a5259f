/*
 * fds.c - fd tables of the libsinsp state engine, and how fds are named.
 *
 * Holds the int64-keyed hash map used by both the thread table and the fd
 * tables, the fd table itself (entries recycled through a per-sinsp pool so
 * that opening files allocates nothing in the steady state), the conversion
 * of /proc-snapshot fds (scap metadata) into sinsp_fdinfo, the fd naming
 * rules of libsinsp e5c53d64 (tuples, server addresses, sanitized paths,
 * concatenate_paths) and the public fd helpers of sinsp.h.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "render.h"
#include "sinsp_int.h"
#include "tracer.h"

/* ------------------------------------------------------------------ */
/* int64 -> pointer map                                                */

static uint32_t slot_of(int64_t key, uint32_t cap)
{
	uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(h >> 32) & (cap - 1);
}

void *i64map_get(const struct i64map *m, int64_t key)
{
	uint32_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

static int i64map_grow(struct i64map *m)
{
	struct i64map n;
	uint32_t i;

	n.cap = m->cap ? m->cap * 2 : 16;
	n.count = 0;
	n.keys = malloc(sizeof(*n.keys) * n.cap);
	n.vals = calloc(n.cap, sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->vals[i])
			i64map_put(&n, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

int i64map_put(struct i64map *m, int64_t key, void *val)
{
	uint32_t i;

	if ((m->count + 1) * 4 > m->cap * 3 && i64map_grow(m))
		return -1;
	for (i = slot_of(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->count++;
	return 0;
}

void *i64map_del(struct i64map *m, int64_t key)
{
	uint32_t i, j, k, mask = m->cap - 1;
	void *val;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->vals[i]; i = (i + 1) & mask)
		if (m->keys[i] == key)
			break;
	if (!m->vals[i])
		return NULL;
	val = m->vals[i];
	/* backward-shift deletion keeps probe chains intact */
	for (j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
		k = slot_of(m->keys[j], m->cap);
		if ((j > i && (k <= i || k > j)) || (j < i && (k <= i && k > j))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			i = j;
		}
	}
	m->vals[i] = NULL;
	m->count--;
	return val;
}

void i64map_free(struct i64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

void i64map_foreach(const struct i64map *m, int (*cb)(void *val, void *arg), void *arg)
{
	uint32_t i;

	for (i = 0; i < m->cap; i++)
		if (m->vals[i] && cb(m->vals[i], arg))
			return;
}

/* ------------------------------------------------------------------ */
/* fd entries and tables                                               */

static struct fd_entry *entry_alloc(struct fd_pool *pool)
{
	struct fd_entry *e = pool->free_list;

	if (e) {
		pool->free_list = e->next_free;
		return e;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->name_cap = 32;
	e->info.name = malloc(e->name_cap);
	if (!e->info.name) {
		free(e);
		return NULL;
	}
	e->info.name[0] = 0;
	return e;
}

static void entry_release(struct fd_pool *pool, struct fd_entry *e)
{
	e->next_free = pool->free_list;
	pool->free_list = e;
}

void fd_pool_free(struct fd_pool *pool)
{
	struct fd_entry *e, *n;

	for (e = pool->free_list; e; e = n) {
		n = e->next_free;
		free(e->info.name);
		free(e->alt_name);
		free(e);
	}
	pool->free_list = NULL;
}

/* room for len + 1 bytes in the name buffer; 0 on success */
static int name_reserve(struct fd_entry *e, size_t len)
{
	uint32_t cap = e->name_cap;
	char *n;

	if (len + 1 <= cap)
		return 0;
	while (cap < len + 1)
		cap *= 2;
	n = realloc(e->info.name, cap);
	if (!n)
		return -1;
	e->info.name = n;
	e->name_cap = cap;
	return 0;
}

void fdinfo_set_name(struct sinsp_fdinfo *fdi, const char *name)
{
	struct fd_entry *e = (struct fd_entry *)fdi;
	size_t len = strlen(name);

	e->cur.valid = 0;
	if (name_reserve(e, len))
		return;
	memcpy(e->info.name, name, len + 1);
}

void fdinfo_init(struct sinsp_fdinfo *fdi, int32_t type)
{
	memset(fdi, 0, sizeof(*fdi));
	fdi->type = type;
	fdi->name = (char *)"";
}

struct sinsp_fdtable *fdtable_new(struct fd_pool *pool)
{
	struct sinsp_fdtable *ft = calloc(1, sizeof(*ft));

	if (ft)
		ft->pool = pool;
	return ft;
}

static int release_cb(void *val, void *arg)
{
	entry_release(arg, val);
	return 0;
}

void fdtable_clear(struct sinsp_fdtable *ft)
{
	i64map_foreach(&ft->map, release_cb, ft->pool);
	i64map_free(&ft->map);
}

void fdtable_free(struct sinsp_fdtable *ft)
{
	if (!ft)
		return;
	fdtable_clear(ft);
	free(ft);
}

/* copy src's public fields into the stored entry e (keeps e's name buffer) */
static void entry_assign(struct fd_entry *e, const struct sinsp_fdinfo *src)
{
	char *name = e->info.name;

	e->info = *src;
	e->info.name = name;
	fdinfo_set_name(&e->info, src->name);
	e->alt.valid = 0;
}

struct sinsp_fdinfo *fdtable_add(struct sinsp_fdtable *ft, int64_t fd, const struct sinsp_fdinfo *src)
{
	struct fd_entry *old = i64map_get(&ft->map, fd);
	struct fd_entry *e;

	if (old && (struct sinsp_fdinfo *)old == src)
		return &old->info;
	e = entry_alloc(ft->pool);
	if (!e)
		return NULL;
	entry_assign(e, src);
	e->info.fd = fd;
	e->flags = 0;
	if (old && (old->flags & FDF_CLOSE_IN_PROGRESS)) {
		/* an fd created between close enter and exit: keep the old one
		 * aside so that the close exit removes it and not this one */
		struct fd_entry *prev = i64map_get(&ft->map, SINSP_CANCELED_FD);

		e->flags = FDF_CLOSE_CANCELED;
		if (prev)
			entry_release(ft->pool, prev);
		i64map_put(&ft->map, SINSP_CANCELED_FD, old);
		old = NULL;
	}
	if (i64map_put(&ft->map, fd, e)) {
		entry_release(ft->pool, e);
		return NULL;
	}
	if (old)
		entry_release(ft->pool, old);
	return &e->info;
}

void fdtable_remove(struct sinsp_fdtable *ft, int64_t fd)
{
	struct fd_entry *e = i64map_del(&ft->map, fd);

	if (e)
		entry_release(ft->pool, e);
}

/* Copy every entry of src into dst under the same key (not under the
 * entry's fd number: the entry of a canceled close sits at
 * SINSP_CANCELED_FD with the fd number of the entry that replaced it).  An
 * entry dst already holds at that key is released. */
void fdtable_copy(struct sinsp_fdtable *dst, const struct sinsp_fdtable *src)
{
	for (uint32_t i = 0; i < src->map.cap; i++) {
		struct fd_entry *e = src->map.vals[i], *n, *old;

		if (!e)
			continue;
		n = entry_alloc(dst->pool);
		if (!n)
			return;
		entry_assign(n, &e->info);
		n->flags = e->flags;
		old = i64map_get(&dst->map, src->map.keys[i]);
		if (i64map_put(&dst->map, src->map.keys[i], n)) {
			entry_release(dst->pool, n);
			return;
		}
		if (old && old != n)
			entry_release(dst->pool, old);
	}
}

/* ------------------------------------------------------------------ */
/* roles, names                                                        */

void fd_set_role_server(struct sinsp_fdinfo *fdi)
{
	fdi->is_server = 1;
	fdi->is_role_client = 0;
}

void fd_set_role_client(struct sinsp_fdinfo *fdi)
{
	fdi->is_server = 0;
	fdi->is_role_client = 1;
}

int is_ipv4_mapped(const uint8_t *a)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(a, prefix, 12) == 0;
}

/*
 * Hand-made number and address formatting: the fd names of sockets are
 * rebuilt on every recvfrom/sendto of a connection, and snprintf cost more
 * than the rest of the state engine.  The text is the same as printf's
 * "%u", "%" PRIx64 and inet_ntop(AF_INET)'s.
 */
static char *put_u32(char *p, uint32_t v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* "%" PRIx64, two digits per table look-up */
static char *put_hex64(char *p, uint64_t v)
{
	static const char pairs[513] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1;
	int i = n;

	for (; i >= 2; i -= 2, v >>= 8)
		memcpy(p + i - 2, pairs + (v & 0xff) * 2, 2);
	if (i)
		p[0] = pairs[(v & 0xf) * 2 + 1];
	return p + n;
}

static char *put_ip4(char *p, const uint8_t *ip)
{
	for (int i = 0; i < 4; i++) {
		if (i)
			*p++ = '.';
		p = put_u32(p, ip[i]);
	}
	return p;
}

/* a.b.c.d:port (at most 21 characters; two and "->" take 45 with the NUL) */
static char *put_ip4_port(char *p, const uint8_t *ip, uint16_t port)
{
	p = put_ip4(p, ip);
	*p++ = ':';
	return put_u32(p, port);
}

/* a port as text: its service name with -R, else the number in tmp */
static const char *port_str(uint16_t port, char tmp[8])
{
	const char *name = render_port_name(port);

	if (name)
		return name;
	snprintf(tmp, 8, "%u", port);
	return tmp;
}

/* the all-numbers fast paths need room for 45 bytes and no -R */
static int numeric_fits(size_t size)
{
	return size >= 45 && !render_resolves_ports();
}

/* "a.b.c.d:sport->e.f.g.h:dport" and its NUL: at most 45 bytes */
static void put_ip4_tuple(char *p, const uint8_t *sip, uint16_t sport, const uint8_t *dip,
			  uint16_t dport)
{
	p = put_ip4_port(p, sip, sport);
	*p++ = '-';
	*p++ = '>';
	*put_ip4_port(p, dip, dport) = 0;
}

static void ip_str(int af, const uint8_t *ip, char *buf, size_t size)
{
	if (af == AF_INET && size >= INET_ADDRSTRLEN) {
		*put_ip4(buf, ip) = 0;
		return;
	}
	if (!inet_ntop(af, ip, buf, (socklen_t)size))
		buf[0] = 0;
}

/* the name a read or write gives a socket from its merged addresses
 * (sockinfo_to_str): TCP and UDP with ports, ICMP and raw without,
 * "<unknown>" for other protocols */
void fd_tuple_name_by_proto(const struct sinsp_fdinfo *fdi, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int af = fdi->type == SCAP_FD_IPV6_SOCK ? AF_INET6 : AF_INET;

	switch (fdi->l4proto) {
	case SCAP_L4_TCP:
	case SCAP_L4_UDP:
		fd_tuple_name(fdi, buf, size);
		return;
	case SCAP_L4_ICMP:
	case SCAP_L4_RAW:
		ip_str(af, fdi->sip, a, sizeof(a));
		ip_str(af, fdi->dip, b, sizeof(b));
		snprintf(buf, size, "%s->%s", a, b);
		return;
	default:
		snprintf(buf, size, "<unknown>");
	}
}

void fd_tuple_name(const struct sinsp_fdinfo *fdi, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN], ta[8], tb[8];
	int af = (fdi->type == SCAP_FD_IPV6_SOCK || fdi->type == SCAP_FD_IPV6_SERVSOCK) ? AF_INET6 : AF_INET;

	if (fdi->type == SCAP_FD_IPV4_SOCK && numeric_fits(size)) {
		put_ip4_tuple(buf, fdi->sip, fdi->sport, fdi->dip, fdi->dport);
		return;
	}
	ip_str(af, fdi->sip, a, sizeof(a));
	if (fdi->type == SCAP_FD_IPV4_SERVSOCK || fdi->type == SCAP_FD_IPV6_SERVSOCK) {
		snprintf(buf, size, "%s:%s", a, port_str(fdi->sport, ta));
		return;
	}
	ip_str(af, fdi->dip, b, sizeof(b));
	snprintf(buf, size, "%s:%s->%s:%s", a, port_str(fdi->sport, ta), b, port_str(fdi->dport, tb));
}

/* libsinsp's g_invalidchar: control characters become '.' */
static int invalid_char(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static void sanitize_bytes(char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (invalid_char((unsigned char)p[i]))
			p[i] = '.';
}

/* whether one of 8 bytes is below 0x20 or 0x7f (word-at-a-time test) */
static int has_invalid_char8(const char *p)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t x, y;

	memcpy(&x, p, 8);
	y = x ^ (ones * 0x7f);
	return (((x - ones * 0x20) & ~x) | ((y - ones) & ~y)) & highs ? 1 : 0;
}

void ss_copy_sanitized(char *dst, size_t size, const char *src, size_t srclen)
{
	size_t n;

	if (!size)
		return;
	n = strnlen(src, srclen < size - 1 ? srclen : size - 1);
	memcpy(dst, src, n);
	dst[n] = 0;
	if (n < 8) {
		sanitize_bytes(dst, n);
		return;
	}
	/* 8 bytes at a time, the last 8 overlapping (sanitizing twice is harmless) */
	for (size_t i = 0; i + 8 <= n; i += 8)
		if (has_invalid_char8(dst + i))
			sanitize_bytes(dst + i, 8);
	if (n % 8 && has_invalid_char8(dst + n - 8))
		sanitize_bytes(dst + n - 8, 8);
}

void ss_render_socktuple(const uint8_t *v, uint32_t len, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN], ta[8], tb[8];
	uint16_t sp, dp;

	if (len == 0) {
		snprintf(buf, size, "NULL");
		return;
	}
	if (v[0] == PPM_AF_INET && len >= 13) {
		memcpy(&sp, v + 5, 2);
		memcpy(&dp, v + 11, 2);
		if (numeric_fits(size)) {
			put_ip4_tuple(buf, v + 1, sp, v + 7, dp);
			return;
		}
		ip_str(AF_INET, v + 1, a, sizeof(a));
		ip_str(AF_INET, v + 7, b, sizeof(b));
	} else if (v[0] == PPM_AF_INET6 && len >= 37) {
		memcpy(&sp, v + 17, 2);
		memcpy(&dp, v + 35, 2);
		if (is_ipv4_mapped(v + 1) && is_ipv4_mapped(v + 19)) {
			ip_str(AF_INET, v + 13, a, sizeof(a));
			ip_str(AF_INET, v + 31, b, sizeof(b));
		} else {
			ip_str(AF_INET6, v + 1, a, sizeof(a));
			ip_str(AF_INET6, v + 19, b, sizeof(b));
		}
	} else if (v[0] == PPM_AF_UNIX && len >= 17) {
		/* "%" PRIx64 "->%" PRIx64 " %s" with the sanitized path */
		char hdr[40], *p = hdr;
		uint64_t s, d;
		size_t hl, left;

		memcpy(&s, v + 1, 8);
		memcpy(&d, v + 9, 8);
		p = put_hex64(p, s);
		*p++ = '-';
		*p++ = '>';
		p = put_hex64(p, d);
		*p++ = ' ';
		hl = (size_t)(p - hdr);
		if (hl >= size) {	/* truncated, as snprintf would */
			if (size) {
				memcpy(buf, hdr, size - 1);
				buf[size - 1] = 0;
			}
			return;
		}
		memcpy(buf, hdr, hl);
		left = size - hl;
		ss_copy_sanitized(buf + hl, left < SINSP_MAX_PATH ? left : SINSP_MAX_PATH,
				  (const char *)v + 17, len - 17);
		return;
	} else {
		snprintf(buf, size, "family %u", v[0]);
		return;
	}
	snprintf(buf, size, "%s:%s->%s:%s", a, port_str(sp, ta), b, port_str(dp, tb));
}

/* name (made from a unix tuple as t says) is "src->dst path" for this one */
static int tuple_name_is(const struct tuple_name *t, const char *name, uint64_t src,
			 uint64_t dst, const char *path, size_t plen)
{
	return t->valid && t->src == src && t->dst == dst && t->len == t->hlen + plen &&
	       memcmp(name + t->hlen, path, plen) == 0;
}

static void swap_names(struct fd_entry *e)
{
	struct tuple_name t = e->cur;
	char *n = e->info.name;
	uint32_t cap = e->name_cap;

	e->cur = e->alt;
	e->alt = t;
	e->info.name = e->alt_name;
	e->name_cap = e->alt_cap;
	e->alt_name = n;
	e->alt_cap = cap;
}

/*
 * A path equal byte for byte to the end of a name that sanitizing made
 * holds nothing to sanitize, so the name is what rendering would give: the
 * recvfrom/sendto of a unix connection then switch between two names
 * instead of rendering one on every call.
 */
void fdinfo_set_unix_tuple_name(struct sinsp_fdinfo *fdi, const uint8_t *v, uint32_t len)
{
	struct fd_entry *e = (struct fd_entry *)fdi;
	char buf[SINSP_MAX_PATH + 64];
	const char *path = (const char *)v + 17;
	size_t plen = len - 17 < SINSP_MAX_PATH - 1 ? len - 17 : SINSP_MAX_PATH - 1;
	uint64_t src, dst;
	size_t n;

	memcpy(&src, v + 1, 8);
	memcpy(&dst, v + 9, 8);
	plen = strnlen(path, plen);
	if (tuple_name_is(&e->cur, e->info.name, src, dst, path, plen))
		return;
	if (!e->alt_name) {
		e->alt_name = malloc(32);
		if (!e->alt_name) {
			ss_render_socktuple(v, len, buf, sizeof(buf));
			fdinfo_set_name(fdi, buf);
			return;
		}
		e->alt_cap = 32;
		e->alt.valid = 0;
	}
	swap_names(e);	/* the current name becomes the previous one */
	if (tuple_name_is(&e->cur, e->info.name, src, dst, path, plen))
		return;
	ss_render_socktuple(v, len, buf, sizeof(buf));
	n = strlen(buf);
	if (name_reserve(e, n)) {
		swap_names(e);
		fdinfo_set_name(fdi, buf);
		return;
	}
	memcpy(e->info.name, buf, n + 1);
	e->cur.src = src;
	e->cur.dst = dst;
	e->cur.len = (uint32_t)n;
	e->cur.hlen = (uint32_t)(strchr(buf, ' ') - buf + 1);
	e->cur.valid = 1;
}

void ss_render_sockaddr(const uint8_t *v, uint32_t len, char *buf, size_t size)
{
	char a[INET6_ADDRSTRLEN];
	uint16_t port;

	if (len == 0) {
		snprintf(buf, size, "NULL");
	} else if (v[0] == PPM_AF_INET && len >= 7) {
		memcpy(&port, v + 5, 2);
		ip_str(AF_INET, v + 1, a, sizeof(a));
		snprintf(buf, size, "%s:%u", a, port);
	} else if (v[0] == PPM_AF_INET6 && len >= 19) {
		memcpy(&port, v + 17, 2);
		ip_str(AF_INET6, v + 1, a, sizeof(a));
		snprintf(buf, size, "%s:%u", a, port);
	} else if (v[0] == PPM_AF_UNIX) {
		ss_copy_sanitized(buf, size, (const char *)v + 1, len - 1);
	} else {
		snprintf(buf, size, "family %u", v[0]);
	}
}

/* libsinsp rewind_to_parent_path */
static void rewind_parent(char *base, char **tc, const char **pc, int delta)
{
	if (*tc <= base + 1) {
		*pc += delta;
		return;
	}
	(*tc)--;
	while (*tc >= base + 1 && *(*tc - 1) != '/')
		(*tc)--;
	*pc += delta;
}

/* libsinsp copy_and_sanitize_path: resolves ".", "..", "//" while copying
 * path to target (which may already hold a prefix starting at base) */
static void sanitize_path(char *target, char *base, const char *path, const char *end)
{
	char *tc = target;
	const char *pc = path;

	for (;;) {
		if (pc >= end || *pc == 0) {
			*tc = 0;
			if (tc > base + 1 && *(tc - 1) == '/')
				*(tc - 1) = 0;
			return;
		}
		if (invalid_char((unsigned char)*pc)) {
			*tc++ = '.';
			pc++;
		} else if (*pc == '.' && (tc == base || *(tc - 1) == '/')) {
			char c1 = pc + 1 < end ? pc[1] : 0;
			char c2 = pc + 2 < end && c1 ? pc[2] : 0;

			if (c1 == '.' && c2 == '/')
				rewind_parent(base, &tc, &pc, 3);
			else if (c1 == '.' && c2 == 0)
				rewind_parent(base, &tc, &pc, 2);
			else if (c1 == '/')
				pc += 2;
			else if (c1 == 0)
				pc++;
			else
				*tc++ = *pc++;
		} else if (*pc == '/') {
			if (tc > base && *(tc - 1) == '/')
				pc++;
			else
				*tc++ = *pc++;
		} else {
			*tc++ = *pc++;
		}
	}
}

int ss_concatenate_paths(char *target, size_t tsize, const char *p1, size_t l1, const char *p2, size_t l2)
{
	if (tsize < l1 + l2 + 1) {
		snprintf(target, tsize, "/PATH_TOO_LONG");
		return 0;
	}
	if (l2 != 0 && p2[0] != '/') {
		memcpy(target, p1, l1);
		sanitize_path(target + l1, target, p2, p2 + l2);
		return 1;
	}
	target[0] = 0;
	sanitize_path(target, target, p2, p2 + l2);
	return 0;
}

/* ------------------------------------------------------------------ */
/* /proc-snapshot fds                                                  */

/* drop ASCII control characters (bytes < 0x20 and DEL) from a name taken
 * from the capture's fd list, as sinsp's sanitize_string does: the /proc
 * snapshot of unix sockets ends their paths with '\n' */
static void sanitize_name(char *s)
{
	char *o = s;

	for (; *s; s++)
		if ((unsigned char)*s >= 0x20 && *s != 0x7f)
			*o++ = *s;
	*o = 0;
}

/* sinsp_threadinfo::add_fd_from_scap; the name goes to namebuf */
void fdinfo_from_scap(struct sinsp_fdinfo *fdi, const struct scap_fdinfo *sfd, char *namebuf, size_t nbsize)
{
	fdinfo_init(fdi, sfd->type);
	fdi->fd = sfd->fd;
	fdi->ino = sfd->ino;
	fdi->name = namebuf;
	namebuf[0] = 0;
	switch (sfd->type) {
	case SCAP_FD_IPV4_SOCK:
		memcpy(fdi->sip, &sfd->info.ipv4.sip, 4);
		memcpy(fdi->dip, &sfd->info.ipv4.dip, 4);
		fdi->sport = sfd->info.ipv4.sport;
		fdi->dport = sfd->info.ipv4.dport;
		fdi->l4proto = sfd->info.ipv4.l4proto;
		fdi->is_socket_connected = fdi->l4proto == SCAP_L4_TCP;
		fd_tuple_name(fdi, namebuf, nbsize);
		break;
	case SCAP_FD_IPV6_SOCK:
		if (is_ipv4_mapped(sfd->info.ipv6.sip) && is_ipv4_mapped(sfd->info.ipv6.dip)) {
			fdi->type = SCAP_FD_IPV4_SOCK;
			memcpy(fdi->sip, sfd->info.ipv6.sip + 12, 4);
			memcpy(fdi->dip, sfd->info.ipv6.dip + 12, 4);
		} else {
			memcpy(fdi->sip, sfd->info.ipv6.sip, 16);
			memcpy(fdi->dip, sfd->info.ipv6.dip, 16);
		}
		fdi->sport = sfd->info.ipv6.sport;
		fdi->dport = sfd->info.ipv6.dport;
		fdi->l4proto = sfd->info.ipv6.l4proto;
		fdi->is_socket_connected = fdi->l4proto == SCAP_L4_TCP;
		fd_tuple_name(fdi, namebuf, nbsize);
		break;
	case SCAP_FD_IPV4_SERVSOCK:
		memcpy(fdi->sip, &sfd->info.ipv4serv.ip, 4);
		fdi->sport = sfd->info.ipv4serv.port;
		fdi->l4proto = sfd->info.ipv4serv.l4proto;
		fd_tuple_name(fdi, namebuf, nbsize);
		break;
	case SCAP_FD_IPV6_SERVSOCK:
		memcpy(fdi->sip, sfd->info.ipv6serv.ip, 16);
		fdi->sport = sfd->info.ipv6serv.port;
		fdi->l4proto = sfd->info.ipv6serv.l4proto;
		fd_tuple_name(fdi, namebuf, nbsize);
		break;
	case SCAP_FD_UNIX_SOCK:
		fdi->unix_src = sfd->info.unix_sock.source;
		fdi->unix_dst = sfd->info.unix_sock.destination;
		snprintf(namebuf, nbsize, "%s", sfd->name ? sfd->name : "");
		sanitize_name(namebuf);
		if (namebuf[0])
			fd_set_role_server(fdi);
		else
			fd_set_role_client(fdi);
		break;
	case SCAP_FD_FILE_V2:
		fdi->type = SCAP_FD_FILE;
		fdi->open_flags = sfd->open_flags;
		fdi->dev = sfd->dev;
		/* fall through */
	default:
		snprintf(namebuf, nbsize, "%s", sfd->name ? sfd->name : "");
		sanitize_name(namebuf);
		if (strcmp(namebuf, TRACER_DEVICE) == 0)
			fdi->tracer = TRACER_FD_FILE;
		break;
	}
}

/* ------------------------------------------------------------------ */
/* public helpers                                                      */

struct sinsp_fdinfo *sinsp_fd_lookup(struct sinsp_fdtable *ft, int64_t fd)
{
	return ft ? i64map_get(&ft->map, fd) : NULL;
}

struct foreach_fd_ctx {
	int (*cb)(struct sinsp_fdinfo *fd, void *arg);
	void *arg;
};

static int foreach_fd_cb(void *val, void *arg)
{
	struct foreach_fd_ctx *c = arg;
	struct sinsp_fdinfo *fdi = val;

	if (fdi->fd == SINSP_CANCELED_FD)
		return 0;
	return c->cb(fdi, c->arg);
}

void sinsp_foreach_fd(struct sinsp_fdtable *ft, int (*cb)(struct sinsp_fdinfo *fd, void *arg), void *arg)
{
	struct foreach_fd_ctx c = { cb, arg };

	if (ft)
		i64map_foreach(&ft->map, foreach_fd_cb, &c);
}

char sinsp_fd_typechar(const struct sinsp_fdinfo *fd)
{
	switch (fd->type) {
	case SCAP_FD_FILE:
	case SCAP_FD_FILE_V2: return 'f';
	case SCAP_FD_DIRECTORY: return 'd';
	case SCAP_FD_IPV4_SOCK:
	case SCAP_FD_IPV4_SERVSOCK: return '4';
	case SCAP_FD_IPV6_SOCK:
	case SCAP_FD_IPV6_SERVSOCK: return '6';
	case SCAP_FD_FIFO: return 'p';
	case SCAP_FD_UNIX_SOCK: return 'u';
	case SCAP_FD_EVENT: return 'e';
	case SCAP_FD_SIGNALFD: return 's';
	case SCAP_FD_EVENTPOLL: return 'l';
	case SCAP_FD_INOTIFY: return 'i';
	case SCAP_FD_TIMERFD: return 't';
	case SCAP_FD_NETLINK: return 'n';
	case SCAP_FD_BPF: return 'b';
	case SCAP_FD_USERFAULTFD: return 'u';
	case SCAP_FD_IOURING: return 'r';
	case SCAP_FD_MEMFD: return 'm';
	case SCAP_FD_PIDFD: return 'P';
	case SCAP_FD_UNSUPPORTED: return 'X';
	default: return 'o';
	}
}

uint8_t sinsp_fd_l4proto(const struct sinsp_fdinfo *fd)
{
	switch (fd->type) {
	case SCAP_FD_IPV4_SOCK:
	case SCAP_FD_IPV6_SOCK:
		if (fd->l4proto == SCAP_L4_RAW)
			return SCAP_L4_RAW;
		if (fd_role_none(fd))
			return SCAP_L4_NA;
		return fd->l4proto;
	case SCAP_FD_IPV4_SERVSOCK:
	case SCAP_FD_IPV6_SERVSOCK:
		return fd->l4proto;
	default:
		return SCAP_L4_NA;
	}
}
