/* SPDX-License-Identifier: MIT */
/*
** alloc.c: every allocation of the runtime goes through the host's hook
** (toolgov_allocator, toolgov.h; the C library's when it gives none).
** Its own file because toolgov-gen compiles the argument decoder, which
** allocates through it, without the rest of the runtime.
*/
#include <stdlib.h>

#include "internal.h"

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

static toolgov_alloc_fn hook(const toolgov_allocator *a)
{
    return a && a->fn ? a->fn : default_alloc;
}

void *toolgov__alloc(const toolgov_allocator *a, size_t n)
{
    if (n == 0)
        n = 1;
    return hook(a)(a ? a->ud : NULL, NULL, 0, n);
}

void *toolgov__realloc(const toolgov_allocator *a, void *p, size_t osize, size_t nsize)
{
    if (nsize == 0)
        nsize = 1;
    return hook(a)(a ? a->ud : NULL, p, p ? osize : 0, nsize);
}

void toolgov__free(const toolgov_allocator *a, void *p, size_t osize)
{
    if (p)
        hook(a)(a ? a->ud : NULL, p, osize, 0);
}
