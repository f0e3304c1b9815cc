/* SPDX-License-Identifier: MIT */
/*
** core.c: error messages, hashing, result buffers and the snprintf-style
** writer every renderer uses (the allocator hook's calls are in alloc.c).
*/
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *toolgov_strerror(int err)
{
    switch (err) {
#define TOOLGOV_ERRNO_CASE_(name, value, msg) case value: return msg;
    TOOLGOV_ERRNO_MAP(TOOLGOV_ERRNO_CASE_)
#undef TOOLGOV_ERRNO_CASE_
    case 0:
        return "success";
    default:
        return "unknown error";
    }
}

/* ---- allocation ---- */

/* toolgov__alloc, toolgov__realloc and toolgov__free are in alloc.c. */

char *toolgov__memdup(const toolgov_allocator *a, const char *s, size_t len)
{
    char *p;

    if (len == SIZE_MAX)
        return NULL;
    p = toolgov__alloc(a, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

int toolgov__reserve(const toolgov_allocator *a, void **arr, size_t *cap,
                     size_t need, size_t elem)
{
    size_t ncap;
    void *p;

    if (need <= *cap)
        return 0;
    ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return TOOLGOV_ENOMEM;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elem)
        return TOOLGOV_ENOMEM;
    p = toolgov__realloc(a, *arr, *cap * elem, ncap * elem);
    if (!p)
        return TOOLGOV_ENOMEM;
    *arr = p;
    *cap = ncap;
    return 0;
}

/* ---- hashing ---- */

uint64_t toolgov__fnv64(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* ---- result buffers ---- */

void toolgov__result_init(toolgov_result *r, const toolgov_allocator *a)
{
    r->alloc = a;
    r->buf = NULL;
    r->len = 0;
    r->cap = 0;
}

void toolgov__result_clear(toolgov_result *r)
{
    r->len = 0;
    if (r->buf)
        r->buf[0] = '\0';
}

void toolgov__result_free(toolgov_result *r)
{
    toolgov__free(r->alloc, r->buf, r->cap);
    r->buf = NULL;
    r->len = 0;
    r->cap = 0;
}

/* A result buffer of the caller's own: the buffer and the copy of the
** allocator it points at, in one block. */
typedef struct owned_result {
    toolgov_result r;
    toolgov_allocator alloc;
} owned_result;

int toolgov_result_new(toolgov_result **out, const toolgov_allocator *alloc)
{
    toolgov_allocator a = {NULL, NULL};
    owned_result *o;

    if (!out)
        return TOOLGOV_EINVAL;
    if (alloc)
        a = *alloc;
    o = toolgov__alloc(&a, sizeof *o);
    if (!o)
        return TOOLGOV_ENOMEM;
    o->alloc = a;
    toolgov__result_init(&o->r, &o->alloc);
    *out = &o->r;
    return 0;
}

void toolgov_result_free(toolgov_result *r)
{
    owned_result *o = (owned_result *)(void *)r; /* r is the first member */
    toolgov_allocator a;

    if (!r)
        return;
    a = o->alloc;
    toolgov__result_free(&o->r);
    toolgov__free(&a, o, sizeof *o);
}

/* Make room for a text of `need` bytes plus its NUL. */
static int result_room(toolgov_result *r, size_t need)
{
    size_t ncap;
    char *p;

    if (need == SIZE_MAX)
        return TOOLGOV_ENOMEM;
    if (need + 1 <= r->cap)
        return 0;
    ncap = r->cap ? r->cap : 64;
    while (ncap < need + 1) {
        if (ncap > SIZE_MAX / 2) {
            ncap = need + 1;
            break;
        }
        ncap *= 2;
    }
    p = toolgov__realloc(r->alloc, r->buf, r->cap, ncap);
    if (!p)
        return TOOLGOV_ENOMEM;
    if (!r->buf)
        p[0] = '\0';
    r->buf = p;
    r->cap = ncap;
    return 0;
}

int toolgov_result_set(toolgov_result *out, const char *text, size_t len)
{
    int rc;

    if (!out || (!text && len))
        return TOOLGOV_EINVAL;
    if ((rc = result_room(out, len)) < 0)
        return rc;
    if (len)
        memmove(out->buf, text, len);
    out->buf[len] = '\0';
    out->len = len;
    return 0;
}

int toolgov_result_append(toolgov_result *out, const char *text, size_t len)
{
    int rc;

    if (!out || (!text && len))
        return TOOLGOV_EINVAL;
    if (len > SIZE_MAX - 1 - out->len)
        return TOOLGOV_ENOMEM;
    if ((rc = result_room(out, out->len + len)) < 0)
        return rc;
    if (len)
        memcpy(out->buf + out->len, text, len);
    out->len += len;
    out->buf[out->len] = '\0';
    return 0;
}

int toolgov_result_vprintf(toolgov_result *out, const char *fmt, va_list ap)
{
    va_list ap2;
    int n;
    int rc;

    if (!out || !fmt)
        return TOOLGOV_EINVAL;
    va_copy(ap2, ap);
    n = vsnprintf(out->buf ? out->buf + out->len : NULL,
                  out->buf ? out->cap - out->len : 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        if (out->buf)
            out->buf[out->len] = '\0';
        return TOOLGOV_EINVAL;
    }
    if (out->buf && (size_t)n < out->cap - out->len) {
        out->len += (size_t)n;
        return 0;
    }
    if ((rc = result_room(out, out->len + (size_t)n)) < 0) {
        if (out->buf)
            out->buf[out->len] = '\0';
        return rc;
    }
    va_copy(ap2, ap);
    n = vsnprintf(out->buf + out->len, out->cap - out->len, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        out->buf[out->len] = '\0';
        return TOOLGOV_EINVAL;
    }
    out->len += (size_t)n;
    return 0;
}

int toolgov_result_printf(toolgov_result *out, const char *fmt, ...)
{
    va_list ap;
    int rc;

    va_start(ap, fmt);
    rc = toolgov_result_vprintf(out, fmt, ap);
    va_end(ap);
    return rc;
}

const char *toolgov_result_text(const toolgov_result *out)
{
    return out && out->buf ? out->buf : "";
}

size_t toolgov_result_len(const toolgov_result *out)
{
    return out ? out->len : 0;
}

/* ---- snprintf-style writer ---- */

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
    char tmp[24];
    size_t i = sizeof tmp;

    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    toolgov__out_put(o, tmp + i, sizeof tmp - i);
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

/* Length of the well-formed UTF-8 sequence starting at s (RFC 3629: no
** overlong form, no surrogate, nothing above U+10FFFF), or 0 when the bytes
** there are not one. The string is NUL-terminated and a NUL is never a
** continuation byte, so this never reads past its end. */
static size_t utf8_seq(const unsigned char *s)
{
    unsigned c = s[0];

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return (s[1] & 0xc0) == 0x80 ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;

        return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;

        return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 &&
                       (s[3] & 0xc0) == 0x80
                   ? 4
                   : 0;
    }
    return 0;
}

void toolgov__out_json_str(toolgov__out *o, const char *s)
{
    static const char digits[] = "0123456789abcdef";
    const char *run;

    if (!s) {
        toolgov__out_put(o, "null", 4);
        return;
    }
    toolgov__out_put(o, "\"", 1);
    run = s;
    while (*s) {
        unsigned char c = (unsigned char)*s;
        const char *esc = NULL;
        char u[6];
        size_t seq;

        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        default:
            if (c < 0x20) {
                u[0] = '\\'; u[1] = 'u'; u[2] = '0'; u[3] = '0';
                u[4] = digits[c >> 4]; u[5] = digits[c & 15];
                toolgov__out_put(o, run, (size_t)(s - run));
                toolgov__out_put(o, u, 6);
                run = ++s;
                continue;
            }
            /* Names computed at run time may hold any bytes, but JSON text
            ** is UTF-8: a byte that starts no valid sequence becomes U+FFFD. */
            seq = utf8_seq((const unsigned char *)s);
            if (seq) {
                s += seq;
                continue;
            }
            esc = "\\ufffd";
            break;
        }
        toolgov__out_put(o, run, (size_t)(s - run));
        toolgov__out_str(o, esc);
        run = ++s;
    }
    toolgov__out_put(o, run, (size_t)(s - run));
    toolgov__out_put(o, "\"", 1);
}

void toolgov__out_line_str(toolgov__out *o, const char *s)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s, *run = p;

    while (*p) {
        unsigned c = *p;
        size_t n = 1, xn = 0;
        char x[6];

        if (c == '\\') {
            x[0] = '\\';
            x[1] = '\\';
            xn = 2;
        } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && (n = utf8_seq(p)) == 0)) {
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
