/* SPDX-License-Identifier: MIT */
/*
** strset.c: a set of borrowed strings over toolgov__index (strset.h has
** the contract).
*/
#include <stdlib.h>
#include <string.h>

#include <toolgov/toolgov.h>

#include "base/strset.h"

static void string_key(const void *arr, size_t i, const char **s, size_t *len)
{
    const toolgov__strset *set = arr;
    *s = set->v[i];
    *len = strlen(*s);
}

void toolgov__strset_init(toolgov__strset *set)
{
    set->v = NULL;
    set->count = set->alloc = 0;
    toolgov__index_init(&set->ix, NULL, set, string_key);
}

void toolgov__strset_free(toolgov__strset *set)
{
    free(set->v);
    toolgov__index_free(&set->ix);
    toolgov__strset_init(set);
}

const char *toolgov__strset_find(const toolgov__strset *set, const char *key)
{
    size_t at;
    if (!set->count)
        return NULL;
    at = toolgov__index_find(&set->ix, key, strlen(key));
    return at == SIZE_MAX ? NULL : set->v[at];
}

int toolgov__strset_add(toolgov__strset *set, const char *key)
{
    size_t len = strlen(key);
    int r;
    /* A set of all zeroes is empty too: the index learns its keys here. */
    set->ix.arr = set;
    set->ix.key_of = string_key;
    if (set->count == set->alloc) {
        size_t n = set->alloc ? set->alloc * 2 : 32;
        const char **v = realloc(set->v, n * sizeof *v);
        if (!v)
            return TOOLGOV_ENOMEM;
        set->v = v;
        set->alloc = n;
    }
    set->v[set->count] = key; /* counted once the index takes it */
    r = toolgov__index_add(&set->ix, set->count, key, len, NULL);
    if (r < 0)
        return TOOLGOV_ENOMEM;
    if (r > 0)
        return 0;
    set->count++;
    return 1;
}
