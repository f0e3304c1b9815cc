/* SPDX-License-Identifier: MIT */
/*
** jsonwrite.c: the canonical JSON writer shared by libtoolgov and
** toolgov-gen (see jsonwrite.h for the contract).
**
** Doubles. The shortest digits are found with the C library: "%.*e" with
** p significant digits rounds correctly, and if p digits read back to v so
** do p + 1, so a binary search over 1..17 finds the least p. The digits are
** then laid out by ECMAScript's Number::toString rules, reading only digits
** and the exponent from the printed text, so the locale's decimal point
** never matters.
*/
#include "jsonwrite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int needs_escape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

size_t toolgov__json_str_size(const char *s, size_t len)
{
    size_t n = len + 2, i;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (!needs_escape(c))
            continue;
        /* The seven short escapes take 2 bytes, the rest \u00xx 6. */
        n += (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' ||
              c == '\t')
                 ? 1
                 : 5;
    }
    return n;
}

size_t toolgov__json_str_write(char *out, const char *s, size_t len)
{
    size_t i, run = 0, o = 0;

    out[o++] = '"';
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (!needs_escape(c))
            continue;
        /* Copy the run of plain bytes before it in one go. */
        memcpy(out + o, s + run, i - run);
        o += i - run;
        run = i + 1;
        o += escape(out + o, c);
    }
    if (len > run)
        memcpy(out + o, s + run, len - run);
    o += len - run;
    out[o++] = '"';
    return o;
}

size_t toolgov__json_int_text(char *out, int64_t v)
{
    char tmp[24];
    size_t i = sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

    do {
        tmp[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        tmp[--i] = '-';
    memcpy(out, tmp + i, sizeof tmp - i);
    return sizeof tmp - i;
}

/* Whether some p-digit decimal reads back to v, written into buf as
** d.ddde±XX: the nearest one (printf's rounding), else the one a unit of
** the last digit above or below it. The nearest is not always the one: at
** a power of two the doubles below are twice as dense as those above, so
** the interval that reads back to v is narrower below it (2^-24 is
** 5.960464477539063e-8, whose nearest 16 digits ...062e-8 read back to
** the double below). */
static int p_digits(double v, int p, char buf[40])
{
    char alt[40];
    char *e;
    int dir;

    snprintf(buf, 40, "%.*e", p - 1, v);
    if (strtod(buf, NULL) == v)
        return 1;
    for (dir = 1; dir >= -1; dir -= 2) {
        char *q;

        memcpy(alt, buf, 40);
        e = strchr(alt, 'e');
        if (!e)
            return 0;
        /* Step the last digit, carrying or borrowing; a step that changes
        ** the first digit's place (9.99 up, 1.00 down) is left out. */
        for (q = e - 1; q >= alt; q--) {
            if (*q < '0' || *q > '9')
                continue;
            if (dir > 0 && *q < '9') {
                (*q)++;
                break;
            }
            if (dir < 0 && *q > '0') {
                (*q)--;
                break;
            }
            *q = dir > 0 ? '0' : '9';
        }
        if (q < alt || alt[0] == '0')
            continue;
        if (strtod(alt, NULL) == v) {
            memcpy(buf, alt, 40);
            return 1;
        }
    }
    return 0;
}

/* Shortest digits of v > 0 that read back to v (ECMAScript's Number to
** String: fewest digits, then the ones nearest v): digits into d (no
** point), their count in *nd, and the decimal exponent of the first digit. */
static void shortest_digits(double v, char d[24], int *nd, int *exp10)
{
    char buf[40], best_buf[40];
    int lo = 1, hi = 17, p, n = 0;
    const char *s;

    snprintf(best_buf, sizeof best_buf, "%.16e", v); /* 17 digits always read back */
    while (lo <= hi) {
        p = lo + (hi - lo) / 2;
        if (p_digits(v, p, buf)) {
            memcpy(best_buf, buf, sizeof buf);
            hi = p - 1;
        } else {
            lo = p + 1;
        }
    }
    /* d.ddde±XX, whatever the locale's decimal point looks like */
    for (s = best_buf; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            d[n++] = *s;
    while (n > 1 && d[n - 1] == '0')
        n--;
    *nd = n;
    *exp10 = *s == 'e' ? (int)strtol(s + 1, NULL, 10) : 0;
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
