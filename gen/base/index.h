/* SPDX-License-Identifier: MIT */
/*
** index.h: the generator's one hash table, an index of the entries of an
** array its caller keeps, by a byte-string key.
**
** A slot holds the position of an entry (+ 1; 0 is an empty slot) and 32
** bits of its key's hash, never the key: the key of position i is read
** back through the caller's key_of function when the hash bits match, so
** the table costs 8 bytes a slot, grows without reading a key, and the
** caller's array stays the one copy of its keys. Open addressing with
** linear probing, at most half full, the first slot from
** toolgov__hash_slot(toolgov__hash_bytes()) (buf.h). Its users: the manifest's tool and provides names, the keys of
** a big JSON object and the longer name lists a schema compares (value.c,
** schema.c), the tables one generated file writes once (schema_c.c), and
** toolgov__strset (strset.h), a set of strings built on it.
**
** Ownership: the slots come from `arena` when one is given (never freed
** one by one: toolgov__index_free() then only forgets them) or from
** malloc; the keys stay the caller's.
*/
#ifndef TOOLGOV_GEN_INDEX_H
#define TOOLGOV_GEN_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

/* The key of entry i of `arr`: *s and *len. */
typedef void (*toolgov__index_key_fn)(const void *arr, size_t i, const char **s, size_t *len);

typedef struct toolgov__index_slot {
    uint32_t tag; /* the key's hash, mixed: its low bits are the first slot */
    uint32_t ref; /* position + 1; 0: empty */
} toolgov__index_slot;

typedef struct toolgov__index {
    toolgov__index_slot *slots; /* NULL while cap is 0 */
    size_t cap;         /* 0 or a power of two */
    size_t count;
    toolgov__arena *arena; /* where the slots come from; NULL: malloc */
    toolgov__index_key_fn key_of;
    const void *arr;    /* handed to key_of; an array that moves must be
                        ** given by something that does not (its owner) */
} toolgov__index;

/* An empty index over `arr` (nothing is allocated yet). */
void toolgov__index_init(toolgov__index *ix, toolgov__arena *arena, const void *arr,
                         toolgov__index_key_fn key_of);

/* Release malloc'd slots (arena slots stay with the arena); empty after. */
void toolgov__index_free(toolgov__index *ix);

/* Room for n entries without growing: 0, or -1 when out of memory (the
** index is unchanged). */
int toolgov__index_reserve(toolgov__index *ix, size_t n);

/* The position of the entry whose key is s[0..len), or SIZE_MAX. */
size_t toolgov__index_find(const toolgov__index *ix, const char *s, size_t len);

/* Position i, with key s[0..len), joins the index unless an equal key is
** there: 1 with that entry's position in *prev (when prev is not NULL),
** 0 after adding, -1 when out of memory (the index is unchanged). Entry i
** must answer key_of with s[0..len) from now on. */
int toolgov__index_add(toolgov__index *ix, size_t i, const char *s, size_t len, size_t *prev);

#endif /* TOOLGOV_GEN_INDEX_H */
