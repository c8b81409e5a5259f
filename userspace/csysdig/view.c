/*
 * view.c - loads view chisels (v_*.lua) into struct view (see view.h).
 *
 * Each file runs in a fresh Lua state with the standard libraries; only the
 * global view_info table it leaves behind is read.  Unknown keys are ignored
 * (view files of newer versions may carry more); a wrong type for a known
 * key is an error naming the file.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include "chisel_internal.h"
#include "view.h"

static const char *const g_aggr_names[] = { "NONE", "SUM", "AVG", "TIME_AVG", "MIN", "MAX" };

const char *aggr_name(enum aggr a)
{
	return g_aggr_names[a];
}

static char *opt_str(lua_State *L, int idx, const char *key)
{
	char *r = NULL;

	lua_getfield(L, idx, key);
	if (lua_isstring(L, -1))
		r = strdup(lua_tostring(L, -1));
	lua_pop(L, 1);
	return r;
}

static int opt_bool(lua_State *L, int idx, const char *key, int dflt)
{
	int r = dflt;

	lua_getfield(L, idx, key);
	if (!lua_isnil(L, -1))
		r = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return r;
}

static int opt_int(lua_State *L, int idx, const char *key, int dflt)
{
	int r = dflt;

	lua_getfield(L, idx, key);
	if (lua_isnumber(L, -1))
		r = (int)lua_tointeger(L, -1);
	lua_pop(L, 1);
	return r;
}

/* array of strings t[key] -> *out (NULL-free list, count in *n) */
static void opt_strlist(lua_State *L, int idx, const char *key, char ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	lua_getfield(L, idx, key);
	if (lua_istable(L, -1)) {
		size_t len = lua_objlen(L, -1);

		*out = calloc(len + 1, sizeof(char *));
		for (size_t i = 1; i <= len; i++) {
			lua_rawgeti(L, -1, (int)i);
			if (lua_isstring(L, -1))
				(*out)[(*n)++] = strdup(lua_tostring(L, -1));
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
}

static int has_str(char **list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

static void free_strlist(char **l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static int parse_aggr(const char *s, enum aggr *out)
{
	for (size_t i = 0; i < sizeof(g_aggr_names) / sizeof(g_aggr_names[0]); i++)
		if (strcmp(s, g_aggr_names[i]) == 0) {
			*out = (enum aggr)i;
			return 0;
		}
	return -1;
}

static int read_aggr(lua_State *L, int idx, const char *key, enum aggr *out, char *err,
		     size_t errlen)
{
	char *s = opt_str(L, idx, key);
	int rc = 0;

	*out = AGGR_NONE;
	if (s && parse_aggr(s, out) < 0) {
		snprintf(err, errlen, "invalid %s '%s'", key, s);
		rc = -1;
	}
	free(s);
	return rc;
}

static int read_column(lua_State *L, int idx, struct view_column *c, char *err, size_t errlen)
{
	char **tags;
	size_t ntags;

	memset(c, 0, sizeof(*c));
	c->name = opt_str(L, idx, "name");
	c->field = opt_str(L, idx, "field");
	c->description = opt_str(L, idx, "description");
	c->filterfield = opt_str(L, idx, "filterfield");
	c->colsize = opt_int(L, idx, "colsize", -1);
	c->is_key = opt_bool(L, idx, "is_key", 0);
	c->is_groupby_key = opt_bool(L, idx, "is_groupby_key", 0);
	c->is_sorting = opt_bool(L, idx, "is_sorting", 0);
	c->filter_in_child_only = opt_bool(L, idx, "filter_in_child_only", 0);
	opt_strlist(L, idx, "tags", &tags, &ntags);
	c->for_containers = has_str(tags, ntags, "containers");
	c->for_default = has_str(tags, ntags, "default");
	free_strlist(tags, ntags);
	if (!c->name)
		c->name = strdup("");
	if (!c->field) {
		snprintf(err, errlen, "column '%s' has no field", c->name);
		return -1;
	}
	if (read_aggr(L, idx, "aggregation", &c->aggregation, err, errlen) < 0 ||
	    read_aggr(L, idx, "groupby_aggregation", &c->groupby_aggregation, err, errlen) < 0)
		return -1;
	return 0;
}

static void read_actions(lua_State *L, int idx, struct view *v)
{
	lua_getfield(L, idx, "actions");
	if (lua_istable(L, -1)) {
		size_t len = lua_objlen(L, -1);

		v->actions = calloc(len + 1, sizeof(*v->actions));
		for (size_t i = 1; i <= len; i++) {
			struct view_action *a = &v->actions[v->nactions];

			lua_rawgeti(L, -1, (int)i);
			if (lua_istable(L, -1)) {
				int t = lua_gettop(L);

				a->hotkey = opt_str(L, t, "hotkey");
				a->command = opt_str(L, t, "command");
				a->description = opt_str(L, t, "description");
				a->ask_confirmation = opt_bool(L, t, "ask_confirmation", 0);
				a->wait_finish = opt_bool(L, t, "wait_finish", 1);
				if (a->hotkey && a->command)
					v->nactions++;
				else {
					free(a->hotkey);
					free(a->command);
					free(a->description);
				}
			}
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
}

static void view_free(struct view *v)
{
	free(v->id);
	free(v->name);
	free(v->description);
	free(v->filter);
	free(v->drilldown_target);
	free(v->spectro_type);
	free(v->path);
	free_strlist(v->tips, v->ntips);
	free_strlist(v->tags, v->ntags);
	free_strlist(v->applies_to, v->napplies_to);
	for (size_t i = 0; i < v->ncols; i++) {
		free(v->cols[i].name);
		free(v->cols[i].field);
		free(v->cols[i].description);
		free(v->cols[i].filterfield);
	}
	free(v->cols);
	for (size_t i = 0; i < v->nactions; i++) {
		free(v->actions[i].hotkey);
		free(v->actions[i].command);
		free(v->actions[i].description);
	}
	free(v->actions);
	memset(v, 0, sizeof(*v));
}

/* the view_info table at stack index idx -> v; 0 or -1 with err */
static int read_view(lua_State *L, int idx, struct view *v, char *err, size_t errlen)
{
	char *type;

	v->id = opt_str(L, idx, "id");
	v->name = opt_str(L, idx, "name");
	v->description = opt_str(L, idx, "description");
	v->filter = opt_str(L, idx, "filter");
	v->drilldown_target = opt_str(L, idx, "drilldown_target");
	v->spectro_type = opt_str(L, idx, "spectro_type");
	opt_strlist(L, idx, "tips", &v->tips, &v->ntips);
	opt_strlist(L, idx, "tags", &v->tags, &v->ntags);
	opt_strlist(L, idx, "applies_to", &v->applies_to, &v->napplies_to);
	v->use_defaults = opt_bool(L, idx, "use_defaults", 0);
	v->is_root = opt_bool(L, idx, "is_root", 0);
	v->drilldown_increase_depth = opt_bool(L, idx, "drilldown_increase_depth", 0);
	v->propagate_filter = opt_bool(L, idx, "propagate_filter", 1);
	if (!v->id) {
		snprintf(err, errlen, "view_info has no id");
		return -1;
	}
	if (!v->name)
		v->name = strdup(v->id);
	type = opt_str(L, idx, "view_type");
	if (!type || strcmp(type, "table") == 0)
		v->type = VIEW_TABLE;
	else if (strcmp(type, "list") == 0)
		v->type = VIEW_LIST;
	else if (strcmp(type, "spectrogram") == 0)
		v->type = VIEW_SPECTRO;
	else {
		snprintf(err, errlen, "view %s: unknown view_type '%s'", v->id, type);
		free(type);
		return -1;
	}
	free(type);
	lua_getfield(L, idx, "columns");
	if (!lua_istable(L, -1)) {
		lua_pop(L, 1);
		snprintf(err, errlen, "view %s has no columns", v->id);
		return -1;
	}
	size_t len = lua_objlen(L, -1);

	v->cols = calloc(len + 1, sizeof(*v->cols));
	for (size_t i = 1; i <= len; i++) {
		lua_rawgeti(L, -1, (int)i);
		if (lua_istable(L, -1)) {
			char cerr[256];

			if (read_column(L, lua_gettop(L), &v->cols[v->ncols], cerr, sizeof(cerr)) < 0) {
				v->ncols++;
				snprintf(err, errlen, "view %s: %s", v->id, cerr);
				lua_pop(L, 2);
				return -1;
			}
			v->ncols++;
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	read_actions(L, idx, v);
	return 0;
}

int view_load_file(struct view_set *set, const char *path, char *err, size_t errlen)
{
	lua_State *L = luaL_newstate();
	struct view v;
	int rc = 0;

	memset(&v, 0, sizeof(v));
	if (!L) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	luaL_openlibs(L);
	if (luaL_loadfile(L, path) || lua_pcall(L, 0, 0, 0)) {
		snprintf(err, errlen, "%s: %s", path, lua_tostring(L, -1));
		lua_close(L);
		return -1;
	}
	lua_getglobal(L, "view_info");
	if (!lua_istable(L, -1)) {
		lua_close(L);
		return 0;	/* a chisel, or a disabled view (view_infoz) */
	}
	if (read_view(L, lua_gettop(L), &v, err, errlen) < 0) {
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "%s: %s", path, err);
		snprintf(err, errlen, "%s", tmp);
		rc = -1;
	} else if (has_str(v.tags, v.ntags, "nocsysdig") || view_find(set, v.id)) {
		rc = 0;
	} else {
		struct view *nv = realloc(set->v, (set->n + 1) * sizeof(*nv));

		if (nv) {
			v.path = strdup(path);
			set->v = nv;
			set->v[set->n++] = v;
			lua_close(L);
			return 1;
		}
		rc = -1;
		snprintf(err, errlen, "out of memory");
	}
	view_free(&v);
	lua_close(L);
	return rc;
}

static int is_view_file(const char *name)
{
	size_t n = strlen(name);

	return strncmp(name, "v_", 2) == 0 && n > 6 && strcmp(name + n - 4, ".lua") == 0;
}

static int cmp_name(const void *a, const void *b)
{
	const struct view *x = a, *y = b;

	return strcasecmp(x->name, y->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* every view file of one directory, in name order */
static int load_dir(struct view_set *set, const char *dir, char *err, size_t errlen)
{
	DIR *d = opendir(dir[0] ? dir : ".");
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (is_view_file(de->d_name)) {
			char **nn = realloc(names, (n + 1) * sizeof(*names));

			if (!nn)
				break;
			names = nn;
			names[n++] = strdup(de->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s%s", dir, names[i]);
		if (rc == 0 && view_load_file(set, path, err, errlen) < 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int view_load_all(struct view_set *set, char *err, size_t errlen)
{
	const char *const *dirs = chisel_dirs();

	for (size_t i = 0; dirs[i]; i++)
		if (dirs[i][0] && load_dir(set, dirs[i], err, errlen) < 0)
			return -1;
	if (set->n)
		qsort(set->v, set->n, sizeof(*set->v), cmp_name);
	return 0;
}

void view_set_free(struct view_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		view_free(&set->v[i]);
	free(set->v);
	set->v = NULL;
	set->n = 0;
}

struct view *view_find(struct view_set *set, const char *id)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->v[i].id, id) == 0)
			return &set->v[i];
	return NULL;
}

int view_applies_to(const struct view *v, const char *field)
{
	return has_str(v->applies_to, v->napplies_to, field);
}
