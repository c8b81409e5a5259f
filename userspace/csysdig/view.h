/*
 * view.h - csysdig views: the view_info table of a view chisel (v_*.lua).
 *
 * view_load_all() runs every v_*.lua of the chisel search path in its own
 * Lua state and converts its global view_info table into a struct view.
 * The first file that defines an id wins (SYSDIG_CHISEL_DIR comes before
 * our installed chisels, so a directory of stock view files overrides ours).
 * Views tagged "nocsysdig" are left out, as the reference's csysdig does.
 */
#ifndef CSYSDIG_VIEW_H
#define CSYSDIG_VIEW_H

#include <stddef.h>

enum view_type { VIEW_TABLE, VIEW_LIST, VIEW_SPECTRO };
enum aggr { AGGR_NONE, AGGR_SUM, AGGR_AVG, AGGR_TIME_AVG, AGGR_MIN, AGGR_MAX };

struct view_column {
	char *name, *field, *description, *filterfield;
	int colsize;			/* -1: not given */
	enum aggr aggregation, groupby_aggregation;
	int is_key, is_groupby_key, is_sorting, filter_in_child_only;
	int for_containers;		/* tag "containers": only with -pc */
	int for_default;		/* tag "default": only without -pc */
};

struct view_action {
	char *hotkey, *command, *description;
	int ask_confirmation, wait_finish;
};

struct view {
	char *id, *name, *description, *filter, *drilldown_target, *spectro_type;
	char *path;			/* file it came from */
	char **tips, **tags, **applies_to;
	size_t ntips, ntags, napplies_to;
	enum view_type type;
	int use_defaults, is_root, drilldown_increase_depth, propagate_filter;
	struct view_column *cols;
	size_t ncols;
	struct view_action *actions;
	size_t nactions;
};

struct view_set {
	struct view *v;		/* sorted by name */
	size_t n;
};

/* 0, or -1 with err (a view file that does not load, a bad table) */
int view_load_all(struct view_set *set, char *err, size_t errlen);
/* one file; 1 loaded, 0 not a view / skipped, -1 error */
int view_load_file(struct view_set *set, const char *path, char *err, size_t errlen);
void view_set_free(struct view_set *set);
struct view *view_find(struct view_set *set, const char *id);
int view_applies_to(const struct view *v, const char *field);
const char *aggr_name(enum aggr a);

#endif
