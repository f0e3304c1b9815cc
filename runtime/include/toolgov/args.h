/* SPDX-License-Identifier: MIT */
/*
** args.h: the declared arguments of a tool, as const tables the generator
** emits and one table-driven decoder in the runtime walks.
**
** A manifest declares each tool's arguments as a JSON Schema object
** (`parameters:`). toolgov-gen compiles it into:
**   - a typed C struct per tool (the "argument struct"), which the tool's
**     handler receives already decoded and validated;
**   - a tree of `static const toolgov_arg_schema` nodes describing each
**     value (its kind, bounds, lengths, format, enum, items, fields), with
**     the C offsets at which the decoder stores each decoded field.
** No tool has parsing code of its own: the runtime's one decoder validates
** the model's JSON text against the tree, fills the struct and produces the
** call's canonical JSON text (nanopb's model: descriptors plus one walker).
**
** How each kind is stored in the argument struct (C layout the generator
** must emit, at the field's `offset`):
**
**   TOOLGOV_ARG_STRING        toolgov_str
**   TOOLGOV_ARG_INTEGER       int64_t
**   TOOLGOV_ARG_NUMBER        double (always finite)
**   TOOLGOV_ARG_BOOLEAN       bool
**   TOOLGOV_ARG_STRING_ENUM   a generated C enum whose values are 0..n-1 in
**                             the order of `str_enum`; it must have the size
**                             of an int (the decoder stores an int)
**   TOOLGOV_ARG_INTEGER_ENUM  int64_t
**   TOOLGOV_ARG_ARRAY         struct { const T *items; size_t count; }, the
**                             layout of toolgov_array with a typed pointer;
**                             items are `item_size` bytes apart, each laid
**                             out as the item schema's kind says
**   TOOLGOV_ARG_OBJECT        a nested struct of `struct_size` bytes whose
**                             fields sit at their own offsets
**   TOOLGOV_ARG_RAW           toolgov_str holding the value's JSON text in
**                             canonical form (object keys sorted, no
**                             whitespace, number texts as sent)
**
** Presence: a property that is required, or has a default, is always set
** after a successful decode. Any other property has a `bool` in the
** struct's `has` member, at `has_offset`, which is true when the call gave
** it; when it is false the value is zero (an empty string of length 0 with
** a non-NULL pointer to "", 0, 0.0, false, the first enum value, no items,
** a zeroed nested struct).
** A null given for such an optional property whose node is not RAW reads as
** absent (OpenAI's strict mode sends every property, an optional one as
** null: toolgov_loop_options.strict, loop.h); a RAW node keeps a null.
**
** Raw values: a value whose schema uses anyOf/oneOf, a list of two or more types,
** `type: null` or no type is a TOOLGOV_ARG_RAW node. Its `types` mask says
** which JSON types it accepts (0: any); every other member of the node
** applies to the instance types it concerns, as in JSON Schema (string
** lengths and format to strings, bounds to numbers, items and item counts
** to arrays, fields and TOOLGOV_ARG_F_CLOSED to objects, enums to strings,
** integers and null). `alts` lists anyOf or oneOf alternatives; they are
** validated only (their offsets are ignored), and may be of any kind.
**
** Ownership and lifetime: every table here is const data owned by the
** plugin (generated tables are static) and must outlive every registry the
** plugin is mounted into. Every pointer the decoder stores into an argument
** struct (string bytes, item arrays, raw texts) points into the scratch
** area of the run that decoded the call and stays valid until the next
** decode, approve or invoke on that run (see run.h); a handler that keeps a
** value longer copies it.
*/
#ifndef TOOLGOV_ARGS_H
#define TOOLGOV_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "toolgov.h"
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A decoded string: `len` bytes of well-formed UTF-8 at `ptr`, followed by
** a NUL that is not counted. A STRING value holds no NUL byte unless its
** node sets TOOLGOV_ARG_F_ALLOW_NUL (then `len` is authoritative); still,
** prefer `len` (printf's "%.*s" with (int)len) to reading `ptr` as C text. `ptr` is never NULL after a
** decode, also for an absent optional string (it then points to ""). */
typedef struct toolgov_str {
    const char *ptr;
    size_t len;
} toolgov_str;

/* The C layout of every decoded array; generated structs use the same two
** members with a typed `items` pointer. `items` is NULL only when `count`
** is 0. */
typedef struct toolgov_array {
    const void *items;
    size_t count;
} toolgov_array;

/* The argument struct of a tool without parameters: the only valid calls
** are "{}", "" and no argument text at all. (C needs one member.) */
typedef struct toolgov_no_args {
    char unused_;
} toolgov_no_args;

/* The deepest nesting of objects and arrays a schema may declare, counting
** the arguments object as 1. */
#define TOOLGOV_ARGS_MAX_DEPTH 8

/* Bounds of a call's argument text: its length in bytes, and the nesting
** of JSON containers in it (raw values may nest deeper than a schema). */
#define TOOLGOV_ARGS_MAX_LEN ((size_t)1 << 20)
#define TOOLGOV_ARGS_MAX_NESTING 32

/* The most problems one refusal message names; more are counted ("and 3
** more problems"). */
#define TOOLGOV_ARGS_MAX_PROBLEMS 8

/* What a schema node describes; see the storage table above. 0 is not a
** kind, so a zeroed node is recognisably unset. */
typedef enum toolgov_arg_kind {
    TOOLGOV_ARG_STRING = 1,
    TOOLGOV_ARG_INTEGER = 2,
    TOOLGOV_ARG_NUMBER = 3,
    TOOLGOV_ARG_BOOLEAN = 4,
    TOOLGOV_ARG_STRING_ENUM = 5,
    TOOLGOV_ARG_INTEGER_ENUM = 6,
    TOOLGOV_ARG_ARRAY = 7,
    TOOLGOV_ARG_OBJECT = 8,
    TOOLGOV_ARG_RAW = 9
} toolgov_arg_kind;

/* A checked string format. Any other `format` in a manifest is kept as an
** annotation only and compiles to TOOLGOV_FORMAT_NONE. */
typedef enum toolgov_arg_format {
    TOOLGOV_FORMAT_NONE = 0,
    TOOLGOV_FORMAT_DATE = 1,      /* YYYY-MM-DD, a real calendar day */
    TOOLGOV_FORMAT_TIME = 2,      /* HH:MM or HH:MM:SS, optional fraction and
                                  ** offset (Z, +HH:MM, -HH:MM) */
    TOOLGOV_FORMAT_DATE_TIME = 3, /* RFC 3339 date-time */
    TOOLGOV_FORMAT_EMAIL = 4,     /* local@domain */
    TOOLGOV_FORMAT_URI = 5        /* RFC 3986 absolute URI: scheme ":" ... */
} toolgov_arg_format;

/* JSON types, for the `types` mask of a raw node. A mask of 0 accepts any
** value. NUMBER accepts integers too (JSON Schema's rule); INTEGER alone
** accepts numbers with an exact integer value (2 and 2.0, not 2.5). */
#define TOOLGOV_JSON_NULL    0x01u
#define TOOLGOV_JSON_BOOLEAN 0x02u
#define TOOLGOV_JSON_INTEGER 0x04u
#define TOOLGOV_JSON_NUMBER  0x08u
#define TOOLGOV_JSON_STRING  0x10u
#define TOOLGOV_JSON_ARRAY   0x20u
#define TOOLGOV_JSON_OBJECT  0x40u

/* Node flags. Bounds hold only when their HAS flag is set; an EXCL flag
** makes the bound exclusive (exclusiveMinimum/exclusiveMaximum). */
#define TOOLGOV_ARG_F_HAS_MIN    0x001u
#define TOOLGOV_ARG_F_HAS_MAX    0x002u
#define TOOLGOV_ARG_F_EXCL_MIN   0x004u
#define TOOLGOV_ARG_F_EXCL_MAX   0x008u
/* Object: additionalProperties is false (members not declared are refused).
** Without it (JSON Schema's default) extra members are accepted, kept in
** the canonical text (sorted by key) and not stored in the struct. */
#define TOOLGOV_ARG_F_CLOSED     0x010u
/* Raw: `alts` are oneOf (exactly one must match) rather than anyOf. */
#define TOOLGOV_ARG_F_ONE_OF     0x020u
/* Raw: null is one of the enum's values (with str_enum/int_enum). */
#define TOOLGOV_ARG_F_ENUM_NULL  0x040u
/* Raw: the node has an enum at all (so an enum of only null is expressible). */
#define TOOLGOV_ARG_F_HAS_ENUM   0x080u
/* Raw: `int_min` (`int_max`) is the lower (upper) bound an integer instance
** has, inclusive and exact, where every bound of that side is written as an
** integer (exclusiveMinimum 3 is int_min 4); an instance that is an exact
** int64 is compared with it instead of with num_min (num_max). Tables
** without these flags compare every number as a double, as before. */
#define TOOLGOV_ARG_F_INT_MIN    0x100u
#define TOOLGOV_ARG_F_INT_MAX    0x200u

/* STRING: the value may contain NUL characters ("\u0000"). Without it a
** string with a NUL is refused (TOOLGOV_EARGS), so a handler that reads
** `ptr` as a C string sees the whole value; with it, `len` is the only
** end. Tables generated from a manifest never set it today. */
#define TOOLGOV_ARG_F_ALLOW_NUL  0x400u
/* `max_len` / `max_items` when there is no upper bound. */
#define TOOLGOV_ARG_UNBOUNDED ((size_t)-1)

/* `has_offset` of a field that has no presence flag (required, or with a
** default, or a field of a node that is validated only). */
#define TOOLGOV_ARG_NO_HAS ((size_t)-1)

typedef struct toolgov_arg_field toolgov_arg_field;
typedef struct toolgov_arg_schema toolgov_arg_schema;

/* One schema node. Every member is present in every node (the generator
** writes them all, positionally, in this order); members a kind does not
** use are 0/NULL, except the maxima, which are TOOLGOV_ARG_UNBOUNDED when
** unused or unbounded. */
struct toolgov_arg_schema {
    toolgov_arg_kind kind;
    unsigned flags;                 /* TOOLGOV_ARG_F_* */
    /* Strings (and strings in raw values): length in characters (Unicode
    ** scalar values), and the checked format. */
    size_t min_len;
    size_t max_len;
    toolgov_arg_format format;
    /* INTEGER and INTEGER_ENUM bounds (per the HAS/EXCL flags). A manifest
    ** bound that is not an integer is rounded by the generator toward the
    ** valid range (minimum 0.5 becomes 1), keeping the same set of values. */
    int64_t int_min;
    int64_t int_max;
    /* NUMBER bounds, and the bounds of numbers in raw values. */
    double num_min;
    double num_max;
    /* STRING_ENUM values in order (the C enum's 0..n-1); in a raw node the
    ** string members of its enum. UTF-8, NUL-terminated. */
    const char *const *str_enum;
    size_t str_enum_count;
    /* INTEGER_ENUM values; in a raw node the integer members of its enum; in
    ** a NUMBER node, when not 0, the values it may take (an exact integer
    ** among them, whatever its spelling: 1 and 1.0). */
    const int64_t *int_enum;
    size_t int_enum_count;
    /* ARRAY (and arrays in raw values): the item schema, the C size of one
    ** stored item (0 in a raw node), and the item count bounds. */
    const toolgov_arg_schema *items;
    size_t item_size;
    size_t min_items;
    size_t max_items;
    /* OBJECT (and objects in raw values): declared properties in schema
    ** order, and the C size of the struct they are stored in (0 in a raw
    ** node). TOOLGOV_ARG_F_CLOSED is additionalProperties: false. */
    const toolgov_arg_field *fields;
    size_t field_count;
    size_t struct_size;
    /* RAW: the accepted JSON types (TOOLGOV_JSON_* mask, 0: any) and the
    ** anyOf (or, with TOOLGOV_ARG_F_ONE_OF, oneOf) alternatives, an array
    ** of alt_count nodes. */
    unsigned types;
    const toolgov_arg_schema *alts;
    size_t alt_count;
};

/* One declared property of an object node. */
struct toolgov_arg_field {
    const char *name;          /* the JSON name, NUL-terminated UTF-8 */
    size_t name_len;           /* strlen(name) */
    const toolgov_arg_schema *schema;
    size_t offset;             /* where the value is stored in the struct */
    size_t has_offset;         /* the bool in the struct's `has` member, or
                               ** TOOLGOV_ARG_NO_HAS */
    int required;              /* 1: a call without it is refused */
    const char *default_json;  /* the default as canonical JSON text (see
                               ** SPEC §9), used when the call omits the
                               ** property; NULL when there is none */
};

/* ---- the core built-ins' arguments ----
** The runtime declares the parameters of its own tools in code: each takes
** one object of required non-empty strings (at most 2,000 characters).
** A host's handler for a built-in casts `args` to its struct. */
typedef struct toolgov_core_memory_search_args { toolgov_str query; } toolgov_core_memory_search_args;
typedef struct toolgov_core_ask_user_args { toolgov_str question; } toolgov_core_ask_user_args;
typedef struct toolgov_core_memory_correct_args {
    toolgov_str memory_id;
    toolgov_str correction;
} toolgov_core_memory_correct_args;
typedef struct toolgov_core_memory_forget_args { toolgov_str memory_id; } toolgov_core_memory_forget_args;
typedef struct toolgov_core_memory_restore_args { toolgov_str memory_id; } toolgov_core_memory_restore_args;
typedef struct toolgov_core_record_feedback_args { toolgov_str feedback; } toolgov_core_record_feedback_args;
typedef struct toolgov_core_promote_recommendation_args {
    toolgov_str recommendation;
} toolgov_core_promote_recommendation_args;
typedef struct toolgov_core_propose_skill_from_sandbox_args {
    toolgov_str name;
    toolgov_str description;
} toolgov_core_propose_skill_from_sandbox_args;
typedef struct toolgov_core_invoke_pending_action_args {
    toolgov_str action_id;
} toolgov_core_invoke_pending_action_args;

/* ---- the decoder ---- */

/* A decoder's scratch area: the parsed text, the decoded struct, its
** strings and item arrays, the canonical text and the refusal message all
** live in it. It keeps its memory between calls and grows to the largest
** call seen, so once warm a decode allocates nothing. Opaque; one per run
** (runs own theirs, see run.h) or per thread; not locked. */
typedef struct toolgov_args_decoder toolgov_args_decoder;

/* What a decode produced. Every pointer is borrowed from the decoder and
** valid until its next decode or its free. */
typedef struct toolgov_decoded_args {
    const void *args;        /* on success: the argument struct (struct_size
                             ** bytes as the schema says, or a zeroed
                             ** toolgov_no_args when the tool has no
                             ** parameters); NULL on failure */
    const char *canonical;   /* on success: the canonical JSON text of the
                             ** arguments (SPEC §9), NUL-terminated */
    size_t canonical_len;
    const char *message;     /* on TOOLGOV_EARGS: "<tool>: /path problem;
                             ** /path problem", NUL-terminated; "" otherwise */
    size_t message_len;
} toolgov_decoded_args;

/* Create a decoder that allocates through `alloc` (NULL: the C library's;
** the hook is copied). *out is owned by the caller (free with
** toolgov_args_decoder_free). TOOLGOV_ENOMEM, *out untouched. */
TOOLGOV_EXTERN int toolgov_args_decoder_new(toolgov_args_decoder **out,
                                            const toolgov_allocator *alloc);
/* Free a decoder and everything it holds. NULL is a no-op. */
TOOLGOV_EXTERN void toolgov_args_decoder_free(toolgov_args_decoder *dec);

/* Decode the argument text of one call of `tool` against `params` (the
** root OBJECT node, or NULL for a tool without parameters). `text` is `len`
** bytes, borrowed for the call; NULL, an empty or all-whitespace text reads
** as "{}" (for a tool without parameters the JSON text "" does too).
** The text is read strictly (RFC 8259, well-formed UTF-8, no duplicate
** keys, at most TOOLGOV_ARGS_MAX_LEN bytes and TOOLGOV_ARGS_MAX_NESTING
** deep), validated and decoded; defaults fill absent properties.
** Returns 0 with *out filled; TOOLGOV_EARGS with out->message naming every
** problem (up to TOOLGOV_ARGS_MAX_PROBLEMS) with its JSON path;
** TOOLGOV_EINVAL for a NULL argument or a schema the decoder cannot walk
** (message says which node); TOOLGOV_ENOMEM. `tool` only names the tool in
** the message (NULL: no prefix). */
TOOLGOV_EXTERN int toolgov_args_decode(toolgov_decoded_args *out,
                                       toolgov_args_decoder *dec,
                                       const toolgov_arg_schema *params,
                                       const char *tool, const char *text,
                                       size_t len);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_ARGS_H */
