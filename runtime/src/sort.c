/* SPDX-License-Identifier: MIT */
/*
** sort.c: the merge sort (see sort.h).
*/
#include "sort.h"

#include <string.h>

void toolgov__merge_sort(void *base, void *tmp, size_t n, size_t size, toolgov__cmp_fn cmp,
                         const void *ctx)
{
    char *v = base, *t = tmp;
    size_t width, i;

    for (width = 1; width < n; width *= 2) {
        for (i = 0; i < n; i += 2 * width) {
            size_t lo = i, mid = i + width < n ? i + width : n;
            size_t hi = i + 2 * width < n ? i + 2 * width : n;
            size_t a = lo, b = mid, o = lo;

            /* Take from the right run only when strictly before: stable. */
            while (a < mid && b < hi) {
                size_t from = cmp(v + b * size, v + a * size, ctx) < 0 ? b++ : a++;

                memcpy(t + o++ * size, v + from * size, size);
            }
            memcpy(t + o * size, v + a * size, (mid - a) * size);
            o += mid - a;
            memcpy(t + o * size, v + b * size, (hi - b) * size);
        }
        memcpy(v, t, n * size);
    }
}
