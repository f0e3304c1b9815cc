/* SPDX-License-Identifier: MIT */
/*
** schema.h: the compiler for a tool's `parameters:` (SPEC section 9): a JSON
** Schema object in the subset toolgov supports, turned into a checked node
** model that code generation, exports and in-memory descriptor tables use.
**
** Two layers. A JSON value tree (toolgov__jval) is what a reader produces:
** the manifest's YAML walk builds it from libyaml events under `parameters:`,
** toolgov__jtext_parse() builds it from JSON text, and tests or fuzzers may
** build it directly with the toolgov__jv_* calls. Every value and object key
** carries the line:column it came from. toolgov__schema_compile() then checks
** the tree against the subset and yields a toolgov__snode tree: one node per
** schema, with its type, bounds, enum, properties (each with a safe C name)
** and items resolved. Every problem is reported through the diag sink at its
** own line:column, with "did you mean" for misspelt keywords, and compiling
** goes on after an error so that one run names all of them.
**
** A schema whose value may take more than one JSON type (anyOf, oneOf, a
** list of types, type null, or no type) compiles to a TOOLGOV_S_RAW node:
** the handler gets its JSON text, the runtime still validates it (its
** branches and keywords are compiled and checked here like any other), and
** exports keep it as written.
**
** toolgov__schema_text() writes the canonical JSON text of a tree: members
** in the order written, no insignificant whitespace, numbers as written
** (they are JSON numbers), strings spelt by the runtime's canonical writer
** (runtime/src/jsonwrite.c, compiled into the generator too).
**
** Ownership: every jval, snode and string comes from the arena of the
** context and lives until that arena is freed; nothing here frees one by one.
** Input strings given to the builders are copied. A compiled tree never
** points into the value tree it came from (it keeps copies of the names,
** texts, enum and default values it needs, and the root its canonical
** text), so the value tree may live in another arena and be freed, or that
** arena reset, right after compiling: the manifest loader builds each
** tool's value tree in one scratch arena it reuses.
*/
#ifndef TOOLGOV_GEN_SCHEMA_H
#define TOOLGOV_GEN_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"

#include <toolgov/args.h>

/* Deepest nesting of schemas (the root object is level 1; each step into
** properties, items, anyOf or oneOf adds one). */
#define TOOLGOV_SCHEMA_DEPTH_MAX 8u

/* ---- JSON value tree ----------------------------------------------------- */

typedef enum toolgov__jkind {
    TOOLGOV_J_NULL,
    TOOLGOV_J_BOOL,
    TOOLGOV_J_NUMBER, /* text holds the JSON number as written */
    TOOLGOV_J_STRING, /* text holds the bytes (UTF-8), NUL-terminated */
    TOOLGOV_J_ARRAY,
    TOOLGOV_J_OBJECT
} toolgov__jkind;

typedef struct toolgov__jval toolgov__jval;

typedef struct toolgov__jmember {
    const char *key; /* NUL-terminated copy; key_len bytes (may hold no NUL) */
    size_t key_len;
    toolgov__mark at; /* where the key is */
    toolgov__jval *val;
} toolgov__jmember;

struct toolgov__jval {
    toolgov__jkind kind;
    toolgov__mark at;
    int boolean;               /* TOOLGOV_J_BOOL */
    const char *text;          /* TOOLGOV_J_NUMBER, TOOLGOV_J_STRING */
    size_t len;
    size_t count;              /* items or members */
    size_t cap_;               /* private: allocated slots */
    toolgov__jval **items;     /* TOOLGOV_J_ARRAY */
    toolgov__jmember *members; /* TOOLGOV_J_OBJECT, in source order */
    uint32_t *ix_;             /* private: a big object's members by key */
    size_t ix_mask_;
};

/* What every call of this module needs: where to allocate, where to report,
** and the names for messages. `tool` may be NULL (messages then omit it). */
typedef struct toolgov__schema_ctx {
    toolgov__arena *arena;
    toolgov__diag *d;
    const char *path; /* file name for FILE:LINE:COL */
    const char *tool;
    int oom;          /* set when an allocation failed (reported once) */
    toolgov__arena *scratch; /* NULL, or where a compile keeps what it
                             ** drops when done (the tables of its value
                             ** checks): the caller may reset it after */
    toolgov_args_decoder *dec; /* the runtime's validator for value checks:
                               ** NULL, and toolgov__schema_compile makes
                               ** and frees one when it needs one; or one
                               ** the caller keeps across compiles (a
                               ** compile that starts with NULL may leave
                               ** it NULL, and frees what it made) */
    size_t value_errors;       /* private: errors after which values are
                               ** still judged while it runs (about
                               ** defaults, examples and enum values, and
                               ** unknown or unsupported keywords) */
} toolgov__schema_ctx;

/* Builders. Each returns the new value (or 0), NULL/-1 when out of memory
** (then cx->oom is set and one error reported). */
toolgov__jval *toolgov__jv_new(toolgov__schema_ctx *cx, toolgov__jkind kind, toolgov__mark at);
toolgov__jval *toolgov__jv_text(toolgov__schema_ctx *cx, toolgov__jkind kind, const char *s,
                                size_t len, toolgov__mark at);
int toolgov__jv_push(toolgov__schema_ctx *cx, toolgov__jval *array, toolgov__jval *item);
/* Appends a member; duplicates are the reader's business (see jv_find). */
int toolgov__jv_put(toolgov__schema_ctx *cx, toolgov__jval *object, const char *key,
                    size_t key_len, toolgov__mark at, toolgov__jval *val);
/* The member named key[0..len) of an object, or NULL. */
const toolgov__jmember *toolgov__jv_find(const toolgov__jval *object, const char *key,
                                         size_t len);

/* Whether the len bytes at s are a number in RFC 8259's grammar. */
int toolgov__jtext_number_ok(const char *s, size_t len);

/* Parse JSON text (RFC 8259, UTF-8; duplicate keys refused) into *out with
** 1-based line:column marks counted in characters. 0, or -1 after reporting every problem found (parsing stops
** at the first syntax error). */
int toolgov__jtext_parse(toolgov__schema_ctx *cx, const char *text, size_t len,
                        toolgov__jval **out);

/* Append v as compact JSON text to b: members in the order written, no
** insignificant whitespace, numbers as written, strings spelt by the
** runtime's canonical writer. 0, or -1 when out of memory (b->oom). */
int toolgov__jtext_write(toolgov__buf *b, const toolgov__jval *v);

/* b's content as a NUL-terminated copy in the arena (its length in *len
** when len is not NULL); b is freed either way. NULL when out of memory
** (reported through cx), also when b->oom is set. */
const char *toolgov__buf_to_arena(toolgov__schema_ctx *cx, toolgov__buf *b, size_t *len);

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

/* Compile `root`, the value of a tool's `parameters:` (at `at`, where the
** key is), into *out. The root must be a schema of type object. 0, or -1
** after reporting every problem (nothing is returned then). */
int toolgov__schema_compile(toolgov__schema_ctx *cx, const toolgov__jval *root, toolgov__mark at,
                            toolgov__snode **out);

/* The canonical JSON Schema text of a compiled tool (NUL-terminated, in
** the arena): the tree as written, compact. For a tool without parameters
** pass NULL: {"type":"object","properties":{},"additionalProperties":false}.
** 0, or -1 when out of memory. */
int toolgov__schema_text(toolgov__schema_ctx *cx, const toolgov__snode *root, const char **out,
                         size_t *out_len);

/* Exact integer value of a JSON number text, when it is one that fits
** int64_t ("2", "2.0", "1e2"): 1 and *out; else 0. Read by the runtime's
** conversion (toolgov__json_int64), like the double below. */
int toolgov__jtext_int64(const char *s, size_t len, int64_t *out);

/* The double nearest to a JSON number text (correctly rounded, whatever the
** locale: toolgov__json_double); beyond the double range, an infinity of
** its sign. */
double toolgov__jtext_double(const char *s, size_t len);

/* A C identifier for the JSON name s[0..len): bytes outside [A-Za-z0-9_]
** become '_', runs of '_' become one, a leading digit or a leading '_'
** before an uppercase letter gets a "p" in front, an empty result is "p",
** and a C or C++ keyword, a name a standard header defines as a macro, or
** "has" gets a '_' after it. In the arena; NULL when out of memory. */
const char *toolgov__c_name(toolgov__schema_ctx *cx, const char *s, size_t len);

/* ---- reading YAML (schema_yaml.c) ---------------------------------------- */

struct toolgov__reader;

/* Read the YAML node whose first event is the reader's current one (the
** value of `parameters:`) into *out, leaving its last event current. 0 with
** a tree (values that could not be read, such as aliases, are reported and
** left out); 1 when the node itself could not be read (reported, *out
** NULL); -1 when the event stream cannot go on (reported). */
int toolgov__schema_read_yaml(toolgov__schema_ctx *cx, struct toolgov__reader *src,
                              toolgov__jval **out);

/* ---- tables and canonical values (schema_tables.c) ------------------------ */

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

#endif /* TOOLGOV_GEN_SCHEMA_H */
