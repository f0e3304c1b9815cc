/* SPDX-License-Identifier: MIT */
/*
** args.c: the one table-driven argument decoder (see args.h).
**
** A decode is one walk of the schema tree alongside the parsed call. Each
** node's check runs in one of two modes:
**   - decoding (dst != NULL): the value is checked, stored at dst and
**     written to the canonical text;
**   - validating (dst == NULL): the value is checked only. Everything under
**     a raw node is validated this way, and raw anyOf/oneOf alternatives are
**     probed "quietly": their problems are counted, not reported, so a
**     failed alternative costs no message.
** Problems are appended to one message as they are found ("/path problem",
** joined by "; "), up to TOOLGOV_ARGS_MAX_PROBLEMS; later ones are counted.
** A call with any problem has no struct and no canonical text.
**
** Canonical text (SPEC §9): an object's declared properties in schema
** order (given or defaulted; an absent optional property without default is
** left out, and so is an optional one of a non-raw kind given as null:
** null reads as absent there), then extra members sorted by key bytes; no whitespace; strings
** with the minimal escapes; integers exact; numbers in the shortest text
** that reads back to the same double; raw values in toolgov__json_put_value
** form (keys sorted, number texts as sent). A default is read as a JSON
** text and decoded like a given value, so it is canonical by construction.
**
** Memory: the parse, the struct, item arrays and raw texts come from the
** decoder's arena; canonical text, message and path from its buffers; all
** are kept between decodes, so a warm decoder allocates nothing.
*/
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "args_internal.h"
#include "internal.h"
#include "json.h"
#include "jsonwrite.h"

struct toolgov_args_decoder {
    toolgov_allocator alloc;
    toolgov__scratch arena;
    toolgov__jbuf canon;
    toolgov__jbuf msg;
};

/* Schema recursion that consumes no input (alternatives of alternatives)
** is bounded, so a cyclic hand-built table fails instead of looping. */
#define MAX_SCHEMA_DEPTH 64

/* The path of the value being checked, as a stack of segments rendered
** into a JSON pointer only when a problem is reported. Deeper segments
** than this are counted and shown as "/...". */
#define MAX_PATH 80

typedef struct seg {
    const char *name;  /* a member name, or NULL for an array index */
    size_t len;        /* name length, or the index */
} seg;

typedef struct ctx {
    toolgov_args_decoder *d;
    const toolgov__args_prep *prep; /* defaults made at mount, or NULL */
    seg path[MAX_PATH];
    unsigned npath;
    const char *tool;
    unsigned problems;   /* problems found outside quiet probes */
    unsigned quiet;      /* > 0 inside an anyOf/oneOf probe */
    unsigned quiet_fail; /* problems found inside probes */
    unsigned depth;      /* schema recursion depth */
    int nomem;
    const char *bad_schema; /* why the schema cannot be walked, or NULL */
    const char *root;       /* the root's name in messages */
    toolgov__args_problem *spans; /* where each reported problem is in the
                                  ** message (validate only), or NULL */
    size_t span_cap, nspans;
} ctx;

/* ---- messages ---- */

static void say_u(ctx *c, unsigned long long v);

/* The current path as a JSON pointer ("/tags/1"), the root's name ("the
** arguments" for a call) at the root. */
static void say_path(ctx *c)
{
    toolgov__jbuf *m = &c->d->msg;
    unsigned i, n = c->npath < MAX_PATH ? c->npath : MAX_PATH;

    if (c->npath == 0) {
        toolgov__jbuf_puts(m, c->root);
        return;
    }
    for (i = 0; i < n; i++) {
        const seg *g = &c->path[i];
        size_t k;

        toolgov__jbuf_putc(m, '/');
        if (!g->name) {
            say_u(c, g->len);
            continue;
        }
        for (k = 0; k < g->len; k++) {
            if (g->name[k] == '~')
                toolgov__jbuf_put(m, "~0", 2);
            else if (g->name[k] == '/')
                toolgov__jbuf_put(m, "~1", 2);
            else
                toolgov__jbuf_putc(m, g->name[k]);
        }
    }
    if (c->npath > MAX_PATH)
        toolgov__jbuf_put(m, "/...", 4);
}

/* Start one problem about the current path. Returns 1 when the caller
** should append its words (a reported problem within the cap). */
static int problem(ctx *c)
{
    toolgov__jbuf *m = &c->d->msg;

    if (c->quiet) {
        c->quiet_fail++;
        return 0;
    }
    if (c->problems++ >= TOOLGOV_ARGS_MAX_PROBLEMS)
        return 0;
    if (m->len == 0 && c->tool) {
        toolgov__jbuf_puts(m, c->tool);
        toolgov__jbuf_put(m, ": ", 2);
    } else if (m->len) {
        if (c->nspans && c->nspans <= c->span_cap)
            c->spans[c->nspans - 1].len = m->len - c->spans[c->nspans - 1].at;
        toolgov__jbuf_put(m, "; ", 2);
    }
    if (c->spans && c->nspans < c->span_cap) {
        c->spans[c->nspans].at = m->len;
        c->spans[c->nspans].path_len = 0;
    }
    say_path(c);
    if (c->spans && c->nspans < c->span_cap && c->npath)
        c->spans[c->nspans].path_len = m->len - c->spans[c->nspans].at;
    if (c->spans)
        c->nspans++;
    toolgov__jbuf_putc(m, ' ');
    return 1;
}

static void say(ctx *c, const char *s)
{
    toolgov__jbuf_puts(&c->d->msg, s);
}

static void say_u(ctx *c, unsigned long long v)
{
    char tmp[TOOLGOV__JSON_NUMBER_MAX];

    toolgov__jbuf_put(&c->d->msg, tmp, toolgov__u64_text(tmp, (uint64_t)v));
}

/* The reader's message, with the bound when one was passed ("text is longer
** than the limit of 1048576 bytes"). */
static void say_json_error(ctx *c, const toolgov__json_error *err)
{
    say(c, err->msg);
    if (err->limit_unit) {
        say(c, " of ");
        say_u(c, err->limit);
        say(c, " ");
        say(c, err->limit_unit);
    }
}

/* A string for a message: quoted, escaped, cut at 40 bytes on a character
** boundary. */
static void say_str(ctx *c, const char *s, size_t len)
{
    size_t cut = len;

    if (cut > 40) {
        cut = 40;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--;
    }
    toolgov__json_put_str(&c->d->msg, s, cut);
    if (cut < len)
        say(c, "...");
}

/* ", got <value>" for the node the problem is about. */
static void say_got(ctx *c, const toolgov__json_doc *doc, size_t idx)
{
    const toolgov__json *n = &doc->nodes[idx];

    say(c, ", got ");
    switch (n->type) {
    case TOOLGOV__JSON_NULL: say(c, "null"); break;
    case TOOLGOV__JSON_TRUE: say(c, "true"); break;
    case TOOLGOV__JSON_FALSE: say(c, "false"); break;
    case TOOLGOV__JSON_NUMBER:
        toolgov__jbuf_put(&c->d->msg, n->u.str, n->len > 40 ? 40 : n->len);
        if (n->len > 40)
            say(c, "...");
        break;
    case TOOLGOV__JSON_STRING: say_str(c, n->u.str, n->len); break;
    case TOOLGOV__JSON_ARRAY: say(c, "an array"); break;
    default: say(c, "an object"); break;
    }
}

static void say_i64(ctx *c, int64_t v)
{
    toolgov__json_put_int(&c->d->msg, v);
}

/* ---- path ---- */

static void path_push(ctx *c, const char *name, size_t len)
{
    if (c->npath < MAX_PATH) {
        c->path[c->npath].name = name;
        c->path[c->npath].len = len;
    }
    c->npath++;
}

static void path_pop(ctx *c)
{
    c->npath--;
}

/* ---- stores (memcpy: the struct's members are typed, dst is bytes) ---- */

static void store_str(unsigned char *dst, const char *s, size_t len)
{
    toolgov_str v;

    v.ptr = s;
    v.len = len;
    memcpy(dst, &v, sizeof v);
}

static void store_i64(unsigned char *dst, int64_t v)
{
    memcpy(dst, &v, sizeof v);
}

/* Zero values of an absent property: strings point to "" (never NULL). */
static void zero_value(const toolgov_arg_schema *s, unsigned char *dst, unsigned depth)
{
    size_t i;

    if (depth > MAX_SCHEMA_DEPTH)
        return;
    if (s->kind == TOOLGOV_ARG_STRING || s->kind == TOOLGOV_ARG_RAW) {
        store_str(dst, "", 0);
    } else if (s->kind == TOOLGOV_ARG_OBJECT) {
        for (i = 0; i < s->field_count; i++)
            zero_value(s->fields[i].schema, dst + s->fields[i].offset, depth + 1);
    }
}

/* ---- checks shared by typed and raw nodes ---- */

static size_t utf8_chars(const char *s, size_t len)
{
    size_t n = 0, i;

    for (i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static void check_string(ctx *c, const toolgov_arg_schema *s, const toolgov__json_doc *doc,
                         size_t idx)
{
    const toolgov__json *n = &doc->nodes[idx];

    if (s->min_len > 0 || s->max_len != TOOLGOV_ARG_UNBOUNDED) {
        size_t chars = utf8_chars(n->u.str, n->len);

        if (chars < s->min_len && problem(c)) {
            say(c, "must be at least ");
            say_u(c, s->min_len);
            say(c, s->min_len == 1 ? " character long" : " characters long");
            say(c, ", got ");
            say_u(c, chars);
        }
        if (chars > s->max_len && problem(c)) {
            say(c, "must be at most ");
            say_u(c, s->max_len);
            say(c, s->max_len == 1 ? " character long" : " characters long");
            say(c, ", got ");
            say_u(c, chars);
        }
    }
    if (s->format != TOOLGOV_FORMAT_NONE &&
        !toolgov__args_format_ok(s->format, n->u.str, n->len) && problem(c)) {
        say(c, "must be ");
        say(c, toolgov__args_format_desc(s->format));
        say_got(c, doc, idx);
    }
}

static const char *bound_words(int is_min, int excl)
{
    return is_min ? (excl ? "must be greater than " : "must be at least ")
                  : (excl ? "must be less than " : "must be at most ");
}

/* v against one bound (excl: strictly beyond it), a problem if outside. */
static void int_bound(ctx *c, int is_min, int excl, int64_t bound, int64_t v)
{
    if ((is_min ? (excl ? v <= bound : v < bound) : (excl ? v >= bound : v > bound)) &&
        problem(c)) {
        say(c, bound_words(is_min, excl));
        say_i64(c, bound);
        say(c, ", got ");
        say_i64(c, v);
    }
}

static void num_bound(ctx *c, int is_min, int excl, double bound, double v,
                      const toolgov__json_doc *doc, size_t idx)
{
    if ((is_min ? (excl ? v <= bound : v < bound) : (excl ? v >= bound : v > bound)) &&
        problem(c)) {
        say(c, bound_words(is_min, excl));
        toolgov__json_put_double(&c->d->msg, bound);
        say_got(c, doc, idx);
    }
}

/* An exact integer instance of a raw value against the exact integer bound
** of one side (inclusive). When it is outside, the message states the
** bound as the schema wrote it (exclusive or not, a number) where the node
** has that bound, so a refusal never names a bound the schema does not. */
static void raw_int_bound(ctx *c, const toolgov_arg_schema *s, int is_min, int64_t v,
                          const toolgov__json_doc *doc, size_t idx)
{
    unsigned has = is_min ? TOOLGOV_ARG_F_HAS_MIN : TOOLGOV_ARG_F_HAS_MAX;
    unsigned excl = is_min ? TOOLGOV_ARG_F_EXCL_MIN : TOOLGOV_ARG_F_EXCL_MAX;
    int64_t bound = is_min ? s->int_min : s->int_max;

    if (!(is_min ? v < bound : v > bound))
        return;
    /* INT_MIN/INT_MAX: every bound of the side is an integer, so an
    ** exclusive one is the integer bound's neighbour, exactly. */
    if ((s->flags & has) && (s->flags & excl) && (is_min ? bound > INT64_MIN : bound < INT64_MAX)) {
        if (problem(c)) {
            say(c, bound_words(is_min, 1));
            say_i64(c, is_min ? bound - 1 : bound + 1);
            say_got(c, doc, idx);
        }
        return;
    }
    int_bound(c, is_min, 0, bound, v);
}

static void check_int_bounds(ctx *c, const toolgov_arg_schema *s, int64_t v)
{
    unsigned f = s->flags;

    if (f & TOOLGOV_ARG_F_HAS_MIN)
        int_bound(c, 1, (f & TOOLGOV_ARG_F_EXCL_MIN) != 0, s->int_min, v);
    if (f & TOOLGOV_ARG_F_HAS_MAX)
        int_bound(c, 0, (f & TOOLGOV_ARG_F_EXCL_MAX) != 0, s->int_max, v);
}

static void check_num_bounds(ctx *c, const toolgov_arg_schema *s, double v,
                             const toolgov__json_doc *doc, size_t idx)
{
    unsigned f = s->flags;

    if (f & TOOLGOV_ARG_F_HAS_MIN)
        num_bound(c, 1, (f & TOOLGOV_ARG_F_EXCL_MIN) != 0, s->num_min, v, doc, idx);
    if (f & TOOLGOV_ARG_F_HAS_MAX)
        num_bound(c, 0, (f & TOOLGOV_ARG_F_EXCL_MAX) != 0, s->num_max, v, doc, idx);
}

static void check_count(ctx *c, const toolgov_arg_schema *s, size_t count)
{
    if (count < s->min_items && problem(c)) {
        say(c, "must have at least ");
        say_u(c, s->min_items);
        say(c, s->min_items == 1 ? " item, got " : " items, got ");
        say_u(c, count);
    }
    if (count > s->max_items && problem(c)) {
        say(c, "must have at most ");
        say_u(c, s->max_items);
        say(c, s->max_items == 1 ? " item, got " : " items, got ");
        say_u(c, count);
    }
}

/* "must be one of "a", "b", 3, null" */
static void say_enum(ctx *c, const toolgov_arg_schema *s, const toolgov__json_doc *doc,
                     size_t idx)
{
    size_t i, shown = 0;

    say(c, "must be one of ");
    for (i = 0; i < s->str_enum_count && shown < 10; i++, shown++) {
        if (shown)
            say(c, ", ");
        say_str(c, s->str_enum[i], strlen(s->str_enum[i]));
    }
    for (i = 0; i < s->int_enum_count && shown < 10; i++, shown++) {
        if (shown)
            say(c, ", ");
        say_i64(c, s->int_enum[i]);
    }
    if ((s->flags & TOOLGOV_ARG_F_ENUM_NULL) && shown < 10) {
        if (shown++)
            say(c, ", ");
        say(c, "null");
    }
    if (s->str_enum_count + s->int_enum_count > 10)
        say(c, ", ...");
    say_got(c, doc, idx);
}

static void type_problem(ctx *c, const char *what, const toolgov__json_doc *doc, size_t idx)
{
    if (problem(c)) {
        say(c, "must be ");
        say(c, what);
        say_got(c, doc, idx);
    }
}

/* 1 when the NUL-terminated value e is exactly the len bytes at str
** (which may hold a NUL: e never matches past its own end). */
static int enum_is(const char *e, const char *str, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (e[i] != str[i] || e[i] == '\0')
            return 0;
    return e[len] == '\0';
}

static long find_str_enum(const toolgov_arg_schema *s, const toolgov__json *n)
{
    size_t i;

    if (n->type != TOOLGOV__JSON_STRING)
        return -1;
    for (i = 0; i < s->str_enum_count; i++)
        if (enum_is(s->str_enum[i], n->u.str, n->len))
            return (long)i;
    return -1;
}

static int find_int_enum(const toolgov_arg_schema *s, int64_t v)
{
    size_t i;

    for (i = 0; i < s->int_enum_count; i++)
        if (s->int_enum[i] == v)
            return 1;
    return 0;
}

static void value(ctx *c, const toolgov__json_doc *doc, const toolgov_arg_schema *s,
                  size_t idx, unsigned char *dst);

/* "must be a string or null" from a raw node's type mask. */
static void say_types(ctx *c, unsigned types)
{
    static const struct { unsigned bit; const char *word; } names[] = {
        {TOOLGOV_JSON_STRING, "a string"},   {TOOLGOV_JSON_INTEGER, "an integer"},
        {TOOLGOV_JSON_NUMBER, "a number"},   {TOOLGOV_JSON_BOOLEAN, "a boolean"},
        {TOOLGOV_JSON_ARRAY, "an array"},    {TOOLGOV_JSON_OBJECT, "an object"},
        {TOOLGOV_JSON_NULL, "null"},
    };
    size_t i, shown = 0;

    say(c, "must be ");
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(types & names[i].bit))
            continue;
        if (names[i].bit == TOOLGOV_JSON_INTEGER && (types & TOOLGOV_JSON_NUMBER))
            continue;
        if (shown++)
            say(c, " or ");
        say(c, names[i].word);
    }
}

/* ---- objects ---- */

static int is_declared(const toolgov_arg_schema *s, const toolgov__json *key)
{
    size_t i;

    for (i = 0; i < s->field_count; i++)
        if (toolgov__json_str_eq(key, s->fields[i].name, s->fields[i].name_len))
            return 1;
    return 0;
}

static void say_allowed(ctx *c, const toolgov_arg_schema *s)
{
    size_t i;

    if (s->field_count == 0) {
        say(c, "is not allowed (no properties are)");
        return;
    }
    say(c, "is not allowed (allowed: ");
    for (i = 0; i < s->field_count && i < 12; i++) {
        if (i)
            say(c, ", ");
        say(c, s->fields[i].name);
    }
    if (s->field_count > 12)
        say(c, ", ...");
    say(c, ")");
}

/* The node of a default text the decoder reads without the reader's
** setup: true, false, null, [], {}, an integer of at most 15 digits
** (pointing into the table's text, as a number node points into its
** text), or a string of printable ASCII with no escape (copied into the
** arena with the reader's eight bytes of room after it): the defaults
** generated tables hold. 1: *node is that value, exactly as the reader
** would make it; 0: anything else, for the reader; -1: out of memory. */
static unsigned char literal(const char *p, size_t len, const char *word,
                             unsigned char type)
{
    return len == strlen(word) && memcmp(p, word, len) == 0 ? type : 0;
}

static int simple_default(ctx *c, toolgov__json *node, const char *text, size_t len)
{
    const char *p = text, *e = text + len;
    char *copy;

    memset(node, 0, sizeof *node);
    node->end = 1;
    switch (len ? *p : 0) {
    case 't': node->type = literal(p, len, "true", TOOLGOV__JSON_TRUE); break;
    case 'f': node->type = literal(p, len, "false", TOOLGOV__JSON_FALSE); break;
    case 'n': node->type = literal(p, len, "null", TOOLGOV__JSON_NULL); break;
    case '[': node->type = literal(p, len, "[]", TOOLGOV__JSON_ARRAY); break;
    case '{': node->type = literal(p, len, "{}", TOOLGOV__JSON_OBJECT); break;
    case '"':
        if (len < 2 || e[-1] != '"')
            return 0;
        for (p++; p < e - 1; p++) {
            unsigned char b = (unsigned char)*p;

            if (b < 0x20 || b >= 0x80 || b == '"' || b == '\\')
                return 0;
        }
        copy = toolgov__scratch_alloc(&c->d->arena, len - 2 + 1 + 8);
        if (!copy)
            return -1;
        memcpy(copy, text + 1, len - 2);
        copy[len - 2] = '\0';
        node->type = TOOLGOV__JSON_STRING;
        node->plain = 1;
        node->len = (uint32_t)(len - 2);
        node->u.str = copy;
        break;
    default:
        if (p < e && *p == '-')
            p++;
        if (p == e || e - p > 15 || (*p == '0' && e - p > 1))
            return 0;
        for (; p < e; p++)
            if (*p < '0' || *p > '9')
                return 0;
        node->type = TOOLGOV__JSON_NUMBER;
        node->is_int = 1;
        node->len = (uint32_t)len;
        node->u.str = text;
        break;
    }
    return node->type != 0;
}

/* Decode the default of field f into dst (a JSON text in the table),
** like a given value. */
static void default_value(ctx *c, const toolgov_arg_field *f, unsigned char *dst)
{
    toolgov__json_doc ddoc;
    toolgov__json_error err;
    toolgov__json node;
    size_t len = strlen(f->default_json);
    int rc = simple_default(c, &node, f->default_json, len);

    if (rc < 0) {
        c->nomem = 1;
        return;
    }
    if (rc) {
        ddoc.nodes = &node;
        ddoc.count = 1;
        ddoc.text = f->default_json;
        ddoc.len = len;
        value(c, &ddoc, f->schema, 0, dst);
        return;
    }
    rc = toolgov__json_parse(&ddoc, &err, &c->d->arena, f->default_json, len,
                             TOOLGOV_ARGS_MAX_NESTING, TOOLGOV_ARGS_MAX_LEN, 0);
    if (rc == TOOLGOV_ENOMEM) {
        c->nomem = 1;
        return;
    }
    if (rc) {
        c->bad_schema = "a field's default_json is not valid JSON";
        return;
    }
    value(c, &ddoc, f->schema, 0, dst);
}

/* ---- defaults made at mount ----
** A field's default is the same JSON text in every call, so its judgement
** (valid against its schema or not), its struct bytes and its canonical
** member are too: toolgov__args_prep_new works them out once, with the
** decoder's own walk, for the defaults of a scalar kind (string, integer,
** number, boolean, enum; the defaults generated tables hold), and a call
** that omits such a property copies them (object() below). A default
** that is not valid, or of another kind, is left to the walk at each
** call, so every judgement stays the walk's. */

typedef struct toolgov__args_default {
    const toolgov_arg_field *field; /* NULL: an empty slot */
    const char *member;             /* `"name":value`, canonical (in the prep) */
    size_t member_len;
    size_t image_len;               /* bytes stored at the field's offset */
    union {
        unsigned char b[sizeof(toolgov_str) > 8 ? sizeof(toolgov_str) : 8];
        toolgov_str s;
    } image;                        /* a string's ptr points into the prep */
} toolgov__args_default;

struct toolgov__args_prep {
    size_t size;                        /* bytes of this one allocation */
    size_t mask;                        /* slot count - 1, a power of two */
    toolgov__args_default slot[];       /* by field pointer, linear probing */
};

/* Schema nodes a prep visits at most. */
#define PREP_BUDGET 4096

static size_t prep_hash(const toolgov_arg_field *f, size_t mask)
{
    uint64_t x = (uint64_t)(uintptr_t)f * UINT64_C(0x9E3779B97F4A7C15);

    return (size_t)(x >> 32) & mask;
}

static const toolgov__args_default *prep_find(const toolgov__args_prep *p,
                                              const toolgov_arg_field *f)
{
    size_t i = prep_hash(f, p->mask);

    while (p->slot[i].field) {
        if (p->slot[i].field == f)
            return &p->slot[i];
        i = (i + 1) & p->mask;
    }
    return NULL;
}

static size_t image_size(toolgov_arg_kind k)
{
    switch (k) {
    case TOOLGOV_ARG_STRING: return sizeof(toolgov_str);
    case TOOLGOV_ARG_INTEGER:
    case TOOLGOV_ARG_INTEGER_ENUM: return sizeof(int64_t);
    case TOOLGOV_ARG_NUMBER: return sizeof(double);
    case TOOLGOV_ARG_BOOLEAN: return sizeof(bool);
    case TOOLGOV_ARG_STRING_ENUM: return sizeof(int);
    default: return 0;
    }
}

/* One field of a prepared list (a struct, so the list's element size is
** not read as a pointer-to-struct sizeof by clang-tidy's
** bugprone-sizeof-expression). */
typedef struct {
    const toolgov_arg_field *f;
} field_ref;

/* The fields of the tree under s whose default can be made at mount, in
** walk order (a field reached twice is listed twice), counted into *n and
** stored in out[] when out is not NULL. At most *budget nodes are visited
** (a hand-built table may share or loop; mount refuses loops), so a tree
** past that simply has fewer defaults made: the walk does the rest. */
static void prep_fields(const toolgov_arg_schema *s, unsigned depth, size_t *budget,
                        field_ref *out, size_t *n)
{
    size_t i;

    if (!s || depth > MAX_SCHEMA_DEPTH || *budget == 0)
        return;
    (*budget)--;
    for (i = 0; i < s->field_count; i++) {
        const toolgov_arg_field *f = &s->fields[i];

        if (f->default_json && f->schema && image_size(f->schema->kind)) {
            if (out)
                out[*n].f = f;
            (*n)++;
        }
        prep_fields(f->schema, depth + 1, budget, out, n);
    }
    prep_fields(s->items, depth + 1, budget, out, n);
    for (i = 0; i < s->alt_count; i++)
        prep_fields(&s->alts[i], depth + 1, budget, out, n);
}

void toolgov__args_prep_free(const toolgov_allocator *a, toolgov__args_prep *p)
{
    if (p)
        toolgov__free(a, p, p->size);
}

int toolgov__args_prep_new(const toolgov_allocator *a, const toolgov_arg_schema *root,
                           toolgov__args_prep **out)
{
    field_ref *fields = NULL;
    toolgov__args_default *made = NULL;
    toolgov_args_decoder *dec = NULL;
    toolgov__args_prep *p = NULL;
    toolgov__jbuf bytes;
    size_t n = 0, nmade = 0, nslots, i, size, budget = PREP_BUDGET;
    int rc = TOOLGOV_ENOMEM;

    *out = NULL;
    prep_fields(root, 0, &budget, NULL, &n);
    if (n == 0)
        return 0;
    toolgov__jbuf_init(&bytes, a);
    fields = toolgov__alloc(a, n * sizeof *fields);
    made = toolgov__alloc(a, n * sizeof *made);
    if (!fields || !made || toolgov_args_decoder_new(&dec, a) != 0)
        goto out;
    n = 0;
    budget = PREP_BUDGET;
    prep_fields(root, 0, &budget, fields, &n);
    for (i = 0; i < n; i++) {
        const toolgov_arg_field *f = fields[i].f;
        toolgov__args_default *m = &made[nmade];
        size_t k, at = bytes.len;
        ctx c;

        for (k = 0; k < nmade && made[k].field != f; k++)
            ;
        if (k < nmade)
            continue; /* reached twice */
        toolgov__scratch_reset(&dec->arena);
        toolgov__jbuf_clear(&dec->canon);
        toolgov__jbuf_clear(&dec->msg);
        memset(&c, 0, sizeof c);
        c.d = dec;
        c.root = "the value";
        memset(m, 0, sizeof *m);
        default_value(&c, f, m->image.b);
        if (c.nomem || dec->canon.failed)
            goto out;
        if (c.problems || c.bad_schema)
            continue; /* the walk judges it at each call */
        m->field = f;
        m->image_len = image_size(f->schema->kind);
        toolgov__json_put_str(&bytes, f->name, f->name_len);
        toolgov__jbuf_putc(&bytes, ':');
        toolgov__jbuf_put(&bytes, dec->canon.ptr, dec->canon.len);
        m->member_len = bytes.len - at;
        m->member = (const char *)(uintptr_t)at; /* an offset until the copy */
        if (f->schema->kind == TOOLGOV_ARG_STRING) {
            /* The handler's string: its bytes and NUL, kept in the prep. */
            size_t sat = bytes.len;

            toolgov__jbuf_put(&bytes, m->image.s.ptr, m->image.s.len);
            toolgov__jbuf_putc(&bytes, '\0');
            m->image.s.ptr = (const char *)(uintptr_t)sat;
        }
        if (bytes.failed)
            goto out;
        nmade++;
    }
    if (nmade == 0) {
        rc = 0;
        goto out;
    }
    for (nslots = 4; nslots < 2 * nmade; nslots *= 2)
        ;
    size = sizeof *p + nslots * sizeof p->slot[0] + bytes.len;
    p = toolgov__alloc(a, size);
    if (!p)
        goto out;
    memset(p, 0, sizeof *p + nslots * sizeof p->slot[0]);
    p->size = size;
    p->mask = nslots - 1;
    {
        char *base = (char *)&p->slot[nslots];

        if (bytes.len)
            memcpy(base, bytes.ptr, bytes.len);
        for (i = 0; i < nmade; i++) {
            toolgov__args_default *m = &made[i];
            size_t h = prep_hash(m->field, p->mask);

            m->member = base + (uintptr_t)m->member;
            if (m->field->schema->kind == TOOLGOV_ARG_STRING)
                m->image.s.ptr = base + (uintptr_t)m->image.s.ptr;
            while (p->slot[h].field)
                h = (h + 1) & p->mask;
            p->slot[h] = *m;
        }
    }
    *out = p;
    rc = 0;
out:
    toolgov_args_decoder_free(dec);
    toolgov__jbuf_free(&bytes);
    if (fields)
        toolgov__free(a, fields, n * sizeof *fields);
    if (made)
        toolgov__free(a, made, n * sizeof *made);
    return rc;
}

/* 1 when key node k (a string: the reader leaves eight readable bytes
** after its NUL) holds the len bytes of name (NUL-terminated, so readable
** up to name[len]): at most two overlapping word compares, as the match of
** a member to its field costs one such test per member. */
static int key_is(const toolgov__json *k, const char *name, size_t len)
{
    const unsigned char *a = (const unsigned char *)k->u.str, *b = (const unsigned char *)name;
    size_t i;

    if (k->len != len)
        return 0;
    if (len >= 8) {
        for (i = 0; i + 8 < len; i += 8)
            if (toolgov__json_load8(a + i) != toolgov__json_load8(b + i))
                return 0;
        return toolgov__json_load8(a + len - 8) == toolgov__json_load8(b + len - 8);
    }
    if (len >= 4) {
        uint32_t x, y, z, w;

        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        memcpy(&z, a + len - 4, 4);
        memcpy(&w, b + len - 4, 4);
        return x == y && z == w;
    }
    for (i = 0; i < len; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* 1 when value() would take node n for schema s with nothing to check but
** its type: a string node without escapes (so without a NUL) for a STRING
** node with no length bound and no format, while the walk can go one level
** deeper (value() refuses past MAX_SCHEMA_DEPTH) and has met no bad node
** or failed allocation (after which value() does nothing). */
static int plain_free_string(const ctx *c, const toolgov_arg_schema *s, const toolgov__json *n)
{
    return s && s->kind == TOOLGOV_ARG_STRING && n->type == TOOLGOV__JSON_STRING && n->plain &&
           s->min_len == 0 && s->max_len == TOOLGOV_ARG_UNBOUNDED &&
           s->format == TOOLGOV_FORMAT_NONE && c->depth < MAX_SCHEMA_DEPTH && !c->bad_schema &&
           !c->nomem;
}

/* Which member gives which declared field: at[f] is the value's node
** index + 1, 0 when the call omits field f. One pass over the members in
** the text's order; each key is first compared with the field after the
** one the previous key matched (a model writes the members in the schema's
** order, or nearly), so a call in schema order costs one comparison per
** member, and any other order at most one scan of the fields. Returns the
** number of members that matched a field. */
static size_t match_fields(const toolgov__json_doc *doc, const toolgov_arg_schema *s,
                           size_t idx, uint32_t *at)
{
    const toolgov__json *o = &doc->nodes[idx];
    size_t i, f, n = s->field_count, next = 0, matched = 0;
    uint32_t k = (uint32_t)idx + 1;

    memset(at, 0, n * sizeof *at);
    for (i = 0; i < o->len; i++, k = doc->nodes[k + 1].end) {
        const toolgov__json *key = &doc->nodes[k];

        for (f = 0; f < n; f++) {
            size_t g = next + f < n ? next + f : next + f - n;
            const toolgov_arg_field *fd = &s->fields[g];

            if (key_is(key, fd->name, fd->name_len)) {
                at[g] = k + 2;
                matched++;
                next = g + 1 < n ? g + 1 : 0;
                break;
            }
        }
    }
    return matched;
}

static void object(ctx *c, const toolgov__json_doc *doc, const toolgov_arg_schema *s,
                   size_t idx, unsigned char *dst)
{
    const toolgov__json *o = &doc->nodes[idx];
    toolgov__jbuf *out = &c->d->canon;
    uint32_t local[32], *at = local;
    size_t i, matched;
    int first = 1;

    if (s->field_count > sizeof local / sizeof local[0]) {
        at = toolgov__scratch_alloc(&c->d->arena, s->field_count * sizeof *at);
        if (!at) {
            c->nomem = 1;
            return;
        }
    }
    matched = match_fields(doc, s, idx, at);
    if (dst)
        toolgov__jbuf_putc(out, '{');
    for (i = 0; i < s->field_count; i++) {
        const toolgov_arg_field *f = &s->fields[i];
        unsigned char *fdst = dst ? dst + f->offset : NULL;

        /* null for an optional property whose schema has a type that is
        ** not null reads as absent: OpenAI's strict mode sends an optional
        ** property as null (loop.h, toolgov_loop_options.strict), and the
        ** handler's struct is the same either way. A raw node (a type
        ** list, anyOf, no type) keeps its null: there null may be a value. */
        if (at[i] && doc->nodes[at[i] - 1].type == TOOLGOV__JSON_NULL && !f->required &&
            f->schema && f->schema->kind != TOOLGOV_ARG_RAW)
            at[i] = 0;

        /* A required property must be given, default or not (JSON
        ** Schema's required; a default only fills an optional one). */
        if (!at[i] && (f->required || !f->default_json)) {
            if (f->required) {
                path_push(c, f->name, f->name_len);
                if (problem(c))
                    say(c, "is required");
                path_pop(c);
            } else if (fdst) {
                zero_value(f->schema, fdst, 0);
            }
            continue;
        }
        if (!at[i] && c->prep && c->depth < MAX_SCHEMA_DEPTH) {
            /* A default made when the tool was mounted: valid, its struct
            ** bytes and canonical member ready (the same the walk below
            ** would give, which needs one more level of depth). */
            const toolgov__args_default *pd = prep_find(c->prep, f);

            if (pd) {
                if (dst) {
                    if (!first)
                        toolgov__jbuf_putc(out, ',');
                    first = 0;
                    toolgov__jbuf_put(out, pd->member, pd->member_len);
                    memcpy(fdst, pd->image.b, pd->image_len);
                }
                continue;
            }
        }
        if (dst) {
            if (!first)
                toolgov__jbuf_putc(out, ',');
            first = 0;
            /* The member's key holds the name's bytes: its flag says
            ** whether they need an escape. */
            if (at[i])
                toolgov__json_put_node_str(out, &doc->nodes[at[i] - 2]);
            else
                toolgov__json_put_str(out, f->name, f->name_len);
            toolgov__jbuf_putc(out, ':');
        }
        if (at[i] && plain_free_string(c, f->schema, &doc->nodes[at[i] - 1])) {
            /* value()'s STRING case for it, without the walk's frame: no
            ** check can fail, so no path is needed either. */
            if (dst) {
                const toolgov__json *vn = &doc->nodes[at[i] - 1];
                bool yes = true;

                store_str(fdst, vn->u.str, vn->len);
                toolgov__json_put_node_str(out, vn);
                if (f->has_offset != TOOLGOV_ARG_NO_HAS)
                    memcpy(dst + f->has_offset, &yes, sizeof yes);
            }
            continue;
        }
        path_push(c, f->name, f->name_len);
        if (at[i]) {
            value(c, doc, f->schema, at[i] - 1, fdst);
            if (dst && f->has_offset != TOOLGOV_ARG_NO_HAS) {
                bool yes = true;

                memcpy(dst + f->has_offset, &yes, sizeof yes);
            }
        } else {
            default_value(c, f, fdst);
        }
        path_pop(c);
    }
    /* Extra members, in key order (the reader sorted them). */
    for (i = 0; matched < o->len && i < o->len; i++) {
        uint32_t k = o->u.sorted[i];
        const toolgov__json *key = &doc->nodes[k];

        if (is_declared(s, key))
            continue;
        if (s->flags & TOOLGOV_ARG_F_CLOSED) {
            path_push(c, key->u.str, key->len);
            if (problem(c))
                say_allowed(c, s);
            path_pop(c);
            continue;
        }
        if (dst) {
            if (!first)
                toolgov__jbuf_putc(out, ',');
            first = 0;
            toolgov__json_put_node_str(out, key);
            toolgov__jbuf_putc(out, ':');
            toolgov__json_put_value(out, doc, k + 1);
        }
    }
    if (dst)
        toolgov__jbuf_putc(out, '}');
}

/* ---- arrays ---- */

static void array(ctx *c, const toolgov__json_doc *doc, const toolgov_arg_schema *s,
                  size_t idx, unsigned char *dst)
{
    const toolgov__json *a = &doc->nodes[idx];
    unsigned char *items = NULL;
    size_t i, k;

    check_count(c, s, a->len);
    if (dst) {
        toolgov_array arr;

        if (s->item_size == 0 || !s->items) {
            c->bad_schema = "an array node has no items schema or item_size";
            return;
        }
        if (a->len) {
            if (a->len > SIZE_MAX / s->item_size) {
                c->nomem = 1;
                return;
            }
            items = toolgov__scratch_alloc(&c->d->arena, a->len * s->item_size);
            if (!items) {
                c->nomem = 1;
                return;
            }
            memset(items, 0, a->len * s->item_size);
        }
        arr.items = items;
        arr.count = a->len;
        memcpy(dst, &arr, sizeof arr);
        toolgov__jbuf_putc(&c->d->canon, '[');
    }
    if (!s->items) {
        if (dst)
            toolgov__jbuf_putc(&c->d->canon, ']');
        return;
    }
    for (i = 0, k = idx + 1; i < a->len; i++, k = doc->nodes[k].end) {
        path_push(c, NULL, i);
        if (dst && i)
            toolgov__jbuf_putc(&c->d->canon, ',');
        value(c, doc, s->items, k, items ? items + i * s->item_size : NULL);
        path_pop(c);
    }
    if (dst)
        toolgov__jbuf_putc(&c->d->canon, ']');
}

/* ---- raw values ---- */

static unsigned json_type_bit(const toolgov__json *n)
{
    switch (n->type) {
    case TOOLGOV__JSON_NULL: return TOOLGOV_JSON_NULL;
    case TOOLGOV__JSON_TRUE:
    case TOOLGOV__JSON_FALSE: return TOOLGOV_JSON_BOOLEAN;
    case TOOLGOV__JSON_NUMBER:
        return toolgov__json_is_integral(n) ? TOOLGOV_JSON_INTEGER | TOOLGOV_JSON_NUMBER
                                            : TOOLGOV_JSON_NUMBER;
    case TOOLGOV__JSON_STRING: return TOOLGOV_JSON_STRING;
    case TOOLGOV__JSON_ARRAY: return TOOLGOV_JSON_ARRAY;
    default: return TOOLGOV_JSON_OBJECT;
    }
}

static int raw_enum_ok(const toolgov_arg_schema *s, const toolgov__json *n)
{
    int64_t v;

    if (n->type == TOOLGOV__JSON_NULL)
        return (s->flags & TOOLGOV_ARG_F_ENUM_NULL) != 0;
    if (n->type == TOOLGOV__JSON_STRING)
        return find_str_enum(s, n) >= 0;
    if (n->type == TOOLGOV__JSON_NUMBER && toolgov__json_int64(n, &v) == 0)
        return find_int_enum(s, v);
    return 0;
}

/* Validate a raw value against its node, by instance type (JSON Schema's
** rule: a keyword constrains only the instance types it is about). */
static void raw_check(ctx *c, const toolgov__json_doc *doc, const toolgov_arg_schema *s,
                      size_t idx)
{
    const toolgov__json *n = &doc->nodes[idx];
    unsigned bits = json_type_bit(n);

    if (s->types && !(s->types & bits)) {
        if (problem(c)) {
            say_types(c, s->types);
            say_got(c, doc, idx);
        }
        return;
    }
    if (((s->flags & TOOLGOV_ARG_F_HAS_ENUM) || s->str_enum_count || s->int_enum_count) &&
        !raw_enum_ok(s, n)) {
        if (problem(c))
            say_enum(c, s, doc, idx);
        return;
    }
    switch (n->type) {
    case TOOLGOV__JSON_STRING:
        check_string(c, s, doc, idx);
        break;
    case TOOLGOV__JSON_NUMBER: {
        unsigned f = s->flags;
        int64_t iv;
        double v;
        int exact, finite;

        if (!s->types && !(f & (TOOLGOV_ARG_F_HAS_MIN | TOOLGOV_ARG_F_HAS_MAX)))
            break; /* nothing to check on a number */
        exact = toolgov__json_int64(n, &iv) == 0;
        finite = toolgov__json_double(n, &v) == 0;
        /* In a type list, integer is still an exact int64 and number a
        ** finite double, as for a typed value. */
        if (s->types && !((s->types & TOOLGOV_JSON_NUMBER) && finite) &&
            !((s->types & TOOLGOV_JSON_INTEGER) && exact)) {
            type_problem(c, (s->types & TOOLGOV_JSON_NUMBER)
                                ? "a finite number (this one is beyond the double range)"
                                : "an integer within the 64-bit range",
                         doc, idx);
            return;
        }
        if (!finite)
            v = n->u.str[0] == '-' ? -HUGE_VAL : HUGE_VAL;
        /* An exact integer against the exact integer bound of a side where
        ** the schema has one (inclusive), else against the double bound. */
        /* The message names the schema's own bound (exclusiveMaximum 1 is
        ** "less than 1", not the integer bound "at most 0" it decides with). */
        if (exact && (f & TOOLGOV_ARG_F_INT_MIN))
            raw_int_bound(c, s, 1, iv, doc, idx);
        else if (f & TOOLGOV_ARG_F_HAS_MIN)
            num_bound(c, 1, (f & TOOLGOV_ARG_F_EXCL_MIN) != 0, s->num_min, v, doc, idx);
        if (exact && (f & TOOLGOV_ARG_F_INT_MAX))
            raw_int_bound(c, s, 0, iv, doc, idx);
        else if (f & TOOLGOV_ARG_F_HAS_MAX)
            num_bound(c, 0, (f & TOOLGOV_ARG_F_EXCL_MAX) != 0, s->num_max, v, doc, idx);
        break;
    }
    case TOOLGOV__JSON_ARRAY:
        array(c, doc, s, idx, NULL);
        break;
    case TOOLGOV__JSON_OBJECT:
        object(c, doc, s, idx, NULL);
        break;
    default:
        break;
    }
    if (s->alt_count) {
        size_t i, matched = 0;
        int one_of = (s->flags & TOOLGOV_ARG_F_ONE_OF) != 0;

        for (i = 0; i < s->alt_count; i++) {
            unsigned before = c->quiet_fail;

            c->quiet++;
            value(c, doc, &s->alts[i], idx, NULL);
            c->quiet--;
            if (c->quiet_fail == before) {
                matched++;
                if (!one_of)
                    break;
            }
            c->quiet_fail = before;
        }
        if (matched == 0 && problem(c)) {
            say(c, one_of ? "must match one of its oneOf schemas"
                          : "must match at least one of its anyOf schemas");
            say_got(c, doc, idx);
        } else if (one_of && matched > 1 && problem(c)) {
            say(c, "must match exactly one of its oneOf schemas, matched ");
            say_u(c, matched);
        }
    }
}

/* ---- one value ---- */

static void value(ctx *c, const toolgov__json_doc *doc, const toolgov_arg_schema *s,
                  size_t idx, unsigned char *dst)
{
    const toolgov__json *n = &doc->nodes[idx];
    toolgov__jbuf *out = &c->d->canon;
    int64_t iv;
    double dv;
    long ev;

    if (c->bad_schema || c->nomem)
        return;
    if (!s || ++c->depth > MAX_SCHEMA_DEPTH) {
        c->bad_schema = s ? "the schema nests (or loops) deeper than 64 nodes"
                          : "a field or items pointer is NULL";
        return;
    }
    switch (s->kind) {
    case TOOLGOV_ARG_STRING:
        if (n->type != TOOLGOV__JSON_STRING) {
            type_problem(c, "a string", doc, idx);
            break;
        }
        /* A handler reads a string as C text more often than not: one with
        ** a NUL would end early there ("\u0000spam" reads as ""), so it is
        ** refused unless the schema opts in (TOOLGOV_ARG_F_ALLOW_NUL). */
        /* Only an escape (\u0000) can put a NUL there: the reader refuses
        ** a raw control byte, so a string without one (plain) has none. */
        if (!(s->flags & TOOLGOV_ARG_F_ALLOW_NUL) && !n->plain &&
            memchr(n->u.str, '\0', n->len) && problem(c))
            say(c, "must not contain a NUL character (\\u0000)");
        check_string(c, s, doc, idx);
        if (dst) {
            store_str(dst, n->u.str, n->len);
            toolgov__json_put_node_str(out, n);
        }
        break;
    case TOOLGOV_ARG_INTEGER:
    case TOOLGOV_ARG_INTEGER_ENUM:
        if (n->type != TOOLGOV__JSON_NUMBER || !toolgov__json_is_integral(n)) {
            type_problem(c, "an integer", doc, idx);
            break;
        }
        if (toolgov__json_int64(n, &iv) != 0) {
            type_problem(c, "an integer within the 64-bit range", doc, idx);
            break;
        }
        if (s->kind == TOOLGOV_ARG_INTEGER_ENUM && !find_int_enum(s, iv)) {
            if (problem(c))
                say_enum(c, s, doc, idx);
            break;
        }
        check_int_bounds(c, s, iv);
        if (dst) {
            store_i64(dst, iv);
            toolgov__json_put_int(out, iv);
        }
        break;
    case TOOLGOV_ARG_NUMBER:
        if (n->type != TOOLGOV__JSON_NUMBER) {
            type_problem(c, "a number", doc, idx);
            break;
        }
        if (toolgov__json_double(n, &dv) != 0) {
            type_problem(c, "a finite number (this one is beyond the double range)", doc, idx);
            break;
        }
        if (s->int_enum_count && (toolgov__json_int64(n, &iv) != 0 || !find_int_enum(s, iv))) {
            /* A number with an enum of integers: one of them, 1 or 1.0. */
            if (problem(c))
                say_enum(c, s, doc, idx);
            break;
        }
        check_num_bounds(c, s, dv, doc, idx);
        if (dst) {
            memcpy(dst, &dv, sizeof dv);
            toolgov__json_put_number_double(out, n, dv);
        }
        break;
    case TOOLGOV_ARG_BOOLEAN:
        if (n->type != TOOLGOV__JSON_TRUE && n->type != TOOLGOV__JSON_FALSE) {
            type_problem(c, "a boolean (true or false)", doc, idx);
            break;
        }
        if (dst) {
            bool b = n->type == TOOLGOV__JSON_TRUE;

            memcpy(dst, &b, sizeof b);
            toolgov__jbuf_puts(out, b ? "true" : "false");
        }
        break;
    case TOOLGOV_ARG_STRING_ENUM:
        ev = n->type == TOOLGOV__JSON_STRING ? find_str_enum(s, n) : -1;
        if (ev < 0) {
            if (problem(c))
                say_enum(c, s, doc, idx);
            break;
        }
        if (dst) {
            int e = (int)ev;

            memcpy(dst, &e, sizeof e);
            toolgov__json_put_node_str(out, n);
        }
        break;
    case TOOLGOV_ARG_ARRAY:
        if (n->type != TOOLGOV__JSON_ARRAY) {
            type_problem(c, "an array", doc, idx);
            break;
        }
        array(c, doc, s, idx, dst);
        break;
    case TOOLGOV_ARG_OBJECT:
        if (n->type != TOOLGOV__JSON_OBJECT) {
            type_problem(c, "an object", doc, idx);
            break;
        }
        object(c, doc, s, idx, dst);
        break;
    case TOOLGOV_ARG_RAW:
        raw_check(c, doc, s, idx);
        if (dst) {
            size_t start = out->len, len;
            char *copy;

            toolgov__json_put_value(out, doc, idx);
            if (out->failed)
                break;
            len = out->len - start;
            copy = toolgov__scratch_alloc(&c->d->arena, len + 1);
            if (!copy) {
                c->nomem = 1;
                break;
            }
            memcpy(copy, out->ptr + start, len);
            copy[len] = '\0';
            store_str(dst, copy, len);
        }
        break;
    default:
        c->bad_schema = "a node has an unknown kind";
        break;
    }
    c->depth--;
}

/* ---- API ---- */

int toolgov_args_decoder_new(toolgov_args_decoder **out, const toolgov_allocator *alloc)
{
    toolgov_allocator a;
    toolgov_args_decoder *d;

    if (!out)
        return TOOLGOV_EINVAL;
    a.fn = alloc ? alloc->fn : NULL;
    a.ud = alloc ? alloc->ud : NULL;
    d = toolgov__alloc(alloc, sizeof *d);
    if (!d)
        return TOOLGOV_ENOMEM;
    d->alloc = a;
    toolgov__scratch_init(&d->arena, &d->alloc);
    toolgov__jbuf_init(&d->canon, &d->alloc);
    toolgov__jbuf_init(&d->msg, &d->alloc);
    *out = d;
    return 0;
}

void toolgov_args_decoder_free(toolgov_args_decoder *dec)
{
    toolgov_allocator a;

    if (!dec)
        return;
    a = dec->alloc;
    toolgov__scratch_free(&dec->arena);
    toolgov__jbuf_free(&dec->canon);
    toolgov__jbuf_free(&dec->msg);
    toolgov__free(&a, dec, sizeof *dec);
}

static int all_space(const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            return 0;
    return 1;
}

/* The refusal of a text that is not JSON at all. */
static void say_syntax(ctx *c, const toolgov__json_error *err)
{
    toolgov__jbuf *m = &c->d->msg;

    c->problems++;
    if (c->tool) {
        toolgov__jbuf_puts(m, c->tool);
        toolgov__jbuf_put(m, ": ", 2);
    }
    say(c, "the arguments are not valid JSON: ");
    say_json_error(c, err);
    if (err->key) {
        say(c, " ");
        say_str(c, err->key, strlen(err->key));
    }
    say(c, " at byte ");
    say_u(c, err->pos);
}

int toolgov_args_decode(toolgov_decoded_args *out, toolgov_args_decoder *dec,
                        const toolgov_arg_schema *params, const char *tool,
                        const char *text, size_t len)
{
    return toolgov__args_decode_prep(out, dec, params, NULL, tool, text, len);
}

int toolgov__args_decode_prep(toolgov_decoded_args *out, toolgov_args_decoder *dec,
                              const toolgov_arg_schema *params,
                              const toolgov__args_prep *prep, const char *tool,
                              const char *text, size_t len)
{
    toolgov__json_doc doc;
    toolgov__json_error err;
    unsigned char *dst = NULL;
    size_t size;
    ctx c;
    int rc;

    if (!out || !dec)
        return TOOLGOV_EINVAL;
    out->args = NULL;
    out->canonical = "";
    out->canonical_len = 0;
    out->message = "";
    out->message_len = 0;
    toolgov__scratch_reset(&dec->arena);
    toolgov__jbuf_clear(&dec->canon);
    toolgov__jbuf_clear(&dec->msg);
    c.npath = 0;
    c.problems = c.quiet = c.quiet_fail = c.depth = 0;
    c.nomem = 0;
    c.bad_schema = NULL;
    c.d = dec;
    c.prep = prep;
    c.tool = tool;
    c.root = "the arguments";
    c.spans = NULL;
    c.span_cap = c.nspans = 0;

    if (!text || all_space(text, len)) {
        text = "{}";
        len = 2;
    }
    rc = toolgov__json_parse(&doc, &err, &dec->arena, text, len,
                             TOOLGOV_ARGS_MAX_NESTING, TOOLGOV_ARGS_MAX_LEN, 0);
    if (rc == TOOLGOV_ENOMEM)
        return rc;
    if (rc) {
        say_syntax(&c, &err);
        goto finish;
    }
    size = params ? params->struct_size : sizeof(toolgov_no_args);
    dst = toolgov__scratch_alloc(&dec->arena, size ? size : 1);
    if (!dst)
        return TOOLGOV_ENOMEM;
    memset(dst, 0, size ? size : 1);
    if (!params) {
        /* No parameters: only {}, "" or no text. Each member of an object
        ** is named by its path, so the model learns what to leave out. */
        const toolgov__json *root = &doc.nodes[0];
        size_t i;

        if (root->type == TOOLGOV__JSON_OBJECT) {
            for (i = 0; i < root->len; i++) {
                const toolgov__json *key = &doc.nodes[root->u.sorted[i]];

                path_push(&c, key->u.str, key->len);
                if (problem(&c))
                    say(&c, "is not allowed (the tool takes no arguments)");
                path_pop(&c);
            }
        } else if (!(root->type == TOOLGOV__JSON_STRING && root->len == 0) && problem(&c)) {
            say(&c, "must be {} (the tool takes no arguments)");
            say_got(&c, &doc, 0);
        }
        toolgov__jbuf_put(&dec->canon, "{}", 2);
    } else if (params->kind != TOOLGOV_ARG_OBJECT) {
        c.bad_schema = "the root node is not an OBJECT";
    } else if (doc.nodes[0].type != TOOLGOV__JSON_OBJECT) {
        type_problem(&c, "a JSON object", &doc, 0);
    } else {
        value(&c, &doc, params, 0, dst);
    }

finish:
    if (c.nomem || dec->canon.failed)
        return TOOLGOV_ENOMEM;
    if (c.bad_schema) {
        toolgov__jbuf_clear(&dec->msg);
        toolgov__jbuf_puts(&dec->msg, "the argument schema cannot be used: ");
        toolgov__jbuf_puts(&dec->msg, c.bad_schema);
        if (toolgov__jbuf_finish(&dec->msg))
            return TOOLGOV_ENOMEM;
        out->message = dec->msg.ptr;
        out->message_len = dec->msg.len;
        return TOOLGOV_EINVAL;
    }
    if (c.problems) {
        if (c.problems > TOOLGOV_ARGS_MAX_PROBLEMS) {
            unsigned more = c.problems - TOOLGOV_ARGS_MAX_PROBLEMS;

            say(&c, "; and ");
            say_u(&c, more);
            say(&c, more == 1 ? " more problem" : " more problems");
        }
        if (toolgov__jbuf_finish(&dec->msg))
            return TOOLGOV_ENOMEM;
        out->message = dec->msg.ptr;
        out->message_len = dec->msg.len;
        return TOOLGOV_EARGS;
    }
    if (toolgov__jbuf_finish(&dec->canon))
        return TOOLGOV_ENOMEM;
    out->args = dst;
    out->canonical = dec->canon.ptr;
    out->canonical_len = dec->canon.len;
    return 0;
}

int toolgov__args_validate(toolgov_args_decoder *dec, const toolgov_arg_schema *s,
                           const char *root, const char *text, size_t len,
                           toolgov__args_problem *probs, size_t max, size_t *nprobs,
                           unsigned *total, const char **message)
{
    toolgov__json_doc doc;
    toolgov__json_error err;
    ctx c;
    size_t i;
    int rc;

    *nprobs = 0;
    *total = 0;
    *message = "";
    if (!dec || !s || !text)
        return TOOLGOV_EINVAL;
    toolgov__scratch_reset(&dec->arena);
    toolgov__jbuf_clear(&dec->canon);
    toolgov__jbuf_clear(&dec->msg);
    memset(&c, 0, sizeof c);
    c.d = dec;
    c.root = root ? root : "the value";
    c.spans = probs;
    c.span_cap = max;
    rc = toolgov__json_parse(&doc, &err, &dec->arena, text, len, TOOLGOV_ARGS_MAX_NESTING,
                             TOOLGOV_ARGS_MAX_LEN, 0);
    if (rc == TOOLGOV_ENOMEM)
        return rc;
    if (rc) {
        say(&c, "the value cannot be read as JSON: ");
        say_json_error(&c, &err);
        rc = TOOLGOV_EINVAL;
    } else {
        value(&c, &doc, s, 0, NULL);
        if (c.nomem)
            return TOOLGOV_ENOMEM;
        if (c.bad_schema) {
            toolgov__jbuf_clear(&dec->msg);
            toolgov__jbuf_puts(&dec->msg, "the schema cannot be used: ");
            toolgov__jbuf_puts(&dec->msg, c.bad_schema);
            c.nspans = 0;
            rc = TOOLGOV_EINVAL;
        } else {
            rc = c.problems ? TOOLGOV_EARGS : 0;
        }
    }
    if (c.nspans && c.nspans <= max)
        probs[c.nspans - 1].len = dec->msg.len - probs[c.nspans - 1].at;
    if (toolgov__jbuf_finish(&dec->msg))
        return TOOLGOV_ENOMEM;
    *nprobs = c.nspans < max ? c.nspans : max;
    for (i = 0; i < *nprobs; i++)
        if (probs[i].len == 0) /* the last one of a full list */
            probs[i].len = dec->msg.len - probs[i].at;
    *total = rc == TOOLGOV_EARGS ? c.problems : 0;
    *message = dec->msg.ptr;
    return rc;
}
