/* SPDX-License-Identifier: MIT */
/*
** parse_parallel.c: libclang parses on worker threads, taken in source order
** (parse_parallel.h has the contract).
**
** libclang sets up process-wide state lazily on its first parse, not safely
** from several threads at once (ThreadSanitizer shows the race), so the
** first source is parsed on the calling thread before any worker starts. An
** index must outlive every unit made with it: workers keep theirs until the
** caller has disposed of every unit.
*/
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/toolgov.h>

#include "check/parse_parallel.h"

typedef struct parsed {
    CXTranslationUnit tu;
    enum CXErrorCode ec;
    int done;
} parsed;

typedef struct parse_jobs {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    parsed *units;
    size_t next;     /* next source to hand to a worker */
    size_t finished; /* sources parsed so far */
    int stop;        /* the caller gave up: parse no more */
    int release;     /* every unit is disposed: workers may drop their index */
    size_t n;
    toolgov__parse_fn parse;
    void *ud;
} parse_jobs;

static void *parse_worker(void *arg)
{
    parse_jobs *pl = arg;
    CXIndex index = clang_createIndex(0, 0);
    for (;;) {
        size_t i = pl->n;
        pthread_mutex_lock(&pl->mu);
        if (!pl->stop && pl->next < pl->n)
            i = pl->next++;
        pthread_mutex_unlock(&pl->mu);
        if (i >= pl->n)
            break;
        CXTranslationUnit tu = NULL;
        enum CXErrorCode ec = index ? pl->parse(pl->ud, index, i, &tu) : CXError_Failure;
        pthread_mutex_lock(&pl->mu);
        pl->units[i].tu = tu;
        pl->units[i].ec = ec;
        pl->units[i].done = 1;
        pl->finished++;
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
    }
    pthread_mutex_lock(&pl->mu);
    while (!pl->release)
        pthread_cond_wait(&pl->cv, &pl->mu);
    pthread_mutex_unlock(&pl->mu);
    if (index)
        clang_disposeIndex(index);
    return NULL;
}

static int run_sequential(size_t from, size_t n, toolgov__parse_fn parse,
                          toolgov__take_fn take, void *ud)
{
    int rc = 0;
    CXIndex index = clang_createIndex(0, 0);
    if (!index)
        return TOOLGOV_ENOMEM;
    for (size_t i = from; i < n && rc == 0; i++) {
        CXTranslationUnit tu = NULL;
        enum CXErrorCode ec = parse(ud, index, i, &tu);
        rc = take(ud, i, tu, ec);
    }
    clang_disposeIndex(index);
    return rc;
}

int toolgov__parse_parallel_run(size_t n, unsigned jobs, toolgov__parse_fn parse,
                            toolgov__take_fn take, void *ud)
{
    if (jobs > n)
        jobs = (unsigned)n;
    if (jobs <= 1 || n < 2)
        return run_sequential(0, n, parse, take, ud);

    parse_jobs pl;
    pthread_t *threads = calloc(jobs, sizeof *threads);
    unsigned started = 0;
    int rc = 0;
    memset(&pl, 0, sizeof pl);
    pl.units = calloc(n, sizeof *pl.units);
    pl.n = n;
    pl.parse = parse;
    pl.ud = ud;
    if (!threads || !pl.units) {
        free(threads);
        free(pl.units);
        return run_sequential(0, n, parse, take, ud);
    }
    rc = run_sequential(0, 1, parse, take, ud);
    if (rc < 0) {
        free(threads);
        free(pl.units);
        return rc;
    }
    pl.units[0].done = 1;
    pl.next = pl.finished = 1;
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    for (unsigned t = 0; t < jobs; t++)
        if (pthread_create(&threads[started], NULL, parse_worker, &pl) == 0)
            started++;
    int fallback = started == 0;
    if (!fallback) {
        for (size_t i = 1; i < n && rc == 0; i++) {
            pthread_mutex_lock(&pl.mu);
            while (!pl.units[i].done)
                pthread_cond_wait(&pl.cv, &pl.mu);
            pthread_mutex_unlock(&pl.mu);
            CXTranslationUnit tu = pl.units[i].tu;
            pl.units[i].tu = NULL; /* take disposes of it */
            rc = take(ud, i, tu, pl.units[i].ec);
        }
        /* On failure, hand out nothing more and let running parses end. */
        pthread_mutex_lock(&pl.mu);
        pl.stop = 1;
        while (pl.finished < pl.next)
            pthread_cond_wait(&pl.cv, &pl.mu);
        pthread_mutex_unlock(&pl.mu);
        for (size_t i = 0; i < n; i++)
            if (pl.units[i].tu)
                clang_disposeTranslationUnit(pl.units[i].tu);
        pthread_mutex_lock(&pl.mu);
        pl.release = 1;
        pthread_cond_broadcast(&pl.cv);
        pthread_mutex_unlock(&pl.mu);
        for (unsigned t = 0; t < started; t++)
            pthread_join(threads[t], NULL);
    }
    pthread_cond_destroy(&pl.cv);
    pthread_mutex_destroy(&pl.mu);
    free(threads);
    free(pl.units);
    if (fallback)
        rc = run_sequential(1, n, parse, take, ud);
    return rc;
}
