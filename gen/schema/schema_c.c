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
** kind words of their own (Node, Fields, Strs, Ints, Alts, Params, Text,
** Schema, IntSized); each is written once per plugin and shared (see
** "Sharing"); contract.h says why no two plugins can share a name.
**
** The tables take every offset and size from offsetof() and sizeof() on the
** generated types, so the layout is the compiler's; nodes under a raw value
** are validated only and carry no offsets. Members of each node are written
** positionally in args.h's order.
*/
#include "schema/schema.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonwrite.h"
#include "schema/schema_c.h"

#include "base/c_literal.h"
#include "base/names.h"
#include "base/strset.h"

/* Longest string literal C99 guarantees (5.2.4.1). */
#define LITERAL_MAX 4095u

#define PUTS(b, s) toolgov__buf_put((b), (s), strlen(s))

/* ---- names --------------------------------------------------------------- */

/* The path suffix of a typed node below the root: "_prop", "_prop_item",
** NUL-terminated past its length. All zeroes: empty. */
typedef toolgov__buf path;

/* How a C name stands in a generated name, after the '_' that joins it
** there: a leading '_' gets a 'p' before it and a trailing '_' (the mark
** of a keyword, class_, or a separator, x-) is dropped, so that no
** generated name holds '__', which C++ reserves (an enum value -created
** makes <...>_p_created). Returns the bytes of `s` to write; *lead_p is 1
** when a 'p' goes first. The clash check joins names the same way. */
static size_t part_len(const char *s, int *lead_p)
{
    size_t n = strlen(s);
    *lead_p = s[0] == '_';
    if (n > 1 && s[n - 1] == '_')
        n--;
    return n;
}

static int path_push(path *p, const char *part, size_t *old)
{
    int lead;
    size_t n = part_len(part, &lead);
    *old = p->len;
    toolgov__buf_put(p, lead ? "_p" : "_", lead ? 2u : 1u);
    toolgov__buf_put(p, part, n);
    if (toolgov__buf_reserve(p, 1))
        return -1;
    p->data[p->len] = '\0';
    return 0;
}

static void path_pop(path *p, size_t old)
{
    p->len = old;
    if (p->data)
        p->data[old] = '\0';
}

static const char *ps(const path *p)
{
    return p->data ? p->data : "";
}

/* ---- the header: types ----------------------------------------------------- */

typedef struct tctx {
    toolgov__buf *b;
    const char *plugin, *tool;
    size_t plugin_len, tool_len; /* written for every type name */
    path p;
    int oom;
} tctx;

/* <plugin>_<kind>_<tool><path>: the name of the type at the current path. */
static void put_tname(tctx *t, const char *kind)
{
    toolgov__buf_put(t->b, t->plugin, t->plugin_len);
    toolgov__buf_put(t->b, "_", 1);
    PUTS(t->b, kind);
    toolgov__buf_put(t->b, "_", 1);
    toolgov__buf_put(t->b, t->tool, t->tool_len);
    toolgov__buf_put(t->b, ps(&t->p), t->p.len);
}

static void member_type(tctx *t, const toolgov__snode *n)
{
    switch (n->type) {
    case TOOLGOV_S_STRING:
        if (n->enum_vals)
            put_tname(t, "Enum");
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
        put_tname(t, "Args");
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
    PUTS(t->b, "typedef struct ");
    put_tname(t, "Args");
    PUTS(t->b, " {\n");
    for (i = 0; i < n->prop_count; i++) {
        const toolgov__sprop *pr = &n->props[i];
        if (path_push(&t->p, pr->c_name, &old)) {
            t->oom = 1;
            return;
        }
        PUTS(t->b, "    ");
        member_type(t, pr->schema);
        PUTS(t->b, " ");
        PUTS(t->b, pr->c_name);
        PUTS(t->b, pr->schema->type == TOOLGOV_S_RAW ? "; /* JSON text */\n" : ";\n");
        path_pop(&t->p, old);
        flags += toolgov__schema_has_flag(pr) != 0;
    }
    if (flags) {
        PUTS(t->b, "    struct {\n");
        for (i = 0; i < n->prop_count; i++)
            if (toolgov__schema_has_flag(&n->props[i])) {
                PUTS(t->b, "        bool ");
                PUTS(t->b, n->props[i].c_name);
                PUTS(t->b, ";\n");
            }
        PUTS(t->b, "    } has; /* which optional properties the call gave */\n");
    }
    if (!n->prop_count && !flags)
        PUTS(t->b, "    char unused_; /* no declared properties */\n");
    PUTS(t->b, "} ");
    put_tname(t, "Args");
    PUTS(t->b, ";\n\n");
}

static void enum_of(tctx *t, const toolgov__snode *n)
{
    size_t i;
    PUTS(t->b, "typedef enum ");
    put_tname(t, "Enum");
    PUTS(t->b, " {\n");
    for (i = 0; i < n->enum_vals->count; i++) {
        PUTS(t->b, "    ");
        put_tname(t, "Enum");
        {
            int lead;
            size_t len = part_len(n->enum_c_names[i], &lead);
            toolgov__buf_put(t->b, lead ? "_p" : "_", lead ? 2u : 1u);
            toolgov__buf_put(t->b, n->enum_c_names[i], len);
        }
        PUTS(t->b, " = ");
        toolgov__buf_decimal(t->b, i);
        PUTS(t->b, i + 1 < n->enum_vals->count ? ",\n" : "\n");
    }
    PUTS(t->b, "} ");
    put_tname(t, "Enum");
    PUTS(t->b, ";\n\n");
    /* Its name table (value -> the JSON text), as protobuf-c and nanopb
    ** give: static inline, so a unit that does not use it pays nothing and
    ** no compiler warns. */
    PUTS(t->b, "/* The text of a value of the enum above, as the model sends it; NULL for\n"
               "** a value outside it. */\nstatic inline const char *");
    put_tname(t, "EnumName");
    PUTS(t->b, "(");
    put_tname(t, "Enum");
    PUTS(t->b, " value)\n{\n    static const char *const names[] = {\n");
    for (i = 0; i < n->enum_vals->count; i++) {
        const toolgov__jval *v = n->enum_vals->items[i];
        PUTS(t->b, "        ");
        toolgov__buf_literal(t->b, v->text, v->len, "        ");
        PUTS(t->b, ",\n");
    }
    PUTS(t->b, "    };\n    return (unsigned)value < sizeof names / sizeof names[0] ? names[value]\n"
               "                                                         : (const char *)0;\n"
               "}\n\n");
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

static void tctx_init(tctx *t, toolgov__buf *b, const char *plugin, const char *tool)
{
    memset(t, 0, sizeof *t);
    t->b = b;
    t->plugin = plugin;
    t->tool = tool;
    t->plugin_len = strlen(plugin);
    t->tool_len = strlen(tool);
}

int toolgov__schema_c_types(toolgov__buf *b, const char *plugin, const char *tool,
                            const toolgov__snode *root)
{
    tctx t;
    tctx_init(&t, b, plugin, tool);
    if (!root) {
        /* A macro, not a typedef: gcc keeps every typedef of one type in a
        ** list it walks for the next one, so 10,000 tools without
        ** parameters took seconds, and 20,000 four times as long. */
        PUTS(b, "#define ");
        PUTS(b, plugin);
        PUTS(b, "_Args_");
        PUTS(b, tool);
        PUTS(b, " toolgov_no_args\n\n");
        return b->oom ? -1 : 0;
    }
    types_of(&t, root);
    toolgov__buf_free(&t.p);
    return t.oom || b->oom ? -1 : 0;
}

/* ---- the C file: tables ------------------------------------------------------ */

/* Sharing. Every table object (a node, a field array, an enum's strings or
** integers, a list of alternatives, a long text) is first rendered into
** g->body as its initializer text, its key. The C file gets the object only
** the first time a key is seen in the render; later uses name the object
** already written. Children are written before their parents, so two
** identical subtrees name identical children and their parents' keys are
** equal too: identical shapes collapse bottom up, across properties and
** tools.
**
** The only text of an initializer that depends on where the node sits is a
** type name: offsetof() and sizeof() of the struct being described, and
** sizeof() of an array's item type. The key holds a placeholder instead,
** KEY_ARGS for <plugin>_Args_<tool><path> and KEY_ENUM for
** <plugin>_Enum_<tool><path>, replaced by the names of the tool and path
** that define the object. A field array shared by two tools so takes its
** offsets from the first tool's struct: equal keys mean the same members
** with the same member types in the same order (string enums differ only
** in name, and each is checked to be int-sized), so the layouts are equal.
**
** The records "key\0name\0" live in the render's arena, found by their
** key through the generator's index (base/index.h). */
#define KEY_ARGS '\001'
#define KEY_ENUM '\002'

struct toolgov__schema_share_key {
    const char *rec; /* "key\0name\0" in the render's arena */
    size_t klen;     /* bytes of the key before its NUL */
};

static void share_key(const void *arr, size_t i, const char **s, size_t *len)
{
    const toolgov__schema_share *sh = arr;
    *s = sh->seen[i].rec;
    *len = sh->seen[i].klen;
}

void toolgov__schema_share_init(toolgov__schema_share *sh)
{
    sh->seen = NULL;
    sh->seen_count = sh->seen_alloc = 0;
    toolgov__index_init(&sh->seen_ix, NULL, sh, share_key);
    sh->next_id = 0;
    toolgov__buf_init(&sh->body);
    sh->none_schema = NULL;
    toolgov__arena_init(&sh->scratch);
}

void toolgov__schema_share_free(toolgov__schema_share *sh)
{
    free(sh->seen);
    toolgov__index_free(&sh->seen_ix);
    toolgov__buf_free(&sh->body);
    toolgov__arena_free(&sh->scratch);
    toolgov__schema_share_init(sh);
}

/* The record whose key is key[0..klen), or NULL. */
static const char *key_find(const toolgov__schema_share *sh, const char *key, size_t klen)
{
    size_t at = toolgov__index_find(&sh->seen_ix, key, klen);
    return at == SIZE_MAX ? NULL : sh->seen[at].rec;
}

/* Make room for one more record. 0, or -1 when out of memory. */
static int key_room(toolgov__schema_share *sh)
{
    if (sh->seen_count == sh->seen_alloc) {
        size_t nalloc = sh->seen_alloc ? sh->seen_alloc * 2 : 128;
        toolgov__schema_share_key *nk = realloc(sh->seen, nalloc * sizeof *nk);
        if (!nk)
            return -1;
        sh->seen = nk;
        sh->seen_alloc = nalloc;
    }
    return 0;
}

/* One probe for "is it there, and if not take its place": 1 with the
** record whose key is key[0..klen) in *found; 0 when there is none, the
** next record then holding the place (key_fill gives it its record, whose
** key must be the same bytes); -1 when out of memory. */
static int key_claim(toolgov__schema_share *sh, const char *key, size_t klen, const char **found)
{
    size_t prev;
    int r;
    if (key_room(sh))
        return -1;
    sh->seen[sh->seen_count].rec = key; /* until key_fill */
    sh->seen[sh->seen_count].klen = klen;
    r = toolgov__index_add(&sh->seen_ix, sh->seen_count, key, klen, &prev);
    if (r > 0)
        *found = sh->seen[prev].rec;
    else if (r == 0)
        sh->seen_count++;
    return r;
}

/* The record of the place key_claim took; NULL (out of memory) leaves the
** place to no key. */
static void key_fill(toolgov__schema_share *sh, const char *rec)
{
    toolgov__schema_share_key *k = &sh->seen[sh->seen_count - 1];
    if (rec) {
        k->rec = rec;
    } else {
        k->rec = "";
        k->klen = SIZE_MAX;
    }
}

/* Add a record whose key (its first klen bytes) is not there. 0, or -1
** when out of memory. */
static int key_add(toolgov__schema_share *sh, const char *rec, size_t klen)
{
    if (key_room(sh))
        return -1;
    sh->seen[sh->seen_count].rec = rec;
    sh->seen[sh->seen_count].klen = klen;
    if (toolgov__index_add(&sh->seen_ix, sh->seen_count, rec, klen, NULL) < 0)
        return -1;
    sh->seen_count++;
    return 0;
}

typedef struct gctx {
    toolgov__buf *out;  /* the C file */
    toolgov__buf body;  /* the key of the object being rendered (sh->body) */
    toolgov__schema_share *sh;
    toolgov__schema_ctx *cx;
    const char *plugin, *tool;
    path p;
    int oom;
} gctx;

#define BPUT(g, s, n) toolgov__buf_put(&(g)->body, (s), (n))
#define BPUTS(g, s) toolgov__buf_put(&(g)->body, (s), strlen(s))
#define BPUTL(g, lit) toolgov__buf_put(&(g)->body, "" lit, sizeof(lit) - 1)

/* What a node's initializer refers to, written before it (NULL: none). */
typedef struct deps {
    const char *items, *fields, *strs, *ints, *alts;
} deps;

/* Start the key of an object of kind `k` (one letter per declared type). */
static void begin(gctx *g, char k)
{
    g->body.len = 0;
    BPUT(g, &k, 1);
}

static void put_u(gctx *g, unsigned long long v)
{
    toolgov__buf_decimal(&g->body, v);
}

static void put_size(gctx *g, size_t v, int max)
{
    if (max && v == TOOLGOV_ARG_UNBOUNDED) {
        BPUTL(g, "TOOLGOV_ARG_UNBOUNDED");
    } else if (v <= 0xFFFFFFFFu) {
        put_u(g, v);
    } else {
        BPUTL(g, "(size_t)");
        put_u(g, v);
        BPUTL(g, "u");
    }
}

static void put_i64(gctx *g, int64_t v)
{
    unsigned long long m;
    if (v == INT64_MIN) {
        BPUTL(g, "INT64_MIN");
        return;
    }
    m = v < 0 ? (unsigned long long)-v : (unsigned long long)v;
    if (m > 2147483647u)
        BPUTL(g, "INT64_C(");
    if (v < 0)
        BPUTL(g, "-");
    put_u(g, m);
    if (m > 2147483647u)
        BPUTL(g, ")");
}

static void put_dbl(gctx *g, double d)
{
    char t[TOOLGOV__JSON_NUMBER_MAX + 1];
    size_t n = toolgov__json_double_text(t, d);
    t[n] = '\0';
    BPUTS(g, t);
    if (!strpbrk(t, ".e"))
        BPUTL(g, ".0");
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
                 {TOOLGOV_ARG_F_HAS_ENUM, "TOOLGOV_ARG_F_HAS_ENUM"},
                 {TOOLGOV_ARG_F_INT_MIN, "TOOLGOV_ARG_F_INT_MIN"},
                 {TOOLGOV_ARG_F_INT_MAX, "TOOLGOV_ARG_F_INT_MAX"},
                 {TOOLGOV_ARG_F_ALLOW_NUL, "TOOLGOV_ARG_F_ALLOW_NUL"}};
    size_t i;
    int any = 0;
    for (i = 0; i < sizeof names / sizeof *names; i++) {
        if (!(f & names[i].bit))
            continue;
        if (any)
            BPUTL(g, " | ");
        BPUTS(g, names[i].name);
        any = 1;
    }
    if (!any)
        BPUTL(g, "0u");
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
        if (any)
            BPUTL(g, " | ");
        BPUTS(g, names[i]);
        any = 1;
    }
    if (!any)
        BPUTL(g, "0u");
}

/* Copy a key's initializer into the C file with the placeholders replaced
** by the types of the current tool and path. */
static void expand(gctx *g, const char *s, size_t n)
{
    toolgov__buf *b = g->out;
    size_t i = 0, run = 0;
    for (; i < n; i++) {
        if (s[i] != KEY_ARGS && s[i] != KEY_ENUM)
            continue;
        toolgov__buf_put(b, s + run, i - run);
        PUTS(b, g->plugin);
        PUTS(b, s[i] == KEY_ARGS ? "_Args_" : "_Enum_");
        PUTS(b, g->tool);
        PUTS(b, ps(&g->p));
        run = i + 1;
    }
    toolgov__buf_put(b, s + run, n - run);
}

/* The object whose key is in g->body: the name of an identical object
** written before, or a new object written now as `decl name suffix = init;`.
** `named`, when given, is the new object's name; otherwise it is
** <plugin>_<kind>_<n>. The name lives in the render's arena; NULL when out
** of memory. */
static const char *object(gctx *g, const char *decl, const char *kind, const char *suffix,
                          const char *named)
{
    const char *found, *name;
    char *rec, num[24];
    size_t klen, nlen, pl, kl, numlen = 0;
    if (g->oom || g->body.oom) {
        g->oom = 1;
        return NULL;
    }
    BPUT(g, "", 1); /* the key as a C string */
    if (g->body.oom) {
        g->oom = 1;
        return NULL;
    }
    klen = g->body.len - 1;
    switch (key_claim(g->sh, g->body.data, klen, &found)) {
    case 1:
        return found + klen + 1;
    case 0:
        break;
    default:
        g->oom = 1;
        return NULL;
    }
    if (!named) {
        /* The table's number in decimal, at the end of num (no printf: a
        ** plugin's every table takes one). */
        unsigned v = ++g->sh->next_id;
        numlen = 0;
        do {
            num[sizeof num - 1 - ++numlen] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
    }
    pl = strlen(g->plugin);
    kl = strlen(kind);
    nlen = named ? strlen(named) : pl + 1 + kl + 1 + numlen;
    rec = toolgov__arena_alloc(g->cx->arena, klen + 1 + nlen + 1);
    key_fill(g->sh, rec);
    if (!rec) {
        g->oom = 1;
        return NULL;
    }
    memcpy(rec, g->body.data, klen + 1);
    name = rec + klen + 1;
    if (named) {
        memcpy(rec + klen + 1, named, nlen + 1);
    } else {
        /* plugin_kind_number */
        char *o = rec + klen + 1;
        memcpy(o, g->plugin, pl);
        o[pl] = '_';
        memcpy(o + pl + 1, kind, kl);
        o[pl + 1 + kl] = '_';
        memcpy(o + pl + 2 + kl, num + sizeof num - 1 - numlen, numlen);
        o[nlen] = '\0';
    }
    PUTS(g->out, decl);
    PUTS(g->out, name);
    PUTS(g->out, suffix);
    PUTS(g->out, " = ");
    expand(g, rec + 1, klen - 1);
    PUTS(g->out, ";\n\n");
    return name;
}

/* A string the tables point to: NULL for a literal, or for one longer than
** C99's 4095 bytes the name of a char array written first. */
static const char *long_string(gctx *g, const char *s, size_t n)
{
    if (n <= 4095)
        return NULL;
    begin(g, 'T');
    BPUTL(g, "{");
    toolgov__buf_char_array(&g->body, s, n); /* ends "};\n": keep the brace */
    if (!g->body.oom)
        g->body.len -= 2;
    return object(g, "static const char ", "Text", "[]", NULL);
}

static void put_string(gctx *g, const char *s, size_t n, const char *arr, const char *indent)
{
    if (arr)
        BPUTS(g, arr);
    else
        toolgov__buf_literal(&g->body, s, n, indent);
}

static void prepare(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo,
                    deps *d);
static void init(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo,
                 const deps *d);

/* A node as a static object of its own (or the identical one written
** before); returns its name. */
static const char *define(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo)
{
    deps d;
    prepare(g, a, n, vo, &d);
    begin(g, 'N');
    init(g, a, n, vo, &d);
    return object(g, "static const toolgov_arg_schema ", "Node", "", NULL);
}

/* The field array of an object node: its members' nodes first. */
static const char *fields_of(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n,
                             int vo)
{
    size_t i, old;
    const char **ids = malloc(a->field_count * sizeof *ids);
    const char **texts = malloc(a->field_count * sizeof *texts);
    const char *name = NULL;
    int typed = !vo && n->type == TOOLGOV_S_OBJECT;
    if (!ids || !texts) {
        g->oom = 1;
        goto out;
    }
    for (i = 0; i < a->field_count && !g->oom; i++) {
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
                       : NULL;
        if (pushed)
            path_pop(&g->p, old);
    }
    if (g->oom)
        goto out;
    begin(g, 'F');
    BPUTL(g, "{\n");
    for (i = 0; i < a->field_count; i++) {
        const toolgov_arg_field *f = &a->fields[i];
        const toolgov__sprop *pr = &n->props[i];
        BPUTL(g, "    { ");
        toolgov__buf_literal(&g->body, f->name, f->name_len, "      ");
        BPUTL(g, ", ");
        put_u(g, f->name_len);
        BPUTL(g, ", &");
        BPUTS(g, ids[i]);
        BPUTL(g, ",\n      ");
        if (typed) {
            char ph = KEY_ARGS;
            BPUTL(g, "offsetof(");
            BPUT(g, &ph, 1);
            BPUTL(g, ", ");
            BPUTS(g, pr->c_name);
            if (pr->schema->type == TOOLGOV_S_ARRAY)
                BPUTL(g, ".items");
            BPUTL(g, "), ");
            if (toolgov__schema_has_flag(pr)) {
                BPUTL(g, "offsetof(");
                BPUT(g, &ph, 1);
                BPUTL(g, ", has.");
                BPUTS(g, pr->c_name);
                BPUTL(g, "), ");
            } else {
                BPUTL(g, "TOOLGOV_ARG_NO_HAS, ");
            }
        } else {
            BPUTL(g, "0, TOOLGOV_ARG_NO_HAS, ");
        }
        BPUTS(g, f->required ? "1, " : "0, ");
        if (f->default_json)
            put_string(g, f->default_json, strlen(f->default_json), texts[i], "      ");
        else
            BPUTL(g, "NULL");
        BPUTS(g, i + 1 < a->field_count ? " },\n" : " }\n");
    }
    BPUTL(g, "}");
    name = object(g, "static const toolgov_arg_field ", "Fields", "[]", NULL);
out:
    free(ids);
    free(texts);
    return name;
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
        begin(g, 'S');
        BPUTL(g, "{\n");
        for (i = 0; i < a->str_enum_count; i++) {
            BPUTL(g, "    ");
            toolgov__buf_literal(&g->body, a->str_enum[i], strlen(a->str_enum[i]), "    ");
            BPUTS(g, i + 1 < a->str_enum_count ? ",\n" : "\n");
        }
        BPUTL(g, "}");
        d->strs = object(g, "static const char *const ", "Strs", "[]", NULL);
    }
    if (a->int_enum_count) {
        begin(g, 'I');
        BPUTL(g, "{\n    ");
        for (i = 0; i < a->int_enum_count; i++) {
            put_i64(g, a->int_enum[i]);
            BPUTS(g, i + 1 < a->int_enum_count ? ", " : "\n");
        }
        BPUTL(g, "}");
        d->ints = object(g, "static const int64_t ", "Ints", "[]", NULL);
    }
    if (a->field_count)
        d->fields = fields_of(g, a, n, vo);
    if (a->alt_count) {
        toolgov__snode *const *alts = n->any_of_count ? n->any_of : n->one_of;
        deps *ad = malloc(a->alt_count * sizeof *ad);
        if (!ad) {
            g->oom = 1;
            return;
        }
        for (i = 0; i < a->alt_count; i++)
            prepare(g, &a->alts[i], alts[i], 1, &ad[i]);
        begin(g, 'A');
        BPUTL(g, "{\n    ");
        for (i = 0; i < a->alt_count; i++) {
            init(g, &a->alts[i], alts[i], 1, &ad[i]);
            BPUTS(g, i + 1 < a->alt_count ? ",\n    " : "\n");
        }
        BPUTL(g, "}");
        d->alts = object(g, "static const toolgov_arg_schema ", "Alts", "[]", NULL);
        free(ad);
    }
    if (g->oom || (a->items && !d->items) || (a->str_enum_count && !d->strs) ||
        (a->int_enum_count && !d->ints) || (a->field_count && !d->fields) ||
        (a->alt_count && !d->alts))
        g->oom = 1;
}

/* A reference to a table with its count, or "NULL, 0". */
static void put_ref(gctx *g, const char *amp, const char *name, size_t count)
{
    if (!name) {
        BPUTL(g, "NULL, 0");
        return;
    }
    BPUTS(g, amp);
    BPUTS(g, name);
    BPUTL(g, ", ");
    put_u(g, count);
}

/* The initializer, members in args.h's order. */
static void init(gctx *g, const toolgov_arg_schema *a, const toolgov__snode *n, int vo,
                 const deps *d)
{
    char ph[2] = {KEY_ARGS, KEY_ENUM};
    BPUTL(g, "{\n    ");
    BPUTS(g, kind_name(a->kind));
    BPUTL(g, ", ");
    put_flags(g, a->flags);
    BPUTL(g, ", ");
    put_size(g, a->min_len, 0);
    BPUTL(g, ", ");
    put_size(g, a->max_len, 1);
    BPUTL(g, ", ");
    BPUTS(g, format_name(a->format));
    BPUTL(g, ",\n    ");
    put_i64(g, a->int_min);
    BPUTL(g, ", ");
    put_i64(g, a->int_max);
    BPUTL(g, ", ");
    put_dbl(g, a->num_min);
    BPUTL(g, ", ");
    put_dbl(g, a->num_max);
    BPUTL(g, ",\n    ");
    put_ref(g, "", d->strs, a->str_enum_count);
    BPUTL(g, ", ");
    put_ref(g, "", d->ints, a->int_enum_count);
    BPUTL(g, ",\n    ");
    if (d->items) {
        BPUTL(g, "&");
        BPUTS(g, d->items);
        BPUTL(g, ", ");
        if (vo || n->type != TOOLGOV_S_ARRAY) {
            BPUTL(g, "0, ");
        } else {
            const toolgov__snode *it = n->items;
            switch (it->type) {
            case TOOLGOV_S_STRING:
                if (it->enum_vals) {
                    BPUTL(g, "sizeof(");
                    BPUT(g, &ph[1], 1);
                    BPUTL(g, "_item), ");
                } else {
                    BPUTL(g, "sizeof(toolgov_str), ");
                }
                break;
            case TOOLGOV_S_INTEGER: BPUTL(g, "sizeof(int64_t), "); break;
            case TOOLGOV_S_NUMBER: BPUTL(g, "sizeof(double), "); break;
            case TOOLGOV_S_BOOLEAN: BPUTL(g, "sizeof(bool), "); break;
            case TOOLGOV_S_ARRAY: BPUTL(g, "sizeof(toolgov_array), "); break;
            case TOOLGOV_S_OBJECT:
                BPUTL(g, "sizeof(");
                BPUT(g, &ph[0], 1);
                BPUTL(g, "_item), ");
                break;
            default: BPUTL(g, "sizeof(toolgov_str), "); break;
            }
        }
    } else {
        BPUTL(g, "NULL, 0, ");
    }
    put_size(g, a->min_items, 0);
    BPUTL(g, ", ");
    put_size(g, a->max_items, 1);
    BPUTL(g, ",\n    ");
    put_ref(g, "", d->fields, a->field_count);
    BPUTL(g, ", ");
    if (!vo && n->type == TOOLGOV_S_OBJECT) {
        BPUTL(g, "sizeof(");
        BPUT(g, &ph[0], 1);
        BPUTL(g, "), ");
    } else {
        BPUTL(g, "0, ");
    }
    put_types(g, a->types);
    BPUTL(g, ", ");
    put_ref(g, "", d->alts, a->alt_count);
    BPUTL(g, "\n}");
}

int toolgov__schema_c_tables(toolgov__buf *b, toolgov__schema_share *sh,
                             toolgov__schema_ctx *cx, const char *plugin, const char *tool,
                             const toolgov__snode *root, const char **out_params,
                             const char **out_schema)
{
    gctx g;
    const toolgov_arg_schema *a;
    const char *text, *rec;
    size_t len, plen, qlen;
    deps d;
    char *named = NULL;
    int rc;

    *out_params = NULL;
    *out_schema = NULL;
    /* Most tools of a large plugin take no arguments: one text for all. */
    if (!root && sh->none_schema) {
        *out_schema = sh->none_schema;
        return b->oom ? -1 : 0;
    }
    memset(&g, 0, sizeof g);
    g.out = b;
    g.sh = sh;
    g.cx = cx;
    g.plugin = plugin;
    g.tool = tool;
    g.body = sh->body; /* handed back below, grown or not */
    if (toolgov__schema_text(cx, root, &text, &len))
        return -1;
    /* Equal canonical schema texts compile to equal tables: a tool whose
    ** text an earlier tool had shares that tool's root node and text
    ** without rendering anything. Record: "Q<text>\0<params>\n<schema>\0". */
    begin(&g, 'Q');
    BPUT(&g, text, len);
    BPUT(&g, "", 1);
    if (g.body.oom)
        goto out;
    qlen = g.body.len - 1;
    rec = key_find(sh, g.body.data, qlen);
    if (rec) {
        const char *names = rec + len + 2, *nl = strchr(names, '\n');
        *out_params = nl == names ? NULL : names;
        *out_schema = nl + 1;
        /* The params name ends at the newline: keep a NUL-terminated copy. */
        if (*out_params) {
            char *p = toolgov__arena_strndup(cx->arena, names, (size_t)(nl - names));
            if (!p)
                g.oom = 1;
            *out_params = p;
        }
        goto out;
    }
    if (root) {
        /* The tables only guide this render: in the scratch arena, which
        ** the next tool reuses. The names rendered stay in cx->arena. */
        toolgov__schema_ctx tcx = *cx;
        toolgov__arena_reset(&sh->scratch);
        tcx.arena = &sh->scratch;
        if (toolgov__schema_tables(&tcx, root, &a)) {
            g.oom = 1;
            goto out;
        }
        plen = strlen(plugin) + strlen(tool) + 9;
        named = malloc(plen);
        if (!named) {
            g.oom = 1;
            goto out;
        }
        {
            size_t pn = strlen(plugin), tn = strlen(tool);
            memcpy(named, plugin, pn);
            memcpy(named + pn, "_Params_", 8);
            memcpy(named + pn + 8, tool, tn + 1);
        }
        prepare(&g, a, root, 0, &d);
        if (g.oom)
            goto out;
        begin(&g, 'P');
        init(&g, a, root, 0, &d);
        *out_params = object(&g, "static const toolgov_arg_schema ", "Params", "", named);
        if (!*out_params)
            goto out;
    }
    /* The canonical schema text, once per distinct text. */
    begin(&g, 'J');
    if (len > LITERAL_MAX) {
        BPUTL(&g, "{");
        toolgov__buf_char_array(&g.body, text, len);
        if (!g.body.oom)
            g.body.len -= 2;
    } else {
        toolgov__buf_literal(&g.body, text, len, "    ");
    }
    *out_schema = object(&g, "static const char ", "Schema", "[]", NULL);
    if (!*out_schema)
        goto out;
    {
        size_t pl = *out_params ? strlen(*out_params) : 0, sl = strlen(*out_schema);
        char *r = toolgov__arena_alloc(cx->arena, len + 2 + pl + 1 + sl + 1);
        if (!r) {
            g.oom = 1;
            goto out;
        }
        r[0] = 'Q';
        memcpy(r + 1, text, len);
        r[len + 1] = '\0';
        if (pl)
            memcpy(r + len + 2, *out_params, pl);
        r[len + 2 + pl] = '\n';
        memcpy(r + len + 3 + pl, *out_schema, sl + 1);
        if (key_add(sh, r, qlen) < 0)
            g.oom = 1;
    }
out:
    free(named);
    toolgov__buf_free(&g.p);
    rc = g.oom || g.body.oom || b->oom ? -1 : 0;
    if (!rc && !root)
        sh->none_schema = *out_schema;
    g.body.oom = 0; /* a failed key does not spoil the next one */
    sh->body = g.body;
    return rc;
}

/* ---- the int-size check of string enums ------------------------------------ */

static void enum_checks(tctx *t, const toolgov__snode *n)
{
    size_t i, old;
    switch (n->type) {
    case TOOLGOV_S_STRING:
        if (n->enum_vals) {
            /* An extern array, never defined, not a typedef: gcc keeps
            ** every typedef of one type (here char[1]) in a list it walks
            ** for the next one, which made 10,000 of them take seconds. */
            PUTS(t->b, "extern char ");
            put_tname(t, "IntSized");
            PUTS(t->b, "[sizeof(");
            put_tname(t, "Enum");
            PUTS(t->b, ") == sizeof(int) ? 1 : -1];\n");
        }
        return;
    case TOOLGOV_S_OBJECT:
        for (i = 0; i < n->prop_count; i++) {
            if (path_push(&t->p, n->props[i].c_name, &old)) {
                t->oom = 1;
                return;
            }
            enum_checks(t, n->props[i].schema);
            path_pop(&t->p, old);
        }
        return;
    case TOOLGOV_S_ARRAY:
        if (path_push(&t->p, "item", &old)) {
            t->oom = 1;
            return;
        }
        enum_checks(t, n->items);
        path_pop(&t->p, old);
        return;
    default:
        return;
    }
}

int toolgov__schema_c_enum_checks(toolgov__buf *b, const char *plugin, const char *tool,
                                  const toolgov__snode *root)
{
    tctx t;
    tctx_init(&t, b, plugin, tool);
    if (root)
        enum_checks(&t, root);
    toolgov__buf_free(&t.p);
    return t.oom || b->oom ? -1 : 0;
}

/* ---- names clash check --------------------------------------------------------- */

/* Every generated type and enum constant name of the plugin's parameters,
** in one growing block of NUL-terminated strings (offsets, since the block
** moves while it grows). A string set finds whether any name is there
** twice; only then are the names sorted, so the messages come in name
** order with the place of the other use. */
typedef struct cname {
    const char *name; /* set once the block stops moving */
    size_t off;
    toolgov__mark at;
} cname;

typedef struct cnames {
    cname *v;
    size_t count, cap;
    toolgov__buf blk; /* the names, each NUL-terminated */
    int oom;
} cnames;

static void blk_put(cnames *s, const char *p, size_t n)
{
    toolgov__buf_put(&s->blk, p, n);
}

static void add_name(cnames *s, const char *plugin, const char *kind, const char *tool,
                     const char *suffix, const char *tail, toolgov__mark at)
{
    int lead = 0;
    size_t lp = strlen(plugin), lk = strlen(kind), lt = strlen(tool), ls = strlen(suffix),
           ll = *tail ? part_len(tail, &lead) : 0, need = lp + lk + lt + ls + ll + 6;
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
    if (toolgov__buf_reserve(&s->blk, need)) {
        s->oom = 1;
        return;
    }
    s->v[s->count].off = s->blk.len;
    s->v[s->count].at = at;
    s->count++;
    /* plugin_kind_tool<suffix>[_tail] */
    blk_put(s, plugin, lp);
    blk_put(s, "_", 1);
    blk_put(s, kind, lk);
    blk_put(s, "_", 1);
    blk_put(s, tool, lt);
    blk_put(s, suffix, ls);
    if (ll) {
        blk_put(s, lead ? "_p" : "_", lead ? 2u : 1u);
        blk_put(s, tail, ll);
    }
    blk_put(s, "", 1);
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

/* 1 when some name is there twice, 0 when not, -1 when out of memory. */
static int any_twice(const cnames *s)
{
    toolgov__strset set;
    size_t i, j;
    int r = 0;
    if (s->count <= 16) {
        /* One tree's few names (trees_clash): pairwise, no set to build. */
        for (i = 1; i < s->count; i++)
            for (j = 0; j < i; j++)
                if (strcmp(s->v[i].name, s->v[j].name) == 0)
                    return 1;
        return 0;
    }
    toolgov__strset_init(&set);
    for (i = 0; i < s->count && r == 0; i++) {
        int added = toolgov__strset_add(&set, s->v[i].name);
        r = added < 0 ? -1 : added == 0;
    }
    toolgov__strset_free(&set);
    return r;
}

/* The names of two tools can only meet when one tool's name followed by
** '_' begins the other's: each name is <plugin>_<Kind>_<tool> followed by
** nothing or by '_'. 1 when some pair of tools is so, 0 when none, -1 when
** out of memory. */
static int tools_may_meet(size_t count, const char *const *tools)
{
    toolgov__strset set;
    char pre[TOOLGOV_NAME_MAX + 1];
    size_t i, j;
    int r = 0;
    toolgov__strset_init(&set);
    for (i = 0; i < count && r == 0; i++)
        if (toolgov__strset_add(&set, tools[i]) < 0)
            r = -1;
    for (i = 0; i < count && r == 0; i++) {
        for (j = 1; tools[i][j] && j < sizeof pre && r == 0; j++) {
            if (tools[i][j] != '_')
                continue;
            memcpy(pre, tools[i], j);
            pre[j] = '\0';
            r = toolgov__strset_find(&set, pre) != NULL;
        }
        if (tools[i][j] && r == 0)
            r = 1; /* longer than a tool name can be: take the long way */
    }
    toolgov__strset_free(&set);
    return r;
}

/* 1 when two names of the tree are the same, 0 when not, -1 when out of
** memory; s and p are buffers reused from tree to tree. */
static int tree_twice(cnames *s, path *p, const toolgov__snode *root)
{
    size_t k;
    /* The names without the plugin's and the tool's (the same in all of
    ** one tree's). */
    s->count = s->blk.len = 0;
    collect(s, "", "", p, root, root->at);
    for (k = 0; k < s->count && !s->oom; k++)
        s->v[k].name = s->blk.data + s->v[k].off;
    return s->oom ? -1 : s->count > 1 ? any_twice(s) : 0;
}

/* Whether the names of one tool's tree are all different; that does not
** depend on the tool's name (two names of one tool can only be equal in
** kind and path), so each tree is asked alone. 1 when some tree gives a
** name twice, 0 when none, -1 when out of memory. */
static int trees_clash(size_t count, const toolgov__snode *const *roots)
{
    cnames s;
    path p;
    size_t i;
    int r = 0;
    memset(&s, 0, sizeof s);
    memset(&p, 0, sizeof p);
    for (i = 0; i < count && r == 0; i++)
        if (roots[i])
            r = tree_twice(&s, &p, roots[i]);
    toolgov__buf_free(&p);
    free(s.v);
    toolgov__buf_free(&s.blk);
    return r;
}

int toolgov__schema_c_names(toolgov__schema_ctx *cx, const char *plugin, size_t count,
                            const char *const *tools, const toolgov__snode *const *roots,
                            const toolgov__mark *ats)
{
    cnames s;
    path p;
    size_t i, before = cx->d->errors;
    int twice = 0;
    /* The common case, nothing can clash, without building every name. */
    if (tools_may_meet(count, tools) == 0 && trees_clash(count, roots) == 0)
        return 0;
    memset(&s, 0, sizeof s);
    memset(&p, 0, sizeof p);
    for (i = 0; i < count; i++) {
        if (roots[i])
            collect(&s, plugin, tools[i], &p, roots[i], ats[i]);
        else /* #define <plugin>_Args_<tool> toolgov_no_args */
            add_name(&s, plugin, "Args", tools[i], "", "", ats[i]);
    }
    toolgov__buf_free(&p);
    for (i = 0; i < s.count && !s.oom; i++)
        s.v[i].name = s.blk.data + s.v[i].off;
    if (!s.oom && s.count > 1) {
        twice = any_twice(&s);
        if (twice < 0)
            s.oom = 1;
    }
    if (!s.oom && twice) {
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
    free(s.v);
    toolgov__buf_free(&s.blk);
    if (s.oom) {
        toolgov__diag_error(cx->d, cx->path, 0, 0, "out of memory while checking C names");
        return -1;
    }
    return cx->d->errors != before ? -1 : 0;
}
