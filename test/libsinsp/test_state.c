/*
 * test_state.c - unit tests of the state engine on events built in memory
 * (memengine.c): placeholders, pairing, deferred removals, clone/execve,
 * fd creation and naming, sockets, cwd, limits, sections, state-only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fields.h"
#include "filter.h"
#include "sinsp.h"
#include "memengine.h"
#include "tracer.h"

#define CLONE_FILES 1u
#define CLONE_THREAD (1u << 13)

static struct sinsp *open_mem(struct scap *h)
{
	char err[SCAP_ERRBUF_SIZE];
	struct sinsp *s = sinsp_open(h, err);

	assert_non_null(s);
	return s;
}

static void next_ok(struct sinsp *s, struct sinsp_evt *evt)
{
	assert_int_equal(sinsp_next(s, evt), SCAP_SUCCESS);
}

/* a bash (100) with /etc/passwd on fd 3, cwd /home/u/ */
static struct scap *base(void)
{
	struct scap *h = mem_open();
	struct scap_threadinfo *t = mem_thread(h, 100, 100, 1, "bash", "/home/u");

	mem_fd_file(t, 3, "/etc/passwd");
	mem_thread(h, 101, 100, 1, "bash", "/home/u");
	return h;
}

static void ev_open(struct scap *h, uint64_t tid, const char *name, int64_t fd, uint32_t flags)
{
	ev_begin(h, PPME_SYSCALL_OPEN_E, tid, 10);
	ev_str(h, name);
	ev_u32(h, flags);
	ev_u32(h, 0);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_OPEN_X, tid, 11);
	ev_i64(h, fd);
	ev_str(h, name);
	ev_u32(h, flags);
	ev_u32(h, 0);
	ev_u32(h, 0);
	ev_end(h, 0);
}

static void ev_close(struct scap *h, uint64_t tid, int64_t fd, int64_t res)
{
	ev_begin(h, PPME_SYSCALL_CLOSE_E, tid, 20);
	ev_i64(h, fd);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_CLOSE_X, tid, 21);
	ev_i64(h, res);
	ev_end(h, 0);
}

static void placeholder(void **st)
{
	struct scap *h = mem_open();
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 42, 1);
	ev_i64(h, 3);
	ev_end(h, 0);
	s = open_mem(h);
	next_ok(s, &evt);
	assert_int_equal(evt.num, 1);
	assert_non_null(evt.thread);
	assert_string_equal(evt.thread->comm, "<NA>");
	assert_string_equal(evt.thread->exe, "<NA>");
	assert_int_equal(evt.thread->ptid, -1);
	assert_int_equal(evt.thread->pid, 42);
	assert_int_equal(evt.thread->uid, 0xFFFFFFFF);
	assert_int_equal(evt.thread->gid, 0xFFFFFFFF);
	assert_int_equal(sinsp_next(s, &evt), SCAP_EOF);
	sinsp_close(s);
}

static void metadata_and_sharing(void **st)
{
	struct scap *h = base();
	struct sinsp *s = open_mem(h);
	struct sinsp_threadinfo *t = sinsp_get_thread(s, 101), *m;
	struct sinsp_fdinfo *f;

	(void)st;
	assert_non_null(t);
	m = sinsp_get_main_thread(s, t);
	assert_non_null(m);
	assert_int_equal(m->tid, 100);
	assert_int_equal(m->nchildren, 1);
	assert_string_equal(m->cwd, "/home/u/");
	/* the thread shares its main thread's table */
	assert_ptr_equal(sinsp_thread_fdtable(s, t), sinsp_thread_fdtable(s, m));
	f = sinsp_fd_lookup(sinsp_thread_fdtable(s, t), 3);
	assert_non_null(f);
	assert_string_equal(f->name, "/etc/passwd");
	assert_int_equal(sinsp_fd_typechar(f), 'f');
	sinsp_close(s);
}

static void open_close_deferred(void **st)
{
	struct scap *h = base();
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_open(h, 101, "notes/../a.txt", 5, 1);
	ev_close(h, 100, 5, 0);
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 100, 30);
	ev_i64(h, 5);
	ev_end(h, 0);
	s = open_mem(h);
	next_ok(s, &evt);	/* open E */
	next_ok(s, &evt);	/* open X */
	assert_non_null(evt.fdinfo);
	assert_string_equal(evt.fdinfo->name, "/home/u/a.txt");
	assert_int_equal(evt.fd, 5);
	assert_true(evt.has_enter);
	assert_int_equal(evt.enter.type, PPME_SYSCALL_OPEN_E);
	next_ok(s, &evt);	/* close E: fd resolved from the shared table */
	assert_non_null(evt.fdinfo);
	next_ok(s, &evt);	/* close X: still there */
	assert_non_null(evt.fdinfo);
	assert_string_equal(evt.fdinfo->name, "/home/u/a.txt");
	assert_int_equal(evt.errorcode, 0);
	next_ok(s, &evt);	/* next event: removed before parsing */
	assert_null(evt.fdinfo);
	assert_int_equal(evt.fd, 5);
	assert_true(evt.uses_fd);
	sinsp_close(s);
}

static void failed_and_unpaired(void **st)
{
	struct scap *h = base();
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_open(h, 100, "/nope", -2, 1);
	/* exit without its enter: no fd context, no error code */
	ev_begin(h, PPME_SYSCALL_CLOSE_X, 100, 40);
	ev_i64(h, -9);
	ev_end(h, 0);
	s = open_mem(h);
	next_ok(s, &evt);
	next_ok(s, &evt);
	assert_null(evt.fdinfo);
	assert_int_equal(evt.errorcode, 2);
	next_ok(s, &evt);
	assert_int_equal(evt.errorcode, 0);
	assert_false(evt.uses_fd);
	assert_false(evt.has_enter);
	sinsp_close(s);
}

static void ev_clone(struct scap *h, uint64_t tid, int64_t res, uint32_t flags, int64_t pid, int64_t ptid)
{
	ev_begin(h, PPME_SYSCALL_CLONE_20_E, tid, 50);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_CLONE_20_X, tid, 51);
	ev_i64(h, res);
	ev_str(h, "/bin/bash");
	ev_bytes(h, "-c\0ls\0", 6);
	ev_i64(h, (int64_t)tid);
	ev_i64(h, pid);
	ev_i64(h, ptid);
	ev_str(h, "/home/u");
	ev_i64(h, 1024);
	ev_i64(h, 0);
	ev_i64(h, 5);
	ev_u32(h, 100);
	ev_u32(h, 50);
	ev_u32(h, 0);
	ev_str(h, "bash");
	ev_bytes(h, "cpu=/\0", 6);
	ev_u32(h, flags);
	ev_u32(h, 1000);
	ev_u32(h, 1000);
	ev_i64(h, (int64_t)tid);
	ev_i64(h, pid);
	ev_end(h, 0);
}

static void clone_fork_exec_exit(void **st)
{
	struct scap *h = base();
	struct sinsp_threadinfo *c;
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_clone(h, 100, 200, 0, 100, 1);	/* fork: child 200 */
	ev_clone(h, 100, 201, CLONE_THREAD | CLONE_FILES, 100, 1);	/* thread 201 */
	ev_begin(h, PPME_SYSCALL_EXECVE_19_E, 200, 60);
	ev_str(h, "../bin/ls");
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_EXECVE_19_X, 200, 61);
	ev_i64(h, 0);
	ev_str(h, "ls");
	ev_bytes(h, "-l\0", 3);
	ev_i64(h, 200);
	ev_i64(h, 200);
	ev_i64(h, 100);
	ev_str(h, "/home/u");
	ev_i64(h, 4096);
	ev_i64(h, 0);
	ev_i64(h, 7);
	ev_u32(h, 10);
	ev_u32(h, 5);
	ev_u32(h, 0);
	ev_str(h, "ls");
	ev_bytes(h, "cpu=/\0", 6);
	ev_bytes(h, "A=1\0", 4);
	ev_end(h, 0);
	ev_begin(h, PPME_PROCEXIT_1_E, 200, 70);
	ev_i64(h, 0);
	ev_i64(h, 0);
	ev_u8(h, 0);
	ev_u8(h, 0);
	ev_end(h, 0);
	ev_close(h, 1, 0, 0);
	s = open_mem(h);
	next_ok(s, &evt);
	next_ok(s, &evt);
	c = sinsp_get_thread(s, 200);
	assert_non_null(c);
	assert_int_equal(c->pid, 200);
	assert_int_equal(c->ptid, 100);
	assert_string_equal(c->comm, "bash");
	assert_int_equal(c->uid, 1000);
	assert_string_equal(c->cwd, "/home/u/");
	/* fork copies the fd table */
	assert_ptr_not_equal(sinsp_thread_fdtable(s, c), sinsp_thread_fdtable(s, sinsp_get_thread(s, 100)));
	assert_non_null(sinsp_fd_lookup(sinsp_thread_fdtable(s, c), 3));
	next_ok(s, &evt);
	next_ok(s, &evt);
	c = sinsp_get_thread(s, 201);
	assert_non_null(c);
	assert_int_equal(c->pid, 100);
	assert_int_equal(sinsp_get_thread(s, 100)->nchildren, 2);
	assert_ptr_equal(sinsp_thread_fdtable(s, c), sinsp_thread_fdtable(s, sinsp_get_thread(s, 100)));
	next_ok(s, &evt);
	next_ok(s, &evt);	/* execve exit */
	c = sinsp_get_thread(s, 200);
	assert_string_equal(c->comm, "ls");
	assert_string_equal(c->exe, "ls");
	assert_string_equal(c->exepath, "/home/bin/ls");
	assert_int_equal(c->fdlimit, 4096);
	assert_int_equal(c->env_len, 4);
	assert_non_null(sinsp_fd_lookup(sinsp_thread_fdtable(s, c), 3));	/* not closed */
	next_ok(s, &evt);	/* procexit: still visible */
	assert_ptr_equal(evt.thread, sinsp_get_thread(s, 200));
	next_ok(s, &evt);
	assert_null(sinsp_get_thread(s, 200));
	sinsp_close(s);
}

/* A close exit that never came (dropped or cut), the fd number reused, then
 * a fork: the child's copy holds each entry once under its own key (the
 * entry kept aside for the canceled close used to overwrite the new fd 3
 * in the copy and leak it: caught by the ASan pass with leak detection). */
static void clone_after_missing_close_exit(void **st)
{
	struct scap *h = base();
	struct sinsp_threadinfo *c;
	struct sinsp_fdinfo *f;
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 100, 20);	/* close(3) enter, no exit */
	ev_i64(h, 3);
	ev_end(h, 0);
	ev_open(h, 100, "/tmp/new", 3, 1);	/* fd 3 again */
	ev_clone(h, 100, 200, 0, 100, 1);	/* fork: child 200 */
	s = open_mem(h);
	for (int i = 0; i < 5; i++)
		next_ok(s, &evt);
	c = sinsp_get_thread(s, 200);
	assert_non_null(c);
	f = sinsp_fd_lookup(sinsp_thread_fdtable(s, c), 3);
	assert_non_null(f);
	assert_string_equal(f->name, "/tmp/new");
	f = sinsp_fd_lookup(sinsp_thread_fdtable(s, sinsp_get_thread(s, 100)), 3);
	assert_non_null(f);
	assert_string_equal(f->name, "/tmp/new");
	assert_int_equal(sinsp_next(s, &evt), SCAP_EOF);
	sinsp_close(s);
}

static void pipe_dup_fcntl(void **st)
{
	struct scap *h = base();
	struct sinsp_evt evt;
	struct sinsp_fdinfo *f;
	struct sinsp *s;

	(void)st;
	ev_begin(h, PPME_SYSCALL_PIPE_E, 100, 1);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_PIPE_X, 100, 2);
	ev_i64(h, 0);
	ev_i64(h, 6);
	ev_i64(h, 7);
	ev_i64(h, 999);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_DUP_E, 100, 3);
	ev_i64(h, 3);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_DUP_X, 100, 4);
	ev_i64(h, 1);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_FCNTL_E, 100, 5);
	ev_i64(h, 6);
	ev_u8(h, 1);	/* F_DUPFD */
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_FCNTL_X, 100, 6);
	ev_i64(h, 10);
	ev_end(h, 0);
	s = open_mem(h);
	while (sinsp_next(s, &evt) == SCAP_SUCCESS)
		;
	f = sinsp_fd_lookup(sinsp_thread_fdtable(s, sinsp_get_thread(s, 100)), 7);
	assert_non_null(f);
	assert_int_equal(sinsp_fd_typechar(f), 'p');
	assert_int_equal(f->ino, 999);
	f = sinsp_fd_lookup(sinsp_thread_fdtable(s, sinsp_get_thread(s, 100)), 1);
	assert_non_null(f);
	assert_string_equal(f->name, "/etc/passwd");
	f = sinsp_fd_lookup(sinsp_thread_fdtable(s, sinsp_get_thread(s, 100)), 10);
	assert_non_null(f);
	assert_int_equal(sinsp_fd_typechar(f), 'p');
	sinsp_close(s);
}

static void sockets(void **st)
{
	struct scap *h = base();
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_begin(h, PPME_SOCKET_SOCKET_E, 100, 1);
	ev_u32(h, 2);
	ev_u32(h, 1);
	ev_u32(h, 0);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_SOCKET_X, 100, 2);
	ev_i64(h, 4);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_CONNECT_E, 100, 3);
	ev_i64(h, 4);
	ev_addr4(h, "127.0.0.1", 80);
	ev_end(h, 0);
	ev_begin(h, PPME_SOCKET_CONNECT_X, 100, 4);
	ev_i64(h, -115);
	ev_tuple4(h, "127.0.0.1", 47192, "127.0.0.1", 80);
	ev_end(h, 0);
	/* bind + UDP inference on sendto */
	ev_begin(h, PPME_SOCKET_SENDTO_E, 100, 5);
	ev_i64(h, 9);
	ev_u32(h, 10);
	ev_tuple4(h, "0.0.0.0", 1, "8.8.8.8", 53);
	ev_end(h, 0);
	s = open_mem(h);
	next_ok(s, &evt);
	next_ok(s, &evt);
	assert_non_null(evt.fdinfo);
	assert_int_equal(sinsp_fd_typechar(evt.fdinfo), '4');
	assert_int_equal(sinsp_fd_l4proto(evt.fdinfo), SCAP_L4_NA);	/* no role yet: "<4>" */
	next_ok(s, &evt);
	next_ok(s, &evt);
	assert_int_equal(evt.errorcode, 115);
	assert_string_equal(evt.fdinfo->name, "127.0.0.1:47192->127.0.0.1:80");
	assert_int_equal(sinsp_fd_l4proto(evt.fdinfo), SCAP_L4_TCP);
	assert_true(evt.fdinfo->is_role_client);
	next_ok(s, &evt);
	assert_non_null(evt.fdinfo);
	assert_int_equal(evt.fdinfo->l4proto, SCAP_L4_UDP);
	sinsp_close(s);
}

static void cwd_and_limits(void **st)
{
	struct scap *h = base();
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_begin(h, PPME_SYSCALL_CHDIR_E, 101, 1);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_CHDIR_X, 101, 2);
	ev_i64(h, 0);
	ev_str(h, "../x//y/.");
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_PRLIMIT_E, 101, 3);
	ev_i64(h, 0);
	ev_u8(h, 7);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_PRLIMIT_X, 101, 4);
	ev_i64(h, 0);
	ev_i64(h, 777);
	ev_i64(h, 777);
	ev_i64(h, 1024);
	ev_i64(h, 1024);
	ev_end(h, 0);
	s = open_mem(h);
	while (sinsp_next(s, &evt) == SCAP_SUCCESS)
		;
	/* thread 101 has no CLONE_FS: its own cwd moves; reads go to the main */
	assert_string_equal(sinsp_get_thread(s, 101)->cwd, "/home/x/y/");
	assert_int_equal(sinsp_get_thread(s, 100)->fdlimit, 777);
	sinsp_close(s);
}

static void section_and_state_only(void **st)
{
	struct scap *h = base();
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	ev_open(h, 100, "/tmp/z", 8, 1);
	mem_new_section(h);
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 100, 1);
	ev_i64(h, 8);
	ev_end(h, SCAP_DF_STATE_ONLY);
	s = open_mem(h);
	next_ok(s, &evt);
	next_ok(s, &evt);
	assert_non_null(sinsp_fd_lookup(sinsp_thread_fdtable(s, sinsp_get_thread(s, 100)), 8));
	next_ok(s, &evt);	/* new section: the state was reloaded */
	assert_int_equal(evt.num, 3);
	assert_true(evt.filtered_out);
	assert_null(evt.fdinfo);
	assert_null(sinsp_fd_lookup(sinsp_thread_fdtable(s, sinsp_get_thread(s, 100)), 8));
	sinsp_close(s);
}

/* the string value of field NAME on evt, NULL when it has none */
static const char *field_str(struct sinsp *s, struct sinsp_evt *evt, const char *name,
			     struct field_value *v)
{
	char err[SCAP_ERRBUF_SIZE];
	struct field_ref f;

	assert_true(field_parse(name, &f, err, sizeof(err)) > 0);
	if (!field_extract(s, evt, &f, v))
		return NULL;
	if (v->type == PT_BOOL)
		return v->u ? "true" : "false";
	return v->str;
}

#define CT_A "5ea733068030962afe24c88712a2d865516ac6416d875c62ff481c8ab84dd928"

/* the container table: the threads' cgroups add a container with its id
 * only; a JSON or old container event describes it (replacing the entry,
 * newest last); the container.* fields read the table; a new section
 * drops it and reloads it from the threads */
static void container_table(void **st)
{
	static const char cg[] = "cpu=/\0cpuset=/docker/" CT_A "\0";
	struct scap *h = base();
	struct scap_threadinfo *t = mem_thread(h, 300, 300, 1, "falco", "/");
	struct field_value *v = malloc(sizeof(*v));
	struct sinsp_evt evt;
	struct sinsp *s;

	(void)st;
	assert_non_null(v);
	free(t->cgroups);
	t->cgroups = malloc(sizeof(cg));
	memcpy(t->cgroups, cg, sizeof(cg));
	t->cgroups_len = sizeof(cg) - 1;
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 300, 1);
	ev_i64(h, 3);
	ev_end(h, 0);
	ev_begin(h, PPME_CONTAINER_JSON_E, 300, 2);
	ev_str(h, "{\"container\":{\"id\":\"5ea733068030\",\"image\":\"sysdig/falco:latest\","
		  "\"imageid\":\"abc\",\"imagerepo\":\"sysdig/falco\",\"imagetag\":\"latest\","
		  "\"name\":\"falco\",\"privileged\":true,\"type\":0}}");
	ev_end(h, 0);
	ev_begin(h, PPME_CONTAINER_E, 0, 3);
	ev_str(h, "0123456789ab");
	ev_u32(h, 8);
	ev_str(h, "b1");
	ev_str(h, "quay.io/b:2");
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 300, 4);
	ev_i64(h, 3);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 100, 5);
	ev_i64(h, 3);
	ev_end(h, 0);
	mem_new_section(h);
	ev_begin(h, PPME_SYSCALL_CLOSE_E, 300, 6);
	ev_i64(h, 3);
	ev_end(h, 0);
	s = open_mem(h);
	assert_int_equal(s->ncontainers, 1);
	assert_string_equal(s->containers[0].id, "5ea733068030");
	assert_string_equal(s->containers[0].name, "");
	next_ok(s, &evt);	/* known by its cgroups only */
	assert_string_equal(field_str(s, &evt, "container.id", v), "5ea733068030");
	assert_null(field_str(s, &evt, "container.name", v));
	assert_null(field_str(s, &evt, "container.image", v));
	assert_string_equal(field_str(s, &evt, "container.type", v), "docker");
	assert_string_equal(field_str(s, &evt, "container.privileged", v), "false");
	next_ok(s, &evt);
	next_ok(s, &evt);
	assert_int_equal(s->ncontainers, 2);
	assert_string_equal(s->containers[1].id, "0123456789ab");
	assert_string_equal(sinsp_container_type_name(s->containers[1].type), "cri-o");
	next_ok(s, &evt);	/* described by its event */
	assert_string_equal(field_str(s, &evt, "container.name", v), "falco");
	assert_string_equal(field_str(s, &evt, "container.image", v), "sysdig/falco:latest");
	assert_string_equal(field_str(s, &evt, "container.image.id", v), "abc");
	assert_string_equal(field_str(s, &evt, "container.image.repository", v), "sysdig/falco");
	assert_string_equal(field_str(s, &evt, "container.image.tag", v), "latest");
	assert_null(field_str(s, &evt, "container.image.digest", v));
	assert_string_equal(field_str(s, &evt, "container.privileged", v), "true");
	next_ok(s, &evt);	/* the host */
	assert_string_equal(field_str(s, &evt, "container.id", v), "host");
	assert_string_equal(field_str(s, &evt, "container.name", v), "host");
	assert_string_equal(field_str(s, &evt, "container.type", v), "host");
	assert_null(field_str(s, &evt, "container.image", v));
	assert_null(field_str(s, &evt, "container.privileged", v));
	next_ok(s, &evt);	/* new section: the events' descriptions are gone */
	assert_int_equal(s->ncontainers, 1);
	assert_null(field_str(s, &evt, "container.name", v));
	sinsp_close(s);
	free(v);
}

static void ev_write(struct scap *h, uint64_t tid, int64_t fd, const char *data, uint64_t ts,
		     uint32_t dump_flags)
{
	uint32_t n = (uint32_t)strlen(data);

	ev_begin(h, PPME_SYSCALL_WRITE_E, tid, ts);
	ev_i64(h, fd);
	ev_u32(h, n);
	ev_end(h, 0);
	ev_begin(h, PPME_SYSCALL_WRITE_X, tid, ts + 1);
	ev_i64(h, n);
	ev_bytes(h, data, n);
	ev_end(h, dump_flags);
}

/* tracers: writes to /dev/null become tracer events (tracer.h) once one
 * parses; their enters are hidden; an incomplete text waits for the next
 * write; span.* read the span; evtin.* have no value on a tracer event */
static void tracer_writes(void **state)
{
	struct scap *h = base();
	char err[SCAP_ERRBUF_SIZE];
	struct field_ref evtin, dur;
	struct field_value *v = malloc(sizeof(*v));
	struct sinsp *s;
	struct sinsp_evt e;

	(void)state;
	assert_non_null(v);
	/* a field that needs the spans matched, compiled before reading */
	assert_true(field_parse("span.duration", &dur, err, sizeof(err)) > 0);
	assert_true(field_parse("evtin.span.id", &evtin, err, sizeof(err)) > 0);
	ev_open(h, 100, "/dev/null", 4, 2);
	ev_write(h, 100, 4, ">:t:app.req:m=GET,u=/x:", 100, 0);
	ev_write(h, 100, 4, "<:t:app.", 500, 0);
	ev_write(h, 100, 4, "req:code=200:", 600, 0);
	ev_write(h, 100, 3, ">:t:x::", 700, 0);	/* /etc/passwd: a write */
	ev_write(h, 100, 9, ">:p:y::", 800, SCAP_DF_TRACER);	/* unknown fd, flagged */
	s = open_mem(h);
	next_ok(s, &e);	/* open E */
	next_ok(s, &e);	/* open X */
	assert_int_equal(e.fdinfo->tracer, TRACER_FD_FILE);
	next_ok(s, &e);	/* the first write E: not known as a tracer yet */
	assert_false(e.filtered_out);
	next_ok(s, &e);
	assert_int_equal(e.scap.type, PPME_TRACER_E);
	assert_int_equal(e.tracer, SINSP_TRACER_EVENT);
	assert_int_equal(e.tracer_write.type, PPME_SYSCALL_WRITE_X);
	assert_int_equal(e.scap.ts, 101);
	assert_string_equal(field_str(s, &e, "span.tags", v), "app.req");
	assert_string_equal(field_str(s, &e, "span.tag[-1]", v), "req");
	assert_string_equal(field_str(s, &e, "span.args", v), "m=GET,u=/x");
	assert_string_equal(field_str(s, &e, "span.arg.u", v), "/x");
	assert_string_equal(field_str(s, &e, "evt.arg.args", v), "m:GET,u:/x");
	assert_int_equal(field_extract(s, &e, &dur, v), 0);	/* an enter */
	next_ok(s, &e);	/* write E on the tracer fd: hidden */
	assert_true(e.filtered_out);
	assert_int_equal(e.tracer, SINSP_TRACER_HIDDEN);
	next_ok(s, &e);	/* "<:t:app." waits */
	assert_int_equal(e.scap.type, PPME_SYSCALL_WRITE_X);
	assert_int_equal(e.tracer, SINSP_TRACER_HIDDEN);
	next_ok(s, &e);
	next_ok(s, &e);	/* joined: the exit at 601, 500 ns after the enter */
	assert_int_equal(e.scap.type, PPME_TRACER_X);
	assert_int_equal(field_extract(s, &e, &dur, v), 1);
	assert_int_equal(v->u, 500);
	assert_string_equal(field_str(s, &e, "span.args", v), "code=200");
	assert_string_equal(field_str(s, &e, "span.enterargs", v), "m=GET,u=/x");
	assert_string_equal(field_str(s, &e, "span.duration.human", v), "500ns");
	next_ok(s, &e);
	next_ok(s, &e);	/* on /etc/passwd: a write */
	assert_int_equal(e.scap.type, PPME_SYSCALL_WRITE_X);
	assert_int_equal(e.tracer, SINSP_TRACER_NONE);
	next_ok(s, &e);
	next_ok(s, &e);	/* an fd not in the table, flagged by the writer */
	assert_int_equal(e.scap.type, PPME_TRACER_E);
	assert_string_equal(field_str(s, &e, "span.tags", v), "y");
	assert_int_equal(field_extract(s, &e, &evtin, v), 0);
	sinsp_close(s);
	free(v);
}

/* the integer value of field NAME on evt, -1000 when it has none */
static int64_t field_int(struct sinsp *s, struct sinsp_evt *evt, const char *name,
			 struct field_value *v)
{
	char err[SCAP_ERRBUF_SIZE];
	struct field_ref f;

	assert_true(field_parse(name, &f, err, sizeof(err)) > 0);
	if (!field_extract(s, evt, &f, v))
		return -1000;
	return v->type == PT_INT64 ? v->i : (int64_t)v->u;
}

/* filter EXPR on evt */
static int filter_says(struct sinsp *s, struct sinsp_evt *evt, const char *expr)
{
	char err[256];
	struct filter *f = filter_compile(expr, err, sizeof(err));
	int r;

	assert_non_null(f);
	r = filter_run(f, s, evt);
	filter_free(f);
	return r;
}

/* evtin.*: the open spans an event is inside, most recent first; -p needs
 * a thread that wrote to a tracer candidate, filters see every thread;
 * thread and .p. scopes: the span's thread; .s.: a child process of the
 * span's process; .m.: any thread.  A tracer enter is not inside its own
 * span, a tracer exit is inside the span it closes. */
static void evtin_spans(void **state)
{
	struct scap *h = base();
	struct field_value *v = malloc(sizeof(*v));
	char err[SCAP_ERRBUF_SIZE];
	struct field_ref f;
	struct sinsp *s;
	struct sinsp_evt e;

	(void)state;
	assert_non_null(v);
	mem_thread(h, 300, 300, 100, "child", "/home/u");	/* a child of bash 100 */
	mem_thread(h, 400, 400, 1, "other", "/");		/* not related */
	ev_open(h, 100, "/dev/null", 4, 2);
	ev_write(h, 100, 4, ">:t:a:k=v,n=2:", 100, 0);
	ev_write(h, 100, 4, ">:7:a.b::", 200, 0);
	ev_close(h, 100, 9, -9);
	ev_close(h, 101, 9, -9);
	ev_close(h, 300, 9, -9);
	ev_close(h, 400, 9, -9);
	ev_write(h, 100, 4, "<:7:a.b::", 300, 0);
	ev_close(h, 100, 9, -9);
	/* an evtin field compiled before reading turns span tracking on */
	assert_true(field_parse("evtin.span.id", &f, err, sizeof(err)) > 0);
	s = open_mem(h);
	for (int i = 0; i < 4; i++)	/* open E/X, the first write E/X */
		next_ok(s, &e);
	assert_int_equal(e.scap.type, PPME_TRACER_E);
	assert_null(field_str(s, &e, "evtin.span.m.tags", v));	/* none on tracer events */
	assert_false(filter_says(s, &e, "evtin.span.tags=a"));	/* not in its own span */
	next_ok(s, &e);
	next_ok(s, &e);	/* enter of a.b */
	assert_int_equal(e.scap.type, PPME_TRACER_E);
	assert_false(filter_says(s, &e, "evtin.span.tags=a.b"));
	assert_true(filter_says(s, &e, "evtin.span.tags=a"));	/* inside a */
	next_ok(s, &e);
	next_ok(s, &e);	/* bash 100's close X: inside a.b (the most recent), then a */
	assert_string_equal(field_str(s, &e, "evtin.span.tags", v), "a.b");
	assert_int_equal(field_int(s, &e, "evtin.span.id", v), 7);
	assert_int_equal(field_int(s, &e, "evtin.span.ntags", v), 2);
	assert_string_equal(field_str(s, &e, "evtin.span.tag[-1]", v), "b");
	assert_string_equal(field_str(s, &e, "evtin.span.args", v), "");
	assert_int_equal(field_int(s, &e, "evtin.span.nargs", v), 0);
	/* a.b has no arg 0: the first span that has one gives it */
	assert_string_equal(field_str(s, &e, "evtin.span.arg[0]", v), "v");
	assert_null(field_str(s, &e, "evtin.span.arg[2]", v));
	assert_true(filter_says(s, &e, "evtin.span.args=k:v,n:2"));	/* the outer span */
	assert_true(filter_says(s, &e, "evtin.span.arg.name=2"));	/* .NAME: the last arg */
	assert_true(filter_says(s, &e, "evtin.span.arg[0]=v and evtin.span.p.tag[0]=a"));
	assert_false(filter_says(s, &e, "evtin.span.s.id exists"));	/* its own process */
	next_ok(s, &e);
	next_ok(s, &e);	/* thread 101 of bash: wrote no tracer, no -p value */
	assert_null(field_str(s, &e, "evtin.span.m.tags", v));
	assert_true(filter_says(s, &e, "evtin.span.m.tags=a.b"));
	assert_false(filter_says(s, &e, "evtin.span.p.id exists"));	/* the span's thread only */
	assert_false(filter_says(s, &e, "evtin.span.s.id exists"));	/* its parent is 1 */
	next_ok(s, &e);
	next_ok(s, &e);	/* child 300 */
	assert_true(filter_says(s, &e, "evtin.span.s.tags=a and evtin.span.s.id=7"));
	assert_false(filter_says(s, &e, "evtin.span.id exists or evtin.span.p.id exists"));
	next_ok(s, &e);
	next_ok(s, &e);	/* other 400 */
	assert_false(filter_says(s, &e, "evtin.span.s.id exists"));
	assert_true(filter_says(s, &e, "evtin.span.m.id in (1, 100)"));	/* bash's tid: a */
	next_ok(s, &e);
	next_ok(s, &e);	/* exit of a.b: inside a.b, which it closed */
	assert_int_equal(e.scap.type, PPME_TRACER_X);
	assert_true(filter_says(s, &e, "evtin.span.tags=a.b"));
	assert_true(filter_says(s, &e, "evtin.span.tags=a"));
	next_ok(s, &e);
	next_ok(s, &e);	/* after it: only a */
	assert_string_equal(field_str(s, &e, "evtin.span.tags", v), "a");
	assert_string_equal(field_str(s, &e, "evtin.span.arg[-1]", v), "2");
	assert_false(filter_says(s, &e, "evtin.span.tags=a.b"));
	sinsp_close(s);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(placeholder),
		cmocka_unit_test(metadata_and_sharing),
		cmocka_unit_test(open_close_deferred),
		cmocka_unit_test(failed_and_unpaired),
		cmocka_unit_test(clone_fork_exec_exit),
		cmocka_unit_test(clone_after_missing_close_exit),
		cmocka_unit_test(pipe_dup_fcntl),
		cmocka_unit_test(sockets),
		cmocka_unit_test(cwd_and_limits),
		cmocka_unit_test(section_and_state_only),
		cmocka_unit_test(tracer_writes),
		cmocka_unit_test(evtin_spans),
		cmocka_unit_test(container_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
