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

/* The parameters each tool gets in the `params` form: SPEC section 9's
** typical call (3 strings, an integer with bounds, an enum, an array of
** strings), as a pasted MCP schema would read. */
#define BENCH_PARAMETERS                                                                  \
    "    parameters:\n"                                                                   \
    "      type: object\n"                                                                \
    "      properties:\n"                                                                 \
    "        title: {type: string, minLength: 1, maxLength: 200, description: What to do%s.}\n" \
    "        date: {type: string, format: date}\n"                                        \
    "        note: {type: string}\n"                                                      \
    "        minutes: {type: integer, minimum: 0, maximum: 1440, default: 0}\n"           \
    "        priority: {type: string, enum: [low, normal, high], default: normal}\n"      \
    "        tags: {type: array, items: {type: string}, maxItems: 10}\n"                   \
    "      required: [title, date]\n"                                                     \
    "      additionalProperties: false\n"

/* A manifest of `tools` tools like a large real one: every key kind,
** varied effects; with `params` 1, every tool also declares
** BENCH_PARAMETERS (the same text for all, as tools generated from one
** template); with `params` 2, each tool's title description names the
** tool, so no two parameters are alike. */
static inline char *build_manifest_n(size_t *out_len, int params, size_t tools)
{
    size_t cap = (200u + (params ? sizeof BENCH_PARAMETERS + 32u : 0u)) * tools + 256, o = 0, i;
    char *y = malloc(cap);
    if (!y)
        return NULL;
    o += (size_t)snprintf(y + o, cap - o, "name: bench\nprovides:\n  - tool\ntools:\n");
    for (i = 0; i < tools; i++) {
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
        if (params) {
            char who[32] = "";
            if (params == 2)
                snprintf(who, sizeof who, " with tool %zu", i);
            o += (size_t)snprintf(y + o, cap - o, BENCH_PARAMETERS, who);
        }
    }
    *out_len = o;
    return y;
}

static inline char *build_manifest_ex(size_t *out_len, int params)
{
    return build_manifest_n(out_len, params, TOOLS);
}

static inline char *build_manifest(size_t *out_len)
{
    return build_manifest_ex(out_len, 0);
}

#endif /* TOOLGOV_BENCH_MANIFEST_H */
