/* SPDX-License-Identifier: MIT */
/*
** scratch.c: the scratch arena (see scratch.h).
*/
#include "scratch.h"

#include <stdint.h>
#include <string.h>

#include "internal.h"

struct toolgov__scratch_chunk {
    toolgov__scratch_chunk *next;
    size_t size; /* usable bytes after the header */
    size_t used;
};

/* The chunk header rounded up so the data after it is max-aligned. */
#define ALIGN_ 16u
#define CHUNK_HDR_ ((sizeof(toolgov__scratch_chunk) + ALIGN_ - 1) & ~(size_t)(ALIGN_ - 1))
#define MIN_CHUNK_ 4096u

void toolgov__scratch_init(toolgov__scratch *a, const toolgov_allocator *alloc)
{
    a->alloc = alloc;
    a->chunks = NULL;
    a->used = 0;
    a->peak = 0;
}

static toolgov__scratch_chunk *chunk_new(toolgov__scratch *a, size_t size)
{
    toolgov__scratch_chunk *c;

    if (size > SIZE_MAX - CHUNK_HDR_)
        return NULL;
    c = toolgov__alloc(a->alloc, CHUNK_HDR_ + size);
    if (!c)
        return NULL;
    c->next = NULL;
    c->size = size;
    c->used = 0;
    return c;
}

void *toolgov__scratch_alloc(toolgov__scratch *a, size_t n)
{
    toolgov__scratch_chunk *c = a->chunks;
    size_t need;
    char *p;

    if (n > SIZE_MAX / 2)
        return NULL;
    need = (n + ALIGN_ - 1) & ~(size_t)(ALIGN_ - 1);
    if (need == 0)
        need = ALIGN_;
    if (!c || c->size - c->used < need) {
        size_t size = c ? c->size * 2 : MIN_CHUNK_;

        if (size < need)
            size = need;
        if (size < MIN_CHUNK_)
            size = MIN_CHUNK_;
        c = chunk_new(a, size);
        if (!c)
            return NULL;
        c->next = a->chunks;
        a->chunks = c;
    }
    p = (char *)c + CHUNK_HDR_ + c->used;
    c->used += need;
    a->used += need;
    if (a->used > a->peak)
        a->peak = a->used;
    return p;
}

static void chunks_free(toolgov__scratch *a, toolgov__scratch_chunk *c)
{
    while (c) {
        toolgov__scratch_chunk *next = c->next;

        toolgov__free(a->alloc, c, CHUNK_HDR_ + c->size);
        c = next;
    }
}

void toolgov__scratch_reset(toolgov__scratch *a)
{
    toolgov__scratch_chunk *c = a->chunks;

    a->used = 0;
    if (!c)
        return;
    if (!c->next && c->size >= a->peak) {
        c->used = 0;
        return;
    }
    /* Several chunks (or one too small): replace them by one of the peak
    ** size, so the same work next time fits without allocating. */
    chunks_free(a, c);
    a->chunks = chunk_new(a, a->peak < MIN_CHUNK_ ? MIN_CHUNK_ : a->peak);
}

void toolgov__scratch_free(toolgov__scratch *a)
{
    chunks_free(a, a->chunks);
    a->chunks = NULL;
    a->used = 0;
    a->peak = 0;
}
