/* SPDX-License-Identifier: MIT */
/*
** sort.h: the runtime's one merge sort: bottom-up, stable (of equal
** elements the earlier stays first), O(n log n) for any order, through a
** scratch array of the same size that the caller provides, so it never
** allocates. The JSON reader sorts a big object's keys with it (json.c),
** the prompt a loop's tools (prompt.c).
**
** Internal (toolgov__ names). Compiled into libtoolgov and toolgov-gen.
*/
#ifndef TOOLGOV_SORT_H
#define TOOLGOV_SORT_H

#include <stddef.h>

/* Negative when a sorts before b, 0 when equal, positive after. */
typedef int (*toolgov__cmp_fn)(const void *a, const void *b, const void *ctx);

/* Sort the n elements of `size` bytes at base; tmp has room for n
** elements. */
void toolgov__merge_sort(void *base, void *tmp, size_t n, size_t size, toolgov__cmp_fn cmp,
                         const void *ctx);

#endif /* TOOLGOV_SORT_H */
