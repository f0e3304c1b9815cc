/* SPDX-License-Identifier: MIT */
/*
** jbuf.h: the runtime's one growable byte buffer. Every text the runtime
** builds in memory of its own goes here: the canonical arguments and the
** decoder's messages (args.c), the JSON writer's output (json.h), a
** handler's result (toolgov_result, core.c), an audit line (audit.c), the
** MCP server's messages (mcp/server.c).
**
** Appends never fail loudly: one that runs out of memory sets `failed` and
** later appends are no-ops, so a writer appends freely and checks once, at
** toolgov__jbuf_finish(). Memory comes from the allocator hook and is kept
** between uses (clear keeps it).
**
** Internal (toolgov__ names). Compiled into libtoolgov and toolgov-gen.
** Ownership: the buffer owns ptr; it borrows the allocator, which must
** outlive it.
*/
#ifndef TOOLGOV_JBUF_H
#define TOOLGOV_JBUF_H

#include <stddef.h>

#include "toolgov/toolgov.h"

typedef struct toolgov__jbuf {
    const toolgov_allocator *alloc;
    char *ptr;   /* NULL until the first write */
    size_t len;
    size_t cap;
    int failed;  /* an append ran out of memory; later appends are no-ops */
} toolgov__jbuf;

void toolgov__jbuf_init(toolgov__jbuf *b, const toolgov_allocator *alloc);
void toolgov__jbuf_clear(toolgov__jbuf *b); /* len 0, failed 0, keeps memory */
void toolgov__jbuf_free(toolgov__jbuf *b);
void toolgov__jbuf_put(toolgov__jbuf *b, const char *s, size_t n);
void toolgov__jbuf_putc_slow(toolgov__jbuf *b, char c);
static inline void toolgov__jbuf_putc(toolgov__jbuf *b, char c)
{
    if (b->cap - b->len > 1)
        b->ptr[b->len++] = c;
    else
        toolgov__jbuf_putc_slow(b, c);
}
void toolgov__jbuf_puts(toolgov__jbuf *b, const char *s);
/* NUL-terminate (not counted in len); 0 or TOOLGOV_ENOMEM if any append or
** this one failed. */
int toolgov__jbuf_finish(toolgov__jbuf *b);

/* Room for n more bytes and a NUL after them: 1, or 0 when out of memory
** (then `failed` is set). The caller writes at ptr + len and adds to len. */
int toolgov__jbuf_room_slow(toolgov__jbuf *b, size_t n);
static inline int toolgov__jbuf_room(toolgov__jbuf *b, size_t n)
{
    if (!b->failed && b->cap - b->len > n)
        return 1;
    return toolgov__jbuf_room_slow(b, n);
}

/* The same without the sticky failure, for a caller that reports each
** failure itself (toolgov_result): 0, or TOOLGOV_ENOMEM with the buffer as
** it was. */
int toolgov__jbuf_grow(toolgov__jbuf *b, size_t n);

#endif /* TOOLGOV_JBUF_H */
