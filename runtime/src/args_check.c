/* SPDX-License-Identifier: MIT */
/*
** args_check.c: mount's re-validation of a tool's argument tables (SPEC
** §11: a hand-built or corrupted descriptor is refused with a drift row).
**
** The decoder trusts the tables it walks: it stores each value at its
** field's offset in a struct of struct_size bytes, items item_size bytes
** apart, and reads every pointer and count it is given. So before a tool
** is pooled, its whole tree is walked once here:
**
**   - every node: a known kind, known flag, format and type bits, every
**     pointer its counts promise non-NULL (enum values included), length,
**     item and number bounds in order (and numbers not NaN);
**   - where values are stored (not under a raw value, whose fields and
**     items are validated only): each field's value inside its struct
**     (offset + the kind's C size <= struct_size, a nested object's own
**     struct_size included), its presence flag inside it too, no two of
**     them overlapping, and an array's item_size large enough for one item;
**   - the shape: at most TOOLGOV_ARGS_MAX_DEPTH containers of stored
**     values, at most MAX_EDGES levels of any node (so a loop is refused),
**     at most MAX_NODES node visits in all (so a table that shares nodes
**     cannot make the walk explode), and a root that is an OBJECT;
**   - the schema text (schema_json, what every export advertises) against
**     the tree: a strict JSON object whose stored values have the tree's
**     types, properties, required names, closedness, items and enum sizes,
**     so the exports never promise other arguments than the decoder takes
**     (a NULL text for a tool with parameters is refused: the exports
**     would say "no arguments"). A tool without parameters has a text
**     without properties, or none.
**
** The first problem found is reported with the JSON path of its node.
** Allocates only for reading the schema text (through the registry's
** hook), and frees it before returning.
*/
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "args_internal.h"
#include "json.h"

#define MAX_EDGES 64
#define MAX_NODES 100000u
#define KNOWN_FLAGS 0x7ffu
#define KNOWN_TYPES 0x7fu

typedef struct chk {
    char *why;
    size_t whysize;
    size_t nodes;
    char path[256];
    size_t npath;
    int failed;
} chk;

static int fail(chk *k, const char *what)
{
    if (!k->failed) {
        k->failed = 1;
        snprintf(k->why, k->whysize, "its argument table is unusable at %s: %s",
                 k->npath ? k->path : "the root", what);
    }
    return 0;
}

static size_t path_push(chk *k, const char *seg, size_t n)
{
    size_t old = k->npath;

    if (k->npath + 1 + n < sizeof k->path) {
        k->path[k->npath++] = '/';
        memcpy(k->path + k->npath, seg, n);
        k->npath += n;
        k->path[k->npath] = '\0';
    }
    return old;
}

static void path_pop(chk *k, size_t old)
{
    k->npath = old;
    k->path[old] = '\0';
}

/* The C size of a stored value of node s (its kind's member of args.h). */
static size_t stored_size(const toolgov_arg_schema *s)
{
    switch (s->kind) {
    case TOOLGOV_ARG_STRING:
    case TOOLGOV_ARG_RAW: return sizeof(toolgov_str);
    case TOOLGOV_ARG_INTEGER:
    case TOOLGOV_ARG_INTEGER_ENUM: return sizeof(int64_t);
    case TOOLGOV_ARG_NUMBER: return sizeof(double);
    case TOOLGOV_ARG_BOOLEAN: return sizeof(bool);
    case TOOLGOV_ARG_STRING_ENUM: return sizeof(int);
    case TOOLGOV_ARG_ARRAY: return sizeof(toolgov_array);
    case TOOLGOV_ARG_OBJECT: return s->struct_size;
    default: return 0;
    }
}

/* [at, at + n) inside a struct of `size` bytes. */
static int inside(size_t at, size_t n, size_t size)
{
    return at <= size && n <= size - at;
}

static int overlap(size_t a, size_t an, size_t b, size_t bn)
{
    return a < b + bn && b < a + an;
}

static int node_ok(chk *k, const toolgov_arg_schema *s, unsigned edges, unsigned depth,
                   int stored);

/* The fields of an object node: where stored, each value and presence flag
** inside the struct and apart from the others. */
static int fields_ok(chk *k, const toolgov_arg_schema *s, unsigned edges, unsigned depth,
                     int stored)
{
    size_t i, j;

    if (s->field_count && !s->fields)
        return fail(k, "field_count is not 0 but fields is NULL");
    if (stored && s->field_count && s->struct_size == 0)
        return fail(k, "an object with fields has struct_size 0");
    for (i = 0; i < s->field_count; i++) {
        const toolgov_arg_field *f = &s->fields[i];
        size_t old;
        int ok;

        if (!f->name || !f->schema)
            return fail(k, "a field's name or schema is NULL");
        if (strlen(f->name) != f->name_len)
            return fail(k, "a field's name_len is not the length of its name");
        if ((unsigned)f->required > 1)
            return fail(k, "a field's required is not 0 or 1");
        old = path_push(k, f->name, f->name_len);
        if (stored) {
            size_t n = stored_size(f->schema);

            if (f->schema->kind >= TOOLGOV_ARG_STRING && f->schema->kind <= TOOLGOV_ARG_RAW &&
                !inside(f->offset, n, s->struct_size))
                return fail(k, "the field's value lies outside its struct (offset and size "
                               "pass struct_size)");
            if (f->has_offset != TOOLGOV_ARG_NO_HAS &&
                !inside(f->has_offset, sizeof(bool), s->struct_size))
                return fail(k, "the field's presence flag lies outside its struct");
            if (f->has_offset != TOOLGOV_ARG_NO_HAS &&
                overlap(f->offset, n, f->has_offset, sizeof(bool)))
                return fail(k, "the field's presence flag overlaps its value");
            for (j = 0; j < i && f->schema->kind >= TOOLGOV_ARG_STRING &&
                        f->schema->kind <= TOOLGOV_ARG_RAW; j++) {
                const toolgov_arg_field *g = &s->fields[j];
                size_t gn = stored_size(g->schema);

                if (overlap(f->offset, n, g->offset, gn) ||
                    (g->has_offset != TOOLGOV_ARG_NO_HAS &&
                     overlap(f->offset, n, g->has_offset, sizeof(bool))) ||
                    (f->has_offset != TOOLGOV_ARG_NO_HAS &&
                     (overlap(f->has_offset, sizeof(bool), g->offset, gn) ||
                      (g->has_offset != TOOLGOV_ARG_NO_HAS &&
                       f->has_offset == g->has_offset))))
                    return fail(k, "the field overlaps another field of its struct");
            }
        }
        ok = node_ok(k, f->schema, edges + 1, depth, stored);
        path_pop(k, old);
        if (!ok)
            return 0;
    }
    return 1;
}

static int node_ok(chk *k, const toolgov_arg_schema *s, unsigned edges, unsigned depth,
                   int stored)
{
    size_t i, old;
    int ok;

    if (k->failed)
        return 0;
    if (!s)
        return fail(k, "a schema pointer is NULL");
    if (edges > MAX_EDGES)
        return fail(k, "the tree nests (or loops) deeper than 64 nodes");
    if (++k->nodes > MAX_NODES)
        return fail(k, "the tree has more than 100000 node visits (shared nodes?)");
    if (s->kind < TOOLGOV_ARG_STRING || s->kind > TOOLGOV_ARG_RAW)
        return fail(k, "a node has an unknown kind");
    if (s->flags & ~KNOWN_FLAGS)
        return fail(k, "a node has unknown flag bits");
    if ((unsigned)s->format > TOOLGOV_FORMAT_URI)
        return fail(k, "a node has an unknown format");
    if (s->types & ~KNOWN_TYPES)
        return fail(k, "a node has unknown type bits");
    if (s->min_len > s->max_len)
        return fail(k, "min_len is above max_len");
    if (s->min_items > s->max_items)
        return fail(k, "min_items is above max_items");
    if (isnan(s->num_min) || isnan(s->num_max))
        return fail(k, "a number bound is NaN");
    if ((s->str_enum_count && !s->str_enum) || (s->int_enum_count && !s->int_enum) ||
        (s->alt_count && !s->alts))
        return fail(k, "a count is not 0 but its array is NULL");
    for (i = 0; i < s->str_enum_count; i++)
        if (!s->str_enum[i])
            return fail(k, "an enum string is NULL");
    if (s->kind == TOOLGOV_ARG_STRING_ENUM && s->str_enum_count == 0)
        return fail(k, "a string enum node has no values");
    if (s->kind == TOOLGOV_ARG_INTEGER_ENUM && s->int_enum_count == 0)
        return fail(k, "an integer enum node has no values");
    if ((s->kind == TOOLGOV_ARG_INTEGER || s->kind == TOOLGOV_ARG_INTEGER_ENUM) &&
        (s->flags & TOOLGOV_ARG_F_HAS_MIN) && (s->flags & TOOLGOV_ARG_F_HAS_MAX) &&
        s->int_min > s->int_max)
        return fail(k, "int_min is above int_max");
    if (s->kind == TOOLGOV_ARG_ARRAY || s->kind == TOOLGOV_ARG_OBJECT) {
        if (stored && ++depth > TOOLGOV_ARGS_MAX_DEPTH)
            return fail(k, "objects and arrays nest deeper than TOOLGOV_ARGS_MAX_DEPTH");
    }
    /* Under a raw value nothing is stored: its parts are validated only. */
    if (s->kind == TOOLGOV_ARG_RAW)
        stored = 0;
    if (s->kind == TOOLGOV_ARG_ARRAY || (s->kind == TOOLGOV_ARG_RAW && s->items)) {
        if (s->kind == TOOLGOV_ARG_ARRAY && !s->items)
            return fail(k, "an array node has no items schema");
        if (stored && (s->item_size == 0 || s->item_size < stored_size(s->items)))
            return fail(k, "item_size is smaller than one stored item");
        old = path_push(k, "items", 5);
        ok = node_ok(k, s->items, edges + 1, depth, stored);
        path_pop(k, old);
        if (!ok)
            return 0;
    }
    if ((s->kind == TOOLGOV_ARG_OBJECT || s->kind == TOOLGOV_ARG_RAW) &&
        !fields_ok(k, s, edges, depth, stored))
        return 0;
    for (i = 0; i < s->alt_count; i++) {
        char seg[32];

        snprintf(seg, sizeof seg, "anyOf/%zu", i);
        old = path_push(k, seg, strlen(seg));
        ok = node_ok(k, &s->alts[i], edges + 1, depth, 0);
        path_pop(k, old);
        if (!ok)
            return 0;
    }
    return 1;
}

/* ---- the schema text against the tree ---- */

static long get(const toolgov__json_doc *d, long obj, const char *key)
{
    if (obj < 0 || d->nodes[obj].type != TOOLGOV__JSON_OBJECT)
        return -1;
    return toolgov__json_get(d, (size_t)obj, key, strlen(key));
}

static int type_is(const toolgov__json_doc *d, long obj, const char *type)
{
    long t = get(d, obj, "type");

    return t >= 0 && toolgov__json_str_eq(&d->nodes[t], type, strlen(type));
}

static int count_of(const toolgov__json_doc *d, long i)
{
    return i >= 0 && (d->nodes[i].type == TOOLGOV__JSON_ARRAY ||
                      d->nodes[i].type == TOOLGOV__JSON_OBJECT)
               ? (int)d->nodes[i].len
               : -1;
}

/* 1 when array node arr holds the string s. */
static int lists(const toolgov__json_doc *d, long arr, const char *s, size_t n)
{
    size_t i;

    if (arr < 0 || d->nodes[arr].type != TOOLGOV__JSON_ARRAY)
        return 0;
    for (i = (size_t)arr + 1; i < d->nodes[arr].end; i = d->nodes[i].end)
        if (toolgov__json_str_eq(&d->nodes[i], s, n))
            return 1;
    return 0;
}

static int text_ok(chk *k, const toolgov__json_doc *d, long at, const toolgov_arg_schema *s,
                   unsigned edges)
{
    static const char *const types[] = {NULL,     "string", "integer", "number", "boolean",
                                        "string", "integer", "array",  "object"};
    size_t i, old;

    if (k->failed || edges > MAX_EDGES)
        return 0;
    if (at < 0 || d->nodes[at].type != TOOLGOV__JSON_OBJECT)
        return fail(k, "schema_json has no schema object for this value");
    if (s->kind == TOOLGOV_ARG_RAW)
        return 1; /* kept verbatim: the decoder validates it as written */
    if (!type_is(d, at, types[s->kind]))
        return fail(k, "schema_json gives this value another type than the table");
    if (s->kind == TOOLGOV_ARG_STRING_ENUM &&
        count_of(d, get(d, at, "enum")) != (int)s->str_enum_count)
        return fail(k, "schema_json's enum differs from the table's");
    if (s->kind == TOOLGOV_ARG_INTEGER_ENUM &&
        count_of(d, get(d, at, "enum")) != (int)s->int_enum_count)
        return fail(k, "schema_json's enum differs from the table's");
    if (s->kind == TOOLGOV_ARG_ARRAY) {
        int ok;

        old = path_push(k, "items", 5);
        ok = text_ok(k, d, get(d, at, "items"), s->items, edges + 1);
        path_pop(k, old);
        return ok;
    }
    if (s->kind == TOOLGOV_ARG_OBJECT) {
        long props = get(d, at, "properties"), req = get(d, at, "required");
        long addl = get(d, at, "additionalProperties");
        int closed = addl >= 0 && d->nodes[addl].type == TOOLGOV__JSON_FALSE;
        int nprops = count_of(d, props);

        if ((nprops < 0 ? 0 : nprops) != (int)s->field_count)
            return fail(k, "schema_json declares other properties than the table");
        if (closed != ((s->flags & TOOLGOV_ARG_F_CLOSED) != 0))
            return fail(k, "schema_json's additionalProperties differs from the table's");
        if (count_of(d, req) > (int)s->field_count)
            return fail(k, "schema_json requires other properties than the table");
        for (i = 0; i < s->field_count; i++) {
            const toolgov_arg_field *f = &s->fields[i];
            long v = toolgov__json_get(d, (size_t)props, f->name, f->name_len);
            int ok;

            old = path_push(k, f->name, f->name_len);
            if (v < 0) {
                fail(k, "schema_json does not declare this property");
                path_pop(k, old);
                return 0;
            }
            if (lists(d, req, f->name, f->name_len) != f->required) {
                fail(k, "schema_json's required differs from the table's");
                path_pop(k, old);
                return 0;
            }
            ok = text_ok(k, d, v, f->schema, edges + 1);
            path_pop(k, old);
            if (!ok)
                return 0;
        }
    }
    return 1;
}

int toolgov__args_table_check(const toolgov_allocator *a, const toolgov_arg_schema *root,
                              const char *schema_json, char *why, size_t whysize)
{
    toolgov__scratch arena;
    toolgov__json_doc doc;
    toolgov__json_error err;
    chk k;
    int rc;

    memset(&k, 0, sizeof k);
    k.why = why;
    k.whysize = whysize;
    if (root && root->kind != TOOLGOV_ARG_OBJECT) {
        fail(&k, "the root node is not an OBJECT");
        return TOOLGOV_EINVAL;
    }
    if (root && !node_ok(&k, root, 0, 0, 1))
        return TOOLGOV_EINVAL;
    if (!schema_json) {
        if (!root)
            return 0;
        snprintf(why, whysize, "its schema_json is NULL but it has parameters (every export "
                               "would advertise no arguments)");
        return TOOLGOV_EINVAL;
    }
    toolgov__scratch_init(&arena, a);
    rc = toolgov__json_parse(&doc, &err, &arena, schema_json, strlen(schema_json),
                             TOOLGOV__JSON_MAX_DEPTH, TOOLGOV__JSON_MAX_LEN, 0);
    if (rc == TOOLGOV_EINVAL) {
        snprintf(why, whysize, "its schema_json is not strict JSON: %s at byte %zu", err.msg,
                 err.pos);
    } else if (rc == 0) {
        if (root) {
            if (!text_ok(&k, &doc, 0, root, 0))
                rc = TOOLGOV_EINVAL;
        } else if (doc.nodes[0].type != TOOLGOV__JSON_OBJECT ||
                   count_of(&doc, get(&doc, 0, "properties")) > 0) {
            snprintf(why, whysize, "its schema_json declares arguments but the spec has no "
                                   "parameters (the decoder would refuse every one)");
            rc = TOOLGOV_EINVAL;
        }
    }
    toolgov__scratch_free(&arena);
    return rc;
}
