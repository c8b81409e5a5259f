/*
 * plugin_api.h - the C plugin interface of sysdig 0.29.3 (falcosecurity
 * libs e5c53d64, plugin API 0.x), as a plugin .so sees it: the types its
 * exported functions take and return.  Written from the documented
 * interface; the loader is plugin.c.
 *
 * A plugin exports plain C functions named plugin_<what>:
 *   every plugin:  get_required_api_version, get_type, init, destroy,
 *                  get_last_error, get_name, get_description, get_contact,
 *                  get_version, get_fields (optional for sources),
 *                  extract_fields (optional for sources)
 *   source:        get_id, get_event_source, open, close, next_batch,
 *                  event_to_string; optional: get_progress, list_open_params
 *                  (json array of {"value", optional "desc", "separator"})
 *   optional:      get_init_schema(&type): the init config's schema, type
 *                  0 none or 1 JSON schema (a JSON init config is checked
 *                  to be JSON)
 *   extractor:     optional get_extract_event_sources (json array of the
 *                  event sources it reads; all when absent)
 * get_fields returns a json array of {"type": "string"|"uint64", "name",
 * "desc", optional "argRequired": true, optional "display"}.
 */
#ifndef PLUGIN_API_H
#define PLUGIN_API_H

#include <stdbool.h>
#include <stdint.h>

/* the API version this engine implements; a plugin requiring M.m.p loads
 * when M equals ours and m is not above ours */
#define PLUGIN_API_MAJOR 0
#define PLUGIN_API_MINOR 3
#define PLUGIN_API_PATCH 0

enum plugin_kind {
	PLUGIN_KIND_SOURCE = 1,
	PLUGIN_KIND_EXTRACTOR = 2,
};

/* field value types (the numbers are the event table's PT_UINT64 and
 * PT_CHARBUF) */
enum plugin_field_type {
	PLUGIN_FIELD_UINT64 = 8,
	PLUGIN_FIELD_STRING = 9,
};

/* return codes of init / open / next_batch / extract_fields */
typedef enum plugin_rc {
	PLUGIN_RC_SUCCESS = 0,
	PLUGIN_RC_FAILURE = 1,
	PLUGIN_RC_TIMEOUT = -1,
	PLUGIN_RC_EOF = 2,
	PLUGIN_RC_NOT_SUPPORTED = 3,
} plugin_rc;

/* one event of a source plugin; ts (ns since the epoch) may be
 * UINT64_MAX for "now"; evtnum is set by the engine */
struct plugin_event {
	uint64_t evtnum;
	const uint8_t *data;
	uint32_t datalen;
	uint64_t ts;
};

/* one field to extract: the engine fills field_id (index in get_fields),
 * field (its name), arg (NULL when none) and ftype; the plugin fills
 * field_present and res_str (its memory, valid until the next call) or
 * res_u64 */
struct plugin_extract_field {
	uint32_t field_id;
	const char *field;
	const char *arg;
	uint32_t ftype;
	bool field_present;
	const char *res_str;
	uint64_t res_u64;
};

typedef const char *(*plugin_str_fn)(void);
typedef uint32_t (*plugin_u32_fn)(void);
typedef void *(*plugin_init_fn)(const char *config, plugin_rc *rc);
typedef void (*plugin_destroy_fn)(void *state);
typedef const char *(*plugin_last_error_fn)(void *state);
typedef void *(*plugin_open_fn)(void *state, const char *params, plugin_rc *rc);
typedef void (*plugin_close_fn)(void *state, void *instance);
typedef plugin_rc (*plugin_next_batch_fn)(void *state, void *instance, uint32_t *nevts,
					  struct plugin_event **evts);
typedef const char *(*plugin_event_to_string_fn)(void *state, const uint8_t *data, uint32_t len);
typedef plugin_rc (*plugin_extract_fn)(void *state, const struct plugin_event *evt, uint32_t n,
				       struct plugin_extract_field *fields);
typedef const char *(*plugin_progress_fn)(void *state, void *instance, uint32_t *pct);
typedef const char *(*plugin_list_params_fn)(void *state, plugin_rc *rc);
typedef const char *(*plugin_init_schema_fn)(uint32_t *schema_type);

/* get_init_schema's types */
enum plugin_schema_type {
	PLUGIN_SCHEMA_NONE = 0,
	PLUGIN_SCHEMA_JSON = 1,
};

#endif
