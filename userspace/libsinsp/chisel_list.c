/*
 * chisel_list.c - `-cl` (list chisels by category) and `-i NAME` (describe
 * one chisel), docs/chisel_api.md.
 *
 * Every .lua file of every search directory is run in a scratch Lua state;
 * it is a chisel when it defines string `description` and
 * `short_description`, a non-nil `args` and no `hidden = true`.  An earlier
 * directory shadows a later one with the same file name.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>
#include "chisel_internal.h"

struct arg_info {
	char *name, *type, *desc;
};

struct chisel_info {
	char *name, *desc, *short_desc, *category;
	struct arg_info *args;
	int nargs;
};

struct info_list {
	struct chisel_info *v;
	size_t n;
};

static char *field_dup(lua_State *L, int idx, const char *key)
{
	const char *s;
	char *r;

	lua_getfield(L, idx, key);
	s = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
	r = strdup(s);
	lua_pop(L, 1);
	return r;
}

static void read_args(lua_State *L, struct chisel_info *ci)
{
	int i, len;

	lua_getglobal(L, "args");
	if (!lua_istable(L, -1)) {
		lua_pop(L, 1);
		return;
	}
	len = (int)lua_objlen(L, -1);
	ci->args = calloc((size_t)len + 1, sizeof(*ci->args));
	for (i = 1; i <= len; i++) {
		lua_rawgeti(L, -1, i);
		if (lua_istable(L, -1)) {
			struct arg_info *a = &ci->args[ci->nargs++];

			a->name = field_dup(L, -1, "name");
			a->type = field_dup(L, -1, "argtype");
			a->desc = field_dup(L, -1, "description");
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

static char *global_str(lua_State *L, const char *name)
{
	char *r = NULL;

	lua_getglobal(L, name);
	if (lua_type(L, -1) == LUA_TSTRING)
		r = strdup(lua_tostring(L, -1));
	lua_pop(L, 1);
	return r;
}

/* 1 with *ci filled if PATH is a listable chisel */
static int probe(const char *path, const char *name, struct chisel_info *ci)
{
	lua_State *L = luaL_newstate();
	int ok = 0, hidden, has_args;

	if (!L)
		return 0;
	luaL_openlibs(L);
	chisel_lua_register(L, NULL);
	chisel_add_package_path(L);
	memset(ci, 0, sizeof(*ci));
	if (luaL_loadfile(L, path) || lua_pcall(L, 0, 0, 0))
		goto out;
	ci->desc = global_str(L, "description");
	ci->short_desc = global_str(L, "short_description");
	ci->category = global_str(L, "category");
	lua_getglobal(L, "hidden");
	hidden = lua_isboolean(L, -1) && lua_toboolean(L, -1);
	lua_getglobal(L, "args");
	has_args = !lua_isnil(L, -1);
	lua_pop(L, 2);
	if (!ci->desc || !ci->short_desc || !has_args || hidden)
		goto out;
	if (!ci->category)
		ci->category = strdup("");
	ci->name = strdup(name);
	read_args(L, ci);
	ok = 1;
out:
	lua_close(L);
	if (!ok) {
		free(ci->desc);
		free(ci->short_desc);
		free(ci->category);
	}
	return ok;
}

static int seen(struct info_list *l, char **names, size_t nn, const char *name)
{
	size_t i;

	(void)l;
	for (i = 0; i < nn; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void scan_dir(const char *dir, struct info_list *l, char ***names, size_t *nn)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **files = NULL;
	size_t nf = 0, i;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".lua")) {
			files = realloc(files, (nf + 1) * sizeof(*files));
			files[nf++] = strndup(de->d_name, len - 4);
		}
	}
	closedir(d);
	qsort(files, nf, sizeof(*files), cmp_name);
	for (i = 0; i < nf; i++) {
		char path[4096];
		struct chisel_info ci;

		if (seen(l, *names, *nn, files[i])) {
			free(files[i]);
			continue;
		}
		*names = realloc(*names, (*nn + 1) * sizeof(**names));
		(*names)[(*nn)++] = files[i];
		snprintf(path, sizeof(path), "%s%s.lua", dir, files[i]);
		if (!chisel_untrusted(path) && probe(path, files[i], &ci)) {
			l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
			l->v[l->n++] = ci;
		}
	}
	free(files);
}

static int cmp_info(const void *a, const void *b)
{
	const struct chisel_info *x = a, *y = b;
	int c = strcmp(x->category, y->category);

	return c ? c : strcmp(x->name, y->name);
}

static void collect(struct info_list *l)
{
	const char *const *d = chisel_dirs();
	char **names = NULL;
	size_t nn = 0, i;

	memset(l, 0, sizeof(*l));
	for (i = 0; d[i]; i++)
		if (d[i][0] && !chisel_untrusted(d[i]))
			scan_dir(d[i], l, &names, &nn);
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	qsort(l->v, l->n, sizeof(*l->v), cmp_info);
}

static void free_list(struct info_list *l)
{
	size_t i;
	int j;

	for (i = 0; i < l->n; i++) {
		struct chisel_info *ci = &l->v[i];

		for (j = 0; j < ci->nargs; j++) {
			free(ci->args[j].name);
			free(ci->args[j].type);
			free(ci->args[j].desc);
		}
		free(ci->args);
		free(ci->name);
		free(ci->desc);
		free(ci->short_desc);
		free(ci->category);
	}
	free(l->v);
}

/* text in chunks of 63, continuation lines indented by 16 */
static void print_wrapped63(FILE *out, const char *s)
{
	size_t len = strlen(s), off = 0;

	do {
		size_t n = len - off > 63 ? 63 : len - off;

		if (off)
			fputs("                ", out);
		fprintf(out, "%.*s\n", (int)n, s + off);
		off += n;
	} while (off < len);
}

static void print_category(FILE *out, const char *cat)
{
	size_t i, n = strlen("Category: ") + strlen(cat);

	fprintf(out, "\nCategory: %s\n", cat);
	for (i = 0; i < n; i++)
		fputc('-', out);
	fputc('\n', out);
}

static void print_entry(FILE *out, const struct chisel_info *ci)
{
	if (strlen(ci->name) >= 16)
		fprintf(out, "%s\n%16s", ci->name, "");
	else
		fprintf(out, "%-16s", ci->name);
	print_wrapped63(out, ci->short_desc);
}

int chisel_list(FILE *out)
{
	struct info_list l;
	size_t i;

	collect(&l);
	for (i = 0; i < l.n; i++) {
		if (!i || strcmp(l.v[i].category, l.v[i - 1].category))
			print_category(out, l.v[i].category);
		print_entry(out, &l.v[i]);
	}
	fprintf(out, "\nUse the -i flag to get detailed information about a specific chisel\n");
	free_list(&l);
	return 0;
}

int chisel_describe(FILE *out, const char *name)
{
	struct info_list l;
	size_t i, len, off;
	int j, rc = 1;

	collect(&l);
	for (i = 0; i < l.n; i++) {
		const struct chisel_info *ci = &l.v[i];

		if (strcmp(ci->name, name))
			continue;
		print_category(out, ci->category);
		print_entry(out, ci);
		fputc('\n', out);
		len = strlen(ci->desc);
		for (off = 0; off < len; off += 79)
			fprintf(out, "%.*s\n", (int)(len - off > 79 ? 79 : len - off), ci->desc + off);
		fprintf(out, "Args:\n");
		if (!ci->nargs)
			fprintf(out, "(None)\n");
		for (j = 0; j < ci->nargs; j++) {
			const struct arg_info *a = &ci->args[j];
			size_t n = strlen(a->type) + strlen(a->name) + strlen(a->desc) + 8;
			char *line = malloc(n);

			snprintf(line, n, "[%s] %s - %s", a->type, a->name, a->desc);
			print_wrapped63(out, line);
			free(line);
		}
		if (ci->nargs)
			fputc('\n', out);
		rc = 0;
		break;
	}
	free_list(&l);
	if (rc)
		fprintf(stderr, "chisel %s not found - use -cl to list them.\n", name);
	return rc ? -1 : 0;
}
