/* SPDX-License-Identifier: MIT */
/*
** schema_c.c: a tool's compiled parameters as C (docs/generated-code.md):
** the argument struct, its nested structs and string enums for the header,
** and the const descriptor tables of toolgov/args.h for the C file.
**
** Names. Every generated name starts with the plugin's name and a
** capitalised kind word: <plugin>_Args_<tool> (the struct),
** <plugin>_Args_<tool>_<prop>... (nested structs; "_item" steps into array
** items), <plugin>_Enum_<tool>_<prop>... (string enums) with constants
** <enum>_<value>. Plugin and tool names are lowercase, so the first capital
** ends the plugin's part and no two plugins can produce the same name; the
** loader checks that the names of one plugin do not clash among themselves
** (toolgov__schema_c_names). Table objects in the C file are static and use
** kind words of their own (Node, Fields, Strs, Ints, Alts, Params, Text).
**
** The tables take every offset and size from offsetof() and sizeof() on the
** generated types, so the layout is the compiler's; nodes under a raw value
** are validated only and carry no offsets. Members of each node are written
** positionally in args.h's order.
*/
#include "schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_c.h"

#define PUTS(b, s) toolgov__buf_put((b), (s), strlen(s))

/* ---- names --------------------------------------------------------------- */

/* The path suffix of a typed node below the root: "_prop", "_prop_item". */
typedef struct path {
    char *s;
    size_t len;
} path;

static int path_push(path *p, const char *part, size_t *old)
{
    size_t n = strlen(part);
    char *ns = realloc(p->s, p->len + n + 2);
    if (!ns)
        return -1;
    p->s = ns;
    *old = p->len;
    p->s[p->len] = '_';
    memcpy(p->s + p->len + 1, part, n + 1);
    p->len += n + 1;
    return 0;
}

static void path_pop(path *p, size_t old)
{
    p->len = old;
    if (p->s)
        p->s[old] = '\0';
}

static const char *ps(const path *p)
{
    return p->s ? p->s : "";
}

/* ---- the header: types ----------------------------------------------------- */

typedef struct tctx {
    toolgov__buf *b;
    const char *plugin, *tool;
    path p;
    int oom;
} tctx;

static void member_type(tctx *t, const toolgov__snode *n)
{
    switch (n->type) {
    case TOOLGOV_S_STRING:
        if (n->enum_vals)
            toolgov__buf_printf(t->b, "%s_Enum_%s%s", t->plugin, t->tool, ps(&t->p));
        else
            PUTS(t->b, "toolgov_str");
        return;
    case TOOLGOV_S_INTEGER:
        PUTS(t->b, "int64_t");
        return;
    case TOOLGOV_S_NUMBER:
        PUTS(t->b, "double");
        return;
    case TOOLGOV_S_BOOLEAN:
        PUTS(t->b, "bool");
        return;
    case TOOLGOV_S_OBJECT:
        toolgov__buf_printf(t->b, "%s_Args_%s%s", t->plugin, t->tool, ps(&t->p));
        return;
    case TOOLGOV_S_ARRAY: {
        size_t old;
        if (path_push(&t->p, "item", &old)) {
            t->oom = 1;
            return;
        }
        PUTS(t->b, "struct { const ");
        if (n->items->type == TOOLGOV_S_ARRAY)
            PUTS(t->b, "toolgov_array");
        else
            member_type(t, n->items);
        PUTS(t->b, " *items; size_t count; }");
        path_pop(&t->p, old);
        return;
    }
    default:
        PUTS(t->b, "toolgov_str");
        return;
    }
}

static void types_of(tctx *t, const toolgov__snode *n);

static void struct_of(tctx *t, const toolgov__snode *n)
{
    size_t i, flags = 0, old;
    for (i = 0; i < n->prop_count; i++) {
        if (path_push(&t->p, n->props[i].c_name, &old)) {
            t->oom = 1;
            return;
        }
        types_of(t, n->props[i].schema);
        path_pop(&t->p, old);
    }
    toolgov__buf_printf(t->b, "typedef struct %s_Args_%s%s {\n", t->plugin, t->tool, ps(&t->p));
    for (i = 0; i < n->prop_count; i++) {
        const toolgov__sprop *pr = &n->props[i];
        if (path_push(&t->p, pr->c_name, &old)) {
            t->oom = 1;
            return;
        }
        PUTS(t->b, "    ");
        member_type(t, pr->schema);
        toolgov__buf_printf(t->b, " %s;%s\n", pr->c_name,
                            pr->schema->type == TOOLGOV_S_RAW ? " /* JSON text */" : "");
        path_pop(&t->p, old);
        flags += toolgov__schema_has_flag(pr) != 0;
    }
    if (flags) {
        PUTS(t->b, "    struct {\n");
        for (i = 0; i < n->prop_count; i++)
            if (toolgov__schema_has_flag(&n->props[i]))
                toolgov__buf_printf(t->b, "        bool %s;\n", n->props[i].c_name);
        PUTS(t->b, "    } has; /* which optional properties the call gave */\n");
    }
    if (!n->prop_count && !flags)
        PUTS(t->b, "    char unused_; /* no declared properties */\n");
    toolgov__buf_printf(t->b, "} %s_Args_%s%s;\n\n", t->plugin, t->tool, ps(&t->p));
}

static void enum_of(tctx *t, const toolgov__snode *n)
{
    size_t i;
    toolgov__buf_printf(t->b, "typedef enum %s_Enum_%s%s {\n", t->plugin, t->tool, ps(&t->p));
    for (i = 0; i < n->enum_vals->count; i++)
        toolgov__buf_printf(t->b, "    %s_Enum_%s%s_%s = %zu%s\n", t->plugin, t->tool, ps(&t->p),
                            n->enum_c_names[i], i, i + 1 < n->enum_vals->count ? "," : "");
    toolgov__buf_printf(t->b, "} %s_Enum_%s%s;\n\n", t->plugin, t->tool, ps(&t->p));
}

static void types_of(tctx *t, const toolgov__snode *n)
{
    size_t old;
    switch (n->type) {
    case TOOLGOV_S_STRING:
        if (n->enum_vals)
            enum_of(t, n);
        return;
    case TOOLGOV_S_OBJECT:
        struct_of(t, n);
        return;
    case TOOLGOV_S_ARRAY:
        if (path_push(&t->p, "item", &old)) {
            t->oom = 1;
            return;
        }
        types_of(t, n->items);
        path_pop(&t->p, old);
        return;
    default:
        return;
    }
}

int toolgov__schema_c_types(toolgov__buf *b, const char *plugin, const char *tool,
                            const toolgov__snode *root)
{
    tctx t;
    memset(&t, 0, sizeof t);
    t.b = b;
    t.plugin = plugin;
    t.tool = tool;
    if (!root) {
        toolgov__buf_printf(b, "typedef toolgov_no_args %s_Args_%s;\n\n", plugin, tool);
        return 0;
    }
    types_of(&t, root);
    free(t.p.s);
    return t.oom || b->oom ? -1 : 0;
}

/* ---- the C file: tables ------------------------------------------------------ */

typedef struct gctx {
    toolgov__buf *b;
    toolgov__schema_ctx *cx;
    const char *plugin, *tool;
    path p;
    unsigned next_id;
    int oom;
} gctx;

/* What a node's initializer refers to, emitted before it. */
typedef struct deps {
    unsigned items, fields, strs, ints, alts; /* 0: none */
} deps;

static void put_size(gctx *g, size_t v, int max)
{
    if (max && v == TOOLGOV_ARG_UNBOUNDED)
        PUTS(g->b, "TOOLGOV_ARG_UNBOUNDED");
    else if (v <= 0xFFFFFFFFu)
        toolgov__buf_printf(g->b, "%zu", v);
    else
        toolgov__buf_printf(g->b, "(size_t)%zuu", v);
}

static void put_i64(gctx *g, int64_t v)
{
    if (v == INT64_MIN)
        PUTS(g->b, "INT64_MIN");
    else if (v >= -2147483647 && v <= 2147483647)
        toolgov__buf_printf(g->b, "%lld", (long long)v);
    else
        toolgov__buf_printf(g->b, "INT64_C(%lld)", (long long)v);
}

static void put_dbl(gctx *g, double d)
{
    char t[32];
    toolgov__jtext_put_double(t, d);
    PUTS(g->b, t);
    if (!strpbrk(t, ".e"))
        PUTS(g->b, ".0");
}

static const char *format_name(toolgov_arg_format f)
{
    switch (f) {
    case TOOLGOV_FORMAT_DATE: return "TOOLGOV_FORMAT_DATE";
    case TOOLGOV_FORMAT_TIME: return "TOOLGOV_FORMAT_TIME";
    case TOOLGOV_FORMAT_DATE_TIME: return "TOOLGOV_FORMAT_DATE_TIME";
    case TOOLGOV_FORMAT_EMAIL: return "TOOLGOV_FORMAT_EMAIL";
    case TOOLGOV_FORMAT_URI: return "TOOLGOV_FORMAT_URI";
    default: return "TOOLGOV_FORMAT_NONE";
    }
}

static const char *kind_name(toolgov_arg_kind k)
{
    switch (k) {
    case TOOLGOV_ARG_STRING: return "TOOLGOV_ARG_STRING";
    case TOOLGOV_ARG_INTEGER: return "TOOLGOV_ARG_INTEGER";
    case TOOLGOV_ARG_NUMBER: return "TOOLGOV_ARG_NUMBER";
    case TOOLGOV_ARG_BOOLEAN: return "TOOLGOV_ARG_BOOLEAN";
    case TOOLGOV_ARG_STRING_ENUM: return "TOOLGOV_ARG_STRING_ENUM";
    case TOOLGOV_ARG_INTEGER_ENUM: return "TOOLGOV_ARG_INTEGER_ENUM";
    case TOOLGOV_ARG_ARRAY: return "TOOLGOV_ARG_ARRAY";
    case TOOLGOV_ARG_OBJECT: return "TOOLGOV_ARG_OBJECT";
    default: return "TOOLGOV_ARG_RAW";
    }
}

static void put_flags(gctx *g, unsigned f)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{TOOLGOV_ARG_F_HAS_MIN, "TOOLGOV_ARG_F_HAS_MIN"},
                 {TOOLGOV_ARG_F_HAS_MAX, "TOOLGOV_ARG_F_HAS_MAX"},
                 {TOOLGOV_ARG_F_EXCL_MIN, "TOOLGOV_ARG_F_EXCL_MIN"},
                 {TOOLGOV_ARG_F_EXCL_MAX, "TOOLGOV_ARG_F_EXCL_MAX"},
                 {TOOLGOV_ARG_F_CLOSED, "TOOLGOV_ARG_F_CLOSED"},
                 {TOOLGOV_ARG_F_ONE_OF, "TOOLGOV_ARG_F_ONE_OF"},
                 {TOOLGOV_ARG_F_ENUM_NULL, "TOOLGOV_ARG_F_ENUM_NULL"},
                 {TOOLGOV_ARG_F_HAS_ENUM, "TOOLGOV_ARG_F_HAS_ENUM"}};
    size_t i;
    int any = 0;
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        if (!(f & names[i].bit))
            continue;
        PUTS(g->b, any ? " | " : "");
        PUTS(g->b, names[i].name);
        any = 1;
    }
    if (!any)
        PUTS(g->b, "0u");
}

static void put_types(gctx *g, unsigned t)
{
    static const char *const names[] = {"TOOLGOV_JSON_NULL", "TOOLGOV_JSON_BOOLEAN",
                                        "TOOLGOV_JSON_INTEGER", "TOOLGOV_JSON_NUMBER",
                                        "TOOLGOV_JSON_STRING", "TOOLGOV_JSON_ARRAY",
                                        "TOOLGOV_JSON_OBJECT"};
    size_t i;
    int any = 0;
    for (i = 0; i < 7; i++) {
        if (!(t & (1u << i)))
            continue;
        PUTS(g->b, any ? " | " : "");
        PUTS(g->b, names[i]);
        any = 1;
    }
    if (!any)
        PUTS(g->b, "0u");
}

/* A string the tables point to: a literal, or for one longer than C99's
** 4095 bytes, a char array emitted first (returns its id, else 0). */
static unsigned long_string(gctx *g, const char *s, size_t n)
{
    unsigned id;
    if (n <= 4095)
        return 0;
    id = ++g->next_id;
    toolgov__buf_printf(g->b, "static const char %s_Text_%s_%u[] = {", g->plugin, g->tool, id);
    toolgov__buf_char_array(g->b, s, n);
    PUTS(g->b, "\n");
    return id;
}

static void put_string(gctx *g, const char *s, size_t n, unsigned id, const char *indent)
{
    if (id)
        toolgov__buf_printf(g->b, "%s_Text_%s_%u", g->plugin, g->tool, id);
    else
        toolgov__buf_literal(g->b, s, n, indent);
}

static void prepare(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo,
                    deps *d);
static void init(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo,
                 const deps *d);

/* A node as its own static object; returns its id. */
static unsigned define(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo)
{
    deps d;
    unsigned id;
    prepare(g, a, n, vo, &d);
    id = ++g->next_id;
    toolgov__buf_printf(g->b, "static const toolgov_arg_schema %s_Node_%s_%u = ", g->plugin,
                        g->tool, id);
    init(g, a, n, vo, &d);
    PUTS(g->b, ";\n\n");
    return id;
}

static void prepare(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo,
                    deps *d)
{
    size_t i, old;
    memset(d, 0, sizeof *d);
    if (a->items) {
        int push = !vo && n->type == TOOLGOV_S_ARRAY;
        if (push && path_push(&g->p, "item", &old)) {
            g->oom = 1;
            return;
        }
        d->items = define(g, a->items, n->items, vo || n->type != TOOLGOV_S_ARRAY);
        if (push)
            path_pop(&g->p, old);
    }
    if (a->str_enum_count) {
        d->strs = ++g->next_id;
        toolgov__buf_printf(g->b, "static const char *const %s_Strs_%s_%u[] = {\n", g->plugin,
                            g->tool, d->strs);
        for (i = 0; i < a->str_enum_count; i++) {
            PUTS(g->b, "    ");
            toolgov__buf_literal(g->b, a->str_enum[i], strlen(a->str_enum[i]), "    ");
            PUTS(g->b, i + 1 < a->str_enum_count ? ",\n" : "\n");
        }
        PUTS(g->b, "};\n\n");
    }
    if (a->int_enum_count) {
        d->ints = ++g->next_id;
        toolgov__buf_printf(g->b, "static const int64_t %s_Ints_%s_%u[] = {\n    ", g->plugin,
                            g->tool, d->ints);
        for (i = 0; i < a->int_enum_count; i++) {
            put_i64(g, a->int_enum[i]);
            PUTS(g->b, i + 1 < a->int_enum_count ? ", " : "\n");
        }
        PUTS(g->b, "};\n\n");
    }
    if (a->field_count) {
        unsigned *ids = malloc(a->field_count * sizeof *ids);
        unsigned *texts = malloc(a->field_count * sizeof *texts);
        int typed = !vo && n->type == TOOLGOV_S_OBJECT;
        char *stype = NULL;
        if (!ids || !texts) {
            free(ids);
            free(texts);
            g->oom = 1;
            return;
        }
        if (typed) {
            size_t need = strlen(g->plugin) + strlen(g->tool) + g->p.len + 8;
            stype = malloc(need);
            if (!stype) {
                free(ids);
                free(texts);
                g->oom = 1;
                return;
            }
            snprintf(stype, need, "%s_Args_%s%s", g->plugin, g->tool, ps(&g->p));
        }
        for (i = 0; i < a->field_count; i++) {
            const toolgov__sprop *pr = &n->props[i];
            int pushed = 0;
            if (typed) {
                if (path_push(&g->p, pr->c_name, &old)) {
                    g->oom = 1;
                    break;
                }
                pushed = 1;
            }
            ids[i] = define(g, a->fields[i].schema, pr->schema, !typed);
            texts[i] = a->fields[i].default_json
                           ? long_string(g, a->fields[i].default_json,
                                         strlen(a->fields[i].default_json))
                           : 0;
            if (pushed)
                path_pop(&g->p, old);
        }
        d->fields = ++g->next_id;
        toolgov__buf_printf(g->b, "static const toolgov_arg_field %s_Fields_%s_%u[] = {\n",
                            g->plugin, g->tool, d->fields);
        for (i = 0; i < a->field_count && !g->oom; i++) {
            const toolgov_arg_field *f = &a->fields[i];
            const toolgov__sprop *pr = &n->props[i];
            PUTS(g->b, "    { ");
            toolgov__buf_literal(g->b, f->name, f->name_len, "      ");
            toolgov__buf_printf(g->b, ", %zu, &%s_Node_%s_%u,\n      ", f->name_len, g->plugin,
                                g->tool, ids[i]);
            if (typed) {
                toolgov__buf_printf(g->b, "offsetof(%s, %s%s), ", stype, pr->c_name,
                                    pr->schema->type == TOOLGOV_S_ARRAY ? ".items" : "");
                if (toolgov__schema_has_flag(pr))
                    toolgov__buf_printf(g->b, "offsetof(%s, has.%s), ", stype, pr->c_name);
                else
                    PUTS(g->b, "TOOLGOV_ARG_NO_HAS, ");
            } else {
                PUTS(g->b, "0, TOOLGOV_ARG_NO_HAS, ");
            }
            toolgov__buf_printf(g->b, "%d, ", f->required);
            if (f->default_json)
                put_string(g, f->default_json, strlen(f->default_json), texts[i], "      ");
            else
                PUTS(g->b, "NULL");
            PUTS(g->b, i + 1 < a->field_count ? " },\n" : " }\n");
        }
        PUTS(g->b, "};\n\n");
        free(ids);
        free(texts);
        free(stype);
    }
    if (a->alt_count) {
        toolgov__snode *const *alts = n->any_of_count ? n->any_of : n->one_of;
        deps *ad = malloc(a->alt_count * sizeof *ad);
        if (!ad) {
            g->oom = 1;
            return;
        }
        for (i = 0; i < a->alt_count; i++)
            prepare(g, &a->alts[i], alts[i], 1, &ad[i]);
        d->alts = ++g->next_id;
        toolgov__buf_printf(g->b, "static const toolgov_arg_schema %s_Alts_%s_%u[] = {\n    ",
                            g->plugin, g->tool, d->alts);
        for (i = 0; i < a->alt_count; i++) {
            init(g, &a->alts[i], alts[i], 1, &ad[i]);
            PUTS(g->b, i + 1 < a->alt_count ? ",\n    " : "\n");
        }
        PUTS(g->b, "};\n\n");
        free(ad);
    }
}

/* The initializer, members in args.h's order. */
static void init(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo,
                 const deps *d)
{
    const char *p = g->plugin, *t = g->tool;
    PUTS(g->b, "{\n    ");
    PUTS(g->b, kind_name(a->kind));
    PUTS(g->b, ", ");
    put_flags(g, a->flags);
    PUTS(g->b, ", ");
    put_size(g, a->min_len, 0);
    PUTS(g->b, ", ");
    put_size(g, a->max_len, 1);
    PUTS(g->b, ", ");
    PUTS(g->b, format_name(a->format));
    PUTS(g->b, ",\n    ");
    put_i64(g, a->int_min);
    PUTS(g->b, ", ");
    put_i64(g, a->int_max);
    PUTS(g->b, ", ");
    put_dbl(g, a->num_min);
    PUTS(g->b, ", ");
    put_dbl(g, a->num_max);
    PUTS(g->b, ",\n    ");
    if (d->strs)
        toolgov__buf_printf(g->b, "%s_Strs_%s_%u, %zu, ", p, t, d->strs, a->str_enum_count);
    else
        PUTS(g->b, "NULL, 0, ");
    if (d->ints)
        toolgov__buf_printf(g->b, "%s_Ints_%s_%u, %zu,\n    ", p, t, d->ints, a->int_enum_count);
    else
        PUTS(g->b, "NULL, 0,\n    ");
    if (d->items) {
        toolgov__buf_printf(g->b, "&%s_Node_%s_%u, ", p, t, d->items);
        if (vo || n->type != TOOLGOV_S_ARRAY) {
            PUTS(g->b, "0, ");
        } else {
            const toolgov__snode *it = n->items;
            switch (it->type) {
            case TOOLGOV_S_STRING:
                if (it->enum_vals)
                    toolgov__buf_printf(g->b, "sizeof(%s_Enum_%s%s_item), ", p, t, ps(&g->p));
                else
                    PUTS(g->b, "sizeof(toolgov_str), ");
                break;
            case TOOLGOV_S_INTEGER: PUTS(g->b, "sizeof(int64_t), "); break;
            case TOOLGOV_S_NUMBER: PUTS(g->b, "sizeof(double), "); break;
            case TOOLGOV_S_BOOLEAN: PUTS(g->b, "sizeof(bool), "); break;
            case TOOLGOV_S_ARRAY: PUTS(g->b, "sizeof(toolgov_array), "); break;
            case TOOLGOV_S_OBJECT:
                toolgov__buf_printf(g->b, "sizeof(%s_Args_%s%s_item), ", p, t, ps(&g->p));
                break;
            default: PUTS(g->b, "sizeof(toolgov_str), "); break;
            }
        }
    } else {
        PUTS(g->b, "NULL, 0, ");
    }
    put_size(g, a->min_items, 0);
    PUTS(g->b, ", ");
    put_size(g, a->max_items, 1);
    PUTS(g->b, ",\n    ");
    if (d->fields)
        toolgov__buf_printf(g->b, "%s_Fields_%s_%u, %zu, ", p, t, d->fields, a->field_count);
    else
        PUTS(g->b, "NULL, 0, ");
    if (!vo && n->type == TOOLGOV_S_OBJECT)
        toolgov__buf_printf(g->b, "sizeof(%s_Args_%s%s), ", p, t, ps(&g->p));
    else
        PUTS(g->b, "0, ");
    put_types(g, a->types);
    PUTS(g->b, ", ");
    if (d->alts)
        toolgov__buf_printf(g->b, "%s_Alts_%s_%u, %zu\n}", p, t, d->alts, a->alt_count);
    else
        PUTS(g->b, "NULL, 0\n}");
}

int toolgov__schema_c_tables(toolgov__buf *b, toolgov__schema_ctx *cx, const char *plugin,
                             const char *tool, const toolgov__snode *root)
{
    gctx g;
    const toolgov_arg_schema *a;
    deps d;
    size_t i;
    if (!root)
        return 0;
    if (toolgov__schema_tables(cx, root, &a))
        return -1;
    memset(&g, 0, sizeof g);
    g.b = b;
    g.cx = cx;
    g.plugin = plugin;
    g.tool = tool;
    /* String enums are stored as int: refuse to build with -fshort-enums. */
    (void)i;
    prepare(&g, a, root, 0, &d);
    toolgov__buf_printf(b, "static const toolgov_arg_schema %s_Params_%s = ", plugin, tool);
    init(&g, a, root, 0, &d);
    PUTS(b, ";\n\n");
    free(g.p.s);
    return g.oom || b->oom ? -1 : 0;
}

/* ---- the int-size check of string enums ------------------------------------ */

static void enum_checks(toolgov__buf *b, const char *plugin, const char *tool, path *p,
                        const toolgov__snode *n, int *oom)
{
    size_t i, old;
    switch (n->type) {
    case TOOLGOV_S_STRING:
        if (n->enum_vals)
            toolgov__buf_printf(b, "typedef char %s_Enum_%s%s_is_int[sizeof(%s_Enum_%s%s) == "
                                   "sizeof(int) ? 1 : -1];\n",
                                plugin, tool, ps(p), plugin, tool, ps(p));
        return;
    case TOOLGOV_S_OBJECT:
        for (i = 0; i < n->prop_count; i++) {
            if (path_push(p, n->props[i].c_name, &old)) {
                *oom = 1;
                return;
            }
            enum_checks(b, plugin, tool, p, n->props[i].schema, oom);
            path_pop(p, old);
        }
        return;
    case TOOLGOV_S_ARRAY:
        if (path_push(p, "item", &old)) {
            *oom = 1;
            return;
        }
        enum_checks(b, plugin, tool, p, n->items, oom);
        path_pop(p, old);
        return;
    default:
        return;
    }
}

int toolgov__schema_c_enum_checks(toolgov__buf *b, const char *plugin, const char *tool,
                                  const toolgov__snode *root)
{
    path p;
    int oom = 0;
    memset(&p, 0, sizeof p);
    if (root)
        enum_checks(b, plugin, tool, &p, root, &oom);
    free(p.s);
    return oom ? -1 : 0;
}

/* ---- names clash check --------------------------------------------------------- */

typedef struct cname {
    char *name;
    toolgov__mark at;
} cname;

typedef struct cnames {
    cname *v;
    size_t count, cap;
    int oom;
} cnames;

static void add_name(cnames *s, const char *plugin, const char *kind, const char *tool,
                     const char *suffix, const char *tail, toolgov__mark at)
{
    size_t need = strlen(plugin) + strlen(kind) + strlen(tool) + strlen(suffix) +
                  strlen(tail) + 8;
    char *nm;
    if (s->oom)
        return;
    if (s->count == s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 32;
        cname *nv = realloc(s->v, ncap * sizeof *nv);
        if (!nv) {
            s->oom = 1;
            return;
        }
        s->v = nv;
        s->cap = ncap;
    }
    nm = malloc(need);
    if (!nm) {
        s->oom = 1;
        return;
    }
    snprintf(nm, need, "%s_%s_%s%s%s%s", plugin, kind, tool, suffix, *tail ? "_" : "", tail);
    s->v[s->count].name = nm;
    s->v[s->count].at = at;
    s->count++;
}

static void collect(cnames *s, const char *plugin, const char *tool, path *p,
                    const toolgov__snode *n, toolgov__mark at)
{
    size_t i, old;
    switch (n->type) {
    case TOOLGOV_S_STRING:
        if (n->enum_vals) {
            add_name(s, plugin, "Enum", tool, ps(p), "", at);
            for (i = 0; i < n->enum_vals->count; i++)
                add_name(s, plugin, "Enum", tool, ps(p), n->enum_c_names[i],
                         n->enum_vals->items[i]->at);
        }
        return;
    case TOOLGOV_S_OBJECT:
        add_name(s, plugin, "Args", tool, ps(p), "", at);
        for (i = 0; i < n->prop_count; i++) {
            if (path_push(p, n->props[i].c_name, &old)) {
                s->oom = 1;
                return;
            }
            collect(s, plugin, tool, p, n->props[i].schema, n->props[i].at);
            path_pop(p, old);
        }
        return;
    case TOOLGOV_S_ARRAY:
        if (path_push(p, "item", &old)) {
            s->oom = 1;
            return;
        }
        collect(s, plugin, tool, p, n->items, at);
        path_pop(p, old);
        return;
    default:
        return;
    }
}

static int cname_cmp(const void *a, const void *b)
{
    const cname *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    if (x->at.line != y->at.line)
        return x->at.line < y->at.line ? -1 : 1;
    return x->at.col < y->at.col ? -1 : x->at.col > y->at.col;
}

int toolgov__schema_c_names(toolgov__schema_ctx *cx, const char *plugin, size_t count,
                            const char *const *tools, const toolgov__snode *const *roots,
                            const toolgov__mark *ats)
{
    cnames s;
    path p;
    size_t i, before = cx->d->errors;
    memset(&s, 0, sizeof s);
    memset(&p, 0, sizeof p);
    for (i = 0; i < count; i++)
        if (roots[i])
            collect(&s, plugin, tools[i], &p, roots[i], ats[i]);
    free(p.s);
    if (!s.oom && s.count > 1) {
        qsort(s.v, s.count, sizeof *s.v, cname_cmp);
        for (i = 1; i < s.count; i++) {
            if (strcmp(s.v[i].name, s.v[i - 1].name) != 0)
                continue;
            toolgov__diag_error(cx->d, cx->path, s.v[i].at.line, s.v[i].at.col,
                                "this gives the generated C name '%s', which something else in "
                                "the manifest gives too; rename one of them",
                                s.v[i].name);
            if (!cx->d->suppressing)
                toolgov__diag_note(cx->d, cx->path, s.v[i - 1].at.line, s.v[i - 1].at.col,
                                   "'%s' also comes from here", s.v[i].name);
        }
    }
    for (i = 0; i < s.count; i++)
        free(s.v[i].name);
    free(s.v);
    if (s.oom) {
        toolgov__diag_error(cx->d, cx->path, 0, 0, "out of memory while checking C names");
        return -1;
    }
    return cx->d->errors != before ? -1 : 0;
}
