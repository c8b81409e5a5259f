/*
 * filter_pushdown.c - what a compiled capture filter lets the live driver
 * leave out (filter_pushdown, filter.h): from the checks that are joined
 * to the whole filter by "and" only (the top-level conjunction), the
 * process names (proc.name = / in, or an "or" of such checks only), the processes
 * (proc.pid = / in), the threads (thread.tid = / in) and the process
 * trees (proc.apid = / in: the descendants of a pid; proc.ppid: its
 * children) and the containers (container.id = / in, ids of 12 hex
 * digits: the docker, podman and CRI ones).  Every event the filter accepts comes from a task so named
 * and selected, so the driver may drop the others (driver/bpf/select.bpf.h);
 * the filter still runs on what arrives.
 */
#include <ctype.h>
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

/* the names of comm check c (or of an "or" of comm checks only) added to
 * names[]; 0 when it is something else or a name no task can have (empty,
 * or longer than the kernel's 15 characters) */
static int comm_names(const struct filter *f, int n, char (*names)[16], uint32_t *nnames)
{
	const struct fnode *c = &f->nodes[n];

	if (c->neg)
		return 0;
	if (c->kind == N_OR) {
		for (uint32_t i = 0; i < c->nkids; i++)
			if (!comm_names(f, c->kids[i], names, nnames))
				return 0;
		return c->nkids > 0;
	}
	if (c->kind != N_CHECK || c->special != SP_COMM || (c->op != OP_EQ && c->op != OP_IN) ||
	    !c->nvals)
		return 0;
	for (uint32_t i = 0; i < c->nvals; i++) {
		const struct fvalue *v = &c->vals[i];
		uint32_t k;

		if (!v->len || v->len >= sizeof(names[0]))
			return 0;
		for (k = 0; k < *nnames; k++)
			if (strlen(names[k]) == v->len && !memcmp(names[k], v->s, v->len))
				break;
		if (k < *nnames)
			continue;
		if (*nnames == FILTER_PUSH_MAX)
			return 0;
		memcpy(names[*nnames], v->s, v->len);
		names[(*nnames)++][v->len] = 0;
	}
	return 1;
}

/* the first comm term of the conjunction that can go down gives the
 * names (the filter needs every term true) */
static void push_comms(const struct filter *f, int n, struct filter_pushdown *pd)
{
	if (pd->ncomms)
		return;
	if (!comm_names(f, n, pd->comms, &pd->ncomms)) {
		memset(pd->comms, 0, sizeof(pd->comms));
		pd->ncomms = 0;
	}
}

/* container.id = / in: the ids, when all are 12 hex digits (the runtimes'
 * ids, the driver follows their cgroups; "host" and names are not) */
static void push_container_ids(const struct fnode *c, struct filter_pushdown *pd)
{
	if (pd->ncids || (c->op != OP_EQ && c->op != OP_IN) || !c->nvals ||
	    c->nvals > FILTER_PUSH_MAX)
		return;
	for (uint32_t i = 0; i < c->nvals; i++) {
		const struct fvalue *v = &c->vals[i];

		if (v->len != 12)
			return;
		for (uint32_t k = 0; k < 12; k++)
			if (!isxdigit((unsigned char)v->s[k]))
				return;
	}
	for (uint32_t i = 0; i < c->nvals; i++) {
		memcpy(pd->cids[i], c->vals[i].s, 12);
		pd->cids[i][12] = 0;
	}
	pd->ncids = c->nvals;
}

static void push_check(const struct filter *f, const struct fnode *c, struct filter_pushdown *pd)
{
	if (c->special == SP_NONE && field_is(f, c, "container.id")) {
		push_container_ids(c, pd);
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
	if (nd->kind == N_OR || (nd->kind == N_CHECK && nd->special == SP_COMM)) {
		push_comms(f, n, pd);
		return;
	}
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
