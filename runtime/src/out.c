/* SPDX-License-Identifier: MIT */
/*
** out.c: the snprintf-style writer every renderer uses (see out.h). Its
** JSON strings and numbers are jsonwrite.c's spelling; it only adds the
** caller's bounded buffer.
*/
#include "out.h"

#include <string.h>

#include "jsonwrite.h"
#include "toolgov/toolgov.h"
#include "utf8.h"

void toolgov__out_init(toolgov__out *o, char *buf, size_t size)
{
    o->buf = buf;
    o->size = buf ? size : 0;
    o->len = 0;
}

void toolgov__out_put(toolgov__out *o, const char *s, size_t n)
{
    if (o->len < o->size) {
        size_t room = o->size - 1 - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

void toolgov__out_str(toolgov__out *o, const char *s)
{
    toolgov__out_put(o, s, strlen(s));
}

void toolgov__out_u64(toolgov__out *o, unsigned long long v)
{
    char tmp[TOOLGOV__JSON_NUMBER_MAX];

    toolgov__out_put(o, tmp, toolgov__u64_text(tmp, (uint64_t)v));
}

void toolgov__out_hex64(toolgov__out *o, unsigned long long v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    int i;

    for (i = 15; i >= 0; i--) {
        tmp[i] = digits[v & 15];
        v >>= 4;
    }
    toolgov__out_put(o, tmp, 16);
}

/* Input bytes escaped at a time through a stack buffer when the text does
** not fit whole (each becomes at most 6). */
#define PIECE 64

void toolgov__out_json_chars(toolgov__out *o, const char *s, size_t len)
{
    size_t n = toolgov__json_chars_size(s, len);

    if (o->len < o->size && o->size - 1 - o->len >= n) {
        toolgov__json_chars_write(o->buf + o->len, s, len);
        o->len += n;
        return;
    }
    if (o->len >= o->size) { /* nothing more fits: count only */
        o->len += n;
        return;
    }
    /* Cut short: the part that fits, escaped piece by piece. A piece never
    ** ends just before a continuation byte (a sequence has at most three),
    ** so no well-formed sequence is split and the bytes are the whole
    ** text's. */
    while (len) {
        char tmp[6 * PIECE];
        size_t k = len < PIECE ? len : PIECE, back = 0;

        while (k < len && back < 3 && ((unsigned char)s[k] & 0xC0) == 0x80) {
            k--;
            back++;
        }
        toolgov__out_put(o, tmp, toolgov__json_chars_write(tmp, s, k));
        s += k;
        len -= k;
    }
}

void toolgov__out_json_mem(toolgov__out *o, const char *s, size_t len)
{
    toolgov__out_put(o, "\"", 1);
    toolgov__out_json_chars(o, s, len);
    toolgov__out_put(o, "\"", 1);
}

void toolgov__out_json_str(toolgov__out *o, const char *s)
{
    if (!s)
        toolgov__out_put(o, "null", 4);
    else
        toolgov__out_json_mem(o, s, strlen(s));
}

void toolgov__out_line_str(toolgov__out *o, const char *s)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s, *run = p, *e = p + strlen(s);

    while (*p) {
        unsigned c = *p;
        size_t n = 1, xn = 0;
        char x[6];

        if (c == '\\') {
            x[0] = '\\';
            x[1] = '\\';
            xn = 2;
        } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && (n = toolgov__utf8_len(p, e)) == 0)) {
            /* C0, DEL, or a byte that is not UTF-8 (a raw 8-bit CSI, say) */
            n = 1;
            x[0] = '\\'; x[1] = 'x'; x[2] = digits[c >> 4]; x[3] = digits[c & 15];
            xn = 4;
        } else if (n > 1) {
            unsigned cp = n == 2 ? (c & 0x1f) << 6 | (p[1] & 0x3f)
                          : n == 3 ? (c & 0x0f) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3f)
                                   : 0;

            /* C1 controls and the Unicode line and paragraph separators */
            if ((cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029) {
                x[0] = '\\'; x[1] = 'u';
                x[2] = digits[cp >> 12]; x[3] = digits[(cp >> 8) & 15];
                x[4] = digits[(cp >> 4) & 15]; x[5] = digits[cp & 15];
                xn = 6;
            }
        }
        if (xn) {
            toolgov__out_put(o, (const char *)run, (size_t)(p - run));
            toolgov__out_put(o, x, xn);
            run = p + n;
        }
        p += n;
    }
    toolgov__out_put(o, (const char *)run, (size_t)(p - run));
}

int toolgov__out_finish(toolgov__out *o, size_t *needed)
{
    if (needed)
        *needed = o->len;
    if (o->size == 0)
        return 0; /* a sizing call (toolgov.h, "Renderers") */
    if (o->len < o->size) {
        o->buf[o->len] = '\0';
        return 0;
    }
    o->buf[o->size - 1] = '\0';
    return TOOLGOV_ENOSPC;
}
