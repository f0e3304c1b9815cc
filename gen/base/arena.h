/* SPDX-License-Identifier: MIT */
/*
** arena.h: the generator's bump allocator.
**
** toolgov-gen is a short-lived process that builds one manifest and two
** output files, so it never frees objects one by one: everything a manifest
** holds comes from one arena released at once with toolgov__arena_free().
** Allocation failure returns NULL and leaves the arena usable.
**
** Ownership: the arena owns every block it hands out; the caller owns the
** arena (usually embedded in a bigger struct).
*/
#ifndef TOOLGOV_GEN_ARENA_H
#define TOOLGOV_GEN_ARENA_H

#include <stddef.h>

typedef struct toolgov__arena_chunk toolgov__arena_chunk;

typedef struct toolgov__arena {
    toolgov__arena_chunk *head; /* newest chunk first */
    size_t used;                /* bytes used in head */
    size_t cap;                 /* capacity of head */
} toolgov__arena;

void toolgov__arena_init(toolgov__arena *a);
void toolgov__arena_free(toolgov__arena *a);

/* Forget every block handed out, keeping the newest (largest) chunk for
** what comes next: an arena reset per item of a loop reaches a steady
** state with no allocation at all. */
void toolgov__arena_reset(toolgov__arena *a);

/* Move every block of `from` into `to`, which then owns and frees them
** (blocks keep their addresses); `from` is left empty. `to` goes on
** allocating from its own newest chunk. */
void toolgov__arena_adopt(toolgov__arena *to, toolgov__arena *from);

/* n bytes aligned for any object; NULL when out of memory (or n is absurd). */
void *toolgov__arena_alloc(toolgov__arena *a, size_t n);

/* A NUL-terminated copy of the n bytes at s (which may hold NULs). */
char *toolgov__arena_strndup(toolgov__arena *a, const char *s, size_t n);

#endif /* TOOLGOV_GEN_ARENA_H */
