/*
 * chisel_metrics.c - sysdig.publish_metrics(name, table [, label [, help]]):
 * a chisel hands a table of key -> number (its own aggregation, e.g. bytes
 * per process) to the metrics endpoint of `sysdig --metrics-listen`, which
 * serves it as the gauge family sysdig_chisel_<name>{<label>="<key>"}.
 * Each call replaces the family.  Returns true when an endpoint took it,
 * false when sysdig runs without one.  The sink is set by the CLI
 * (chisel_set_metrics_sink), see userspace/sysdig/metrics.c.
 */
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "chisel_internal.h"

void chisel_set_metrics_sink(struct chisel_runtime *rt, chisel_metrics_sink fn, void *ctx)
{
	rt->metrics_sink = fn;
	rt->metrics_ctx = ctx;
}

int chisel_l_publish_metrics(lua_State *L)
{
	struct chisel *c = chisel_from_lua(L);
	struct chisel_runtime *rt = c ? c->rt : NULL;
	const char *name = luaL_checkstring(L, 1);
	const char *label = luaL_optstring(L, 3, "key");
	const char *help = luaL_optstring(L, 4, "published by a chisel");
	size_t n = 0, cap = 64;
	const char **keys;
	double *vals;

	luaL_checktype(L, 2, LUA_TTABLE);
	if (!*name || !*label)
		return luaL_error(L, "publish_metrics: empty name or label");
	if (!rt || !rt->metrics_sink) {
		lua_pushboolean(L, 0);
		return 1;
	}
	keys = malloc(cap * sizeof(*keys));
	vals = malloc(cap * sizeof(*vals));
	lua_newtable(L);	/* index 5: keeps the key strings alive */
	lua_pushnil(L);
	while (keys && vals && lua_next(L, 2)) {
		if (lua_type(L, -1) != LUA_TNUMBER) {
			free(keys);
			free(vals);
			return luaL_error(L, "publish_metrics: the value of a key is not a number");
		}
		if (n == cap) {
			const char **nk = realloc(keys, 2 * cap * sizeof(*keys));
			double *nv = nk ? realloc(vals, 2 * cap * sizeof(*vals)) : NULL;

			if (nk)
				keys = nk;
			if (nv)
				vals = nv;
			if (!nk || !nv) {
				free(keys);
				free(vals);
				return luaL_error(L, "publish_metrics: out of memory");
			}
			cap *= 2;
		}
		vals[n] = lua_tonumber(L, -1);
		lua_pop(L, 1);
		lua_pushvalue(L, -1);	/* the key, converted on a copy */
		keys[n] = lua_tostring(L, -1);
		if (!keys[n]) {
			free(keys);
			free(vals);
			return luaL_error(L, "publish_metrics: a key is neither string nor number");
		}
		lua_rawseti(L, 5, (int)n + 1);
		n++;
	}
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return luaL_error(L, "publish_metrics: out of memory");
	}
	rt->metrics_sink(rt->metrics_ctx, name, label, help, keys, vals, n);
	free(keys);
	free(vals);
	lua_pushboolean(L, 1);
	return 1;
}
