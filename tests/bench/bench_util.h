/* SPDX-License-Identifier: MIT */
/*
** bench_util.h: what the runtime benchmarks share: an allocator hook that
** counts allocations, the thread's CPU clock, and the median of a batch of
** times. Header-only (static functions); include it once per program,
** after defining _POSIX_C_SOURCE (clock_gettime).
*/
#ifndef TOOLGOV_BENCH_UTIL_H
#define TOOLGOV_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#define BENCH_UNUSED __attribute__((unused))
#else
#define BENCH_UNUSED
#endif

/* Allocations (and growths) through the hook; frees are not counted. */
typedef struct counter {
    unsigned long long allocs;
} counter;

static BENCH_UNUSED void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    counter *c = ud;

    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    c->allocs++;
    return realloc(ptr, nsize);
}

/* CPU time of this thread, in ns: on a shared machine, time spent
** descheduled is not the code's. */
static BENCH_UNUSED double now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static BENCH_UNUSED int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Sorts v in place and returns its median (v[0] is then the fastest). */
static BENCH_UNUSED double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}

#endif /* TOOLGOV_BENCH_UTIL_H */
