/*
 * memengine.c - in-memory scap engine for the libsinsp unit tests.
 *
 * Events are appended with ev_begin()/ev_*()/ev_end() in the on-disk
 * layout (26-byte header, u16 lengths, values) and replayed in order by
 * the engine's next(); a section break can be queued between events.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "memengine.h"

#define MAX_EVTS 4096

struct mem_evt {
	uint8_t *data;
	uint32_t len, dump_flags;
	int section_before;
};

struct mem {
	struct mem_evt evts[MAX_EVTS];
	uint32_t n, next;
	int pending_section;
	/* event under construction */
	uint8_t vals[65536];
	uint32_t vlen;
	uint16_t lens[PPM_MAX_EVENT_PARAMS];
	uint32_t np;
	uint16_t type;
	uint64_t tid, ts;
};

static int mem_next(struct scap *h, struct scap_evt *evt)
{
	struct mem *m = h->engine;
	struct mem_evt *e;

	if (m->next >= m->n)
		return SCAP_EOF;
	e = &m->evts[m->next];
	if (e->section_before) {
		e->section_before = 0;
		return SCAP_NEW_SECTION;
	}
	m->next++;
	evt->data = e->data;
	evt->len = e->len;
	memcpy(&evt->ts, e->data, 8);
	memcpy(&evt->tid, e->data + 8, 8);
	memcpy(&evt->type, e->data + 20, 2);
	evt->cpuid = 0;
	evt->dump_flags = e->dump_flags;
	return scap_decode_params(evt) ? SCAP_FAILURE : SCAP_SUCCESS;
}

static void mem_close(struct scap *h)
{
	struct mem *m = h->engine;
	uint32_t i;

	for (i = 0; i < m->n; i++)
		free(m->evts[i].data);
	free(m);
}

static const struct scap_engine_ops mem_ops = { .name = "memory", .next = mem_next, .close = mem_close };

struct scap *mem_open(void)
{
	struct scap *h = calloc(1, sizeof(*h));

	h->engine = calloc(1, sizeof(struct mem));
	h->ops = &mem_ops;
	return h;
}

void ev_begin(struct scap *h, uint16_t type, uint64_t tid, uint64_t ts)
{
	struct mem *m = h->engine;

	m->type = type;
	m->tid = tid;
	m->ts = ts;
	m->np = 0;
	m->vlen = 0;
}

void ev_bytes(struct scap *h, const void *p, uint32_t len)
{
	struct mem *m = h->engine;

	memcpy(m->vals + m->vlen, p, len);
	m->vlen += len;
	m->lens[m->np++] = (uint16_t)len;
}

void ev_i64(struct scap *h, int64_t v) { ev_bytes(h, &v, 8); }
void ev_u32(struct scap *h, uint32_t v) { ev_bytes(h, &v, 4); }
void ev_u16(struct scap *h, uint16_t v) { ev_bytes(h, &v, 2); }
void ev_u8(struct scap *h, uint8_t v) { ev_bytes(h, &v, 1); }
void ev_str(struct scap *h, const char *s) { ev_bytes(h, s, (uint32_t)strlen(s) + 1); }

void ev_tuple4(struct scap *h, const char *sip, uint16_t sport, const char *dip, uint16_t dport)
{
	uint8_t b[13];

	b[0] = 2;
	inet_pton(AF_INET, sip, b + 1);
	memcpy(b + 5, &sport, 2);
	inet_pton(AF_INET, dip, b + 7);
	memcpy(b + 11, &dport, 2);
	ev_bytes(h, b, sizeof(b));
}

void ev_addr4(struct scap *h, const char *ip, uint16_t port)
{
	uint8_t b[7];

	b[0] = 2;
	inet_pton(AF_INET, ip, b + 1);
	memcpy(b + 5, &port, 2);
	ev_bytes(h, b, sizeof(b));
}

void ev_tuple6(struct scap *h, const char *sip, uint16_t sport, const char *dip, uint16_t dport)
{
	uint8_t b[37];

	b[0] = 10;
	inet_pton(AF_INET6, sip, b + 1);
	memcpy(b + 17, &sport, 2);
	inet_pton(AF_INET6, dip, b + 19);
	memcpy(b + 35, &dport, 2);
	ev_bytes(h, b, sizeof(b));
}

void ev_addr6(struct scap *h, const char *ip, uint16_t port)
{
	uint8_t b[19];

	b[0] = 10;
	inet_pton(AF_INET6, ip, b + 1);
	memcpy(b + 17, &port, 2);
	ev_bytes(h, b, sizeof(b));
}

void ev_end(struct scap *h, uint32_t dump_flags)
{
	struct mem *m = h->engine;
	struct mem_evt *e = &m->evts[m->n];
	uint32_t len = 26 + 2 * m->np + m->vlen;

	e->data = malloc(len);
	memcpy(e->data, &m->ts, 8);
	memcpy(e->data + 8, &m->tid, 8);
	memcpy(e->data + 16, &len, 4);
	memcpy(e->data + 20, &m->type, 2);
	memcpy(e->data + 22, &m->np, 4);
	memcpy(e->data + 26, m->lens, 2 * m->np);
	memcpy(e->data + 26 + 2 * m->np, m->vals, m->vlen);
	e->len = len;
	e->dump_flags = dump_flags;
	e->section_before = m->pending_section;
	m->pending_section = 0;
	m->n++;
}

void mem_new_section(struct scap *h)
{
	((struct mem *)h->engine)->pending_section = 1;
}

static char *dup_s(const char *s)
{
	return strdup(s ? s : "");
}

struct scap_threadinfo *mem_thread(struct scap *h, int64_t tid, int64_t pid, int64_t ptid,
				   const char *comm, const char *cwd)
{
	struct scap_threadinfo *t = scap_metadata_add_thread(&h->meta);

	t->tid = (uint64_t)tid;
	t->pid = (uint64_t)pid;
	t->ptid = (uint64_t)ptid;
	t->comm = dup_s(comm);
	t->exe = dup_s(comm);
	t->exepath = dup_s("");
	t->cwd = dup_s(cwd);
	t->root = dup_s("/");
	t->args = dup_s("");
	t->env = dup_s("");
	t->cgroups = dup_s("");
	t->fdlimit = 1024;
	if (tid != pid)
		t->flags = (1u << 13) | 1u;	/* CLONE_THREAD | CLONE_FILES */
	return t;
}

struct scap_fdinfo *mem_fd_file(struct scap_threadinfo *t, int64_t fd, const char *name)
{
	struct scap_fdinfo *f = scap_thread_add_fd(t);

	f->fd = fd;
	f->type = SCAP_FD_FILE;
	f->name = dup_s(name);
	return f;
}

void mem_iface4(struct scap *h, const char *ifname, const char *addr, const char *netmask)
{
	struct scap_ifinfo_ipv4 *i = scap_metadata_new_ipv4(&h->meta);

	i->type = 1;
	inet_pton(AF_INET, addr, &i->addr);
	inet_pton(AF_INET, netmask, &i->netmask);
	strncpy(i->ifname, ifname, sizeof(i->ifname) - 1);
	h->meta.nipv4++;
}

void mem_iface6(struct scap *h, const char *ifname, const char *addr)
{
	struct scap_ifinfo_ipv6 *i = scap_metadata_new_ipv6(&h->meta);

	i->type = 2;
	inet_pton(AF_INET6, addr, i->addr);
	strncpy(i->ifname, ifname, sizeof(i->ifname) - 1);
	h->meta.nipv6++;
}
