/*
 * parser.c - how each event changes the libsinsp state
 * (docs/architecture.md, libsinsp e5c53d64 sinsp_parser).
 *
 * parse_event() first does the per-event bookkeeping of sinsp_parser::reset
 * (thread lookup, enter/exit pairing, fd of the event, error code, stored
 * enter event), then runs the parser of the event type: process lifecycle
 * (clone/fork/vfork/execve/procexit), fd creation and destruction, socket
 * addressing, cwd, credentials, limits and counters.
 *
 * Every enter event that takes part in pairing is copied into its thread's
 * buffer (no allocation once the buffer exists) so that evt->enter is
 * available for every paired exit; t->stored_type tracks which enter
 * libsinsp itself would have stored, so that parsers see exactly the enter
 * events the reference sees.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "sinsp_int.h"
#include "tracer.h"

const char *evt_str(const struct scap_evt *e, uint32_t i, char *buf, size_t size, size_t *len)
{
	const char *p;
	size_t n;

	if (i >= e->nparams || e->plen[i] == 0) {
		if (len)
			*len = 0;
		return "";
	}
	p = (const char *)e->pval[i];
	n = strnlen(p, e->plen[i]);
	if (n == e->plen[i]) {
		/* not terminated inside the parameter: copy */
		if (n >= size)
			n = size - 1;
		memcpy(buf, p, n);
		buf[n] = 0;
		p = buf;
	}
	if (len)
		*len = n;
	return p;
}

/* memoised per (type, name pointer): callers pass string literals */
int evt_param_index(uint16_t type, const char *name)
{
	static struct {
		const char *name;
		uint16_t type;
		int16_t idx;
	} cache[512];
	const struct ppm_event_info *info = &g_event_info[type];
	uint32_t h = (uint32_t)(((uintptr_t)name >> 2) * 2654435761u ^ type * 40503u) % 512;
	int idx = -1;
	uint32_t i;

	if (cache[h].name == name && cache[h].type == type)
		return cache[h].idx;
	for (i = 0; i < info->nparams; i++) {
		if (strcmp(info->params[i].name, name) == 0) {
			idx = (int)i;
			break;
		}
	}
	cache[h].name = name;
	cache[h].type = type;
	cache[h].idx = (int16_t)idx;
	return idx;
}

/* value of the named parameter, or def when the event does not carry it */
static int64_t named_int(const struct scap_evt *e, const char *name, int64_t def)
{
	int i = evt_param_index(e->type, name);

	return (i >= 0 && (uint32_t)i < e->nparams) ? evt_int(e, (uint32_t)i) : def;
}

static int named_has(const struct scap_evt *e, const char *name)
{
	int i = evt_param_index(e->type, name);

	return i >= 0 && (uint32_t)i < e->nparams;
}

/* the types parse_rw_exit() handles */
static int is_rw_exit(uint16_t type)
{
	switch (type) {
	case PPME_SYSCALL_READ_X:
	case PPME_SYSCALL_WRITE_X:
	case PPME_SOCKET_RECV_X:
	case PPME_SOCKET_SEND_X:
	case PPME_SOCKET_RECVFROM_X:
	case PPME_SOCKET_RECVMSG_X:
	case PPME_SOCKET_SENDTO_X:
	case PPME_SOCKET_SENDMSG_X:
	case PPME_SYSCALL_READV_X:
	case PPME_SYSCALL_WRITEV_X:
	case PPME_SYSCALL_PREAD_X:
	case PPME_SYSCALL_PWRITE_X:
	case PPME_SYSCALL_PREADV_X:
	case PPME_SYSCALL_PWRITEV_X:
		return 1;
	default:
		return 0;
	}
}

/* per event type, what reset() and the parsers ask of the type alone */
enum {
	TF_CLONE_EXIT = 1,	/* is_clone_exit() */
	TF_RES0 = 2,		/* the first parameter is "res" or "fd" */
	TF_STORES = 4,		/* libsinsp_stores() may be true */
	TF_RW = 8,		/* parse_rw_exit() (or its enter): the fd work
				 * that fd_state_unread skips */
};

static uint8_t g_type_flags[PPM_EVENT_MAX];
static int g_type_flags_ready;

/* ------------------------------------------------------------------ */
/* stored enter events                                                 */

/* the enter types whose arguments the exit parsers read (store_event) */
static int libsinsp_stores(const struct scap_evt *e)
{
	switch (e->type) {
	case PPME_SYSCALL_OPEN_E:
	case PPME_SYSCALL_CREAT_E:
	case PPME_SYSCALL_OPENAT_E:
	case PPME_SYSCALL_OPENAT_2_E:
	case PPME_SYSCALL_OPENAT2_E:
	case PPME_SOCKET_SOCKET_E:
	case PPME_SYSCALL_EVENTFD_E:
	case PPME_SYSCALL_CHDIR_E:
	case PPME_SYSCALL_FCHDIR_E:
	case PPME_SOCKET_SHUTDOWN_E:
	case PPME_SYSCALL_GETRLIMIT_E:
	case PPME_SYSCALL_SETRLIMIT_E:
	case PPME_SYSCALL_PRLIMIT_E:
	case PPME_SOCKET_SENDMSG_E:
	case PPME_SOCKET_SENDTO_E:
	case PPME_SYSCALL_SENDFILE_E:
	case PPME_SYSCALL_SETRESUID_E:
	case PPME_SYSCALL_SETRESGID_E:
	case PPME_SYSCALL_SETUID_E:
	case PPME_SYSCALL_SETGID_E:
	case PPME_SYSCALL_EXECVE_18_E:
	case PPME_SYSCALL_EXECVE_19_E:
	case PPME_SYSCALL_EXECVEAT_E:
	case PPME_SYSCALL_SETPGID_E:
		return 1;
	case PPME_SYSCALL_FCNTL_E: {
		uint64_t cmd = evt_uint(e, 1);

		return cmd == PPM_FCNTL_F_DUPFD || cmd == PPM_FCNTL_F_DUPFD_CLOEXEC;
	}
	default:
		return 0;
	}
}

/* memcpy kept a library call: inlined with the bound of the enter buffer,
 * GCC makes it a `rep movsq`, whose start-up alone cost more than the copy */
static __attribute__((noinline)) void copy_event(uint8_t *dst, const uint8_t *src, uint32_t len)
{
	memcpy(dst, src, len);
}

static void store_enter(struct sinsp_threadinfo *t, const struct scap_evt *e)
{
	if (e->len > SINSP_ENTER_BUF_SIZE)
		return;
	if (!t->last_enter) {
		t->last_enter = malloc(SINSP_ENTER_BUF_SIZE);
		if (!t->last_enter)
			return;
		t->last_enter_cap = SINSP_ENTER_BUF_SIZE;
	}
	copy_event(t->last_enter, e->data, e->len);
	t->last_enter_cpuid = e->cpuid;
	if ((g_type_flags[e->type] & TF_STORES) && libsinsp_stores(e))
		t->stored_type = e->type;
}

/* decode the buffered enter into evt->enter when it pairs with this exit */
static void load_enter(struct sinsp_threadinfo *t, struct sinsp_evt *evt)
{
	struct scap_evt *en = &evt->enter;
	uint16_t type;

	if (!t->last_enter || !t->last_enter_valid)
		return;
	memcpy(&type, t->last_enter + PPM_HDR_OFF(type), sizeof(type));
	if (type != evt->scap.type - 1)
		return;
	en->data = t->last_enter;
	scap_evt_read_header(en);
	en->cpuid = t->last_enter_cpuid;
	en->dump_flags = 0;
	/* the bytes decoded when they arrived: the parameters are decoded
	 * again only when a parser or a field reads them */
	evt->has_enter = 1;
	evt->enter_decoded = 0;
}

int sinsp_evt_enter_params(struct sinsp_evt *evt)
{
	if (!evt->has_enter)
		return -1;
	if (!evt->enter_decoded) {
		if (scap_decode_params(&evt->enter) != 0) {
			evt->has_enter = 0;
			return -1;
		}
		evt->enter_decoded = 1;
	}
	return 0;
}

/* sinsp_parser::retrieve_enter_event */
static const struct scap_evt *retrieve_enter(struct sinsp_evt *evt)
{
	if (!evt->thread || !evt->has_enter || evt->thread->stored_type != evt->enter.type ||
	    sinsp_evt_enter_params(evt))
		return NULL;
	return &evt->enter;
}

/* ------------------------------------------------------------------ */
/* reset: thread, pairing, fd, error code                              */

static int is_clone_exit(uint16_t type)
{
	switch (type) {
	case PPME_SYSCALL_CLONE_11_X:
	case PPME_SYSCALL_CLONE_16_X:
	case PPME_SYSCALL_CLONE_17_X:
	case PPME_SYSCALL_CLONE_20_X:
	case PPME_SYSCALL_FORK_X:
	case PPME_SYSCALL_FORK_17_X:
	case PPME_SYSCALL_FORK_20_X:
	case PPME_SYSCALL_VFORK_X:
	case PPME_SYSCALL_VFORK_17_X:
	case PPME_SYSCALL_VFORK_20_X:
	case PPME_SYSCALL_CLONE3_X:
		return 1;
	default:
		return 0;
	}
}

void parser_init(void)
{
	if (g_type_flags_ready)
		return;
	for (uint16_t t = 0; t < PPM_EVENT_MAX; t++) {
		const struct ppm_event_info *info = &g_event_info[t];
		struct scap_evt fake = { .type = t };
		uint8_t fl = 0;

		if (is_clone_exit(t))
			fl |= TF_CLONE_EXIT;
		if (info->nparams && (strcmp(info->params[0].name, "res") == 0 ||
				      strcmp(info->params[0].name, "fd") == 0))
			fl |= TF_RES0;
		if (t == PPME_SYSCALL_FCNTL_E || libsinsp_stores(&fake))
			fl |= TF_STORES;
		if (is_rw_exit(t) || (t + 1 < PPM_EVENT_MAX && is_rw_exit((uint16_t)(t + 1))))
			fl |= TF_RW;
		g_type_flags[t] = fl;
	}
	g_type_flags_ready = 1;
}

/* the fd of an EF_USES_FD event; none for reads and writes when nothing
 * reads the fd state (their only use is the socket update then skipped) */
static struct sinsp_fdinfo *event_fdinfo(struct sinsp *s, struct sinsp_threadinfo *t,
					 uint16_t type)
{
	/* writes keep their fd: a tracer write is found by its fd */
	if (s->fd_state_unread && (g_type_flags[type] & TF_RW) &&
	    type != PPME_SYSCALL_WRITE_E && type != PPME_SYSCALL_WRITE_X)
		return NULL;
	return thread_fd(s, t, t->lastevent_fd);
}

/* the thread of a container event: the reference shows one made for the
 * container (comm and cmdline "container:ID", no exe, pid -1, vtid and vpid
 * -2, uid 0); thread.tid stays the event's */
static struct sinsp_threadinfo *container_thread(struct sinsp *s, const struct scap_evt *e)
{
	struct sinsp_threadinfo *t = s->container_thread;
	char name[64] = "container:";
	const char *json, *id;
	size_t n = 0, jl;

	if (!t && !(t = s->container_thread = thread_new()))
		return NULL;
	if (e->nparams >= 1) {
		json = (const char *)e->pval[0];
		jl = strnlen(json, e->plen[0]);
		for (id = json; id + 6 <= json + jl && memcmp(id, "\"id\":\"", 6) != 0; id++)
			;
		if (id + 6 <= json + jl) {
			id += 6;
			while (id + n < json + jl && id[n] != '"' && n < sizeof(name) - 11)
				n++;
		}
		if (n)
			memcpy(name + 10, id, n);
	}
	name[10 + n] = 0;
	ss_set_str(&t->comm, name, strlen(name));
	ss_set_str(&t->exe, "", 0);
	t->tid = (int64_t)e->tid;
	t->pid = -1;
	t->ptid = -1;
	t->vtid = t->vpid = -2;
	t->uid = t->gid = 0;
	return t;
}

static void reset(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	uint32_t eflags = evt->info->flags;
	struct sinsp_threadinfo *t;
	int query = 1;

	if (eflags & EF_SKIPPARSERESET) {
		if (e->type == PPME_PROCINFO_E)
			evt->thread = thread_find(s, (int64_t)e->tid);
		return;
	}
	if (e->type == PPME_CONTAINER_JSON_E || e->type == PPME_CONTAINER_JSON_2_E) {
		evt->thread = container_thread(s, e);
		return;
	}
	if ((g_type_flags[e->type] & TF_CLONE_EXIT) || e->type == PPME_SCHEDSWITCH_6_E)
		query = 0;
	t = query ? thread_get_or_create(s, (int64_t)e->tid, e->ts) : thread_find(s, (int64_t)e->tid);
	evt->thread = t;
	if (!t || e->type == PPME_SCHEDSWITCH_6_E)
		return;
	if (query)
		t->flags |= PPM_CL_ACTIVE;

	if (ppm_event_is_enter(e->type)) {
		t->lastevent_fd = -1;
		t->lastevent_type = e->type;
		if (eflags & EF_USES_FD) {
			t->lastevent_fd = e->nparams ? evt_int(e, 0) : -1;
			evt->fd = t->lastevent_fd;
			evt->uses_fd = 1;
			evt->fdinfo = event_fdinfo(s, t, e->type);
		}
		t->latency = 0;
		t->last_latency_entertime = e->ts;
		store_enter(t, e);
		return;
	}

	if (t->last_latency_entertime != 0)
		t->latency = e->ts - t->last_latency_entertime;
	if (e->type != t->lastevent_type + 1) {
		t->last_enter_valid = 0;
		return;
	}
	t->last_enter_valid = 1;
	load_enter(t, evt);
	if (e->nparams && (g_type_flags[e->type] & TF_RES0)) {
		int64_t res = evt_int(e, 0);

		if (res < 0)
			evt->errorcode = (int32_t)-res;
	}
	if (eflags & EF_USES_FD) {
		if (e->type == PPME_SYSCALL_COPY_FILE_RANGE_X)
			t->lastevent_fd = evt_int(e, 1);
		evt->fd = t->lastevent_fd;
		evt->uses_fd = 1;
		evt->fdinfo = event_fdinfo(s, t, e->type);
	}
}

/* ------------------------------------------------------------------ */
/* process lifecycle                                                   */

static void copy_named_str(const struct scap_evt *e, const char *name, char **dst)
{
	char buf[SINSP_MAX_PATH + 1];
	int i = evt_param_index(e->type, name);
	const char *v;
	size_t len;

	if (i < 0 || (uint32_t)i >= e->nparams)
		return;
	v = evt_str(e, (uint32_t)i, buf, sizeof(buf), &len);
	ss_set_str(dst, v, len);
}

static void copy_named_buf(const struct scap_evt *e, const char *name, char **dst, uint32_t *dlen)
{
	int i = evt_param_index(e->type, name);

	if (i < 0 || (uint32_t)i >= e->nparams)
		return;
	ss_set_buf(dst, dlen, e->pval[i], e->plen[i]);
}

/* counters carried by clone/execve exits */
static void copy_counters(struct sinsp_threadinfo *t, const struct scap_evt *e)
{
	if (named_has(e, "fdlimit"))
		t->fdlimit = (uint64_t)named_int(e, "fdlimit", 0);
	if (named_has(e, "pgft_maj")) {
		t->pfmajor = (uint64_t)named_int(e, "pgft_maj", 0);
		t->pfminor = (uint64_t)named_int(e, "pgft_min", 0);
		t->vmsize_kb = (uint32_t)named_int(e, "vm_size", 0);
		t->vmrss_kb = (uint32_t)named_int(e, "vm_rss", 0);
		t->vmswap_kb = (uint32_t)named_int(e, "vm_swap", 0);
	}
}

static void inherit(struct sinsp_threadinfo *t, const struct sinsp_threadinfo *p, uint32_t flags)
{
	ss_set_str(&t->comm, p->comm, strlen(p->comm));
	ss_set_str(&t->exe, p->exe, strlen(p->exe));
	ss_set_str(&t->exepath, p->exepath, strlen(p->exepath));
	ss_set_buf(&t->args, &t->args_len, (const uint8_t *)p->args, p->args_len);
	ss_set_str(&t->root, p->root, strlen(p->root));
	t->sid = p->sid;
	t->vpgid = p->vpgid;
	t->tty = p->tty;
	t->loginuid = p->loginuid;
	t->exe_writable = p->exe_writable;
	if (!(flags & PPM_CL_CLONE_THREAD))
		ss_set_buf(&t->env, &t->env_len, (const uint8_t *)p->env, p->env_len);
}

static void parse_clone_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	int64_t childtid = evt_int(e, 0), tid = (int64_t)e->tid;
	uint32_t flags = (uint32_t)named_int(e, "flags", 0);
	int has_v = named_has(e, "vtid");
	int64_t vtid = named_int(e, "vtid", tid), vpid = named_int(e, "vpid", -1);
	struct sinsp_threadinfo *parent, *t;
	int inverted = 0, collision = 0;

	if (childtid < 0)
		return;
	if (childtid == 0) {
		if (evt->thread) {
			if (has_v && (flags & PPM_CL_CHILD_IN_PIDNS)) {
				evt->thread->vtid = vtid;
				evt->thread->vpid = vpid;
			}
			return;
		}
		inverted = 1;
		childtid = tid;
		tid = named_int(e, (flags & PPM_CL_CLONE_THREAD) ? "pid" : "ptid", -1);
	} else {
		struct sinsp_threadinfo *old;

		if ((flags & PPM_CL_CHILD_IN_PIDNS) || (has_v && vtid != tid))
			return;
		old = thread_find(s, childtid);
		if (old) {
			if (old->flags & PPM_CL_CLONE_INVERTED)
				return;
			thread_remove(s, childtid, 1);
			collision = 1;
		}
	}
	if (inverted && (flags & PPM_CL_CLONE_THREAD) && !thread_find(s, tid)) {
		/* a new thread of an unknown process: the reference makes the
		 * main thread from the event (command, exe, args; loginuid 0) */
		parent = thread_get_or_create(s, tid, e->ts);
		if (parent) {
			copy_named_str(e, "exe", &parent->exe);
			copy_named_str(e, "comm", &parent->comm);
			copy_named_buf(e, "args", &parent->args, &parent->args_len);
			parent->loginuid = 0;
		}
	}
	parent = thread_get_or_create(s, tid, e->ts);
	/* a caller known only by its tid (it started while the /proc snapshot
	 * was taken): the clone exit says what it runs, as sysdig takes it */
	if (parent && !strcmp(parent->comm, "<NA>")) {
		copy_named_str(e, "exe", &parent->exe);
		copy_named_str(e, "comm", &parent->comm);
		copy_named_buf(e, "args", &parent->args, &parent->args_len);
	}
	/* the caller's exit is shown with the caller it made */
	if (!inverted && !evt->thread)
		evt->thread = parent;
	t = thread_new();
	if (!t)
		return;
	if (parent)
		inherit(t, parent, flags);
	t->tid = childtid;
	t->pid = (flags & PPM_CL_CLONE_THREAD) ? named_int(e, "pid", childtid) : childtid;
	t->ptid = tid;
	t->flags = flags | (inverted ? PPM_CL_CLONE_INVERTED : 0);
	copy_named_str(e, "exe", &t->exe);
	copy_named_str(e, "comm", &t->comm);
	copy_named_buf(e, "args", &t->args, &t->args_len);
	copy_named_buf(e, "cgroups", &t->cgroups, &t->cgroups_len);
	containers_add_thread(s, t);
	copy_counters(t, e);
	if (named_has(e, "uid")) {
		t->uid = (uint32_t)named_int(e, "uid", 0);
		t->gid = (uint32_t)named_int(e, "gid", 0);
	}
	t->vtid = inverted && has_v ? vtid : childtid;
	t->vpid = inverted && has_v ? vpid : t->pid;
	t->clone_ts = e->ts;
	if (!(flags & PPM_CL_CLONE_THREAD) && parent) {
		struct sinsp_fdtable *pft = sinsp_thread_fdtable(s, parent);

		if (pft && pft->map.count) {
			t->fdtable = fdtable_new(s->fd_pool);
			if (t->fdtable)
				fdtable_copy(t->fdtable, pft);
		}
		ss_set_str(&t->cwd, thread_cwd(s, parent), strlen(thread_cwd(s, parent)));
	}
	if (thread_add(s, t, 1)) {
		thread_free(t);
		return;
	}
	if (collision || inverted)
		evt->thread = thread_find(s, (int64_t)e->tid);
}

/* exepath of execve_18/19 (filename of the enter) and execveat */
static void execve_exepath(struct sinsp *s, struct sinsp_evt *evt, struct sinsp_threadinfo *t)
{
	const struct scap_evt *en = retrieve_enter(evt);
	char buf[SINSP_MAX_PATH + 1], full[SINSP_MAX_PATH + 2];
	const char *name, *cwd;
	size_t len;

	if (!en)
		return;
	if (evt->scap.type == PPME_SYSCALL_EXECVEAT_X) {
		int64_t dirfd = evt_int(en, 0);
		uint64_t flags = evt_uint(en, 2);
		struct sinsp_fdinfo *dfd;

		name = evt_str(en, 1, buf, sizeof(buf), &len);
		if (name[0] == '/' && !(flags & 1)) {
			ss_concatenate_paths(full, SINSP_MAX_PATH, "", 0, name, len);
		} else if (dirfd == PPM_AT_FDCWD && !(flags & 1)) {
			cwd = thread_cwd(s, t);
			ss_concatenate_paths(full, SINSP_MAX_PATH, cwd, strlen(cwd), name, len);
		} else {
			dfd = thread_fd(s, t, dirfd);
			if (!dfd) {
				snprintf(full, sizeof(full), "<NA>");
			} else if (flags & 1) {
				snprintf(full, sizeof(full), "%s", dfd->name);
			} else {
				char dir[SINSP_MAX_PATH + 2];

				snprintf(dir, sizeof(dir), "%s/", dfd->name);
				ss_concatenate_paths(full, SINSP_MAX_PATH, dir, strlen(dir), name, len);
			}
		}
	} else {
		name = evt_str(en, 0, buf, sizeof(buf), &len);
		if (strncmp(name, "<NA>", 4) == 0) {
			snprintf(full, sizeof(full), "<NA>");
		} else {
			cwd = thread_cwd(s, t);
			ss_concatenate_paths(full, SINSP_MAX_PATH, cwd, strlen(cwd), name, len + 1);
		}
	}
	ss_set_str(&t->exepath, full, strlen(full));
}

#define SINSP_DRIVER_ENV_MAX 4096	/* the drivers' copy of an environment */
#define SINSP_LARGE_ENV_MAX (1024 * 1024)

/* --large-environment: the whole environment of a live process whose
 * execve environment was cut by the driver (sysdig 0.29's rule: the value
 * is exactly the driver's limit); kept as it is when /proc fails (the
 * process may be gone already) */
static void reload_large_env(struct sinsp_threadinfo *t)
{
	char path[64], *buf;
	size_t len = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%" PRId64 "/environ", t->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	buf = malloc(SINSP_LARGE_ENV_MAX);
	while (buf && len < SINSP_LARGE_ENV_MAX &&
	       (n = read(fd, buf + len, SINSP_LARGE_ENV_MAX - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (buf && len > t->env_len)
		ss_set_buf(&t->env, &t->env_len, (const uint8_t *)buf, (uint32_t)len);
	free(buf);
}

static void parse_execve_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	struct sinsp_threadinfo *t = evt->thread;
	uint32_t keep;

	if (evt_int(e, 0) < 0 || !t)
		return;
	copy_named_str(e, "exe", &t->exe);
	copy_named_buf(e, "args", &t->args, &t->args_len);
	if (named_has(e, "pid"))
		t->pid = named_int(e, "pid", t->pid);
	if (t->ptid == -1 && named_has(e, "ptid"))
		t->ptid = named_int(e, "ptid", -1);
	copy_counters(t, e);
	if (named_has(e, "comm"))
		copy_named_str(e, "comm", &t->comm);
	else
		ss_set_str(&t->comm, t->exe, strlen(t->exe));
	copy_named_buf(e, "env", &t->env, &t->env_len);
	if (s->large_env && s->is_live && t->env_len == SINSP_DRIVER_ENV_MAX)
		reload_large_env(t);
	copy_named_buf(e, "cgroups", &t->cgroups, &t->cgroups_len);
	containers_add_thread(s, t);
	if (named_has(e, "tty"))
		t->tty = (uint32_t)named_int(e, "tty", 0);
	if (named_has(e, "vpgid"))
		t->vpgid = named_int(e, "vpgid", -1);
	if (named_has(e, "loginuid"))
		t->loginuid = (uint32_t)named_int(e, "loginuid", -1);
	if (named_has(e, "flags"))	/* PPM_EXE_WRITABLE */
		t->exe_writable = (named_int(e, "flags", 0) & 1) != 0;
	keep = t->flags & (PPM_CL_PIPE_SRC | PPM_CL_PIPE_DST | PPM_CL_IS_MAIN_THREAD |
			   PPM_CL_CLONE_INVERTED);
	t->flags = PPM_CL_ACTIVE | keep | PPM_CL_NAME_CHANGED;
	if (e->type == PPME_SYSCALL_EXECVE_18_X || e->type == PPME_SYSCALL_EXECVE_19_X ||
	    e->type == PPME_SYSCALL_EXECVEAT_X)
		execve_exepath(s, evt, t);
}

static void parse_procexit(struct sinsp *s, struct sinsp_evt *evt)
{
	if (!evt->thread)
		return;
	evt->thread->flags |= PPM_CL_CLOSED;
	s->pending_thread_removal = evt->thread->tid;
}

static void parse_switch(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	struct sinsp_threadinfo *t = evt->thread, *m;

	if (!t)
		return;
	t->pfmajor = evt_uint(e, 1);
	t->pfminor = evt_uint(e, 2);
	m = sinsp_get_main_thread(s, t);
	if (m) {
		m->vmsize_kb = (uint32_t)evt_uint(e, 3);
		m->vmrss_kb = (uint32_t)evt_uint(e, 4);
		m->vmswap_kb = (uint32_t)evt_uint(e, 5);
	}
}

static void parse_vm_exit(struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;

	if (!evt->thread)
		return;
	evt->thread->vmsize_kb = (uint32_t)evt_uint(e, 1);
	evt->thread->vmrss_kb = (uint32_t)evt_uint(e, 2);
	evt->thread->vmswap_kb = (uint32_t)evt_uint(e, 3);
}

/* ------------------------------------------------------------------ */
/* fd creation                                                         */

static int usable_name(const char *n)
{
	return n[0] && strcmp(n, "(NULL)") != 0;
}

/* sinsp_parser::parse_dirfd: the directory a relative name starts from */
static const char *dirfd_dir(struct sinsp *s, struct sinsp_evt *evt, const char *name, int64_t dirfd,
			     char *buf, size_t size)
{
	struct sinsp_fdinfo *d;

	if (name[0] == '/')
		return "";
	if (dirfd == PPM_AT_FDCWD)
		return thread_cwd(s, evt->thread);
	d = thread_fd(s, evt->thread, dirfd);
	evt->fdinfo = d;
	if (!d)
		return "<UNKNOWN>";
	/* always one more '/', as the reference: "etc" under "/" is "//etc" */
	snprintf(buf, size, "%s/", d->name);
	return buf;
}

static void parse_open_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap, *en;
	char nbuf[SINSP_MAX_PATH + 1], ebuf[SINSP_MAX_PATH + 1], dbuf[SINSP_MAX_PATH + 2];
	char full[SINSP_MAX_PATH + 1];
	const char *name, *sdir, *ename;
	size_t nlen, elen;
	uint32_t flags = 0, dev = 0;
	int64_t fd = evt_int(e, 0), dirfd = PPM_AT_FDCWD;
	struct sinsp_fdinfo fdi;

	if (!evt->thread)
		return;
	en = retrieve_enter(evt);
	switch (e->type) {
	case PPME_SYSCALL_OPEN_X:
	case PPME_SYSCALL_CREAT_X:
		name = evt_str(e, 1, nbuf, sizeof(nbuf), &nlen);
		if (e->type == PPME_SYSCALL_OPEN_X) {
			flags = (uint32_t)evt_uint(e, 2);
			if (e->nparams > 4)
				dev = (uint32_t)evt_uint(e, 4);
		} else if (e->nparams > 3) {
			dev = (uint32_t)evt_uint(e, 3);
		}
		if (en && en->nparams >= 1) {
			ename = evt_str(en, 0, ebuf, sizeof(ebuf), &elen);
			if (usable_name(ename)) {
				name = ename;
				nlen = elen;
				if (e->type == PPME_SYSCALL_OPEN_X)
					flags = (uint32_t)evt_uint(en, 1);
			}
		}
		sdir = thread_cwd(s, evt->thread);
		break;
	case PPME_SYSCALL_OPENAT_X:
		if (!en)
			return;
		dirfd = evt_int(en, 0);
		name = evt_str(en, 1, nbuf, sizeof(nbuf), &nlen);
		flags = (uint32_t)evt_uint(en, 2);
		sdir = dirfd_dir(s, evt, name, dirfd, dbuf, sizeof(dbuf));
		break;
	default:		/* openat_2, openat2 */
		dirfd = evt_int(e, 1);
		name = evt_str(e, 2, nbuf, sizeof(nbuf), &nlen);
		flags = (uint32_t)evt_uint(e, 3);
		if (e->type == PPME_SYSCALL_OPENAT_2_X && e->nparams > 5)
			dev = (uint32_t)evt_uint(e, 5);
		if (en && en->nparams >= 3) {
			ename = evt_str(en, 1, ebuf, sizeof(ebuf), &elen);
			if (usable_name(ename)) {
				name = ename;
				nlen = elen;
				flags = (uint32_t)evt_uint(en, 2);
				dirfd = evt_int(en, 0);
			}
		}
		sdir = dirfd_dir(s, evt, name, dirfd, dbuf, sizeof(dbuf));
		break;
	}
	if (fd < 0)
		return;
	ss_concatenate_paths(full, SINSP_MAX_PATH, sdir, strlen(sdir), name, nlen + 1);
	fdinfo_init(&fdi, (flags & PPM_O_DIRECTORY) ? SCAP_FD_DIRECTORY : SCAP_FD_FILE);
	fdi.open_flags = flags;
	fdi.dev = dev;
	fdi.name = full;
	if (strcmp(full, TRACER_DEVICE) == 0)
		fdi.tracer = TRACER_FD_FILE;
	evt->fdinfo = thread_add_fd(s, evt->thread, fd, &fdi);
	evt->fd = fd;
}

/* add a nameless fd of the given type for the exit's return value */
static void add_simple_fd(struct sinsp *s, struct sinsp_evt *evt, int32_t type)
{
	int64_t fd = evt_int(&evt->scap, 0);
	struct sinsp_fdinfo fdi;

	if (fd < 0 || !evt->thread)
		return;
	fdinfo_init(&fdi, type);
	evt->fdinfo = thread_add_fd(s, evt->thread, fd, &fdi);
	evt->fd = fd;
}

static void parse_socket_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *en = retrieve_enter(evt);
	int64_t fd = evt_int(&evt->scap, 0);
	uint32_t domain, type, proto;
	struct sinsp_fdinfo fdi;

	if (fd < 0 || !evt->thread || !en)
		return;
	domain = (uint32_t)evt_uint(en, 0);
	type = (uint32_t)evt_uint(en, 1) & 0xff;	/* without SOCK_CLOEXEC/SOCK_NONBLOCK */
	proto = (uint32_t)evt_uint(en, 2);
	if (domain == PPM_AF_UNIX) {
		fdinfo_init(&fdi, SCAP_FD_UNIX_SOCK);
	} else if (domain == PPM_AF_INET || domain == PPM_AF_INET6) {
		enum { SOCK_STREAM_ = 1, SOCK_DGRAM_ = 2, SOCK_RAW_ = 3 };
		uint8_t l4 = SCAP_L4_UNKNOWN;

		fdinfo_init(&fdi, domain == PPM_AF_INET ? SCAP_FD_IPV4_SOCK : SCAP_FD_IPV6_SOCK);
		if (proto == 6)		/* IPPROTO_TCP */
			l4 = type == SOCK_RAW_ ? SCAP_L4_RAW : SCAP_L4_TCP;
		else if (proto == 17)	/* IPPROTO_UDP */
			l4 = type == SOCK_RAW_ ? SCAP_L4_RAW : SCAP_L4_UDP;
		else if (proto == 0)
			l4 = type == SOCK_STREAM_ ? SCAP_L4_TCP : type == SOCK_DGRAM_ ? SCAP_L4_UDP :
			     type == SOCK_RAW_ ? SCAP_L4_RAW : SCAP_L4_UNKNOWN;
		else if (proto == 1)	/* ICMP (ICMPv6 stays unknown) */
			l4 = type == SOCK_RAW_ ? SCAP_L4_RAW : SCAP_L4_ICMP;
		else if (proto == 255)	/* IPPROTO_RAW */
			l4 = SCAP_L4_RAW;
		fdi.l4proto = l4;
	} else if (domain == PPM_AF_NETLINK) {
		fdinfo_init(&fdi, SCAP_FD_NETLINK);
	} else {
		return;
	}
	evt->fdinfo = thread_add_fd(s, evt->thread, fd, &fdi);
	evt->fd = fd;
}

static void parse_pair_exit(struct sinsp *s, struct sinsp_evt *evt, int32_t type)
{
	const struct scap_evt *e = &evt->scap;
	struct sinsp_fdinfo fdi;

	if (evt_int(e, 0) < 0 || !evt->thread)
		return;
	fdinfo_init(&fdi, type);
	if (type == SCAP_FD_FIFO) {
		fdi.ino = evt_uint(e, 3);
	} else {
		fdi.unix_src = evt_uint(e, 3);
		fdi.unix_dst = evt_uint(e, 4);
	}
	thread_add_fd(s, evt->thread, evt_int(e, 1), &fdi);
	evt->fdinfo = thread_add_fd(s, evt->thread, evt_int(e, 2), &fdi);
	evt->fd = evt_int(e, 2);
}

/* ------------------------------------------------------------------ */
/* sockets                                                             */

static int is_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

/* merge the addresses of a tuple into fdi (the reference's update of a
 * socket's addresses): a tuple equal to the current one or to its reverse
 * changes nothing (returns 0); the source end is overwritten; the peer
 * address and the peer port each only when it is still zero. A listening socket becoming a connection
 * starts with no peer (the reference reads its server port there: a bug of
 * its own, README "where we differ"). */
static int merge_ip_tuple(struct sinsp_fdinfo *fdi, int32_t type, const uint8_t *sip, uint16_t sport,
			  const uint8_t *dip, uint16_t dport, size_t alen)
{
	if (fdi->type == SCAP_FD_IPV4_SERVSOCK || fdi->type == SCAP_FD_IPV6_SERVSOCK) {
		memset(fdi->dip, 0, sizeof(fdi->dip));
		fdi->dport = 0;
	} else if (fdi->type == type &&
		   ((!memcmp(fdi->sip, sip, alen) && fdi->sport == sport && !memcmp(fdi->dip, dip, alen) &&
		     fdi->dport == dport) ||
		    (!memcmp(fdi->sip, dip, alen) && fdi->sport == dport && !memcmp(fdi->dip, sip, alen) &&
		     fdi->dport == sport))) {
		return 0;
	}
	if (fdi->type != type) {
		memset(fdi->sip, 0, sizeof(fdi->sip));
		memset(fdi->dip, 0, sizeof(fdi->dip));
		fdi->dport = 0;
	}
	fdi->type = type;
	memcpy(fdi->sip, sip, alen);
	fdi->sport = sport;
	if (is_zero(fdi->dip, alen))
		memcpy(fdi->dip, dip, alen);
	if (fdi->dport == 0)
		fdi->dport = dport;
	return 1;
}

/* fill the addresses of fdi from a PT_SOCKTUPLE value (update_fd); 1 when
 * the fd changed.  With ifs, a zero address left in the socket is then
 * guessed from the interfaces (what reads and writes do; connect does not). */
static int update_fd_tuple_ifs(struct sinsp_fdinfo *fdi, const uint8_t *v, uint32_t len,
			       const struct scap_metadata *ifs)
{
	struct sinsp_fdinfo t;
	size_t alen = 16;

	if (len == 0)
		return 0;
	memset(&t, 0, sizeof(t));
	if (v[0] == PPM_AF_INET && len >= 13) {
		t.type = SCAP_FD_IPV4_SOCK;
		memcpy(t.sip, v + 1, 4);
		memcpy(&t.sport, v + 5, 2);
		memcpy(t.dip, v + 7, 4);
		memcpy(&t.dport, v + 11, 2);
		alen = 4;
	} else if (v[0] == PPM_AF_INET6 && len >= 37) {
		memcpy(&t.sport, v + 17, 2);
		memcpy(&t.dport, v + 35, 2);
		if (is_ipv4_mapped(v + 1) && is_ipv4_mapped(v + 19)) {
			t.type = SCAP_FD_IPV4_SOCK;
			memcpy(t.sip, v + 13, 4);
			memcpy(t.dip, v + 31, 4);
			alen = 4;
		} else {
			t.type = SCAP_FD_IPV6_SOCK;
			memcpy(t.sip, v + 1, 16);
			memcpy(t.dip, v + 19, 16);
		}
	} else if (v[0] == PPM_AF_UNIX && len >= 17) {
		fdi->type = SCAP_FD_UNIX_SOCK;
		memcpy(&fdi->unix_src, v + 1, 8);
		memcpy(&fdi->unix_dst, v + 9, 8);
		return 1;
	} else {
		return 0;
	}
	if (!merge_ip_tuple(fdi, t.type, t.sip, t.sport, t.dip, t.dport, alen))
		return 0;
	if (ifs)
		iface_fill_zero_addr(ifs, fdi);
	return 1;
}

static int update_fd_tuple(struct sinsp_fdinfo *fdi, const uint8_t *v, uint32_t len)
{
	return update_fd_tuple_ifs(fdi, v, len, NULL);
}

/* the socket's addresses as a read/write call sees them: zero addresses
 * guessed, an IP socket with no protocol yet is UDP (a TCP one cannot
 * change its addresses) */
static int update_fd_tuple_rw(struct sinsp *s, struct sinsp_fdinfo *fdi, const uint8_t *v, uint32_t len)
{
	if (!update_fd_tuple_ifs(fdi, v, len, s->meta))
		return 0;
	if ((fdi->type == SCAP_FD_IPV4_SOCK || fdi->type == SCAP_FD_IPV6_SOCK) &&
	    fdi->l4proto == SCAP_L4_UNKNOWN)
		fdi->l4proto = SCAP_L4_UDP;
	return 1;
}

static void swap_addresses(struct sinsp_fdinfo *fdi)
{
	uint8_t ip[16];
	uint16_t port = fdi->sport;

	memcpy(ip, fdi->sip, 16);
	memcpy(fdi->sip, fdi->dip, 16);
	memcpy(fdi->dip, ip, 16);
	fdi->sport = fdi->dport;
	fdi->dport = port;
}

struct port_ctx {
	uint16_t port;
	int found;
};

static int bound_cb(struct sinsp_fdinfo *f, void *arg)
{
	struct port_ctx *c = arg;

	if ((f->type == SCAP_FD_IPV4_SOCK && f->dport == c->port) ||
	    (f->type == SCAP_FD_IPV4_SERVSOCK && f->sport == c->port))
		c->found = 1;
	return c->found;
}

static int client_port_cb(struct sinsp_fdinfo *f, void *arg)
{
	struct port_ctx *c = arg;

	if (f->type == SCAP_FD_IPV4_SOCK && f->sport == c->port)
		c->found = 1;
	return c->found;
}

/* sinsp_fdinfo_t::set_net_role_by_guessing */
static void guess_role(struct sinsp *s, struct sinsp_evt *evt, struct sinsp_fdinfo *fdi, int incoming)
{
	struct sinsp_fdtable *ft = sinsp_thread_fdtable(s, evt->thread);
	struct port_ctx b = { fdi->dport, 0 }, c = { fdi->sport, 0 };

	sinsp_foreach_fd(ft, bound_cb, &b);
	if (!b.found) {
		fd_set_role_client(fdi);
		return;
	}
	sinsp_foreach_fd(ft, client_port_cb, &c);
	if (!c.found)
		fd_set_role_server(fdi);
	else if (fd_role_none(fdi))
		(incoming ? fd_set_role_server : fd_set_role_client)(fdi);
}

/* recvfrom/recvmsg (tuple in the exit) and sendto/sendmsg (in the enter):
 * IPv4 and IPv6 alike guess the role, put the local end first and render
 * the name from the merged addresses; IPv4 TCP sockets keep their name */
static void rename_from_tuple(struct sinsp *s, struct sinsp_evt *evt, const uint8_t *v, uint32_t len, int incoming)
{
	struct sinsp_fdinfo *fdi = evt->fdinfo;
	char name[SINSP_MAX_PATH + 64];

	if (fdi->name[0] && fdi->l4proto == SCAP_L4_TCP && fdi->type == SCAP_FD_IPV4_SOCK)
		return;
	if (fdi->type == SCAP_FD_IPV6_SERVSOCK && len && v[0] == PPM_AF_INET6) {
		/* an IPv6 listening socket stays one: only its name follows */
		ss_render_socktuple(v, len, name, sizeof(name));
		fdinfo_set_name(fdi, name);
		return;
	}
	if (!update_fd_tuple_rw(s, fdi, v, len))
		return;
	if (fdi->type == SCAP_FD_IPV4_SOCK || fdi->type == SCAP_FD_IPV6_SOCK) {
		if (fd_role_none(fdi))
			guess_role(s, evt, fdi, incoming);
		if (incoming ? fdi->is_role_client : fdi->is_server)
			swap_addresses(fdi);
		fd_tuple_name_by_proto(fdi, name, sizeof(name));
	} else if (fdi->type == SCAP_FD_UNIX_SOCK) {
		fdinfo_set_unix_tuple_name(fdi, v, len);
		return;
	} else {
		ss_render_socktuple(v, len, name, sizeof(name));
	}
	fdinfo_set_name(fdi, name);
}

static void parse_rw_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap, *en;
	struct sinsp_fdinfo *fdi = evt->fdinfo;
	uint16_t type = e->type;

	if (!fdi || evt_int(e, 0) < 0)
		return;
	if (fdi->type == SCAP_FD_IPV4_SOCK || fdi->type == SCAP_FD_IPV6_SOCK)
		fdi->is_socket_connected = 1;
	if (type == PPME_SOCKET_RECVFROM_X && e->nparams > 2) {
		rename_from_tuple(s, evt, e->pval[2], e->plen[2], 1);
	} else if (type == PPME_SOCKET_RECVMSG_X && e->nparams > 3) {
		rename_from_tuple(s, evt, e->pval[3], e->plen[3], 1);
	} else if (type == PPME_SOCKET_SENDTO_X || type == PPME_SOCKET_SENDMSG_X) {
		if (fdi->name[0] && fdi->l4proto == SCAP_L4_TCP && fdi->type == SCAP_FD_IPV4_SOCK)
			return;
		en = retrieve_enter(evt);
		if (en && en->nparams > 2)
			rename_from_tuple(s, evt, en->pval[2], en->plen[2], 0);
	}
}

/* infer_sendto_fdinfo: sendto on an unknown fd with an IP tuple = UDP */
static void parse_sendto_enter(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	int64_t fd = evt_int(e, 0);
	struct sinsp_fdinfo fdi;

	if (evt->fdinfo || !evt->thread || fd < 0 || !evt_has(e, 2))
		return;
	if (e->pval[2][0] != PPM_AF_INET && e->pval[2][0] != PPM_AF_INET6)
		return;
	fdinfo_init(&fdi, e->pval[2][0] == PPM_AF_INET ? SCAP_FD_IPV4_SOCK : SCAP_FD_IPV6_SOCK);
	fdi.l4proto = SCAP_L4_UDP;
	evt->fdinfo = thread_add_fd(s, evt->thread, fd, &fdi);
}

static void parse_bind_exit(struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	struct sinsp_fdinfo *fdi = evt->fdinfo;
	char name[SINSP_MAX_PATH + 64];
	const uint8_t *v;
	uint16_t port;

	if (evt_int(e, 0) < 0 || !fdi || !evt_has(e, 1))
		return;
	v = e->pval[1];
	if (v[0] == PPM_AF_INET && e->plen[1] >= 7) {
		memcpy(&port, v + 5, 2);
		if (port > 0) {
			fdi->type = SCAP_FD_IPV4_SERVSOCK;
			memset(fdi->sip, 0, 16);
			memcpy(fdi->sip, v + 1, 4);
			fdi->sport = port;
			fd_set_role_server(fdi);
		}
	} else if (v[0] == PPM_AF_INET6 && e->plen[1] >= 19) {
		static const uint8_t any6[16];

		memcpy(&port, v + 17, 2);
		if (port > 0) {
			memset(fdi->sip, 0, 16);
			/* "::" counts as IPv4-mapped for the reference */
			if (is_ipv4_mapped(v + 1) || !memcmp(v + 1, any6, 16)) {
				fdi->type = SCAP_FD_IPV4_SERVSOCK;
				memcpy(fdi->sip, v + 13, 4);
			} else {
				fdi->type = SCAP_FD_IPV6_SERVSOCK;
				memcpy(fdi->sip, v + 1, 16);
			}
			fdi->sport = port;
			fd_set_role_server(fdi);
		}
	}
	ss_render_sockaddr(v, e->plen[1], name, sizeof(name));
	fdinfo_set_name(fdi, name);
}

/* connect enter: an IP address is the peer from now on (a reconnect
 * changes it: ref_net6); a unix one names the fd */
static void parse_connect_enter(struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	struct sinsp_fdinfo *fdi = evt->fdinfo;
	char name[SINSP_MAX_PATH + 64];
	const uint8_t *v;

	if (!fdi || !evt_has(e, 1))
		return;
	v = e->pval[1];
	if (v[0] == PPM_AF_INET && e->plen[1] >= 7) {
		fdi->type = SCAP_FD_IPV4_SOCK;
		memcpy(fdi->dip, v + 1, 4);
		memcpy(&fdi->dport, v + 5, 2);
	} else if (v[0] == PPM_AF_INET6 && e->plen[1] >= 19) {
		if (is_ipv4_mapped(v + 1)) {
			fdi->type = SCAP_FD_IPV4_SOCK;
			memset(fdi->dip, 0, 16);
			memcpy(fdi->dip, v + 13, 4);
		} else {
			fdi->type = SCAP_FD_IPV6_SOCK;
			memcpy(fdi->dip, v + 1, 16);
		}
		memcpy(&fdi->dport, v + 17, 2);
	} else if (v[0] == PPM_AF_UNIX) {
		ss_render_sockaddr(v, e->plen[1], name, sizeof(name));
		fdinfo_set_name(fdi, name);
	}
}

/* connect exit: the tuple is merged (no protocol guess: only reads and
 * writes make an unknown socket UDP), the name is the tuple as given */
static void parse_connect_exit(struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	struct sinsp_fdinfo *fdi = evt->fdinfo;
	char name[SINSP_MAX_PATH + 64];
	int64_t res = evt_int(e, 0);
	uint8_t family;

	if (!fdi)
		return;
	if (res < 0 && res != -115)	/* EINPROGRESS */
		return;
	if (fdi->type == SCAP_FD_IPV4_SOCK || fdi->type == SCAP_FD_IPV6_SOCK)
		fdi->is_socket_connected = 1;
	if (!evt_has(e, 1))
		return;
	family = e->pval[1][0];
	if (family != PPM_AF_INET && family != PPM_AF_INET6 && family != PPM_AF_UNIX)
		return;
	update_fd_tuple(fdi, e->pval[1], e->plen[1]);
	if (fdi->is_server && fdi->l4proto == SCAP_L4_UDP)
		swap_addresses(fdi);
	ss_render_socktuple(e->pval[1], e->plen[1], name, sizeof(name));
	fdinfo_set_name(fdi, name);
	fd_set_role_client(fdi);
}

static void parse_accept_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;
	int64_t fd = evt_int(e, 0);
	char name[SINSP_MAX_PATH + 64];
	struct sinsp_fdinfo fdi;

	if (fd < 0 || !evt->thread || !evt_has(e, 1))
		return;
	fdinfo_init(&fdi, SCAP_FD_UNKNOWN);
	if (e->pval[1][0] == PPM_AF_UNIX) {
		if (!update_fd_tuple(&fdi, e->pval[1], e->plen[1]))
			return;
	} else {
		fdi.l4proto = SCAP_L4_TCP;
		if (!update_fd_tuple(&fdi, e->pval[1], e->plen[1]))
			return;
	}
	ss_render_socktuple(e->pval[1], e->plen[1], name, sizeof(name));
	fdi.name = name;
	fd_set_role_server(&fdi);
	fdi.is_socket_connected = 1;
	evt->fdinfo = thread_add_fd(s, evt->thread, fd, &fdi);
	evt->fd = fd;
}

/* ------------------------------------------------------------------ */
/* dup, close                                                          */

static void parse_dup_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	int64_t fd = evt_int(&evt->scap, 0);
	struct sinsp_fdtable *ft;

	if (fd < 0 || !evt->thread)
		return;
	if (fd == 0)
		evt->thread->flags |= PPM_CL_PIPE_DST;
	if (fd == 1)
		evt->thread->flags |= PPM_CL_PIPE_SRC;
	if (!evt->fdinfo || evt->fdinfo->fd == fd)
		return;
	ft = sinsp_thread_fdtable(s, evt->thread);
	if (!ft)
		return;
	fdtable_remove(ft, fd);
	evt->fdinfo = fdtable_add(ft, fd, evt->fdinfo);
	evt->fd = fd;
}

static void parse_close_enter(struct sinsp_evt *evt)
{
	if (evt->fdinfo)
		*fd_flags(evt->fdinfo) |= FDF_CLOSE_IN_PROGRESS;
}

static void parse_close_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	struct sinsp_fdinfo *fdi = evt->fdinfo;

	if (!fdi || !evt->thread)
		return;
	if (evt_int(&evt->scap, 0) < 0) {
		*fd_flags(fdi) &= ~(uint32_t)FDF_CLOSE_IN_PROGRESS;
		return;
	}
	s->pending_fd_removal_tid = evt->thread->tid;
	if (*fd_flags(fdi) & FDF_CLOSE_CANCELED) {
		*fd_flags(fdi) &= ~(uint32_t)FDF_CLOSE_CANCELED;
		s->pending_fd_removal = SINSP_CANCELED_FD;
	} else {
		s->pending_fd_removal = evt->thread->lastevent_fd;
	}
}

/* ------------------------------------------------------------------ */
/* cwd, credentials, limits                                            */

static void parse_cwd_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	char buf[SINSP_MAX_PATH + 1];
	const char *p;
	size_t len;

	if (!evt->thread || evt_int(&evt->scap, 0) < 0)
		return;
	if (evt->scap.type == PPME_SYSCALL_FCHDIR_X) {
		if (!evt->fdinfo)
			return;
		thread_set_cwd(s, evt->thread, evt->fdinfo->name, strlen(evt->fdinfo->name));
		return;
	}
	p = evt_str(&evt->scap, 1, buf, sizeof(buf), &len);
	thread_set_cwd(s, evt->thread, p, len + 1);
}

static void parse_chroot_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	char buf[SINSP_MAX_PATH + 1], full[SINSP_MAX_PATH + 1];
	const char *p, *cwd;
	size_t len;

	if (!evt->thread || evt_int(&evt->scap, 0) != 0)
		return;
	p = evt_str(&evt->scap, 1, buf, sizeof(buf), &len);
	cwd = thread_cwd(s, evt->thread);
	if (strncmp(p, "<NA>", 4) != 0 &&
	    ss_concatenate_paths(full, SINSP_MAX_PATH, cwd, strlen(cwd), p, len + 1))
		p = full;
	ss_set_str(&evt->thread->root, p, strlen(p));
}

static void parse_ids_exit(struct sinsp_evt *evt)
{
	const struct scap_evt *en = retrieve_enter(evt);
	uint16_t type = evt->scap.type;
	uint32_t id;

	if (evt_int(&evt->scap, 0) < 0 || !en)
		return;
	if (type == PPME_SYSCALL_SETRESUID_X || type == PPME_SYSCALL_SETRESGID_X) {
		id = (uint32_t)evt_uint(en, 1);
		if (id == UINT32_MAX)
			return;
	} else {
		id = (uint32_t)evt_uint(en, 0);
	}
	if (type == PPME_SYSCALL_SETRESUID_X || type == PPME_SYSCALL_SETUID_X)
		evt->thread->uid = id;
	else
		evt->thread->gid = id;
}

static void parse_rlimit_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *en = retrieve_enter(evt);
	struct sinsp_threadinfo *t = evt->thread, *m;
	int is_prlimit = evt->scap.type == PPME_SYSCALL_PRLIMIT_X;
	int64_t cur;

	if (evt_int(&evt->scap, 0) < 0 || !en)
		return;
	if (evt_uint(en, is_prlimit ? 1 : 0) != PPM_RLIMIT_NOFILE)
		return;
	cur = evt_int(&evt->scap, 1);
	if (cur == -1)
		return;
	if (is_prlimit) {
		int64_t pid = evt_int(en, 0);

		t = thread_get_or_create(s, pid == 0 ? (int64_t)evt->scap.tid : pid, evt->scap.ts);
	}
	m = sinsp_get_main_thread(s, t);
	if (m)
		m->fdlimit = (uint64_t)cur;
}

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* tracers (tracer.h)                                                  */

static void put_list(uint8_t **d, char *const *list, uint32_t n, uint16_t *len)
{
	uint32_t total = 0;

	for (uint32_t i = 0; i < n; i++) {
		size_t l = strlen(list[i]) + 1;

		if (total + l > UINT16_MAX)
			break;
		memcpy(*d + total, list[i], l);
		total += (uint32_t)l;
	}
	*d += total;
	*len = (uint16_t)total;
}

/* the tracer event shown instead of the write: id, tags as "t1\0t2\0",
 * args as "name\0value\0" pairs (render.c joins them as the reference) */
static int make_tracer_event(struct sinsp *s, struct sinsp_evt *evt, const struct tracer_parser *p)
{
	const uint32_t hdr = sizeof(struct ppm_evt_hdr);
	uint32_t need = hdr + 3 * 2 + 8 + 2 * UINT16_MAX + 64;
	uint16_t lens[3] = { 8, 0, 0 };
	int64_t id = p->invalid ? 0 : p->id;
	uint8_t *d;
	uint16_t l;

	if (s->tracer_evt_cap < need) {
		uint8_t *n = realloc(s->tracer_evt, need);

		if (!n)
			return -1;
		s->tracer_evt = n;
		s->tracer_evt_cap = need;
	}
	d = s->tracer_evt + hdr + sizeof(lens);
	memcpy(d, &id, 8);
	d += 8;
	if (p->invalid) {
		size_t el = strlen(p->error) + 1;

		if (el > UINT16_MAX)
			el = UINT16_MAX;
		memcpy(d, p->error, el);
		d[el - 1] = 0;
		d += el;
		lens[1] = (uint16_t)el;
	} else {
		put_list(&d, p->tags, p->ntags, &lens[1]);
		for (uint32_t i = 0; i < p->nargs; i++) {
			char *const pair[2] = { p->names[i], p->vals[i] };

			if (lens[2] + strlen(pair[0]) + strlen(pair[1]) + 2 > UINT16_MAX)
				break;
			put_list(&d, pair, 2, &l);
			lens[2] = (uint16_t)(lens[2] + l);
		}
	}
	memcpy(s->tracer_evt + hdr, lens, sizeof(lens));
	evt->tracer_write = evt->scap;
	evt->scap.data = s->tracer_evt;
	evt->scap.type = (p->type == '>' || p->invalid) ? PPME_TRACER_E : PPME_TRACER_X;
	evt->scap.len = (uint32_t)(d - s->tracer_evt);
	scap_evt_write_header(s->tracer_evt, evt->scap.ts, evt->scap.tid, evt->scap.len,
			      evt->scap.type, 3);
	evt->scap.dump_flags = 0;
	if (scap_decode_params(&evt->scap) != 0) {
		evt->scap = evt->tracer_write;
		return -1;
	}
	evt->info = ppm_event_info_of(evt->scap.type);
	evt->tracer = SINSP_TRACER_EVENT;
	evt->fdinfo = NULL;
	evt->fd = -1;
	evt->uses_fd = 0;
	evt->has_enter = 0;
	evt->errorcode = 0;
	return 0;
}

/* sinsp_parser::parse_tracer: the write's data as a tracer; the event
 * becomes the tracer event unless the text is incomplete (then hidden) or
 * invalid on an fd not known to be a tracer one (then it stays a write) */
static int parse_tracer(struct sinsp *s, struct sinsp_evt *evt)
{
	struct sinsp_threadinfo *t = evt->thread;
	const struct scap_evt *e = &evt->scap;
	struct tracer_parser *p;
	struct tracer_ids ids;
	uint32_t len;
	int r;

	if (!t || e->nparams < 2)
		return TRACER_FAILED;
	if (!t->tracer && !(t->tracer = calloc(1, sizeof(*t->tracer))))
		return TRACER_FAILED;
	if (!s->spans && !(s->spans = tracer_spans_new()))
		return TRACER_FAILED;
	p = t->tracer;
	ids.tid = t->tid;
	ids.pid = t->pid;
	ids.ptid = t->ptid;
	len = e->pval[1] ? e->plen[1] : 0;
	r = tracer_parse(p, s->spans, (const char *)e->pval[1], len, e->ts, &ids, g_tracer_track);
	if (r == TRACER_TRUNCATED) {
		evt->filtered_out = 1;
		evt->tracer = SINSP_TRACER_HIDDEN;
		return r;
	}
	if (r != TRACER_OK) {
		char *msg;

		if (!evt->fdinfo || evt->fdinfo->tracer != TRACER_FD_YES)
			return r;
		/* "invalid tracer DATA, lenN": an enter with no id and args */
		msg = malloc((size_t)len + 48);
		if (!msg)
			return r;
		memcpy(msg, "invalid tracer ", 15);
		if (len)
			memcpy(msg + 15, e->pval[1], len);
		snprintf(msg + 15 + len, 33, ", len%" PRIu32, len);
		if (memchr(msg, 0, 15 + len))	/* the text stops at a NUL */
			memmove(msg + strlen(msg), msg + 15 + len, strlen(msg + 15 + len) + 1);
		free(p->error);
		p->error = msg;
		p->invalid = 1;
		p->nargs = p->nvals = 0;
	}
	if (make_tracer_event(s, evt, p))
		return r;
	t->lastevent_fd = -1;
	t->lastevent_type = PPME_TRACER_E;
	t->latency = 0;
	t->last_latency_entertime = 0;
	return r;
}

/* detect_and_process_tracer_write; 1 when the event was a tracer */
static int tracer_rw_exit(struct sinsp *s, struct sinsp_evt *evt)
{
	struct sinsp_fdinfo *fdi = evt->fdinfo;
	int r;

	if (!fdi) {
		if (!s->is_live && (evt->scap.dump_flags & SCAP_DF_TRACER) && evt->thread) {
			parse_tracer(s, evt);
			return 1;
		}
		return 0;
	}
	if (fdi->tracer == TRACER_FD_YES) {
		parse_tracer(s, evt);
		return 1;
	}
	if (fdi->tracer != TRACER_FD_FILE || !(evt->info->flags & EF_WRITES_TO_FD))
		return 0;
	r = parse_tracer(s, evt);
	if (r == TRACER_OK) {
		fdi->tracer = TRACER_FD_YES;
		sinsp_enable_tracers(s);
		return 1;
	}
	if (r == TRACER_FAILED)
		fdi->tracer = TRACER_FD_NONE;
	return 0;
}

/* a write whose capture filter waits for the tracer parse (the reference
 * filters it after the parse, as an EF_MODIFIES_STATE event) */
static int is_tracer_write(const struct sinsp *s, const struct sinsp_evt *evt)
{
	if (evt->scap.type != PPME_SYSCALL_WRITE_X)
		return 0;
	if (evt->fdinfo)
		return evt->fdinfo->tracer != TRACER_FD_NONE;
	return !s->is_live && (evt->scap.dump_flags & SCAP_DF_TRACER);
}

static void parse_by_type(struct sinsp *s, struct sinsp_evt *evt)
{
	const struct scap_evt *e = &evt->scap;

	if (g_type_flags[e->type] & TF_CLONE_EXIT) {
		parse_clone_exit(s, evt);
		return;
	}
	if (sinsp_is_container_event(e->type)) {
		containers_event(s, e);
		return;
	}
	if (is_rw_exit(e->type)) {
		if (s->fd_state_unread) {
			if (e->type == PPME_SYSCALL_WRITE_X)
				tracer_rw_exit(s, evt);
		} else if (!tracer_rw_exit(s, evt)) {
			parse_rw_exit(s, evt);
		}
		return;
	}
	switch (e->type) {
	case PPME_SYSCALL_WRITE_E:
		if (evt->fdinfo && evt->fdinfo->tracer == TRACER_FD_YES) {
			evt->filtered_out = 1;
			evt->tracer = SINSP_TRACER_HIDDEN;
		}
		break;
	case PPME_SYSCALL_OPEN_X:
	case PPME_SYSCALL_CREAT_X:
	case PPME_SYSCALL_OPENAT_X:
	case PPME_SYSCALL_OPENAT_2_X:
	case PPME_SYSCALL_OPENAT2_X:
		parse_open_exit(s, evt);
		break;
	case PPME_SOCKET_SENDTO_E:
		if (!s->fd_state_unread)
			parse_sendto_enter(s, evt);
		break;
	case PPME_SYSCALL_EXECVE_8_X:
	case PPME_SYSCALL_EXECVE_13_X:
	case PPME_SYSCALL_EXECVE_14_X:
	case PPME_SYSCALL_EXECVE_15_X:
	case PPME_SYSCALL_EXECVE_16_X:
	case PPME_SYSCALL_EXECVE_17_X:
	case PPME_SYSCALL_EXECVE_18_X:
	case PPME_SYSCALL_EXECVE_19_X:
	case PPME_SYSCALL_EXECVEAT_X:
		parse_execve_exit(s, evt);
		break;
	case PPME_PROCEXIT_E:
	case PPME_PROCEXIT_1_E:
		parse_procexit(s, evt);
		break;
	case PPME_SCHEDSWITCH_6_E:
		parse_switch(s, evt);
		break;
	case PPME_SYSCALL_BRK_4_X:
	case PPME_SYSCALL_MMAP_X:
	case PPME_SYSCALL_MMAP2_X:
	case PPME_SYSCALL_MUNMAP_X:
		parse_vm_exit(evt);
		break;
	case PPME_SYSCALL_PIPE_X:
		parse_pair_exit(s, evt, SCAP_FD_FIFO);
		break;
	case PPME_SOCKET_SOCKETPAIR_X:
		parse_pair_exit(s, evt, SCAP_FD_UNIX_SOCK);
		break;
	case PPME_SOCKET_SOCKET_X:
		parse_socket_exit(s, evt);
		break;
	case PPME_SOCKET_BIND_X:
		parse_bind_exit(evt);
		break;
	case PPME_SOCKET_CONNECT_E:
		parse_connect_enter(evt);
		break;
	case PPME_SOCKET_CONNECT_X:
		parse_connect_exit(evt);
		break;
	case PPME_SOCKET_ACCEPT_X:
	case PPME_SOCKET_ACCEPT4_X:
	case PPME_SOCKET_ACCEPT_5_X:
	case PPME_SOCKET_ACCEPT4_5_X:
		parse_accept_exit(s, evt);
		break;
	case PPME_SYSCALL_CLOSE_E:
		parse_close_enter(evt);
		break;
	case PPME_SYSCALL_CLOSE_X:
		parse_close_exit(s, evt);
		break;
	case PPME_SYSCALL_DUP_X:
		parse_dup_exit(s, evt);
		break;
	case PPME_SYSCALL_FCNTL_X:
		/* only when its own enter was an F_DUPFD: an older stored
		 * F_DUPFD enter of the thread does not count */
		if (retrieve_enter(evt) && libsinsp_stores(&evt->enter))
			parse_dup_exit(s, evt);
		break;
	case PPME_SYSCALL_EVENTFD_X:
		add_simple_fd(s, evt, SCAP_FD_EVENT);
		break;
	case PPME_SYSCALL_SIGNALFD_X:
		add_simple_fd(s, evt, SCAP_FD_SIGNALFD);
		break;
	case PPME_SYSCALL_TIMERFD_CREATE_X:
		add_simple_fd(s, evt, SCAP_FD_TIMERFD);
		break;
	case PPME_SYSCALL_INOTIFY_INIT_X:
		add_simple_fd(s, evt, SCAP_FD_INOTIFY);
		break;
	case PPME_SYSCALL_CHDIR_X:
	case PPME_SYSCALL_FCHDIR_X:
	case PPME_SYSCALL_GETCWD_X:
		parse_cwd_exit(s, evt);
		break;
	case PPME_SYSCALL_CHROOT_X:
		parse_chroot_exit(s, evt);
		break;
	case PPME_SYSCALL_SETSID_X:
		if (evt->thread && evt_int(e, 0) >= 0)
			evt->thread->sid = evt_int(e, 0);
		break;
	case PPME_SYSCALL_SETUID_X:
	case PPME_SYSCALL_SETGID_X:
	case PPME_SYSCALL_SETRESUID_X:
	case PPME_SYSCALL_SETRESGID_X:
		parse_ids_exit(evt);
		break;
	case PPME_SYSCALL_GETRLIMIT_X:
	case PPME_SYSCALL_SETRLIMIT_X:
	case PPME_SYSCALL_PRLIMIT_X:
		parse_rlimit_exit(s, evt);
		break;
	case PPME_SOCKET_GETSOCKOPT_X:
		if (evt->thread && e->nparams > 1)
			evt->thread->lastevent_fd = evt_int(e, 1);
		break;
	default:
		break;
	}
}

/* FNV-1a of an fd name (fd.name_changed compares the name before and
 * after parsing without copying it) */
static uint64_t name_hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*p)
		h = (h ^ (uint8_t)*p++) * 0x100000001b3ull;
	return h;
}

void parse_event(struct sinsp *s, struct sinsp_evt *evt)
{
	struct sinsp_threadinfo *t;

	int filter_later = evt->info && (evt->info->flags & EF_MODIFIES_STATE);

	reset(s, evt);
	if (is_tracer_write(s, evt))
		filter_later = 1;
	evt->fd_name_changed = 0;
	if (s->capture_filter && !filter_later &&
	    !s->capture_filter(s->capture_filter_ctx, s, evt)) {
		evt->rejected = 1;
		/* a rejected enter does not pair with its exit (no fd, no
		 * error code there), as sysdig 0.29.3 behaves on the traces
		 * (read/sendfile/ioctl/lseek exits lose their fd); write
		 * exits keep theirs there, so write enters are excepted */
		t = evt->thread;
		if (t && ppm_event_is_enter(evt->scap.type) &&
		    !(evt->info->flags & EF_SKIPPARSERESET) &&
		    evt->scap.type != PPME_SCHEDSWITCH_1_E &&
		    evt->scap.type != PPME_SCHEDSWITCH_6_E &&
		    evt->scap.type != PPME_SYSCALL_WRITE_E)
			t->lastevent_type = PPM_EVENT_MAX;
	} else {
		uint64_t before = evt->fdinfo ? name_hash(evt->fdinfo->name) : name_hash("");

		parse_by_type(s, evt);
		evt->fd_name_changed = evt->fdinfo && name_hash(evt->fdinfo->name) != before;
		/* an fd created by the exit becomes the thread's last event fd
		 * (the reference does so for the filtering engine: fd.num,
		 * unpaired exits) */
		t = evt->thread;
		if (t && evt->fd >= 0 && !ppm_event_is_enter(evt->scap.type))
			t->lastevent_fd = evt->fd;
		if (evt->fdinfo)
			evt->uses_fd = 1;
		if (s->capture_filter && filter_later) {
			evt->rejected = !s->capture_filter(s->capture_filter_ctx, s, evt);
			/* an incomplete tracer the filter accepts is shown, as
			 * the reference's late filter clears its hiding */
			if (!evt->rejected && evt->tracer == SINSP_TRACER_HIDDEN &&
			    evt->scap.type != PPME_SYSCALL_WRITE_E) {
				evt->filtered_out = 0;
				evt->tracer = SINSP_TRACER_NONE;
			}
		}
	}
	if (evt->fdinfo)
		evt->uses_fd = 1;
	t = evt->thread;
	if (t && evt->scap.type != PPME_SCHEDSWITCH_1_E && evt->scap.type != PPME_SCHEDSWITCH_6_E) {
		t->prevevent_ts = t->lastevent_ts;
		t->lastevent_ts = evt->scap.ts;
	}
}
