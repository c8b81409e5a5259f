/*
 * chisel.h - the Lua chisel runtime (spec/chisel_api.md).
 *
 * Loads chisels (Lua scripts) from the search path, passes their arguments,
 * and drives their callbacks (on_init, on_capture_start, on_event,
 * on_interval, on_capture_end) from the main event loop of the sysdig CLI.
 */
#ifndef CHISEL_H
#define CHISEL_H

#include <stdio.h>
#include <stddef.h>
#include "sinsp.h"

struct chisel_runtime;

struct chisel_runtime *chisel_runtime_new(struct sinsp *s, char *err, size_t errlen);
void chisel_runtime_free(struct chisel_runtime *rt);

/* load chisel NAME with its argument string (split as sysdig does);
 * 0 on success, -1 with err */
int chisel_load(struct chisel_runtime *rt, const char *name, const char *args,
		char *err, size_t errlen);

int chisel_capture_start(struct chisel_runtime *rt, char *err, size_t errlen);
/* 0: continue, 1: a chisel asked to end the capture, -1: error (err) */
int chisel_event(struct chisel_runtime *rt, struct sinsp_evt *e, char *err, size_t errlen);
int chisel_capture_end(struct chisel_runtime *rt, char *err, size_t errlen);

/* -cl and -i NAME */
int chisel_list(FILE *out);
int chisel_describe(FILE *out, const char *name);

#endif
