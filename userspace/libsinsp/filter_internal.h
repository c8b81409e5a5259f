/*
 * filter_internal.h - private structures of the filter compiler (filter.c)
 * and its evaluator (filter_eval.c).
 *
 * A compiled filter is a flat array of nodes (AND/OR groups and checks) plus
 * an array of field slots.  Every distinct field used by the expression has
 * one slot holding its extracted value for the current event, so a field is
 * extracted at most once per event however often it appears.  Evaluation
 * walks the tree without allocating.
 */
#ifndef FILTER_INTERNAL_H
#define FILTER_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include "fields.h"
#include "filter.h"

enum filter_op {
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_CONTAINS, OP_ICONTAINS,
	OP_STARTSWITH, OP_ENDSWITH, OP_GLOB, OP_IN, OP_INTERSECTS, OP_PMATCH,
	OP_EXISTS,
};

/* how a field's values are compared (derived from its PT_* type) */
enum cmp_kind {
	CK_STRING,		/* strcmp-like on the rendered text */
	CK_BUFFER,		/* bytes with a length */
	CK_SIGNED,		/* signed integers */
	CK_UNSIGNED,		/* unsigned integers, bools, times, ports */
	CK_IP,			/* an IPv4 or IPv6 address */
	CK_NET,			/* address inside a network */
};

/* special checks that are not a plain extract-and-compare */
enum check_special {
	SP_NONE,
	SP_FDADDR,		/* fd.ip/fd.net/fd.port/fd.proto: either end of the socket */
	SP_ANAME_ANY,		/* proc.aname without [N]: any ancestor */
	SP_APID_ANY,		/* proc.apid without [N] */
	SP_AROUND,		/* evt.around[T]=D */
	SP_COMM,		/* proc.name =, != or in: compared in place */
	SP_FDTYPE,		/* fd.type =, != or in: compared in place */
	SP_EVTIN,		/* evtin.*: any open span the event is inside */
};

/* one compiled comparison value */
struct fvalue {
	const char *s;		/* string / bytes (owned by the filter) */
	uint32_t len;
	int64_t i;
	uint64_t u;
	uint8_t ip[16];
	uint8_t iplen;		/* 4 or 16 */
	uint8_t prefix;		/* network prefix length */
};

struct fslot {
	struct field_ref ref;
	uint64_t gen;		/* filter_run generation of the cached value */
	int ok;			/* extraction succeeded */
	struct field_value val;
};

enum node_kind { N_AND, N_OR, N_CHECK };

struct fnode {
	uint8_t kind;
	uint8_t neg;		/* "not" in front of the term */
	uint8_t op;		/* enum filter_op (checks) */
	uint8_t ck;		/* enum cmp_kind (checks) */
	uint8_t special;	/* enum check_special */
	int slot;		/* field slot (not extracted for SP_* specials) */
	struct fvalue *vals;	/* checks: values (several for in/pmatch) */
	uint32_t nvals;
	int *kids;		/* groups: child node indexes */
	uint32_t nkids;
	struct vset *set;	/* large 'in' lists: the values hashed (filter_set.c) */
};

struct filter {
	struct fnode *nodes;
	uint32_t nnodes, capnodes;
	struct fslot *slots;
	uint32_t nslots;
	int root;
	uint64_t gen;
	uint8_t *may;		/* per event type: may match (pre-selection) */
	uint32_t nmay;
	char scratch[FIELD_STRBUF_SIZE + 1];	/* NUL-terminated copy for glob */
	struct field_value tmp;	/* ancestor values */
	const char *error;	/* filter_error(): set by the first failing check */
};

/* filter_set.c: from VSET_MIN values an 'in' check is answered by a hash
 * lookup (string, buffer and integer kinds) */
#define VSET_MIN 16
int vset_supported(const struct fnode *c);
int vset_build(struct fnode *c);	/* 0, or -1 (no memory: linear scan) */
int vset_has_str(const struct fnode *c, const char *s, size_t n);
int vset_has_int(const struct fnode *c, uint64_t key);
void vset_free(struct fnode *c);

/* filter_eval.c */
int filter_eval_node(struct filter *f, struct sinsp *s, struct sinsp_evt *e, int n);
int filter_compare(struct filter *f, const struct fnode *c, struct field_value *v);

#endif
