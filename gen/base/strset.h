/* SPDX-License-Identifier: MIT */
/*
** strset.h: the generator's set of strings (open addressing).
**
** The set stores pointers, not copies: a key must outlive the set (in the
** generator the keys come from an arena freed after the set). Lookups are
** by content. Used for file names and identities in the drift check's
** scanner; small enough to serve any other "have I seen this name" need.
**
** Ownership: the set owns its slot array (freed by toolgov__strset_free());
** the strings are borrowed.
*/
#ifndef TOOLGOV_GEN_STRSET_H
#define TOOLGOV_GEN_STRSET_H

#include <stddef.h>

typedef struct toolgov__strset {
    const char **slots;
    size_t cap, count;
} toolgov__strset;

/* An empty set is all zeroes; this says so. */
void toolgov__strset_init(toolgov__strset *set);

/* Free the slot array (not the strings). The set is empty afterwards. */
void toolgov__strset_free(toolgov__strset *set);

/* The stored string equal to `key`, or NULL when absent. */
const char *toolgov__strset_find(const toolgov__strset *set, const char *key);

/* Add `key` (borrowed) unless an equal string is there. Returns 1 when added,
** 0 when already present, TOOLGOV_ENOMEM when the set could not grow (the
** set is unchanged). */
int toolgov__strset_add(toolgov__strset *set, const char *key);

#endif /* TOOLGOV_GEN_STRSET_H */
