/*
 * plugin.h - plugins of the sysdig 0.29.3 plugin API (plugin_api.h):
 * loading .so files with dlopen, the registry the CLI and the fields use,
 * source plugins as a scap engine (events of type pluginevent: plugin id
 * and the plugin's bytes) and plugin fields as filter/output fields.
 */
#ifndef PLUGIN_H
#define PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include "plugin_api.h"
#include "scap.h"

struct plugin_field {
	char *name, *desc, *display;
	uint8_t type;		/* PT_UINT64 or PT_CHARBUF */
	int arg_required;
};

struct plugin {
	void *dl;
	char *path;
	int kind;		/* enum plugin_kind */
	uint32_t id;		/* source plugins */
	char *name, *description, *contact, *version, *required_api;
	char *event_source;	/* source plugins */
	char **extract_sources;	/* extractors: NULL = every source */
	int nextract_sources;
	struct plugin_field *fields;
	int nfields;
	char *init_config;
	void *state;		/* from plugin_init */
	plugin_last_error_fn last_error;
	plugin_destroy_fn destroy;
	plugin_open_fn open;
	plugin_close_fn close;
	plugin_next_batch_fn next_batch;
	plugin_event_to_string_fn event_to_string;
	plugin_extract_fn extract;
	plugin_progress_fn progress;
	plugin_list_params_fn list_open_params;	/* optional (source plugins) */
	char *init_schema;	/* get_init_schema's text, "" when none */
	uint32_t init_schema_type;
};

/* one suggested open parameter (plugin_open_params) */
struct plugin_open_param {
	char *value, *desc;
};

/* the plugin directories: SYSDIG_PLUGIN_DIR (';'-separated) then ours */
size_t plugin_dirs(const char *out[], size_t max);
/* Load and init a plugin (a path, or the name a plugin of the plugin
 * directories gives itself).
 * Returns it, or NULL with err filled. */
struct plugin *plugin_register(const char *name, const char *config, char *err, size_t errlen);
/* every .so of the plugin directories, with an empty init config */
int plugin_register_dirs(char *err, size_t errlen);
int plugin_count(void);
struct plugin *plugin_at(int i);
struct plugin *plugin_by_name(const char *name);
struct plugin *plugin_by_id(uint32_t id);
void plugin_unload_all(void);
/* the open parameters a source plugin suggests (list_open_params): an
 * array of *n (free with plugin_open_params_free), or NULL with err
 * (sysdig's wording, e.g. "list_open_params has entry with no value") */
struct plugin_open_param *plugin_open_params(struct plugin *p, int *n, char *err, size_t errlen);
void plugin_open_params_free(struct plugin_open_param *v, int n);

/* a live-like scap engine reading the events of a source plugin */
struct scap *plugin_open_source(struct plugin *p, const char *params, char *err);

/* plugin of a pluginevent, or NULL */
struct plugin *plugin_of_event(const struct scap_evt *e);
/* plugin_event_to_string of a pluginevent, NULL when its plugin is not loaded */
const char *plugin_event_info(const struct scap_evt *e);

/* The plugin field named at the start of text (longest name).  Returns the
 * length of the name, 0 when none; *plugin, *field: its indexes. */
size_t plugin_field_lookup(const char *text, int *plugin, int *field);
/* Extract a plugin field of a pluginevent: 1 with *str or *u set, 0 when
 * the event is not the plugin's or the field is absent. */
int plugin_field_extract(int plugin, int field, const char *arg, const struct scap_evt *e,
			 uint64_t evtnum, const char **str, uint64_t *u);

#endif
