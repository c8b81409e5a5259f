/*
 * fill_spec.h - the parameter table of the table-driven filler
 * (fill_simple.bpf.h), shared with the loader, which installs fill_simple
 * for every event pair that has an entry.  Each parameter is one byte:
 * kind << 3 | argument index.
 */
#ifndef FILL_SPEC_H
#define FILL_SPEC_H

#define SPEC_MAXP 8

struct simple_spec {
	uint8_t ne, nx;		/* parameters of the enter and exit events */
	uint8_t e[SPEC_MAXP];
	uint8_t x[SPEC_MAXP];
	uint8_t used;		/* for pairs without parameters */
};

#endif
