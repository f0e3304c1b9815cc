/* SPDX-License-Identifier: MIT */
/*
** bench_audit.c: what the audit trail costs the gate and invoke.
**
** One pool of 1,000 tools, four runs side by side in one process: no
** observer (the baseline), a no-op observer (the cost of building and
** delivering events), the JSON-lines writer on /dev/null (rendering and a
** flushed write per event) and the same with argument digests. For each it
** prints the median ns of a gate decision (toolgov_run_gate, which emits
** nothing), of an invoke of a read tool (decode, gate, handler: two events,
** allowed and executed) and the allocations per call once warm, counted
** through the allocator hook. Batches of the four configurations are
** interleaved, so a busy neighbour slows them alike; times are the
** thread's CPU time, the median over batches. It prints; it never asserts
** on time.
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <toolgov/toolgov.h>
#include <toolgov/audit.h>
#include <toolgov/policy.h>
#include <toolgov/run.h>
#include "bench_util.h"

#define TOOLS 1000
#define GATE_BATCH 10000
#define INVOKE_BATCH 2000
#define BATCHES 51
#define NAMES 64
#define CONFIGS 4

static int handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)call;
    (void)args;
    (void)out;
    return 0;
}

static int noop_observer(void *ud, const toolgov_audit_event *ev)
{
    unsigned long long *n = ud;

    *n += ev->seq != 0;
    return 0;
}

static toolgov_tool_spec specs[TOOLS];
static char names[TOOLS][16];

static int register_all(toolgov_plugin_api *api)
{
    size_t i;

    for (i = 0; i < TOOLS; i++)
        if (toolgov_register_tool(api, specs[i].name, "", handler) < 0)
            return TOOLGOV_EFAIL;
    return 0;
}

int main(void)
{
    static const char *const label[CONFIGS] = {"no observer (baseline)", "no-op observer",
                                               "JSON lines to /dev/null",
                                               "JSON lines, digests"};
    static double gate_t[CONFIGS][BATCHES], inv_t[CONFIGS][BATCHES];
    const char *loop[NAMES], *reads[NAMES];
    counter cnt = {0};
    toolgov_allocator a = {count_alloc, &cnt};
    toolgov_plugin plug;
    toolgov_registry *reg;
    toolgov_policy *pol;
    toolgov_run *run[CONFIGS];
    toolgov_audit_jsonl *w[2];
    FILE *devnull = fopen("/dev/null", "w");
    unsigned long long events = 0, allocs_gate[CONFIGS], allocs_inv[CONFIGS];
    volatile unsigned sink = 0;
    size_t i, b, c, nreads = 0;

    if (!devnull) {
        perror("/dev/null");
        return 1;
    }
    for (i = 0; i < TOOLS; i++) {
        snprintf(names[i], sizeof names[i], "tool_%04zu", i);
        specs[i].size = sizeof specs[i];
        specs[i].name = names[i];
        specs[i].description = "d";
        specs[i].guidance = "";
        specs[i].schema_json = "{\"type\":\"object\",\"properties\":{}}";
        /* A mix: mostly reads, some writes that ask once, a few destructive. */
        specs[i].effect = i % 7 == 3 ? TOOLGOV_EFFECT_DESTRUCTIVE
                          : i % 3 == 1 ? TOOLGOV_EFFECT_WRITE
                                       : TOOLGOV_EFFECT_READ;
        specs[i].confirm = specs[i].effect == TOOLGOV_EFFECT_WRITE ? TOOLGOV_CONFIRM_ONCE
                                                                   : TOOLGOV_CONFIRM_NEVER;
    }
    memset(&plug, 0, sizeof plug);
    plug.abi_version = TOOLGOV_ABI_VERSION;
    plug.name = "bench";
    plug.manifest_file = "bench.yaml";
    plug.tools = specs;
    plug.tool_count = TOOLS;
    plug.register_fn = register_all;
    if (toolgov_registry_new(&reg, &a) || toolgov_registry_mount(reg, &plug, NULL) ||
        toolgov_policy_new(&pol, reg))
        return 1;
    for (i = 0; i < NAMES; i++) {
        size_t k = (i * 131) % TOOLS;

        loop[i] = names[k];
        if (specs[k].effect == TOOLGOV_EFFECT_READ)
            reads[nreads++] = names[k];
    }
    for (c = 0; c < CONFIGS; c++) {
        toolgov_audit_options o;

        if (toolgov_run_new(&run[c], pol, NULL))
            return 1;
        memset(&o, 0, sizeof o);
        o.run_id = "bench";
        if (c == 1) {
            o.observer = noop_observer;
            o.ud = &events;
        } else if (c >= 2) {
            if (toolgov_audit_jsonl_new(&w[c - 2], devnull, &a))
                return 1;
            o.observer = toolgov_audit_jsonl_observe;
            o.ud = w[c - 2];
            o.flags = c == 3 ? TOOLGOV_AUDIT_DIGEST_ARGS : 0;
        }
        if (o.observer && toolgov_run_set_audit(run[c], &o))
            return 1;
        /* Warm up: the decoder's scratch area, the writer's line buffer. */
        for (i = 0; i < 100; i++)
            toolgov_run_invoke(NULL, run[c], reads[i % nreads], "{}");
    }

    for (b = 0; b < BATCHES; b++) {
        for (c = 0; c < CONFIGS; c++) {
            double t0 = now_ns();

            for (i = 0; i < GATE_BATCH; i++)
                sink += (unsigned)toolgov_run_gate(run[c], loop[i % NAMES], "{}");
            gate_t[c][b] = (now_ns() - t0) / GATE_BATCH;
            t0 = now_ns();
            for (i = 0; i < INVOKE_BATCH; i++)
                sink += (unsigned)toolgov_run_invoke(NULL, run[c], reads[i % nreads], "{}");
            inv_t[c][b] = (now_ns() - t0) / INVOKE_BATCH;
        }
    }
    for (c = 0; c < CONFIGS; c++) {
        unsigned long long before = cnt.allocs;

        for (i = 0; i < GATE_BATCH; i++)
            sink += (unsigned)toolgov_run_gate(run[c], loop[i % NAMES], "{}");
        allocs_gate[c] = cnt.allocs - before;
        before = cnt.allocs;
        for (i = 0; i < INVOKE_BATCH; i++)
            sink += (unsigned)toolgov_run_invoke(NULL, run[c], reads[i % nreads], "{}");
        allocs_inv[c] = cnt.allocs - before;
    }

    printf("bench_audit: %d tools, gate over %d names, invoke of %zu read tools; "
           "median of %d batches (thread CPU time)\n",
           TOOLS, NAMES, nreads, BATCHES);
    printf("%-26s %12s %12s %14s %14s\n", "configuration", "gate ns", "invoke ns",
           "allocs/gate", "allocs/invoke");
    {
        double g0 = 0, i0 = 0;

        for (c = 0; c < CONFIGS; c++) {
            double g = median(gate_t[c], BATCHES), v = median(inv_t[c], BATCHES);

            if (c == 0) {
                g0 = g;
                i0 = v;
            }
            printf("%-26s %12.1f %12.1f %14.3f %14.3f", label[c], g, v,
                   (double)allocs_gate[c] / GATE_BATCH, (double)allocs_inv[c] / INVOKE_BATCH);
            if (c)
                printf("   (gate %.2fx, invoke %.2fx baseline)", g / g0, v / i0);
            printf("\n");
        }
    }
    for (c = 0; c < 2; c++) {
        if (toolgov_audit_jsonl_status(w[c], NULL) != 0) {
            fprintf(stderr, "bench_audit: the writer failed\n");
            return 1;
        }
        toolgov_audit_jsonl_free(w[c]);
    }
    for (c = 0; c < CONFIGS; c++)
        toolgov_run_free(run[c]);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    fclose(devnull);
    return sink == 0xffffffffu;
}
