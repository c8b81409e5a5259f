/*
 * containers.c - the container table of libsinsp.
 *
 * One table per struct sinsp, filled as sysdig 0.29.3's container manager
 * fills it when it reads a file:
 *  - by the container events: the old `container` event (228: id, type,
 *    name, image) and the JSON ones (272/324: {"container":{"id":..,
 *    "type":N,"name":..,"image":..,"imageid":..,...}}).  An event for a
 *    known id replaces its entry and makes it the newest;
 *  - by the threads (the process list of a file, clone and execve exits)
 *    whose cgroups name a container no event described yet
 *    (cgroup_container.c): it is added with its id and type only (no
 *    image; a name only for lxc, libvirt-lxc and bpm: their id), as the
 *    reference does when it may not ask the runtime.
 * The table is dropped with the rest of the state on a new file section.
 * Readers: the container.* fields (fields.c), sysdig.get_container_table()
 * (chisel_lua.c), csysdig through the fields.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sinsp_int.h"
#include "event_ids.h"

int sinsp_is_container_event(uint16_t type)
{
	return type == PPME_CONTAINER_E || type == PPME_CONTAINER_JSON_E ||
	       type == PPME_CONTAINER_JSON_2_E;
}

/* enum sinsp_container_type -> the container.type text (0.29.3) */
const char *sinsp_container_type_name(uint32_t type)
{
	static const char *const names[] = {
		[SINSP_CT_DOCKER] = "docker", [SINSP_CT_LXC] = "lxc",
		[SINSP_CT_LIBVIRT_LXC] = "libvirt-lxc", [SINSP_CT_MESOS] = "mesos",
		[SINSP_CT_RKT] = "rkt", [SINSP_CT_CRI] = "cri",
		[SINSP_CT_CONTAINERD] = "containerd", [SINSP_CT_CRIO] = "cri-o",
		[SINSP_CT_BPM] = "bpm", [SINSP_CT_STATIC] = "static",
		[SINSP_CT_PODMAN] = "podman",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

size_t sinsp_thread_container(const struct sinsp_threadinfo *t, struct sinsp_cgroup_match *m)
{
	if (!t) {
		m->id = NULL;
		m->len = 0;
		return 0;
	}
	if (t->cid_known) {
		m->id = t->cid_len ? t->cgroups + t->cid_off : NULL;
		m->len = t->cid_len;
		m->type = t->cid_type;
		return m->len;
	}
	return sinsp_cgroups_container(t->cgroups, t->cgroups_len, m);
}

const struct sinsp_container *sinsp_container_find(const struct sinsp *s, const char *id,
						   size_t len)
{
	size_t i;

	for (i = 0; i < s->ncontainers; i++) {
		const struct sinsp_container *c = &s->containers[i];

		if (strlen(c->id) == len && !memcmp(c->id, id, len))
			return c;
	}
	return NULL;
}

static void container_free(struct sinsp_container *c)
{
	free(c->id);
	free(c->name);
	free(c->image);
	free(c->image_id);
	free(c->image_repo);
	free(c->image_tag);
	free(c->image_digest);
}

/* append c (its strings are taken over); an entry with its id goes */
static void add(struct sinsp *s, struct sinsp_container *c)
{
	struct sinsp_container *nv;
	size_t i;

	if (!c->id || !c->name || !c->image || !c->image_id || !c->image_repo ||
	    !c->image_tag || !c->image_digest) {
		container_free(c);
		return;
	}
	for (i = 0; i < s->ncontainers; i++)
		if (!strcmp(s->containers[i].id, c->id)) {
			container_free(&s->containers[i]);
			memmove(&s->containers[i], &s->containers[i + 1],
				(s->ncontainers - i - 1) * sizeof(*c));
			s->ncontainers--;
			break;
		}
	nv = realloc(s->containers, (s->ncontainers + 1) * sizeof(*nv));
	if (!nv) {
		container_free(c);
		return;
	}
	s->containers = nv;
	nv[s->ncontainers++] = *c;
}

/* the strings nothing gave: "" */
static void fill_empty(struct sinsp_container *c)
{
	char **str[] = { &c->name, &c->image, &c->image_id, &c->image_repo, &c->image_tag,
			 &c->image_digest };

	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		if (!*str[i])
			*str[i] = strdup("");
}

/* ------------------------------------------------------------ events */

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
	while (isspace((unsigned char)*p))
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (isspace((unsigned char)*p))
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

static int json_true(const char *doc, const char *key)
{
	const char *p = json_value(doc, key);

	return p && !strncmp(p, "true", 4);
}

void containers_event(struct sinsp *s, const struct scap_evt *e)
{
	struct sinsp_container c = { 0 };

	if (e->type == PPME_CONTAINER_E) {
		uint32_t type = 0;

		if (e->nparams > 1 && e->pval[1] && e->plen[1] >= 4)
			memcpy(&type, e->pval[1], 4);
		c.id = param_dup(e, 0);
		c.type = type;
		c.name = param_dup(e, 2);
		c.image = param_dup(e, 3);
		fill_empty(&c);
	} else {
		char *doc = param_dup(e, 0);

		if (!doc)
			return;
		c.id = json_str(doc, "id");
		c.type = (uint32_t)json_int(doc, "type");
		c.name = json_str(doc, "name");
		c.image = json_str(doc, "image");
		c.image_id = json_str(doc, "imageid");
		c.image_repo = json_str(doc, "imagerepo");
		c.image_tag = json_str(doc, "imagetag");
		c.image_digest = json_str(doc, "imagedigest");
		c.privileged = json_true(doc, "privileged");
		free(doc);
	}
	add(s, &c);
}

void containers_add_thread(struct sinsp *s, struct sinsp_threadinfo *t)
{
	struct sinsp_container c = { 0 };
	struct sinsp_cgroup_match m;
	size_t n = sinsp_cgroups_container(t->cgroups, t->cgroups_len, &m);

	t->cid_off = n ? (uint32_t)(m.id - t->cgroups) : 0;
	t->cid_len = (uint32_t)n;
	t->cid_type = n ? m.type : 0;
	t->cid_known = 1;

	if (!n || sinsp_container_find(s, m.id, n))
		return;
	c.id = strndup(m.id, n);
	c.type = m.type;
	/* the engines that know no runtime name their container by its id */
	if (m.type == SINSP_CT_LXC || m.type == SINSP_CT_LIBVIRT_LXC || m.type == SINSP_CT_BPM)
		c.name = strndup(m.id, n);
	fill_empty(&c);
	add(s, &c);
}

void containers_clear(struct sinsp *s)
{
	size_t i;

	for (i = 0; i < s->ncontainers; i++)
		container_free(&s->containers[i]);
	free(s->containers);
	s->containers = NULL;
	s->ncontainers = 0;
}
