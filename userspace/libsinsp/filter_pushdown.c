/*
 * filter_pushdown.c - what a compiled capture filter lets the live driver
 * leave out (filter_pushdown, filter.h): from the checks that are joined
 * to the whole filter by "and" only (the top-level conjunction), the
 * process name (proc.name = / in with one value), the processes
 * (proc.pid = / in), the threads (thread.tid = / in) and the process
 * trees (proc.apid = / in: the descendants of a pid; proc.ppid: its
 * children).  Every event the filter accepts comes from a task so named
 * and selected, so the driver may drop the others (driver/bpf/select.bpf.h);
 * the filter still runs on what arrives.
 */
#include <string.h>
#include "filter_internal.h"

static int field_is(const struct filter *f, const struct fnode *c, const char *name)
{
	return c->slot >= 0 && !f->slots[c->slot].ref.has_arg &&
	       strcmp(f->slots[c->slot].ref.name, name) == 0;
}

/* the check's values as pids into out[]; 0 when one is not a pid */
static uint32_t check_pids(const struct fnode *c, uint32_t *out)
{
	uint32_t i;

	if ((c->op != OP_EQ && c->op != OP_IN) || !c->nvals || c->nvals > FILTER_PUSH_MAX ||
	    (c->ck != CK_SIGNED && c->ck != CK_UNSIGNED))
		return 0;
	for (i = 0; i < c->nvals; i++) {
		int64_t v = c->ck == CK_SIGNED ? c->vals[i].i : (int64_t)c->vals[i].u;

		if (v <= 0 || v > UINT32_MAX)
			return 0;
		out[i] = (uint32_t)v;
	}
	return c->nvals;
}

/* one list of the pushdown from check c, if it is still empty: the
 * filter needs c true, so the first check of a kind is enough */
static void push_pids(const struct fnode *c, uint32_t *list, uint32_t *n)
{
	if (!*n)
		*n = check_pids(c, list);
}

static void push_check(const struct filter *f, const struct fnode *c, struct filter_pushdown *pd)
{
	if (c->special == SP_COMM && (c->op == OP_EQ || (c->op == OP_IN && c->nvals == 1)) &&
	    !pd->comm[0] && c->vals[0].len && c->vals[0].len < sizeof(pd->comm)) {
		memcpy(pd->comm, c->vals[0].s, c->vals[0].len);
		pd->comm[c->vals[0].len] = 0;
	} else if (c->special == SP_APID_ANY || (c->special == SP_NONE && field_is(f, c, "proc.ppid"))) {
		push_pids(c, pd->roots, &pd->nroots);
	} else if (c->special == SP_NONE && field_is(f, c, "proc.pid")) {
		push_pids(c, pd->pids, &pd->npids);
	} else if (c->special == SP_NONE && field_is(f, c, "thread.tid")) {
		push_pids(c, pd->tids, &pd->ntids);
	}
}

/* node n must be true for the filter to match: so must its checks and
 * the kids of an "and" */
static void push_node(const struct filter *f, int n, struct filter_pushdown *pd)
{
	const struct fnode *nd = &f->nodes[n];

	if (nd->neg)
		return;
	if (nd->kind == N_CHECK) {
		push_check(f, nd, pd);
		return;
	}
	if (nd->kind == N_AND)
		for (uint32_t i = 0; i < nd->nkids; i++)
			push_node(f, nd->kids[i], pd);
}

void filter_pushdown(const struct filter *f, struct filter_pushdown *pd)
{
	memset(pd, 0, sizeof(*pd));
	if (f && f->nnodes)
		push_node(f, f->root, pd);
}
