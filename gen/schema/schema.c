/* SPDX-License-Identifier: MIT */
/*
** schema.c: the `parameters:` compiler (see schema.h; docs/manifest.md lists
** every keyword and message).
**
** How a node is compiled. Its members are sorted into the keywords of the
** subset (kw[] below, one slot each), the keywords that exist in JSON Schema
** but not here (each with the advice the message gives), and unknown words
** (a "did you mean" among the subset). The node's C shape follows from
** `type`: one JSON type gives a typed field; anyOf, oneOf, several types,
** null or no type give raw JSON, whose keywords and branches are checked
** all the same, since the runtime validates against them. Then each keyword
** is checked against the types it applies to, values against their own
** rules, and the pairs that can contradict each other (minimum/maximum,
** required/properties, default/everything) last. A bad member is reported
** and skipped; the node goes on, so one run reports every problem.
**
** Messages name the schema by its place in the tool's parameters, as
** property 'a.b', the items of 'tags', anyOf 2 of 'x'; labels are built
** only when an error needs them.
*/
#include "schema/schema.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args_internal.h"
#include "json.h"
#include "base/text.h"
#include "tooljson.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))
#define MSG_MAX 1024

/* ---- diagnostics --------------------------------------------------------- */

static int over_cap(const toolgov__schema_ctx *cx)
{
    return cx->d->max_errors && cx->d->errors >= cx->d->max_errors;
}

static void err_at(toolgov__schema_ctx *cx, toolgov__mark at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void err_at(toolgov__schema_ctx *cx, toolgov__mark at, const char *fmt, ...)
{
    char msg[MSG_MAX];
    va_list ap;
    if (over_cap(cx)) {
        toolgov__diag_error(cx->d, cx->path, at.line, at.col, "%s", "");
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    toolgov__diag_error(cx->d, cx->path, at.line, at.col, "%s", msg);
}

static void note_at(toolgov__schema_ctx *cx, toolgov__mark at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void note_at(toolgov__schema_ctx *cx, toolgov__mark at, const char *fmt, ...)
{
    char msg[MSG_MAX];
    va_list ap;
    if (cx->d->suppressing)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    toolgov__diag_note(cx->d, cx->path, at.line, at.col, "%s", msg);
}

static void oom(toolgov__schema_ctx *cx)
{
    toolgov__jv_oom(cx);
}

static void *alloc(toolgov__schema_ctx *cx, size_t n)
{
    void *p = toolgov__arena_alloc(cx->arena, n);
    if (!p)
        oom(cx);
    return p;
}

/* Temporaries of a compile (value checks): the scratch arena when the
** caller gave one. */
static toolgov__arena *tmp_arena(toolgov__schema_ctx *cx)
{
    return cx->scratch ? cx->scratch : cx->arena;
}

static void *tmp_alloc(toolgov__schema_ctx *cx, size_t n)
{
    void *p = toolgov__arena_alloc(tmp_arena(cx), n);
    if (!p)
        oom(cx);
    return p;
}

const toolgov__slimits toolgov__slimits_none;

/* ---- name lists ---------------------------------------------------------- */

/* Lists of names compared for equality (sibling C names, required names,
** enum values) are compared pairwise up to TOOLGOV__SCAN_MAX names (value.h);
** longer ones index the first occurrence of each name (base/index.h). */

/* The most "did you mean" hints worked out for one list of names. */
#define HINTS_MAX 64u

/* An index over arr with room for n keys, in the given arena; -1 when out
** of memory (reported). */
static int keyix_init(toolgov__schema_ctx *cx, toolgov__arena *a, toolgov__index *ix, size_t n,
                      const void *arr, toolgov__index_key_fn key_of)
{
    toolgov__index_init(ix, a, arr, key_of);
    if (toolgov__index_reserve(ix, n)) {
        oom(cx);
        return -1;
    }
    return 0;
}

/* Where the scan for an earlier name equal to position i's, s[0..len),
** starts: with no index (a short list) at 0, the scan looking at every
** earlier name; with one, at the first equal name, or at i when there is
** none (position i then joins the index). */
static size_t scan_from(toolgov__index *ix, size_t i, const char *s, size_t len)
{
    size_t first;
    int r;
    if (!ix)
        return 0;
    r = toolgov__index_add(ix, i, s, len, &first);
    return r > 0 ? first : r == 0 ? i : 0;
}

/* ---- the value tree ------------------------------------------------------ */

/* A copy of s[0..len) in the arena, for the compiled tree to keep. */
static const char *keep(toolgov__schema_ctx *cx, const char *s, size_t len)
{
    char *t = toolgov__arena_strndup(cx->arena, s, len);
    if (!t)
        oom(cx);
    return t;
}

/* A deep copy of v in the arena, sized exactly (enum and default values,
** which the compiled tree keeps). */
static toolgov__jval *jv_copy(toolgov__schema_ctx *cx, const toolgov__jval *v)
{
    toolgov__jval *c = alloc(cx, sizeof *c);
    size_t i;
    if (!c)
        return NULL;
    *c = *v;
    c->items = NULL;
    c->members = NULL;
    c->ix_ = NULL; /* copies are small values: found by a scan */
    c->cap_ = v->count;
    if (v->kind == TOOLGOV_J_NUMBER || v->kind == TOOLGOV_J_STRING) {
        if (!(c->text = keep(cx, v->text, v->len)))
            return NULL;
    } else if (v->kind == TOOLGOV_J_ARRAY && v->count) {
        if (!(c->items = alloc(cx, v->count * sizeof(toolgov__jval *))))
            return NULL;
        for (i = 0; i < v->count; i++)
            if (!(c->items[i] = jv_copy(cx, v->items[i])))
                return NULL;
    } else if (v->kind == TOOLGOV_J_OBJECT && v->count) {
        if (!(c->members = alloc(cx, v->count * sizeof *c->members)))
            return NULL;
        for (i = 0; i < v->count; i++) {
            c->members[i] = v->members[i];
            if (!(c->members[i].key = keep(cx, v->members[i].key, v->members[i].key_len)) ||
                !(c->members[i].val = jv_copy(cx, v->members[i].val)))
                return NULL;
        }
    }
    return c;
}

/* ---- C names ------------------------------------------------------------- */

/* Names a property must not take as a struct member: C and C++ keywords
** (C23's and C++20's included), a few function-like macros (assert,
** offsetof, va_*) and the types the generated code uses, names GCC predefines in
** its gnu modes, and `has`, the member that holds the presence flags; the
** standard headers' object-like macros are std_macros below. Sorted for
** bsearch. */
static const char *const reserved_names[] = {
    "_Alignas", "_Alignof", "_Atomic", "_BitInt", "_Bool", "_Complex",
    "_Decimal128", "_Decimal32", "_Decimal64", "_Generic", "_Imaginary", "_Noreturn",
    "_Pragma", "_Static_assert", "_Thread_local", "alignas", "alignof", "and", "and_eq",
    "asm", "assert", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
    "char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield", "compl",
    "concept", "const", "const_cast", "consteval", "constexpr", "constinit",
    "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast", "else",
    "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
    "has", "i386", "if", "imaginary", "inline", "int", "int64_t", "linux", "long", "mutable", "namespace",
    "new", "noexcept", "not", "not_eq", "nullptr", "offsetof", "operator", "or",
    "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires",
    "restrict", "return", "short", "signed", "size_t", "sizeof", "static", "static_assert",
    "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "toolgov_array", "toolgov_str", "true", "try", "typedef", "typeid", "typename", "typeof",
    "typeof_unqual", "union", "unix", "unsigned", "using", "va_arg", "va_copy", "va_end",
    "va_start", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};

static int cmp_str(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

/* The object-like macros of the C standard library headers (SIZE_MAX,
** EINVAL, INT_MAX, NAN, ...): see the file for how it was made. */
static const char *const std_macros[] = {
#include "schema/c_std_macros.inc"
};

static int is_reserved(const char *s)
{
    return bsearch(s, reserved_names, COUNT_OF(reserved_names), sizeof *reserved_names,
                   cmp_str) != NULL ||
           bsearch(s, std_macros, COUNT_OF(std_macros), sizeof *std_macros, cmp_str) != NULL;
}

/* The macro names of toolgov's own headers (every one starts TOOLGOV_) and
** of generated headers (<PLUGIN>_TOOLGOV_H, _GENERATION, _HANDLER, of this
** plugin or any other, with more added later): the whole namespace
** [A-Z0-9_]*TOOLGOV_[A-Z0-9_]* is reserved, since a member spelt like one
** of them is expanded by whichever header defines it. A name there gets a
** 'p' before it (a '_' after it would still be in the namespace:
** TOOLGOV_HANDLER_LINKAGE_ is a macro). */
static int toolgov_macro_space(const char *s)
{
    const char *t = strstr(s, "TOOLGOV_");
    size_t i;
    while (t && t != s && t[-1] != '_')
        t = strstr(t + 1, "TOOLGOV_");
    if (!t)
        return 0;
    for (i = 0; s[i]; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return 1;
}

static int ident_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Symbols that tell values apart where a separator would not (`+1` and
** `-1`, `C++` and `C#`, `<=` and `>=`): spelt as words in C names. Every
** other byte outside [A-Za-z0-9_] separates, as `_`. */
static const char *spelt(unsigned char c)
{
    switch (c) {
    case '+': return "plus";
    case '#': return "hash";
    case '*': return "star";
    case '@': return "at";
    case '%': return "percent";
    case '&': return "and";
    case '=': return "eq";
    case '<': return "lt";
    case '>': return "gt";
    case '!': return "not";
    default: return NULL;
    }
}

#define SPELT_MAX 9 /* the longest word of spelt() and a `_` on each side */

/* The mapping of toolgov__c_name(); `keywords` 0 for enum constants, which
** always follow a prefix and so cannot be keywords. A spelt symbol is its
** word between separators, none at the start (`+1` is `plus_1`, `c++` is
** `c_plus_plus`). */
static const char *c_name(toolgov__schema_ctx *cx, const char *s, size_t len, int keywords)
{
    char *o, *w;
    size_t i;
    size_t need = len + 4;
    int sep = 0; /* a spelt word was written: a separator before what follows */
    for (i = 0; i < len; i++)
        if (spelt((unsigned char)s[i]))
            need += SPELT_MAX;
    o = alloc(cx, need);
    if (!o)
        return NULL;
    w = o;
    for (i = 0; i < len; i++) {
        const char *word = spelt((unsigned char)s[i]);
        char c = ident_char((unsigned char)s[i]) ? s[i] : '_';
        if (word) {
            size_t n = strlen(word);
            if (w > o && w[-1] != '_')
                *w++ = '_';
            memcpy(w, word, n);
            w += n;
            sep = 1;
            continue;
        }
        if (sep && c != '_')
            *w++ = '_';
        sep = 0;
        if (c == '_' && w > o && w[-1] == '_')
            continue;
        *w++ = c;
    }
    *w = '\0';
    if (w == o || (w == o + 1 && o[0] == '_')) {
        memcpy(o, "p", 2);
        return o;
    }
    if ((o[0] >= '0' && o[0] <= '9') || (o[0] == '_' && o[1] >= 'A' && o[1] <= 'Z') ||
        (keywords && toolgov_macro_space(o))) {
        memmove(o + 1, o, (size_t)(w - o) + 1);
        o[0] = 'p';
        w++;
    }
    if (keywords && is_reserved(o)) {
        *w++ = '_';
        *w = '\0';
    }
    return o;
}

const char *toolgov__c_name(toolgov__schema_ctx *cx, const char *s, size_t len)
{
    return c_name(cx, s, len, 1);
}

/* ---- formats ------------------------------------------------------------- */

static const char *const format_words[] = {"date", "time", "date-time", "email", "uri"};

/* The format f names, of format_words (TOOLGOV_F_OTHER for any other name). */
static toolgov__sformat format_of(const toolgov__jval *f)
{
    size_t i;
    for (i = 0; i < COUNT_OF(format_words); i++)
        if (strlen(format_words[i]) == f->len && !memcmp(format_words[i], f->text, f->len))
            return (toolgov__sformat)(TOOLGOV_F_DATE + i);
    return TOOLGOV_F_OTHER;
}

/* Formats this subset does not check that JSON Schema (draft 2020-12) or
** OpenAPI define: annotations, kept as written and never taken for a slip
** of a checked one ("iri" is one letter from "uri", "uuid" two). */
static const char *const annotation_formats[] = {
    "duration", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri-reference",
    "iri", "iri-reference", "uuid", "uri-template", "json-pointer", "relative-json-pointer",
    "regex", "int32", "int64", "float", "double", "byte", "binary", "password"};

/* The checked format an unchecked format name is a slip of (a case or
** blank slip, or a near miss by edit distance: "emial", "Email", "url",
** "datetime", "date-time "), or NULL when it is none: a known annotation
** or a name far from every checked one. Error path only in effect: a
** checked name is found by format_of first. */
static const char *format_slip(const toolgov__jval *f)
{
    char w[64];
    size_t i, a = 0, b = f->len;

    if (f->len == 0 || f->len >= sizeof w || memchr(f->text, 0, f->len))
        return NULL;
    for (i = 0; i < COUNT_OF(annotation_formats); i++)
        if (strlen(annotation_formats[i]) == f->len &&
            !memcmp(annotation_formats[i], f->text, f->len))
            return NULL;
    while (a < b && (f->text[a] == ' ' || f->text[a] == '\t'))
        a++;
    while (b > a && (f->text[b - 1] == ' ' || f->text[b - 1] == '\t'))
        b--;
    for (i = a; i < b; i++)
        w[i - a] = (char)(f->text[i] >= 'A' && f->text[i] <= 'Z' ? f->text[i] | 0x20 : f->text[i]);
    w[b - a] = '\0';
    for (i = 0; i < COUNT_OF(format_words); i++)
        if (!strcmp(w, format_words[i]))
            return format_words[i];
    memcpy(w, f->text, f->len);
    w[f->len] = '\0';
    return toolgov__suggest(w, format_words, COUNT_OF(format_words));
}

/* ---- labels (error path only) -------------------------------------------- */

/* How a node hangs from its parent. */
typedef struct node_priv {
    toolgov__snode node;
    int rel;          /* REL_* */
    const char *name; /* REL_PROP: the JSON name */
    size_t index;     /* REL_ANY, REL_ONE: 1-based */
} node_priv;

enum { REL_ROOT, REL_PROP, REL_ITEMS, REL_ANY, REL_ONE };

static void put_path(char *buf, size_t cap, size_t *o, const toolgov__snode *n)
{
    const node_priv *p = (const node_priv *)n;
    if (!n || p->rel == REL_ROOT)
        return;
    put_path(buf, cap, o, n->parent);
    if (*o >= cap)
        return;
    switch (p->rel) {
    case REL_PROP: {
        char q[TOOLGOV_SHOW_MAX];
        toolgov__text_show(q, p->name, strlen(p->name));
        *o += (size_t)snprintf(buf + *o, cap - *o, "%s%s", *o ? "." : "", q);
        break;
    }
    case REL_ITEMS:
        *o += (size_t)snprintf(buf + *o, cap - *o, "[]");
        break;
    default:
        *o += (size_t)snprintf(buf + *o, cap - *o, "%s(%s %zu)", *o ? " " : "",
                               p->rel == REL_ANY ? "anyOf" : "oneOf", p->index);
        break;
    }
}

/* "property 'a.b' of tool 't'", "the parameters of tool 't'". */
/* Whether node n gets no C type of its own: it or a schema above it is
** raw JSON (the handler gets the JSON text), so the C names of its
** properties and enum values are never used. */
static int no_c_type(const toolgov__snode *n)
{
    for (; n; n = n->parent)
        if (n->type == TOOLGOV_S_RAW)
            return 1;
    return 0;
}

static const char *label(char out[320], const toolgov__schema_ctx *cx, const toolgov__snode *n)
{
    char path[200];
    size_t o = 0;
    put_path(path, sizeof path, &o, n);
    if (o >= sizeof path)
        memcpy(path + sizeof path - 4, "...", 4);
    if (o == 0)
        snprintf(out, 320, "the parameters%s%s%s", cx->tool ? " of tool '" : "",
                 cx->tool ? cx->tool : "", cx->tool ? "'" : "");
    else
        snprintf(out, 320, "property '%s'%s%s%s", path, cx->tool ? " of tool '" : "",
                 cx->tool ? cx->tool : "", cx->tool ? "'" : "");
    return out;
}

/* ---- keywords ------------------------------------------------------------ */

enum {
    KW_TYPE, KW_PROPERTIES, KW_REQUIRED, KW_ADDITIONAL, KW_DESCRIPTION, KW_TITLE, KW_EXAMPLES,
    KW_DEFAULT, KW_ENUM, KW_MINIMUM, KW_MAXIMUM, KW_EXCL_MIN, KW_EXCL_MAX, KW_MIN_LENGTH,
    KW_MAX_LENGTH, KW_ITEMS, KW_MIN_ITEMS, KW_MAX_ITEMS, KW_FORMAT, KW_SCHEMA, KW_COMMENT,
    KW_ANY_OF, KW_ONE_OF, KW_COUNT
};

static const char *const kw_names[KW_COUNT] = {
    "type", "properties", "required", "additionalProperties", "description", "title",
    "examples", "default", "enum", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minLength", "maxLength", "items", "minItems", "maxItems", "format",
    "$schema", "$comment", "anyOf", "oneOf"};

/* The JSON types a keyword applies to (0: every type). */
static const unsigned kw_applies[KW_COUNT] = {
    0, TOOLGOV_T_OBJECT, TOOLGOV_T_OBJECT, TOOLGOV_T_OBJECT, 0, 0, 0, 0,
    TOOLGOV_T_STRING | TOOLGOV_T_INTEGER | TOOLGOV_T_NUMBER | TOOLGOV_T_NULL,
    TOOLGOV_T_INTEGER | TOOLGOV_T_NUMBER, TOOLGOV_T_INTEGER | TOOLGOV_T_NUMBER,
    TOOLGOV_T_INTEGER | TOOLGOV_T_NUMBER, TOOLGOV_T_INTEGER | TOOLGOV_T_NUMBER,
    TOOLGOV_T_STRING, TOOLGOV_T_STRING, TOOLGOV_T_ARRAY, TOOLGOV_T_ARRAY, TOOLGOV_T_ARRAY,
    TOOLGOV_T_STRING, 0, 0, 0, 0};

typedef struct unsupported_kw {
    const char *name;
    const char *advice;
} unsupported_kw;

/* JSON Schema keywords outside the subset, sorted by name, each with what to
** write instead. */
static const unsupported_kw unsupported[] = {
    {"$anchor", "write the schema out in place"},
    {"$defs", "write each referenced schema out in place where it is used"},
    {"$dynamicAnchor", "write the schema out in place"},
    {"$dynamicRef", "write the referenced schema out in place"},
    {"$id", "remove it (a tool's parameters are not referenced from elsewhere)"},
    {"$recursiveRef", "write the referenced schema out in place (recursion is not supported)"},
    {"$ref", "write the referenced schema out in place"},
    {"$vocabulary", "remove it"},
    {"additionalItems", "use items with one schema for every element"},
    {"allOf", "merge the schemas into one, or use anyOf for alternatives"},
    {"const", "use enum with the one value"},
    {"contains", "describe the rule in description and check it in the handler"},
    {"contentEncoding", "describe the encoding in description"},
    {"contentMediaType", "describe the media type in description"},
    {"contentSchema", "describe the content in description"},
    {"definitions", "write each referenced schema out in place where it is used"},
    {"dependencies", "make the properties required, or check them together in the handler"},
    {"dependentRequired", "make the properties required, or check them together in the handler"},
    {"dependentSchemas", "check the dependent properties in the handler"},
    {"deprecated", "say so in description"},
    {"else", "use anyOf with one schema per case"},
    {"if", "use anyOf with one schema per case"},
    {"maxContains", "check it in the handler"},
    {"maxProperties", "check it in the handler"},
    {"minContains", "check it in the handler"},
    {"minProperties", "use required to demand the properties that must be there"},
    {"multipleOf", "check it in the handler, or list the values with enum"},
    {"not", "use enum for the allowed values"},
    {"nullable", "use a list of types such as type: [string, \"null\"] (carried as raw JSON)"},
    {"pattern", "use enum or format, or check the text in the handler"},
    {"patternProperties", "declare each property under properties, or leave "
                          "additionalProperties open and check the names in the handler"},
    {"prefixItems", "use items with one schema for every element"},
    {"propertyNames", "check the names in the handler"},
    {"readOnly", "remove it (parameters are only written by the model)"},
    {"then", "use anyOf with one schema per case"},
    {"unevaluatedItems", "use items"},
    {"unevaluatedProperties", "use additionalProperties: false"},
    {"uniqueItems", "check it in the handler"},
    {"writeOnly", "remove it"},
};

static int cmp_unsupported(const void *key, const void *elem)
{
    return strcmp((const char *)key, ((const unsupported_kw *)elem)->name);
}

static int kw_index(const char *k, size_t len)
{
    int i;
    for (i = 0; i < KW_COUNT; i++)
        if (kw_names[i][0] == k[0] && strlen(kw_names[i]) == len &&
            memcmp(kw_names[i], k, len) == 0)
            return i;
    return -1;
}

static const char *const type_words[] = {"null", "boolean", "integer", "number",
                                         "string", "array", "object"};

static const char *jkind_name(const toolgov__jval *v)
{
    switch (v->kind) {
    case TOOLGOV_J_NULL:
        return "null";
    case TOOLGOV_J_BOOL:
        return "a boolean";
    case TOOLGOV_J_NUMBER:
        return "a number";
    case TOOLGOV_J_STRING:
        return "a string";
    case TOOLGOV_J_ARRAY:
        return "a sequence";
    default:
        return "a mapping";
    }
}

/* The one type name of a single-bit mask, else "of several types". */
static const char *types_name(unsigned types)
{
    size_t i;
    for (i = 0; i < COUNT_OF(type_words); i++)
        if (types == 1u << i)
            return type_words[i];
    return types ? "of several types" : "untyped";
}

static const char *applies_name(int kw)
{
    switch (kw_applies[kw]) {
    case TOOLGOV_T_OBJECT:
        return "objects";
    case TOOLGOV_T_STRING:
        return "strings";
    case TOOLGOV_T_ARRAY:
        return "arrays";
    case TOOLGOV_T_INTEGER | TOOLGOV_T_NUMBER:
        return "integers and numbers";
    default: /* enum */
        return "strings, integers and numbers";
    }
}

/* ---- compiling ----------------------------------------------------------- */

/* Whether a schema holds schemas or describes a container: properties,
** items, anyOf, oneOf, or a type of object or array. */
static int nests(const toolgov__jval *v)
{
    size_t i, j;
    for (i = 0; i < v->count; i++) {
        const toolgov__jmember *m = &v->members[i];
        const toolgov__jval *t = m->val;
        int k = kw_index(m->key, m->key_len);
        if (k == KW_PROPERTIES || k == KW_ITEMS || k == KW_ANY_OF || k == KW_ONE_OF)
            return 1;
        if (k != KW_TYPE)
            continue;
        for (j = 0; j < (t->kind == TOOLGOV_J_ARRAY ? t->count : 1); j++) {
            const toolgov__jval *w = t->kind == TOOLGOV_J_ARRAY ? t->items[j] : t;
            if (w->kind == TOOLGOV_J_STRING &&
                (!strcmp(w->text, "object") || !strcmp(w->text, "array")))
                return 1;
        }
    }
    return 0;
}

/* Whether some int64 satisfies every bound of an integer. */
static int ints_fit(const toolgov__snode *n)
{
    int hmin, hmax;
    int64_t min, max;
    return toolgov__schema_int_bounds(n, &hmin, &min, &hmax, &max);
}

/* A schema that says nothing about its instance: {}, or only description,
** title and $comment. */
static int annotations_only(const toolgov__jval *v)
{
    size_t i;
    for (i = 0; i < v->count; i++) {
        int k = kw_index(v->members[i].key, v->members[i].key_len);
        if (k != KW_DESCRIPTION && k != KW_TITLE && k != KW_COMMENT)
            return 0;
    }
    return 1;
}

static toolgov__snode *compile_node(toolgov__schema_ctx *cx, const toolgov__jval *v,
                                    const toolgov__snode *parent, int rel, const char *name,
                                    size_t index, unsigned depth);
static void check_values(toolgov__schema_ctx *cx, const toolgov__snode *n,
                         const toolgov__jval *dflt, const toolgov__jval *examples);

static int count_value(toolgov__schema_ctx *cx, const toolgov__snode *n, const char *kw,
                       const toolgov__jval *v, toolgov__scount *out)
{
    int64_t i;
    char l[320], q[TOOLGOV_SHOW_MAX];
    if (v->kind == TOOLGOV_J_NUMBER && v->len && v->text[0] != '-' &&
        !toolgov__jtext_int64(v->text, v->len, &i) &&
        toolgov__jtext_double(v->text, v->len) >= 9.2233720368547758e18) {
        /* A count beyond int64 (what some generators write for "no limit"):
        ** as a maximum it limits nothing a value can hold; as a minimum no
        ** value reaches it. */
        if (strncmp(kw, "min", 3) == 0) {
            err_at(cx, v->at, "%s (%s) of %s is more than any value can hold; no value fits: "
                              "lower it", kw, toolgov__text_show(q, v->text, v->len),
                   label(l, cx, n));
            return -1;
        }
        out->given = 1;
        out->v = (uint64_t)INT64_MAX;
        out->at = v->at;
        return 0;
    }
    if (v->kind != TOOLGOV_J_NUMBER || !toolgov__jtext_int64(v->text, v->len, &i) || i < 0) {
        err_at(cx, v->at, "%s of %s must be a whole number of 0 or more, not %s%s%s%s", kw,
               label(l, cx, n), jkind_name(v),
               v->kind == TOOLGOV_J_NUMBER || v->kind == TOOLGOV_J_STRING ? " '" : "",
               v->kind == TOOLGOV_J_NUMBER || v->kind == TOOLGOV_J_STRING
                   ? toolgov__text_show(q, v->text, v->len)
                   : "",
               v->kind == TOOLGOV_J_NUMBER || v->kind == TOOLGOV_J_STRING ? "'" : "");
        return -1;
    }
    out->given = 1;
    out->v = (uint64_t)i;
    out->at = v->at;
    return 0;
}

static int bound_value(toolgov__schema_ctx *cx, const toolgov__snode *n, const char *kw,
                       const toolgov__jval *v, toolgov__sbound *out)
{
    char l[320], q[TOOLGOV_SHOW_MAX];
    if (v->kind == TOOLGOV_J_BOOL && (!strcmp(kw, "exclusiveMinimum") ||
                                      !strcmp(kw, "exclusiveMaximum"))) {
        err_at(cx, v->at, "%s of %s is a boolean (the draft-04 form); write the bound itself, "
                          "as %s: <number>, in place of %s: <number> and %s: true",
               kw, label(l, cx, n), kw, kw[9] == 'M' && kw[10] == 'i' ? "minimum" : "maximum",
               kw);
        return -1;
    }
    if (v->kind != TOOLGOV_J_NUMBER) {
        err_at(cx, v->at, "%s of %s must be a number, not %s%s%s%s", kw, label(l, cx, n),
               jkind_name(v), v->kind == TOOLGOV_J_STRING ? " '" : "",
               v->kind == TOOLGOV_J_STRING ? toolgov__text_show(q, v->text, v->len) : "",
               v->kind == TOOLGOV_J_STRING ? "'" : "");
        return -1;
    }
    out->text = keep(cx, v->text, v->len);
    if (!out->text)
        return -1; /* out of memory, reported */
    out->given = 1;
    out->is_int = toolgov__jtext_int64(v->text, v->len, &out->i);
    out->d = toolgov__jtext_double(v->text, v->len);
    out->at = v->at;
    if (!out->is_int && !isfinite(out->d)) {
        err_at(cx, v->at, "%s of %s is %s, beyond the range of a double; use a smaller number",
               kw, label(l, cx, n), toolgov__text_show(q, v->text, v->len));
        return -1;
    }
    return 0;
}

/* a < b, a <= b on bounds (exact for integers). */
static int bound_cmp(const toolgov__sbound *a, const toolgov__sbound *b)
{
    if (a->is_int && b->is_int)
        return a->i < b->i ? -1 : a->i > b->i;
    return a->d < b->d ? -1 : a->d > b->d;
}

static int text_kw(toolgov__schema_ctx *cx, const toolgov__snode *n, int kw,
                   const toolgov__jval *v)
{
    char l[320];
    if (v->kind == TOOLGOV_J_STRING)
        return 0;
    err_at(cx, v->at, "%s of %s must be a string, not %s", kw_names[kw], label(l, cx, n),
           jkind_name(v));
    return -1;
}

static int parse_type(toolgov__schema_ctx *cx, toolgov__snode *n, const toolgov__jval *v)
{
    char l[320], q[TOOLGOV_SHOW_MAX];
    size_t i, j, count = v->kind == TOOLGOV_J_ARRAY ? v->count : 1;
    unsigned mask = 0;
    int bad = 0;

    if (v->kind == TOOLGOV_J_ARRAY && v->count == 0) {
        err_at(cx, v->at, "type of %s is an empty list; name at least one type such as string",
               label(l, cx, n));
        return -1;
    }
    if (v->kind != TOOLGOV_J_ARRAY && v->kind != TOOLGOV_J_STRING &&
        v->kind != TOOLGOV_J_NULL) {
        err_at(cx, v->at, "type of %s must be a type name such as string, or a list of them, "
                          "not %s", label(l, cx, n), jkind_name(v));
        return -1;
    }
    for (i = 0; i < count; i++) {
        const toolgov__jval *t = v->kind == TOOLGOV_J_ARRAY ? v->items[i] : v;
        unsigned bit = 0;
        if (t->kind == TOOLGOV_J_NULL) {
            bit = TOOLGOV_T_NULL; /* YAML's null for the type named "null" */
        } else if (t->kind != TOOLGOV_J_STRING) {
            err_at(cx, t->at, "each type of %s must be a type name, not %s", label(l, cx, n),
                   jkind_name(t));
            bad = 1;
            continue;
        } else {
            for (j = 0; j < COUNT_OF(type_words); j++)
                if (strlen(type_words[j]) == t->len && !memcmp(type_words[j], t->text, t->len))
                    bit = 1u << j;
        }
        if (!bit) {
            static const char *const alias_from[] = {"int", "float", "double", "bool", "str",
                                                     "list", "dict", "map", "text", "long"};
            static const char *const alias_to[] = {"integer", "number", "number", "boolean",
                                                   "string", "array", "object", "object",
                                                   "string", "integer"};
            const char *hint = NULL;
            for (j = 0; j < COUNT_OF(alias_from); j++)
                if (!strcmp(t->text, alias_from[j]))
                    hint = alias_to[j];
            if (!hint && !memchr(t->text, 0, t->len))
                hint = toolgov__suggest(t->text, type_words, COUNT_OF(type_words));
            toolgov__text_show(q, t->text, t->len);
            if (hint)
                err_at(cx, t->at, "unknown type '%s' for %s; did you mean '%s'?", q,
                       label(l, cx, n), hint);
            else
                err_at(cx, t->at, "unknown type '%s' for %s; expected object, string, integer, "
                                  "number, boolean, array or null", q, label(l, cx, n));
            bad = 1;
            continue;
        }
        if (mask & bit) {
            err_at(cx, t->at, "type '%s' is listed twice for %s; keep one", types_name(bit),
                   label(l, cx, n));
            bad = 1;
        }
        mask |= bit;
    }
    n->types = mask;
    return bad ? -1 : 0;
}

static void prop_c_name(const void *arr, size_t i, const char **s, size_t *len)
{
    const toolgov__sprop *p = (const toolgov__sprop *)arr + i;
    *s = p->c_name;
    *len = strlen(p->c_name);
}

static void prop_name(const void *arr, size_t i, const char **s, size_t *len)
{
    const toolgov__sprop *p = (const toolgov__sprop *)arr + i;
    *s = p->name;
    *len = p->name_len;
}

static void item_text(const void *arr, size_t i, const char **s, size_t *len)
{
    const toolgov__jval *v = ((const toolgov__jval *const *)arr)[i];
    *s = v->text;
    *len = v->len;
}

static void compile_properties(toolgov__schema_ctx *cx, toolgov__snode *n,
                               const toolgov__jval *v, unsigned depth)
{
    char l[320];
    size_t i, j;
    toolgov__index ix, *big = NULL;
    if (v->kind != TOOLGOV_J_OBJECT) {
        err_at(cx, v->at, "properties of %s must be a mapping from property names to their "
                          "schemas, not %s", label(l, cx, n), jkind_name(v));
        return;
    }
    n->props = alloc(cx, (v->count ? v->count : 1) * sizeof *n->props);
    if (!n->props)
        return;
    for (i = 0; i < v->count; i++) {
        const toolgov__jmember *m = &v->members[i];
        toolgov__sprop *p = &n->props[n->prop_count];
        memset(p, 0, sizeof *p);
        p->name = keep(cx, m->key, m->key_len);
        p->name_len = m->key_len;
        p->at = m->at;
        p->c_name = toolgov__c_name(cx, m->key, m->key_len);
        if (!p->name || !p->c_name)
            return;
        p->schema = compile_node(cx, m->val, n, REL_PROP, p->name, 0, depth + 1);
        if (!p->schema)
            continue;
        n->prop_count++;
    }
    /* C names stay unique among siblings: a clash left after the mapping
    ** is the author's to resolve (rename one property). Under a raw value
    ** no struct is generated, so there its names may map to one. */
    if (no_c_type(n))
        return;
    if (n->prop_count > TOOLGOV__SCAN_MAX) {
        if (keyix_init(cx, tmp_arena(cx), &ix, n->prop_count, n->props, prop_c_name))
            return;
        big = &ix;
    }
    for (i = 0; i < n->prop_count; i++) {
        for (j = scan_from(big, i, n->props[i].c_name, strlen(n->props[i].c_name)); j < i; j++) {
            if (strcmp(n->props[i].c_name, n->props[j].c_name) == 0) {
                char q1[TOOLGOV_SHOW_MAX], q2[TOOLGOV_SHOW_MAX];
                err_at(cx, n->props[i].at,
                       "properties '%s' and '%s' of %s both become the C name '%s'; rename "
                       "one of them",
                       toolgov__text_show(q1, n->props[j].name, n->props[j].name_len),
                       toolgov__text_show(q2, n->props[i].name, n->props[i].name_len),
                       label(l, cx, n), n->props[i].c_name);
                note_at(cx, n->props[j].at, "'%s' is declared here", q1);
                break;
            }
        }
    }
}

static void compile_required(toolgov__schema_ctx *cx, toolgov__snode *n, const toolgov__jval *v,
                             int have_props)
{
    char l[320], q[TOOLGOV_SHOW_MAX];
    size_t i, j, p0 = 0, hints = 0;
    toolgov__index seen, props, *big = NULL;
    const char **names = NULL;
    if (v->kind != TOOLGOV_J_ARRAY) {
        err_at(cx, v->at, "required of %s must be a list of property names such as [title], "
                          "not %s", label(l, cx, n), jkind_name(v));
        return;
    }
    /* Long lists: the first of each name, and the properties by name. */
    if (v->count > TOOLGOV__SCAN_MAX || n->prop_count > TOOLGOV__SCAN_MAX) {
        if (keyix_init(cx, tmp_arena(cx), &seen, v->count, v->items, item_text) ||
            keyix_init(cx, tmp_arena(cx), &props, n->prop_count, n->props, prop_name))
            return;
        for (i = 0; i < n->prop_count; i++)
            (void)toolgov__index_add(&props, i, n->props[i].name, n->props[i].name_len, NULL);
        big = &seen;
    }
    for (i = 0; i < v->count; i++) {
        const toolgov__jval *r = v->items[i];
        int found = 0;
        if (r->kind != TOOLGOV_J_STRING) {
            err_at(cx, r->at, "each entry of required of %s must be a property name, not %s",
                   label(l, cx, n), jkind_name(r));
            continue;
        }
        if (big) {
            /* The property loop below then looks at one place only. */
            size_t at = toolgov__index_find(&props, r->text, r->len);
            p0 = at == SIZE_MAX ? n->prop_count : at;
        }
        for (j = scan_from(big, i, r->text, r->len); j < i; j++) {
            const toolgov__jval *o = v->items[j];
            if (o->kind == TOOLGOV_J_STRING && o->len == r->len &&
                !memcmp(o->text, r->text, r->len)) {
                err_at(cx, r->at, "'%s' is listed twice in required of %s; keep one",
                       toolgov__text_show(q, r->text, r->len), label(l, cx, n));
                found = -1;
                break;
            }
        }
        if (found < 0)
            continue;
        for (j = p0; j < n->prop_count; j++) {
            if (n->props[j].name_len == r->len && !memcmp(n->props[j].name, r->text, r->len)) {
                n->props[j].required = 1;
                found = 1;
                break;
            }
        }
        if (found)
            continue;
        toolgov__text_show(q, r->text, r->len);
        if (have_props) {
            const char *hint = NULL;
            /* "Did you mean" for the first HINTS_MAX unknown names of a
            ** list: each costs a pass over every property name. */
            if (!over_cap(cx) && hints < HINTS_MAX && !memchr(r->text, 0, r->len)) {
                if (!names && (names = tmp_alloc(cx, (n->prop_count + 1) * sizeof *names)))
                    for (j = 0; j < n->prop_count; j++)
                        names[j] = n->props[j].name;
                if (names)
                    hint = toolgov__suggest(r->text, names, n->prop_count);
                hints++;
            }
            if (hint)
                err_at(cx, r->at, "required names '%s', which is not a property of %s; did you "
                                  "mean '%s'?", q, label(l, cx, n), hint);
            else if (n->prop_count)
                err_at(cx, r->at, "required names '%s', which is not a property of %s; declare "
                                  "it under properties or remove it from required",
                       q, label(l, cx, n));
            else
                err_at(cx, r->at, "required names '%s', but %s declares no properties; declare "
                                  "it under properties or remove it from required",
                       q, label(l, cx, n));
        } else {
            err_at(cx, r->at, "required names '%s', but %s declares no properties; declare it "
                              "under properties or remove it from required",
                   q, label(l, cx, n));
        }
    }
}

static int jv_equal(const toolgov__jval *a, const toolgov__jval *b)
{
    size_t i;
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case TOOLGOV_J_NULL:
        return 1;
    case TOOLGOV_J_BOOL:
        return a->boolean == b->boolean;
    case TOOLGOV_J_NUMBER: {
        int64_t x, y;
        if (toolgov__jtext_int64(a->text, a->len, &x) && toolgov__jtext_int64(b->text, b->len, &y))
            return x == y;
        return toolgov__jtext_double(a->text, a->len) == toolgov__jtext_double(b->text, b->len);
    }
    case TOOLGOV_J_STRING:
        return a->len == b->len && !memcmp(a->text, b->text, a->len);
    case TOOLGOV_J_ARRAY:
        if (a->count != b->count)
            return 0;
        for (i = 0; i < a->count; i++)
            if (!jv_equal(a->items[i], b->items[i]))
                return 0;
        return 1;
    default:
        if (a->count != b->count)
            return 0;
        for (i = 0; i < a->count; i++) {
            const toolgov__jmember *m = toolgov__jv_find(b, a->members[i].key,
                                                         a->members[i].key_len);
            if (!m || !jv_equal(a->members[i].val, m->val))
                return 0;
        }
        return 1;
    }
}

typedef struct enum_key {
    const char *s; /* kind letter, then the string's bytes or the int64's */
    size_t len;
} enum_key;

static void enum_key_of(const void *arr, size_t i, const char **s, size_t *len)
{
    const enum_key *k = (const enum_key *)arr + i;
    *s = k->s;
    *len = k->len;
}

static void c_name_of(const void *arr, size_t i, const char **s, size_t *len)
{
    *s = ((const char *const *)arr)[i];
    *len = strlen(*s);
}

/* The key under which an enum value of kind t (string, null or integer iv)
** is equal to another exactly when jv_equal says so; NULL when out of
** memory. */
static const char *enum_key_make(toolgov__schema_ctx *cx, const toolgov__jval *e, unsigned t,
                                 int64_t iv, size_t *len)
{
    size_t n = t == TOOLGOV_T_STRING ? e->len : t == TOOLGOV_T_INTEGER ? sizeof iv : 0;
    char *k = tmp_alloc(cx, n + 1);
    if (!k)
        return NULL;
    k[0] = t == TOOLGOV_T_STRING ? 's' : t == TOOLGOV_T_INTEGER ? 'i' : 'n';
    if (t == TOOLGOV_T_STRING)
        memcpy(k + 1, e->text, n);
    else if (t == TOOLGOV_T_INTEGER)
        memcpy(k + 1, &iv, n);
    *len = n + 1;
    return k;
}

static void compile_enum(toolgov__schema_ctx *cx, toolgov__snode *n, const toolgov__jval *v)
{
    char l[320], q[TOOLGOV_SHOW_MAX];
    size_t i, j, strings = 0, from;
    int bad = 0, raw = no_c_type(n);
    enum_key *keys = NULL;
    toolgov__index ix, *big = NULL;
    if (v->kind != TOOLGOV_J_ARRAY || v->count == 0) {
        err_at(cx, v->at, "enum of %s must be a non-empty list of the allowed values, not %s",
               label(l, cx, n), v->kind == TOOLGOV_J_ARRAY ? "an empty list" : jkind_name(v));
        return;
    }
    /* A long list: each value's first equal found by key, not by a scan. */
    if (v->count > TOOLGOV__SCAN_MAX) {
        if (!(keys = tmp_alloc(cx, v->count * sizeof *keys)) ||
            keyix_init(cx, tmp_arena(cx), &ix, v->count, keys, enum_key_of))
            return;
        big = &ix;
    }
    for (i = 0; i < v->count; i++) {
        const toolgov__jval *e = v->items[i];
        int64_t iv = 0;
        unsigned t = e->kind == TOOLGOV_J_STRING ? TOOLGOV_T_STRING
                     : e->kind == TOOLGOV_J_NULL ? TOOLGOV_T_NULL
                     : e->kind == TOOLGOV_J_NUMBER && toolgov__jtext_int64(e->text, e->len, &iv)
                         ? TOOLGOV_T_INTEGER
                         : 0;
        if (!t && e->kind == TOOLGOV_J_NUMBER && toolgov__jtext_integral(e->text, e->len)) {
            err_at(cx, e->at, "enum value %s of %s is an integer beyond the 64-bit range (%s to "
                              "%s); keep the values within it, or write them as strings",
                   toolgov__text_show(q, e->text, e->len), label(l, cx, n),
                   "-9223372036854775808", "9223372036854775807");
            bad = 1;
            continue;
        }
        if (!t) {
            err_at(cx, e->at, "enum of %s holds %s%s%s%s; enum values are strings or integers%s",
                   label(l, cx, n), jkind_name(e), e->kind == TOOLGOV_J_NUMBER ? " '" : "",
                   e->kind == TOOLGOV_J_NUMBER ? toolgov__text_show(q, e->text, e->len) : "",
                   e->kind == TOOLGOV_J_NUMBER ? "'" : "",
                   e->kind == TOOLGOV_J_BOOL ? " (for true/false use type: boolean)" : "");
            bad = 1;
            continue;
        }
        if (n->types) {
            unsigned ok = n->types;
            if (ok & TOOLGOV_T_NUMBER)
                ok |= TOOLGOV_T_INTEGER;
            if (!(ok & t)) {
                err_at(cx, e->at, "enum value %s%s%s of %s is %s, but the type is %s; write "
                                  "values of that type%s",
                       t == TOOLGOV_T_STRING ? "'" : "",
                       t == TOOLGOV_T_NULL ? "null" : toolgov__text_show(q, e->text, e->len),
                       t == TOOLGOV_T_STRING ? "'" : "", label(l, cx, n),
                       t == TOOLGOV_T_STRING ? "a string" : t == TOOLGOV_T_NULL ? "null"
                                                                             : "an integer",
                       types_name(n->types),
                       t == TOOLGOV_T_STRING && (n->types & TOOLGOV_T_INTEGER)
                           ? " (quoted numbers are strings: remove the quotes)"
                           : t == TOOLGOV_T_INTEGER && (n->types & TOOLGOV_T_STRING)
                               ? " (quote it to make it a string)"
                               : "");
                bad = 1;
                continue;
            }
        }
        if (big && !(keys[i].s = enum_key_make(cx, e, t, iv, &keys[i].len)))
            return;
        from = big ? scan_from(big, i, keys[i].s, keys[i].len) : 0;
        for (j = from; j < i; j++) {
            if (jv_equal(v->items[j], e)) {
                err_at(cx, e->at, "enum value %s is listed twice for %s; keep one",
                       e->kind == TOOLGOV_J_NULL ? "null" : toolgov__text_show(q, e->text, e->len),
                       label(l, cx, n));
                bad = 1;
                break;
            }
        }
        strings += t == TOOLGOV_T_STRING;
    }
    if (bad)
        return;
    n->enum_vals = jv_copy(cx, v);
    if (!n->enum_vals)
        return;
    if (n->types == TOOLGOV_T_STRING) {
        n->enum_c_names = alloc(cx, v->count * sizeof *n->enum_c_names);
        if (!n->enum_c_names)
            return;
        if (big && keyix_init(cx, tmp_arena(cx), &ix, v->count, n->enum_c_names, c_name_of))
            return;
        for (i = 0; i < v->count; i++) {
            const toolgov__jval *e = v->items[i];
            n->enum_c_names[i] = c_name(cx, e->text, e->len, 0);
            if (!n->enum_c_names[i])
                return;
            if (raw)
                continue; /* no C enum is generated under a raw value */
            for (j = scan_from(big, i, n->enum_c_names[i], strlen(n->enum_c_names[i])); j < i;
                 j++) {
                if (!strcmp(n->enum_c_names[i], n->enum_c_names[j])) {
                    char q2[TOOLGOV_SHOW_MAX];
                    err_at(cx, e->at, "enum values '%s' and '%s' of %s both become the C name "
                                      "'%s'; change one of them, or keep them as they are in a raw "
                                      "value (anyOf: [{type: string, enum: [...]}]: the "
                                      "handler gets its JSON text)",
                           toolgov__text_show(q2, v->items[j]->text, v->items[j]->len),
                           toolgov__text_show(q, e->text, e->len), label(l, cx, n),
                           n->enum_c_names[i]);
                    break;
                }
            }
        }
    }
    (void)strings;
}

static void compile_branches(toolgov__schema_ctx *cx, toolgov__snode *n, const toolgov__jval *v,
                             int rel, unsigned depth)
{
    char l[320];
    size_t i;
    toolgov__snode **out;
    const char *kw = rel == REL_ANY ? "anyOf" : "oneOf";
    if (v->kind != TOOLGOV_J_ARRAY || v->count == 0) {
        err_at(cx, v->at, "%s of %s must be a non-empty list of schemas, not %s", kw,
               label(l, cx, n), v->kind == TOOLGOV_J_ARRAY ? "an empty list" : jkind_name(v));
        return;
    }
    out = alloc(cx, v->count * sizeof(toolgov__snode *));
    if (!out)
        return;
    for (i = 0; i < v->count; i++) {
        out[i] = compile_node(cx, v->items[i], n, rel, NULL, i + 1, depth + 1);
        if (!out[i])
            return;
    }
    if (rel == REL_ANY) {
        n->any_of = out;
        n->any_of_count = v->count;
    } else {
        n->one_of = out;
        n->one_of_count = v->count;
    }
}

static void unknown_keyword(toolgov__schema_ctx *cx, const toolgov__snode *n,
                            const toolgov__jmember *m)
{
    char l[320], q[TOOLGOV_SHOW_MAX];
    const unsupported_kw *u;
    const char *hint = NULL;
    if (over_cap(cx)) {
        err_at(cx, m->at, "%s", "");
        return;
    }
    toolgov__text_show(q, m->key, m->key_len);
    u = memchr(m->key, 0, m->key_len) ? NULL
                                      : bsearch(m->key, unsupported, COUNT_OF(unsupported),
                                                sizeof *unsupported, cmp_unsupported);
    if (u) {
        const toolgov__jval *v = m->val;
        char t[TOOLGOV_SHOW_MAX];
        if (m->key_len == 4 && !memcmp(m->key, "$ref", 4) && v->kind == TOOLGOV_J_STRING)
            err_at(cx, m->at, "keyword '%s' (in %s) is not supported; %s (here '%s')", q,
                   label(l, cx, n), u->advice, toolgov__text_show(t, v->text, v->len));
        else if (m->key_len == 13 && !memcmp(m->key, "propertyNames", 13) &&
                 v->kind == TOOLGOV_J_OBJECT && v->count == 1 &&
                 !strcmp(v->members[0].key, "type") && v->members[0].val->kind == TOOLGOV_J_STRING &&
                 !strcmp(v->members[0].val->text, "string"))
            /* What zod writes for z.record(z.string(), ...): no constraint. */
            err_at(cx, m->at, "keyword '%s' (in %s) is not supported; propertyNames: {type: "
                              "string} says nothing (every member name is a string): remove it",
                   q, label(l, cx, n));
        else
            err_at(cx, m->at, "keyword '%s' (in %s) is not supported; %s", q, label(l, cx, n),
                   u->advice);
        return;
    }
    if (!memchr(m->key, 0, m->key_len))
        hint = toolgov__suggest(m->key, kw_names, KW_COUNT);
    if (!hint && !memchr(m->key, 0, m->key_len)) {
        /* A case slip (MinLength, Required) is farther than edit distance
        ** allows for short words. */
        int i;
        for (i = 0; i < KW_COUNT && !hint; i++)
            if (strlen(kw_names[i]) == m->key_len) {
                size_t k;
                for (k = 0; k < m->key_len; k++) {
                    char a = m->key[k], b = kw_names[i][k];
                    if ((a | 0x20) != (b | 0x20))
                        break;
                }
                if (k == m->key_len)
                    hint = kw_names[i];
            }
    }
    if (hint) {
        err_at(cx, m->at, "unknown keyword '%s' in %s; did you mean '%s'?", q, label(l, cx, n),
               hint);
        return;
    }
    if (m->val->kind == TOOLGOV_J_NULL) {
        size_t i;
        for (i = 0; i < m->key_len; i++)
            if (!(ident_char((unsigned char)m->key[i]) || m->key[i] == '$'))
                break;
        if (i < m->key_len) {
            /* {description: The day, YYYY-MM-DD.}: the comma ended the
            ** value and the rest became a key of its own. */
            err_at(cx, m->at, "unknown keyword '%s' in %s; inside { } a comma ends a value, so "
                              "text after a comma reads as a new key: put the text before it in "
                              "quotes",
                   q, label(l, cx, n));
            return;
        }
    }
    {
        err_at(cx, m->at, "unknown keyword '%s' in %s; a schema takes type, properties, "
                          "required, additionalProperties, description, title, examples, "
                          "default, enum, minimum, maximum, exclusiveMinimum, exclusiveMaximum, "
                          "minLength, maxLength, items, minItems, maxItems, format, anyOf, "
                          "oneOf, $schema and $comment",
               q, label(l, cx, n));
    }
}

/* The lengths, bounds and item counts node n gives, read into lim in
** this order (the order of their messages). */
static const struct {
    int kw;
    const char *name;
    size_t off;  /* in toolgov__slimits */
    int bound;   /* a toolgov__sbound (else a toolgov__scount) */
} limit_kws[] = {
    {KW_MIN_LENGTH, "minLength", offsetof(toolgov__slimits, min_length), 0},
    {KW_MAX_LENGTH, "maxLength", offsetof(toolgov__slimits, max_length), 0},
    {KW_MIN_ITEMS, "minItems", offsetof(toolgov__slimits, min_items), 0},
    {KW_MAX_ITEMS, "maxItems", offsetof(toolgov__slimits, max_items), 0},
    {KW_MINIMUM, "minimum", offsetof(toolgov__slimits, minimum), 1},
    {KW_MAXIMUM, "maximum", offsetof(toolgov__slimits, maximum), 1},
    {KW_EXCL_MIN, "exclusiveMinimum", offsetof(toolgov__slimits, exclusive_minimum), 1},
    {KW_EXCL_MAX, "exclusiveMaximum", offsetof(toolgov__slimits, exclusive_maximum), 1},
};

static int has_limits(const toolgov__jmember **kw)
{
    size_t i;
    for (i = 0; i < COUNT_OF(limit_kws); i++)
        if (kw[limit_kws[i].kw])
            return 1;
    return 0;
}

static void set_limits(toolgov__schema_ctx *cx, const toolgov__snode *n,
                       const toolgov__jmember **kw, toolgov__slimits *lim)
{
    size_t i;
    for (i = 0; i < COUNT_OF(limit_kws); i++) {
        const toolgov__jmember *m = kw[limit_kws[i].kw];
        char *at = (char *)lim + limit_kws[i].off;
        if (!m)
            continue;
        if (limit_kws[i].bound)
            (void)bound_value(cx, n, limit_kws[i].name, m->val, (toolgov__sbound *)(void *)at);
        else
            (void)count_value(cx, n, limit_kws[i].name, m->val, (toolgov__scount *)(void *)at);
    }
}

static toolgov__snode *compile_node(toolgov__schema_ctx *cx, const toolgov__jval *v,
                                    const toolgov__snode *parent, int rel, const char *name,
                                    size_t index, unsigned depth)
{
    node_priv *p;
    toolgov__snode *n;
    const toolgov__jmember *kw[KW_COUNT];
    char l[320];
    size_t i, errors_before = cx->d->errors, values_before = cx->value_errors;
    int k;

    p = alloc(cx, sizeof *p);
    if (!p)
        return NULL;
    memset(p, 0, sizeof *p);
    p->rel = rel;
    p->name = name;
    p->index = index;
    n = &p->node;
    n->parent = parent;
    n->at = v->at;
    n->depth = depth;
    n->lim = &toolgov__slimits_none;
    n->additional = 1;
    n->type = TOOLGOV_S_RAW;

    if (v->kind != TOOLGOV_J_OBJECT) {
        err_at(cx, v->at, "the schema of %s must be a mapping such as {type: string}, not %s",
               label(l, cx, n), jkind_name(v));
        return n;
    }
    /* The limit is on what nests (objects, arrays, alternatives): a plain
    ** value at the deepest level is fine (an array of objects 8 levels
    ** down holds strings). */
    if (depth > TOOLGOV_SCHEMA_DEPTH_MAX && (depth > TOOLGOV_SCHEMA_DEPTH_MAX + 1 ||
                                             nests(v))) {
        err_at(cx, v->at, "%s is nested %u levels deep; schemas nest at most %u levels: "
                          "flatten it, or leave it untyped to take any JSON value",
               label(l, cx, n), depth, TOOLGOV_SCHEMA_DEPTH_MAX);
        return n;
    }

    memset(kw, 0, sizeof kw);
    for (i = 0; i < v->count; i++) {
        const toolgov__jmember *m = &v->members[i];
        k = kw_index(m->key, m->key_len);
        if (k < 0) {
            /* Leaving a keyword out only widens the schema, so a value it
            ** refuses, the schema as written refuses too: values are still
            ** judged after this error. */
            size_t e = cx->d->errors;
            unknown_keyword(cx, n, m);
            cx->value_errors += cx->d->errors - e;
            continue;
        }
        if (kw[k]) {
            err_at(cx, m->at, "duplicate keyword '%s' in %s; keep one", kw_names[k],
                   label(l, cx, n));
            note_at(cx, kw[k]->at, "'%s' first given here", kw_names[k]);
            continue;
        }
        kw[k] = m;
    }

    if (kw[KW_TYPE] && parse_type(cx, n, kw[KW_TYPE]->val) < 0)
        n->types = 0, kw[KW_TYPE] = NULL;
    if (!kw[KW_ANY_OF] && !kw[KW_ONE_OF]) {
        switch (n->types) {
        case TOOLGOV_T_OBJECT: n->type = TOOLGOV_S_OBJECT; break;
        case TOOLGOV_T_STRING: n->type = TOOLGOV_S_STRING; break;
        case TOOLGOV_T_INTEGER: n->type = TOOLGOV_S_INTEGER; break;
        case TOOLGOV_T_NUMBER: n->type = TOOLGOV_S_NUMBER; break;
        case TOOLGOV_T_BOOLEAN: n->type = TOOLGOV_S_BOOLEAN; break;
        case TOOLGOV_T_ARRAY: n->type = TOOLGOV_S_ARRAY; break;
        default: n->type = TOOLGOV_S_RAW; break;
        }
    }

    /* Keywords that do not apply to the declared type(s). A format this
    ** subset does not check is an annotation on any type (OpenAPI's int32
    ** or double on numbers): kept, not refused. */
    for (k = 0; k < KW_COUNT; k++) {
        unsigned applies = kw_applies[k];
        if (!kw[k] || !applies || !n->types || (applies & n->types))
            continue;
        if (k == KW_FORMAT && kw[k]->val->kind == TOOLGOV_J_STRING) {
            char q[TOOLGOV_SHOW_MAX];
            if (format_of(kw[k]->val) == TOOLGOV_F_OTHER)
                continue;
            err_at(cx, kw[k]->at, "format '%s' is checked on strings, and %s is %s; remove it or "
                                  "change the type",
                   toolgov__text_show(q, kw[k]->val->text, kw[k]->val->len), label(l, cx, n),
                   types_name(n->types));
            kw[k] = NULL;
            continue;
        }
        err_at(cx, kw[k]->at, "%s applies to %s, and %s is %s; remove it or change the type",
               kw_names[k], applies_name(k), label(l, cx, n), types_name(n->types));
        kw[k] = NULL;
    }

    for (k = KW_DESCRIPTION; k <= KW_TITLE; k++)
        if (kw[k] && text_kw(cx, n, k, kw[k]->val) == 0 && k == KW_DESCRIPTION)
            n->description = keep(cx, kw[k]->val->text, kw[k]->val->len);
    if (kw[KW_SCHEMA])
        (void)text_kw(cx, n, KW_SCHEMA, kw[KW_SCHEMA]->val);
    if (kw[KW_COMMENT])
        (void)text_kw(cx, n, KW_COMMENT, kw[KW_COMMENT]->val);
    if (kw[KW_EXAMPLES] && kw[KW_EXAMPLES]->val->kind != TOOLGOV_J_ARRAY)
        err_at(cx, kw[KW_EXAMPLES]->val->at, "examples of %s must be a list of values, not %s; "
                                             "write examples: [...]",
               label(l, cx, n), jkind_name(kw[KW_EXAMPLES]->val));
    if (kw[KW_FORMAT] && text_kw(cx, n, KW_FORMAT, kw[KW_FORMAT]->val) == 0) {
        const toolgov__jval *f = kw[KW_FORMAT]->val;
        const char *slip = format_of(f) == TOOLGOV_F_OTHER ? format_slip(f) : NULL;
        if (slip) {
            /* Kept as an annotation it would check nothing, in silence. */
            char q[TOOLGOV_SHOW_MAX];
            err_at(cx, f->at, "unknown format '%s' for %s; did you mean '%s'? (the checked "
                              "formats are date, time, date-time, email and uri)",
                   toolgov__text_show(q, f->text, f->len), label(l, cx, n), slip);
        } else {
            n->format_name = keep(cx, f->text, f->len);
            n->format = format_of(f);
        }
    }
    if (has_limits(kw)) {
        /* Limits of its own (see toolgov__slimits). */
        toolgov__slimits *lim = alloc(cx, sizeof *lim);
        if (!lim)
            return n;
        memset(lim, 0, sizeof *lim);
        n->lim = lim;
        set_limits(cx, n, kw, lim);
    }

    if (kw[KW_ADDITIONAL]) {
        const toolgov__jval *a = kw[KW_ADDITIONAL]->val;
        if (a->kind == TOOLGOV_J_BOOL)
            n->additional = a->boolean;
        else if (a->kind == TOOLGOV_J_OBJECT && annotations_only(a))
            n->additional = 1; /* {} (zod's .passthrough()) admits anything: true */
        else
            err_at(cx, a->at, "additionalProperties of %s must be true or false, not %s%s",
                   label(l, cx, n), jkind_name(a),
                   a->kind == TOOLGOV_J_OBJECT
                       ? " (a schema for the extra members is not supported: declare them "
                         "under properties, or write true and check them in the handler)"
                       : "");
    }
    if (kw[KW_PROPERTIES])
        compile_properties(cx, n, kw[KW_PROPERTIES]->val, depth);
    if (kw[KW_REQUIRED])
        compile_required(cx, n, kw[KW_REQUIRED]->val, kw[KW_PROPERTIES] != NULL);
    if (kw[KW_ITEMS]) {
        const toolgov__jval *it = kw[KW_ITEMS]->val;
        if (it->kind == TOOLGOV_J_ARRAY)
            err_at(cx, it->at, "items of %s is a list of schemas (the tuple form); give one "
                               "schema for every element, such as items: {type: string}",
                   label(l, cx, n));
        else
            n->items = compile_node(cx, it, n, REL_ITEMS, NULL, 0, depth + 1);
    }
    if (n->type == TOOLGOV_S_ARRAY && !n->items) {
        /* No items: every element is any JSON value. */
        node_priv *ip = alloc(cx, sizeof *ip);
        if (!ip)
            return NULL;
        memset(ip, 0, sizeof *ip);
        ip->rel = REL_ITEMS;
        ip->node.type = TOOLGOV_S_RAW;
        ip->node.synth = 1;
        ip->node.parent = n;
        ip->node.at = n->at;
        ip->node.depth = depth + 1;
        ip->node.lim = &toolgov__slimits_none;
        ip->node.additional = 1;
        n->items = &ip->node;
    }
    if (kw[KW_ANY_OF] && kw[KW_ONE_OF]) {
        err_at(cx, kw[KW_ONE_OF]->at, "%s has both anyOf and oneOf; use one of them (list "
                                      "every alternative in it)", label(l, cx, n));
        kw[KW_ONE_OF] = NULL;
    }
    if (kw[KW_ANY_OF])
        compile_branches(cx, n, kw[KW_ANY_OF]->val, REL_ANY, depth);
    if (kw[KW_ONE_OF])
        compile_branches(cx, n, kw[KW_ONE_OF]->val, REL_ONE, depth);
    if (kw[KW_ENUM])
        compile_enum(cx, n, kw[KW_ENUM]->val);

    /* Pairs that contradict each other. */
    if (n->lim->min_length.given && n->lim->max_length.given && n->lim->min_length.v > n->lim->max_length.v)
        err_at(cx, n->lim->min_length.at, "minLength (%llu) of %s is greater than its maxLength "
                                     "(%llu); no text fits: fix one of them",
               (unsigned long long)n->lim->min_length.v, label(l, cx, n),
               (unsigned long long)n->lim->max_length.v);
    if (n->lim->min_items.given && n->lim->max_items.given && n->lim->min_items.v > n->lim->max_items.v)
        err_at(cx, n->lim->min_items.at, "minItems (%llu) of %s is greater than its maxItems (%llu); "
                                    "no list fits: fix one of them",
               (unsigned long long)n->lim->min_items.v, label(l, cx, n),
               (unsigned long long)n->lim->max_items.v);
    {
        const toolgov__sbound *lo = n->lim->exclusive_minimum.given ? &n->lim->exclusive_minimum
                                                               : &n->lim->minimum;
        const toolgov__sbound *hi = n->lim->exclusive_maximum.given ? &n->lim->exclusive_maximum
                                                               : &n->lim->maximum;
        if (n->lim->minimum.given && n->lim->exclusive_minimum.given &&
            bound_cmp(&n->lim->minimum, &n->lim->exclusive_minimum) > 0)
            lo = &n->lim->minimum;
        if (n->lim->maximum.given && n->lim->exclusive_maximum.given &&
            bound_cmp(&n->lim->maximum, &n->lim->exclusive_maximum) < 0)
            hi = &n->lim->maximum;
        if (lo->given && hi->given) {
            int c = bound_cmp(lo, hi);
            int open = lo == &n->lim->exclusive_minimum || hi == &n->lim->exclusive_maximum;
            if (c > 0 || (c == 0 && open))
                err_at(cx, lo->at, "%s (%s) of %s is %s %s (%s); no value fits: fix one of them",
                       lo == &n->lim->minimum ? "minimum" : "exclusiveMinimum", lo->text,
                       label(l, cx, n), c > 0 ? "greater than" : "equal to",
                       hi == &n->lim->maximum ? "maximum" : "exclusiveMaximum", hi->text);
            else if (n->type == TOOLGOV_S_INTEGER && !ints_fit(n))
                err_at(cx, lo->at, "no integer lies between %s (%s) and %s (%s) of %s; no value "
                                   "fits: fix one of them, or make it type: number",
                       lo == &n->lim->minimum ? "minimum" : "exclusiveMinimum", lo->text,
                       hi == &n->lim->maximum ? "maximum" : "exclusiveMaximum", hi->text,
                       label(l, cx, n));
        } else if (n->type == TOOLGOV_S_INTEGER && (lo->given || hi->given) &&
                   !ints_fit(n)) {
            const toolgov__sbound *b = lo->given ? lo : hi;
            err_at(cx, b->at, "%s (%s) of %s leaves no 64-bit integer (an integer is at least "
                              "-9223372036854775808 and at most 9223372036854775807): fix it, or "
                              "make it type: number",
                   b == &n->lim->minimum           ? "minimum"
                   : b == &n->lim->exclusive_minimum ? "exclusiveMinimum"
                   : b == &n->lim->maximum           ? "maximum"
                                                     : "exclusiveMaximum",
                   b->text, label(l, cx, n));
        }
    }
    if (kw[KW_DEFAULT] && !(n->default_val = jv_copy(cx, kw[KW_DEFAULT]->val)))
        return n;
    /* Values are judged only by a schema without errors of its own (values
    ** below it that failed their own check, and keywords left out as
    ** unknown or unsupported, do not count). */
    if (cx->d->errors - errors_before == cx->value_errors - values_before && !cx->oom)
        check_values(cx, n, n->default_val, kw[KW_EXAMPLES] ? kw[KW_EXAMPLES]->val : NULL);
    return n;
}

int toolgov__schema_compile(toolgov__schema_ctx *cx, const toolgov__jval *root, toolgov__mark at,
                            toolgov__snode **out)
{
    size_t before = cx->d->errors;
    toolgov__snode *n;
    char l[320];

    toolgov_args_decoder *given = cx->dec;

    *out = NULL;
    cx->value_errors = 0;
    n = compile_node(cx, root, NULL, REL_ROOT, NULL, 0, 1);
    if (!given) {
        toolgov_args_decoder_free(cx->dec); /* made by check_instance, if needed */
        cx->dec = NULL;
    }
    if (n && root->kind == TOOLGOV_J_OBJECT) {
        const toolgov__jmember *t = toolgov__jv_find(root, "type", 4);
        const toolgov__jmember *alt = toolgov__jv_find(root, "anyOf", 5);
        if (!alt)
            alt = toolgov__jv_find(root, "oneOf", 5);
        if (alt)
            err_at(cx, alt->at, "%s cannot use %s at the top; declare the arguments under "
                                "properties and put the alternatives in a property",
                   label(l, cx, n), alt->key);
        else if (!t)
            err_at(cx, at, "%s must say type: object (a tool's arguments are one JSON object); "
                           "add type: object", label(l, cx, n));
        else if (n->type != TOOLGOV_S_OBJECT && n->types)
            err_at(cx, t->val->at, "%s must be of type object (a tool's arguments are one JSON "
                                   "object), not %s; declare the arguments under properties",
                   label(l, cx, n), types_name(n->types));
    }
    if (cx->d->errors != before || cx->oom || !n)
        return -1;
    {
        /* The canonical text now, while the value tree is there. */
        toolgov__buf b;
        toolgov__buf_init(&b);
        toolgov__jtext_write(&b, root);
        n->text = toolgov__buf_to_arena(cx, &b, &n->text_len);
        if (!n->text)
            return -1;
    }
    *out = n;
    return 0;
}

/* ---- values checked against their own schema ------------------------------ */

/* A default, an example or an enum value is judged by the runtime's own
** validator (runtime/src/args.c, compiled into the generator), walking the
** node's descriptor tables (schema_tables.c) exactly as it walks a call's
** arguments: one validator, so a value the generator accepts is one the
** runtime accepts, and each problem is worded as the runtime words it for
** a call. Each problem is an error at the value it is about (inside an
** object or array value, the member or item its JSON pointer names; for a
** missing member, the object), so a long example points at its bad part. */


/* The value inside v that the JSON pointer p[0..len) names, or the deepest
** one that exists on the way there. */
static const toolgov__jval *value_at(toolgov__schema_ctx *cx, const toolgov__jval *v,
                                     const char *p, size_t len)
{
    char *seg = len ? tmp_alloc(cx, len) : NULL;
    size_t i = 0;
    if (!seg)
        return v;
    while (i < len && p[i] == '/') {
        size_t n = 0, j;
        for (j = i + 1; j < len && p[j] != '/'; j++) {
            if (p[j] == '~' && j + 1 < len && (p[j + 1] == '0' || p[j + 1] == '1')) {
                seg[n++] = p[j + 1] == '1' ? '/' : '~';
                j++;
            } else {
                seg[n++] = p[j];
            }
        }
        i = j;
        if (v->kind == TOOLGOV_J_OBJECT) {
            const toolgov__jmember *m = toolgov__jv_find(v, seg, n);
            if (!m)
                return v;
            v = m->val;
        } else if (v->kind == TOOLGOV_J_ARRAY) {
            size_t k, idx = 0;
            if (n == 0 || n > 18)
                return v;
            for (k = 0; k < n; k++) {
                if (seg[k] < '0' || seg[k] > '9')
                    return v;
                idx = idx * 10 + (size_t)(seg[k] - '0');
            }
            if (idx >= v->count)
                return v;
            v = v->items[idx];
        } else {
            return v;
        }
    }
    return v;
}

/* Judge v against the tables t of node n; every problem is an error
** "<what> of <node> does not satisfy its own schema: <problem>; <fix>". */
static void check_instance(toolgov__schema_ctx *cx, const toolgov__snode *n,
                           const toolgov_arg_schema *t, const toolgov__jval *v, const char *what,
                           const char *fix)
{
    toolgov__args_problem probs[TOOLGOV_ARGS_MAX_PROBLEMS];
    toolgov__buf b;
    const char *msg;
    size_t np = 0, i;
    unsigned total = 0;
    char l[320];
    int rc;

    if (!cx->dec && toolgov_args_decoder_new(&cx->dec, NULL) != 0) {
        oom(cx);
        return;
    }
    toolgov__buf_init(&b);
    toolgov__jtext_write(&b, v);
    if (b.oom) {
        toolgov__buf_free(&b);
        oom(cx);
        return;
    }
    rc = toolgov__args_validate(cx->dec, t, "the value", b.data ? b.data : "", b.len, probs,
                                COUNT_OF(probs), &np, &total, &msg);
    toolgov__buf_free(&b);
    if (rc == TOOLGOV_ENOMEM) {
        oom(cx);
        return;
    }
    if (rc == 0)
        return;
    label(l, cx, n);
    if (rc != TOOLGOV_EARGS || np == 0) {
        /* Not JSON the runtime reads (deeper than it nests, longer than a
        ** call may be): the runtime would refuse it whole. */
        cx->value_errors++;
        err_at(cx, v->at, "%s of %s does not satisfy its own schema: %s; %s", what, l, msg, fix);
        return;
    }
    cx->value_errors += np;
    for (i = 0; i < np; i++) {
        const char *pb = msg + probs[i].at;
        const toolgov__jval *at = value_at(cx, v, pb, probs[i].path_len);
        err_at(cx, at->at, "%s of %s does not satisfy its own schema: %.*s; %s", what, l,
               (int)probs[i].len, pb, fix);
    }
    if (total > np)
        note_at(cx, v->at, "%s of %s has %u more problem%s", what, l, total - (unsigned)np,
                total - np == 1 ? "" : "s");
}

/* Whether anything but its enum can refuse a value of n's own type: then
** every enum value is judged too (a value that breaks maxLength or a bound
** could be offered to a model but never accepted from it). */
static int enum_needs_check(const toolgov__snode *n)
{
    return n->lim->min_length.given || n->lim->max_length.given ||
           (n->format != TOOLGOV_F_NONE && n->format != TOOLGOV_F_OTHER) || n->lim->minimum.given ||
           n->lim->maximum.given || n->lim->exclusive_minimum.given || n->lim->exclusive_maximum.given ||
           n->any_of_count || n->one_of_count;
}

/* Judge node n's default, examples and (where it matters) enum values. */
static void check_values(toolgov__schema_ctx *cx, const toolgov__snode *n,
                         const toolgov__jval *dflt, const toolgov__jval *examples)
{
    const toolgov_arg_schema *t;
    size_t i;
    char what[40];
    int enums = n->enum_vals && enum_needs_check(n);

    if (examples && (examples->kind != TOOLGOV_J_ARRAY || !examples->count))
        examples = NULL;
    if (!dflt && !examples && !enums)
        return;
    {
        /* The tables are temporaries: in the scratch arena, if any. */
        toolgov__schema_ctx tcx = *cx;
        int r;
        if (cx->scratch)
            tcx.arena = cx->scratch;
        r = toolgov__schema_tables(&tcx, n, &t);
        cx->oom |= tcx.oom;
        if (r != 0)
            return;
    }
    if (dflt)
        check_instance(cx, n, t, dflt, "default", "change the default or the schema");
    for (i = 0; examples && i < examples->count; i++) {
        snprintf(what, sizeof what, "example %zu", i + 1);
        check_instance(cx, n, t, examples->items[i], what, "change the example or the schema");
    }
    if (enums) {
        /* The same node without its enum: what the other keywords say. */
        toolgov_arg_schema plain = *t;
        if (plain.kind == TOOLGOV_ARG_STRING_ENUM)
            plain.kind = TOOLGOV_ARG_STRING;
        else if (plain.kind == TOOLGOV_ARG_INTEGER_ENUM)
            plain.kind = TOOLGOV_ARG_INTEGER;
        plain.flags &= ~(unsigned)(TOOLGOV_ARG_F_HAS_ENUM | TOOLGOV_ARG_F_ENUM_NULL);
        plain.str_enum = NULL;
        plain.str_enum_count = 0;
        plain.int_enum = NULL;
        plain.int_enum_count = 0;
        for (i = 0; i < n->enum_vals->count; i++) {
            const toolgov__jval *e = n->enum_vals->items[i];
            char q[TOOLGOV_SHOW_MAX], ew[TOOLGOV_SHOW_MAX + 16];
            /* Named as compile_enum names them: enum value 'x', enum value 3. */
            snprintf(ew, sizeof ew, "enum value %s%s%s", e->kind == TOOLGOV_J_STRING ? "'" : "",
                     e->kind == TOOLGOV_J_NULL ? "null" : toolgov__text_show(q, e->text, e->len),
                     e->kind == TOOLGOV_J_STRING ? "'" : "");
            check_instance(cx, n, &plain, e, ew, "remove the value or change the schema");
        }
    }
}

/* ---- canonical text ------------------------------------------------------ */

/* The runtime's no-arguments schema (runtime/src/tooljson.h). */
#define NO_PARAMETERS TOOLGOV__NO_ARGS_SCHEMA

int toolgov__schema_text(toolgov__schema_ctx *cx, const toolgov__snode *root, const char **out,
                         size_t *out_len)
{
    (void)cx;
    if (!root || !root->text) {
        *out = NO_PARAMETERS;
        *out_len = sizeof NO_PARAMETERS - 1;
        return 0;
    }
    *out = root->text;
    *out_len = root->text_len;
    return 0;
}
