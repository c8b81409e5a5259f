/*
 * test_blocks.c - unit tests of the .scap block parsers on hand-made byte
 * buffers: every metadata block type and version (MI, PL v1..v9 with both
 * V9 tails, FDL v1/v2, IL v1/v2, UL v1/v2), the v1 -> v2 event conversion
 * (scap_format.md 6.4) and scap_decode_params().
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "scap.h"
#include "savefile.h"
#include "scapbuild.h"

static char err[SCAP_ERRBUF_SIZE];

static int parse(struct scap_metadata *m, uint32_t type, const struct sbuf *b)
{
	err[0] = 0;
	return savefile_parse_block(m, type, b->p, b->len, err);
}

static void test_mi(void **state)
{
	struct scap_metadata m = { 0 };
	struct sbuf out = { 0 }, body = { 0 };

	(void)state;
	sb_mi(&out, "myhost", 4);
	assert_int_equal(out.len, 192);
	/* body = block minus header and trailer */
	sb_put(&body, out.p + 8, 180);
	assert_int_equal(parse(&m, MI_BLOCK_TYPE, &body), 0);
	assert_true(m.has_machine);
	assert_int_equal(m.machine.num_cpus, 4);
	assert_int_equal(m.machine.memory_size_bytes, 1ull << 30);
	assert_string_equal(m.machine.hostname, "myhost");
	scap_metadata_free(&m);
	body.len = 100;
	assert_int_equal(parse(&m, MI_BLOCK_TYPE_INT, &body), -1);
	assert_non_null(strstr(err, "machine info"));
	scap_metadata_free(&m);
	sb_free(&out);
	sb_free(&body);
}

/* one process-list entry of version ver (without the V9 length prefix) */
static void pl_entry(struct sbuf *e, int ver, uint64_t tid, const char *comm)
{
	sb_u64(e, tid);
	sb_u64(e, 100);
	sb_u64(e, 1);
	if (ver >= 6)
		sb_u64(e, 7);	/* sid */
	if (ver >= 8)
		sb_u64(e, 8);	/* vpgid */
	sb_lstr(e, comm);
	sb_lstr(e, "/bin/x");
	if (ver >= 7)
		sb_lstr(e, "/usr/bin/x");
	sb_lbytes(e, "a\0b", 3);	/* no final NUL */
	sb_lstr(e, "/tmp/");
	sb_u64(e, 4096);
	sb_u32(e, 0x10);
	sb_u32(e, 1000);
	sb_u32(e, 1001);
	if (ver >= 2) {
		sb_u32(e, 11);
		sb_u32(e, 12);
		sb_u32(e, 13);
		sb_u64(e, 14);
		sb_u64(e, 15);
	}
	if (ver >= 3)
		sb_lbytes(e, "A=1\0", 4);
	if (ver >= 4) {
		sb_u64(e, 21);
		sb_u64(e, 22);
		sb_lbytes(e, "cpu=/x\0", 7);
	}
	if (ver >= 5)
		sb_lstr(e, "/root");
}

static const uint32_t pl_types[10] = { 0, 0x202, 0x207, 0x209, 0x210, 0x211,
	0x212, 0x213, 0x214, 0x215 };

static void test_pl_versions(void **state)
{
	int ver;

	(void)state;
	for (ver = 1; ver <= 9; ver++) {
		struct scap_metadata m = { 0 };
		struct sbuf body = { 0 }, e = { 0 };
		struct scap_threadinfo *t;
		int k;

		for (k = 0; k < 2; k++) {
			e.len = 0;
			pl_entry(&e, ver, 500 + k, k ? "second" : "first");
			if (ver == 9)
				sb_u32(&body, (uint32_t)e.len + 4);
			sb_put(&body, e.p, e.len);
		}
		sb_put(&body, "\0\0\0", 3);	/* padding < 4 */
		assert_int_equal(parse(&m, pl_types[ver], &body), 0);
		assert_int_equal(m.nthreads, 2);
		t = &m.threads[1];
		assert_int_equal(t->tid, 501);
		assert_int_equal(t->pid, 100);
		assert_string_equal(t->comm, "second");
		assert_string_equal(t->exe, "/bin/x");
		assert_int_equal(t->args_len, 3);
		assert_memory_equal(t->args, "a\0b\0", 4);
		assert_string_equal(t->cwd, "/tmp/");
		assert_int_equal(t->fdlimit, 4096);
		assert_int_equal(t->uid, 1000);
		assert_int_equal(t->gid, 1001);
		assert_int_equal(t->sid, ver >= 6 ? 7 : -1);
		assert_int_equal(t->vpgid, ver >= 8 ? 8 : -1);
		assert_string_equal(t->exepath, ver >= 7 ? "/usr/bin/x" : "");
		assert_int_equal(t->vmrss_kb, ver >= 2 ? 12 : 0);
		assert_int_equal(t->pfminor, ver >= 2 ? 15 : 0);
		assert_int_equal(t->env_len, ver >= 3 ? 4 : 0);
		assert_int_equal(t->vtid, ver >= 4 ? 21 : -1);
		assert_int_equal(t->vpid, ver >= 4 ? 22 : -1);
		assert_int_equal(t->cgroups_len, ver >= 4 ? 7 : 0);
		assert_string_equal(t->root, ver >= 5 ? "/root" : "");
		assert_int_equal(t->loginuid, UINT32_MAX);
		scap_metadata_free(&m);
		sb_free(&body);
		sb_free(&e);
	}
}

/* V9 tails: none, loginuid only, 0.29.3 (5 bytes), HEAD (76 bytes) */
static void test_pl_v9_tails(void **state)
{
	int kind;

	(void)state;
	for (kind = 0; kind < 4; kind++) {
		struct scap_metadata m = { 0 };
		struct sbuf body = { 0 }, e = { 0 };

		pl_entry(&e, 9, 1, "t");
		if (kind == 1)
			sb_u32(&e, 42);
		if (kind == 2) {
			sb_u32(&e, 42);
			sb_u8(&e, 1);
		}
		if (kind == 3) {
			int i;

			sb_u64(&e, 123456789);	/* pidns_init_start_ts */
			sb_u32(&e, 34816);	/* tty */
			sb_u32(&e, 42);
			sb_u8(&e, 1);
			for (i = 0; i < 3; i++)
				sb_u64(&e, 0x1ff);
			sb_u8(&e, 0);
			for (i = 0; i < 3; i++)
				sb_u64(&e, 5);
			sb_u8(&e, 0);
			sb_u8(&e, 0);
			sb_u64(&e, 77);	/* pgid */
		}
		sb_u32(&body, (uint32_t)e.len + 4);
		sb_put(&body, e.p, e.len);
		assert_int_equal(parse(&m, PL_BLOCK_TYPE_V9, &body), 0);
		assert_int_equal(m.nthreads, 1);
		assert_int_equal(m.threads[0].loginuid, kind ? 42 : UINT32_MAX);
		assert_int_equal(m.threads[0].exe_writable, kind >= 2);
		scap_metadata_free(&m);
		sb_free(&body);
		sb_free(&e);
	}
}

static void test_pl_errors(void **state)
{
	struct scap_metadata m = { 0 };
	struct sbuf body = { 0 }, e = { 0 };
	char big[1100];

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	pl_entry(&e, 9, 1, big);
	sb_u32(&body, (uint32_t)e.len + 4);
	sb_put(&body, e.p, e.len);
	assert_int_equal(parse(&m, PL_BLOCK_TYPE_V9, &body), -1);
	assert_non_null(strstr(err, "comm"));
	scap_metadata_free(&m);
	/* entry length beyond the block */
	body.len = 0;
	sb_u32(&body, 5000);
	sb_put(&body, e.p, 100);
	assert_int_equal(parse(&m, PL_BLOCK_TYPE_V9, &body), -1);
	scap_metadata_free(&m);
	/* v8 entry cut in the middle */
	e.len = 0;
	pl_entry(&e, 8, 1, "x");
	e.len -= 10;
	assert_int_equal(parse(&m, PL_BLOCK_TYPE_V8, &e), -1);
	assert_non_null(strstr(err, "process list"));
	scap_metadata_free(&m);
	sb_free(&body);
	sb_free(&e);
}

static void add_thread(struct scap_metadata *m, uint64_t tid)
{
	struct scap_threadinfo *t = scap_metadata_add_thread(m);

	assert_non_null(t);
	t->tid = tid;
}

/* all fd types of a v1 or v2 FDL body */
static void fd_entries(struct sbuf *b, int v2)
{
	struct sbuf e = { 0 };
	uint8_t ip6[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	int i;

	for (i = 0; i < 7; i++) {
		e.len = 0;
		sb_u64(&e, 10 + i);
		sb_u64(&e, 900 + i);
		switch (i) {
		case 0:
			sb_u8(&e, SCAP_FD_FILE);
			sb_lstr(&e, "/etc/passwd");
			break;
		case 1:
			sb_u8(&e, SCAP_FD_IPV4_SOCK);
			sb_u32(&e, 0x0100007f);
			sb_u32(&e, 0x0200007f);
			sb_u16(&e, 1234);
			sb_u16(&e, 80);
			sb_u8(&e, SCAP_L4_TCP);
			break;
		case 2:
			sb_u8(&e, SCAP_FD_IPV6_SOCK);
			sb_put(&e, ip6, 16);
			sb_put(&e, ip6, 16);
			sb_u16(&e, 5);
			sb_u16(&e, 6);
			sb_u8(&e, SCAP_L4_UDP);
			break;
		case 3:
			sb_u8(&e, SCAP_FD_IPV4_SERVSOCK);
			sb_u32(&e, 0);
			sb_u16(&e, 22);
			sb_u8(&e, SCAP_L4_TCP);
			break;
		case 4:
			sb_u8(&e, SCAP_FD_IPV6_SERVSOCK);
			sb_put(&e, ip6, 16);
			sb_u16(&e, 443);
			sb_u8(&e, SCAP_L4_TCP);
			break;
		case 5:
			sb_u8(&e, SCAP_FD_UNIX_SOCK);
			sb_u64(&e, 0xffff1);
			sb_u64(&e, 0xffff2);
			sb_lstr(&e, "/run/sock");
			break;
		case 6:
			sb_u8(&e, SCAP_FD_FILE_V2);
			sb_u32(&e, 0x41);
			sb_lstr(&e, "/var/log/x");
			if (v2)
				sb_u32(&e, 0x801);
			break;
		}
		if (v2)
			sb_u32(b, (uint32_t)e.len + 4);
		sb_put(b, e.p, e.len);
	}
	sb_free(&e);
}

static void test_fdl(void **state)
{
	int v2;

	(void)state;
	for (v2 = 0; v2 < 2; v2++) {
		struct scap_metadata m = { 0 };
		struct sbuf body = { 0 };
		struct scap_fdinfo *f;

		add_thread(&m, 5);
		add_thread(&m, 6);
		sb_u64(&body, 6);
		fd_entries(&body, v2);
		sb_put(&body, "\0\0", 2);
		assert_int_equal(parse(&m, v2 ? FDL_BLOCK_TYPE_V2 : FDL_BLOCK_TYPE, &body), 0);
		assert_int_equal(m.threads[0].nfds, 0);
		assert_int_equal(m.threads[1].nfds, 7);
		f = m.threads[1].fds;
		assert_int_equal(f[0].type, SCAP_FD_FILE);
		assert_string_equal(f[0].name, "/etc/passwd");
		assert_int_equal(f[0].ino, 900);
		assert_int_equal(f[1].info.ipv4.sip, 0x0100007f);
		assert_int_equal(f[1].info.ipv4.dport, 80);
		assert_int_equal(f[1].info.ipv4.l4proto, SCAP_L4_TCP);
		assert_string_equal(f[1].name, "");
		assert_int_equal(f[2].info.ipv6.sip[1], 0x01);
		assert_int_equal(f[2].info.ipv6.dport, 6);
		assert_int_equal(f[3].info.ipv4serv.port, 22);
		assert_int_equal(f[4].info.ipv6serv.port, 443);
		assert_int_equal(f[5].info.unix_sock.destination, 0xffff2);
		assert_string_equal(f[5].name, "/run/sock");
		assert_int_equal(f[6].type, SCAP_FD_FILE_V2);
		assert_int_equal(f[6].open_flags, 0x41);
		assert_string_equal(f[6].name, "/var/log/x");
		assert_int_equal(f[6].has_dev, v2);
		assert_int_equal(f[6].dev, v2 ? 0x801 : 0);
		scap_metadata_free(&m);
		sb_free(&body);
	}
}

static void test_fdl_errors(void **state)
{
	struct scap_metadata m = { 0 };
	struct sbuf body = { 0 }, e = { 0 };

	(void)state;
	sb_u64(&body, 1234);
	assert_int_equal(parse(&m, FDL_BLOCK_TYPE_V2, &body), -1);
	assert_string_equal(err, "corrupted trace file. FD block references TID 1234, which doesn't exist.");
	add_thread(&m, 1234);
	/* v2: unknown type skipped through entry_len */
	sb_u64(&e, 3);
	sb_u64(&e, 0);
	sb_u8(&e, 99);
	sb_put(&e, "junkjunk", 8);
	sb_u32(&body, (uint32_t)e.len + 4);
	sb_put(&body, e.p, e.len);
	assert_int_equal(parse(&m, FDL_BLOCK_TYPE_V2, &body), 0);
	assert_int_equal(m.threads[0].nfds, 1);
	assert_int_equal(m.threads[0].fds[0].type, SCAP_FD_UNSUPPORTED);
	assert_string_equal(m.threads[0].fds[0].name, "unknown-type:[99]");
	/* v1: unknown type is an error */
	body.len = 0;
	sb_u64(&body, 1234);
	sb_put(&body, e.p, e.len);
	assert_int_equal(parse(&m, FDL_BLOCK_TYPE, &body), -1);
	assert_non_null(strstr(err, "wrong fd type 99"));
	/* name length 1024 is rejected */
	body.len = 0;
	sb_u64(&body, 1234);
	sb_u64(&body, 3);
	sb_u64(&body, 0);
	sb_u8(&body, SCAP_FD_FILE);
	sb_u16(&body, 1024);
	{
		char nm[1024];

		memset(nm, 'a', sizeof(nm));
		sb_put(&body, nm, sizeof(nm));
	}
	assert_int_equal(parse(&m, FDL_BLOCK_TYPE, &body), -1);
	assert_non_null(strstr(err, "fd name"));
	/* entry length larger than the block */
	body.len = 0;
	sb_u64(&body, 1234);
	sb_u32(&body, 200);
	sb_u64(&body, 3);
	assert_int_equal(parse(&m, FDL_BLOCK_TYPE_V2, &body), -1);
	scap_metadata_free(&m);
	sb_free(&body);
	sb_free(&e);
}

static void if_entry(struct sbuf *b, int v2, uint16_t type, const char *name)
{
	struct sbuf e = { 0 };
	uint8_t a6[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };

	sb_u16(&e, type);
	sb_u16(&e, (uint16_t)strlen(name));
	if (type == 1 || type == 3) {
		sb_u32(&e, 0x0100007f);
		sb_u32(&e, 0xff);
		sb_u32(&e, 0);
	} else {
		sb_put(&e, a6, 16);
		sb_put(&e, a6, 16);
		sb_put(&e, a6, 16);
	}
	if (type <= 2)
		sb_u64(&e, 1000);
	sb_put(&e, name, strlen(name));
	if (v2) {
		sb_u32(b, (uint32_t)e.len);
		sb_put(b, e.p, e.len);
	} else {
		sb_put(b, e.p, e.len);
	}
	sb_free(&e);
}

static void test_il(void **state)
{
	int v2;

	(void)state;
	for (v2 = 0; v2 < 2; v2++) {
		struct scap_metadata m = { 0 };
		struct sbuf body = { 0 };

		if_entry(&body, v2, 1, "lo");
		if_entry(&body, v2, 2, "lo");
		if_entry(&body, v2, 3, "eth0");
		if_entry(&body, v2, 4, "eth1");
		sb_put(&body, "\0", 1);
		assert_int_equal(parse(&m, v2 ? IL_BLOCK_TYPE_V2 : IL_BLOCK_TYPE, &body), 0);
		assert_true(m.has_iflist);
		assert_int_equal(m.nipv4, 2);
		assert_int_equal(m.nipv6, 2);
		assert_string_equal(m.ipv4[0].ifname, "lo");
		assert_int_equal(m.ipv4[0].addr, 0x0100007f);
		assert_int_equal(m.ipv4[0].linkspeed, 1000);
		assert_string_equal(m.ipv4[1].ifname, "eth0");
		assert_int_equal(m.ipv4[1].linkspeed, 0);
		assert_int_equal(m.ipv6[0].addr[15], 1);
		assert_string_equal(m.ipv6[1].ifname, "eth1");
		scap_metadata_free(&m);
		/* unknown interface type */
		body.len = 0;
		if_entry(&body, v2, 1, "lo");
		sb_u32(&body, 0x00000009);
		sb_u32(&body, 0);
		assert_int_equal(parse(&m, v2 ? IL_BLOCK_TYPE_V2 : IL_BLOCK_TYPE, &body), -1);
		assert_non_null(strstr(err, "interface list"));
		scap_metadata_free(&m);
		sb_free(&body);
	}
}

static void ul_entries(struct sbuf *b, int v2, const char *name)
{
	struct sbuf e = { 0 };

	sb_u8(&e, 0);
	sb_u32(&e, 0);
	sb_u32(&e, 0);
	sb_lstr(&e, name);
	sb_lstr(&e, "/root");
	sb_lstr(&e, "/bin/sh");
	if (v2)
		sb_u32(b, (uint32_t)e.len + 4);
	sb_put(b, e.p, e.len);
	e.len = 0;
	sb_u8(&e, 1);
	sb_u32(&e, 65534);
	sb_lstr(&e, "nogroup");
	if (v2)
		sb_u32(b, (uint32_t)e.len + 4);
	sb_put(b, e.p, e.len);
	sb_free(&e);
}

static void test_ul(void **state)
{
	char big[300];
	int v2;

	(void)state;
	memset(big, 'u', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	for (v2 = 0; v2 < 2; v2++) {
		struct scap_metadata m = { 0 };
		struct sbuf body = { 0 };

		ul_entries(&body, v2, "root");
		assert_int_equal(parse(&m, v2 ? UL_BLOCK_TYPE_V2 : UL_BLOCK_TYPE, &body), 0);
		assert_true(m.has_userlist);
		assert_int_equal(m.nusers, 1);
		assert_int_equal(m.ngroups, 1);
		assert_string_equal(m.users[0].name, "root");
		assert_string_equal(m.users[0].shell, "/bin/sh");
		assert_int_equal(m.groups[0].gid, 65534);
		assert_string_equal(m.groups[0].name, "nogroup");
		scap_metadata_free(&m);
		body.len = 0;
		ul_entries(&body, v2, big);
		assert_int_equal(parse(&m, v2 ? UL_BLOCK_TYPE_V2 : UL_BLOCK_TYPE_INT, &body), -1);
		assert_non_null(strstr(err, "user name"));
		scap_metadata_free(&m);
		sb_free(&body);
	}
}

static void test_unknown_block(void **state)
{
	struct scap_metadata m = { 0 };
	struct sbuf body = { 0 };

	(void)state;
	sb_put(&body, "whatever", 8);
	assert_int_equal(parse(&m, 0x0BADF00D, &body), 0);
	assert_int_equal(m.nthreads, 0);
	scap_metadata_free(&m);
	sb_free(&body);
}

/* v1 event: 22-byte header, lengths, values */
static void v1_event(struct sbuf *b, uint16_t type, uint32_t n,
		     const uint16_t *lens, uint32_t extra)
{
	uint32_t len = 22 + 2 * n + extra, i;

	for (i = 0; i < n; i++)
		len += lens[i];
	sb_u64(b, 100);
	sb_u64(b, 7);
	sb_u32(b, len);
	sb_u16(b, type);
	for (i = 0; i < n; i++)
		sb_u16(b, lens[i]);
	for (i = 0; i < n; i++) {
		uint8_t z[64] = { 0 };

		sb_put(b, z, lens[i]);
	}
	for (i = 0; i < extra; i++)
		sb_u8(b, 0);
}

static void test_convert_v1(void **state)
{
	uint8_t out[512];
	struct sbuf b = { 0 };
	uint16_t l8[1] = { 8 };
	uint16_t lopen[3] = { 11, 4, 4 };
	struct scap_evt evt;

	(void)state;
	/* close_E with one 8-byte fd */
	v1_event(&b, PPME_SYSCALL_CLOSE_E, 1, l8, 0);
	assert_int_equal(savefile_convert_v1(b.p, b.len, out, err), 0);
	assert_int_equal(rd32(out + 16), b.len + 4);
	assert_int_equal(rd32(out + 22), 1);
	assert_int_equal(rd16(out + 26), 8);
	memset(&evt, 0, sizeof(evt));
	evt.data = out;
	evt.len = rd32(out + 16);
	assert_int_equal(scap_decode_params(&evt), 0);
	assert_int_equal(evt.nparams, 1);
	assert_int_equal(evt.plen[0], 8);
	assert_ptr_equal(evt.pval[0], out + 28);
	/* open_E without parameters (2018 drivers): nparams 0 */
	b.len = 0;
	v1_event(&b, PPME_SYSCALL_OPEN_E, 0, NULL, 0);
	assert_int_equal(savefile_convert_v1(b.p, b.len, out, err), 0);
	assert_int_equal(rd32(out + 22), 0);
	assert_int_equal(rd32(out + 16), 26);
	/* open_E with its 3 parameters */
	b.len = 0;
	v1_event(&b, PPME_SYSCALL_OPEN_E, 3, lopen, 0);
	assert_int_equal(savefile_convert_v1(b.p, b.len, out, err), 0);
	assert_int_equal(rd32(out + 22), 3);
	/* trailing garbage: can't calculate nparams */
	b.len = 0;
	v1_event(&b, PPME_SYSCALL_CLOSE_E, 1, l8, 5);
	assert_int_equal(savefile_convert_v1(b.p, b.len, out, err), -1);
	assert_non_null(strstr(err, "nparams"));
	/* length field larger than the block */
	b.len = 0;
	v1_event(&b, PPME_SYSCALL_CLOSE_E, 1, l8, 0);
	assert_int_equal(savefile_convert_v1(b.p, b.len - 1, out, err), -1);
	/* notification (280): writers stored len 3 too large */
	b.len = 0;
	{
		uint16_t l2[2] = { 2, 3 };

		v1_event(&b, PPME_NOTIFICATION_E, 2, l2, 3);
	}
	assert_int_equal(savefile_convert_v1(b.p, b.len, out, err), 0);
	assert_int_equal(rd32(out + 22), 2);
	assert_int_equal(rd32(out + 16), b.len + 1);
	sb_free(&b);
}

static void test_decode_params(void **state)
{
	struct sbuf b = { 0 };
	struct scap_evt evt;
	int64_t fd = 3;
	uint32_t sz = 16;
	const char *json = "{\"container\":{}}";
	struct sparam rx[4] = { { &fd, 8 }, { "root:", 5 }, { &fd, 8 }, { &sz, 4 } };
	struct sparam js[1] = { { json, (uint32_t)strlen(json) + 1 } };

	(void)state;
	/* HEAD-style read_X with 4 params: table has 2 */
	sb_event(&b, 1, 2, PPME_SYSCALL_READ_X, 4, rx, 0);
	memset(&evt, 0, sizeof(evt));
	evt.data = b.p;
	evt.len = (uint32_t)b.len;
	assert_int_equal(scap_decode_params(&evt), 0);
	assert_int_equal(evt.nparams, 2);
	assert_int_equal(evt.plen[1], 5);
	assert_memory_equal(evt.pval[1], "root:", 5);
	assert_ptr_equal(evt.pval[0], b.p + 26 + 8);
	/* a length running past the event */
	evt.len -= 13;
	assert_int_equal(scap_decode_params(&evt), -1);
	/* length array larger than the event */
	evt.len = 30;
	assert_int_equal(scap_decode_params(&evt), -1);
	/* large payload: u32 lengths */
	b.len = 0;
	sb_event(&b, 1, 2, PPME_CONTAINER_JSON_2_E, 1, js, 1);
	evt.data = b.p;
	evt.len = (uint32_t)b.len;
	assert_int_equal(scap_decode_params(&evt), 0);
	assert_int_equal(evt.nparams, 1);
	assert_int_equal(evt.plen[0], strlen(json) + 1);
	assert_string_equal((const char *)evt.pval[0], json);
	/* nparams 0xffffffff must not overflow */
	{
		uint32_t huge = UINT32_MAX;

		memcpy(b.p + 22, &huge, 4);
		assert_int_equal(scap_decode_params(&evt), -1);
	}
	sb_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mi),
		cmocka_unit_test(test_pl_versions),
		cmocka_unit_test(test_pl_v9_tails),
		cmocka_unit_test(test_pl_errors),
		cmocka_unit_test(test_fdl),
		cmocka_unit_test(test_fdl_errors),
		cmocka_unit_test(test_il),
		cmocka_unit_test(test_ul),
		cmocka_unit_test(test_unknown_block),
		cmocka_unit_test(test_convert_v1),
		cmocka_unit_test(test_decode_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
