/*
 * testsrc.c - a source plugin of the sysdig 0.29.3 plugin API for the
 * tests: "testsrc" (id 999, event source "testsrc") emits a known sequence.
 * Init config: "" or a number, the step between event values (default 1),
 * or {"step": N}.
 * Open params: "" or a number of events (default 10).  Event i (0-based)
 * is the text "value=<start + i*step>", at ts 1600000000 s + i ms, in
 * batches of 4.  Fields: testsrc.value (uint64), testsrc.text (string),
 * testsrc.tag[arg] (string "tag-<arg>", argument required).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plugin_api.h"

typedef struct plugin_event evt_t;
typedef struct plugin_extract_field field_t;

struct state {
	uint64_t step;
	char err[128];
	char str[256];
	char info[256];
};

struct inst {
	uint64_t n, i;
	evt_t batch[4];
	char data[4][64];
};

const char *plugin_get_required_api_version(void) { return "0.2.0"; }
uint32_t plugin_get_type(void) { return 1; }
uint32_t plugin_get_id(void) { return 999; }
const char *plugin_get_name(void) { return "testsrc"; }
const char *plugin_get_description(void) { return "Test source plugin emitting a known sequence"; }
const char *plugin_get_contact(void) { return "sysdig-c tests"; }
const char *plugin_get_version(void) { return "1.2.3"; }
const char *plugin_get_event_source(void) { return "testsrc"; }
const char *plugin_get_fields(void)
{
	return "[{\"type\": \"uint64\", \"name\": \"testsrc.value\", \"desc\": \"the value of the event\"},"
	       " {\"type\": \"string\", \"name\": \"testsrc.text\", \"desc\": \"the text of the event\"},"
	       " {\"type\": \"string\", \"name\": \"testsrc.tag\", \"argRequired\": true, \"desc\": \"tag-ARG\"}]";
}

void *plugin_init(const char *config, int32_t *rc)
{
	struct state *s = calloc(1, sizeof(*s));

	if (!s) {
		*rc = 1;
		return NULL;
	}
	if (config && *config == '{') {	/* {"step": N} (the TESTSRC_SCHEMA tests) */
		const char *v = strstr(config, "\"step\":");

		config = v ? v + 7 : "x";
	}
	s->step = config && *config ? strtoull(config, NULL, 10) : 1;
	if (config && *config && !s->step) {
		snprintf(s->err, sizeof(s->err), "bad init config '%s': a step > 0 expected", config);
		*rc = 1;
		return s;
	}
	*rc = 0;
	return s;
}

void plugin_destroy(void *s) { free(s); }
const char *plugin_get_last_error(void *s) { return s ? ((struct state *)s)->err : ""; }

void *plugin_open(void *st, const char *params, int32_t *rc)
{
	struct state *s = st;
	struct inst *in = calloc(1, sizeof(*in));
	char *end = NULL;

	if (!in) {
		*rc = 1;
		return NULL;
	}
	in->n = 10;
	if (params && *params) {
		in->n = strtoull(params, &end, 10);
		if (*end) {
			snprintf(s->err, sizeof(s->err), "bad open params '%s': a number of events expected", params);
			free(in);
			*rc = 1;
			return NULL;
		}
	}
	*rc = 0;
	return in;
}

void plugin_close(void *s, void *h) { (void)s; free(h); }

int32_t plugin_next_batch(void *st, void *h, uint32_t *nevts, evt_t **evts)
{
	struct state *s = st;
	struct inst *in = h;
	uint32_t k = 0;

	while (k < 4 && in->i < in->n) {
		int len = snprintf(in->data[k], sizeof(in->data[k]), "value=%llu",
				   (unsigned long long)(in->i * s->step));

		in->batch[k].data = (const uint8_t *)in->data[k];
		in->batch[k].datalen = (uint32_t)len;
		in->batch[k].ts = 1600000000000000000ULL + in->i * 1000000ULL;
		k++;
		in->i++;
	}
	*nevts = k;
	*evts = in->batch;
	return in->i >= in->n && k == 0 ? 2 : 0;
}

const char *plugin_event_to_string(void *st, const uint8_t *data, uint32_t len)
{
	struct state *s = st;

	snprintf(s->info, sizeof(s->info), "testsrc event: %.*s", (int)len, (const char *)data);
	return s->info;
}

int32_t plugin_extract_fields(void *st, const evt_t *e, uint32_t n, field_t *f)
{
	struct state *s = st;

	for (uint32_t i = 0; i < n; i++) {
		f[i].field_present = false;
		if (e->datalen < 6 || memcmp(e->data, "value=", 6))
			continue;
		switch (f[i].field_id) {
		case 0:
			f[i].res_u64 = strtoull((const char *)e->data + 6, NULL, 10);
			f[i].field_present = true;
			break;
		case 1:
			snprintf(s->str, sizeof(s->str), "%.*s", (int)e->datalen, (const char *)e->data);
			f[i].res_str = s->str;
			f[i].field_present = true;
			break;
		case 2:
			if (!f[i].arg)
				break;
			snprintf(s->str, sizeof(s->str), "tag-%s", f[i].arg);
			f[i].res_str = s->str;
			f[i].field_present = true;
			break;
		}
	}
	return 0;
}

/* The init schema and the suggested open parameters, for -Il and the
 * init config check: none by default; TESTSRC_SCHEMA (with
 * TESTSRC_SCHEMA_TYPE, 1 = JSON schema by default), TESTSRC_OPEN_PARAMS
 * (the json text) and TESTSRC_OPEN_PARAMS_RC (a failure, with
 * get_last_error "no open params today") set them. */
const char *plugin_get_init_schema(uint32_t *schema_type)
{
	const char *type = getenv("TESTSRC_SCHEMA_TYPE");

	*schema_type = type ? (uint32_t)atoi(type) : getenv("TESTSRC_SCHEMA") ? 1 : 0;
	return getenv("TESTSRC_SCHEMA");
}

const char *plugin_list_open_params(void *st, int32_t *rc)
{
	struct state *s = st;
	const char *params = getenv("TESTSRC_OPEN_PARAMS");

	*rc = getenv("TESTSRC_OPEN_PARAMS_RC") ? 1 : 0;
	if (*rc && s)
		snprintf(s->err, sizeof(s->err), "no open params today");
	return params ? params : "[]";
}
