/*
 * test_refrules.c - the state and rendering rules of sysdig 0.29.3 that
 * files nobody had seen showed (issue 15, one test per class letter), on
 * event streams built in memory (memengine.c): socket tuple merging and
 * naming (F, E), zero addresses filled from the interfaces (G), role
 * guessing (H), socket() types (I), sockets without role (J), local ends
 * (K), failed connects (L), fd.name_changed (M), per-thread process
 * fields (B), threads of unknown processes (A); and the true values where the reference reads memory wrong
 * (C: group.gid, E: a listening socket's peer, O: evt.latency.human).
 * Every other value is the one the reference prints on the same sequence
 * in the ref_* traces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "fields.h"
#include "render.h"
#include "sinsp.h"
#include "memengine.h"

#define AF_INET_ 2
#define AF_INET6_ 10
#define AF_UNIX_ 1
#define STREAM 1
#define DGRAM 2
#define RAW 3
#define CLOEXEC 02000000

static struct sinsp *open_mem(struct scap *h)
{
	char err[SCAP_ERRBUF_SIZE];
	struct sinsp *s = sinsp_open(h, err);

	assert_non_null(s);
	return s;
}

/* the field as -p prints it, "<NA>" without a value */
static const char *fld(struct sinsp *s, struct sinsp_evt *e, const char *name)
{
	static char out[4096];
	static struct field_value v;
	struct field_ref f;
	char err[256];

	memset(&f, 0, sizeof(f));
	assert_true(field_parse(name, &f, err, sizeof(err)) > 0);
	if (!field_extract(s, e, &f, &v))
		return "<NA>";
	return field_to_string(&f, &v, out, sizeof(out));
}

/* the fd parameter of an event as the default output shows it, "<4u>..." */
static const char *fdparam(struct sinsp *s, struct sinsp_evt *e)
{
	static char out[4096];
	struct sbuf b = { 0 };

	assert_non_null(e->fdinfo);
	sb_putc(&b, '<');
	render_fd_typechars(e->fdinfo, &b);
	sb_putc(&b, '>');
	sb_puts(&b, e->fdinfo->name);
	snprintf(out, sizeof(out), "%s", b.p);
	sb_free(&b);
	(void)s;
	return out;
}

static struct scap *machine(void)
{
	struct scap *h = mem_open();

	mem_thread(h, 100, 100, 1, "wl", "/");
	mem_iface4(h, "lo", "127.0.0.1", "255.0.0.0");
	mem_iface4(h, "eth0", "10.0.0.5", "255.255.255.0");
	mem_iface6(h, "lo", "::1");
	return h;
}

static void ev_socket(struct scap *h, uint32_t domain, uint32_t type, uint32_t proto, int64_t fd)
{
	ev_begin(h, PPME_SOCKET_SOCKET_E, 100, 1);
	ev_u32(h, domain);
	ev_u32(h, type);
	ev_u32(h, proto);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_SOCKET_X, 100, 2);
	ev_i64(h, fd);
	ev_end(h, 0);
}

static void ev_bind4(struct scap *h, int64_t fd, const char *ip, uint16_t port)
{
	ev_begin(h, PPME_SOCKET_BIND_E, 100, 3);
	ev_i64(h, fd);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_BIND_X, 100, 4);
	ev_i64(h, 0);
	ev_addr4(h, ip, port);
	ev_end(h, 0);
}

/* a tuple of either family (an IPv6 address has a ':') */
static void ev_tuple(struct scap *h, const char *sip, uint16_t sport, const char *dip, uint16_t dport)
{
	if (strchr(sip, ':'))
		ev_tuple6(h, sip, sport, dip, dport);
	else
		ev_tuple4(h, sip, sport, dip, dport);
}

/* sendto enter + exit of two bytes */
static void ev_sendto(struct scap *h, int64_t fd, const char *sip, uint16_t sport, const char *dip,
		      uint16_t dport)
{
	ev_begin(h, PPME_SOCKET_SENDTO_E, 100, 5);
	ev_i64(h, fd);
	ev_u32(h, 2);
	ev_tuple(h, sip, sport, dip, dport);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_SENDTO_X, 100, 6);
	ev_i64(h, 2);
	ev_bytes(h, "hi", 2);
	ev_end(h, 0);
}

static void ev_recvfrom4(struct scap *h, int64_t fd, const char *sip, uint16_t sport, const char *dip,
			 uint16_t dport)
{
	ev_begin(h, PPME_SOCKET_RECVFROM_E, 100, 7);
	ev_i64(h, fd);
	ev_u32(h, 64);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_RECVFROM_X, 100, 8);
	ev_i64(h, 2);
	ev_bytes(h, "hi", 2);
	ev_tuple4(h, sip, sport, dip, dport);
	ev_end(h, 0);
}

static void ev_connect4(struct scap *h, int64_t fd, int64_t res, const char *ip, uint16_t port,
			const char *sip, uint16_t sport)
{
	ev_begin(h, PPME_SOCKET_CONNECT_E, 100, 9);
	ev_i64(h, fd);
	ev_addr4(h, ip, port);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_CONNECT_X, 100, 10);
	ev_i64(h, res);
	ev_tuple4(h, sip, sport, ip, port);
	ev_end(h, 0);
}

/* advance to the next event of the given type */
static void next_type(struct sinsp *s, struct sinsp_evt *e, uint16_t type)
{
	do
		assert_int_equal(sinsp_next(s, e), SCAP_SUCCESS);
	while (e->scap.type != type);
}

/* F + G: an unbound UDP sender: the zero source is the interface of the
 * peer (127.0.0.1 for a loopback peer); a later sendto elsewhere keeps the
 * first peer and only the source changes (ref_presock fd 7: "127.0.0.1:0->
 * 127.0.0.1:58242" then "127.0.0.1:35281->127.0.0.1:58242") */
static void udp_sender_merge(void **st)
{
	struct scap *h = machine();
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	ev_socket(h, AF_INET_, DGRAM, 0, 7);
	ev_sendto(h, 7, "0.0.0.0", 0, "127.0.0.1", 58242);
	ev_sendto(h, 7, "0.0.0.0", 35281, "127.0.0.1", 9);
	ev_sendto(h, 7, "0.0.0.0", 1, "10.0.0.77", 53);
	s = open_mem(h);
	next_type(s, &e, PPME_SOCKET_SOCKET_X);
	assert_string_equal(fdparam(s, &e), "<4>");	/* J: no role, no letter */
	next_type(s, &e, PPME_SOCKET_SENDTO_X);
	assert_string_equal(e.fdinfo->name, "127.0.0.1:0->127.0.0.1:58242");
	assert_string_equal(fdparam(s, &e), "<4u>127.0.0.1:0->127.0.0.1:58242");
	next_type(s, &e, PPME_SOCKET_SENDTO_X);
	assert_string_equal(e.fdinfo->name, "127.0.0.1:35281->127.0.0.1:58242");
	assert_string_equal(fld(s, &e, "fd.sport"), "58242");
	/* the source follows the tuple; with a zero source and a peer that
	 * stays 127.0.0.1 the source is 127.0.0.1 (exact interface) */
	next_type(s, &e, PPME_SOCKET_SENDTO_X);
	assert_string_equal(e.fdinfo->name, "127.0.0.1:1->127.0.0.1:58242");
	sinsp_close(s);
}

/* G: the zero source of an unknown peer: the interface of the same subnet,
 * else the first non-loopback one */
static void zero_source_from_interfaces(void **st)
{
	struct scap *h = machine();
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	ev_socket(h, AF_INET_, DGRAM, 0, 3);
	ev_sendto(h, 3, "0.0.0.0", 4000, "10.0.0.99", 53);
	ev_socket(h, AF_INET_, DGRAM, 0, 4);
	ev_sendto(h, 4, "0.0.0.0", 4001, "8.8.8.8", 53);
	ev_socket(h, AF_INET6_, DGRAM, 0, 5);
	ev_sendto(h, 5, "::", 0, "::1", 60757);
	s = open_mem(h);
	next_type(s, &e, PPME_SOCKET_SENDTO_X);
	assert_string_equal(e.fdinfo->name, "10.0.0.5:4000->10.0.0.99:53");
	next_type(s, &e, PPME_SOCKET_SENDTO_X);
	assert_string_equal(e.fdinfo->name, "10.0.0.5:4001->8.8.8.8:53");
	/* IPv6 the same way (ref_presock fd 9: "::1:0->::1:60757") */
	next_type(s, &e, PPME_SOCKET_SENDTO_X);
	assert_string_equal(e.fdinfo->name, "::1:0->::1:60757");
	assert_string_equal(fdparam(s, &e), "<6u>::1:0->::1:60757");
	sinsp_close(s);
}

/* H: a first datagram received on an unbound socket: the reference asks
 * "is my peer port bound here" (the socket itself: yes), then "is my
 * source port a client port" (yes): the wild guess of a read is server,
 * so the tuple is not swapped.  The old order (source port bound? no ->
 * client -> swapped) printed "127.0.0.1:41000->127.0.0.1:6000". */
static void role_guess_order(void **st)
{
	struct scap *h = machine();
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	ev_socket(h, AF_INET_, DGRAM, 0, 5);
	ev_recvfrom4(h, 5, "127.0.0.1", 6000, "127.0.0.1", 41000);
	s = open_mem(h);
	next_type(s, &e, PPME_SOCKET_RECVFROM_X);
	assert_string_equal(e.fdinfo->name, "127.0.0.1:6000->127.0.0.1:41000");
	assert_true(e.fdinfo->is_server);
	assert_false(e.fdinfo->is_role_client);
	sinsp_close(s);
}

/* E (a bug of the reference, not copied): a UDP server socket's first
 * datagram: the peer is the tuple's, not the server port reread as an
 * address ("127.0.0.1:35281->130.227.3.1:59406" in ref_presock) */
static void server_socket_peer(void **st)
{
	struct scap *h = machine();
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	ev_socket(h, AF_INET_, DGRAM, 0, 6);
	ev_bind4(h, 6, "0.0.0.0", 58242);
	ev_recvfrom4(h, 6, "127.0.0.1", 35281, "0.0.0.0", 58242);
	s = open_mem(h);
	next_type(s, &e, PPME_SOCKET_BIND_X);
	assert_string_equal(fdparam(s, &e), "<4u>0.0.0.0:58242");
	next_type(s, &e, PPME_SOCKET_RECVFROM_X);
	assert_string_equal(e.fdinfo->name, "127.0.0.1:35281->127.0.0.1:58242");
	assert_string_equal(fld(s, &e, "fd.sip"), "127.0.0.1");
	assert_string_equal(fld(s, &e, "fd.sport"), "58242");
	sinsp_close(s);
}

/* I: socket() types carry SOCK_CLOEXEC/SOCK_NONBLOCK; ICMP is raw only
 * for SOCK_RAW; ICMPv6 stays unknown; connect sets no UDP */
static void socket_types(void **st)
{
	struct scap *h = machine();
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	ev_socket(h, AF_INET_, DGRAM | CLOEXEC, 0, 3);
	ev_socket(h, AF_INET_, RAW, 1, 4);
	ev_socket(h, AF_INET_, DGRAM, 1, 5);
	ev_socket(h, AF_INET6_, RAW, 58, 6);
	ev_connect4(h, 6, 0, "127.0.0.1", 7, "127.0.0.1", 999);
	s = open_mem(h);
	next_type(s, &e, PPME_SOCKET_SOCKET_X);
	assert_int_equal(e.fdinfo->l4proto, SCAP_L4_UDP);
	next_type(s, &e, PPME_SOCKET_SOCKET_X);
	assert_int_equal(e.fdinfo->l4proto, SCAP_L4_RAW);
	assert_string_equal(fdparam(s, &e), "<4r>");	/* J: raw shows its letter */
	next_type(s, &e, PPME_SOCKET_SOCKET_X);
	assert_int_equal(e.fdinfo->l4proto, SCAP_L4_ICMP);
	next_type(s, &e, PPME_SOCKET_SOCKET_X);
	assert_int_equal(e.fdinfo->l4proto, SCAP_L4_UNKNOWN);
	next_type(s, &e, PPME_SOCKET_CONNECT_X);
	assert_int_equal(e.fdinfo->l4proto, SCAP_L4_UNKNOWN);
	assert_string_equal(fld(s, &e, "fd.l4proto"), "<NA>");
	sinsp_close(s);
}

/* J: a socket with no role yet has no client/server/local port */
static void no_role_no_ports(void **st)
{
	struct scap *h = machine();
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	ev_socket(h, AF_INET_, STREAM, 0, 3);
	ev_begin(h, PPME_SOCKET_CONNECT_E, 100, 9);	/* address in the enter only */
	ev_i64(h, 3);
	ev_addr4(h, "10.0.0.9", 80);
	ev_end(h, 0);
	s = open_mem(h);
	next_type(s, &e, PPME_SOCKET_CONNECT_E);
	assert_string_equal(fdparam(s, &e), "<4>");
	assert_string_equal(fld(s, &e, "fd.cport"), "<NA>");
	assert_string_equal(fld(s, &e, "fd.sport"), "<NA>");
	assert_string_equal(fld(s, &e, "fd.lport"), "<NA>");
	assert_string_equal(fld(s, &e, "fd.l4proto"), "<NA>");
	sinsp_close(s);
}

/* K: the local end is the source when the source address is the
 * machine's, else the peer, whatever the role; fd.is_server = the peer
 * address is the machine's (IPv6: the same /64) */
static void local_end_by_address(void **st)
{
	struct scap *h = machine();
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	ev_socket(h, AF_INET_, STREAM, 0, 3);
	ev_connect4(h, 3, 0, "8.8.8.8", 53, "172.17.0.2", 40000);	/* source not local */
	ev_socket(h, AF_INET_, STREAM, 0, 4);
	ev_connect4(h, 4, 0, "10.0.0.5", 80, "10.0.0.5", 40001);	/* loopback-like */
	ev_socket(h, AF_INET6_, STREAM, 0, 5);
	ev_begin(h, PPME_SOCKET_CONNECT_E, 100, 9);
	ev_i64(h, 5);
	ev_addr6(h, "::1", 5000);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_CONNECT_X, 100, 10);
	ev_i64(h, 0);
	ev_tuple6(h, "::1", 40002, "::1", 5000);
	ev_end(h, 0);
	s = open_mem(h);
	next_type(s, &e, PPME_SOCKET_CONNECT_X);
	assert_string_equal(fld(s, &e, "fd.lip"), "8.8.8.8");
	assert_string_equal(fld(s, &e, "fd.lport"), "53");
	assert_string_equal(fld(s, &e, "fd.rip"), "172.17.0.2");
	assert_string_equal(fld(s, &e, "fd.is_server"), "false");
	next_type(s, &e, PPME_SOCKET_CONNECT_X);
	assert_string_equal(fld(s, &e, "fd.lport"), "40001");
	assert_string_equal(fld(s, &e, "fd.rport"), "80");
	assert_string_equal(fld(s, &e, "fd.is_server"), "true");
	next_type(s, &e, PPME_SOCKET_CONNECT_X);
	assert_string_equal(fld(s, &e, "fd.lport"), "40002");
	assert_string_equal(fld(s, &e, "fd.lip"), "::1");
	assert_string_equal(fld(s, &e, "fd.is_server"), "true");
	sinsp_close(s);
}

/* L + M: a failed connect: fd.name is its own tuple (inet and unix, as
 * ref_failconn), the fd keeps its name and fd.name_changed is false; a
 * sendto that names its socket: true; the same tuple again: false */
static void failed_connect_and_name_changed(void **st)
{
	struct scap *h = machine();
	struct sinsp_evt e;
	struct sinsp *s;
	uint8_t un[1 + 19] = { AF_UNIX_ }, untuple[17 + 19] = { AF_UNIX_ };
	uint64_t peer = 0xffff8880064f8000ull;

	(void)st;
	memcpy(un + 1, "/tmp/no-such-socket", 19);
	memcpy(untuple + 9, &peer, 8);
	memcpy(untuple + 17, "/tmp/no-such-socket", 19);
	ev_socket(h, AF_INET_, STREAM, 0, 3);
	ev_connect4(h, 3, -111, "127.0.0.1", 1, "0.0.0.0", 57120);
	ev_socket(h, AF_UNIX_, STREAM, 0, 4);
	ev_begin(h, PPME_SOCKET_CONNECT_E, 100, 9);
	ev_i64(h, 4);
	ev_bytes(h, un, sizeof(un));
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_CONNECT_X, 100, 10);
	ev_i64(h, -2);
	ev_bytes(h, untuple, sizeof(untuple));
	ev_end(h, 0);
	ev_socket(h, AF_INET_, DGRAM, 0, 5);
	ev_sendto(h, 5, "0.0.0.0", 0, "127.0.0.1", 9);
	ev_sendto(h, 5, "127.0.0.1", 0, "127.0.0.1", 9);
	s = open_mem(h);
	next_type(s, &e, PPME_SOCKET_CONNECT_X);
	assert_string_equal(fld(s, &e, "fd.name"), "0.0.0.0:57120->127.0.0.1:1");
	assert_string_equal(e.fdinfo->name, "");
	assert_string_equal(fld(s, &e, "fd.name_changed"), "false");
	next_type(s, &e, PPME_SOCKET_CONNECT_X);
	assert_string_equal(fld(s, &e, "fd.name"), "0->ffff8880064f8000 /tmp/no-such-socket");
	assert_string_equal(e.fdinfo->name, "/tmp/no-such-socket");
	assert_string_equal(fld(s, &e, "fd.name_changed"), "false");
	next_type(s, &e, PPME_SOCKET_SOCKET_X);
	assert_string_equal(fld(s, &e, "fd.name_changed"), "false");
	next_type(s, &e, PPME_SOCKET_SENDTO_X);
	assert_string_equal(fld(s, &e, "fd.name_changed"), "true");
	next_type(s, &e, PPME_SOCKET_SENDTO_X);	/* the same tuple again */
	assert_string_equal(fld(s, &e, "fd.name_changed"), "false");
	sinsp_close(s);
}

/* B: proc.vmsize/vmrss/vmswap and proc.duration are the thread's own;
 * thread.vmsize/vmrss the main thread's, 0 on other threads; proc.pname
 * follows the thread's own ptid.  C: group.gid is the 32-bit gid, not
 * gid + children * 2^32 (the reference: 8589934591 for gid -1 with one
 * child) */
static void per_thread_fields(void **st)
{
	struct scap *h = mem_open();
	struct scap_threadinfo *m, *t;
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	mem_thread(h, 1, 1, 0, "init", "/");
	mem_thread(h, 50, 50, 1, "sh", "/");
	m = mem_thread(h, 100, 100, 50, "wl", "/");
	t = mem_thread(h, 101, 100, 1, "wl", "/");
	m->vmsize_kb = 1000;
	m->vmrss_kb = 400;
	m->vmswap_kb = 7;
	m->gid = 0xffffffffu;
	t->vmsize_kb = 500;
	t->vmrss_kb = 200;
	t->vmswap_kb = 3;
	t->gid = 0xffffffffu;
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 101, 1);
	ev_i64(h, 9);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 100, 2);
	ev_i64(h, 9);
	ev_end(h, 0);
	s = open_mem(h);
	assert_int_equal(sinsp_next(s, &e), SCAP_SUCCESS);
	assert_string_equal(fld(s, &e, "proc.vmsize"), "500");
	assert_string_equal(fld(s, &e, "proc.vmrss"), "200");
	assert_string_equal(fld(s, &e, "proc.vmswap"), "3");
	assert_string_equal(fld(s, &e, "thread.vmsize"), "0");
	assert_string_equal(fld(s, &e, "thread.vmrss"), "0");
	assert_string_equal(fld(s, &e, "proc.pname"), "init");
	assert_string_equal(fld(s, &e, "group.gid"), "4294967295");
	assert_int_equal(sinsp_next(s, &e), SCAP_SUCCESS);
	assert_string_equal(fld(s, &e, "proc.vmsize"), "1000");
	assert_string_equal(fld(s, &e, "thread.vmsize"), "1000");
	assert_string_equal(fld(s, &e, "thread.vmrss"), "400");
	assert_string_equal(fld(s, &e, "proc.pname"), "sh");
	assert_string_equal(fld(s, &e, "proc.pcmdline"), "sh");
	/* the main thread has a child (101): still the plain gid */
	assert_string_equal(fld(s, &e, "group.gid"), "4294967295");
	sinsp_close(s);
}

/* O: an event without a thread has latency 0: "0ns", whatever was
 * formatted before (the reference repeats its last text) */
static void latency_human_without_thread(void **st)
{
	struct scap *h = mem_open();
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	mem_thread(h, 100, 100, 1, "wl", "/");
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 100, 1000);
	ev_i64(h, 9);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_CLOSE_X, 100, 1001000);
	ev_i64(h, -9);
	ev_end(h, 0);
	ev_begin(h, PPME_SCHEDSWITCH_6_E, 0, 1002000);	/* no thread: tid 0 */
	ev_i64(h, 100);
	ev_i64(h, 0);
	ev_i64(h, 0);
	ev_u32(h, 0);
	ev_u32(h, 0);
	ev_u32(h, 0);
	ev_end(h, 0);
	s = open_mem(h);
	assert_int_equal(sinsp_next(s, &e), SCAP_SUCCESS);
	assert_int_equal(sinsp_next(s, &e), SCAP_SUCCESS);
	assert_string_equal(fld(s, &e, "evt.latency.human"), "1.00ms");
	assert_int_equal(sinsp_next(s, &e), SCAP_SUCCESS);
	assert_null(e.thread);
	assert_string_equal(fld(s, &e, "evt.latency.human"), "0ns");
	sinsp_close(s);
}

/* A: the first event of a thread created before anything of its process
 * was seen is its own clone exit (res 0, CLONE_THREAD): the process (pid
 * 200) is made from that event: its command, exe and args, loginuid 0,
 * no fd limit (the ps chisel's FDLIMIT 4294967295) */
static void thread_of_unknown_process(void **st)
{
	struct scap *h = mem_open();
	struct sinsp_threadinfo *p;
	struct sinsp_evt e;
	struct sinsp *s;

	(void)st;
	mem_thread(h, 1, 1, 0, "init", "/");
	ev_begin(h, PPME_SYSCALL_CLONE_20_X, 201, 51);
	ev_i64(h, 0);
	ev_str(h, "/usr/bin/worker");
	ev_bytes(h, "-v\0", 3);
	ev_i64(h, 201);
	ev_i64(h, 200);
	ev_i64(h, 200);
	ev_str(h, "/");
	ev_i64(h, 1024);
	ev_i64(h, 0);
	ev_i64(h, 5);
	ev_u32(h, 100);
	ev_u32(h, 50);
	ev_u32(h, 0);
	ev_str(h, "worker");
	ev_bytes(h, "cpu=/\0", 6);
	ev_u32(h, (1u << 13) | 1u);	/* CLONE_THREAD | CLONE_FILES */
	ev_u32(h, 0);
	ev_u32(h, 0);
	ev_i64(h, 201);
	ev_i64(h, 200);
	ev_end(h, 0);
	s = open_mem(h);
	assert_int_equal(sinsp_next(s, &e), SCAP_SUCCESS);
	assert_non_null(e.thread);
	assert_int_equal(e.thread->tid, 201);
	assert_string_equal(fld(s, &e, "proc.pid"), "200");
	assert_string_equal(fld(s, &e, "proc.pname"), "worker");
	assert_string_equal(fld(s, &e, "proc.pcmdline"), "worker -v");
	p = sinsp_get_thread(s, 200);
	assert_non_null(p);
	assert_string_equal(p->comm, "worker");
	assert_string_equal(p->exe, "/usr/bin/worker");
	assert_int_equal(p->loginuid, 0);
	assert_int_equal((uint32_t)p->fdlimit, 4294967295u);
	sinsp_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(udp_sender_merge),
		cmocka_unit_test(zero_source_from_interfaces),
		cmocka_unit_test(role_guess_order),
		cmocka_unit_test(server_socket_peer),
		cmocka_unit_test(socket_types),
		cmocka_unit_test(no_role_no_ports),
		cmocka_unit_test(local_end_by_address),
		cmocka_unit_test(failed_connect_and_name_changed),
		cmocka_unit_test(per_thread_fields),
		cmocka_unit_test(latency_human_without_thread),
		cmocka_unit_test(thread_of_unknown_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
