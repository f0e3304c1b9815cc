/* SPDX-License-Identifier: MIT */
/*
** arena.c: chunked bump allocator (see arena.h).
*/
#include "base/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>


/* Chunks grow geometrically so a 10,000-tool manifest costs a handful of
** malloc calls, not one per string. */
#define ARENA_FIRST_CHUNK 4096u
#define ARENA_MAX_CHUNK (4u << 20)

struct toolgov__arena_chunk {
    toolgov__arena_chunk *next;
    size_t cap;
    /* payload follows, aligned to max_align_t */
};

#define ALIGN_TO(n, a) (((n) + ((a)-1)) & ~((size_t)(a)-1))
#define ARENA_ALIGN (sizeof(long double) > sizeof(void *) ? sizeof(long double) : sizeof(void *))
#define CHUNK_HEADER ALIGN_TO(sizeof(toolgov__arena_chunk), ARENA_ALIGN)

void toolgov__arena_init(toolgov__arena *a)
{
    a->head = NULL;
    a->used = 0;
    a->cap = 0;
}

void toolgov__arena_free(toolgov__arena *a)
{
    toolgov__arena_chunk *c = a->head;
    while (c) {
        toolgov__arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    toolgov__arena_init(a);
}

void toolgov__arena_reset(toolgov__arena *a)
{
    toolgov__arena_chunk *c;
    if (!a->head)
        return;
    c = a->head->next;
    while (c) {
        toolgov__arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head->next = NULL;
    a->used = 0;
}

void toolgov__arena_adopt(toolgov__arena *to, toolgov__arena *from)
{
    toolgov__arena_chunk *tail;
    if (!from->head)
        return;
    if (!to->head) {
        *to = *from;
    } else {
        for (tail = from->head; tail->next;)
            tail = tail->next;
        tail->next = to->head->next; /* after to's newest, which stays current */
        to->head->next = from->head;
    }
    toolgov__arena_init(from);
}

void *toolgov__arena_alloc(toolgov__arena *a, size_t n)
{
    size_t need, cap;
    toolgov__arena_chunk *c;

    if (n > SIZE_MAX / 2 - CHUNK_HEADER - ARENA_ALIGN)
        return NULL;
    need = ALIGN_TO(n ? n : 1, ARENA_ALIGN);
    if (a->head && a->cap - a->used >= need) {
        void *p = (char *)a->head + CHUNK_HEADER + a->used;
        a->used += need;
        return p;
    }
    cap = a->head ? a->head->cap * 2 : ARENA_FIRST_CHUNK;
    if (cap > ARENA_MAX_CHUNK)
        cap = ARENA_MAX_CHUNK;
    if (cap < need)
        cap = need;
    c = malloc(CHUNK_HEADER + cap);
    if (!c)
        return NULL;
    c->cap = cap;
    c->next = a->head;
    a->head = c;
    a->cap = cap;
    a->used = need;
    return (char *)c + CHUNK_HEADER;
}

char *toolgov__arena_strndup(toolgov__arena *a, const char *s, size_t n)
{
    char *p;
    if (n == SIZE_MAX)
        return NULL;
    p = toolgov__arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}
