/*
 * test_render.c - unit tests of the parameter renderers (render.c).
 *
 * Events are built in memory (memengine.c), pass through the state engine
 * and are rendered with render_evt_info() / render_bytebuf().  The expected
 * strings are what sysdig 0.29.3 printed for the same bytes (hand-made files
 * of docs/scap_format.md and docs/event_table.md, and the trace examples
 * of docs/filters.md, "Output formats").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "render.h"
#include "memengine.h"

/* mytool (1234), cwd /home/u/, fd 3 = /etc/hosts, fd 11 = the directory
 * /srv/data (no trailing '/', as directory fds are named), fd 12 = the
 * directory /, users/groups root */
static struct scap *base(void)
{
	struct scap *h = mem_open();
	struct scap_threadinfo *t = mem_thread(h, 1234, 1234, 1, "mytool", "/home/u/");
	struct scap_userinfo *u = scap_metadata_new_user(&h->meta);
	struct scap_groupinfo *g = scap_metadata_new_group(&h->meta);

	assert_non_null(u);
	h->meta.nusers++;
	strcpy(u->name, "root");
	assert_non_null(g);
	h->meta.ngroups++;
	strcpy(g->name, "root");
	h->meta.has_userlist = 1;
	mem_fd_file(t, 3, "/etc/hosts");
	mem_fd_file(t, 11, "/srv/data");
	mem_fd_file(t, 12, "/");
	return h;
}

/* Render every event of h in order and compare with want[] (NULL-ended). */
static void expect_infos(struct scap *h, const char *const *want)
{
	char err[SCAP_ERRBUF_SIZE];
	struct sinsp *s = sinsp_open(h, err);
	struct sinsp_evt e;
	struct sbuf out = { 0 };

	assert_non_null(s);
	for (; *want; want++) {
		assert_int_equal(sinsp_next(s, &e), SCAP_SUCCESS);
		sb_reset(&out);
		render_evt_info(s, &e, RB_DOTS, 1, &out);
		sb_putc(&out, 0);
		assert_string_equal(out.p, *want);
	}
	assert_int_equal(sinsp_next(s, &e), SCAP_EOF);
	sb_free(&out);
	sinsp_close(s);
}

static void test_ids_signals_times(void **state)
{
	struct scap *h = base();
	static const uint8_t fdlist[] = {
		2, 0,				/* two entries */
		3, 0, 0, 0, 0, 0, 0, 0, 1, 0,	/* fd 3, POLLIN */
		9, 0, 0, 0, 0, 0, 0, 0, 4, 0,	/* fd 9 (unknown), POLLOUT */
	};
	static const char *const want[] = {
		"uid=0(root) ",
		"uid=-1(<NONE>) ",
		"pid=1234(mytool) sig=9(SIGKILL) ",
		"interval=1500000000(1.5s) ",
		"fds=3:f1 9:?4 timeout=2000000(0.002s) sigmask=SIGHUP SIGTERM ",
		NULL
	};

	(void)state;
	ev_begin(h, PPME_SYSCALL_SETUID_E, 1234, 20);
	ev_u32(h, 0);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_SETUID_E, 1234, 21);
	ev_u32(h, 0xFFFFFFFFu);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_KILL_E, 1234, 22);
	ev_i64(h, 1234);
	ev_u8(h, 9);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_NANOSLEEP_E, 1234, 23);
	ev_i64(h, 1500000000);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_PPOLL_E, 1234, 24);
	ev_bytes(h, fdlist, sizeof(fdlist));
	ev_i64(h, 2000000);
	ev_u32(h, 0x4001);
	ev_end(h, 0);
	expect_infos(h, want);
}

static void test_flags_errno_paths_buffers(void **state)
{
	struct scap *h = base();
	static const char *const want[] = {
		"name=/etc/passwd flags=4097(O_RDONLY|O_CLOEXEC) mode=0 ",
		"fd=4(<f>/etc/passwd) name=/etc/passwd flags=4097(O_RDONLY|O_CLOEXEC) mode=0 dev=0 ",
		"fd=4(<f>/etc/passwd) size=16 ",
		"res=5 data=root: ",
		"name=/nope flags=1(O_RDONLY) mode=0 ",
		"fd=-2(ENOENT) name=/nope flags=1(O_RDONLY) mode=0 dev=0 ",
		"name=rel/file(/home/u/rel/file) flags=1(O_RDONLY) mode=0 ",
		"dirfd=11(<f>/srv/data) name=x.txt(/srv/data/x.txt) flags=1(O_RDONLY) mode=0 ",
		"dirfd=12(<f>/) name=etc(//etc) flags=1(O_RDONLY) mode=0 ",
		"name=(/home/u) flags=1(O_RDONLY) mode=0 ",
		NULL
	};

	(void)state;
	ev_begin(h, PPME_SYSCALL_OPEN_E, 1234, 1);
	ev_str(h, "/etc/passwd");
	ev_u32(h, 4097);
	ev_u32(h, 0);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_OPEN_X, 1234, 2);
	ev_i64(h, 4);
	ev_str(h, "/etc/passwd");
	ev_u32(h, 4097);
	ev_u32(h, 0);
	ev_u32(h, 0);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_READ_E, 1234, 3);
	ev_i64(h, 4);
	ev_u32(h, 16);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_READ_X, 1234, 4);
	ev_i64(h, 5);
	ev_bytes(h, "root:", 5);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_OPEN_E, 1234, 5);
	ev_str(h, "/nope");
	ev_u32(h, 1);
	ev_u32(h, 0);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_OPEN_X, 1234, 6);
	ev_i64(h, -2);
	ev_str(h, "/nope");
	ev_u32(h, 1);
	ev_u32(h, 0);
	ev_u32(h, 0);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_OPEN_E, 1234, 7);
	ev_str(h, "rel/file");
	ev_u32(h, 1);
	ev_u32(h, 0);
	ev_end(h, 0);
	/* relative to a directory fd: sysdig 0.29.3 joins them with a '/' */
	ev_begin(h, PPME_SYSCALL_OPENAT_2_E, 1234, 8);
	ev_i64(h, 11);
	ev_str(h, "x.txt");
	ev_u32(h, 1);
	ev_u32(h, 0);
	ev_end(h, 0);
	/* ... even when the directory is "/" (what 0.29.3 prints) */
	ev_begin(h, PPME_SYSCALL_OPENAT_2_E, 1234, 9);
	ev_i64(h, 12);
	ev_str(h, "etc");
	ev_u32(h, 1);
	ev_u32(h, 0);
	ev_end(h, 0);
	/* an empty path is the working directory (0.29.3 joins the NUL too;
	 * seen on a live mkdir("") under /tmp: "path=(/tmp)") */
	ev_begin(h, PPME_SYSCALL_OPEN_E, 1234, 10);
	ev_str(h, "");
	ev_u32(h, 1);
	ev_u32(h, 0);
	ev_end(h, 0);
	expect_infos(h, want);
}

static void test_sockets(void **state)
{
	struct scap *h = base();
	static const char *const want[] = {
		"res=0 tuple=10.0.0.1:40000->93.184.216.34:443 ",
		"domain=2(AF_INET) type=1 proto=0 ",
		"fd=5(<4>) ",
		"fd=5(<4>) ",
		"res=0 addr=0.0.0.0:8080 ",
		NULL
	};

	(void)state;
	ev_begin(h, PPME_SOCKET_CONNECT_X, 1234, 1);
	ev_i64(h, 0);
	ev_tuple4(h, "10.0.0.1", 40000, "93.184.216.34", 443);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_SOCKET_E, 1234, 2);
	ev_u32(h, 2);
	ev_u32(h, 1);
	ev_u32(h, 0);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_SOCKET_X, 1234, 3);
	ev_i64(h, 5);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_BIND_E, 1234, 4);
	ev_i64(h, 5);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_BIND_X, 1234, 5);
	ev_i64(h, 0);
	ev_addr4(h, "0.0.0.0", 8080);
	ev_end(h, 0);
	expect_infos(h, want);
}

static const char *bytebuf(const void *p, uint32_t len, enum render_bufmode mode, int truncate)
{
	static struct sbuf out;

	sb_reset(&out);
	render_bytebuf(p, len, mode, truncate, &out);
	sb_putc(&out, 0);
	return out.p;
}

static void test_bytebuf_modes(void **state)
{
	char big[100];

	(void)state;
	assert_string_equal(bytebuf("a\001b\n", 4, RB_DOTS, 0), "a.b.");
	assert_string_equal(bytebuf("root:", 5, RB_BASE64, 0), "cm9vdDo=");
	assert_string_equal(bytebuf("", 0, RB_DOTS, 0), "");
	/* 80-character cap of dotted buffers, last three characters "..." */
	memset(big, 'x', sizeof(big));
	assert_int_equal(strlen(bytebuf(big, sizeof(big), RB_DOTS, 1)), 80);
	assert_string_equal(bytebuf(big, sizeof(big), RB_DOTS, 1) + 77, "...");
	assert_int_equal(strlen(bytebuf(big, sizeof(big), RB_DOTS, 0)), 100);
	/* -x: offset rows, 2-byte groups, odd trailing byte */
	assert_string_equal(bytebuf("\x7f" "ELF\x02", 5, RB_HEX, 0),
			    "\n\t0x0000: 7f45 4c46 02\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_signals_times),
		cmocka_unit_test(test_flags_errno_paths_buffers),
		cmocka_unit_test(test_sockets),
		cmocka_unit_test(test_bytebuf_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
