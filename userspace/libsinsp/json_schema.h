/*
 * json_schema.h - a plugin's init config checked against its JSON schema
 * (json_schema.c): the draft 7 keywords 0.29.3 applies (not $ref, format,
 * propertyNames).
 */
#ifndef JSON_SCHEMA_H
#define JSON_SCHEMA_H

#include <stddef.h>

/* 0 when doc satisfies schema (or either is not readable JSON); -1 with
 * sysdig 0.29.3's words in err, e.g. "In <root>[n], Value type not
 * permitted by 'type' constraint." */
int json_schema_check(const char *schema, const char *doc, char *err, size_t errlen);

/* the JSON string at *p (a '"'), malloc'd with its escapes decoded (\uXXXX
 * as '?'), *p moved past it; NULL when it is not a whole string */
char *json_read_string(const char **p);

#endif
