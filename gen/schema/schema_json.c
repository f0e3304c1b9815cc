/* SPDX-License-Identifier: MIT */
/*
** schema_json.c: JSON text into the schema module's value tree (see
** schema.h), for schemas given as JSON: tests, fuzzers and tools that hold a
** schema copied from an MCP server. Strict RFC 8259: one value, UTF-8 only,
** no control characters in strings, no leading zeros, duplicate keys
** refused. Every value and key gets its line:column (characters, 1-based).
** Nesting is bounded, so hostile input cannot exhaust the stack.
*/
#include "schema/schema.h"

#include "base/text.h"

#include <stdio.h>
#include <string.h>

#include "utf8.h" /* runtime/src: the one UTF-8 decoder */

#define JSON_DEPTH_MAX 64

typedef struct jp {
    toolgov__schema_ctx *cx;
    const unsigned char *s;
    size_t len, i;
    unsigned line, col;
    int failed;
} jp;

static toolgov__mark here(const jp *p)
{
    toolgov__mark m;
    m.line = p->line;
    m.col = p->col;
    return m;
}

static void fail(jp *p, const char *what)
{
    if (p->failed)
        return;
    p->failed = 1;
    toolgov__diag_error(p->cx->d, p->cx->path, p->line, p->col, "JSON syntax: %s", what);
}

/* Advance one byte; a column per character (continuation bytes add none). */
static void adv(jp *p)
{
    unsigned char c = p->s[p->i++];
    if (c == '\n') {
        p->line++;
        p->col = 1;
    } else if ((c & 0xC0u) != 0x80u) {
        p->col++;
    }
}

static void ws(jp *p)
{
    while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
                             p->s[p->i] == '\r'))
        adv(p);
}

static int lit(jp *p, const char *w)
{
    size_t n = strlen(w), k;
    if (p->len - p->i < n || memcmp(p->s + p->i, w, n) != 0)
        return 0;
    for (k = 0; k < n; k++)
        adv(p);
    return 1;
}

static int hex4(const unsigned char *s, unsigned *out)
{
    unsigned v = 0;
    int k;
    for (k = 0; k < 4; k++) {
        unsigned c = s[k], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (c | 0x20) - 'a' + 10;
        else
            return -1;
        v = v * 16 + d;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(unsigned char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The string at p->i (at its opening quote): decoded into the arena. */
static int string(jp *p, char **out, size_t *out_len)
{
    size_t start, cap;
    unsigned char *buf;
    size_t o = 0;
    adv(p); /* " */
    start = p->i;
    /* Decoded text is never longer than the source. */
    {
        size_t k = start;
        while (k < p->len && p->s[k] != '"') {
            if (p->s[k] == '\\')
                k++;
            k++;
        }
        cap = k - start + 1;
    }
    buf = toolgov__arena_alloc(p->cx->arena, cap);
    if (!buf) {
        p->cx->oom = 1;
        fail(p, "out of memory");
        return -1;
    }
    for (;;) {
        unsigned c;
        if (p->i >= p->len) {
            fail(p, "unterminated string");
            return -1;
        }
        c = p->s[p->i];
        if (c == '"') {
            adv(p);
            break;
        }
        if (c < 0x20) {
            fail(p, "control character in a string; escape it (\\n, \\t, \\u00XX)");
            return -1;
        }
        if (c == '\\') {
            unsigned cp;
            if (p->i + 1 >= p->len) {
                fail(p, "unterminated string");
                return -1;
            }
            switch (p->s[p->i + 1]) {
            case '"': buf[o++] = '"'; break;
            case '\\': buf[o++] = '\\'; break;
            case '/': buf[o++] = '/'; break;
            case 'b': buf[o++] = '\b'; break;
            case 'f': buf[o++] = '\f'; break;
            case 'n': buf[o++] = '\n'; break;
            case 'r': buf[o++] = '\r'; break;
            case 't': buf[o++] = '\t'; break;
            case 'u':
                if (p->len - p->i < 6 || hex4(p->s + p->i + 2, &cp)) {
                    fail(p, "bad \\u escape; write four hex digits");
                    return -1;
                }
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    unsigned lo;
                    if (p->len - p->i < 12 || p->s[p->i + 6] != '\\' || p->s[p->i + 7] != 'u' ||
                        hex4(p->s + p->i + 8, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
                        fail(p, "lone UTF-16 surrogate in a \\u escape");
                        return -1;
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    adv(p);
                    adv(p);
                    adv(p);
                    adv(p);
                    adv(p);
                    adv(p);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    fail(p, "lone UTF-16 surrogate in a \\u escape");
                    return -1;
                }
                o += put_utf8(buf + o, cp);
                adv(p);
                adv(p);
                adv(p);
                adv(p);
                break;
            default:
                fail(p, "unknown escape in a string");
                return -1;
            }
            adv(p);
            adv(p);
            continue;
        }
        {
            size_t n = toolgov__utf8_len(p->s + p->i, p->s + p->len), k;
            if (!n) {
                fail(p, "invalid UTF-8 in a string");
                return -1;
            }
            for (k = 0; k < n; k++) {
                buf[o++] = p->s[p->i];
                adv(p);
            }
        }
    }
    buf[o] = '\0';
    *out = (char *)buf;
    *out_len = o;
    return 0;
}

static toolgov__jval *value(jp *p, unsigned depth);

static toolgov__jval *object(jp *p, unsigned depth)
{
    toolgov__jval *v = toolgov__jv_new(p->cx, TOOLGOV_J_OBJECT, here(p));
    if (!v)
        return NULL;
    adv(p); /* { */
    ws(p);
    if (p->i < p->len && p->s[p->i] == '}') {
        adv(p);
        return v;
    }
    for (;;) {
        char *key;
        size_t klen;
        toolgov__mark kat;
        toolgov__jval *m;
        const toolgov__jmember *prev;
        ws(p);
        if (p->i >= p->len || p->s[p->i] != '"') {
            fail(p, "expected a string key");
            return NULL;
        }
        kat = here(p);
        if (string(p, &key, &klen))
            return NULL;
        ws(p);
        if (p->i >= p->len || p->s[p->i] != ':') {
            fail(p, "expected ':' after a key");
            return NULL;
        }
        adv(p);
        m = value(p, depth + 1);
        if (!m)
            return NULL;
        prev = toolgov__jv_find(v, key, klen);
        if (prev) {
            char q[TOOLGOV_SHOW_MAX];
            toolgov__text_show(q, key, klen);
            toolgov__diag_error(p->cx->d, p->cx->path, kat.line, kat.col,
                                "duplicate key '%s'; keep one", q);
            toolgov__diag_note(p->cx->d, p->cx->path, prev->at.line, prev->at.col,
                               "'%s' first given here", q);
        } else if (toolgov__jv_put(p->cx, v, key, klen, kat, m)) {
            return NULL;
        }
        ws(p);
        if (p->i < p->len && p->s[p->i] == ',') {
            adv(p);
            continue;
        }
        if (p->i < p->len && p->s[p->i] == '}') {
            adv(p);
            return v;
        }
        fail(p, "expected ',' or '}' in an object");
        return NULL;
    }
}

static toolgov__jval *array(jp *p, unsigned depth)
{
    toolgov__jval *v = toolgov__jv_new(p->cx, TOOLGOV_J_ARRAY, here(p));
    if (!v)
        return NULL;
    adv(p); /* [ */
    ws(p);
    if (p->i < p->len && p->s[p->i] == ']') {
        adv(p);
        return v;
    }
    for (;;) {
        toolgov__jval *item = value(p, depth + 1);
        if (!item || toolgov__jv_push(p->cx, v, item))
            return NULL;
        ws(p);
        if (p->i < p->len && p->s[p->i] == ',') {
            adv(p);
            continue;
        }
        if (p->i < p->len && p->s[p->i] == ']') {
            adv(p);
            return v;
        }
        fail(p, "expected ',' or ']' in an array");
        return NULL;
    }
}

static toolgov__jval *value(jp *p, unsigned depth)
{
    toolgov__mark at;
    ws(p);
    at = here(p);
    if (depth > JSON_DEPTH_MAX) {
        fail(p, "nested too deeply");
        return NULL;
    }
    if (p->i >= p->len) {
        fail(p, "unexpected end of text; expected a value");
        return NULL;
    }
    switch (p->s[p->i]) {
    case '{':
        return object(p, depth);
    case '[':
        return array(p, depth);
    case '"': {
        char *s;
        size_t n;
        toolgov__jval *v;
        if (string(p, &s, &n))
            return NULL;
        v = toolgov__jv_new(p->cx, TOOLGOV_J_STRING, at);
        if (v) {
            v->text = s;
            v->len = n;
        }
        return v;
    }
    case 't':
    case 'f':
    case 'n': {
        toolgov__jval *v;
        if (lit(p, "true") || lit(p, "false")) {
            v = toolgov__jv_new(p->cx, TOOLGOV_J_BOOL, at);
            if (v)
                v->boolean = p->s[p->i - 1] == 'e' && p->s[p->i - 2] == 'u';
            return v;
        }
        if (lit(p, "null"))
            return toolgov__jv_new(p->cx, TOOLGOV_J_NULL, at);
        fail(p, "unknown word; expected true, false or null");
        return NULL;
    }
    default: {
        size_t start = p->i, k;
        while (p->i < p->len && strchr("+-0123456789.eE", p->s[p->i]) && p->s[p->i])
            p->i++;
        k = p->i - start;
        p->i = start;
        if (k == 0 || !toolgov__jtext_number_ok((const char *)p->s + start, k)) {
            fail(p, k ? "malformed number" : "unexpected character; expected a value");
            return NULL;
        }
        while (p->i < start + k)
            adv(p);
        return toolgov__jv_text(p->cx, TOOLGOV_J_NUMBER, (const char *)p->s + start, k, at);
    }
    }
}

int toolgov__jtext_parse(toolgov__schema_ctx *cx, const char *text, size_t len,
                        toolgov__jval **out)
{
    jp p;
    size_t before = cx->d->errors;
    toolgov__jval *v;
    memset(&p, 0, sizeof p);
    p.cx = cx;
    p.s = (const unsigned char *)text;
    p.len = len;
    p.line = 1;
    p.col = 1;
    *out = NULL;
    v = value(&p, 0);
    if (v) {
        ws(&p);
        if (p.i != p.len)
            fail(&p, "text after the value");
    }
    if (!v || p.failed || cx->d->errors != before)
        return -1;
    *out = v;
    return 0;
}
