/* SPDX-License-Identifier: MIT */
/*
** schema_tables.h: a compiled schema (node.h) as the runtime's descriptor
** tables (toolgov/args.h), built in memory, and the canonical JSON text of
** a value under a schema (SPEC section 9). Below the compiler: schema.c
** judges defaults, examples and enum values through these tables.
**
** Ownership: what is returned lives in the arena of the context.
*/
#ifndef TOOLGOV_GEN_SCHEMA_TABLES_H
#define TOOLGOV_GEN_SCHEMA_TABLES_H

#include "schema/node.h"
#include "schema/value.h"

/* The canonical JSON text of v, valid under n (SPEC section 9): declared
** properties in schema order with defaults filled, then other members sorted
** by key; integers exact; numbers in their shortest round-trip form; raw
** values with object keys sorted and number texts as written. In the
** arena. 0, or -1 when out of memory. */
int toolgov__schema_canonical_value(toolgov__schema_ctx *cx, const toolgov__snode *n,
                                    const toolgov__jval *v, const char **out, size_t *out_len);

/* Whether a property gets a presence flag in the `has` struct: optional and
** without a default. */
int toolgov__schema_has_flag(const toolgov__sprop *p);

/* Bounds of an integer node as int64 (minimum 0.5 is 1, exclusiveMinimum 3
** is 4): 1, or 0 when no int64 satisfies them all. And of a number node as
** doubles with TOOLGOV_ARG_F_* flags. */
int toolgov__schema_int_bounds(const toolgov__snode *n, int *has_min, int64_t *min,
                               int *has_max, int64_t *max);
void toolgov__schema_num_bounds(const toolgov__snode *n, unsigned *flags, double *min,
                                double *max);

/* The runtime's descriptor tables for a compiled root (an object node),
** built in the arena, with the argument struct laid out as the generated C
** declares it (root->struct_size bytes). For tests and fuzzers that decode
** with random schemas. 0, or -1 when out of memory. */
int toolgov__schema_tables(toolgov__schema_ctx *cx, const toolgov__snode *root,
                           const toolgov_arg_schema **out);

#endif /* TOOLGOV_GEN_SCHEMA_TABLES_H */
