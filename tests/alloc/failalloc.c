/* SPDX-License-Identifier: MIT */
/*
** failalloc.c: see failalloc.h. The block table is an open-addressing hash
** set of pointers in static storage (it must not allocate itself), with
** tombstones so that removals keep probe chains intact. It is sized for far
** more live blocks than any test here creates; when it fills up the test
** aborts rather than silently missing a leak.
*/
#define _GNU_SOURCE
#include "failalloc.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);

#define TABLE_BITS 20u
#define TABLE_SIZE (1u << TABLE_BITS)
#define TOMBSTONE ((void *)1)

typedef struct block {
    void *ptr;
    size_t size;
} block;

static block table[TABLE_SIZE];
static size_t table_used; /* live entries */
static size_t table_dead; /* tombstones */

static int armed;
static int injected;
static unsigned long attempts;
static unsigned long fail_at;

static size_t slot_of(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)(x & (TABLE_SIZE - 1));
}

static void table_add(void *p, size_t size)
{
    size_t i = slot_of(p);
    if (table_used + table_dead >= TABLE_SIZE - TABLE_SIZE / 8) {
        static const char msg[] = "failalloc: block table full\n";
        fwrite(msg, 1, sizeof msg - 1, stderr);
        abort();
    }
    while (table[i].ptr != NULL && table[i].ptr != TOMBSTONE)
        i = (i + 1) & (TABLE_SIZE - 1);
    if (table[i].ptr == TOMBSTONE)
        table_dead--;
    table[i].ptr = p;
    table[i].size = size;
    table_used++;
}

static void table_remove(const void *p)
{
    size_t i;
    if (table_used == 0)
        return;
    for (i = slot_of(p); table[i].ptr != NULL; i = (i + 1) & (TABLE_SIZE - 1)) {
        if (table[i].ptr == p) {
            table[i].ptr = TOMBSTONE;
            table[i].size = 0;
            table_used--;
            table_dead++;
            return;
        }
    }
}

/* One allocation attempt: 1 when it must fail. */
static int should_fail(void)
{
    if (!armed)
        return 0;
    attempts++;
    if (fail_at != 0 && attempts == fail_at) {
        injected = 1;
        return 1;
    }
    return 0;
}

static void record(void *p, size_t size)
{
    if (armed && p != NULL)
        table_add(p, size);
}

void failalloc_arm(unsigned long n)
{
    memset(table, 0, sizeof table);
    table_used = 0;
    table_dead = 0;
    attempts = 0;
    injected = 0;
    fail_at = n;
    armed = 1;
}

void failalloc_disarm(void)
{
    armed = 0;
}

unsigned long failalloc_attempts(void)
{
    return attempts;
}

int failalloc_injected(void)
{
    return injected;
}

size_t failalloc_live(void)
{
    return table_used;
}

void failalloc_dump_live(FILE *f, size_t max)
{
    size_t i, shown = 0;
    for (i = 0; i < TABLE_SIZE && shown < max; i++) {
        if (table[i].ptr != NULL && table[i].ptr != TOMBSTONE) {
            fprintf(f, "  leaked block of %zu bytes\n", table[i].size);
            shown++;
        }
    }
}

void *malloc(size_t size)
{
    void *p;
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    p = __libc_malloc(size);
    record(p, size);
    return p;
}

void *calloc(size_t n, size_t size)
{
    void *p;
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    p = __libc_calloc(n, size);
    record(p, n * size);
    return p;
}

void *realloc(void *ptr, size_t size)
{
    void *p;
    if (ptr != NULL && size == 0) {
        /* glibc frees here; so do we, and it is not an allocation. */
        table_remove(ptr);
        __libc_free(ptr);
        return NULL;
    }
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    p = __libc_realloc(ptr, size);
    if (p != NULL) {
        /* A block allocated before arming and grown while armed becomes
        ** the test's responsibility: it was allocated anew in effect. */
        if (ptr != NULL)
            table_remove(ptr);
        record(p, size);
    }
    return p;
}

void free(void *ptr)
{
    if (ptr == NULL)
        return;
    table_remove(ptr);
    __libc_free(ptr);
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p != NULL)
        memcpy(p, s, n);
    return p;
}

char *strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *p = malloc(n + 1);
    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}
