/*
 * chisel_lua.c - the Lua API seen by chisels (docs/chisel_api.md):
 * the global tables `sysdig` (capture-wide), `chisel` (per chisel) and
 * `evt` (current event), plus the field type -> Lua value mapping and the
 * thread-table snapshot.  Each function finds its chisel through its
 * upvalue (a light userdata set at registration; NULL for -cl/-i probes),
 * which is much cheaper per evt.field() call than a global lookup.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stddef.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <lauxlib.h>
#include "chisel_internal.h"
#include "event_ids.h"
#include "render.h"

#define DEFAULT_EVT_FORMAT \
	"*%evt.num %evt.outputtime %evt.cpu %proc.name (%thread.tid) %evt.dir %evt.type %evt.info"

struct chisel *chisel_from_lua(lua_State *L)
{
	return lua_touserdata(L, lua_upvalueindex(1));
}

/* API functions report a fatal problem: message on stderr, then a Lua
 * error that the callback wrapper turns into "chisel error". */
void chisel_fatal_msg(lua_State *L, const char *msg)
{
	struct chisel *c = chisel_from_lua(L);

	fprintf(stderr, "%s\n", msg);
	fflush(stderr);
	if (c)
		c->api_error = 1;
	lua_pushstring(L, msg);
	lua_error(L);
}

static struct chisel_runtime *runtime(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);

	return c ? c->rt : NULL;
}

static void fatalf(lua_State *L, const char *fmt, const char *arg)
{
	char m[CHISEL_ERRLEN];

	snprintf(m, sizeof(m), fmt, arg ? arg : "");
	chisel_fatal_msg(L, m);
}

/* ----------------------------------------------------- field conversion */

static int is_signed_type(uint8_t t)
{
	return t == PT_INT8 || t == PT_INT16 || t == PT_INT32 || t == PT_INT64 ||
	       t == PT_ERRNO || t == PT_FD || t == PT_PID;
}

static int is_unsigned_type(uint8_t t)
{
	return t == PT_UINT8 || t == PT_UINT16 || t == PT_UINT32 || t == PT_UINT64 ||
	       t == PT_FLAGS8 || t == PT_FLAGS16 || t == PT_FLAGS32 || t == PT_UID ||
	       t == PT_GID || t == PT_PORT || t == PT_L4PROTO || t == PT_RELTIME ||
	       t == PT_ABSTIME || t == PT_SOCKFAMILY || t == PT_SIGTYPE ||
	       t == PT_SYSCALLID;
}

static void push_rendered(lua_State *L, const struct field_ref *f, struct field_value *v)
{
	char out[FIELD_STRBUF_SIZE];
	const char *s = field_to_string(f, v, out, sizeof(out));

	lua_pushstring(L, s ? s : "");
}

/* v->len is authoritative: an empty buffer is not NUL-terminated */
static void push_str(lua_State *L, struct field_value *v)
{
	lua_pushlstring(L, v->str ? v->str : "", v->str ? v->len : 0);
}

/* docs/chisel_api.md, evt table: values by field type */
static void push_value(lua_State *L, const struct field_ref *f, struct field_value *v)
{
	uint8_t t = v->type ? v->type : f->type;

	if (f->type == PT_BYTEBUF && !strncmp(f->name, "evt.rawarg", 10)) {
		/* every byte of the buffer, NULs too, as the reference */
		lua_pushlstring(L, v->str ? v->str : "", v->str ? v->rawlen : 0);
		return;
	}
	if (is_signed_type(t)) {
		lua_pushnumber(L, (double)(v->i ? v->i : (int64_t)v->u));
	} else if (is_unsigned_type(t)) {
		lua_pushnumber(L, (double)(v->u ? v->u : (uint64_t)v->i));
	} else if (t == PT_DOUBLE) {
		lua_pushnumber(L, v->d);
	} else if (t == PT_BOOL) {
		lua_pushboolean(L, v->i || v->u);
	} else if (t == PT_CHARBUF || t == PT_FSPATH) {
		push_str(L, v);
	} else if (t == PT_BYTEBUF) {
		if (!strncmp(f->name, "evt.rawarg", 10))
			push_str(L, v);
		else
			push_rendered(L, f, v);
	} else if (t == PT_SOCKADDR) {
		lua_pushnil(L);
	} else {
		push_rendered(L, f, v);
	}
}

/* ------------------------------------------------------------ evt table */

static struct sinsp_evt *chisel_evt(lua_State *L, struct chisel *c, const char *fn)
{
	if (!c || !c->evt)
		fatalf(L, "invalid call to %s", fn);
	return c->evt;
}

static struct sinsp_evt *cur_evt(lua_State *L, const char *fn)
{
	return chisel_evt(L, chisel_from_lua(L), fn);
}

/* the chisel's extraction buffer (field_value is ~8 KB: one per chisel,
 * not one malloc per call); its header is cleared for each use, as
 * extractors leave unset what they don't fill (e.g. type) */
static struct field_value *scratch_value(lua_State *L, struct chisel *c)
{
	if (!c->val) {
		c->val = malloc(sizeof(*c->val));
		if (!c->val)
			luaL_error(L, "out of memory");
	}
	memset(c->val, 0, offsetof(struct field_value, buf));
	return c->val;
}

static int l_evt_field(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);
	struct chisel_field *cf = lua_touserdata(L, 1);
	struct sinsp_evt *e = chisel_evt(L, c, "evt.field()");
	struct field_value *v;

	if (!cf) {
		lua_pushnil(L);
		return 1;
	}
	v = scratch_value(L, c);
	if (!field_extract(c->rt->s, e, &cf->ref, v))
		lua_pushnil(L);
	else
		push_value(L, &cf->ref, v);
	return 1;
}

static int l_evt_get_num(lua_State *L)
{
	lua_pushnumber(L, (double)cur_evt(L, "evt.get_num()")->num);
	return 1;
}

static int l_evt_get_ts(lua_State *L)
{
	uint64_t ts = cur_evt(L, "evt.get_ts()")->scap.ts;

	lua_pushnumber(L, (double)(uint32_t)(ts / 1000000000ULL));
	lua_pushnumber(L, (double)(uint32_t)(ts % 1000000000ULL));
	return 2;
}

static int l_evt_get_cpuid(lua_State *L)
{
	lua_pushnumber(L, cur_evt(L, "evt.get_cpuid()")->scap.cpuid);
	return 1;
}

static int l_evt_get_type(lua_State *L)
{
	static struct field_ref type_ref;
	static int parsed;
	struct chisel *c = chisel_from_lua(L);
	struct sinsp_evt *e = chisel_evt(L, c, "evt.get_type()");
	struct field_value *v;

	if (!parsed) {
		char err[128];

		if (field_parse("evt.type", &type_ref, err, sizeof(err)) <= 0)
			return luaL_error(L, "evt.type field unavailable");
		parsed = 1;
	}
	v = scratch_value(L, c);
	if (field_extract(c->rt->s, e, &type_ref, v))
		push_str(L, v);
	else
		lua_pushstring(L, e->info ? e->info->name : "");
	return 1;
}

/* --------------------------------------------------------- chisel table */

static int l_request_field(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);
	const char *name = lua_tostring(L, 1);
	struct chisel_field *f, **nv;
	char err[256];

	if (!name)
		chisel_fatal_msg(L, "chisel requesting nil field");
	f = calloc(1, sizeof(*f));
	if (!f)
		return luaL_error(L, "out of memory");
	if (field_parse(name, &f->ref, err, sizeof(err)) <= 0) {
		free(f);
		fatalf(L, "chisel requesting nonexistent field %s", name);
		return 0;	/* not reached: fatalf raises a Lua error */
	}
	if (c) {
		nv = realloc(c->fields, (c->nfields + 1) * sizeof(*nv));
		if (!nv) {
			free(f);
			return luaL_error(L, "out of memory");
		}
		c->fields = nv;
		c->fields[c->nfields++] = f;
	}
	lua_pushlightuserdata(L, f);
	return 1;
}

static struct filter *compile_or_die(lua_State *L, struct chisel *c, const char *expr)
{
	char err[512], m[CHISEL_ERRLEN];
	struct filter *f = filter_compile(expr, err, sizeof(err));

	if (!f) {
		snprintf(m, sizeof(m), "invalid filter in chisel %s: %s", c ? c->name : "?", err);
		chisel_fatal_msg(L, m);
	}
	return f;
}

static int l_chisel_set_filter(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);
	const char *expr = luaL_optstring(L, 1, "");
	struct filter *f = NULL;

	if (*expr)
		f = compile_or_die(L, c, expr);
	if (!c) {
		if (f)
			filter_free(f);
		return 0;
	}
	if (c->filter)
		filter_free(c->filter);
	c->filter = f;
	return 0;
}

static int l_set_event_formatter(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);
	const char *fmt = luaL_optstring(L, 1, "");
	char err[256], m[CHISEL_ERRLEN];
	struct chisel_fmt *f;

	if (!*fmt || !strcmp(fmt, "default"))
		fmt = DEFAULT_EVT_FORMAT;
	f = chisel_fmt_new(fmt, err, sizeof(err));
	if (!f) {
		snprintf(m, sizeof(m), "invalid formatter in chisel %s: %s", c ? c->name : "?", err);
		chisel_fatal_msg(L, m);
	}
	if (!c) {
		chisel_fmt_free(f);
		return 0;
	}
	chisel_fmt_free(c->fmt);
	c->fmt = f;
	return 0;
}

static uint64_t arg_u64(lua_State *L, int i)
{
	double d = luaL_checknumber(L, i);

	return d > 0 ? (uint64_t)d : 0;
}

static int l_set_interval_s(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);

	if (c)
		c->interval_ns = arg_u64(L, 1) * 1000000000ULL;
	return 0;
}

static int l_set_interval_ns(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);

	if (c)
		c->interval_ns = arg_u64(L, 1);
	return 0;
}

static int l_set_precise_interval_ns(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);

	if (c)
		c->precise_ns = arg_u64(L, 1);
	return 0;
}

/* chisel.exec(name, a1, a2, ...): values with a space are single-quoted */
static int l_exec(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);
	const char *name = luaL_checkstring(L, 1);
	int i, n = lua_gettop(L);
	luaL_Buffer b;

	luaL_buffinit(L, &b);
	for (i = 2; i <= n && !lua_isnil(L, i); i++) {
		const char *a = luaL_checkstring(L, i);
		int q = strchr(a, ' ') != NULL;

		if (i > 2)
			luaL_addchar(&b, ' ');
		if (q)
			luaL_addchar(&b, '\'');
		luaL_addstring(&b, a);
		if (q)
			luaL_addchar(&b, '\'');
	}
	luaL_pushresult(&b);
	if (c) {
		free(c->exec_name);
		free(c->exec_args);
		c->exec_name = strdup(name);
		c->exec_args = strdup(lua_tostring(L, -1));
	}
	return 0;
}

/* --------------------------------------------------------- sysdig table */

static int l_set_filter(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);
	const char *expr = luaL_checkstring(L, 1);

	if (*expr)
		filter_free(compile_or_die(L, c, expr));
	if (c) {
		free(c->rt->set_filter);
		c->rt->set_filter = strdup(expr);
	}
	return 0;
}

static int l_set_snaplen(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);

	if (rt)
		rt->snaplen = (uint32_t)arg_u64(L, 1);
	return 0;
}

/* the buffer rendering used by every formatter and evt.field: the
 * state's, now or once the runtime gets it (chisel_set_sinsp) */
static void apply_bufmode(struct chisel_runtime *rt, const char *fmt)
{
	if (!strcmp(fmt, "hex"))
		rt->bufmode = RB_HEX;
	else if (!strcmp(fmt, "hexascii"))
		rt->bufmode = RB_HEXASCII;
	else if (!strcmp(fmt, "ascii"))
		rt->bufmode = RB_ASCII;
	else if (!strcmp(fmt, "base64") || !strcmp(fmt, "jsonbase64"))
		rt->bufmode = RB_BASE64;
	else
		rt->bufmode = RB_DOTS;
	rt->bufmode_set = 1;
	if (rt->s)
		rt->s->render.bufmode = rt->bufmode;
}

static int l_set_output_format(lua_State *L)
{
	static const char *const ok[] = { "normal", "json", "simple", "hex", "hexascii",
					  "ascii", "base64", "jsonbase64", NULL };
	struct chisel *c = chisel_from_lua(L);
	const char *fmt = luaL_checkstring(L, 1);
	int i;

	for (i = 0; ok[i] && strcmp(ok[i], fmt); i++)
		;
	if (!ok[i])
		fatalf(L, "invalid set_output_format value in chisel %s", c ? c->name : "?");
	if (c && !c->rt->host.user_buffer_format) {
		free(c->rt->output_format);
		c->rt->output_format = strdup(fmt);
		apply_bufmode(c->rt, fmt);
	}
	return 0;
}

static int l_set_fatfile(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);

	if (rt)
		rt->fatfile = lua_toboolean(L, 1);
	return 0;
}

static int l_is_live(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);

	lua_pushboolean(L, rt && rt->host.is_live);
	return 1;
}

static int l_is_tty(lua_State *L)
{
	lua_pushboolean(L, isatty(1));
	return 1;
}

static int l_get_terminal_info(lua_State *L)
{
	struct winsize w;
	int ok = isatty(1) && ioctl(1, TIOCGWINSZ, &w) == 0;

	lua_newtable(L);
	lua_pushnumber(L, ok ? w.ws_col : -1);
	lua_setfield(L, -2, "width");
	lua_pushnumber(L, ok ? w.ws_row : -1);
	lua_setfield(L, -2, "height");
	return 1;
}

static int l_get_filter(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	const char *f = "";

	if (rt)
		f = rt->set_filter ? rt->set_filter : rt->cli_filter ? rt->cli_filter : "";
	lua_pushstring(L, f);
	return 1;
}

static int l_get_machine_info(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	const struct scap_machine_info *m;

	if (!rt || !rt->started || !rt->s)
		chisel_fatal_msg(L, "get_machine_info can only be called from the on_capture_start callback");
	m = rt->s->meta ? &rt->s->meta->machine : NULL;
	lua_newtable(L);
	lua_pushnumber(L, m ? m->num_cpus : 0);
	lua_setfield(L, -2, "num_cpus");
	lua_pushnumber(L, m ? (double)m->memory_size_bytes : 0);
	lua_setfield(L, -2, "memory_size_bytes");
	lua_pushnumber(L, m ? (double)m->max_pid : 0);
	lua_setfield(L, -2, "max_pid");
	lua_pushstring(L, m ? m->hostname : "");
	lua_setfield(L, -2, "hostname");
	return 1;
}

/* the type names of sysdig.get_container_table() (0.29.3 spells
 * libvirt_lxc its own way and has no name for the custom type) */
static const char *chisel_container_type(uint32_t type)
{
	const char *name = sinsp_container_type_name(type);

	if (type == SINSP_CT_LIBVIRT_LXC)
		return "libvirt_lxc";
	return name ? name : "unknown";
}

/* 1-based array of {id=, name=, image=, type=} of libsinsp's container
 * table, newest container first (the order sysdig's hash table gives in
 * practice) */
static int l_get_container_table(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	size_t i, n = rt && rt->s ? rt->s->ncontainers : 0;

	lua_newtable(L);
	for (i = 0; i < n; i++) {
		const struct sinsp_container *c = &rt->s->containers[n - 1 - i];

		lua_newtable(L);
		lua_pushstring(L, c->id);
		lua_setfield(L, -2, "id");
		lua_pushstring(L, c->name);
		lua_setfield(L, -2, "name");
		lua_pushstring(L, c->image);
		lua_setfield(L, -2, "image");
		lua_pushstring(L, chisel_container_type(c->type));
		lua_setfield(L, -2, "type");
		lua_rawseti(L, -2, (int)i + 1);
	}
	return 1;
}

static int l_is_print_container_data(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);

	lua_pushboolean(L, rt && rt->host.print_container);
	return 1;
}

static int l_get_output_format(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	int json = rt && (rt->host.json || (rt->output_format &&
					    strstr(rt->output_format, "json")));

	lua_pushstring(L, json ? "json" : "normal");
	return 1;
}

static int l_get_evtsource_name(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);

	lua_pushstring(L, rt && rt->started && rt->host.evtsource ? rt->host.evtsource : "");
	return 1;
}

static void push_u64(lua_State *L, uint64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	lua_pushstring(L, b);
}

static int l_get_firstevent_ts(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	uint64_t ts = 0;

	if (rt)
		ts = rt->s && rt->s->first_ts ? rt->s->first_ts : rt->first_ts;
	push_u64(L, ts);
	return 1;
}

static int l_get_lastevent_ts(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);

	push_u64(L, rt ? rt->last_ts : 0);
	return 1;
}

static uint64_t arg_ts(lua_State *L, int i)
{
	const char *s = luaL_checkstring(L, i);

	return strtoull(s, NULL, 10);
}

static int l_make_ts(lua_State *L)
{
	uint32_t s = (uint32_t)arg_u64(L, 1), ns = (uint32_t)arg_u64(L, 2);

	push_u64(L, (uint64_t)s * 1000000000ULL + ns);
	return 1;
}

static int l_add_ts(lua_State *L)
{
	push_u64(L, arg_ts(L, 1) + arg_ts(L, 2));
	return 1;
}

static int l_subtract_ts(lua_State *L)
{
	push_u64(L, arg_ts(L, 1) - arg_ts(L, 2));
	return 1;
}

static int l_run_app(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	const char *a = luaL_checkstring(L, 1);

	if (rt && !rt->run_app)
		rt->run_app = strdup(a);
	return 0;
}

static int l_end_capture(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);

	if (rt)
		rt->end_capture = 1;
	return 0;
}

/* sysdig.log(msg, severity): printed on stderr only with -D, every
 * severity alike, as "MM-DD HH:MM:SS.uuuuuu msg" (wall clock); a missing
 * severity is an error, as in sysdig */
static int l_log(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	const char *msg = lua_tostring(L, 1);
	const char *sev = lua_tostring(L, 2);
	struct timespec now;
	struct tm tm;
	char when[32];

	if (!msg || !sev) {
		lua_pushstring(L, "C++ exception");
		return lua_error(L);
	}
	if (!rt || !rt->host.debug)
		return 0;
	clock_gettime(CLOCK_REALTIME, &now);
	localtime_r(&now.tv_sec, &tm);
	strftime(when, sizeof(when), "%m-%d %H:%M:%S", &tm);
	fprintf(stderr, "%s.%06ld %s\n", when, now.tv_nsec / 1000, msg);
	return 0;
}

static int l_udp_setpeername(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	const char *ip = luaL_checkstring(L, 1);
	const char *port = luaL_checkstring(L, 2);
	struct sockaddr_in sa;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)atoi(port));
	if (!rt || inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
		fatalf(L, "udp_setpeername: invalid address %s", ip);
	if (rt->udp_fd < 0)
		rt->udp_fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (rt->udp_fd < 0 || connect(rt->udp_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		fatalf(L, "udp_setpeername: cannot connect to %s", ip);
	return 0;
}

static int l_udp_send(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len);

	if (!rt || rt->udp_fd < 0 || send(rt->udp_fd, s, len, 0) < 0)
		chisel_fatal_msg(L, "udp_send error");
	return 0;
}

static int l_get_read_progress(lua_State *L)
{
	struct chisel_runtime *rt = runtime(L);
	double p = 0;

	/* the figure sysdig 0.29.3 reports, e.g. wsysdig_summary prints it */
	if (rt && rt->s && rt->s->scap && rt->s->scap->ops->reference_progress)
		p = rt->s->scap->ops->reference_progress(rt->s->scap) * 100.0;
	else if (rt && rt->s && rt->s->scap && rt->s->scap->ops->progress)
		p = rt->s->scap->ops->progress(rt->s->scap) * 100.0;
	lua_pushnumber(L, p < 0 ? 0 : p);
	return 1;
}

/* ----------------------------------------------------- thread table */

enum { TT_FULL = 0, TT_NOFDS = 1, TT_BAREBONE = 2 };

struct tt_ctx {
	lua_State *L;
	struct chisel_runtime *rt;
	struct filter *filter;
	int mode;
	struct sinsp_threadinfo *t;
	struct sinsp_evt *ev;
	int matched;		/* fds that passed the filter for this thread */
};

static struct field_ref *fd_field(int i)
{
	static const char *const names[] = { "fd.name", "fd.type", "fd.sip", "fd.sport",
					     "fd.cip", "fd.cport", "fd.l4proto", "fd.ip" };
	static struct field_ref refs[8];
	static int state[8];	/* 0 unparsed, 1 ok, -1 unknown */

	if (!state[i]) {
		char err[128];

		state[i] = field_parse(names[i], &refs[i], err, sizeof(err)) > 0 ? 1 : -1;
	}
	return state[i] > 0 ? &refs[i] : NULL;
}

/* push the field as a Lua value, or nothing (returns 0) */
static int push_fd_field(struct tt_ctx *x, int i)
{
	struct field_ref *f = fd_field(i);
	struct field_value *v;
	int ok = 0;

	if (!f)
		return 0;
	v = malloc(sizeof(*v));
	if (v)
		memset(v, 0, offsetof(struct field_value, buf));
	if (v && field_extract(x->rt->s, x->ev, f, v)) {
		push_value(x->L, f, v);
		ok = 1;
	}
	free(v);
	return ok;
}

static void set_fd_field(struct tt_ctx *x, int i, const char *key)
{
	if (push_fd_field(x, i))
		lua_setfield(x->L, -2, key);
}

static int is_inet(int32_t type)
{
	return type == SCAP_FD_IPV4_SOCK || type == SCAP_FD_IPV6_SOCK ||
	       type == SCAP_FD_IPV4_SERVSOCK || type == SCAP_FD_IPV6_SERVSOCK;
}

/* the reference runs the filter once per fd, on a read exit of the thread
 * whose last event fd is that fd (fd.num is the fd's number) */
static int fd_passes(struct tt_ctx *x, const struct sinsp_fdinfo *fd)
{
	int64_t saved = x->t->lastevent_fd;
	int ok;

	x->t->lastevent_fd = fd->fd;
	ok = filter_run(x->filter, x->rt->s, x->ev);
	x->t->lastevent_fd = saved;
	return ok;
}

static int tt_fd(struct sinsp_fdinfo *fd, void *arg)
{
	struct tt_ctx *x = arg;
	lua_State *L = x->L;

	x->ev->fdinfo = fd;
	x->ev->fd = fd->fd;
	if (x->filter && !fd_passes(x, fd))
		return 0;
	x->matched++;
	if (x->mode & TT_NOFDS)
		return 0;
	lua_pushnumber(L, (double)fd->fd);
	lua_newtable(L);
	if (!(x->mode & TT_BAREBONE)) {
		set_fd_field(x, 0, "name");
		set_fd_field(x, 1, "type");
	}
	if (is_inet(fd->type)) {
		/* a listening socket has no client side; an accepted one
		 * (server role) has both */
		int listening = fd->type == SCAP_FD_IPV4_SERVSOCK ||
				fd->type == SCAP_FD_IPV6_SERVSOCK;

		/* fd.sip has no value on a listening socket; its own
		 * address (fd.ip) is the server side */
		set_fd_field(x, listening ? 7 : 2, "sip");
		set_fd_field(x, 3, "sport");
		lua_pushboolean(L, fd->is_server || listening);
		lua_setfield(L, -2, "is_server");
		set_fd_field(x, 6, "l4proto");
		if (!listening) {
			set_fd_field(x, 4, "cip");
			set_fd_field(x, 5, "cport");
		}
	}
	lua_settable(L, -3);
	return 0;
}

static void set_num(lua_State *L, const char *k, double v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

static void push_strlist(lua_State *L, const char *buf, uint32_t len)
{
	uint32_t off = 0;
	int i = 1;

	lua_newtable(L);
	while (buf && off < len) {
		size_t n = strnlen(buf + off, len - off);

		lua_pushlstring(L, buf + off, n);
		lua_rawseti(L, -2, i++);
		off += (uint32_t)n + 1;
	}
}

static void tt_details(lua_State *L, struct chisel_runtime *rt, struct sinsp_threadinfo *t)
{
	const char *user = sinsp_user_name(rt->s, t->uid);
	char b[32];

	/* the reference pushes these as uint32 (tid -1 is 4294967295) */
	set_num(L, "ptid", (uint32_t)t->ptid);
	lua_pushstring(L, t->comm);
	lua_setfield(L, -2, "comm");
	lua_pushstring(L, t->exe);
	lua_setfield(L, -2, "exe");
	set_num(L, "flags", t->flags);
	set_num(L, "fdlimit", (uint32_t)t->fdlimit);
	set_num(L, "uid", t->uid);
	set_num(L, "gid", t->gid);
	set_num(L, "nchilds", (uint32_t)t->nchildren);
	set_num(L, "vmsize_kb", t->vmsize_kb);
	set_num(L, "vmrss_kb", t->vmrss_kb);
	set_num(L, "vmswap_kb", t->vmswap_kb);
	set_num(L, "pfmajor", (uint32_t)t->pfmajor);
	set_num(L, "pfminor", (uint32_t)t->pfminor);
	snprintf(b, sizeof(b), "%" PRIu64, t->clone_ts);
	lua_pushstring(L, b);
	lua_setfield(L, -2, "clone_ts");
	lua_pushstring(L, user ? user : "<NA>");
	lua_setfield(L, -2, "username");
	push_strlist(L, t->args, t->args_len);
	lua_setfield(L, -2, "args");
	push_strlist(L, t->env, t->env_len);
	lua_setfield(L, -2, "env");
}

static int tt_thread(struct sinsp_threadinfo *t, void *arg)
{
	struct tt_ctx *x = arg;
	lua_State *L = x->L;
	struct sinsp_fdtable *ft;

	x->t = t;
	x->matched = 0;
	x->ev->thread = t;
	x->ev->scap.tid = (uint64_t)t->tid;
	lua_newtable(L);	/* thread */
	set_num(L, "tid", (uint32_t)t->tid);
	set_num(L, "pid", (uint32_t)t->pid);
	lua_newtable(L);	/* fdtable */
	ft = sinsp_thread_fdtable(x->rt->s, t);
	if (ft)
		sinsp_foreach_fd(ft, tt_fd, x);
	lua_setfield(L, -2, "fdtable");
	if (x->filter && !x->matched) {
		lua_pop(L, 1);
		return 0;
	}
	if (!(x->mode & TT_BAREBONE))
		tt_details(L, x->rt, t);
	lua_pushnumber(L, (double)t->tid);
	lua_insert(L, -2);
	lua_settable(L, -3);
	return 0;
}

/* 0.29.3's words for a filter its thread-table calls refuse (event fields,
 * see filter_compile_thread_table); the chisel then ends as after any
 * exception of the engine */
static struct filter *compile_thread_table_or_die(lua_State *L, struct chisel *c,
						 const char *expr)
{
	char err[512], m[CHISEL_ERRLEN];
	struct filter *f = filter_compile_thread_table(expr, err, sizeof(err));

	if (!f) {
		snprintf(m, sizeof(m), "invalid filter argument for get_thread_table in chisel %s: %s",
			 c ? c->name : "?", err);
		fprintf(stderr, "%s\n", m);
		fflush(stderr);
		if (c)
			c->engine_error = 1;
		lua_pushstring(L, "C++ exception");
		lua_error(L);
	}
	return f;
}

static int thread_table(lua_State *L, int mode)
{
	struct chisel *c = chisel_from_lua(L);
	const char *expr = luaL_optstring(L, 1, "");
	struct sinsp_evt *ev;
	struct tt_ctx x;

	memset(&x, 0, sizeof(x));
	x.L = L;
	x.rt = c ? c->rt : NULL;
	x.mode = mode;
	lua_newtable(L);
	if (!x.rt || !x.rt->s)
		return 1;
	if (*expr)
		x.filter = compile_thread_table_or_die(L, c, expr);
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return luaL_error(L, "out of memory");
	ev->scap.type = PPME_SYSCALL_READ_X;
	ev->scap.ts = x.rt->last_ts;
	ev->info = &g_event_info[PPME_SYSCALL_READ_X];
	ev->num = x.rt->s->nevents;
	x.ev = ev;
	sinsp_foreach_thread(x.rt->s, tt_thread, &x);
	free(ev);
	if (x.filter && filter_error(x.filter)) {
		/* fd.port exists, fd.ip < X, ... on an IP socket: 0.29.3 throws
		 * from the filter, with no message of its own */
		filter_free(x.filter);
		if (c)
			c->engine_error = 1;
		lua_pushstring(L, "C++ exception");
		return lua_error(L);
	}
	if (x.filter)
		filter_free(x.filter);
	return 1;
}

static int l_tt(lua_State *L) { return thread_table(L, TT_FULL); }
static int l_tt_nofds(lua_State *L) { return thread_table(L, TT_NOFDS); }
static int l_tt_bb(lua_State *L) { return thread_table(L, TT_BAREBONE); }
static int l_tt_bb_nofds(lua_State *L) { return thread_table(L, TT_BAREBONE | TT_NOFDS); }

/* ------------------------------------------------------- registration */

static const luaL_Reg sysdig_fns[] = {
	{ "set_filter", l_set_filter },
	{ "set_snaplen", l_set_snaplen },
	{ "set_output_format", l_set_output_format },
	{ "set_fatfile_dump_mode", l_set_fatfile },
	{ "is_live", l_is_live },
	{ "is_tty", l_is_tty },
	{ "get_terminal_info", l_get_terminal_info },
	{ "get_filter", l_get_filter },
	{ "get_machine_info", l_get_machine_info },
	{ "get_thread_table", l_tt },
	{ "get_thread_table_nofds", l_tt_nofds },
	{ "get_thread_table_barebone", l_tt_bb },
	{ "get_thread_table_barebone_nofds", l_tt_bb_nofds },
	{ "get_container_table", l_get_container_table },
	{ "is_print_container_data", l_is_print_container_data },
	{ "get_output_format", l_get_output_format },
	{ "get_evtsource_name", l_get_evtsource_name },
	{ "get_firstevent_ts", l_get_firstevent_ts },
	{ "get_lastevent_ts", l_get_lastevent_ts },
	{ "make_ts", l_make_ts },
	{ "add_ts", l_add_ts },
	{ "subtract_ts", l_subtract_ts },
	{ "run_app", l_run_app },
	{ "end_capture", l_end_capture },
	{ "log", l_log },
	{ "udp_setpeername", l_udp_setpeername },
	{ "udp_send", l_udp_send },
	{ "get_read_progress", l_get_read_progress },
	{ "publish_metrics", chisel_l_publish_metrics },
	{ NULL, NULL }
};

static const luaL_Reg chisel_fns[] = {
	{ "request_field", l_request_field },
	{ "set_filter", l_chisel_set_filter },
	{ "set_event_formatter", l_set_event_formatter },
	{ "set_interval_s", l_set_interval_s },
	{ "set_interval_ns", l_set_interval_ns },
	{ "set_precise_interval_ns", l_set_precise_interval_ns },
	{ "exec", l_exec },
	{ NULL, NULL }
};

static const luaL_Reg evt_fns[] = {
	{ "field", l_evt_field },
	{ "get_num", l_evt_get_num },
	{ "get_ts", l_evt_get_ts },
	{ "get_type", l_evt_get_type },
	{ "get_cpuid", l_evt_get_cpuid },
	{ NULL, NULL }
};

/* global table NAME (also package.loaded[NAME]) of closures over c */
static void register_table(lua_State *L, const char *name, const luaL_Reg *fns,
			   struct chisel *c)
{
	static const luaL_Reg none[] = { { NULL, NULL } };

	luaL_register(L, name, none);
	for (; fns->name; fns++) {
		lua_pushlightuserdata(L, c);
		lua_pushcclosure(L, fns->func, 1);
		lua_setfield(L, -2, fns->name);
	}
	lua_pop(L, 1);
}

void chisel_lua_register(lua_State *L, struct chisel *c)
{
	register_table(L, "sysdig", sysdig_fns, c);
	register_table(L, "chisel", chisel_fns, c);
	register_table(L, "evt", evt_fns, c);
}
