/* SPDX-License-Identifier: MIT */
/*
** jbuf.c: the growable byte buffer (see jbuf.h).
*/
#include "jbuf.h"

#include <stdint.h>
#include <string.h>

#include "internal.h"

void toolgov__jbuf_init(toolgov__jbuf *b, const toolgov_allocator *alloc)
{
    b->alloc = alloc;
    b->ptr = NULL;
    b->len = 0;
    b->cap = 0;
    b->failed = 0;
}

void toolgov__jbuf_clear(toolgov__jbuf *b)
{
    b->len = 0;
    b->failed = 0;
}

void toolgov__jbuf_free(toolgov__jbuf *b)
{
    toolgov__free(b->alloc, b->ptr, b->cap);
    toolgov__jbuf_init(b, b->alloc);
}

int toolgov__jbuf_grow(toolgov__jbuf *b, size_t n)
{
    size_t cap;
    char *p;

    if (b->cap - b->len > n)
        return 0;
    if (n > SIZE_MAX / 4 - b->len)
        return TOOLGOV_ENOMEM;
    cap = b->cap ? b->cap : 256;
    while (cap - b->len <= n)
        cap *= 2;
    p = toolgov__realloc(b->alloc, b->ptr, b->cap, cap);
    if (!p)
        return TOOLGOV_ENOMEM;
    b->ptr = p;
    b->cap = cap;
    return 0;
}

int toolgov__jbuf_room_slow(toolgov__jbuf *b, size_t n)
{
    if (b->failed)
        return 0;
    if (b->cap - b->len > n)
        return 1;
    if (toolgov__jbuf_grow(b, n) != 0) {
        b->failed = 1;
        return 0;
    }
    return 1;
}

void toolgov__jbuf_put(toolgov__jbuf *b, const char *s, size_t n)
{
    if (n && toolgov__jbuf_room(b, n)) {
        memcpy(b->ptr + b->len, s, n);
        b->len += n;
    }
}

void toolgov__jbuf_putc_slow(toolgov__jbuf *b, char c)
{
    if (toolgov__jbuf_room(b, 1))
        b->ptr[b->len++] = c;
}

void toolgov__jbuf_puts(toolgov__jbuf *b, const char *s)
{
    toolgov__jbuf_put(b, s, strlen(s));
}

int toolgov__jbuf_finish(toolgov__jbuf *b)
{
    if (!toolgov__jbuf_room(b, 0))
        return TOOLGOV_ENOMEM;
    b->ptr[b->len] = '\0';
    return 0;
}
