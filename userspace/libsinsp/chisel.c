/*
 * chisel.c - the Lua chisel runtime (docs/chisel_api.md).
 *
 * Finds a chisel on the search path, runs it in its own lua_State, splits
 * and validates its argument string, and drives its callbacks from the CLI's
 * event loop: on_init, on_capture_start, on_event (after the interval logic
 * and the per-chisel filter), on_interval and on_capture_end.  The Lua API
 * tables live in chisel_lua.c, -cl/-i in chisel_list.c.
 */
#include <ctype.h>
#include <signal.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <lauxlib.h>
#include <lualib.h>
#include "chisel_internal.h"

#ifndef CHISEL_INSTALL_DIR
#define CHISEL_INSTALL_DIR "/usr/local/share/sysdig-c/chisels"
#endif
/* the chisel directory seen from the directory of the running program
 * (chisel.cmake: relative path from the install bindir; the build tree has
 * a symbolic link at the same place next to its sysdig) */
#ifndef CHISEL_DIR_FROM_BIN
#define CHISEL_DIR_FROM_BIN "../share/sysdig-c/chisels"
#endif

/* ---------------------------------------------------------------- errors */

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ search path */

static char *dir_with_slash(const char *d)
{
	size_t n = strlen(d);
	char *r = malloc(n + 2);

	if (!r)
		return NULL;
	memcpy(r, d, n + 1);
	if (n && d[n - 1] != '/')
		strcat(r, "/");
	return r;
}

static void add_dir(char ***v, size_t *n, char *d, int front)
{
	char **nv;
	size_t i;

	if (!d)
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], d) && !front) {
			free(d);	/* the same directory twice (installed program) */
			return;
		}
	nv = realloc(*v, (*n + 2) * sizeof(**v));
	if (!nv) {
		free(d);
		return;
	}
	*v = nv;
	if (front) {
		memmove(nv + 1, nv, *n * sizeof(*nv));
		nv[0] = d;
	} else {
		nv[*n] = d;
	}
	(*n)++;
	nv[*n] = NULL;
}

static void add_env_dirs(char ***v, size_t *n)
{
	const char *env = getenv("SYSDIG_CHISEL_DIR");
	char *copy, *tok, *save = NULL;

	if (!env || !*env)
		return;
	copy = strdup(env);
	for (tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save))
		if (*tok)
			add_dir(v, n, dir_with_slash(tok), 1);
	free(copy);
}

/* <dir of the running program>/CHISEL_DIR_FROM_BIN, NULL when unknown */
static char *dir_from_program(void)
{
	char exe[PATH_MAX], p[PATH_MAX], rp[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (len <= 0)
		return NULL;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if ((size_t)snprintf(p, sizeof(p), "%s/%s", exe, CHISEL_DIR_FROM_BIN) >= sizeof(p) ||
	    !realpath(p, rp))
		return NULL;
	return dir_with_slash(rp);
}

/* SYSDIG_CHISEL_DIR (last first), ~/.chisels/, the chisel directory
 * relative to the program (installed anywhere, or the build tree), then the
 * configured install dir (programs elsewhere using libsinsp).  Never the
 * current directory: a chisel there runs only when named by a path (./x.lua)
 * or when the directory is in SYSDIG_CHISEL_DIR. */
const char *const *chisel_dirs(void)
{
	static char **dirs;
	static size_t n;
	const char *home = getenv("HOME");

	if (dirs)
		return (const char *const *)dirs;
	if (home) {
		char p[PATH_MAX], rp[PATH_MAX];

		snprintf(p, sizeof(p), "%s/.chisels", home);
		if (realpath(p, rp))
			add_dir(&dirs, &n, dir_with_slash(rp), 0);
	}
	add_env_dirs(&dirs, &n);
	add_dir(&dirs, &n, dir_from_program(), 0);
	add_dir(&dirs, &n, dir_with_slash(CHISEL_INSTALL_DIR), 0);
	if (!dirs)
		dirs = calloc(1, sizeof(*dirs));	/* NULL-terminated, empty */
	return (const char *const *)dirs;
}

/* Why Lua code at path (a file or a directory) is not to be trusted, or
 * NULL: it belongs to another user than us or root, or another user may
 * write it (world-writable, or group-writable by a group not ours). */
const char *chisel_untrusted(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return NULL;	/* nothing there to run */
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return "it belongs to another user";
	if (st.st_mode & S_IWOTH)
		return "every user may write it";
	if ((st.st_mode & S_IWGRP) && st.st_gid != getegid())
		return "its group may write it";
	return NULL;
}

/* the file and its directory must be trusted; 0, or -1 with err */
static int check_trusted(const char *name, const char *path, char *err, size_t errlen)
{
	char *dir = strdup(path);
	const char *why = chisel_untrusted(path), *what = path;
	int rc = 0;

	if (!why && dir) {
		char *slash = strrchr(dir, '/');

		if (slash == dir)
			slash[1] = 0;
		else if (slash)
			*slash = 0;
		else
			strcpy(dir, ".");
		why = chisel_untrusted(dir);
		what = dir;
	}
	if (why) {
		set_err(err, errlen, "refusing to load chisel %s: %s: %s", name, what, why);
		rc = -1;
	}
	free(dir);
	return rc;
}

static char *trim_dup(const char *s)
{
	size_t n;

	while (*s && isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

/* A name with a '/' is a path (NAME.lua, then NAME); else DIR+NAME+".lua"
 * in every dir, then DIR+NAME.  The malloc'd path, or NULL with err (not
 * found, or found but not trusted: see check_trusted). */
static char *find_chisel(const char *name, char *err, size_t errlen)
{
	const char *const *d = chisel_dirs();
	static const char *const here[] = { "", NULL };
	char path[PATH_MAX];
	int pass, i;

	if (strchr(name, '/'))
		d = here;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; d[i]; i++) {
			FILE *f;

			snprintf(path, sizeof(path), "%s%s%s", d[i], name, pass ? "" : ".lua");
			f = fopen(path, "r");
			if (f) {
				fclose(f);
				if (check_trusted(name, path, err, errlen))
					return NULL;
				return strdup(path);
			}
		}
	}
	set_err(err, errlen, "can't open file %s", name);
	return NULL;
}

/* ---------------------------------------------------------- arg splitting */

void chisel_free_args(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* split on single spaces outside ' or ` quotes.
 * 0, or -1 for an unterminated quote. */
int chisel_split_args(const char *in, char ***out, int *n)
{
	char *s = trim_dup(in ? in : "");
	size_t len = strlen(s), i, cur = 0;
	char *buf = malloc(len + 1);
	char **v = NULL;
	int cnt = 0, quoted = 0;

	*out = NULL;
	*n = 0;
	if (!len) {
		free(s);
		free(buf);
		return 0;
	}
	for (i = 0; i <= len; i++) {
		char ch = s[i];

		if (ch == '\'' || ch == '`') {
			quoted = !quoted;
			continue;
		}
		if (ch == '\0' || (ch == ' ' && !quoted)) {
			v = realloc(v, (cnt + 1) * sizeof(*v));
			v[cnt++] = strndup(buf, cur);
			cur = 0;
			continue;
		}
		buf[cur++] = ch;
	}
	free(s);
	free(buf);
	if (quoted) {
		chisel_free_args(v, cnt);
		return -1;
	}
	*out = v;
	*n = cnt;
	return 0;
}

/* ------------------------------------------------------- Lua state setup */

/* package.path / cpath without the entries relative to the current
 * directory ("./?.lua" is the first one by default) */
static void drop_relative(lua_State *L, const char *field, luaL_Buffer *b)
{
	const char *p;

	lua_getfield(L, -1, field);
	p = lua_tostring(L, -1);
	while (p && *p) {
		const char *e = strchr(p, ';');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n && *p == '/') {
			luaL_addlstring(b, p, n);
			luaL_addchar(b, ';');
		}
		p += n + (e ? 1 : 0);
	}
	lua_pop(L, 1);
}

/* require finds modules in the trusted chisel dirs and the system's Lua
 * dirs, never in the current directory */
void chisel_add_package_path(lua_State *L)
{
	const char *const *d = chisel_dirs();
	luaL_Buffer b;
	int i;

	lua_getglobal(L, "package");
	luaL_buffinit(L, &b);
	for (i = 0; d[i]; i++) {
		if (chisel_untrusted(d[i]))
			continue;
		luaL_addstring(&b, d[i]);
		luaL_addstring(&b, "?.lua;");
	}
	drop_relative(L, "path", &b);
	luaL_pushresult(&b);
	lua_setfield(L, -2, "path");
	luaL_buffinit(L, &b);
	drop_relative(L, "cpath", &b);
	luaL_pushresult(&b);
	lua_setfield(L, -2, "cpath");
	lua_pop(L, 1);
}

/* a fresh state with the libraries and the API tables bound to c */
static lua_State *new_state(struct chisel *c)
{
	lua_State *L = luaL_newstate();

	if (!L)
		return NULL;
	luaL_openlibs(L);
	chisel_lua_register(L, c);
	chisel_add_package_path(L);
	/* the interned key, so that on_event is looked up per event
	 * without hashing its name (still a global lookup: a chisel may
	 * redefine it at any time) */
	lua_pushliteral(L, "on_event");
	c->on_event_key = luaL_ref(L, LUA_REGISTRYINDEX);
	return L;
}

/* Lua code of a chisel is running (chisel_running, for the CLI's watchdog) */
static volatile sig_atomic_t g_lua_depth;

static int chisel_pcall(lua_State *L, int nargs, int nres)
{
	int r;

	g_lua_depth++;
	r = lua_pcall(L, nargs, nres, 0);
	g_lua_depth--;
	return r;
}

int chisel_running(void)
{
	return g_lua_depth > 0;
}

/* run the file's top level; 0 or -1 with the Lua message in err */
static int run_file(lua_State *L, const char *path, char *err, size_t errlen)
{
	if (luaL_loadfile(L, path) || chisel_pcall(L, 0, 0)) {
		const char *m = lua_tostring(L, -1);

		set_err(err, errlen, "%s", m ? m : "unknown error");
		lua_pop(L, 1);
		return -1;
	}
	return 0;
}

/* Count the declared args. 0 ok, -1 when `args` is not a table. */
static int read_arg_decls(lua_State *L, int *nreq, int *nopt, int *single_filter)
{
	int i, len, is_filter = 0;

	*nreq = *nopt = 0;
	lua_getglobal(L, "args");
	if (!lua_istable(L, -1)) {
		lua_pop(L, 1);
		return -1;
	}
	len = (int)lua_objlen(L, -1);
	for (i = 1; i <= len; i++) {
		lua_rawgeti(L, -1, i);
		if (lua_istable(L, -1)) {
			int opt;
			const char *t;

			lua_getfield(L, -1, "optional");
			opt = lua_toboolean(L, -1);
			lua_pop(L, 1);
			lua_getfield(L, -1, "argtype");
			t = lua_tostring(L, -1);
			is_filter = t && !strcmp(t, "filter");
			lua_pop(L, 1);
			if (opt)
				(*nopt)++;
			else
				(*nreq)++;
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	*single_filter = (*nreq + *nopt == 1) && is_filter;
	return 0;
}

/* ------------------------------------------------------------ chisel life */

static void chisel_clear_state(struct chisel *c)
{
	size_t i;

	if (c->L)
		lua_close(c->L);
	c->L = NULL;
	for (i = 0; i < c->nfields; i++)
		free(c->fields[i]);
	free(c->fields);
	c->fields = NULL;
	c->nfields = 0;
	if (c->filter)
		filter_free(c->filter);
	c->filter = NULL;
	chisel_fmt_free(c->fmt);
	c->fmt = NULL;
	free(c->exec_args);
	free(c->exec_name);
	c->exec_args = c->exec_name = NULL;
	c->interval_ns = c->precise_ns = 0;
	c->have_sample = c->have_call = c->have_precise = 0;
}

static void chisel_free(struct chisel *c)
{
	if (!c)
		return;
	chisel_clear_state(c);
	free(c->val);
	free(c->name);
	free(c);
}

/* call the value on top of the stack, above its nargs arguments; returns 0
 * with nres results pushed, or -1 with "NAME chisel error: msg" in err.
 * *missing is set when it is not a function (args popped). */
static int call_top(struct chisel *c, int nargs, int nres, int *missing,
		    char *err, size_t errlen)
{
	lua_State *L = c->L;

	*missing = 0;
	if (!lua_isfunction(L, -1)) {
		lua_pop(L, 1 + nargs);
		*missing = 1;
		return 0;
	}
	lua_insert(L, -1 - nargs);
	if (chisel_pcall(L, nargs, nres)) {
		const char *m = lua_tostring(L, -1);

		set_err(err, errlen, "%s chisel error: %s", c->name, m ? m : "error");
		lua_pop(L, 1);
		return -1;
	}
	return 0;
}

/* call global FN with nargs already pushed (see call_top) */
static int call_fn(struct chisel *c, const char *fn, int nargs, int nres,
		   int *missing, char *err, size_t errlen)
{
	lua_getglobal(c->L, fn);
	return call_top(c, nargs, nres, missing, err, errlen);
}

/* split, validate and pass the arguments (docs/chisel_api.md, "Globals") */
static int set_args(struct chisel *c, const char *args, char *err, size_t errlen)
{
	char **v;
	int n, i, missing;

	if (chisel_split_args(args, &v, &n) < 0) {
		set_err(err, errlen, "corrupted parameters for chisel %s", c->name);
		return -1;
	}
	if (n < c->nreq) {
		set_err(err, errlen, "wrong number of parameters for chisel %s, %d required, %d given",
			c->name, c->nreq, n);
		goto fail;
	}
	if (n > c->nreq + c->nopt) {
		set_err(err, errlen,
			"too many parameters for chisel %s, %d required, %d optional, %d given",
			c->name, c->nreq, c->nopt, n);
		goto fail;
	}
	for (i = 0; i < n; i++) {
		lua_State *L = c->L;

		lua_getglobal(L, "args");
		lua_rawgeti(L, -1, i + 1);
		lua_getfield(L, -1, "name");
		lua_insert(L, -3);
		lua_pop(L, 2);
		if (lua_isnil(L, -1)) {
			lua_pop(L, 1);
			lua_pushstring(L, "");
		}
		lua_pushstring(L, v[i]);
		if (call_fn(c, "on_set_arg", 2, 1, &missing, err, errlen) < 0)
			goto fail;
		if (missing) {
			set_err(err, errlen, "chisel %s misses a set_arg() function.", c->name);
			goto fail;
		}
		if (!lua_isboolean(L, -1)) {
			lua_pop(L, 1);
			set_err(err, errlen, "%s chisel error: wrong set_arg() return value.", c->name);
			goto fail;
		}
		if (!lua_toboolean(L, -1)) {
			lua_pop(L, 1);
			set_err(err, errlen, "set_arg() for chisel %s failed.", c->name);
			goto fail;
		}
		lua_pop(L, 1);
	}
	chisel_free_args(v, n);
	return 0;
fail:
	chisel_free_args(v, n);
	return -1;
}

/* (re)load chisel NAME into c: state, top level, args */
static int chisel_setup(struct chisel *c, const char *args, char *err, size_t errlen)
{
	char *path = find_chisel(c->name, err, errlen);
	char msg[CHISEL_ERRLEN];

	if (!path)
		return -1;
	c->L = new_state(c);
	if (!c->L) {
		free(path);
		set_err(err, errlen, "out of memory creating the Lua state");
		return -1;
	}
	if (run_file(c->L, path, msg, sizeof(msg)) < 0) {
		free(path);
		set_err(err, errlen, "Failed to load chisel %s: %s", c->name, msg);
		return -1;
	}
	free(path);
	if (read_arg_decls(c->L, &c->nreq, &c->nopt, &c->single_filter_arg) < 0) {
		set_err(err, errlen, "Failed to load chisel %s: args table missing", c->name);
		return -1;
	}
	return set_args(c, args, err, errlen);
}

/* --------------------------------------------------------------- public */

struct chisel_runtime *chisel_runtime_new(struct sinsp *s, char *err, size_t errlen)
{
	struct chisel_runtime *rt = calloc(1, sizeof(*rt));

	if (!rt) {
		set_err(err, errlen, "out of memory");
		return NULL;
	}
	rt->s = s;
	rt->udp_fd = -1;
	return rt;
}

/* ---- interruption (SIGINT/SIGTERM while Lua runs) ---- */

static void interrupt_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	lua_sethook(L, NULL, 0, 0);
	luaL_error(L, CHISEL_INTERRUPTED);
}

/* lua_sethook is the one Lua call documented as safe from a signal handler:
 * the hook raises an error at the next instruction count, call or return */
void chisel_interrupt(struct chisel_runtime *rt)
{
	for (size_t i = 0; i < rt->n; i++)
		if (rt->ch[i] && rt->ch[i]->L)
			lua_sethook(rt->ch[i]->L, interrupt_hook,
				    LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void chisel_interrupt_clear(struct chisel_runtime *rt)
{
	for (size_t i = 0; i < rt->n; i++)
		if (rt->ch[i] && rt->ch[i]->L)
			lua_sethook(rt->ch[i]->L, NULL, 0, 0);
}

void chisel_runtime_free(struct chisel_runtime *rt)
{
	size_t i;

	if (!rt)
		return;
	for (i = 0; i < rt->n; i++)
		chisel_free(rt->ch[i]);
	free(rt->ch);
	free(rt->cli_filter);
	free(rt->set_filter);
	free(rt->run_app);
	free(rt->output_format);
	free((char *)rt->host.evtsource);
	if (rt->udp_fd >= 0)
		close(rt->udp_fd);
	free(rt);
}

void chisel_set_host(struct chisel_runtime *rt, const struct chisel_host *h)
{
	free(rt->cli_filter);
	free((char *)rt->host.evtsource);
	rt->host = *h;
	rt->cli_filter = strdup(h->filter ? h->filter : "");
	rt->host.filter = rt->cli_filter;
	rt->host.evtsource = h->evtsource ? strdup(h->evtsource) : NULL;
}

void chisel_set_sinsp(struct chisel_runtime *rt, struct sinsp *s)
{
	rt->s = s;
	if (s && rt->bufmode_set)
		s->render.bufmode = rt->bufmode;
}

int chisel_load(struct chisel_runtime *rt, const char *name, const char *args,
		char *err, size_t errlen)
{
	struct chisel *c = calloc(1, sizeof(*c));
	struct chisel **nv;

	if (!c) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	c->rt = rt;
	c->name = trim_dup(name ? name : "");
	if (chisel_setup(c, args, err, errlen) < 0) {
		chisel_free(c);
		return -1;
	}
	nv = realloc(rt->ch, (rt->n + 1) * sizeof(*nv));
	if (!nv) {
		chisel_free(c);
		set_err(err, errlen, "out of memory");
		return -1;
	}
	rt->ch = nv;
	rt->ch[rt->n++] = c;
	return 0;
}

int chisel_arg_counts(const char *name, int *required, int *optional,
		      int *single_filter_arg, char *err, size_t errlen)
{
	struct chisel c;
	char *path;
	char msg[CHISEL_ERRLEN];
	int rc = 0;

	memset(&c, 0, sizeof(c));
	c.name = trim_dup(name ? name : "");
	path = find_chisel(c.name, err, errlen);
	if (!path) {
		free(c.name);
		return -1;
	}
	c.L = new_state(&c);
	if (run_file(c.L, path, msg, sizeof(msg)) < 0) {
		set_err(err, errlen, "Failed to load chisel %s: %s", c.name, msg);
		rc = -1;
	} else if (read_arg_decls(c.L, required, optional, single_filter_arg) < 0) {
		set_err(err, errlen, "Failed to load chisel %s: args table missing", c.name);
		rc = -1;
	}
	free(path);
	chisel_clear_state(&c);
	free(c.val);
	free(c.name);
	return rc;
}

int chisel_consumes_next(const char *name, const char *next, const char *rest,
			 char *err, size_t errlen)
{
	int req, opt, single;
	struct filter *f;

	if (chisel_arg_counts(name, &req, &opt, &single, err, errlen) < 0)
		return -1;
	if (req + opt == 0)
		return 0;
	if (req > 0) {
		if (!next) {
			set_err(err, errlen, "missing arguments for chisel %s", name);
			return -1;
		}
		return 1;
	}
	if (!next || next[0] == '-')
		return 0;
	if (single)
		return 1;
	f = filter_compile(rest ? rest : next, NULL, 0);
	if (f) {
		filter_free(f);
		return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- init */

/* join exec args: values with a space are wrapped in single quotes */
static int init_one(struct chisel *c, char *err, size_t errlen, int depth)
{
	int missing, ok;
	char *name, *args;

	if (call_fn(c, "on_init", 0, 1, &missing, err, errlen) < 0) {
		/* spec: "NAME: error in init(): <message>" */
		char m[CHISEL_ERRLEN];
		const char *p = strstr(err, "chisel error: ");

		snprintf(m, sizeof(m), "%s: error in init(): %s", c->name,
			 p ? p + 14 : err);
		set_err(err, errlen, "%s", m);
		return -1;
	}
	if (missing)
		return 0;
	if (!c->exec_name) {
		if (!lua_isboolean(c->L, -1)) {
			lua_pop(c->L, 1);
			set_err(err, errlen, "%s chisel error: wrong init() return value.", c->name);
			return -1;
		}
		ok = lua_toboolean(c->L, -1);
		lua_pop(c->L, 1);
		if (!ok) {
			set_err(err, errlen, "init() for chisel %s failed.", c->name);
			return -1;
		}
		return 0;
	}
	lua_pop(c->L, 1);
	if (depth > 32) {
		set_err(err, errlen, "chisel %s: chisel.exec nested too deeply", c->name);
		return -1;
	}
	/* chisel.exec: replace this chisel by the requested one */
	name = c->exec_name;
	args = c->exec_args;
	c->exec_name = c->exec_args = NULL;
	chisel_clear_state(c);
	free(c->name);
	c->name = name;
	if (chisel_setup(c, args, err, errlen) < 0) {
		free(args);
		return -1;
	}
	free(args);
	return init_one(c, err, errlen, depth + 1);
}

int chisel_init(struct chisel_runtime *rt, char *err, size_t errlen)
{
	size_t i;

	if (rt->inited)
		return 0;
	rt->inited = 1;
	for (i = 0; i < rt->n; i++)
		if (init_one(rt->ch[i], err, errlen, 0) < 0)
			return -1;
	return 0;
}

int chisel_capture_start(struct chisel_runtime *rt, char *err, size_t errlen)
{
	size_t i;
	int missing;

	if (chisel_init(rt, err, errlen) < 0)
		return -1;
	rt->started = 1;
	for (i = 0; i < rt->n; i++) {
		struct chisel *c = rt->ch[i];

		if (call_fn(c, "on_capture_start", 0, 1, &missing, err, errlen) < 0)
			return -1;
		if (missing)
			continue;
		if (!lua_isboolean(c->L, -1)) {
			lua_pop(c->L, 1);
			set_err(err, errlen,
				"%s chisel error: wrong on_capture_start() return value. Boolean expected.",
				c->name);
			return -1;
		}
		if (!lua_toboolean(c->L, -1)) {
			lua_pop(c->L, 1);
			set_err(err, errlen, "init() for chisel %s failed.", c->name);
			return -1;
		}
		lua_pop(c->L, 1);
	}
	return 0;
}

/* ------------------------------------------------------------ intervals */

static int call_interval(struct chisel *c, uint64_t ts, uint64_t delta, char *err, size_t errlen)
{
	lua_State *L = c->L;
	int ok;

	lua_getglobal(L, "on_interval");
	lua_pushnumber(L, (double)(ts / 1000000000ULL));
	lua_pushnumber(L, (double)(ts % 1000000000ULL));
	lua_pushnumber(L, (double)delta);
	if (chisel_pcall(L, 3, 1)) {
		const char *m = lua_tostring(L, -1);

		set_err(err, errlen, "%s chisel error: calling on_interval() failed: %s",
			c->name, m ? m : "error");
		lua_pop(L, 1);
		return -1;
	}
	ok = lua_toboolean(L, -1);
	lua_pop(L, 1);
	if (!ok) {
		set_err(err, errlen, "execution terminated by the %s chisel", c->name);
		return -1;
	}
	return 0;
}

static int aligned_interval(struct chisel *c, uint64_t ts, char *err, size_t errlen)
{
	uint64_t sample = ts - ts % c->interval_ns, delta;

	if (!c->have_sample) {
		c->have_sample = 1;
		c->last_sample = sample;
		return 0;
	}
	if (sample == c->last_sample)
		return 0;
	delta = c->have_call ? ts - c->last_call_ts : 0;
	if (c->have_call && delta == 0)
		return 0;
	c->last_sample = sample;
	c->last_call_ts = ts;
	c->have_call = 1;
	return call_interval(c, ts, delta, err, errlen);
}

static int precise_interval(struct chisel *c, uint64_t ts, char *err, size_t errlen)
{
	uint64_t t;

	if (!c->have_precise) {
		c->have_precise = 1;
		c->precise_last = ts;
		return 0;
	}
	if (ts < c->precise_last || ts - c->precise_last < c->precise_ns)
		return 0;
	for (t = c->precise_last; t <= ts - c->precise_ns; t += c->precise_ns)
		if (call_interval(c, t, c->precise_ns, err, errlen) < 0)
			return -1;
	c->precise_last = t;
	return 0;
}

static int do_intervals(struct chisel *c, uint64_t ts, char *err, size_t errlen)
{
	if (c->interval_ns)
		return aligned_interval(c, ts, err, errlen);
	if (c->precise_ns)
		return precise_interval(c, ts, err, errlen);
	return 0;
}

/* --------------------------------------------------------------- events */

static void note_ts(struct chisel_runtime *rt, uint64_t ts)
{
	if (!rt->have_ts) {
		rt->have_ts = 1;
		rt->first_ts = ts;
	}
	rt->last_ts = ts;
}

/* one chisel, one event: filter, on_event, formatter */
static int deliver(struct chisel *c, struct sinsp_evt *e, char *err, size_t errlen)
{
	int missing, accepted;

	if (c->filter && !filter_run(c->filter, c->rt->s, e))
		return 0;
	lua_rawgeti(c->L, LUA_REGISTRYINDEX, c->on_event_key);
	lua_gettable(c->L, LUA_GLOBALSINDEX);
	if (call_top(c, 0, 1, &missing, err, errlen) < 0)
		return -1;
	if (missing)
		return 0;
	accepted = lua_toboolean(c->L, -1);
	lua_pop(c->L, 1);
	if (c->rt->end_capture)
		return 1;
	if (accepted && c->fmt)
		chisel_fmt_print(c->fmt, c->rt->s, e, stdout);
	return 0;
}

/* the clock of the interval logic: event time on files, wall-clock time
 * when live (so that on_interval keeps its pace whatever the event rate) */
static uint64_t interval_clock(const struct chisel_runtime *rt, uint64_t evt_ts)
{
	struct timespec now;

	if (!rt->host.is_live || clock_gettime(CLOCK_REALTIME, &now))
		return evt_ts;
	return (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
}

static int all_intervals(struct chisel_runtime *rt, uint64_t ts, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < rt->n; i++)
		if (do_intervals(rt->ch[i], ts, err, errlen) < 0)
			return -1;
	return 0;
}

int chisel_event(struct chisel_runtime *rt, struct sinsp_evt *e, char *err, size_t errlen)
{
	uint64_t clock;
	size_t i;

	/* sysdig consumes container events itself (libsinsp's container
	 * table has them) */
	if (sinsp_is_container_event(e->scap.type))
		return 0;
	note_ts(rt, e->scap.ts);
	clock = interval_clock(rt, e->scap.ts);
	for (i = 0; i < rt->n; i++) {
		struct chisel *c = rt->ch[i];
		int rc;

		/* sievt is refreshed before the interval check (not for
		 * events dropped by the global filter) */
		c->evt = e;
		if (do_intervals(c, clock, err, errlen) < 0)
			return -1;
		rc = deliver(c, e, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int chisel_event_dropped(struct chisel_runtime *rt, struct sinsp_evt *e,
			 char *err, size_t errlen)
{
	if (sinsp_is_container_event(e->scap.type))
		return 0;
	note_ts(rt, e->scap.ts);
	return all_intervals(rt, interval_clock(rt, e->scap.ts), err, errlen);
}

int chisel_tick(struct chisel_runtime *rt, char *err, size_t errlen)
{
	if (!rt->host.is_live)
		return 0;
	return all_intervals(rt, interval_clock(rt, 0), err, errlen);
}

int chisel_capture_end(struct chisel_runtime *rt, char *err, size_t errlen)
{
	uint64_t first = rt->first_ts, last = rt->last_ts;
	size_t i;
	int missing;

	(void)err;
	(void)errlen;
	if (rt->ended)
		return 0;
	rt->ended = 1;
	if (rt->s && rt->s->first_ts)
		first = rt->s->first_ts;
	for (i = 0; i < rt->n; i++) {
		struct chisel *c = rt->ch[i];
		char msg[CHISEL_ERRLEN];
		int engine_error = c->engine_error;

		lua_pushnumber(c->L, (double)(last / 1000000000ULL));
		lua_pushnumber(c->L, (double)(last % 1000000000ULL));
		lua_pushnumber(c->L, (double)(last - first));
		c->api_error = 0;
		c->engine_error = 0;
		/* errors here are swallowed, as in sysdig: a Lua error is
		 * printed, an engine error (a refused thread-table filter) only
		 * by the call that raised it */
		if (call_fn(c, "on_capture_end", 3, 0, &missing, msg, sizeof(msg)) < 0 &&
		    !c->api_error && !c->engine_error)
			fprintf(stderr, "%s\n", msg);
		c->engine_error |= engine_error;
	}
	fflush(stdout);
	return 0;
}

int chisel_engine_error(const struct chisel_runtime *rt)
{
	size_t i;

	for (i = 0; i < rt->n; i++)
		if (rt->ch[i]->engine_error)
			return 1;
	return 0;
}

const char *chisel_global_filter(const struct chisel_runtime *rt)
{
	return rt->set_filter;
}

uint32_t chisel_snaplen(const struct chisel_runtime *rt)
{
	return rt->snaplen;
}

const char *chisel_run_app(const struct chisel_runtime *rt)
{
	return rt->run_app;
}

int chisel_may_match_type(const struct chisel_runtime *rt, uint16_t evtype)
{
	size_t i;

	for (i = 0; i < rt->n; i++)
		if (!rt->ch[i]->filter || filter_may_match_type(rt->ch[i]->filter, evtype))
			return 1;
	return 0;
}
