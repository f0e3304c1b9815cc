/* SPDX-License-Identifier: MIT */
/*
** node.h: the compiled schema, the node model the compiler (schema.h)
** yields and the tables (schema_tables.h), the C rendering (schema_c.h)
** and the exports read. Types only: toolgov__slimits_none is defined in
** schema.c.
**
** Ownership: nodes and their strings live in the arena of the compile.
*/
#ifndef TOOLGOV_GEN_NODE_H
#define TOOLGOV_GEN_NODE_H

#include <stddef.h>
#include <stdint.h>

#include "schema/value.h"

/* Deepest nesting of schemas (the root object is level 1; each step into
** properties, items, anyOf or oneOf adds one). */
#define TOOLGOV_SCHEMA_DEPTH_MAX 8u

/* ---- compiled schema ----------------------------------------------------- */

/* The C shape a schema node takes. */
typedef enum toolgov__stype {
    TOOLGOV_S_OBJECT,
    TOOLGOV_S_STRING,
    TOOLGOV_S_INTEGER,
    TOOLGOV_S_NUMBER,
    TOOLGOV_S_BOOLEAN,
    TOOLGOV_S_ARRAY,
    TOOLGOV_S_RAW /* anyOf/oneOf, several types, null or no type: JSON text */
} toolgov__stype;

/* Bits of the JSON types a node's `type` names (0: no `type`). */
enum {
    TOOLGOV_T_NULL = 1u << 0,
    TOOLGOV_T_BOOLEAN = 1u << 1,
    TOOLGOV_T_INTEGER = 1u << 2,
    TOOLGOV_T_NUMBER = 1u << 3,
    TOOLGOV_T_STRING = 1u << 4,
    TOOLGOV_T_ARRAY = 1u << 5,
    TOOLGOV_T_OBJECT = 1u << 6
};

/* The formats the runtime checks; anything else is TOOLGOV_F_OTHER, an
** annotation kept in exports and never checked. */
typedef enum toolgov__sformat {
    TOOLGOV_F_NONE,
    TOOLGOV_F_DATE,      /* YYYY-MM-DD */
    TOOLGOV_F_TIME,      /* HH:MM[:SS[.frac]][Z|+HH:MM|-HH:MM] */
    TOOLGOV_F_DATE_TIME, /* RFC 3339 date-time */
    TOOLGOV_F_EMAIL,
    TOOLGOV_F_URI,
    TOOLGOV_F_OTHER
} toolgov__sformat;

/* A numeric bound as written and as values. */
typedef struct toolgov__sbound {
    int given;
    int is_int;       /* the value is an exact integer that fits int64_t */
    int64_t i;        /* when is_int */
    double d;
    const char *text; /* as written */
    toolgov__mark at;
} toolgov__sbound;

/* A count bound (lengths, items): a non-negative integer. */
typedef struct toolgov__scount {
    int given;
    uint64_t v;
    toolgov__mark at;
} toolgov__scount;

typedef struct toolgov__snode toolgov__snode;

typedef struct toolgov__sprop {
    const char *name;  /* the JSON name as written (NUL-terminated) */
    size_t name_len;
    const char *c_name; /* a C identifier, unique among its siblings */
    toolgov__mark at;   /* the key under properties: */
    int required;
    toolgov__snode *schema;
} toolgov__sprop;

/* A node's lengths, bounds and item counts: most nodes give none, and
** share toolgov__slimits_none (all zero) instead of a copy of their own. */
typedef struct toolgov__slimits {
    toolgov__scount min_length, max_length; /* characters */
    toolgov__sbound minimum, maximum, exclusive_minimum, exclusive_maximum;
    toolgov__scount min_items, max_items;
} toolgov__slimits;

extern const toolgov__slimits toolgov__slimits_none;

struct toolgov__snode {
    toolgov__stype type;
    unsigned types;           /* TOOLGOV_T_* bits as written; 0: no type */
    toolgov__mark at;         /* the schema's mapping */
    unsigned depth;           /* 1 for the root */
    int synth;                /* 1: made by the compiler, not written (the
                              ** items of an array without items:) */
    toolgov__sformat format;
    int additional;           /* additionalProperties: 1 (default) or 0 */
    int allow_nul;            /* a string whose value may hold a NUL: set by
                              ** the manifest's allow_nul (not a schema
                              ** keyword; exports do not carry it); the
                              ** tables then set TOOLGOV_ARG_F_ALLOW_NUL */
    const char *text;         /* root only: the canonical text (see
                              ** toolgov__schema_text), NULL elsewhere */
    size_t text_len;
    const toolgov__snode *parent;

    const char *description;  /* NULL when absent */
    const char *format_name;  /* NULL when absent */

    const toolgov__slimits *lim; /* never NULL */

    const toolgov__jval *enum_vals; /* a TOOLGOV_J_ARRAY, or NULL */
    const char **enum_c_names;      /* string enums: a C identifier per value */
    const toolgov__jval *default_val; /* NULL when absent */

    toolgov__snode *items;          /* TOOLGOV_S_ARRAY (never NULL there) */

    toolgov__sprop *props;          /* in the order written */
    size_t prop_count;

    toolgov__snode **any_of;
    size_t any_of_count;
    toolgov__snode **one_of;
    size_t one_of_count;
};

#endif /* TOOLGOV_GEN_NODE_H */
