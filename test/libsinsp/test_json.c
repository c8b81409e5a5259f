/*
 * test_json.c - unit tests of the JSON string reader that the plugin loader
 * (plugin.c) and the init-config schema checker (json_schema.c) share, and
 * of json_schema_check on the constructs it applies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "json_schema.h"

static void check_string(const char *text, const char *want, size_t consumed)
{
	const char *p = text;
	char *s = json_read_string(&p);

	if (!want) {
		assert_null(s);
		assert_ptr_equal(p, text);	/* not moved on failure */
		return;
	}
	assert_non_null(s);
	assert_string_equal(s, want);
	assert_int_equal((size_t)(p - text), consumed);
	free(s);
}

static void test_strings(void **state)
{
	(void)state;
	check_string("\"name\", 1", "name", 6);
	check_string("\"\"", "", 2);
	check_string("\"a\\\"b\\\\c\\/d\"", "a\"b\\c/d", 12);
	check_string("\"t\\tn\\nr\\rb\\bf\\f\"", "t\tn\nr\rb\bf\f", 17);
	check_string("\"\\u00e9t\\u00e9\"", "?t?", 15);
	check_string("\"open", NULL, 0);	/* unterminated */
	check_string("\"end\\", NULL, 0);	/* escape at the end */
	check_string("name", NULL, 0);	/* not a string */
	check_string(" \"x\"", NULL, 0);	/* the caller skips blanks */
}

static void test_schema(void **state)
{
	const char *schema = "{\"type\":\"object\",\"required\":[\"a\"],"
			     "\"properties\":{\"a\":{\"type\":\"string\",\"enum\":[\"x\",\"y\"]}}}";
	char err[256];

	(void)state;
	assert_int_equal(json_schema_check(schema, "{\"a\":\"x\"}", err, sizeof(err)), 0);
	assert_int_equal(json_schema_check(schema, "{\"a\":\"z\"}", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "In <root>[a]"));
	assert_int_equal(json_schema_check(schema, "{}", err, sizeof(err)), -1);
	assert_int_equal(json_schema_check(schema, "[]", err, sizeof(err)), -1);
	assert_string_equal(err, "In <root>, Value type not permitted by 'type' constraint.");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_schema),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
