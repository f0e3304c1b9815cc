/* SPDX-License-Identifier: MIT */
/*
** jsonwrite.c: the canonical JSON writer shared by libtoolgov and
** toolgov-gen (see jsonwrite.h for the contract).
**
** Doubles. The shortest digits that read back to the same double, and
** the nearest to it among those, come from Ryu (ryu_d2s.h: a port of Ulf
** Adams's published algorithm, Apache-2.0 OR BSL-1.0; integers below 2^53
** take its exact shortcut), in integer arithmetic: no C library call, so
** no locale and no snprintf/strtod search. The digits are then laid out by
** ECMAScript's Number::toString rules.
*/
#include "jsonwrite.h"
#include "utf8.h"

#include <math.h>
#include <string.h>

#include "ryu_d2s.h"

/* The escape of byte c (c < 0x20, '"' or '\\') into esc; returns its
** length. */
static size_t escape(char esc[6], unsigned char c)
{
    static const char hex[] = "0123456789abcdef";

    esc[0] = '\\';
    switch (c) {
    case '"': esc[1] = '"'; return 2;
    case '\\': esc[1] = '\\'; return 2;
    case '\b': esc[1] = 'b'; return 2;
    case '\f': esc[1] = 'f'; return 2;
    case '\n': esc[1] = 'n'; return 2;
    case '\r': esc[1] = 'r'; return 2;
    case '\t': esc[1] = 't'; return 2;
    default:
        esc[1] = 'u';
        esc[2] = '0';
        esc[3] = '0';
        esc[4] = hex[c >> 4];
        esc[5] = hex[c & 15];
        return 6;
    }
}

/* A byte that goes out as it is: printable ASCII but '"' and '\\'. Every
** other byte is escaped, or (above 0x7F) checked as UTF-8. */
static int plain(unsigned char c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* The inside of a JSON string: written into out, or only counted when out
** is NULL (one walk for the size and the write, so they always agree). */
static size_t chars(char *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + len, *run = p;
    size_t o = 0;

    while (p < e) {
        unsigned char c;
        size_t k;
        char esc[6];

        /* Eight bytes that all go out as they are, at a time. */
        if (e - p >= 8 && !toolgov__json_special8(toolgov__json_load8(p))) {
            p += 8;
            continue;
        }
        c = *p;
        if (plain(c)) {
            p++;
            continue;
        }
        if (c >= 0x80 && (k = toolgov__utf8_len(p, e)) != 0) {
            p += k;
            continue;
        }
        /* The escape: \ufffd for a byte that starts no well-formed
        ** sequence, else the control, quote or backslash escaped. */
        k = c >= 0x80 ? 6 : escape(esc, c);
        if (out) {
            /* Copy the run of bytes that go out as they are in one go. */
            memcpy(out + o, run, (size_t)(p - run));
            memcpy(out + o + (size_t)(p - run), c >= 0x80 ? "\\ufffd" : esc, k);
        }
        o += (size_t)(p - run) + k;
        run = ++p;
    }
    if (out)
        memcpy(out + o, run, (size_t)(p - run));
    return o + (size_t)(p - run);
}

size_t toolgov__json_chars_size(const char *s, size_t len)
{
    return chars(NULL, s, len);
}

size_t toolgov__json_chars_write(char *out, const char *s, size_t len)
{
    return chars(out, s, len);
}

size_t toolgov__json_str_size(const char *s, size_t len)
{
    return toolgov__json_chars_size(s, len) + 2;
}

size_t toolgov__json_str_write(char *out, const char *s, size_t len)
{
    size_t o;

    out[0] = '"';
    o = 1 + toolgov__json_chars_write(out + 1, s, len);
    out[o++] = '"';
    return o;
}

size_t toolgov__u64_text(char *out, uint64_t v)
{
    char tmp[24];
    size_t i = sizeof tmp;

    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    memcpy(out, tmp + i, sizeof tmp - i);
    return sizeof tmp - i;
}

size_t toolgov__json_int_text(char *out, int64_t v)
{
    size_t o = 0;

    if (v < 0)
        out[o++] = '-';
    return o + toolgov__u64_text(out + o, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

/* Shortest digits of v > 0 that read back to v, the nearest to v among
** those (ECMAScript's Number to String; Ryu finds exactly these): digits
** into d (no point, no trailing zeros), their count in *nd, and the
** decimal exponent of the first digit in *exp10. */
static void shortest_digits(double v, char d[24], int *nd, int *exp10)
{
    uint64_t bits, m;
    uint32_t ieee_exp;
    toolgov_ryu_decimal r;
    char tmp[24];
    int n = 0, i = (int)sizeof tmp;

    memcpy(&bits, &v, sizeof bits);
    m = bits & ((1ull << RYU_DOUBLE_MANTISSA_BITS) - 1);
    ieee_exp = (uint32_t)((bits >> RYU_DOUBLE_MANTISSA_BITS) & 0x7FFu);
    if (!toolgov_ryu_small_int(m, ieee_exp, &r))
        r = toolgov_ryu_d2d(m, ieee_exp);
    while (r.mantissa % 10 == 0) { /* an integer's zeros, or a carry's */
        r.mantissa /= 10;
        r.exponent++;
    }
    do {
        tmp[--i] = (char)('0' + r.mantissa % 10);
        r.mantissa /= 10;
    } while (r.mantissa);
    n = (int)sizeof tmp - i;
    memcpy(d, tmp + i, (size_t)n);
    *nd = n;
    *exp10 = r.exponent + n - 1;
}

size_t toolgov__json_double_text(char *out, double v)
{
    char d[24];
    int nd, e, n, o = 0, i;

    if (v == 0) {
        if (signbit(v))
            out[o++] = '-';
        out[o++] = '0';
        return (size_t)o;
    }
    if (v < 0) {
        out[o++] = '-';
        v = -v;
    }
    shortest_digits(v, d, &nd, &e);
    n = e + 1; /* ECMAScript's n: the point sits after n digits */
    if (nd <= n && n <= 21) {
        for (i = 0; i < nd; i++)
            out[o++] = d[i];
        for (; i < n; i++)
            out[o++] = '0';
    } else if (0 < n && n <= 21) {
        for (i = 0; i < n; i++)
            out[o++] = d[i];
        out[o++] = '.';
        for (; i < nd; i++)
            out[o++] = d[i];
    } else if (-6 < n && n <= 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (i = 0; i < -n; i++)
            out[o++] = '0';
        for (i = 0; i < nd; i++)
            out[o++] = d[i];
    } else {
        int x = n - 1 < 0 ? 1 - n : n - 1; /* |exponent|, at most 324 */
        char t[4];
        int k = 0;

        out[o++] = d[0];
        if (nd > 1) {
            out[o++] = '.';
            for (i = 1; i < nd; i++)
                out[o++] = d[i];
        }
        out[o++] = 'e';
        out[o++] = n - 1 < 0 ? '-' : '+';
        do {
            t[k++] = (char)('0' + x % 10);
            x /= 10;
        } while (x);
        while (k)
            out[o++] = t[--k];
    }
    return (size_t)o;
}
