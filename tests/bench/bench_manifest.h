/* SPDX-License-Identifier: MIT */
/*
** bench_manifest.h: the 10,000-tool manifest both generate benchmarks use
** (bench_generate in one process, bench_generate_process as processes).
*/
#ifndef TOOLGOV_BENCH_MANIFEST_H
#define TOOLGOV_BENCH_MANIFEST_H

#include <stdio.h>
#include <stdlib.h>

#define TOOLS 10000

/* A manifest like a large real one: every key kind, varied effects. */
static inline char *build_manifest(size_t *out_len)
{
    size_t cap = 200u * TOOLS + 256, o = 0, i;
    char *y = malloc(cap);
    if (!y)
        return NULL;
    o += (size_t)snprintf(y + o, cap - o, "name: bench\nprovides:\n  - tool\ntools:\n");
    for (i = 0; i < TOOLS; i++) {
        const char *effect = i % 4 == 0 ? "write" : i % 4 == 1 ? "destructive" : "read";
        o += (size_t)snprintf(y + o, cap - o,
                              "  tool_%05zu:\n"
                              "    effect: %s\n"
                              "%s"
                              "    description: Tool %zu looks up one kind of record for the "
                              "user and says what it found.\n"
                              "%s",
                              i, effect, i % 4 == 0 ? "    confirm: never\n" : "", i,
                              i % 10 == 0 ? "    pinned: true\n    guidance: Prefer this tool "
                                            "for the first question of a run.\n"
                                          : "");
    }
    *out_len = o;
    return y;
}

#endif /* TOOLGOV_BENCH_MANIFEST_H */
