/* SPDX-License-Identifier: MIT */
/*
** jsonput.c: the canonical JSON writer's appenders on the growable buffer,
** and a parsed value written back in canonical form (see json.h). The
** spelling itself is jsonwrite.c's, shared with toolgov-gen.
*/
#include "json.h"

#include "jsonwrite.h"

#include <string.h>

/* 1 when s[0..len) needs no escape in a JSON string (no '"', '\\' or byte
** below 0x20): nearly every string and member name a call has. Eight bytes
** at a time (json.h's scan, the reader's), the last few one by one. */
static int plain_text(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + len;

    for (; e - p >= 8; p += 8)
        /* Non-ASCII too: only the slow path checks it is well-formed
        ** UTF-8 (an ill-formed byte becomes \ufffd there). */
        if (toolgov__json_special8(toolgov__json_load8(p)))
            return 0;
    for (; p < e; p++)
        if (*p < 0x20 || *p >= 0x80 || *p == '"' || *p == '\\')
            return 0;
    return 1;
}

/* s[0..len), which needs no escape, in quotes. */
static void put_quoted(toolgov__jbuf *b, const char *s, size_t len)
{
    if (toolgov__jbuf_room(b, len + 2)) {
        char *o = b->ptr + b->len;

        o[0] = '"';
        memcpy(o + 1, s, len);
        o[len + 1] = '"';
        b->len += len + 2;
    }
}

void toolgov__json_put_str(toolgov__jbuf *b, const char *s, size_t len)
{
    size_t n;

    if (plain_text(s, len)) {
        put_quoted(b, s, len);
        return;
    }
    /* A short one is written in one walk into room for its longest
    ** spelling (each byte at most six: \u001f, \ufffd), a long one
    ** measured first so the buffer does not grow six times its size. */
    n = len <= 4096 ? 6 * len + 2 : toolgov__json_str_size(s, len);
    if (toolgov__jbuf_room(b, n))
        b->len += toolgov__json_str_write(b->ptr + b->len, s, len);
}

void toolgov__json_put_int(toolgov__jbuf *b, int64_t v)
{
    if (toolgov__jbuf_room(b, TOOLGOV__JSON_NUMBER_MAX))
        b->len += toolgov__json_int_text(b->ptr + b->len, v);
}

void toolgov__json_put_double(toolgov__jbuf *b, double v)
{
    if (toolgov__jbuf_room(b, TOOLGOV__JSON_NUMBER_MAX))
        b->len += toolgov__json_double_text(b->ptr + b->len, v);
}

/* 1 when a number text is already the canonical spelling of its double:
** no exponent, at most 15 significant digits (so the text reads back to a
** double no other decimal of 15 digits or fewer reads back to: its digits
** are the shortest, and the only ones that short), no trailing zero after
** a point, and not below 1e-6 (where the layout turns to an exponent). */
static int canonical_decimal(const toolgov__json *n)
{
    const char *p = n->u.str, *e = p + n->len;
    size_t sig = 0, zeros = 0;
    int seen = 0, point = 0;

    if (*p == '-')
        p++;
    if (*p == '0' && e - p > 1 && p[1] != '.')
        return 0;
    for (; p < e; p++) {
        if (*p == '.') {
            point = 1;
            continue;
        }
        if (*p < '0' || *p > '9')
            return 0; /* an exponent */
        if (*p != '0')
            seen = 1;
        if (seen)
            sig++;
        else if (point)
            zeros++;
    }
    if (!seen)
        return 0; /* a zero: the printer knows its sign */
    if (point && e[-1] == '0')
        return 0;
    if (e[-1] == '.')
        return 0;
    return sig <= 15 && zeros < 6;
}

void toolgov__json_put_number_double(toolgov__jbuf *b, const toolgov__json *n, double v)
{
    if (n->type == TOOLGOV__JSON_NUMBER && canonical_decimal(n))
        toolgov__jbuf_put(b, n->u.str, n->len);
    else
        toolgov__json_put_double(b, v);
}

void toolgov__json_put_value(toolgov__jbuf *b, const toolgov__json_doc *doc, size_t i)
{
    const toolgov__json *n = &doc->nodes[i];
    size_t k;

    switch (n->type) {
    case TOOLGOV__JSON_NULL: toolgov__jbuf_put(b, "null", 4); break;
    case TOOLGOV__JSON_FALSE: toolgov__jbuf_put(b, "false", 5); break;
    case TOOLGOV__JSON_TRUE: toolgov__jbuf_put(b, "true", 4); break;
    case TOOLGOV__JSON_NUMBER: toolgov__jbuf_put(b, n->u.str, n->len); break;
    case TOOLGOV__JSON_STRING: toolgov__json_put_node_str(b, n); break;
    case TOOLGOV__JSON_ARRAY:
        toolgov__jbuf_putc(b, '[');
        for (k = i + 1; k < n->end; k = doc->nodes[k].end) {
            if (k != i + 1)
                toolgov__jbuf_putc(b, ',');
            toolgov__json_put_value(b, doc, k);
        }
        toolgov__jbuf_putc(b, ']');
        break;
    case TOOLGOV__JSON_OBJECT:
        toolgov__jbuf_putc(b, '{');
        for (k = 0; k < n->len; k++) {
            uint32_t key = n->u.sorted[k];

            if (k)
                toolgov__jbuf_putc(b, ',');
            toolgov__json_put_node_str(b, &doc->nodes[key]);
            toolgov__jbuf_putc(b, ':');
            toolgov__json_put_value(b, doc, key + 1);
        }
        toolgov__jbuf_putc(b, '}');
        break;
    default:
        break;
    }
}
