/* SPDX-License-Identifier: MIT */
/*
** buf.h: the generator's growable byte buffer, the one every renderer of
** gen/ appends to (generated C, canonical schema texts and values, exports).
**
** A failed allocation sets `oom`; every later append is a no-op, so a
** renderer appends freely and checks once at the end. The data is not
** NUL-terminated unless the caller appends one.
**
** Ownership: a toolgov__buf owns its data (free with toolgov__buf_free).
*/
#ifndef TOOLGOV_GEN_BUF_H
#define TOOLGOV_GEN_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct toolgov__buf {
    char *data;  /* not NUL-terminated; NULL while empty */
    size_t len;
    size_t cap;
    int oom;     /* an append failed: the content is incomplete */
} toolgov__buf;

void toolgov__buf_init(toolgov__buf *b);
void toolgov__buf_free(toolgov__buf *b);

/* Make room for `extra` more bytes: 0, or -1 with b->oom set (also when
** it was already set). */
int toolgov__buf_reserve(toolgov__buf *b, size_t extra);

/* Append s[0..n). Inline: the renderers call it for every few bytes. */
static inline void toolgov__buf_put(toolgov__buf *b, const char *s, size_t n)
{
    if (b->cap - b->len < n && toolgov__buf_reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
}

/* v in decimal: the generator's one decimal printer (no printf). */
void toolgov__buf_decimal(toolgov__buf *b, unsigned long long v);

void toolgov__buf_vprintf(toolgov__buf *b, const char *fmt, va_list ap);
void toolgov__buf_printf(toolgov__buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Canonical JSON (the runtime's writer, runtime/src/jsonwrite.h): the
** string s[0..n), an int64, a finite double. */
void toolgov__buf_json_str(toolgov__buf *b, const char *s, size_t n);
void toolgov__buf_json_int(toolgov__buf *b, int64_t v);
void toolgov__buf_json_double(toolgov__buf *b, double v);

/* A fast 64-bit hash of p[0..n), eight bytes a step (rotate, xor, multiply
** by an odd constant, as FxHash does), the same on every host. It tells
** texts apart in tables and detects change; it is no checksum against an
** adversary (callers compare the bytes after a hash matches). */
uint64_t toolgov__hash_bytes(const void *p, size_t n);

/* The first slot of a hash h in a table of mask + 1 slots (a power of two).
** The hash's low bits alone cluster on keys that differ only late (its last
** step is a multiply), so its high bits are mixed in first; every hash
** table of the generator takes its slots from here. */
static inline size_t toolgov__hash_slot(uint64_t h, size_t mask)
{
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 32;
    return (size_t)h & mask;
}

#endif /* TOOLGOV_GEN_BUF_H */
