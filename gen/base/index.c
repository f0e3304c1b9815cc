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

/* A slot's tag: the key's hash mixed (toolgov__hash_slot with every bit
** kept), low 32 bits. Its low bits are the key's first slot in any table
** up to 2^32 slots, so the table grows without reading a key, and a probe
** reads the key of a slot only when the tags match. */
static uint32_t tag_of(const char *s, size_t len)
{
    return (uint32_t)toolgov__hash_slot(toolgov__hash_bytes(s, len), (size_t)-1);
}

/* The slot of key s[0..len) (tag t) in slots[0..cap): the one holding an
** equal key, or the empty one where it goes. cap > 0. */
static size_t slot_of(const toolgov__index *ix, const toolgov__index_slot *slots, size_t cap,
                      const char *s, size_t len, uint32_t t)
{
    size_t mask = cap - 1, i = t & mask;
    for (;; i = (i + 1) & mask) {
        const char *k;
        size_t kl;
        if (!slots[i].ref)
            return i;
        if (slots[i].tag != t)
            continue;
        ix->key_of(ix->arr, slots[i].ref - 1, &k, &kl);
        if (kl == len && memcmp(k, s, len) == 0)
            return i;
    }
}

int toolgov__index_reserve(toolgov__index *ix, size_t n)
{
    size_t ncap = ix->cap ? ix->cap : 64, i;
    toolgov__index_slot *ns;
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
        size_t j;
        if (!ix->slots[i].ref)
            continue;
        for (j = ix->slots[i].tag & (ncap - 1); ns[j].ref; j = (j + 1) & (ncap - 1))
            ;
        ns[j] = ix->slots[i];
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
    v = ix->slots[slot_of(ix, ix->slots, ix->cap, s, len, tag_of(s, len))].ref;
    return v ? (size_t)v - 1 : SIZE_MAX;
}

int toolgov__index_add(toolgov__index *ix, size_t i, const char *s, size_t len, size_t *prev)
{
    size_t at;
    uint32_t t;
    if (i >= UINT32_MAX || ((ix->count + 1) * 2 > ix->cap && toolgov__index_reserve(ix, ix->count + 1)))
        return -1;
    t = tag_of(s, len);
    at = slot_of(ix, ix->slots, ix->cap, s, len, t);
    if (ix->slots[at].ref) {
        if (prev)
            *prev = (size_t)ix->slots[at].ref - 1;
        return 1;
    }
    ix->slots[at].tag = t;
    ix->slots[at].ref = (uint32_t)(i + 1);
    ix->count++;
    return 0;
}
