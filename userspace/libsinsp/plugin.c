/*
 * plugin.c - the plugin loader and registry (plugin.h).
 *
 * plugin_register() dlopens a .so, checks its required API version against
 * ours (same major, minor not above), reads its identity and field list
 * (a small json reader below covers what get_fields and
 * get_extract_event_sources return) and calls plugin_init with the init
 * config.  A source plugin then becomes a scap engine: each event of its
 * next_batch is wrapped as a pluginevent (parameters: plugin id u32, the
 * plugin's bytes), the same layout sysdig writes to .scap files, so -w
 * files of plugin events read back here and in sysdig 0.29.3.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "plugin.h"
#include "json_schema.h"

#ifndef SYSDIG_PLUGIN_INSTALL_DIR
#define SYSDIG_PLUGIN_INSTALL_DIR "/usr/share/sysdig-c/plugins"
#endif
#define MAX_LOADED 32

static struct plugin *g_plugins[MAX_LOADED];
static int g_nplugins;

/* ------------------------------------------------------------ json */

struct json {
	const char *p;
	int bad;
};

static void json_ws(struct json *j)
{
	while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
		j->p++;
}

static int json_eat(struct json *j, char c)
{
	json_ws(j);
	if (*j->p != c)
		return 0;
	j->p++;
	return 1;
}

/* a string (malloc'd), NULL on error */
static char *json_string(struct json *j)
{
	char *s;

	json_ws(j);
	s = json_read_string(&j->p);
	if (!s)
		j->bad = 1;
	return s;
}

static void json_skip(struct json *j);

static void json_skip_list(struct json *j, char close, int keyed)
{
	if (json_eat(j, close))
		return;
	do {
		if (keyed) {
			free(json_string(j));
			if (!json_eat(j, ':'))
				j->bad = 1;
		}
		json_skip(j);
	} while (!j->bad && json_eat(j, ','));
	if (!json_eat(j, close))
		j->bad = 1;
}

/* skips any value */
static void json_skip(struct json *j)
{
	json_ws(j);
	if (*j->p == '"')
		free(json_string(j));
	else if (json_eat(j, '{'))
		json_skip_list(j, '}', 1);
	else if (json_eat(j, '['))
		json_skip_list(j, ']', 0);
	else if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "null", 4))
		j->p += 4;
	else if (!strncmp(j->p, "false", 5))
		j->p += 5;
	else {
		char *end;

		(void)strtod(j->p, &end);
		if (end == j->p)
			j->bad = 1;
		j->p = end;
	}
}

/* text is one JSON value */
static int json_valid(const char *text)
{
	struct json j = { text, 0 };

	json_skip(&j);
	json_ws(&j);
	return !j.bad && !*j.p;
}

static int json_true(struct json *j)
{
	json_ws(j);
	if (!strncmp(j->p, "true", 4)) {
		j->p += 4;
		return 1;
	}
	json_skip(j);
	return 0;
}

/* [{"type":..,"name":..,"desc":..,"display":..,"argRequired":..}, ...] */
static int parse_fields(struct plugin *p, const char *text, char *err, size_t errlen)
{
	struct json j = { text, 0 };

	if (!text)
		return 0;
	if (!json_eat(&j, '['))
		goto bad;
	if (json_eat(&j, ']'))
		return 0;
	do {
		struct plugin_field f = { 0 };
		char *type = NULL;
		struct plugin_field *nf;

		if (!json_eat(&j, '{'))
			goto bad;
		if (!json_eat(&j, '}')) {
			do {
				char *key = json_string(&j);

				if (!key || !json_eat(&j, ':')) {
					free(key);
					goto bad;
				}
				if (!strcmp(key, "type"))
					type = json_string(&j);
				else if (!strcmp(key, "name"))
					f.name = json_string(&j);
				else if (!strcmp(key, "desc"))
					f.desc = json_string(&j);
				else if (!strcmp(key, "display"))
					f.display = json_string(&j);
				else if (!strcmp(key, "argRequired"))
					f.arg_required = json_true(&j);
				else
					json_skip(&j);
				free(key);
			} while (!j.bad && json_eat(&j, ','));
			if (j.bad || !json_eat(&j, '}'))
				goto bad_field;
		}
		if (!f.name || !type || (strcmp(type, "string") && strcmp(type, "uint64"))) {
			snprintf(err, errlen, "plugin %s: field %s has a missing or unknown type %s", p->name,
				 f.name ? f.name : "(no name)", type ? type : "");
			free(type);
			free(f.name);
			free(f.desc);
			free(f.display);
			return -1;
		}
		f.type = !strcmp(type, "string") ? PLUGIN_FIELD_STRING : PLUGIN_FIELD_UINT64;
		free(type);
		nf = realloc(p->fields, (size_t)(p->nfields + 1) * sizeof(*nf));
		if (!nf)
			goto bad_field;
		p->fields = nf;
		if (!f.desc)
			f.desc = strdup("");
		p->fields[p->nfields++] = f;
		continue;
bad_field:
		free(type);
		free(f.name);
		free(f.desc);
		free(f.display);
		goto bad;
	} while (json_eat(&j, ','));
	if (json_eat(&j, ']'))
		return 0;
bad:
	snprintf(err, errlen, "plugin %s: cannot parse the field list of get_fields", p->name);
	return -1;
}

/* ["src", ...] */
static int parse_sources(struct plugin *p, const char *text)
{
	struct json j = { text, 0 };

	if (!text)
		return 0;
	if (!json_eat(&j, '['))
		return -1;
	if (json_eat(&j, ']'))
		return 0;
	do {
		char *s = json_string(&j);
		char **n;

		if (!s)
			return -1;
		n = realloc(p->extract_sources, (size_t)(p->nextract_sources + 1) * sizeof(*n));
		if (!n) {
			free(s);
			return -1;
		}
		p->extract_sources = n;
		p->extract_sources[p->nextract_sources++] = s;
	} while (json_eat(&j, ','));
	return json_eat(&j, ']') ? 0 : -1;
}

/* ----------------------------------------------------------- loading */

size_t plugin_dirs(const char *out[], size_t max)
{
	static char *env_copy;
	size_t n = 0;
	const char *env = getenv("SYSDIG_PLUGIN_DIR");

	if (env && *env && !env_copy)
		env_copy = strdup(env);
	if (env_copy) {
		static char *parts[16];
		static size_t nparts;

		if (!nparts) {
			for (char *save = NULL, *t = strtok_r(env_copy, ";", &save); t && nparts < 16;
			     t = strtok_r(NULL, ";", &save))
				parts[nparts++] = t;
		}
		for (size_t i = 0; i < nparts && n < max; i++)
			out[n++] = parts[i];
	}
	if (n < max)
		out[n++] = SYSDIG_PLUGIN_INSTALL_DIR;
	return n;
}

static char *dup_str(const char *s)
{
	return strdup(s ? s : "");
}

static void plugin_free(struct plugin *p)
{
	if (!p)
		return;
	if (p->state && p->destroy)
		p->destroy(p->state);
	for (int i = 0; i < p->nfields; i++) {
		free(p->fields[i].name);
		free(p->fields[i].desc);
		free(p->fields[i].display);
	}
	free(p->fields);
	for (int i = 0; i < p->nextract_sources; i++)
		free(p->extract_sources[i]);
	free(p->extract_sources);
	free(p->path);
	free(p->name);
	free(p->description);
	free(p->contact);
	free(p->version);
	free(p->required_api);
	free(p->event_source);
	free(p->init_config);
	free(p->init_schema);
	if (p->dl)
		dlclose(p->dl);
	free(p);
}

static void *sym(void *dl, const char *name)
{
	char full[96];

	snprintf(full, sizeof(full), "plugin_%s", name);
	return dlsym(dl, full);
}

static const char *call_str(void *dl, const char *name)
{
	plugin_str_fn f = (plugin_str_fn)sym(dl, name);

	return f ? f() : NULL;
}

/* "M.m.p" against ours */
static int api_compatible(const char *v)
{
	unsigned maj, min, pat;

	if (!v || sscanf(v, "%u.%u.%u", &maj, &min, &pat) != 3)
		return 0;
	return maj == PLUGIN_API_MAJOR && min <= PLUGIN_API_MINOR;
}

/* the parts of a plugin that do not need init; NULL with err */
static struct plugin *plugin_open_so(const char *path, char *err, size_t errlen)
{
	struct plugin *p = calloc(1, sizeof(*p));
	plugin_u32_fn get_type, get_id;
	static const char *const required[] = { "get_required_api_version", "get_type", "init",
						"destroy", "get_last_error", "get_name",
						"get_description", "get_contact", "get_version" };

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->path = strdup(path);
	p->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!p->dl) {
		snprintf(err, errlen, "cannot load plugin %s: %s", path, dlerror());
		goto fail;
	}
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!sym(p->dl, required[i])) {
			snprintf(err, errlen, "cannot load plugin %s: it does not export plugin_%s", path,
				 required[i]);
			goto fail;
		}
	p->required_api = dup_str(call_str(p->dl, "get_required_api_version"));
	if (!api_compatible(p->required_api)) {
		snprintf(err, errlen, "cannot load plugin %s: it requires plugin API %s, this engine has %d.%d.%d",
			 path, p->required_api, PLUGIN_API_MAJOR, PLUGIN_API_MINOR, PLUGIN_API_PATCH);
		goto fail;
	}
	get_type = (plugin_u32_fn)sym(p->dl, "get_type");
	p->kind = (int)get_type();
	p->name = dup_str(call_str(p->dl, "get_name"));
	p->description = dup_str(call_str(p->dl, "get_description"));
	p->contact = dup_str(call_str(p->dl, "get_contact"));
	p->version = dup_str(call_str(p->dl, "get_version"));
	p->last_error = (plugin_last_error_fn)sym(p->dl, "get_last_error");
	p->destroy = (plugin_destroy_fn)sym(p->dl, "destroy");
	p->extract = (plugin_extract_fn)sym(p->dl, "extract_fields");
	if (p->kind == PLUGIN_KIND_SOURCE) {
		static const char *const src_required[] = { "get_id", "get_event_source", "open", "close",
							    "next_batch", "event_to_string" };

		for (size_t i = 0; i < sizeof(src_required) / sizeof(src_required[0]); i++)
			if (!sym(p->dl, src_required[i])) {
				snprintf(err, errlen, "cannot load plugin %s: source plugin without plugin_%s",
					 path, src_required[i]);
				goto fail;
			}
		get_id = (plugin_u32_fn)sym(p->dl, "get_id");
		p->id = get_id();
		p->event_source = dup_str(call_str(p->dl, "get_event_source"));
		p->open = (plugin_open_fn)sym(p->dl, "open");
		p->close = (plugin_close_fn)sym(p->dl, "close");
		p->next_batch = (plugin_next_batch_fn)sym(p->dl, "next_batch");
		p->event_to_string = (plugin_event_to_string_fn)sym(p->dl, "event_to_string");
		p->progress = (plugin_progress_fn)sym(p->dl, "get_progress");
		p->list_open_params = (plugin_list_params_fn)sym(p->dl, "list_open_params");
	} else if (p->kind == PLUGIN_KIND_EXTRACTOR) {
		if (!p->extract || !sym(p->dl, "get_fields")) {
			snprintf(err, errlen, "cannot load plugin %s: extractor plugin without plugin_get_fields/plugin_extract_fields",
				 path);
			goto fail;
		}
		if (parse_sources(p, call_str(p->dl, "get_extract_event_sources")) < 0) {
			snprintf(err, errlen, "cannot load plugin %s: bad get_extract_event_sources", path);
			goto fail;
		}
	} else {
		snprintf(err, errlen, "cannot load plugin %s: unknown plugin type %d", path, p->kind);
		goto fail;
	}
	if (parse_fields(p, call_str(p->dl, "get_fields"), err, errlen) < 0)
		goto fail;
	if (p->nfields && !p->extract) {
		snprintf(err, errlen, "cannot load plugin %s: it has fields but no plugin_extract_fields", path);
		goto fail;
	}
	return p;
fail:
	plugin_free(p);
	return NULL;
}

static int ends_with_so(const char *s)
{
	size_t n = strlen(s);

	return n > 3 && !strcmp(s + n - 3, ".so");
}

/* the path of the plugin of the directories whose get_name() is name, or
 * NULL (sysdig 0.29.3 matches the plugin's own name, not its file name) */
static char *find_in_dirs(const char *name)
{
	const char *dirs[20];
	size_t nd = plugin_dirs(dirs, 20);
	char path[4096];

	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			char err[256];
			struct plugin *p;

			if (!ends_with_so(de->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], de->d_name);
			p = plugin_open_so(path, err, sizeof(err));
			if (p && !strcmp(p->name, name)) {
				plugin_free(p);
				closedir(d);
				return strdup(path);
			}
			plugin_free(p);
		}
		if (d)
			closedir(d);
	}
	return NULL;
}

/* get_init_schema, as sysdig 0.29.3 reads it when it loads a plugin: a
 * type it does not know is an error; a JSON schema wants a JSON config
 * that satisfies it (json_schema.c) */
static int check_init_config(struct plugin *p, char *err, size_t errlen)
{
	plugin_init_schema_fn f = (plugin_init_schema_fn)sym(p->dl, "get_init_schema");
	const char *schema;
	char why[600];

	p->init_schema_type = PLUGIN_SCHEMA_NONE;
	schema = f ? f(&p->init_schema_type) : NULL;
	p->init_schema = dup_str(schema);
	if (p->init_schema_type != PLUGIN_SCHEMA_NONE && p->init_schema_type != PLUGIN_SCHEMA_JSON) {
		snprintf(err, errlen, "error in plugin %s: get_init_schema returned an unknown schema type %u",
			 p->name, p->init_schema_type);
		return -1;
	}
	if (p->init_schema_type == PLUGIN_SCHEMA_JSON && *p->init_schema && *p->init_config &&
	    !json_valid(p->init_config)) {
		snprintf(err, errlen, "error in plugin %s: init config is not a valid json", p->name);
		return -1;
	}
	/* an empty config is checked as {} (and passed to the plugin empty) */
	if (p->init_schema_type == PLUGIN_SCHEMA_JSON && *p->init_schema &&
	    json_schema_check(p->init_schema, *p->init_config ? p->init_config : "{}",
			      why, sizeof(why)) < 0) {
		snprintf(err, errlen, "error in plugin %s init config: %s", p->name, why);
		return -1;
	}
	return 0;
}

struct plugin *plugin_register(const char *name, const char *config, char *err, size_t errlen)
{
	char *path = strchr(name, '/') ? strdup(name) : find_in_dirs(name);
	struct plugin *p;
	plugin_init_fn init;
	plugin_rc rc = PLUGIN_RC_FAILURE;

	if (!path) {
		snprintf(err, errlen, "plugin %s not found. Use -Il to list all installed plugins.", name);
		return NULL;
	}
	p = plugin_open_so(path, err, errlen);
	free(path);
	if (!p)
		return NULL;
	for (int i = 0; i < g_nplugins; i++) {
		if (!strcmp(g_plugins[i]->name, p->name)) {
			snprintf(err, errlen, "found another plugin with name %s. Aborting.", p->name);
			plugin_free(p);
			return NULL;
		}
		if (p->kind == PLUGIN_KIND_SOURCE && g_plugins[i]->kind == PLUGIN_KIND_SOURCE &&
		    g_plugins[i]->id == p->id) {
			snprintf(err, errlen, "found another plugin with id %u. Aborting.", p->id);
			plugin_free(p);
			return NULL;
		}
	}
	if (g_nplugins >= MAX_LOADED) {
		snprintf(err, errlen, "too many plugins (at most %d)", MAX_LOADED);
		plugin_free(p);
		return NULL;
	}
	p->init_config = dup_str(config);
	if (check_init_config(p, err, errlen) < 0) {
		plugin_free(p);
		return NULL;
	}
	init = (plugin_init_fn)sym(p->dl, "init");
	p->state = init(p->init_config, &rc);
	if (rc != PLUGIN_RC_SUCCESS) {
		const char *why = p->state && p->last_error ? p->last_error(p->state) : NULL;

		snprintf(err, errlen, "cannot load plugin %s: Could not initialize plugin: %s", p->path,
			 why && *why ? why : "init failed");
		plugin_free(p);
		return NULL;
	}
	g_plugins[g_nplugins++] = p;
	return p;
}

int plugin_register_dirs(char *err, size_t errlen)
{
	const char *dirs[20];
	size_t nd = plugin_dirs(dirs, 20);

	/* in directory order, as sysdig 0.29.3 */
	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			char path[4096];

			if (!ends_with_so(de->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], de->d_name);
			if (!plugin_register(path, "", err, errlen)) {
				closedir(d);
				return -1;
			}
		}
		if (d)
			closedir(d);
	}
	return 0;
}

int plugin_count(void)
{
	return g_nplugins;
}

struct plugin *plugin_at(int i)
{
	return i >= 0 && i < g_nplugins ? g_plugins[i] : NULL;
}

struct plugin *plugin_by_name(const char *name)
{
	for (int i = 0; i < g_nplugins; i++)
		if (!strcmp(g_plugins[i]->name, name))
			return g_plugins[i];
	return NULL;
}

struct plugin *plugin_by_id(uint32_t id)
{
	for (int i = 0; i < g_nplugins; i++)
		if (g_plugins[i]->kind == PLUGIN_KIND_SOURCE && g_plugins[i]->id == id)
			return g_plugins[i];
	return NULL;
}

void plugin_unload_all(void)
{
	while (g_nplugins > 0)
		plugin_free(g_plugins[--g_nplugins]);
}

/* ------------------------------------------------------ the engine */

struct source_engine {
	struct plugin *p;
	void *instance;
	struct plugin_event *batch;
	uint32_t nbatch, next;
	int eof;
	uint64_t nevts;
	uint8_t *buf;
	size_t cap;
};

#define PLUGIN_EVT_NPARAMS 2

static int source_next(struct scap *h, struct scap_evt *evt)
{
	struct source_engine *se = h->engine;
	const struct plugin_event *pe;
	uint32_t len, lens[PLUGIN_EVT_NPARAMS], nparams = PLUGIN_EVT_NPARAMS;
	uint64_t ts, tid = UINT64_MAX;
	uint16_t type = PPME_PLUGINEVENT_E;

	while (se->next >= se->nbatch) {
		plugin_rc rc;

		if (se->eof)
			return SCAP_EOF;
		se->batch = NULL;
		se->nbatch = se->next = 0;
		rc = se->p->next_batch(se->p->state, se->instance, &se->nbatch, &se->batch);
		if (rc == PLUGIN_RC_EOF) {
			se->eof = 1;
		} else if (rc == PLUGIN_RC_TIMEOUT) {
			if (!se->nbatch)
				return SCAP_TIMEOUT;
		} else if (rc != PLUGIN_RC_SUCCESS) {
			const char *why = se->p->last_error ? se->p->last_error(se->p->state) : NULL;

			snprintf(h->err, sizeof(h->err), "plugin %s: %s", se->p->name,
				 why && *why ? why : "next_batch failed");
			return SCAP_FAILURE;
		}
		if (!se->batch)
			se->nbatch = 0;
	}
	pe = &se->batch[se->next++];
	ts = pe->ts;
	if (ts == UINT64_MAX) {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		ts = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	}
	len = PPM_EVT_HDR_LEN + sizeof(lens) + 4 + pe->datalen;
	if (len > se->cap) {
		uint8_t *n = realloc(se->buf, len);

		if (!n) {
			snprintf(h->err, sizeof(h->err), "out of memory");
			return SCAP_FAILURE;
		}
		se->buf = n;
		se->cap = len;
	}
	lens[0] = 4;
	lens[1] = pe->datalen;
	scap_evt_write_header(se->buf, ts, tid, len, type, nparams);
	memcpy(se->buf + PPM_EVT_HDR_LEN, lens, sizeof(lens));
	memcpy(se->buf + PPM_EVT_HDR_LEN + sizeof(lens), &se->p->id, 4);
	if (pe->datalen)
		memcpy(se->buf + PPM_EVT_HDR_LEN + sizeof(lens) + 4, pe->data, pe->datalen);
	memset(evt, 0, sizeof(*evt));
	evt->data = se->buf;
	evt->len = len;
	evt->ts = ts;
	evt->tid = tid;
	evt->type = type;
	evt->cpuid = 0;
	se->nevts++;
	if (scap_decode_params(evt) != 0) {
		snprintf(h->err, sizeof(h->err), "plugin %s: malformed event", se->p->name);
		return SCAP_FAILURE;
	}
	return SCAP_SUCCESS;
}

static int source_stats(struct scap *h, struct scap_stats *st)
{
	struct source_engine *se = h->engine;

	memset(st, 0, sizeof(*st));
	st->n_evts = se->nevts;
	return 0;
}

static double source_progress(struct scap *h)
{
	struct source_engine *se = h->engine;
	uint32_t pct = 0;

	if (!se->p->progress)
		return -1;
	se->p->progress(se->p->state, se->instance, &pct);
	return pct / 10000.0;
}

static void source_close(struct scap *h)
{
	struct source_engine *se = h->engine;

	if (!se)
		return;
	if (se->instance)
		se->p->close(se->p->state, se->instance);
	free(se->buf);
	free(se);
	h->engine = NULL;
}

static const struct scap_engine_ops g_source_ops = {
	.name = "plugin",
	.next = source_next,
	.get_stats = source_stats,
	.progress = source_progress,
	.close = source_close,
};

struct scap *plugin_open_source(struct plugin *p, const char *params, char *err)
{
	struct scap *h = calloc(1, sizeof(*h));
	struct source_engine *se = calloc(1, sizeof(*se));
	plugin_rc rc = PLUGIN_RC_FAILURE;

	if (!h || !se) {
		free(h);
		free(se);
		snprintf(err, SCAP_ERRBUF_SIZE, "out of memory");
		return NULL;
	}
	se->p = p;
	se->instance = p->open(p->state, params ? params : "", &rc);
	if (rc != PLUGIN_RC_SUCCESS) {
		const char *why = p->last_error ? p->last_error(p->state) : NULL;

		snprintf(err, SCAP_ERRBUF_SIZE, "cannot open plugin %s: %s", p->name,
			 why && *why ? why : "open failed");
		if (se->instance)
			p->close(p->state, se->instance);
		free(se);
		free(h);
		return NULL;
	}
	h->ops = &g_source_ops;
	h->engine = se;
	return h;
}

/* ------------------------------------------------------- the fields */

static int event_is_plugin(const struct scap_evt *e)
{
	return e->type == PPME_PLUGINEVENT_E && e->nparams >= 2 && e->plen[0] == 4;
}

struct plugin *plugin_of_event(const struct scap_evt *e)
{
	uint32_t id;

	if (!event_is_plugin(e))
		return NULL;
	memcpy(&id, e->pval[0], 4);
	return plugin_by_id(id);
}

const char *plugin_event_info(const struct scap_evt *e)
{
	struct plugin *p = plugin_of_event(e);

	if (!p)
		return NULL;
	return p->event_to_string(p->state, e->pval[1], e->plen[1]);
}

size_t plugin_field_lookup(const char *text, int *plugin, int *field)
{
	size_t best = 0;

	for (int i = 0; i < g_nplugins; i++)
		for (int k = 0; k < g_plugins[i]->nfields; k++) {
			size_t n = strlen(g_plugins[i]->fields[k].name);

			if (n > best && !strncmp(text, g_plugins[i]->fields[k].name, n) &&
			    !(text[n] == '.' || (text[n] >= 'a' && text[n] <= 'z') ||
			      (text[n] >= '0' && text[n] <= '9') || text[n] == '_')) {
				best = n;
				*plugin = i;
				*field = k;
			}
		}
	return best;
}

/* an extractor reads events of the sources it lists (all when none) */
static int reads_source(const struct plugin *x, const struct plugin *src)
{
	if (x == src)
		return 1;
	if (x->kind != PLUGIN_KIND_EXTRACTOR)
		return 0;
	if (!x->nextract_sources)
		return 1;
	for (int i = 0; i < x->nextract_sources; i++)
		if (!strcmp(x->extract_sources[i], src->event_source))
			return 1;
	return 0;
}

int plugin_field_extract(int plugin, int field, const char *arg, const struct scap_evt *e,
			 uint64_t evtnum, const char **str, uint64_t *u)
{
	struct plugin *x = plugin_at(plugin), *src = plugin_of_event(e);
	struct plugin_event pe;
	struct plugin_extract_field f;

	if (!x || !src || field < 0 || field >= x->nfields || !reads_source(x, src))
		return 0;
	pe.evtnum = evtnum;
	pe.data = e->pval[1];
	pe.datalen = e->plen[1];
	pe.ts = e->ts;
	memset(&f, 0, sizeof(f));
	f.field_id = (uint32_t)field;
	f.field = x->fields[field].name;
	f.arg = arg;
	f.ftype = x->fields[field].type;
	if (x->extract(x->state, &pe, 1, &f) != PLUGIN_RC_SUCCESS || !f.field_present)
		return 0;
	if (f.ftype == PLUGIN_FIELD_STRING) {
		if (!f.res_str)
			return 0;
		*str = f.res_str;
	} else {
		*u = f.res_u64;
	}
	return 1;
}

/* ------------------------------------------------------- open params */

void plugin_open_params_free(struct plugin_open_param *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].value);
		free(v[i].desc);
	}
	free(v);
}

/* one {"value": .., "desc": .., ...} into *out; -1 when malformed */
static int parse_open_param(struct json *j, struct plugin_open_param *out)
{
	if (!json_eat(j, '{'))
		return -1;
	if (json_eat(j, '}'))
		return 0;
	do {
		char *key = json_string(j);

		if (!key || !json_eat(j, ':')) {
			free(key);
			return -1;
		}
		if (!strcmp(key, "value") || !strcmp(key, "desc")) {
			char **dst = key[0] == 'v' ? &out->value : &out->desc;

			free(*dst);
			*dst = json_string(j);
		} else {
			json_skip(j);
		}
		free(key);
	} while (!j->bad && json_eat(j, ','));
	return !j->bad && json_eat(j, '}') ? 0 : -1;
}

struct plugin_open_param *plugin_open_params(struct plugin *p, int *n, char *err, size_t errlen)
{
	plugin_rc rc = PLUGIN_RC_SUCCESS;
	const char *text;
	struct plugin_open_param *v = NULL;
	struct json j;

	*n = 0;
	if (!p->list_open_params)
		return calloc(1, sizeof(*v));
	text = p->list_open_params(p->state, &rc);
	if (rc != PLUGIN_RC_SUCCESS) {
		const char *why = p->last_error ? p->last_error(p->state) : NULL;

		snprintf(err, errlen, "error in plugin %s: list_open_params has error %s", p->name,
			 why ? why : "");
		return NULL;
	}
	j = (struct json){ text ? text : "[]", 0 };
	if (!json_eat(&j, '['))
		goto not_array;
	if (!json_eat(&j, ']')) {
		do {
			struct plugin_open_param one = { 0 }, *nv;

			if (parse_open_param(&j, &one) < 0) {
				free(one.value);
				free(one.desc);
				goto not_array;
			}
			if (!one.value || !*one.value) {
				free(one.value);
				free(one.desc);
				plugin_open_params_free(v, *n);
				snprintf(err, errlen, "error in plugin %s: list_open_params has entry with no value",
					 p->name);
				return NULL;
			}
			nv = realloc(v, (size_t)(*n + 1) * sizeof(*nv));
			if (!nv) {
				free(one.value);
				free(one.desc);
				goto not_array;
			}
			v = nv;
			v[(*n)++] = one;
		} while (json_eat(&j, ','));
		if (!json_eat(&j, ']'))
			goto not_array;
	}
	/* what follows the array is ignored, as by the reference's reader */
	return v ? v : calloc(1, sizeof(*v));
not_array:
	plugin_open_params_free(v, *n);
	*n = 0;
	snprintf(err, errlen, "error in plugin %s: list_open_params returned a non-array JSON", p->name);
	return NULL;
}
