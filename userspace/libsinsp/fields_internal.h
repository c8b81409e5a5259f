/*
 * fields_internal.h - private pieces shared by fields.c and the generated
 * catalogue (fields_catalogue.c): the catalogue entry and the field ids.
 */
#ifndef FIELDS_INTERNAL_H
#define FIELDS_INTERNAL_H

#include "fields.h"
#include "fields_ids.h"

/* not listed by -l (views-only / hidden fields) */
#define FIELD_HIDDEN 8

struct field_def {
	const char *cls;
	const char *name;
	uint8_t type;
	uint32_t flags;
	const char *description;
	int id;			/* enum field_id */
};

extern const struct field_def g_field_defs[];
extern const size_t g_field_ndefs;

#endif
