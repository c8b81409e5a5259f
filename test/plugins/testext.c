/*
 * testext.c - an extractor plugin of the sysdig 0.29.3 plugin API for the
 * tests (on our plugin_api.h, as testsrc.c): "testext" reads events of the "testsrc" source and adds
 * testext.len (uint64, bytes of the event) and testext.upper (string, the
 * event text in upper case).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "plugin_api.h"

typedef struct plugin_event evt_t;
typedef struct plugin_extract_field field_t;

struct state {
	char upper[256];
};

const char *plugin_get_required_api_version(void) { return "0.2.0"; }
uint32_t plugin_get_type(void) { return 2; }
const char *plugin_get_name(void) { return "testext"; }
const char *plugin_get_description(void) { return "Test extractor plugin for testsrc events"; }
const char *plugin_get_contact(void) { return "sysdig-c tests"; }
const char *plugin_get_version(void) { return "0.1.0"; }
const char *plugin_get_extract_event_sources(void) { return "[\"testsrc\"]"; }
const char *plugin_get_fields(void)
{
	return "[{\"type\": \"uint64\", \"name\": \"testext.len\", \"desc\": \"bytes of the event\"},"
	       " {\"type\": \"string\", \"name\": \"testext.upper\", \"desc\": \"the event in upper case\"}]";
}

void *plugin_init(const char *config, int32_t *rc)
{
	(void)config;
	*rc = 0;
	return calloc(1, sizeof(struct state));
}

void plugin_destroy(void *s) { free(s); }
const char *plugin_get_last_error(void *s) { (void)s; return ""; }

int32_t plugin_extract_fields(void *st, const evt_t *e, uint32_t n, field_t *f)
{
	struct state *s = st;

	for (uint32_t i = 0; i < n; i++) {
		f[i].field_present = true;
		if (f[i].field_id == 0) {
			f[i].res_u64 = e->datalen;
		} else {
			uint32_t k;

			for (k = 0; k < e->datalen && k < sizeof(s->upper) - 1; k++)
				s->upper[k] = (char)toupper(e->data[k]);
			s->upper[k] = 0;
			f[i].res_str = s->upper;
		}
	}
	return 0;
}
