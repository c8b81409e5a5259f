/*
 * stacks.h - call stacks of syscalls (--stacks, %evt.stack, %evt.kstack).
 *
 * The drivers write a PPME_STACK_E event (driver/ext_events.tsv) right before
 * the enter event of a selected syscall, with the same timestamp: the user
 * return addresses (frame pointers), the top words of the user stack and the
 * kernel return addresses.  Symbols need the process's executable mappings:
 * live, /proc/PID/maps is read when a stack of that process comes, and a
 * PPME_STACK_MAPS_E event carrying them is handed to the writer (-w) so that
 * a file read later on the same machine resolves the same names.  Both
 * events are state, not events: they are not numbered and never shown.
 * Symbolisation is elfutils' libdwfl.
 */
#ifndef STACKS_H
#define STACKS_H

#include "sinsp.h"

struct sbuf;
struct sinsp_stacks;

/* the state update of a PPME_STACK_E or PPME_STACK_MAPS_E event */
void stacks_event(struct sinsp *s, struct sinsp_evt *e);
/* live: the maps event made for the last stack event, to be written before
 * it; NULL when none (valid until the next event) */
const struct scap_evt *stacks_take_maps(struct sinsp *s);
/* the stack of e's syscall, symbolised into b (frames leaf first, " <- "
 * between them): user stack, or kernel stack.  0 when e has none. */
int stacks_render(struct sinsp *s, const struct sinsp_evt *e, int kernel, struct sbuf *b);
/* e's stack is not shown (--stacks-filter rejected the event) */
void stacks_hide(struct sinsp *s, const struct sinsp_evt *e);
void stacks_free(struct sinsp_stacks *st);

#endif
