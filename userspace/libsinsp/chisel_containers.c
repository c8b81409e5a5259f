/*
 * chisel_containers.c - the container table behind
 * sysdig.get_container_table() (docs/chisel_api.md).
 *
 * Containers are announced in captures by meta events: the old `container`
 * event (228: id, type, name, image) and the JSON ones (272/324:
 * {"container":{"id":..,"type":N,"name":..,"image":..,...}}).  sysdig
 * consumes those events itself (they are never delivered to chisels), so
 * chisel.c hands them here instead of to on_event.  Only the four fields the
 * Lua table carries are kept; a container announced twice is updated in
 * place, first-seen order is kept.  The table also gives evt.field() its
 * container.name (sysdig's container manager knows the names; the field
 * extractor alone only knows the id).
 */
#include <stdlib.h>
#include <string.h>
#include "chisel_internal.h"
#include "event_ids.h"

/* sinsp_container_type -> name (0.29.3) */
static const char *type_name(long t)
{
	static const char *const names[] = { "docker", "lxc", "libvirt_lxc", "mesos", "rkt",
					     "unknown", "cri", "containerd", "cri-o", "bpm" };

	return t >= 0 && t < (long)(sizeof(names) / sizeof(names[0])) ? names[t] : "unknown";
}

int chisel_is_container_event(uint16_t type)
{
	return type == PPME_CONTAINER_E || type == PPME_CONTAINER_JSON_E ||
	       type == PPME_CONTAINER_JSON_2_E;
}

/* parameter i as a NUL-terminated copy ("" when absent) */
static char *param_dup(const struct scap_evt *e, uint32_t i)
{
	if (i >= e->nparams || !e->pval[i])
		return strdup("");
	return strndup((const char *)e->pval[i], e->plen[i]);
}

/* position just after "key": (and blanks) inside the "container" object */
static const char *json_value(const char *doc, const char *key)
{
	char pat[64];
	const char *p = strstr(doc, "\"container\"");

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(p ? p : doc, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* a JSON string value (simple escapes decoded), "" when absent */
static char *json_str(const char *doc, const char *key)
{
	const char *p = json_value(doc, key);
	char *out, *o;

	if (!p || *p != '"')
		return strdup("");
	out = malloc(strlen(p) + 1);
	if (!out)
		return NULL;
	for (o = out, p++; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1])
			p++;
		*o++ = *p;
	}
	*o = 0;
	return out;
}

static long json_int(const char *doc, const char *key)
{
	const char *p = json_value(doc, key);

	return p ? strtol(p, NULL, 10) : 0;
}

static struct chisel_container *slot_for(struct chisel_runtime *rt, const char *id)
{
	struct chisel_container *nv;
	size_t i;

	for (i = 0; i < rt->ncontainers; i++)
		if (!strcmp(rt->containers[i].id, id))
			return &rt->containers[i];
	nv = realloc(rt->containers, (rt->ncontainers + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	rt->containers = nv;
	memset(&nv[rt->ncontainers], 0, sizeof(*nv));
	return &nv[rt->ncontainers++];
}

static void store(struct chisel_runtime *rt, char *id, char *name, char *image, long type)
{
	struct chisel_container *c = id && name && image ? slot_for(rt, id) : NULL;

	if (!c) {
		free(id);
		free(name);
		free(image);
		return;
	}
	free(c->id);
	free(c->name);
	free(c->image);
	c->id = id;
	c->name = name;
	c->image = image;
	c->type = type_name(type);
}

void chisel_container_event(struct chisel_runtime *rt, const struct scap_evt *e)
{
	if (e->type == PPME_CONTAINER_E) {
		long type = 0;

		if (e->nparams > 1 && e->pval[1] && e->plen[1] >= 4) {
			uint32_t t;

			memcpy(&t, e->pval[1], 4);
			type = (long)t;
		}
		store(rt, param_dup(e, 0), param_dup(e, 2), param_dup(e, 3), type);
	} else {
		char *doc = param_dup(e, 0);

		if (!doc)
			return;
		store(rt, json_str(doc, "id"), json_str(doc, "name"), json_str(doc, "image"),
		      json_int(doc, "type"));
		free(doc);
	}
}

const char *chisel_container_name(const struct chisel_runtime *rt, const char *id, size_t len)
{
	size_t i;

	for (i = 0; i < rt->ncontainers; i++) {
		const struct chisel_container *c = &rt->containers[rt->ncontainers - 1 - i];

		if (strlen(c->id) == len && !memcmp(c->id, id, len))
			return c->name && *c->name ? c->name : NULL;
	}
	return NULL;
}

void chisel_containers_free(struct chisel_runtime *rt)
{
	size_t i;

	for (i = 0; i < rt->ncontainers; i++) {
		free(rt->containers[i].id);
		free(rt->containers[i].name);
		free(rt->containers[i].image);
	}
	free(rt->containers);
	rt->containers = NULL;
	rt->ncontainers = 0;
}
