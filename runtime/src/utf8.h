/* SPDX-License-Identifier: MIT */
/*
** utf8.h: the one test of a well-formed UTF-8 sequence (Unicode Table 3-7:
** no overlong form, no surrogate, nothing above U+10FFFF, nothing cut
** short), for the reader that refuses ill-formed text (json.c) and the
** writers that replace it (jsonwrite.c, out.c, wire_write.c).
**
** Internal (toolgov__ names); inline because the reader asks it for every
** byte above 0x7F. Compiled into libtoolgov and toolgov-gen. No state.
*/
#ifndef TOOLGOV_UTF8_H
#define TOOLGOV_UTF8_H

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at p (p < e; e is one past the
** last byte that may be read), 1 for an ASCII byte, or 0 when the bytes at
** p are not one; its code point in *cp (untouched on 0). */
static inline size_t toolgov__utf8_decode(const unsigned char *p, const unsigned char *e,
                                          unsigned *cp)
{
    unsigned c = p[0];
    unsigned lo = 0x80, hi = 0xBF, v;
    size_t n, i;

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        v = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        v = c & 0x0F;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        v = c & 0x07;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if ((size_t)(e - p) < n)
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    v = v << 6 | (p[1] & 0x3F);
    for (i = 2; i < n; i++) {
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
        v = v << 6 | (p[i] & 0x3F);
    }
    *cp = v;
    return n;
}

/* The same when only the length matters. */
static inline size_t toolgov__utf8_len(const unsigned char *p, const unsigned char *e)
{
    unsigned cp;

    return toolgov__utf8_decode(p, e, &cp);
}

#endif /* TOOLGOV_UTF8_H */
