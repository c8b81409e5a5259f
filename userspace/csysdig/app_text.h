/*
 * app_text.h - the F5 (echo) and F6 (sysdig events) text windows: the
 * capture is restarted with the selection as filter and every matching
 * event adds lines to a bounded buffer that ui.c shows.
 */
#ifndef CSYSDIG_APP_TEXT_H
#define CSYSDIG_APP_TEXT_H

#include "csysdig.h"

#define TEXT_MAX_LINES 100000

void app_text_event(struct app *a, struct sinsp_evt *e);
void app_text_clear(struct app *a);

#endif
