/* SPDX-License-Identifier: MIT */
/*
** core.c: error messages, hashing and result buffers (the allocator
** hook's calls are in alloc.c, the renderers' writer in out.c).
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

/* ---- names of the public enums ---- */

const char *toolgov_gate_name(toolgov_gate gate)
{
    switch (gate) {
    case TOOLGOV_GATE_ALLOW: return "ALLOW";
    case TOOLGOV_GATE_ASK_FIRST: return "ASK_FIRST";
    case TOOLGOV_GATE_NEEDS_APPROVAL: return "NEEDS_APPROVAL";
    case TOOLGOV_GATE_REPLAY: return "REPLAY";
    case TOOLGOV_GATE_REFUSE: return "REFUSE";
    }
    return "UNKNOWN";
}

const char *toolgov_end_reason_name(toolgov_end_reason reason)
{
    switch (reason) {
    case TOOLGOV_END_NONE: return "none";
    case TOOLGOV_END_ANSWERED_DIRECTLY: return "answered_directly";
    case TOOLGOV_END_HOST: return "host";
    }
    return "unknown";
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

/* ---- result buffers: a growable buffer (jbuf.c) kept NUL-terminated ---- */

void toolgov__result_init(toolgov_result *r, const toolgov_allocator *a)
{
    toolgov__jbuf_init(&r->b, a);
}

void toolgov__result_clear(toolgov_result *r)
{
    toolgov__jbuf_clear(&r->b);
    if (r->b.ptr)
        r->b.ptr[0] = '\0';
}

void toolgov__result_free(toolgov_result *r)
{
    toolgov__jbuf_free(&r->b);
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

int toolgov_result_set(toolgov_result *out, const char *text, size_t len)
{
    size_t old;
    int rc;

    if (!out || (!text && len))
        return TOOLGOV_EINVAL;
    /* The text may lie in the buffer itself: it then fits, and the buffer
    ** does not move. */
    old = out->b.len;
    out->b.len = 0;
    if ((rc = toolgov__jbuf_grow(&out->b, len)) < 0) {
        out->b.len = old;
        return rc;
    }
    if (len)
        memmove(out->b.ptr, text, len);
    out->b.ptr[len] = '\0';
    out->b.len = len;
    return 0;
}

int toolgov_result_append(toolgov_result *out, const char *text, size_t len)
{
    int rc;

    if (!out || (!text && len))
        return TOOLGOV_EINVAL;
    if ((rc = toolgov__jbuf_grow(&out->b, len)) < 0)
        return rc;
    if (len)
        memcpy(out->b.ptr + out->b.len, text, len);
    out->b.len += len;
    out->b.ptr[out->b.len] = '\0';
    return 0;
}

int toolgov_result_vprintf(toolgov_result *out, const char *fmt, va_list ap)
{
    toolgov__jbuf *b;
    va_list ap2;
    int n;
    int rc;

    if (!out || !fmt)
        return TOOLGOV_EINVAL;
    b = &out->b;
    va_copy(ap2, ap);
    n = vsnprintf(b->ptr ? b->ptr + b->len : NULL, b->ptr ? b->cap - b->len : 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        if (b->ptr)
            b->ptr[b->len] = '\0';
        return TOOLGOV_EINVAL;
    }
    if (b->ptr && (size_t)n < b->cap - b->len) {
        b->len += (size_t)n;
        return 0;
    }
    if ((rc = toolgov__jbuf_grow(b, (size_t)n)) < 0) {
        if (b->ptr)
            b->ptr[b->len] = '\0';
        return rc;
    }
    va_copy(ap2, ap);
    n = vsnprintf(b->ptr + b->len, b->cap - b->len, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->ptr[b->len] = '\0';
        return TOOLGOV_EINVAL;
    }
    b->len += (size_t)n;
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
    return out && out->b.ptr ? out->b.ptr : "";
}

size_t toolgov_result_len(const toolgov_result *out)
{
    return out ? out->b.len : 0;
}

int toolgov_text_shown(char *out, size_t size, size_t *needed, const char *s, size_t len)
{
    toolgov__out o;

    if (needed)
        *needed = 0;
    if ((!out && size) || (!s && len))
        return TOOLGOV_EINVAL;
    toolgov__out_init(&o, out, size);
    toolgov__out_shown(&o, s ? s : "", len);
    return toolgov__out_finish(&o, needed);
}

/* The input bytes shown at once: at most 4 bytes out per byte in (\xNN),
** so a piece always fits the stack buffer. */
#define SHOWN_PIECE 512u

int toolgov_text_shown_write(FILE *f, const char *s, size_t len, unsigned flags)
{
    char buf[SHOWN_PIECE * 4 + 1];

    if (!f || (!s && len))
        return TOOLGOV_EINVAL;
    while (len) {
        const char *nl = flags & TOOLGOV_SHOWN_LINES ? memchr(s, '\n', len) : NULL;
        size_t line = nl ? (size_t)(nl - s) : len;

        len -= line;
        while (line) {
            /* Cut before a byte that starts a character (not 10xxxxxx), so
            ** every sequence is escaped as the whole text escapes it. */
            size_t take = line > SHOWN_PIECE ? SHOWN_PIECE : line, cut = take;
            toolgov__out o;
            while (cut < line && cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
                cut--;
            if (cut)
                take = cut;
            toolgov__out_init(&o, buf, sizeof buf);
            toolgov__out_shown(&o, s, take);
            fwrite(buf, 1, o.len, f);
            s += take;
            line -= take;
        }
        if (nl) {
            fputc('\n', f);
            s++;
            len--;
        }
    }
    return 0;
}
