/* SPDX-License-Identifier: MIT */
/*
** buf.c: the generator's growable byte buffer (see buf.h).
*/
#include "base/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "jsonwrite.h"

void toolgov__buf_init(toolgov__buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}

void toolgov__buf_free(toolgov__buf *b)
{
    free(b->data);
    toolgov__buf_init(b);
}

int toolgov__buf_reserve(toolgov__buf *b, size_t extra)
{
    size_t ncap;
    char *nd;
    if (b->oom)
        return -1;
    if (b->cap - b->len >= extra)
        return 0;
    ncap = b->cap ? b->cap : 4096;
    while (ncap - b->len < extra) {
        if (ncap > ((size_t)-1) / 2) {
            b->oom = 1;
            return -1;
        }
        ncap *= 2;
    }
    nd = realloc(b->data, ncap);
    if (!nd) {
        b->oom = 1;
        return -1;
    }
    b->data = nd;
    b->cap = ncap;
    return 0;
}

void toolgov__buf_decimal(toolgov__buf *b, unsigned long long v)
{
    char t[24];
    size_t n = sizeof t;
    do {
        t[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    toolgov__buf_put(b, t + n, sizeof t - n);
}

/* One vsnprintf into a small array, a second one straight into the buffer
** for long text. */
void toolgov__buf_vprintf(toolgov__buf *b, const char *fmt, va_list ap)
{
    va_list again;
    int n;
    char small[512];
    va_copy(again, ap);
    n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        b->oom = 1;
    } else if ((size_t)n < sizeof small) {
        toolgov__buf_put(b, small, (size_t)n);
    } else if (toolgov__buf_reserve(b, (size_t)n + 1) == 0) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
}

void toolgov__buf_printf(toolgov__buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    toolgov__buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void toolgov__buf_json_str(toolgov__buf *b, const char *s, size_t n)
{
    if (toolgov__buf_reserve(b, toolgov__json_str_size(s, n)) == 0)
        b->len += toolgov__json_str_write(b->data + b->len, s, n);
}

void toolgov__buf_json_int(toolgov__buf *b, int64_t v)
{
    if (toolgov__buf_reserve(b, TOOLGOV__JSON_NUMBER_MAX) == 0)
        b->len += toolgov__json_int_text(b->data + b->len, v);
}

void toolgov__buf_json_double(toolgov__buf *b, double v)
{
    if (toolgov__buf_reserve(b, TOOLGOV__JSON_NUMBER_MAX) == 0)
        b->len += toolgov__json_double_text(b->data + b->len, v);
}

/* Eight bytes as a little-endian word, on any host (one load on x86). */
static uint64_t load_le64(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
           (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

uint64_t toolgov__hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    const uint64_t k = 0x9e3779b97f4a7c15u;
    uint64_t v = (uint64_t)n * k;
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        v = (((v << 5) | (v >> 59)) ^ load_le64(p + i)) * k;
    if (i < n) {
        unsigned char tail[8] = {0};
        memcpy(tail, p + i, n - i);
        v = (((v << 5) | (v >> 59)) ^ load_le64(tail)) * k;
    }
    return v;
}
