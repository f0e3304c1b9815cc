/* SPDX-License-Identifier: MIT */
/*
** parse_parallel.h: parse a list of sources with libclang on worker threads and
** hand the translation units to the caller in source order.
**
** Parsing is nearly all of the drift check's cost, so with several sources
** it runs on up to `jobs` threads, each with its own CXIndex (libclang is
** safe across threads when no two use the same index or translation unit
** at once). The caller's `take` runs on the calling thread, one unit at a
** time, in source order, so whatever it builds is the same as a sequential
** run, byte for byte.
**
** Ownership: `take` owns the unit it is given and must dispose of it
** (clang_disposeTranslationUnit); everything else is borrowed.
*/
#ifndef TOOLGOV_GEN_PARSE_PARALLEL_H
#define TOOLGOV_GEN_PARSE_PARALLEL_H

#include <clang-c/Index.h>
#include <stddef.h>

/* Parse source i with `index` into *tu; returns libclang's error code. */
typedef enum CXErrorCode (*toolgov__parse_fn)(void *ud, CXIndex index, size_t i,
                                              CXTranslationUnit *tu);

/* Take the parse of source i (tu NULL when ec says it failed). Returns 0 to
** go on, or a negative TOOLGOV_E* code to stop: no further unit is taken. */
typedef int (*toolgov__take_fn)(void *ud, size_t i, CXTranslationUnit tu,
                                enum CXErrorCode ec);

/* Parse sources 0..n-1 with up to `jobs` threads (1: on the calling thread
** only) and take each in order. Falls back to the calling thread when
** threads cannot be made. Returns 0, the first negative result of `take`,
** or TOOLGOV_ENOMEM when no CXIndex could be made. */
int toolgov__parse_parallel_run(size_t n, unsigned jobs, toolgov__parse_fn parse,
                            toolgov__take_fn take, void *ud);

#endif /* TOOLGOV_GEN_PARSE_PARALLEL_H */
