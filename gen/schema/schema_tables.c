/* SPDX-License-Identifier: MIT */
/*
** schema_tables.c: a compiled schema (schema.h) as the runtime's descriptor
** tables (toolgov/args.h), built in memory, and the canonical JSON text of a
** value under a schema (SPEC section 9), which the tables carry for defaults.
**
** The in-memory tables lay out the argument struct exactly as the generated
** C declares it (properties in schema order, each at its natural alignment,
** then the `has` struct of presence flags), so tests and fuzzers can decode
** into a buffer of struct_size bytes with random schemas and no compiler.
** Generated code takes its offsets from offsetof() instead; the layout rule
** is the same (tests/gen/test_schema.c compares both on the SPEC example).
*/
#include "schema/schema_tables.h"

#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/args.h>

/* ---- canonical values ---------------------------------------------------- */

static int member_cmp(const void *a, const void *b)
{
    const toolgov__jmember *x = *(const toolgov__jmember *const *)a;
    const toolgov__jmember *y = *(const toolgov__jmember *const *)b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    if (c)
        return c;
    return x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

/* Members of v in byte order of their keys, skipping those `skip` says are
** declared; written as ,"k":value with raw canonical values. */
static void put_value(toolgov__buf *b, const toolgov__snode *n, const toolgov__jval *v);

static void put_sorted_members(toolgov__buf *b, const toolgov__jval *v, const toolgov__snode *declared,
                               int first)
{
    const toolgov__jmember **order;
    size_t i, k = 0;
    if (!v->count)
        return;
    order = malloc(v->count * sizeof(const toolgov__jmember *));
    if (!order) {
        b->oom = 1;
        return;
    }
    for (i = 0; i < v->count; i++) {
        size_t j;
        int known = 0;
        for (j = 0; declared && j < declared->prop_count; j++)
            if (declared->props[j].name_len == v->members[i].key_len &&
                !memcmp(declared->props[j].name, v->members[i].key, v->members[i].key_len))
                known = 1;
        if (!known)
            order[k++] = &v->members[i];
    }
    qsort(order, k, sizeof(const toolgov__jmember *), member_cmp);
    for (i = 0; i < k; i++) {
        if (!first)
            toolgov__buf_put(b, ",", 1);
        first = 0;
        toolgov__buf_json_str(b, order[i]->key, order[i]->key_len);
        toolgov__buf_put(b, ":", 1);
        put_value(b, NULL, order[i]->val);
    }
    free(order);
}

static void put_value(toolgov__buf *b, const toolgov__snode *n, const toolgov__jval *v)
{
    size_t i;
    int typed = n && n->type != TOOLGOV_S_RAW;
    switch (v->kind) {
    case TOOLGOV_J_NULL:
        toolgov__buf_put(b, "null", 4);
        return;
    case TOOLGOV_J_BOOL:
        if (v->boolean)
            toolgov__buf_put(b, "true", 4);
        else
            toolgov__buf_put(b, "false", 5);
        return;
    case TOOLGOV_J_STRING:
        toolgov__buf_json_str(b, v->text, v->len);
        return;
    case TOOLGOV_J_NUMBER:
        if (typed && n->type == TOOLGOV_S_INTEGER) {
            int64_t x;
            if (toolgov__jtext_int64(v->text, v->len, &x)) {
                toolgov__buf_json_int(b, x);
                return;
            }
        } else if (typed && n->type == TOOLGOV_S_NUMBER) {
            toolgov__buf_json_double(b, toolgov__jtext_double(v->text, v->len));
            return;
        }
        toolgov__buf_put(b, v->text, v->len);
        return;
    case TOOLGOV_J_ARRAY:
        toolgov__buf_put(b, "[", 1);
        for (i = 0; i < v->count; i++) {
            if (i)
                toolgov__buf_put(b, ",", 1);
            put_value(b, typed && n->type == TOOLGOV_S_ARRAY ? n->items : NULL, v->items[i]);
        }
        toolgov__buf_put(b, "]", 1);
        return;
    default:
        break;
    }
    toolgov__buf_put(b, "{", 1);
    if (typed && n->type == TOOLGOV_S_OBJECT) {
        int first = 1;
        for (i = 0; i < n->prop_count; i++) {
            const toolgov__sprop *p = &n->props[i];
            const toolgov__jmember *m = toolgov__jv_find(v, p->name, p->name_len);
            const toolgov__jval *pv = m ? m->val : p->schema->default_val;
            if (!pv)
                continue;
            if (!first)
                toolgov__buf_put(b, ",", 1);
            first = 0;
            toolgov__buf_json_str(b, p->name, p->name_len);
            toolgov__buf_put(b, ":", 1);
            put_value(b, p->schema, pv);
        }
        put_sorted_members(b, v, n, first);
    } else {
        put_sorted_members(b, v, NULL, 1);
    }
    toolgov__buf_put(b, "}", 1);
}

int toolgov__schema_canonical_value(toolgov__schema_ctx *cx, const toolgov__snode *n,
                                    const toolgov__jval *v, const char **out, size_t *out_len)
{
    toolgov__buf b;
    const char *text;
    toolgov__buf_init(&b);
    put_value(&b, n, v);
    text = toolgov__buf_to_arena(cx, &b, out_len);
    if (!text)
        return -1;
    *out = text;
    return 0;
}

/* ---- layout -------------------------------------------------------------- */

typedef struct layout {
    size_t size, align;
} layout;

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

int toolgov__schema_has_flag(const toolgov__sprop *p)
{
    return !p->required && !p->schema->default_val;
}

static layout object_layout(const toolgov__snode *n, size_t *offsets, size_t *has_offsets);

/* How a typed node is stored in its parent struct. */
static layout storage(const toolgov__snode *n)
{
    layout l;
    switch (n->type) {
    case TOOLGOV_S_STRING:
        if (n->enum_vals) {
            l.size = sizeof(int);
            l.align = alignof(int);
        } else {
            l.size = sizeof(toolgov_str);
            l.align = alignof(toolgov_str);
        }
        return l;
    case TOOLGOV_S_INTEGER:
        l.size = sizeof(int64_t);
        l.align = alignof(int64_t);
        return l;
    case TOOLGOV_S_NUMBER:
        l.size = sizeof(double);
        l.align = alignof(double);
        return l;
    case TOOLGOV_S_BOOLEAN:
        l.size = sizeof(bool);
        l.align = alignof(bool);
        return l;
    case TOOLGOV_S_ARRAY:
        l.size = sizeof(toolgov_array);
        l.align = alignof(toolgov_array);
        return l;
    case TOOLGOV_S_OBJECT:
        return object_layout(n, NULL, NULL);
    default:
        l.size = sizeof(toolgov_str);
        l.align = alignof(toolgov_str);
        return l;
    }
}

/* The generated struct: each property in order, then `struct { bool ...; }
** has` when some property has a presence flag; `char unused_` when the
** struct would otherwise be empty. */
static layout object_layout(const toolgov__snode *n, size_t *offsets, size_t *has_offsets)
{
    layout r;
    size_t off = 0, i, flags = 0;
    r.align = 1;
    for (i = 0; i < n->prop_count; i++) {
        layout m = storage(n->props[i].schema);
        off = align_up(off, m.align);
        if (offsets)
            offsets[i] = off;
        off += m.size;
        if (m.align > r.align)
            r.align = m.align;
    }
    for (i = 0; i < n->prop_count; i++) {
        if (!toolgov__schema_has_flag(&n->props[i])) {
            if (has_offsets)
                has_offsets[i] = TOOLGOV_ARG_NO_HAS;
            continue;
        }
        off = align_up(off, alignof(bool));
        if (has_offsets)
            has_offsets[i] = off;
        off += sizeof(bool);
        flags++;
    }
    if (n->prop_count == 0 && flags == 0)
        off = 1; /* char unused_ */
    if (alignof(bool) > r.align)
        r.align = alignof(bool);
    r.size = align_up(off, r.align);
    return r;
}

/* ---- descriptor tables ---------------------------------------------------- */

static toolgov_arg_format arg_format(toolgov__sformat f)
{
    switch (f) {
    case TOOLGOV_F_DATE:
        return TOOLGOV_FORMAT_DATE;
    case TOOLGOV_F_TIME:
        return TOOLGOV_FORMAT_TIME;
    case TOOLGOV_F_DATE_TIME:
        return TOOLGOV_FORMAT_DATE_TIME;
    case TOOLGOV_F_EMAIL:
        return TOOLGOV_FORMAT_EMAIL;
    case TOOLGOV_F_URI:
        return TOOLGOV_FORMAT_URI;
    default:
        return TOOLGOV_FORMAT_NONE;
    }
}

/* Integer bounds: every bound the node gives, tightened to the int64
** values it admits (minimum 0.5 is 1, exclusiveMinimum 3 is 4). */

/* What one bound leaves of int64: 1 with the least (is_min) or greatest
** admitted value in *v, 0 when it admits none, -1 when it limits none. */
static int int_side(const toolgov__sbound *b, int excl, int is_min, int64_t *v)
{
    if (!b->given)
        return -1;
    if (b->is_int) {
        if (excl && b->i == (is_min ? INT64_MAX : INT64_MIN))
            return 0;
        *v = excl ? (is_min ? b->i + 1 : b->i - 1) : b->i;
        return 1;
    }
    /* Not an exact int64: beyond the range, or not an integer (and then
    ** within 2^53, where a double holds every integer exactly). */
    if (b->d >= 9.2233720368547758e18)
        return is_min ? 0 : -1;
    if (b->d <= -9.2233720368547758e18)
        return is_min ? -1 : 0;
    *v = (int64_t)b->d; /* toward zero, then up (is_min) or down to an integer */
    if (is_min && (double)*v < b->d)
        (*v)++;
    else if (!is_min && (double)*v > b->d)
        (*v)--;
    return 1;
}

/* One side, its inclusive and exclusive bound together: as int_side. With
** `written_ints`, a side with a bound not written as an integer counts as
** unlimited (-1). */
static int int_range_side(const toolgov__sbound *incl, const toolgov__sbound *excl, int is_min,
                          int written_ints, int64_t *v)
{
    int64_t a = 0, b = 0;
    int ra, rb;
    if (written_ints && ((incl->given && !incl->is_int) || (excl->given && !excl->is_int)))
        return -1;
    ra = int_side(incl, 0, is_min, &a);
    rb = int_side(excl, 1, is_min, &b);
    if (ra == 0 || rb == 0)
        return 0;
    if (ra < 0 && rb < 0)
        return -1;
    *v = ra < 0 ? b : rb < 0 ? a : is_min ? (a > b ? a : b) : (a < b ? a : b);
    return 1;
}

int toolgov__schema_int_bounds(const toolgov__snode *n, int *has_min, int64_t *min,
                               int *has_max, int64_t *max)
{
    const toolgov__slimits *l = n->lim;
    int rmin = int_range_side(&l->minimum, &l->exclusive_minimum, 1, 0, min);
    int rmax = int_range_side(&l->maximum, &l->exclusive_maximum, 0, 0, max);
    *has_min = rmin > 0;
    *has_max = rmax > 0;
    if (!*has_min)
        *min = 0;
    if (!*has_max)
        *max = 0;
    return rmin != 0 && rmax != 0 && !(*has_min && *has_max && *min > *max);
}

/* Number bounds: the tighter of the inclusive and the exclusive one. */
void toolgov__schema_num_bounds(const toolgov__snode *n, unsigned *flags, double *min,
                                double *max)
{
    *min = *max = 0;
    if (n->lim->minimum.given) {
        *flags |= TOOLGOV_ARG_F_HAS_MIN;
        *min = n->lim->minimum.d;
    }
    if (n->lim->exclusive_minimum.given &&
        (!n->lim->minimum.given || n->lim->exclusive_minimum.d >= n->lim->minimum.d)) {
        *flags |= TOOLGOV_ARG_F_HAS_MIN | TOOLGOV_ARG_F_EXCL_MIN;
        *min = n->lim->exclusive_minimum.d;
    }
    if (n->lim->maximum.given) {
        *flags |= TOOLGOV_ARG_F_HAS_MAX;
        *max = n->lim->maximum.d;
    }
    if (n->lim->exclusive_maximum.given &&
        (!n->lim->maximum.given || n->lim->exclusive_maximum.d <= n->lim->maximum.d)) {
        *flags |= TOOLGOV_ARG_F_HAS_MAX | TOOLGOV_ARG_F_EXCL_MAX;
        *max = n->lim->exclusive_maximum.d;
    }
}

typedef struct tb {
    toolgov__schema_ctx *cx;
    int oom;
} tb;

static void *talloc(tb *t, size_t n)
{
    void *p = toolgov__arena_alloc(t->cx->arena, n ? n : 1);
    if (!p)
        t->oom = 1;
    else
        memset(p, 0, n ? n : 1);
    return p;
}

static void fill(tb *t, toolgov_arg_schema *o, const toolgov__snode *n, int validate_only);

static void fill_fields(tb *t, toolgov_arg_schema *o, const toolgov__snode *n, int validate_only)
{
    toolgov_arg_field *f;
    size_t *offs, *hoffs, i;
    toolgov_arg_schema *nodes;
    layout l;
    if (!n->prop_count && validate_only)
        return;
    f = talloc(t, n->prop_count * sizeof *f);
    nodes = talloc(t, n->prop_count * sizeof *nodes);
    offs = talloc(t, (n->prop_count + 1) * sizeof *offs);
    hoffs = talloc(t, (n->prop_count + 1) * sizeof *hoffs);
    if (t->oom)
        return;
    l = object_layout(n, offs, hoffs);
    for (i = 0; i < n->prop_count; i++) {
        const toolgov__sprop *p = &n->props[i];
        fill(t, &nodes[i], p->schema, validate_only);
        f[i].name = p->name;
        f[i].name_len = p->name_len;
        f[i].schema = &nodes[i];
        f[i].offset = validate_only ? 0 : offs[i];
        f[i].has_offset = validate_only ? TOOLGOV_ARG_NO_HAS : hoffs[i];
        f[i].required = p->required;
        f[i].default_json = NULL;
        if (p->schema->default_val) {
            const char *txt;
            size_t len;
            if (toolgov__schema_canonical_value(t->cx, p->schema, p->schema->default_val, &txt,
                                                &len))
                t->oom = 1;
            else
                f[i].default_json = txt;
        }
    }
    o->fields = f;
    o->field_count = n->prop_count;
    o->struct_size = validate_only ? 0 : l.size;
}

static void fill_enum(tb *t, toolgov_arg_schema *o, const toolgov__snode *n)
{
    size_t i, ns = 0, ni = 0;
    const char **s;
    int64_t *iv;
    if (!n->enum_vals)
        return;
    s = talloc(t, n->enum_vals->count * sizeof *s);
    iv = talloc(t, n->enum_vals->count * sizeof *iv);
    if (t->oom)
        return;
    for (i = 0; i < n->enum_vals->count; i++) {
        const toolgov__jval *e = n->enum_vals->items[i];
        if (e->kind == TOOLGOV_J_STRING)
            s[ns++] = e->text;
        else if (e->kind == TOOLGOV_J_NUMBER && toolgov__jtext_int64(e->text, e->len, &iv[ni]))
            ni++;
        else if (e->kind == TOOLGOV_J_NULL)
            o->flags |= TOOLGOV_ARG_F_ENUM_NULL;
    }
    o->str_enum = ns ? s : NULL;
    o->str_enum_count = ns;
    o->int_enum = ni ? iv : NULL;
    o->int_enum_count = ni;
}

static void fill(tb *t, toolgov_arg_schema *o, const toolgov__snode *n, int validate_only)
{
    memset(o, 0, sizeof *o);
    o->max_len = TOOLGOV_ARG_UNBOUNDED;
    o->max_items = TOOLGOV_ARG_UNBOUNDED;
    o->min_len = n->lim->min_length.given ? (size_t)n->lim->min_length.v : 0;
    if (n->lim->max_length.given)
        o->max_len = n->lim->max_length.v >= (uint64_t)TOOLGOV_ARG_UNBOUNDED
                         ? TOOLGOV_ARG_UNBOUNDED - 1
                         : (size_t)n->lim->max_length.v;
    o->format = arg_format(n->format);
    o->min_items = n->lim->min_items.given ? (size_t)n->lim->min_items.v : 0;
    if (n->lim->max_items.given)
        o->max_items = n->lim->max_items.v >= (uint64_t)TOOLGOV_ARG_UNBOUNDED
                           ? TOOLGOV_ARG_UNBOUNDED - 1
                           : (size_t)n->lim->max_items.v;
    switch (n->type) {
    case TOOLGOV_S_STRING:
        o->kind = n->enum_vals ? TOOLGOV_ARG_STRING_ENUM : TOOLGOV_ARG_STRING;
        if (n->allow_nul)
            o->flags |= TOOLGOV_ARG_F_ALLOW_NUL;
        fill_enum(t, o, n);
        return;
    case TOOLGOV_S_INTEGER: {
        int hmin, hmax;
        o->kind = n->enum_vals ? TOOLGOV_ARG_INTEGER_ENUM : TOOLGOV_ARG_INTEGER;
        toolgov__schema_int_bounds(n, &hmin, &o->int_min, &hmax, &o->int_max);
        o->flags |= (hmin ? TOOLGOV_ARG_F_HAS_MIN : 0u) | (hmax ? TOOLGOV_ARG_F_HAS_MAX : 0u);
        fill_enum(t, o, n);
        return;
    }
    case TOOLGOV_S_NUMBER:
        o->kind = TOOLGOV_ARG_NUMBER;
        toolgov__schema_num_bounds(n, &o->flags, &o->num_min, &o->num_max);
        fill_enum(t, o, n); /* integers only (what zod writes for a numeric enum) */
        return;
    case TOOLGOV_S_BOOLEAN:
        o->kind = TOOLGOV_ARG_BOOLEAN;
        return;
    case TOOLGOV_S_ARRAY: {
        toolgov_arg_schema *it = talloc(t, sizeof *it);
        o->kind = TOOLGOV_ARG_ARRAY;
        if (!it)
            return;
        fill(t, it, n->items, validate_only);
        o->items = it;
        o->item_size = validate_only ? 0 : storage(n->items).size;
        return;
    }
    case TOOLGOV_S_OBJECT:
        o->kind = TOOLGOV_ARG_OBJECT;
        if (!n->additional)
            o->flags |= TOOLGOV_ARG_F_CLOSED;
        fill_fields(t, o, n, validate_only);
        return;
    default:
        break;
    }
    /* Raw: every keyword applies to the instance types it concerns; what
    ** sits under it is validated only. */
    o->kind = TOOLGOV_ARG_RAW;
    o->types = n->types;
    toolgov__schema_num_bounds(n, &o->flags, &o->num_min, &o->num_max);
    /* Exact bounds for integer instances where every bound of a side is
    ** written as an integer that leaves some int64; the double ones else. */
    if (int_range_side(&n->lim->minimum, &n->lim->exclusive_minimum, 1, 1, &o->int_min) > 0)
        o->flags |= TOOLGOV_ARG_F_INT_MIN;
    if (int_range_side(&n->lim->maximum, &n->lim->exclusive_maximum, 0, 1, &o->int_max) > 0)
        o->flags |= TOOLGOV_ARG_F_INT_MAX;
    if (n->enum_vals) {
        o->flags |= TOOLGOV_ARG_F_HAS_ENUM;
        fill_enum(t, o, n);
    }
    if (!n->additional)
        o->flags |= TOOLGOV_ARG_F_CLOSED;
    if (n->items && !n->items->synth) {
        toolgov_arg_schema *it = talloc(t, sizeof *it);
        if (!it)
            return;
        fill(t, it, n->items, 1);
        o->items = it;
    }
    fill_fields(t, o, n, 1);
    if (n->any_of_count || n->one_of_count) {
        size_t i, c = n->any_of_count ? n->any_of_count : n->one_of_count;
        toolgov__snode *const *alts = n->any_of_count ? n->any_of : n->one_of;
        toolgov_arg_schema *a = talloc(t, c * sizeof *a);
        if (!a)
            return;
        for (i = 0; i < c; i++)
            fill(t, &a[i], alts[i], 1);
        o->alts = a;
        o->alt_count = c;
        if (n->one_of_count)
            o->flags |= TOOLGOV_ARG_F_ONE_OF;
    }
}

int toolgov__schema_tables(toolgov__schema_ctx *cx, const toolgov__snode *root,
                           const toolgov_arg_schema **out)
{
    tb t;
    toolgov_arg_schema *o;
    t.cx = cx;
    t.oom = 0;
    *out = NULL;
    o = talloc(&t, sizeof *o);
    if (o)
        fill(&t, o, root, 0);
    if (t.oom) {
        cx->oom = 1;
        return -1;
    }
    *out = o;
    return 0;
}
