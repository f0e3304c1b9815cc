/* SPDX-License-Identifier: MIT */
/*
** failalloc.h: a counting, failing C allocator for allocation-failure tests.
**
** failalloc.c defines malloc, calloc, realloc, free, strdup and strndup, so
** an executable that links it (it must be linked into the executable itself,
** not a shared library) replaces the C library's allocator for the whole
** process: its own code, libyaml and the C library's internal allocations
** (stdio buffers, open_memstream) all come through here. Every call forwards
** to glibc's __libc_malloc family; while the allocator is armed it counts
** allocation attempts, fails the N-th one, and remembers every block it
** handed out so that a test can ask which of them are still live when the
** operation under test has returned: those are leaks.
**
** This cannot run under AddressSanitizer (which owns malloc itself); run it in
** the plain build and under valgrind. Single-threaded use only.
*/
#ifndef TOOLGOV_TESTS_FAILALLOC_H
#define TOOLGOV_TESTS_FAILALLOC_H

#include <stddef.h>
#include <stdio.h>

/* Start counting: forget earlier blocks and counts; fail the fail_at-th
** allocation attempt from now on (1-based); 0 never fails, only counts. */
void failalloc_arm(unsigned long fail_at);

/* Stop failing and stop recording new blocks. Blocks recorded while armed
** stay recorded until freed, so failalloc_live() keeps working. */
void failalloc_disarm(void);

/* Allocation attempts seen since failalloc_arm(), the failed one included. */
unsigned long failalloc_attempts(void);

/* 1 once the armed failure has been injected. */
int failalloc_injected(void);

/* Blocks allocated while armed and not yet freed. */
size_t failalloc_live(void);

/* Print the size of each such block to `f` (at most `max` of them). */
void failalloc_dump_live(FILE *f, size_t max);

#endif /* TOOLGOV_TESTS_FAILALLOC_H */
