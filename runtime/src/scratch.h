/* SPDX-License-Identifier: MIT */
/*
** scratch.h: the runtime's scratch arena: a list of chunks from the
** registry's allocator hook, handed out by bumping a pointer and forgotten
** all at once. The JSON reader puts its nodes and strings here (json.h) and
** the argument decoder its decoded values (args.c). Resetting the arena
** keeps one chunk as large as the most the arena has held between two
** resets, so once warm a parse-and-decode cycle allocates nothing.
**
** Internal (toolgov__ names). Compiled into libtoolgov and toolgov-gen.
** Ownership: the arena owns its chunks; what it hands out is valid until
** its next reset or free. It borrows the allocator, which must outlive it.
*/
#ifndef TOOLGOV_SCRATCH_H
#define TOOLGOV_SCRATCH_H

#include <stddef.h>

#include "toolgov/toolgov.h"

typedef struct toolgov__scratch_chunk toolgov__scratch_chunk;

typedef struct toolgov__scratch {
    const toolgov_allocator *alloc; /* borrowed; outlives the arena */
    toolgov__scratch_chunk *chunks;         /* newest first */
    size_t used;                    /* bytes handed out since the last reset */
    size_t peak;                    /* the most `used` has been */
} toolgov__scratch;

void toolgov__scratch_init(toolgov__scratch *a, const toolgov_allocator *alloc);
/* n bytes aligned for any object type; NULL when the allocator fails (the
** arena is unchanged). n 0 gives a valid unique pointer. */
void *toolgov__scratch_alloc(toolgov__scratch *a, size_t n);
/* Forget everything handed out. Keeps (or makes) one chunk of the peak size
** so the next cycle of the same size allocates nothing; if making it fails
** the arena is simply empty. */
void toolgov__scratch_reset(toolgov__scratch *a);
void toolgov__scratch_free(toolgov__scratch *a);

#endif /* TOOLGOV_SCRATCH_H */
