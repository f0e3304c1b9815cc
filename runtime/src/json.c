/* SPDX-License-Identifier: MIT */
/*
** json.c: the strict JSON reader and its number values (see json.h for the
** contract). The arena it reads into is scratch.c's; writing JSON back is
** jsonput.c's.
**
** The reader bounds its output first: a JSON text of n bytes has at most
** 1 + (number of ',', ':', '[' and '{') values, and its unescaped
** strings fit in n bytes (an escape never decodes longer than itself, and a
** string's closing quote pays for its NUL). So the node array, the stack
** of open containers, the objects' key lists and the string bytes are one
** arena allocation, and the second pass, a small state machine, never
** grows anything. Strings
** are scanned and copied eight bytes at a time (jsonwrite.h's scan, the
** writers' too), and each string node records whether its text had an
** escape, so the canonical writer copies the usual string (and number) as
** sent instead of spelling it again. An object's keys are sorted once, as
** it closes, by their first eight bytes as a number (the bytes only for
** keys alike that far), which also finds a duplicate.
*/
#include "json.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "jsonwrite.h"
#include "pow5_128.h"
#include "sort.h"
#include "utf8.h"

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE_ __attribute__((noinline))
#define ALWAYS_INLINE_ inline __attribute__((always_inline))
#else
#define NOINLINE_
#define ALWAYS_INLINE_ inline
#endif

/* ---- reader ---- */

typedef struct parser {
    const unsigned char *s;   /* start of the text */
    const unsigned char *p;   /* next byte */
    const unsigned char *e;   /* end of the text */
    toolgov__json *nodes;
    size_t n;
    char *sbuf;               /* string bytes, filled front to back */
    size_t slen;
    uint32_t *keys;           /* objects' sorted key lists, one after another
                              ** (all of them hold fewer indexes than nodes) */
    size_t nkeys;
    toolgov__scratch *a;
    toolgov__json_error *err;
    unsigned flags;
} parser;

static int fail(parser *ps, const unsigned char *at, const char *msg)
{
    ps->err->msg = msg;
    ps->err->pos = (size_t)(at - ps->s);
    ps->err->key = NULL;
    return TOOLGOV_EINVAL;
}

/* A bound passed: the message and the bound, so the reader can say which. */
static int fail_limit(parser *ps, const unsigned char *at, const char *msg, size_t limit,
                      const char *unit)
{
    fail(ps, at, msg);
    ps->err->limit = limit;
    ps->err->limit_unit = unit;
    return TOOLGOV_EINVAL;
}

static NOINLINE_ void skip_ws_run(parser *ps)
{
    const unsigned char *p = ps->p, *e = ps->e;

    while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    ps->p = p;
}

/* Whitespace: compact text (a model's call, as a rule) costs one test. */
static inline void skip_ws(parser *ps)
{
    if (ps->p < ps->e && *ps->p <= ' ')
        skip_ws_run(ps);
}

static size_t new_node(parser *ps, unsigned char type)
{
    toolgov__json *n = &ps->nodes[ps->n];

    n->type = type;
    n->is_int = 0;
    n->plain = 0;
    n->len = 0;
    n->end = (uint32_t)ps->n + 1;
    n->pos = (uint32_t)(ps->p - ps->s);
    n->u.str = NULL;
    return ps->n++;
}

static int hex4(const unsigned char *p, const unsigned char *e, unsigned *out)
{
    unsigned v = 0;
    int i;

    if (e - p < 4)
        return 0;
    for (i = 0; i < 4; i++) {
        unsigned c = p[i];

        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return 0;
    }
    *out = v;
    return 1;
}

static char *put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xC0 | (cp >> 6));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | (cp >> 12));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (cp >> 18));
        *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    }
    return o;
}

/* The rest of a string whose first byte needing a look is under p (an
** escape, a byte >= 0x80, a control byte, or the end of the text); o is
** where its next unescaped byte goes. Out of line: most strings a call
** has never come here. */
static NOINLINE_ int string_rest(parser *ps, const unsigned char *p, char *o, char *start)
{
    const unsigned char *e = ps->e;
    toolgov__json *n = &ps->nodes[ps->n - 1];
    int plain = 1;

    for (;;) {
        unsigned c;

        /* Plain ASCII eight bytes at a time to the first byte that needs a
        ** look (found in the word where the byte order allows it), the
        ** last few bytes of the text one by one. Each word is stored whole
        ** (o never passes p's offset in the text, so 8 bytes fit in sbuf);
        ** bytes after the plain ones are overwritten later or lie past
        ** the string's NUL. */
        while (e - p >= 8) {
            uint64_t w = toolgov__json_load8(p), m = toolgov__json_special8(w);

            if (m) {
#if TOOLGOV__JSON_LE_CTZ
                size_t k = (size_t)__builtin_ctzll(m) >> 3; /* the lowest flag is exact */

                memcpy(o, &w, sizeof w);
                p += k;
                o += k;
#endif
                break;
            }
            memcpy(o, &w, sizeof w);
            p += 8;
            o += 8;
        }
        while (p < e && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
            *o++ = (char)*p++;
        if (p == e)
            return fail(ps, ps->s + n->pos, "unterminated string");
        c = *p;
        if (c == '"')
            break;
        if (c < 0x20)
            return fail(ps, p, "control character in a string (escape it)");
        if (c >= 0x80) {
            size_t k = toolgov__utf8_len(p, e);

            if (!k)
                return fail(ps, p, "invalid UTF-8 in a string");
            memcpy(o, p, k);
            o += k;
            p += k;
            continue;
        }
        /* backslash */
        plain = 0;
        if (e - p < 2)
            return fail(ps, p, "unterminated string");
        switch (p[1]) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp, lo;

            if (!hex4(p + 2, e, &cp))
                return fail(ps, p, "\\u must be followed by four hex digits");
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return fail(ps, p, "lone low surrogate in a \\u escape");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (e - p < 12 || p[6] != '\\' || p[7] != 'u' ||
                    !hex4(p + 8, e, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                    return fail(ps, p, "high surrogate in a \\u escape not followed by a low one");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            }
            o = put_utf8(o, cp);
            p += 6;
            continue;
        }
        default:
            return fail(ps, p, "invalid escape in a string");
        }
        p += 2;
    }
    *o = '\0';
    n->plain = (unsigned char)plain;
    n->len = (uint32_t)(o - start);
    ps->slen += (size_t)(o - start) + 1;
    ps->p = p + 1;
    return 0;
}

/* A string starting at the opening quote under ps->p. Its node is written
** here once. The usual string (printable ASCII, no escape, at least eight
** bytes of text left after it) is copied a word at a time to its closing
** quote without leaving this function; anything else goes on in
** string_rest. */
static ALWAYS_INLINE_ int parse_string(parser *ps)
{
    const unsigned char *p = ps->p + 1, *e = ps->e;
    toolgov__json *n = &ps->nodes[ps->n++];
    char *start = ps->sbuf + ps->slen, *o = start;

    n->type = TOOLGOV__JSON_STRING;
    n->is_int = 0;
    n->end = (uint32_t)ps->n;
    n->pos = (uint32_t)(ps->p - ps->s);
    n->u.str = start;
#if TOOLGOV__JSON_LE_CTZ
    while (e - p >= 8) {
        uint64_t w = toolgov__json_load8(p), m = toolgov__json_special8(w);

        memcpy(o, &w, sizeof w); /* room: see string_rest */
        if (m) {
            size_t k = (size_t)__builtin_ctzll(m) >> 3;

            p += k;
            o += k;
            if (*p != '"')
                break;
            *o = '\0';
            n->plain = 1;
            n->len = (uint32_t)(o - start);
            ps->slen += (size_t)(o - start) + 1;
            ps->p = p + 1;
            return 0;
        }
        p += 8;
        o += 8;
    }
#endif
    return string_rest(ps, p, o, start);
}

static int is_digit(unsigned c)
{
    return c >= '0' && c <= '9';
}

static int parse_number(parser *ps)
{
    const unsigned char *p = ps->p, *e = ps->e;
    size_t idx = new_node(ps, TOOLGOV__JSON_NUMBER);
    int is_int = 1;

    if (*p == '-')
        p++;
    if (p == e || !is_digit(*p))
        return fail(ps, p, "a number needs a digit here");
    if (*p == '0') {
        p++;
        if (p < e && is_digit(*p))
            return fail(ps, p, "a number may not have a leading zero");
    } else {
        while (p < e && is_digit(*p))
            p++;
    }
    if (p < e && *p == '.') {
        p++;
        if (p == e || !is_digit(*p))
            return fail(ps, p, "a number needs a digit after the decimal point");
        while (p < e && is_digit(*p))
            p++;
        is_int = 0;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        if (p == e || !is_digit(*p))
            return fail(ps, p, "a number needs a digit in its exponent");
        while (p < e && is_digit(*p))
            p++;
        is_int = 0;
    }
    ps->nodes[idx].is_int = (unsigned char)is_int;
    ps->nodes[idx].u.str = (const char *)ps->p;
    ps->nodes[idx].len = (uint32_t)(p - ps->p);
    ps->p = p;
    return 0;
}

static int parse_literal(parser *ps, const char *word, size_t n, unsigned char type)
{
    if ((size_t)(ps->e - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return fail(ps, ps->p, "unexpected character (expected a value)");
    new_node(ps, type);
    ps->p += n;
    return 0;
}

static int key_cmp(const toolgov__json *nodes, uint32_t x, uint32_t y)
{
    return toolgov__json_keycmp(nodes[x].u.str, nodes[x].len, nodes[y].u.str,
                                nodes[y].len);
}

static int cmp_keys(const void *a, const void *b, const void *nodes)
{
    return key_cmp(nodes, *(const uint32_t *)a, *(const uint32_t *)b);
}

/* A key's first eight bytes as a big-endian number, zeros past its end:
** two keys whose prefixes differ compare as their prefixes do (a key that
** ends first is a prefix of the other there, or has a smaller byte), so
** the sort compares one number per pair and reads the bytes only for keys
** alike in their first eight. The string bytes have eight bytes of room
** after them (toolgov__json_parse), so the word is read whole. */
static uint64_t key_prefix(const toolgov__json *k)
{
    const unsigned char *s = (const unsigned char *)k->u.str;
    uint64_t v = 0;
    size_t i;

#if TOOLGOV__JSON_LE_CTZ
    v = __builtin_bswap64(toolgov__json_load8(s));
    if (k->len < 8)
        v &= ~(~(uint64_t)0 >> (k->len * 8));
    (void)i;
#else
    for (i = 0; i < 8; i++)
        v = v << 8 | (i < k->len ? s[i] : 0u);
#endif
    return v;
}

/* Keys of a small object with their prefixes. */
typedef struct keyref {
    uint64_t prefix;
    uint32_t node;
} keyref;

static int keyref_cmp(const toolgov__json *nodes, const keyref *x, const keyref *y)
{
    if (x->prefix != y->prefix)
        return x->prefix < y->prefix ? -1 : 1;
    return key_cmp(nodes, x->node, y->node);
}

/* The refusal of a duplicate: at the later of the two in the text. */
static int duplicate(parser *ps, uint32_t x, uint32_t y)
{
    uint32_t later = x > y ? x : y;

    fail(ps, ps->s + ps->nodes[later].pos, "duplicate key");
    ps->err->key = ps->nodes[later].u.str;
    return TOOLGOV_EINVAL;
}

#define SMALL_OBJECT_ 16

/* An object just closed: sort its keys (kept as its `sorted` list) and
** refuse a duplicate. Up to SMALL_OBJECT_ members (every tool call seen):
** an insertion sort of the keys' prefixes in place, stable, so equal keys
** (kept only with TOOLGOV__JSON_ALLOW_DUP) stay in text order; bigger
** objects: the runtime's merge sort (sort.h, stable) of the key bytes. A
** duplicate is two neighbours in the sorted order that compare equal. */
static int close_object(parser *ps, size_t idx)
{
    toolgov__json *obj = &ps->nodes[idx];
    size_t n = obj->len, i, k = idx + 1;
    uint32_t *keys;

    if (n == 0)
        return 0;
    keys = ps->keys + ps->nkeys;
    ps->nkeys += n;
    if (n <= SMALL_OBJECT_) {
        keyref r[SMALL_OBJECT_];

        for (i = 0; i < n; i++) {
            keyref v;
            size_t j = i;

            v.node = (uint32_t)k;
            v.prefix = key_prefix(&ps->nodes[k]);
            k = ps->nodes[k + 1].end;
            while (j > 0 && keyref_cmp(ps->nodes, &r[j - 1], &v) > 0) {
                r[j] = r[j - 1];
                j--;
            }
            r[j] = v;
        }
        keys[0] = r[0].node;
        for (i = 1; i < n; i++) {
            keys[i] = r[i].node;
            if (r[i - 1].prefix == r[i].prefix && !(ps->flags & TOOLGOV__JSON_ALLOW_DUP) &&
                key_cmp(ps->nodes, r[i - 1].node, r[i].node) == 0)
                return duplicate(ps, r[i - 1].node, r[i].node);
        }
    } else {
        uint32_t *tmp = toolgov__scratch_alloc(ps->a, n * sizeof *tmp);

        if (!tmp)
            return TOOLGOV_ENOMEM;
        for (i = 0; i < n; i++) {
            keys[i] = (uint32_t)k;
            k = ps->nodes[k + 1].end;
        }
        toolgov__merge_sort(keys, tmp, n, sizeof *keys, cmp_keys, ps->nodes);
        for (i = 1; i < n && !(ps->flags & TOOLGOV__JSON_ALLOW_DUP); i++)
            if (key_cmp(ps->nodes, keys[i - 1], keys[i]) == 0)
                return duplicate(ps, keys[i - 1], keys[i]);
    }
    obj->u.sorted = keys;
    return 0;
}

/* Upper bound of the number of nodes the parse can make (see the file
** comment), also for a text that turns out to be malformed: every node
** starts at its own byte, so there are at most len of them; short texts
** (tool calls) take that without reading them. A longer text counts the
** bytes that can precede a node (',', ':', '[', '{'; in a truncated
** "[[[[" each '[' precedes the next), to keep the node array near its real
** size. */
static size_t count_bound(const unsigned char *p, size_t len)
{
    size_t n = 1, i;

    if (len <= 4096)
        return len + 1;
    for (i = 0; i < len; i++) {
        unsigned c = p[i];

        n += (c == ',') | (c == ':') | (c == '[') | (c == '{');
    }
    return n;
}

int toolgov__json_parse(toolgov__json_doc *out, toolgov__json_error *err,
                        toolgov__scratch *a, const char *text, size_t len,
                        unsigned max_depth, size_t max_len, unsigned flags)
{
    parser ps;
    uint32_t *stack;
    unsigned depth = 0;
    size_t nmax;
    int rc;

    if (!text) {
        if (len)
            return TOOLGOV_EINVAL;
        text = "";
    }
    ps.s = ps.p = (const unsigned char *)text;
    ps.e = ps.s + len;
    ps.a = a;
    ps.err = err;
    ps.flags = flags;
    ps.n = 0;
    ps.slen = 0;
    err->msg = NULL;
    err->pos = 0;
    err->key = NULL;
    err->limit = 0;
    err->limit_unit = NULL;
    if (max_len > TOOLGOV__JSON_MAX_LEN)
        max_len = TOOLGOV__JSON_MAX_LEN;
    if (len > max_len)
        return fail_limit(&ps, ps.s, "text is longer than the limit", max_len, "bytes");
    if (max_depth == 0)
        max_depth = 1;
    if (len >= 3 && ps.s[0] == 0xEF && ps.s[1] == 0xBB && ps.s[2] == 0xBF)
        return fail(&ps, ps.s, "byte order mark before the value");
    /* One arena block: the nodes, the open containers' stack, the
    ** objects' sorted key lists (each key is a node), then the string bytes with eight bytes of room past the last NUL (key_prefix
    ** reads a word; parse_string stores whole words). */
    nmax = count_bound(ps.s, len);
    ps.nodes = toolgov__scratch_alloc(a, nmax * sizeof *ps.nodes + max_depth * sizeof *stack +
                                             nmax * sizeof *ps.keys + len + 1 + 8);
    if (!ps.nodes)
        return TOOLGOV_ENOMEM;
    stack = (uint32_t *)(ps.nodes + nmax);
    ps.keys = stack + max_depth;
    ps.nkeys = 0;
    ps.sbuf = (char *)(ps.keys + nmax);

    skip_ws(&ps);
value:
    if (ps.p == ps.e)
        return fail(&ps, ps.p, len ? "unexpected end of text (expected a value)"
                                   : "empty text (expected a value)");
    switch (*ps.p) {
    case '{':
    case '[': {
        int is_obj = *ps.p == '{';
        size_t idx;

        if (depth == max_depth)
            return fail_limit(&ps, ps.p, "nested deeper than the limit", max_depth,
                                  "levels of objects and arrays");
        idx = new_node(&ps, is_obj ? TOOLGOV__JSON_OBJECT : TOOLGOV__JSON_ARRAY);
        stack[depth++] = (uint32_t)idx;
        ps.p++;
        skip_ws(&ps);
        if (ps.p < ps.e && *ps.p == (is_obj ? '}' : ']')) {
            ps.p++;
            depth--;
            goto after;
        }
        ps.nodes[idx].len = 1;
        if (is_obj)
            goto key;
        goto value;
    }
    case '"':
        rc = parse_string(&ps);
        break;
    case 't':
        rc = parse_literal(&ps, "true", 4, TOOLGOV__JSON_TRUE);
        break;
    case 'f':
        rc = parse_literal(&ps, "false", 5, TOOLGOV__JSON_FALSE);
        break;
    case 'n':
        rc = parse_literal(&ps, "null", 4, TOOLGOV__JSON_NULL);
        break;
    default:
        if (*ps.p == '-' || is_digit(*ps.p))
            rc = parse_number(&ps);
        else if (*ps.p >= 0x80 && !toolgov__utf8_len(ps.p, ps.e))
            rc = fail(&ps, ps.p, "invalid UTF-8");
        else
            rc = fail(&ps, ps.p, "unexpected character (expected a value)");
        break;
    }
    if (rc)
        return rc;

after:
    for (;;) {
        toolgov__json *top;

        skip_ws(&ps);
        if (depth == 0) {
            if (ps.p != ps.e)
                return fail(&ps, ps.p, "unexpected text after the value");
            goto done;
        }
        top = &ps.nodes[stack[depth - 1]];
        if (ps.p == ps.e)
            return fail(&ps, ps.p, top->type == TOOLGOV__JSON_OBJECT
                                       ? "unexpected end of text (expected ',' or '}')"
                                       : "unexpected end of text (expected ',' or ']')");
        if (*ps.p == ',') {
            ps.p++;
            skip_ws(&ps);
            top->len++;
            if (top->type == TOOLGOV__JSON_OBJECT)
                goto key;
            goto value;
        }
        if (*ps.p == (top->type == TOOLGOV__JSON_OBJECT ? '}' : ']')) {
            size_t idx = stack[--depth];

            ps.p++;
            ps.nodes[idx].end = (uint32_t)ps.n;
            if (ps.nodes[idx].type == TOOLGOV__JSON_OBJECT) {
                rc = close_object(&ps, idx);
                if (rc)
                    return rc;
            }
            continue;
        }
        return fail(&ps, ps.p, top->type == TOOLGOV__JSON_OBJECT
                                   ? "expected ',' or '}' after a member"
                                   : "expected ',' or ']' after an element");
    }

key:
    if (ps.p == ps.e || *ps.p != '"')
        return fail(&ps, ps.p, "expected a member name in double quotes");
    rc = parse_string(&ps);
    if (rc)
        return rc;
    skip_ws(&ps);
    if (ps.p == ps.e || *ps.p != ':')
        return fail(&ps, ps.p, "expected ':' after a member name");
    ps.p++;
    skip_ws(&ps);
    goto value;

done:
    /* Containers closed before their end was known have end set on close;
    ** the root scalar's end is set by new_node. */
    out->nodes = ps.nodes;
    out->count = ps.n;
    out->text = text;
    out->len = len;
    return 0;
}

long toolgov__json_get(const toolgov__json_doc *doc, size_t obj, const char *key,
                       size_t klen)
{
    const toolgov__json *o = &doc->nodes[obj];
    size_t lo = 0, hi;
    long found = -1;

    if (o->type != TOOLGOV__JSON_OBJECT || o->len == 0)
        return -1;
    hi = o->len;
    /* The last of equal keys (only TOOLGOV__JSON_ALLOW_DUP has several):
    ** the sort is stable, so that is the one the text gave last. */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t k = o->u.sorted[mid];
        int c = toolgov__json_keycmp(doc->nodes[k].u.str, doc->nodes[k].len, key, klen);

        if (c == 0)
            found = (long)k + 1;
        if (c <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return found;
}

/* ---- numbers ---- */

/* A number text taken apart: digits of the integer part [ip, ip + il) and
** of the fraction [fp, fp + fl), the exponent (saturated), the sign. */
typedef struct numparts {
    const char *ip, *fp;
    size_t il, fl;
    long exp;
    int neg;
} numparts;

static void split_number(const toolgov__json *n, numparts *np)
{
    const char *p = n->u.str, *e = p + n->len;

    np->neg = 0;
    np->fl = 0;
    np->exp = 0;
    if (p < e && *p == '-') {
        np->neg = 1;
        p++;
    }
    np->ip = p;
    while (p < e && is_digit((unsigned char)*p))
        p++;
    np->il = (size_t)(p - np->ip);
    np->fp = p;
    if (p < e && *p == '.') {
        np->fp = ++p;
        while (p < e && is_digit((unsigned char)*p))
            p++;
        np->fl = (size_t)(p - np->fp);
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        int eneg = 0;
        long v = 0;

        p++;
        if (*p == '+' || *p == '-')
            eneg = *p++ == '-';
        while (p < e && is_digit((unsigned char)*p)) {
            if (v < 100000000L)
                v = v * 10 + (*p - '0');
            p++;
        }
        np->exp = eneg ? -v : v;
    }
}

static int digit_at(const numparts *np, size_t k)
{
    return k < np->il ? np->ip[k] - '0' : np->fp[k - np->il] - '0';
}

/* The significant digits: first and last non-zero positions in the joined
** integer and fraction digits, and the decimal exponent of the last one.
** Returns 0 when the value is zero. */
static int significant(const numparts *np, size_t *first, size_t *last, long *exp10)
{
    size_t total = np->il + np->fl, f = 0, l;

    while (f < total && digit_at(np, f) == 0)
        f++;
    if (f == total)
        return 0;
    l = total - 1;
    while (digit_at(np, l) == 0)
        l--;
    *first = f;
    *last = l;
    /* value = D * 10^(exp - fl + (total - 1 - l)) with D the digits f..l */
    *exp10 = np->exp - (long)np->fl + (long)(total - 1 - l);
    return 1;
}

int toolgov__json_small_int(const toolgov__json *n, int64_t *out)
{
    const char *p = n->u.str, *e = p + n->len;
    int neg = 0;
    int64_t v = 0;

    if (n->type != TOOLGOV__JSON_NUMBER || !n->is_int)
        return 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    if (e - p > 15)
        return 0;
    for (; p < e; p++)
        v = v * 10 + (*p - '0');
    *out = neg ? -v : v;
    return 1;
}

int toolgov__json_int64(const toolgov__json *n, int64_t *out)
{
    numparts np;
    size_t f, l, k;
    long e10;
    uint64_t v = 0, limit;

    if (toolgov__json_small_int(n, out))
        return 0;
    if (n->type != TOOLGOV__JSON_NUMBER)
        return TOOLGOV_EINVAL;
    split_number(n, &np);
    if (!significant(&np, &f, &l, &e10)) {
        *out = 0;
        return 0;
    }
    if (e10 < 0 || (long)(l - f + 1) + e10 > 19)
        return TOOLGOV_EINVAL;
    for (k = f; k <= l; k++)
        v = v * 10 + (uint64_t)digit_at(&np, k);
    for (; e10 > 0; e10--)
        v *= 10; /* at most 19 digits in all: no overflow of uint64 */
    limit = np.neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (v > limit)
        return TOOLGOV_EINVAL;
    *out = np.neg ? (int64_t)(0 - v) : (int64_t)v;
    if (np.neg && v == (uint64_t)INT64_MAX + 1)
        *out = INT64_MIN;
    return 0;
}

int toolgov__json_is_integral(const toolgov__json *n)
{
    numparts np;
    size_t f, l;
    long e10;

    if (n->type != TOOLGOV__JSON_NUMBER)
        return 0;
    if (n->is_int)
        return 1;
    split_number(n, &np);
    return !significant(&np, &f, &l, &e10) || e10 >= 0;
}

static const double pow10_exact[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* ---- Eisel-Lemire ----
** w * 10^q for a w of at most 19 digits, correctly rounded to the nearest
** double (ties to even), from one (rarely two) 64x128-bit products with a
** table of 128-bit powers of five (pow5_128.h): Daniel Lemire, "Number
** Parsing at a Gigabyte per Second" (2021), after Michael Eisel; a port of
** fast_float's compute_float for binary64 (https://github.com/fastfloat/
** fast_float, decimal_to_binary.h; see LICENSE), whose one product (two
** when the first leaves its low bits in doubt) is always enough for such a
** w (Mushtak and Lemire, "Fast number parsing without fallback", 2023). */

typedef struct u128 {
    uint64_t hi, lo;
} u128;

#if defined(__SIZEOF_INT128__) && (defined(__GNUC__) || defined(__clang__))
#define TOOLGOV__HAS_U128 1
__extension__ typedef unsigned __int128 toolgov__u128_t;
#endif

static u128 mul64(uint64_t a, uint64_t b)
{
    u128 r;
#if TOOLGOV__HAS_U128
    toolgov__u128_t p = (toolgov__u128_t)a * b;

    r.hi = (uint64_t)(p >> 64);
    r.lo = (uint64_t)p;
#else
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);

    r.lo = (mid << 32) | (ll & 0xFFFFFFFFu);
    r.hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
    return r;
}

static int leading_zeros64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(x);
#else
    int n = 0;

    while (!(x & (UINT64_C(1) << 63))) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* floor(x / 65536) for either sign: what an arithmetic x >> 16 gives,
** without shifting a negative value (implementation-defined in C). */
static long floor_div_65536(long x)
{
    return x >= 0 ? x / 65536 : -((-x + 65535) / 65536);
}

/* The bits of w * 10^q (w > 0, q within the table) as a double's biased
** exponent and mantissa: *bits, with the exponent 0x7FF for an overflow. */
static uint64_t eisel_lemire(long q, uint64_t w)
{
    const uint64_t *pw = toolgov__pow5_128[q - TOOLGOV__POW5_SMALLEST];
    int lz = leading_zeros64(w), upper, shift;
    uint64_t mant;
    long p2;
    u128 prod;

    w <<= lz;
    prod = mul64(w, pw[0]);
    /* 55 bits are needed (52 + the hidden bit + a rounding bit + the one
    ** the top may lack); when all the low ones of the high word are set, a
    ** carry from below could change them: add the second product. */
    if ((prod.hi & (~UINT64_C(0) >> 55)) == (~UINT64_C(0) >> 55)) {
        u128 second = mul64(w, pw[1]);

        prod.lo += second.hi;
        if (second.hi > prod.lo)
            prod.hi++;
    }
    upper = (int)(prod.hi >> 63);
    shift = upper + 64 - 52 - 3;
    mant = prod.hi >> shift;
    /* floor((152170 + 65536) * q / 2^16) is floor(q * log2(5)) + q for
    ** q > 0 (-ceil(-q * log2(5)) + q below), within the table's range. */
    p2 = (floor_div_65536((152170L + 65536L) * q) + 63) + upper - lz + 1023;
    if (p2 <= 0) {
        /* subnormal (or zero) */
        if (-p2 + 1 >= 64)
            return 0;
        mant >>= -p2 + 1;
        mant += mant & 1;
        mant >>= 1;
        /* The bits as they are: rounding up to 2^52 makes them the least
        ** normal number's (exponent 1, mantissa 0). */
        return mant;
    }
    /* Exactly halfway (only possible while 5^q fits a word: q in [-4, 23])
    ** rounds to even: take back the round-up bit. */
    if (prod.lo <= 1 && q >= -4 && q <= 23 && (mant & 3) == 1 && (mant << shift) == prod.hi)
        mant &= ~UINT64_C(1);
    mant += mant & 1;
    mant >>= 1;
    if (mant >= (UINT64_C(2) << 52)) {
        mant = UINT64_C(1) << 52;
        p2++;
    }
    mant &= ~(UINT64_C(1) << 52);
    if (p2 >= 0x7FF)
        return (uint64_t)0x7FF << 52;
    return mant | (uint64_t)p2 << 52;
}

/* D * 10^e10, D the nd significant digits f..l of np (nd >= 1, no leading
** or trailing zero), when Eisel-Lemire decides it: 1 and *out (an
** infinity on overflow); 0 for the rare text it leaves to strtod (more
** than 19 digits whose first 19 and those plus one ulp round apart). */
static int read_eisel_lemire(const numparts *np, size_t f, size_t l, long e10, double *out)
{
    size_t nd = l - f + 1, k, take = nd > 19 ? 19 : nd;
    uint64_t w = 0, bits;
    long q = e10 + (long)(nd - take);

    for (k = f; k < f + take; k++)
        w = w * 10 + (uint64_t)digit_at(np, k);
    if (q < TOOLGOV__POW5_SMALLEST) {
        *out = 0.0;
        return 1;
    }
    if (q > TOOLGOV__POW5_LARGEST) {
        *out = HUGE_VAL;
        return 1;
    }
    bits = eisel_lemire(q, w);
    /* Digits cut off: the value lies strictly between w and w + 1 units
    ** (its last digit is not zero), so when both round alike, so does it. */
    if (take < nd && eisel_lemire(q, w + 1) != bits)
        return 0;
    memcpy(out, &bits, sizeof *out);
    return 1;
}

/* Significant digits handed to strtod: enough for correct rounding of any
** double (the longest decimal a halfway case needs is 767 digits); the
** rest only tells whether the tail is non-zero, which one sticky digit
** keeps. */
#define MAX_SIG_ 780

int toolgov__json_double(const toolgov__json *n, double *out)
{
    numparts np;
    size_t f, l, k, nd;
    long e10;
    double v;
    int64_t iv;

    if (toolgov__json_small_int(n, &iv)) {
        /* exact: at most 15 digits; -0 keeps its sign */
        *out = iv == 0 && n->u.str[0] == '-' ? -0.0 : (double)iv;
        return 0;
    }
    if (n->type != TOOLGOV__JSON_NUMBER)
        return TOOLGOV_EINVAL;
    if (!n->is_int) {
        /* The usual fraction ("47.3769", "-0.25"): no exponent and at most
        ** 15 digits in all, read in one pass. Its digits D are exact in a
        ** double (D < 10^15 < 2^53) and so is 10^fraction digits, so one
        ** correctly rounded division gives the correctly rounded value
        ** (Clinger's fast path, as below; zeros on either side change
        ** neither). */
        const char *p = n->u.str, *e = p + n->len;
        int neg = *p == '-';
        uint64_t d = 0;
        size_t nd = 0, fl = 0, point = 0;

        for (p += neg; p < e && nd <= 15; p++) {
            if (*p == '.') {
                point = 1;
                continue;
            }
            if (!is_digit((unsigned char)*p))
                break; /* an exponent */
            d = d * 10 + (uint64_t)(*p - '0');
            nd++;
            fl += point;
        }
        if (p == e && nd <= 15) {
            v = (double)d / pow10_exact[fl];
            *out = neg ? -v : v;
            return 0;
        }
    }
    split_number(n, &np);
    if (!significant(&np, &f, &l, &e10)) {
        *out = np.neg ? -0.0 : 0.0;
        return 0;
    }
    nd = l - f + 1;
    if ((long)nd + e10 > 310)
        return TOOLGOV_EINVAL; /* at least 1e310: beyond DBL_MAX */
    if ((long)nd + e10 < -330) {
        *out = np.neg ? -0.0 : 0.0;
        return 0;
    }
    if (nd <= 15 && e10 >= -22 && e10 <= 22) {
        /* Clinger's fast path: digits and power of ten both exact, so one
        ** correctly rounded operation gives the correctly rounded value. */
        uint64_t d = 0;

        for (k = f; k <= l; k++)
            d = d * 10 + (uint64_t)digit_at(&np, k);
        v = (double)d;
        v = e10 >= 0 ? v * pow10_exact[e10] : v / pow10_exact[-e10];
    } else if (read_eisel_lemire(&np, f, l, e10, &v)) {
        /* exact: see above */
    } else {
        /* Digits and exponent with no decimal point, so the C library's
        ** locale cannot change how the text reads. */
        char buf[MAX_SIG_ + 32];
        size_t o = 0;

        for (k = f; k <= l && o < MAX_SIG_; k++)
            buf[o++] = (char)('0' + digit_at(&np, k));
        if (k <= l) {
            buf[o++] = '1'; /* sticky: the dropped tail is non-zero (l is) */
            e10 += (long)(l - k);
        }
        /* e10 is within a few thousand here (the checks above), so the
        ** exponent fits the buffer's room. */
        buf[o++] = 'e';
        if (e10 < 0)
            buf[o++] = '-';
        o += toolgov__u64_text(buf + o, (uint64_t)(e10 < 0 ? -e10 : e10));
        buf[o] = '\0';
        v = strtod(buf, NULL);
    }
    if (isinf(v))
        return TOOLGOV_EINVAL;
    *out = np.neg ? -v : v;
    return 0;
}
