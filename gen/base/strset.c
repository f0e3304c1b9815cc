/* SPDX-License-Identifier: MIT */
/*
** strset.c: a set of borrowed strings, open addressing with linear probing
** at most half full (strset.h has the contract).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/toolgov.h>

#include "base/buf.h" /* toolgov__hash_bytes */
#include "base/strset.h"

/* Keys run to hundreds of bytes (the generator's table initializers):
** hashed eight bytes a step (buf.h), the slot by toolgov__hash_slot(). */

/* The slot for `key`: empty, or holding an equal string. cap > 0. */
static size_t slot_of(const char *const *slots, size_t cap, const char *key)
{
    size_t mask = cap - 1, i = toolgov__hash_slot(toolgov__hash_bytes(key, strlen(key)), mask);
    while (slots[i] && strcmp(slots[i], key) != 0)
        i = (i + 1) & mask;
    return i;
}

void toolgov__strset_init(toolgov__strset *set)
{
    set->slots = NULL;
    set->cap = set->count = 0;
}

void toolgov__strset_free(toolgov__strset *set)
{
    free(set->slots);
    toolgov__strset_init(set);
}

const char *toolgov__strset_find(const toolgov__strset *set, const char *key)
{
    if (!set->cap)
        return NULL;
    return set->slots[slot_of(set->slots, set->cap, key)];
}

int toolgov__strset_add(toolgov__strset *set, const char *key)
{
    if ((set->count + 1) * 2 > set->cap) {
        size_t ncap = set->cap ? set->cap * 2 : 64;
        const char **slots = calloc(ncap, sizeof *slots);
        if (!slots)
            return TOOLGOV_ENOMEM;
        for (size_t i = 0; i < set->cap; i++)
            if (set->slots[i])
                slots[slot_of(slots, ncap, set->slots[i])] = set->slots[i];
        free(set->slots);
        set->slots = slots;
        set->cap = ncap;
    }
    size_t i = slot_of(set->slots, set->cap, key);
    if (set->slots[i])
        return 0;
    set->slots[i] = key;
    set->count++;
    return 1;
}
