/*
 * test_tracer.c - the tracer text parser and the open spans (tracer.c),
 * case by case; the expectations are what sysdig 0.29.3 showed for the same
 * writes (test/traces/tracers.scap and its goldens).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tracer.h"

static const struct tracer_ids ids = { 100, 90, 80 };

static int parse(struct tracer_parser *p, struct tracer_spans *sp, const char *s, uint64_t ts)
{
	return tracer_parse(p, sp, s, (uint32_t)strlen(s), ts, &ids, 1);
}

static void simple_form(void **state)
{
	struct tracer_parser *p = calloc(1, sizeof(*p));

	(void)state;
	assert_int_equal(parse(p, NULL, ">:t:app.req:method=GET,url=/x:", 1), TRACER_OK);
	assert_int_equal(p->type, '>');
	assert_int_equal(p->id, 100);
	assert_int_equal(p->ntags, 2);
	assert_string_equal(p->tags[0], "app");
	assert_string_equal(p->tags[1], "req");
	assert_int_equal(p->nargs, 2);
	assert_string_equal(p->names[1], "url");
	assert_string_equal(p->vals[1], "/x");
	assert_int_equal(parse(p, NULL, "<:p:job::", 2), TRACER_OK);
	assert_int_equal(p->id, 90);
	assert_int_equal(p->nargs, 0);
	assert_int_equal(parse(p, NULL, ">:pp:parent.id::", 3), TRACER_OK);
	assert_int_equal(p->id, 80);
	assert_int_equal(parse(p, NULL, ">:1234:num.id:k=v:", 4), TRACER_OK);
	assert_int_equal(p->id, 1234);
	assert_int_equal(parse(p, NULL, ">:-5:neg::", 4), TRACER_OK);
	assert_int_equal(p->id, -5);
	assert_int_equal(parse(p, NULL, ">::glob::", 5), TRACER_OK);
	assert_int_equal(p->id, 0);
	assert_string_equal(p->tags[0], "glob");
	/* a backslash makes the next character plain */
	assert_int_equal(parse(p, NULL, ">:t:esc\\.aped:a\\,b=c\\:d:", 6), TRACER_OK);
	assert_int_equal(p->ntags, 1);
	assert_string_equal(p->tags[0], "esc.aped");
	assert_string_equal(p->names[0], "a,b");
	assert_string_equal(p->vals[0], "c:d");
	tracer_parser_free(p);
}

static void failed_and_truncated(void **state)
{
	struct tracer_parser *p = calloc(1, sizeof(*p));

	(void)state;
	assert_int_equal(parse(p, NULL, "hello not a tracer", 1), TRACER_FAILED);
	assert_int_equal(parse(p, NULL, ">:t:a<b::", 1), TRACER_FAILED);
	assert_int_equal(parse(p, NULL, ">:t:a:name:", 1), TRACER_FAILED);	/* no value */
	assert_int_equal(parse(p, NULL, ">:x1:a::", 1), TRACER_FAILED);
	/* the reference reads a '0' at the id or the tags as "not ended" */
	assert_int_equal(parse(p, NULL, ">:0:a::", 1), TRACER_TRUNCATED);
	p->frag_len = 0;
	/* cut over two writes: kept, then joined */
	assert_int_equal(parse(p, NULL, ">:t:split.", 2), TRACER_TRUNCATED);
	assert_int_equal(parse(p, NULL, "tag::", 3), TRACER_OK);
	assert_int_equal(p->ntags, 2);
	assert_string_equal(p->tags[1], "tag");
	/* a cut text joined with the next tracer: invalid */
	assert_int_equal(parse(p, NULL, ">:t:long.aaaa", 4), TRACER_TRUNCATED);
	assert_int_equal(parse(p, NULL, "<:t:long.aaaa::", 5), TRACER_FAILED);
	assert_int_equal(p->frag_len, 0);
	assert_int_equal(parse(p, NULL, "<:t:ok::", 6), TRACER_OK);
	/* the first length stored at tag 0 is kept for span.tags (fields.c) */
	assert_int_equal(p->taglen0, 2);
	tracer_parser_free(p);
}

static void json_form(void **state)
{
	struct tracer_parser *p = calloc(1, sizeof(*p));

	(void)state;
	assert_int_equal(parse(p, NULL, "[\">\", 12, [\"json\", \"tag\"], [{\"a\":\"1\"}, {\"b\":\"2\"}]]", 1),
			 TRACER_OK);
	assert_int_equal(p->type, '>');
	assert_int_equal(p->id, 12);
	assert_int_equal(p->ntags, 2);
	assert_string_equal(p->tags[1], "tag");
	assert_int_equal(p->nargs, 2);
	assert_string_equal(p->names[1], "b");
	assert_string_equal(p->vals[1], "2");
	assert_int_equal(parse(p, NULL, "[\"<\", \"t\", [\"json\"], []]", 2), TRACER_OK);
	assert_int_equal(p->type, '<');
	assert_int_equal(p->id, 100);
	assert_int_equal(p->nargs, 0);
	assert_int_equal(parse(p, NULL, "[\"<\", 12, [\"json\"", 3), TRACER_TRUNCATED);
	assert_int_equal(parse(p, NULL, "], []]", 4), TRACER_OK);
	assert_int_equal(parse(p, NULL, "[\"<\", 12 x", 5), TRACER_FAILED);
	tracer_parser_free(p);
}

static void spans(void **state)
{
	struct tracer_parser *p = calloc(1, sizeof(*p));
	struct tracer_spans *sp = tracer_spans_new();
	const struct tracer_span *parent;

	(void)state;
	assert_int_equal(parse(p, sp, ">:t:app.req:m=GET:", 100), TRACER_OK);
	assert_int_equal(parse(p, sp, ">:t:app.req.db:q=1:", 200), TRACER_OK);
	assert_non_null(p->enter);
	parent = tracer_parent(p, sp);
	assert_non_null(parent);
	assert_int_equal(parent->time, 100);
	assert_int_equal(sp->nopen, 2);
	assert_int_equal(parse(p, sp, "<:t:app.req.db::", 500), TRACER_OK);
	assert_non_null(p->enter);
	assert_int_equal(p->enter->time, 200);
	assert_int_equal(p->exit.time, 500);
	assert_string_equal(p->enter->names, "q");
	assert_int_equal(sp->nopen, 1);
	/* another id: no match */
	assert_int_equal(parse(p, sp, "<:1:app.req::", 600), TRACER_OK);
	assert_null(p->enter);
	assert_int_equal(parse(p, sp, "<:t:app.req:code=200:", 700), TRACER_OK);
	assert_int_equal(p->enter->time, 100);
	assert_string_equal(p->exit.vals, "200");
	assert_int_equal(sp->nopen, 0);
	/* 128 open spans at most: the 129th enter empties the pool */
	for (int i = 0; i < TRACER_MAX_OPEN; i++)
		assert_int_equal(parse(p, sp, ">:t:x::", (uint64_t)i), TRACER_OK);
	assert_int_equal(sp->nopen, TRACER_MAX_OPEN);
	assert_int_equal(parse(p, sp, ">:t:y::", 1000), TRACER_OK);
	assert_int_equal(sp->nopen, 0);
	assert_int_equal(parse(p, sp, "<:t:x::", 1001), TRACER_OK);
	assert_null(p->enter);
	tracer_spans_free(sp);
	tracer_parser_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(simple_form),
		cmocka_unit_test(failed_and_truncated),
		cmocka_unit_test(json_form),
		cmocka_unit_test(spans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
