/* SPDX-License-Identifier: MIT */
/*
** tooljson_openai.c: a chat-completions tool list (tooljson.c's OPENAI
** shape) rewritten into OpenAI's other shapes (tooljson.h): the Responses
** API's flat functions, and strict mode for either API (SPEC §12). The
** one rewriting the loop's requests, toolgov_tools_render_with and
** `toolgov-gen export --strict` share. The rules of strict mode, from OpenAI's function calling and
** structured outputs guides (platform.openai.com/docs/guides/function-
** calling, "strict mode"; .../structured-outputs, "supported schemas"):
** each function says "strict": true; every object lists all its
** properties in "required" and has "additionalProperties": false; an
** optional property is typed with "null" added (a type list, or anyOf
** with {"type": "null"} where it has no type); keywords strict mode does
** not take are left out of the schema and said in its description
** instead, so the model still reads them (and the decoder still enforces
** them on what comes back). The decoder reads null for such an optional
** property as absent (args.c), so a handler sees the same struct.
*/
#include <string.h>

#include "json.h"
#include "tooljson.h"

/* What strict mode does not take, said in the description instead. */
static const char *const unsupported[] = {
    "minLength",     "maxLength",       "minProperties", "maxProperties",
    "patternProperties", "propertyNames", "unevaluatedProperties", "unevaluatedItems",
    "contains",      "minContains",     "maxContains",   "uniqueItems",
    "default",       "examples",        "$schema",       "if",
    "then",          "else",            "not",           "dependentRequired",
    "dependentSchemas", "contentEncoding", "contentMediaType"};

/* The string formats strict mode takes; others go to the description. */
static const char *const formats[] = {"date-time", "time", "date", "duration", "email",
                                      "hostname", "ipv4", "ipv6", "uuid"};

typedef struct strict {
    const toolgov__json_doc *d;
    toolgov__jbuf *b;
    toolgov__jbuf note;
} strict;

static int key_is(const toolgov__json *k, const char *s)
{
    return toolgov__json_str_eq(k, s, strlen(s));
}

static int in_list(const toolgov__json *k, const char *const *list, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (key_is(k, list[i]))
            return 1;
    return 0;
}

static int format_taken(const toolgov__json_doc *d, size_t v)
{
    return d->nodes[v].type == TOOLGOV__JSON_STRING &&
           in_list(&d->nodes[v], formats, sizeof formats / sizeof formats[0]);
}

static int moved(const toolgov__json_doc *d, const toolgov__json *k, size_t v)
{
    return in_list(k, unsupported, sizeof unsupported / sizeof unsupported[0]) ||
           (key_is(k, "format") && !format_taken(d, v));
}

static void put_schema(strict *st, size_t i, int add_null);

static void put_each(strict *st, size_t arr)
{
    const toolgov__json_doc *d = st->d;
    size_t k, i;
    toolgov__jbuf_putc(st->b, '[');
    for (k = 0, i = arr + 1; k < d->nodes[arr].len; k++, i = d->nodes[i].end) {
        if (k)
            toolgov__jbuf_putc(st->b, ',');
        put_schema(st, i, 0);
    }
    toolgov__jbuf_putc(st->b, ']');
}

/* The property names of the object at `props` as a JSON array. */
static void put_names(strict *st, size_t props)
{
    const toolgov__json_doc *d = st->d;
    size_t k, i;
    toolgov__jbuf_putc(st->b, '[');
    for (k = 0, i = props + 1; k < d->nodes[props].len; k++, i = d->nodes[i + 1].end) {
        if (k)
            toolgov__jbuf_putc(st->b, ',');
        toolgov__json_put_node_str(st->b, &d->nodes[i]);
    }
    toolgov__jbuf_putc(st->b, ']');
}

/* Whether the required array at `req` names the key node `key`. */
static int listed(const toolgov__json_doc *d, long req, const toolgov__json *key)
{
    size_t k, i;
    if (req < 0 || d->nodes[req].type != TOOLGOV__JSON_ARRAY)
        return 0;
    for (k = 0, i = (size_t)req + 1; k < d->nodes[req].len; k++, i = d->nodes[i].end)
        if (d->nodes[i].type == TOOLGOV__JSON_STRING && d->nodes[i].len == key->len &&
            memcmp(d->nodes[i].u.str, key->u.str, key->len) == 0)
            return 1;
    return 0;
}

/* The array at v with null added when it lacks it: as the string "null"
** (a type list) or as the value null (an enum). */
static void put_array_null(strict *st, size_t v, int as_string)
{
    const toolgov__json_doc *d = st->d;
    size_t k, i;
    int has = 0;
    toolgov__jbuf_putc(st->b, '[');
    for (k = 0, i = v + 1; k < d->nodes[v].len; k++, i = d->nodes[i].end) {
        if (k)
            toolgov__jbuf_putc(st->b, ',');
        toolgov__json_put_value(st->b, d, i);
        has |= as_string ? d->nodes[i].type == TOOLGOV__JSON_STRING && key_is(&d->nodes[i], "null")
                         : d->nodes[i].type == TOOLGOV__JSON_NULL;
    }
    if (!has) {
        if (k)
            toolgov__jbuf_putc(st->b, ',');
        toolgov__jbuf_puts(st->b, as_string ? "\"null\"" : "null");
    }
    toolgov__jbuf_putc(st->b, ']');
}

/* "type" (as_string) or "enum" with null added: a nullable property's
** enum must list null too. */
static void put_with_null(strict *st, size_t v, int as_string)
{
    const toolgov__json_doc *d = st->d;
    if (as_string && d->nodes[v].type == TOOLGOV__JSON_STRING) {
        toolgov__jbuf_putc(st->b, '[');
        toolgov__json_put_node_str(st->b, &d->nodes[v]);
        if (!key_is(&d->nodes[v], "null"))
            toolgov__jbuf_puts(st->b, ",\"null\"");
        toolgov__jbuf_putc(st->b, ']');
    } else if (d->nodes[v].type == TOOLGOV__JSON_ARRAY) {
        put_array_null(st, v, as_string);
    } else {
        toolgov__json_put_value(st->b, d, v);
    }
}

/* An object of schemas (properties: req is the required array or -1, an
** optional one made nullable; $defs: req -2, none is). */
static void put_map(strict *st, size_t v, long req)
{
    const toolgov__json_doc *d = st->d;
    size_t k, m;
    toolgov__jbuf_putc(st->b, '{');
    for (k = 0, m = v + 1; k < d->nodes[v].len; k++, m = d->nodes[m + 1].end) {
        if (k)
            toolgov__jbuf_putc(st->b, ',');
        toolgov__json_put_node_str(st->b, &d->nodes[m]);
        toolgov__jbuf_putc(st->b, ':');
        put_schema(st, m + 1, req != -2 && !listed(d, req, &d->nodes[m]));
    }
    toolgov__jbuf_putc(st->b, '}');
}

/* The schema at i, strict; add_null: an optional property's. */
static void put_schema(strict *st, size_t i, int add_null)
{
    const toolgov__json_doc *d = st->d;
    toolgov__jbuf *b = st->b;
    long type = -1, props = -1, req = -1, desc = -1;
    size_t k, m;
    int first = 1, is_object, has_moved = 0;

    if (d->nodes[i].type != TOOLGOV__JSON_OBJECT) {
        toolgov__json_put_value(b, d, i);
        return;
    }
    for (k = 0, m = i + 1; k < d->nodes[i].len; k++, m = d->nodes[m + 1].end) {
        const toolgov__json *key = &d->nodes[m];
        if (key_is(key, "type"))
            type = (long)m + 1;
        else if (key_is(key, "properties"))
            props = (long)m + 1;
        else if (key_is(key, "required"))
            req = (long)m + 1;
        else if (key_is(key, "description"))
            desc = (long)m + 1;
        has_moved |= moved(d, key, m + 1);
    }
    if (add_null && type < 0) {
        /* No type to add null to: either this schema, or null. */
        toolgov__jbuf_puts(b, "{\"anyOf\":[");
        put_schema(st, i, 0);
        toolgov__jbuf_puts(b, ",{\"type\":\"null\"}]}");
        return;
    }
    is_object = props >= 0 || (type >= 0 && d->nodes[type].type == TOOLGOV__JSON_STRING &&
                                key_is(&d->nodes[type], "object"));
    toolgov__jbuf_putc(b, '{');
    for (k = 0, m = i + 1; k < d->nodes[i].len; k++, m = d->nodes[m + 1].end) {
        const toolgov__json *key = &d->nodes[m];
        size_t v = m + 1;
        if (moved(d, key, v) || key_is(key, "required") || key_is(key, "description") ||
            (is_object && key_is(key, "additionalProperties")))
            continue;
        if (!first)
            toolgov__jbuf_putc(b, ',');
        first = 0;
        toolgov__json_put_node_str(b, key);
        toolgov__jbuf_putc(b, ':');
        if (key_is(key, "type") && add_null) {
            put_with_null(st, v, 1);
        } else if (key_is(key, "enum") && add_null) {
            put_with_null(st, v, 0);
        } else if (key_is(key, "properties") && d->nodes[v].type == TOOLGOV__JSON_OBJECT) {
            put_map(st, v, req);
        } else if ((key_is(key, "anyOf") || key_is(key, "oneOf") || key_is(key, "allOf") ||
                    key_is(key, "prefixItems")) &&
                   d->nodes[v].type == TOOLGOV__JSON_ARRAY) {
            put_each(st, v);
        } else if (key_is(key, "items") || key_is(key, "additionalProperties")) {
            put_schema(st, v, 0);
        } else if ((key_is(key, "$defs") || key_is(key, "definitions")) &&
                   d->nodes[v].type == TOOLGOV__JSON_OBJECT) {
            put_map(st, v, -2);
        } else {
            toolgov__json_put_value(b, d, v);
        }
    }
    if (is_object) {
        if (!first)
            toolgov__jbuf_putc(b, ',');
        first = 0;
        toolgov__jbuf_puts(b, "\"required\":");
        if (props >= 0 && d->nodes[props].type == TOOLGOV__JSON_OBJECT)
            put_names(st, (size_t)props);
        else
            toolgov__jbuf_puts(b, "[]");
        toolgov__jbuf_puts(b, ",\"additionalProperties\":false");
    }
    if (desc >= 0 || has_moved) {
        /* The description, then what strict mode does not take. */
        toolgov__jbuf *n = &st->note;
        toolgov__jbuf_clear(n);
        if (desc >= 0 && d->nodes[desc].type == TOOLGOV__JSON_STRING)
            toolgov__jbuf_put(n, d->nodes[desc].u.str, d->nodes[desc].len);
        if (has_moved) {
            int one = 0;
            toolgov__jbuf_puts(n, n->len ? " (" : "(");
            for (k = 0, m = i + 1; k < d->nodes[i].len; k++, m = d->nodes[m + 1].end) {
                if (!moved(d, &d->nodes[m], m + 1))
                    continue;
                if (one)
                    toolgov__jbuf_puts(n, ", ");
                one = 1;
                toolgov__jbuf_put(n, d->nodes[m].u.str, d->nodes[m].len);
                toolgov__jbuf_puts(n, ": ");
                toolgov__json_put_value(n, d, m + 1);
            }
            toolgov__jbuf_putc(n, ')');
        }
        if (!first)
            toolgov__jbuf_putc(b, ',');
        toolgov__jbuf_puts(b, "\"description\":");
        toolgov__json_put_str(b, n->ptr ? n->ptr : "", n->len);
        if (n->failed)
            b->failed = 1;
    }
    toolgov__jbuf_putc(b, '}');
}

int toolgov__tools_openai(toolgov__jbuf *out, const char *tools, size_t len, unsigned how,
                          const toolgov_allocator *alloc)
{
    static const char *const keys[] = {"name", "description", "parameters"};
    int is_strict = (how & TOOLGOV__TOOLS_STRICT) != 0, flat = (how & TOOLGOV__TOOLS_FLAT) != 0;
    toolgov__scratch arena;
    toolgov__json_doc d;
    toolgov__json_error e;
    strict st;
    size_t k, i, j;
    int rc;

    toolgov__scratch_init(&arena, alloc);
    rc = toolgov__json_parse(&d, &e, &arena, tools, len, TOOLGOV__JSON_MAX_DEPTH,
                             TOOLGOV__JSON_MAX_LEN, 0);
    if (rc || d.nodes[0].type != TOOLGOV__JSON_ARRAY) {
        toolgov__scratch_free(&arena);
        return rc == TOOLGOV_ENOMEM ? rc : TOOLGOV_EINVAL;
    }
    st.d = &d;
    st.b = out;
    toolgov__jbuf_init(&st.note, alloc);
    toolgov__jbuf_clear(out);
    toolgov__jbuf_putc(out, '[');
    for (k = 0, i = 1; k < d.nodes[0].len; k++, i = d.nodes[i].end) {
        long fn = toolgov__json_member(&d, (long)i, "function");
        if (k)
            toolgov__jbuf_putc(out, ',');
        toolgov__jbuf_puts(out, flat ? "{\"type\":\"function\"" : "{\"type\":\"function\",\"function\":{");
        for (j = 0; j < 3; j++) {
            long v = toolgov__json_member(&d, fn, keys[j]);
            if (v < 0 && (j == 1 || !is_strict))
                continue; /* strict mode writes a name and parameters always */
            if (flat || j)
                toolgov__jbuf_putc(out, ',');
            toolgov__json_put_str(out, keys[j], strlen(keys[j]));
            toolgov__jbuf_putc(out, ':');
            if (j == 2 && is_strict && v >= 0)
                put_schema(&st, (size_t)v, 0);
            else if (v >= 0)
                toolgov__json_put_value(out, &d, (size_t)v);
            else
                toolgov__jbuf_puts(out, j == 0 ? "\"\""
                                             : "{\"type\":\"object\",\"properties\":{},"
                                               "\"required\":[],\"additionalProperties\":false}");
        }
        /* The Responses API takes a function as strict unless it says
        ** otherwise (and the openai package's FunctionTool requires the
        ** key): outside strict mode, it says false. */
        if (is_strict || flat)
            toolgov__jbuf_puts(out, is_strict ? ",\"strict\":true" : ",\"strict\":false");
        toolgov__jbuf_puts(out, flat ? "}" : "}}");
    }
    toolgov__jbuf_putc(out, ']');
    toolgov__jbuf_free(&st.note);
    toolgov__scratch_free(&arena);
    return toolgov__jbuf_finish(out);
}
