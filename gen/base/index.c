/* SPDX-License-Identifier: MIT */
/*
** index.c: the generator's hash table (index.h has the contract).
*/
#include "base/index.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h" /* toolgov__hash_bytes, toolgov__hash_slot */

void toolgov__index_init(toolgov__index *ix, toolgov__arena *arena, const void *arr,
                         toolgov__index_key_fn key_of)
{
    ix->slots = NULL;
    ix->cap = ix->count = 0;
    ix->arena = arena;
    ix->key_of = key_of;
    ix->arr = arr;
}

void toolgov__index_free(toolgov__index *ix)
{
    if (!ix->arena)
        free(ix->slots);
    ix->slots = NULL;
    ix->cap = ix->count = 0;
}

/* The slot of key s[0..len) (hash h) in slots[0..cap): the one holding an
** equal key, or the empty one where it goes. cap > 0. */
static size_t slot_of(const toolgov__index *ix, const uint32_t *slots, size_t cap,
                      const char *s, size_t len, uint64_t h)
{
    size_t mask = cap - 1, i = toolgov__hash_slot(h, mask);
    for (;; i = (i + 1) & mask) {
        const char *k;
        size_t kl;
        if (!slots[i])
            return i;
        ix->key_of(ix->arr, slots[i] - 1, &k, &kl);
        if (kl == len && memcmp(k, s, len) == 0)
            return i;
    }
}

int toolgov__index_reserve(toolgov__index *ix, size_t n)
{
    size_t ncap = ix->cap ? ix->cap : 16, i;
    uint32_t *ns;
    if (n > UINT32_MAX / 4)
        return -1;
    while (ncap < 2 * n)
        ncap *= 2;
    if (ncap == ix->cap)
        return 0;
    ns = ix->arena ? toolgov__arena_alloc(ix->arena, ncap * sizeof *ns) : malloc(ncap * sizeof *ns);
    if (!ns)
        return -1;
    memset(ns, 0, ncap * sizeof *ns);
    for (i = 0; i < ix->cap; i++) {
        const char *k;
        size_t kl;
        if (!ix->slots[i])
            continue;
        ix->key_of(ix->arr, ix->slots[i] - 1, &k, &kl);
        ns[slot_of(ix, ns, ncap, k, kl, toolgov__hash_bytes(k, kl))] = ix->slots[i];
    }
    if (!ix->arena)
        free(ix->slots);
    ix->slots = ns;
    ix->cap = ncap;
    return 0;
}

size_t toolgov__index_find(const toolgov__index *ix, const char *s, size_t len)
{
    uint32_t v;
    if (!ix->cap)
        return SIZE_MAX;
    v = ix->slots[slot_of(ix, ix->slots, ix->cap, s, len, toolgov__hash_bytes(s, len))];
    return v ? (size_t)v - 1 : SIZE_MAX;
}

int toolgov__index_add(toolgov__index *ix, size_t i, const char *s, size_t len, size_t *prev)
{
    size_t at;
    if (i >= UINT32_MAX || toolgov__index_reserve(ix, ix->count + 1))
        return -1;
    at = slot_of(ix, ix->slots, ix->cap, s, len, toolgov__hash_bytes(s, len));
    if (ix->slots[at]) {
        if (prev)
            *prev = (size_t)ix->slots[at] - 1;
        return 1;
    }
    ix->slots[at] = (uint32_t)(i + 1);
    ix->count++;
    return 0;
}
