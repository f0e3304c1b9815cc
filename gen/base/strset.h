/* SPDX-License-Identifier: MIT */
/*
** strset.h: the generator's set of strings, on the one hash table of gen/
** (index.h): the strings in the order added, indexed by content.
**
** The set stores pointers, not copies: a key must outlive the set (in the
** generator the keys come from an arena freed after the set). Used for
** file names and identities in the drift check's scanner, plugin and tool
** names in the link check, and generated C names in schema_c.c. The index
** reads keys back through the set's own address: a set must not be moved
** (copied by value) once a string is in it.
**
** Ownership: the set owns its arrays (freed by toolgov__strset_free());
** the strings are borrowed.
*/
#ifndef TOOLGOV_GEN_STRSET_H
#define TOOLGOV_GEN_STRSET_H

#include <stddef.h>

#include "base/index.h"

typedef struct toolgov__strset {
    const char **v;     /* the strings, in the order added */
    size_t count, alloc;
    toolgov__index ix;  /* positions in v by content */
} toolgov__strset;

/* An empty set (nothing allocated); a set of all zeroes is empty too. */
void toolgov__strset_init(toolgov__strset *set);

/* Free the arrays (not the strings). The set is empty afterwards. */
void toolgov__strset_free(toolgov__strset *set);

/* The stored string equal to `key`, or NULL when absent. */
const char *toolgov__strset_find(const toolgov__strset *set, const char *key);

/* Add `key` (borrowed) unless an equal string is there. Returns 1 when added,
** 0 when already present, TOOLGOV_ENOMEM when the set could not grow (the
** set is unchanged). */
int toolgov__strset_add(toolgov__strset *set, const char *key);

#endif /* TOOLGOV_GEN_STRSET_H */
