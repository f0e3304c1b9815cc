/* SPDX-License-Identifier: MIT */
/*
** test_params_fast.c: the parameters reader without libyaml
** (params_fast.h) against libyaml's, tree for tree.
**
** Every text here is read both ways: libyaml's (a reader over the slice,
** as the parameters pool reads a text alone, then the walk of
** schema_yaml.c) and the reader without libyaml. Whenever the second reads
** a text, the first must read it cleanly too, to the same tree: the same
** kinds, texts, keys in the same order, and the same line:column on every
** node and key. Where it declines, nothing is compared (libyaml reads the
** text as before). The texts: the layouts schemas are written in (each
** must be read, or the reader would quietly stop saving anything), the
** ones it must leave to libyaml, thousands of random schemas written in
** random YAML styles, each also mutated a byte or a line at a time, and
** every `parameters:` text of the repository's manifests.
*/
#define _DEFAULT_SOURCE /* DT_DIR */
#include "gen_test_util.h"

#include <dirent.h>

#include "buf.h"
#include "params_fast.h"
#include "reader.h"
#include "text.h"

#define LINE0 7u /* the `parameters:` key's line in the file */

typedef struct both {
    toolgov__arena a1, a2;
    toolgov__diag d1, d2;
    toolgov__jval *ref, *fast;
    int ref_ok;   /* libyaml read it with nothing reported */
    int fast_got; /* toolgov__params_fast_read() */
    size_t accepted, declined;
} both;

static int event_is(toolgov__reader *r, yaml_event_type_t type)
{
    return toolgov__reader_next(r) == 0 && r->ev.type == type;
}

/* libyaml's reading, as the pool's compile_text() does it. */
static int read_ref(both *t, const unsigned char *s, size_t n)
{
    toolgov__reader r;
    toolgov__schema_ctx cx;
    size_t e0 = t->d1.errors, w0 = t->d1.warnings;
    int ok = 0;
    t->ref = NULL;
    memset(&cx, 0, sizeof cx);
    cx.arena = &t->a1;
    cx.d = &t->d1;
    cx.path = "m.yaml";
    if (toolgov__reader_open_slice(&r, "m.yaml", s, n, LINE0 - 1, &t->d1))
        return 0;
    if (event_is(&r, YAML_STREAM_START_EVENT) && event_is(&r, YAML_DOCUMENT_START_EVENT) &&
        event_is(&r, YAML_MAPPING_START_EVENT) && event_is(&r, YAML_SCALAR_EVENT) &&
        toolgov__reader_plain(&r) && toolgov__reader_len(&r) == 10 &&
        memcmp(toolgov__reader_text(&r), "parameters", 10) == 0 && toolgov__reader_next(&r) == 0 &&
        toolgov__schema_read_yaml(&cx, &r, &t->ref) == 0 && !cx.oom &&
        event_is(&r, YAML_MAPPING_END_EVENT) && event_is(&r, YAML_DOCUMENT_END_EVENT) &&
        event_is(&r, YAML_STREAM_END_EVENT))
        ok = 1;
    toolgov__reader_close(&r);
    return ok && t->d1.errors == e0 && t->d1.warnings == w0;
}

static void same_tree(const toolgov__jval *a, const toolgov__jval *b, const char *text,
                      const char *path)
{
    size_t i;
    ck_assert_msg(a && b, "%s: a value missing in one tree, reading:\n%s", path, text);
    ck_assert_msg(a->kind == b->kind, "%s: kind %d against %d, reading:\n%s", path, a->kind,
                  b->kind, text);
    ck_assert_msg(a->at.line == b->at.line && a->at.col == b->at.col,
                  "%s: at %u:%u (libyaml) against %u:%u, reading:\n%s", path, a->at.line,
                  a->at.col, b->at.line, b->at.col, text);
    switch (a->kind) {
    case TOOLGOV_J_BOOL:
        ck_assert_int_eq(a->boolean, b->boolean);
        break;
    case TOOLGOV_J_NUMBER:
    case TOOLGOV_J_STRING:
        ck_assert_msg(a->len == b->len && memcmp(a->text, b->text, a->len) == 0,
                      "%s: '%.*s' (libyaml) against '%.*s', reading:\n%s", path, (int)a->len,
                      a->text, (int)b->len, b->text, text);
        break;
    case TOOLGOV_J_ARRAY:
        ck_assert_msg(a->count == b->count, "%s: %zu items against %zu, reading:\n%s", path,
                      a->count, b->count, text);
        for (i = 0; i < a->count; i++)
            same_tree(a->items[i], b->items[i], text, path);
        break;
    case TOOLGOV_J_OBJECT:
        ck_assert_msg(a->count == b->count, "%s: %zu members against %zu, reading:\n%s", path,
                      a->count, b->count, text);
        for (i = 0; i < a->count; i++) {
            const toolgov__jmember *x = &a->members[i], *y = &b->members[i];
            ck_assert_msg(x->key_len == y->key_len && memcmp(x->key, y->key, x->key_len) == 0,
                          "%s: key '%s' against '%s', reading:\n%s", path, x->key, y->key, text);
            ck_assert_msg(x->at.line == y->at.line && x->at.col == y->at.col,
                          "%s/%s: key at %u:%u (libyaml) against %u:%u, reading:\n%s", path,
                          x->key, x->at.line, x->at.col, y->at.line, y->at.col, text);
            same_tree(x->val, y->val, text, x->key);
        }
        break;
    default:
        break;
    }
}

static void both_init(both *t)
{
    memset(t, 0, sizeof *t);
    toolgov__arena_init(&t->a1);
    toolgov__arena_init(&t->a2);
    toolgov__diag_init(&t->d1, NULL, 1);
    t->d1.format = TOOLGOV_DIAG_JSON;
    toolgov__diag_init(&t->d2, NULL, 1);
    t->d2.format = TOOLGOV_DIAG_JSON;
}

static void both_free(both *t)
{
    toolgov__arena_free(&t->a1);
    toolgov__arena_free(&t->a2);
    (void)toolgov__diag_finish(&t->d1);
    (void)toolgov__diag_finish(&t->d2);
}

/* Read s[0..n) (its key at column kcol) both ways; 1 when the reader
** without libyaml read it (and then libyaml read the same tree). */
static int compare(both *t, const char *s, size_t n, size_t kcol)
{
    toolgov__schema_ctx cx;
    toolgov__diag quiet;
    char *copy;
    size_t bad;
    /* The pool only ever sees a manifest the text check accepted and
    ** without odd line breaks (a mutant may have cut a character). */
    toolgov__diag_init(&quiet, NULL, 1);
    quiet.format = TOOLGOV_DIAG_JSON;
    bad = toolgov__text_check(&quiet, "m.yaml", (const unsigned char *)s, n);
    (void)toolgov__diag_finish(&quiet);
    if (bad || toolgov__text_odd_breaks((const unsigned char *)s, n))
        return 0;
    copy = malloc(n + 1); /* exact size: ASan sees any read past it */
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, s, n);
    copy[n] = 0;
    toolgov__arena_reset(&t->a1);
    toolgov__arena_reset(&t->a2);
    t->ref_ok = read_ref(t, (const unsigned char *)copy, n);
    memset(&cx, 0, sizeof cx);
    cx.arena = &t->a2;
    cx.d = &t->d2;
    cx.path = "m.yaml";
    t->fast = NULL;
    t->fast_got = toolgov__params_fast_read(&cx, (const unsigned char *)copy, n, LINE0, kcol,
                                            &t->fast);
    ck_assert_int_ge(t->fast_got, 0);
    if (t->fast_got == 1) {
        ck_assert_msg(t->ref_ok, "read without libyaml, but libyaml refuses or reports:\n%s",
                      copy);
        same_tree(t->ref, t->fast, copy, "");
        t->accepted++;
    } else {
        ck_assert_ptr_null(t->fast);
        t->declined++;
    }
    free(copy);
    return t->fast_got == 1;
}

static int compare_str(both *t, const char *s)
{
    size_t k = 0;
    while (s[k] == ' ')
        k++;
    return compare(t, s, strlen(s), k);
}

/* The layouts schemas are written in: each must be read without libyaml. */
static const char *const read_cases[] = {
    "  parameters:\n    type: object\n    properties:\n      a: {type: string}\n",
    "    parameters:\n      type: object\n      properties:\n        title: {type: string, "
    "minLength: 1, maxLength: 200, description: What to remind about.}\n        date: {type: "
    "string, format: date}\n      required: [title, date]\n      additionalProperties: false\n",
    /* JSON pasted as a flow mapping, compact and spaced */
    "  parameters: {\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},"
    "\"required\":[\"q\"]}\n",
    "  parameters: {\"type\": \"object\", \"properties\": {\"n\": {\"type\": \"integer\", "
    "\"minimum\": -5, \"maximum\": 1e3}}}\n",
    /* JSON pasted as block YAML with quoted keys */
    "  parameters:\n    \"type\": \"object\"\n    \"properties\":\n      \"a b\":\n        "
    "\"type\": \"string\"\n        \"description\": \"say \\\"hi\\\"\\n\\tand \\u00e9\\/\"\n",
    /* block sequences: indented, indentless, compact mappings as items */
    "  parameters:\n    type: object\n    required:\n      - a\n      - b\n    properties:\n"
    "      a:\n        type: array\n        items:\n          anyOf:\n            - type: string\n"
    "              minLength: 2\n            - type: integer\n      b: {type: boolean}\n",
    "  parameters:\n    type: object\n    required:\n    - a\n    - 'b c'\n    properties:\n"
    "      a: {type: string, enum: [x, 'y', \"z\"]}\n      'b c': {type: number}\n",
    /* comments and blank lines anywhere, CRLF */
    "  parameters:   # the call's arguments\n\n    # a comment line\n    type: object  # ok\n"
    "\n    properties:\n# at column 0\n      a: {type: string}   \n",
    "  parameters:\r\n    type: object\r\n    properties:\r\n      a: {type: string}\r\n",
    /* non-ASCII text, marks counted in characters */
    "  parameters:\n    type: object\n    description: Café — naïve 日本語 text\n"
    "    properties:\n      é: {type: string, description: \"ü ü\", title: 'ß'}\n",
    /* plain scalars: numbers, booleans, null, URLs, C#, inner blanks */
    "  parameters:\n    type: object\n    properties:\n      n:\n        type: number\n"
    "        minimum: -1.5\n        default: 0.25\n        examples: [1, -2, 3.0e2, true, null, "
    "~]\n        description: see http://example.com/a?b=c for C# and  two  blanks\n",
    /* scalars over several lines (PyYAML wraps long ones), folded */
    "  parameters:\n    type: object\n    description: a plain\n      continued line\n\n"
    "      after a blank line  \n    title: 'single\n      quoted ''x''\n\n\n      three'\n"
    "    properties:\n      a:\n        type: string\n        description: \"double \\\"q\\\"   \n"
    "          folded\\t  \"\n        examples:\n        - wrapped item\n          text  # end\n"
    "        - 'quoted\n          item'\n      b: {type: string}\n",
    /* PyYAML's wrapping: an escaped line break, an escaped space; text
    ** lines that start with an indicator inside a plain scalar */
    "    parameters:\n      type: object\n      description: \"Be\\\n        \\ clear, \\\"x\\\"\\n\\\n"
    "        \\ ok.\"\n      title: a plain\n        - dash 'q' \"d\" `b` [x] {y} ? z ! & * | > % @\n",
    /* empty collections, single quotes with '' */
    "  parameters:\n    type: object\n    properties: {}\n    required: []\n"
    "    description: 'it''s here'\n",
    NULL};

/* What the reader leaves to libyaml. */
static const char *const declined_cases[] = {
    "  parameters:\n    type: object\n    description: |\n      block\n",
    "  parameters:\n    type: object\n    description: >-\n      folded\n",
    "  parameters:\n    type: object\n    description: a plain\n      continued: line\n",
    "  parameters:\n    type: object\n    description: \"ends \\\n\n      escaped\"\n",
    "  parameters:\n    type: object\n    description: 'goes\n    below'\n",
    "  parameters:\n    type: &a object\n",
    "  parameters:\n    type: !!str object\n",
    "  parameters:\n    type:\tobject\n",
    "  parameters: {type: object,\n    properties: {}}\n",
    "  parameters:\n    type: object\n    type: object\n",
    "  parameters:\n    type: object\n    default:\n",
    "  parameters:\n    type: object\n    title: \"\\x41\"\n",
    "  parameters:\n    type: object\n    required:\n      -\n        a\n",
    "  parameters:\n    type: object\n    required: [a, ]\n",
    "  parameters:\n    ? type\n    : object\n",
    "  parameters:\n    type: object\n    examples: [{a: b}, a: b]\n",
    "  parameters:\n    type: object\n    x: {a:b}\n",
    "  parameters:\n    type: object\n    x: a: b\n",
    "  parameters:\n    type: object\n   x: 1\n",
    "  parameters:\n    type: object\n    description: \xc2\x85 NEL\n",
    NULL};

START_TEST(test_layouts_read)
{
    both t;
    size_t i;
    both_init(&t);
    for (i = 0; read_cases[i]; i++)
        ck_assert_msg(compare_str(&t, read_cases[i]), "declined:\n%s", read_cases[i]);
    both_free(&t);
}
END_TEST

/* Forms either reader may meet in a hand-written manifest: compared
** wherever the reader without libyaml reads them, declined or not. */
static const char *const odd_cases[] = {
    "  parameters:\n    type: object\n    x:\n    - {type: string}\n    - [a, {b: c}]\n",
    "  parameters:\n    type: object\n    x: [\"a\": 1]\n",
    "  parameters:\n    type: object\n    x: {a: 1, a: 2}\n",
    "  parameters:\n    type: object\n    : x\n",
    "  parameters:\n    type: object\n    default: -\n",
    "  parameters:\n    type: object\n    default: - x\n",
    "  parameters:\n    type: object\n    x: .5\n    y: 50%\n    z: a@b\n",
    "  parameters:\n    type: object\n    x: {a: b}# c\n",
    "  parameters:\n    type: object\n    x: 'a'#c\n",
    "  parameters:\n    type: object\n    x: a#b\n",
    "  parameters:\n    type: object\n    \"x y\" : 1\n    'z' :   2\n",
    "  parameters:\n    type: object\n    x: \"\"\n    y: ''\n",
    "  parameters:\n    type: object\n    x: [ ]\n    y: { }\n    z: [ a , b ]\n",
    "  parameters:\n    type: object\n    x:\n      - a\n     - b\n",
    "  parameters:\n    type: object\n    x:\n      a: 1\n     b: 2\n",
    "  parameters:\n    type: object\n    x: a\n   # comment\n    y: b\n",
    "  parameters:\n    type: object\n    x: a\n      # comment\n    y: b\n",
    "  parameters:\n    type: object\n    x: a\n      # comment\n      b\n",
    "  parameters:\n    type: object\n    x: a\n\n\n      b\n",
    "  parameters:\n    type: object\n    x: 'a\n\n      b'\n",
    "  parameters:\n    type: object\n    x: \"a\\\n      \\ b\"\n",
    "  parameters:\n    type: object\n    x: \"\\u00e9\\u20ac\\u0041\"\n",
    "  parameters:\n    type: object\n    x: \"\\ud83c\\udfaf\"\n",
    "  parameters:\n    type: object\n    x: !!str 1\n",
    "  parameters:\n    type: object\n    x: &a 1\n    y: *a\n",
    "  parameters:\n    type: object\n    x: |-\n      a\n",
    "  parameters:\n    type: object\n    x: 0x1F\n",
    "  parameters:\n    type: object\n    x: ~\n    y: null\n    z: True\n",
    "  parameters:\n    type: object\n    x: 'a''b''''c'\n",
    "  parameters:\n    type: object\n    - x\n",
    "  parameters:\n    - type\n",
    "  parameters: [a]\n",
    "  parameters: {}\n",
    "  parameters: {type: object}  # trailing\n\n  # more\n",
    NULL};

START_TEST(test_odd_forms)
{
    both t;
    size_t i;
    both_init(&t);
    for (i = 0; odd_cases[i]; i++)
        (void)compare_str(&t, odd_cases[i]);
    ck_assert_uint_gt(t.accepted, 5);
    both_free(&t);
}
END_TEST

START_TEST(test_declined)
{
    both t;
    size_t i;
    both_init(&t);
    for (i = 0; declined_cases[i]; i++)
        ck_assert_msg(!compare_str(&t, declined_cases[i]), "read:\n%s", declined_cases[i]);
    both_free(&t);
}
END_TEST

/* Keys near libyaml's simple-key limit (1024 characters from the key's
** start to its ':'): escapes and blanks before the ':' count. */
START_TEST(test_long_keys)
{
    static const char *const forms[] = {"    %s: 1\n", "    \"%s\": 1\n", "    %s   : 1\n",
                                        "    x: {%s: 1}\n", "    x: {\"%s\" : 1}\n"};
    both t;
    size_t f, n;
    both_init(&t);
    for (f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (n = 990; n <= 1030; n += 4) {
            char key[1100], text[1300];
            memset(key, 'k', n);
            key[n] = 0;
            if (f == 1)
                memcpy(key + n - 12, "\\u0041\\u0042", 12);
            snprintf(text, sizeof text, "  parameters:\n    type: object\n");
            snprintf(text + strlen(text), sizeof text - strlen(text), forms[f], key);
            (void)compare_str(&t, text);
        }
    ck_assert_uint_gt(t.accepted, 0);
    both_free(&t);
}
END_TEST

/* Marks of the tree in one case, against numbers worked out by hand (so
** the comparison above does not only compare libyaml with itself). */
START_TEST(test_marks_by_hand)
{
    static const char s[] = "  parameters:\n"
                            "    type: object\n"
                            "    required:\n"
                            "    - é\n"
                            "    properties: {\"a\": [x, 'y']}\n";
    both t;
    const toolgov__jval *v, *req, *props, *arr;
    both_init(&t);
    ck_assert(compare_str(&t, s));
    v = t.fast;
    ck_assert_int_eq(v->kind, TOOLGOV_J_OBJECT);
    ck_assert_uint_eq(v->at.line, LINE0 + 1);
    ck_assert_uint_eq(v->at.col, 5);
    req = v->members[1].val;
    ck_assert_uint_eq(v->members[1].at.line, LINE0 + 2);
    ck_assert_int_eq(req->kind, TOOLGOV_J_ARRAY);
    ck_assert_uint_eq(req->at.line, LINE0 + 3);
    ck_assert_uint_eq(req->at.col, 5);
    ck_assert_uint_eq(req->items[0]->at.col, 7);
    props = v->members[2].val;
    ck_assert_uint_eq(props->at.line, LINE0 + 4);
    ck_assert_uint_eq(props->at.col, 17);
    ck_assert_uint_eq(props->members[0].at.col, 18);
    arr = props->members[0].val;
    ck_assert_uint_eq(arr->at.col, 23);
    ck_assert_uint_eq(arr->items[1]->at.col, 27);
    ck_assert_str_eq(arr->items[1]->text, "y");
    both_free(&t);
}
END_TEST

/* ---- random schemas in random styles ----------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t rnd(rng *r, uint32_t n)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)((r->s >> 11) % n);
}

static const char *const words[] = {
    "type", "object", "string", "integer", "a b", "x:y", "C#", "http://a.b/c?d=e", "-1",
    "1.5", "1e3", "-0.5e-2", "0x1F", "~", "null", "true", "False", "yes", "é", "日本",
    "a,b", "[x]", "{y}", "it's", "say \"hi\"", "- x", "? x", ": x", "&a", "*a", "!t",
    "|", ">", "%p", "@", "`", "a:", "a #b", "#c", "a\\b", " lead", "trail ", "x-y_z",
    ".5", "+1", "01", ".inf", "a: b", "q'", "tab\there", "new\nline", "-", "?", ":",
};
#define NWORDS (sizeof words / sizeof words[0])

static void put(toolgov__buf *b, const char *s)
{
    toolgov__buf_put(b, s, strlen(s));
}

static void spaces(toolgov__buf *b, size_t n)
{
    while (n--)
        toolgov__buf_put(b, " ", 1);
}

/* A scalar, plain, single- or double-quoted (escapes chosen at random). */
static void scalar_text(rng *r, toolgov__buf *b, int flow)
{
    const char *w = words[rnd(r, NWORDS)];
    size_t i;
    switch (rnd(r, 4)) {
    case 0:
    case 1:
        if (flow && rnd(r, 2))
            w = words[rnd(r, 20)]; /* mostly the ordinary ones in flow */
        put(b, w);
        break;
    case 2:
        put(b, "'");
        for (i = 0; w[i]; i++)
            put(b, w[i] == '\'' ? "''" : (char[2]){w[i], 0});
        put(b, "'");
        break;
    default:
        put(b, "\"");
        for (i = 0; w[i]; i++) {
            unsigned char c = (unsigned char)w[i];
            if (c == '"' || c == '\\') {
                put(b, c == '"' ? "\\\"" : "\\\\");
            } else if (c == '\n') {
                put(b, "\\n");
            } else if (c == '\t') {
                put(b, rnd(r, 2) ? "\\t" : "\t");
            } else if (c < 0x80 && rnd(r, 8) == 0) {
                char e[8];
                snprintf(e, sizeof e, "\\u%04x", c);
                put(b, e);
            } else if (rnd(r, 40) == 0) {
                put(b, rnd(r, 2) ? "\\/" : "\\x41");
            } else {
                toolgov__buf_put(b, (const char *)&c, 1);
            }
        }
        put(b, "\"");
        break;
    }
}

static void flow_value(rng *r, toolgov__buf *b, unsigned depth);

static void flow_coll(rng *r, toolgov__buf *b, unsigned depth, int map)
{
    size_t n = rnd(r, 4), i;
    const char *sep = rnd(r, 3) ? ", " : ",";
    put(b, map ? "{" : "[");
    if (rnd(r, 6) == 0)
        put(b, " ");
    for (i = 0; i < n; i++) {
        if (i)
            put(b, sep);
        if (map) {
            scalar_text(r, b, 1);
            put(b, rnd(r, 5) ? ": " : (rnd(r, 2) ? ":" : " : "));
        }
        flow_value(r, b, depth + 1);
    }
    if (rnd(r, 20) == 0)
        put(b, ",");
    put(b, map ? "}" : "]");
}

static void flow_value(rng *r, toolgov__buf *b, unsigned depth)
{
    unsigned k = depth > 3 ? 0 : rnd(r, 5);
    if (k == 3)
        flow_coll(r, b, depth, 1);
    else if (k == 4)
        flow_coll(r, b, depth, 0);
    else
        scalar_text(r, b, 1);
}

static void line_end(rng *r, toolgov__buf *b, int crlf)
{
    if (rnd(r, 10) == 0)
        put(b, rnd(r, 2) ? "  # note" : " ");
    put(b, crlf ? "\r\n" : "\n");
    if (rnd(r, 12) == 0) {
        spaces(b, rnd(r, 8));
        put(b, rnd(r, 2) ? "# a comment" : "");
        put(b, crlf ? "\r\n" : "\n");
    }
}

static void block_value(rng *r, toolgov__buf *b, size_t ind, unsigned depth, int crlf,
                        int in_seq);
static void wrapped(rng *r, toolgov__buf *b, size_t ind, int crlf);

/* Entries of a block mapping at column ind; the first one's indentation
** is already written when `first_inline`. */
static void block_map(rng *r, toolgov__buf *b, size_t ind, unsigned depth, int crlf,
                      int first_inline)
{
    size_t n = 1 + rnd(r, 4), i;
    for (i = 0; i < n; i++) {
        if (i || !first_inline)
            spaces(b, ind);
        scalar_text(r, b, 0);
        put(b, ":");
        block_value(r, b, ind, depth + 1, crlf, 0);
    }
}

static void block_seq(rng *r, toolgov__buf *b, size_t ind, unsigned depth, int crlf)
{
    size_t n = 1 + rnd(r, 3), i;
    for (i = 0; i < n; i++) {
        size_t gap = 1 + (rnd(r, 6) == 0);
        spaces(b, ind);
        put(b, "-");
        spaces(b, gap);
        if (depth < 5 && rnd(r, 3) == 0) {
            block_map(r, b, ind + 1 + gap, depth + 1, crlf, 1);
        } else if (rnd(r, 3) == 0) {
            flow_value(r, b, depth + 1);
            line_end(r, b, crlf);
        } else if (rnd(r, 4) == 0) {
            wrapped(r, b, ind, crlf);
        } else {
            scalar_text(r, b, 0);
            line_end(r, b, crlf);
        }
    }
}

/* A scalar of a block collection at column ind over several lines, as
** PyYAML wraps long ones: plain, single- or double-quoted, its lines
** indented past ind (or not, now and then), blank lines between. */
static void wrapped(rng *r, toolgov__buf *b, size_t ind, int crlf)
{
    static const char *const q[] = {"", "'", "\""};
    const char *o = q[rnd(r, 3)];
    size_t lines = 2 + rnd(r, 3), i;
    put(b, o);
    for (i = 0; i < lines; i++) {
        if (i) {
            size_t blank = rnd(r, 4) == 0 ? 1 + rnd(r, 2) : 0;
            if (rnd(r, 5) == 0)
                put(b, "  "); /* trailing blanks */
            while (blank--) {
                put(b, crlf ? "\r\n" : "\n");
                if (rnd(r, 3) == 0)
                    spaces(b, rnd(r, 6));
            }
            if (*o == '"' && rnd(r, 3) == 0)
                put(b, "\\"); /* an escaped line break */
            put(b, crlf ? "\r\n" : "\n");
            spaces(b, rnd(r, 12) ? ind + 1 + rnd(r, 4) : ind);
            if (*o == '"' && rnd(r, 4) == 0)
                put(b, "\\ ");
        }
        put(b, words[rnd(r, rnd(r, 2) ? 20 : NWORDS)]);
        if (rnd(r, 2)) {
            put(b, " ");
            put(b, words[rnd(r, 20)]);
        }
    }
    put(b, o);
    line_end(r, b, crlf);
}

/* After `key:` in a block mapping at column ind. */
static void block_value(rng *r, toolgov__buf *b, size_t ind, unsigned depth, int crlf,
                        int in_seq)
{
    unsigned k = depth > 5 ? rnd(r, 2) : rnd(r, 6);
    (void)in_seq;
    if (k == 0 && rnd(r, 4) == 0) {
        put(b, " ");
        wrapped(r, b, ind, crlf);
    } else if (k == 0) {
        put(b, " ");
        scalar_text(r, b, 0);
        line_end(r, b, crlf);
    } else if (k == 1) {
        put(b, " ");
        flow_value(r, b, depth);
        line_end(r, b, crlf);
    } else if (k <= 3) {
        line_end(r, b, crlf);
        block_map(r, b, ind + 1 + rnd(r, 4), depth + 1, crlf, 0);
    } else {
        line_end(r, b, crlf);
        block_seq(r, b, rnd(r, 2) ? ind : ind + 1 + rnd(r, 3), depth + 1, crlf);
    }
}

static void random_text(rng *r, toolgov__buf *b, size_t *kcol)
{
    int crlf = rnd(r, 8) == 0;
    *kcol = 1 + rnd(r, 6);
    spaces(b, *kcol);
    put(b, "parameters:");
    if (rnd(r, 5) == 0) {
        put(b, " ");
        flow_coll(r, b, 0, 1);
        line_end(r, b, crlf);
    } else {
        line_end(r, b, crlf);
        block_map(r, b, *kcol + 1 + rnd(r, 4), 0, crlf, 0);
    }
}

/* One small change: a byte dropped, one of YAML's signs put in, a line's
** indentation moved by one. */
static size_t mutate(rng *r, char *s, size_t n, size_t cap)
{
    static const char signs[] = " \n:-#{}[],'\"&*!|>?\t\r\\ax";
    size_t at = rnd(r, (uint32_t)n);
    switch (rnd(r, 3)) {
    case 0:
        if (at == 0)
            break; /* keep the key's indentation */
        memmove(s + at, s + at + 1, n - at - 1);
        return n - 1;
    case 1:
        if (n + 1 > cap || at == 0)
            break;
        memmove(s + at + 1, s + at, n - at);
        s[at] = signs[rnd(r, sizeof signs - 1)];
        return n + 1;
    default: {
        /* a line start after the first line: one space more or less */
        char *nl = memchr(s + at, '\n', n - at);
        size_t ls;
        if (!nl || (size_t)(nl - s) + 1 >= n)
            break;
        ls = (size_t)(nl - s) + 1;
        if (s[ls] == ' ' && rnd(r, 2)) {
            memmove(s + ls, s + ls + 1, n - ls - 1);
            return n - 1;
        }
        if (n + 1 > cap)
            break;
        memmove(s + ls + 1, s + ls, n - ls);
        s[ls] = ' ';
        return n + 1;
    }
    }
    return n;
}

START_TEST(test_random)
{
    both t;
    rng r = {0x9e3779b97f4a7c15u ^ (uint64_t)_i};
    size_t i, read_plain = 0, read_mut = 0;
    both_init(&t);
    for (i = 0; i < 3000; i++) {
        toolgov__buf b;
        size_t kcol, k, n;
        char *m;
        toolgov__buf_init(&b);
        random_text(&r, &b, &kcol);
        ck_assert(!b.oom);
        read_plain += (size_t)compare(&t, b.data, b.len, kcol);
        m = malloc(b.len + 16);
        ck_assert_ptr_nonnull(m);
        memcpy(m, b.data, b.len);
        n = b.len;
        for (k = 0; k < 6; k++) {
            n = mutate(&r, m, n, b.len + 16);
            read_mut += (size_t)compare(&t, m, n, kcol);
        }
        free(m);
        toolgov__buf_free(&b);
    }
    /* the random styles are mostly within the subset, and so are some of
    ** their mutants: a reader that declined everything would pass the
    ** comparisons and save nothing */
    ck_assert_uint_ge(read_plain, 300);
    ck_assert_uint_ge(read_mut, 300);
    both_free(&t);
}
END_TEST

/* ---- every parameters text of the repository's manifests --------------- */

static void texts_of(both *t, const char *buf, size_t len, size_t *found)
{
    const unsigned char *b = (const unsigned char *)buf;
    size_t ls;
    for (ls = toolgov__text_params_line(b, len, 0); ls < len;
         ls = toolgov__text_params_line(b, len, ls + 1)) {
        size_t kcol = 0, end;
        while (b[ls + kcol] == ' ')
            kcol++;
        end = toolgov__text_value_end(b, len, ls, kcol, len);
        if (end == 0 || end <= ls)
            end = len;
        /* the slice the pool hands a text over: the key's line to the line
        ** that ends the value (marks: LINE0 stands for the key's line) */
        (void)compare(t, buf + ls, end - ls, kcol);
        (*found)++;
    }
}

static void walk(both *t, const char *dir, size_t *found)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        char path[4096];
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_type == DT_DIR) {
            walk(t, path, found);
        } else if (n > 5 && (strcmp(e->d_name + n - 5, ".yaml") == 0 ||
                             strcmp(e->d_name + n - 4, ".yml") == 0)) {
            size_t len;
            char *buf = tg_read_file(path, &len);
            if (buf) {
                if (toolgov__text_odd_breaks((const unsigned char *)buf, len) == 0)
                    texts_of(t, buf, len, found);
                free(buf);
            }
        }
    }
    closedir(d);
}

START_TEST(test_repository_texts)
{
    both t;
    size_t found = 0;
    both_init(&t);
    walk(&t, TOOLGOV_SOURCE_DIR "/tests", &found);
    walk(&t, TOOLGOV_SOURCE_DIR "/examples", &found);
    ck_assert_uint_ge(found, 40);
    ck_assert_uint_ge(t.accepted, found / 2);
    both_free(&t);
}
END_TEST

/* ---- the schemas of real MCP servers, as JSON and as block YAML -------- */

/* A string as a YAML scalar: plain when every byte is a letter, a digit
** or one of a few signs and YAML would not type it otherwise, else JSON
** text (the canonical writer's, which YAML reads as a double-quoted
** scalar). */
static void yaml_str(toolgov__buf *b, const char *s, size_t n)
{
    size_t i;
    int plain = n > 0 && n < 200 && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'));
    for (i = 0; plain && i < n; i++) {
        char c = s[i];
        plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                strchr(" _.()/-", c);
    }
    if (plain && (s[n - 1] == ' ' || (n == 4 && (!memcmp(s, "null", 4) || !memcmp(s, "true", 4))) ||
                  (n == 5 && !memcmp(s, "false", 5))))
        plain = 0;
    if (plain)
        toolgov__buf_put(b, s, n);
    else
        toolgov__buf_json_str(b, s, n);
}

static void yaml_block(toolgov__buf *b, const toolgov__jval *v, size_t ind, int after_key);

static void yaml_flow(toolgov__buf *b, const toolgov__jval *v)
{
    size_t i;
    switch (v->kind) {
    case TOOLGOV_J_STRING:
        toolgov__buf_json_str(b, v->text, v->len);
        break;
    case TOOLGOV_J_ARRAY:
        put(b, "[");
        for (i = 0; i < v->count; i++) {
            if (i)
                put(b, ", ");
            yaml_flow(b, v->items[i]);
        }
        put(b, "]");
        break;
    case TOOLGOV_J_OBJECT:
        put(b, "{");
        for (i = 0; i < v->count; i++) {
            if (i)
                put(b, ", ");
            toolgov__buf_json_str(b, v->members[i].key, v->members[i].key_len);
            put(b, ": ");
            yaml_flow(b, v->members[i].val);
        }
        put(b, "}");
        break;
    default:
        (void)toolgov__jtext_write(b, v);
        break;
    }
}

/* v as the value after `key:` (after_key) or as a block node at ind. */
static void yaml_block(toolgov__buf *b, const toolgov__jval *v, size_t ind, int after_key)
{
    size_t i;
    if (v->kind == TOOLGOV_J_OBJECT && v->count) {
        if (after_key)
            put(b, "\n");
        for (i = 0; i < v->count; i++) {
            spaces(b, ind);
            yaml_str(b, v->members[i].key, v->members[i].key_len);
            put(b, ":");
            yaml_block(b, v->members[i].val, ind + 2, 1);
        }
    } else if (v->kind == TOOLGOV_J_ARRAY && v->count && (v->count & 1)) {
        /* odd counts as block sequences (indentless), even ones in flow */
        if (after_key)
            put(b, "\n");
        for (i = 0; i < v->count; i++) {
            const toolgov__jval *it = v->items[i];
            spaces(b, ind - 2);
            put(b, "- ");
            if (it->kind == TOOLGOV_J_OBJECT && it->count) {
                size_t k;
                for (k = 0; k < it->count; k++) {
                    if (k)
                        spaces(b, ind);
                    yaml_str(b, it->members[k].key, it->members[k].key_len);
                    put(b, ":");
                    yaml_block(b, it->members[k].val, ind + 2, 1);
                }
            } else {
                if (it->kind == TOOLGOV_J_STRING)
                    yaml_str(b, it->text, it->len);
                else
                    yaml_flow(b, it);
                put(b, "\n");
            }
        }
    } else {
        put(b, " ");
        if (v->kind == TOOLGOV_J_STRING)
            yaml_str(b, v->text, v->len);
        else
            yaml_flow(b, v);
        put(b, "\n");
    }
}

START_TEST(test_mcp_schemas)
{
    both t;
    DIR *dir = opendir(TOOLGOV_SOURCE_DIR "/tests/data/mcp-servers");
    struct dirent *e;
    size_t schemas = 0;
    ck_assert_ptr_nonnull(dir);
    both_init(&t);
    while ((e = readdir(dir))) {
        char path[4096];
        size_t len, n = strlen(e->d_name), i;
        char *text;
        toolgov__arena a;
        toolgov__diag d;
        toolgov__schema_ctx cx;
        toolgov__jval *root = NULL;
        const toolgov__jmember *tools;
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", TOOLGOV_SOURCE_DIR "/tests/data/mcp-servers",
                 e->d_name);
        text = tg_read_file(path, &len);
        ck_assert_ptr_nonnull(text);
        toolgov__arena_init(&a);
        toolgov__diag_init(&d, NULL, 1);
        d.format = TOOLGOV_DIAG_JSON;
        memset(&cx, 0, sizeof cx);
        cx.arena = &a;
        cx.d = &d;
        cx.path = path;
        ck_assert_int_eq(toolgov__jtext_parse(&cx, text, len, &root), 0);
        tools = toolgov__jv_find(root, "tools", 5);
        ck_assert_ptr_nonnull(tools);
        for (i = 0; i < tools->val->count; i++) {
            const toolgov__jmember *is = toolgov__jv_find(tools->val->items[i], "inputSchema", 11);
            toolgov__buf b;
            if (!is)
                continue;
            toolgov__buf_init(&b);
            put(&b, "    parameters: ");
            yaml_flow(&b, is->val);
            put(&b, "\n");
            (void)compare(&t, b.data, b.len, 4);
            b.len = 0;
            put(&b, "    parameters:");
            yaml_block(&b, is->val, 6, 1);
            (void)compare(&t, b.data, b.len, 4);
            toolgov__buf_free(&b);
            schemas++;
        }
        toolgov__arena_free(&a);
        (void)toolgov__diag_finish(&d);
        free(text);
    }
    closedir(dir);
    ck_assert_uint_ge(schemas, 400);
    /* nearly all of them are within the subset, both ways */
    ck_assert_uint_ge(t.accepted, schemas * 2 * 9 / 10);
    both_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("params_fast");
    TCase *tc = tcase_create("fast");
    SRunner *sr;
    int failed;
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_layouts_read);
    tcase_add_test(tc, test_declined);
    tcase_add_test(tc, test_odd_forms);
    tcase_add_test(tc, test_long_keys);
    tcase_add_test(tc, test_marks_by_hand);
    tcase_add_loop_test(tc, test_random, 0, 4);
    tcase_add_test(tc, test_repository_texts);
    tcase_add_test(tc, test_mcp_schemas);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
