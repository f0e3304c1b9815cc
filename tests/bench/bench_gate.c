/* SPDX-License-Identifier: MIT */
/*
** bench_gate.c: the runtime's hot paths against SPEC section 8.
**
** Prints, for pools of 10, 1,000 and 10,000 plugin tools: the median time
** of a gate decision and of a lookup (ns per call, median over batches),
** the allocations per gate decision counted through the allocator hook, and
** the time to render the prompt for 50 on-loop tools. Times are the
** thread's CPU time (a shared machine's waits are not counted); the fastest
** batch is printed beside the median as a hint of the noise. Targets: gate <= 20 ns
** median with zero allocations, flat within 1.5x from 10 to 10,000 tools;
** prompt <= 10 us. It prints; it never asserts on time.
**
** The calls cycle through 64 names of the pool (a realistic loop) with a
** mix of effects, so the numbers include the confirm-once, destructive
** approval and answers-directly branches, not one cached answer.
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <toolgov/toolgov.h>
#include <toolgov/policy.h>
#include <toolgov/prompt.h>
#include <toolgov/run.h>
#include "bench_util.h"

#define BATCH 10000
#define BATCHES 101
#define NAMES 64

static int handler(const toolgov_call *call, const void *args,
                   toolgov_result *out)
{
    (void)args;
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}

static toolgov_tool_spec *specs;
static size_t nspecs;

static int register_all(toolgov_plugin_api *api)
{
    size_t i;

    for (i = 0; i < nspecs; i++)
        if (toolgov_register_tool(api, specs[i].name, "", handler) < 0)
            return TOOLGOV_EFAIL;
    return 0;
}

/* After median() sorted it. */
static double fastest(const double *v)
{
    return v[0];
}

static const char *const guidance[] = {
    "",
    "For a question about a whole day, prefer the summary tool; it already merges the sources.",
    "When a lookup finds nothing, say so plainly and offer to search the inbox instead.",
    "",
    "Ask before creating several items; list them all in one question.",
};

/* Make `n` plugin tools with a mix of effects and realistic text. */
static char **make_specs(size_t n)
{
    char **names = malloc(n * sizeof *names);
    size_t i;

    specs = calloc(n, sizeof *specs);
    nspecs = n;
    for (i = 0; i < n; i++) {
        names[i] = malloc(40);
        snprintf(names[i], 40, "plugin_tool_%05zu_lookup", i);
        specs[i].name = names[i];
        specs[i].description =
            "Find the entries of the user's records that match a day or a range of days.";
        specs[i].guidance = guidance[i % 5];
        switch (i % 6) {
        case 0: case 3:
            specs[i].effect = TOOLGOV_EFFECT_READ;
            specs[i].confirm = TOOLGOV_CONFIRM_NEVER;
            break;
        case 1:
            specs[i].effect = TOOLGOV_EFFECT_WRITE;
            specs[i].confirm = TOOLGOV_CONFIRM_ONCE;
            break;
        case 2:
            specs[i].effect = TOOLGOV_EFFECT_WRITE;
            specs[i].confirm = TOOLGOV_CONFIRM_NEVER;
            break;
        case 4:
            specs[i].effect = TOOLGOV_EFFECT_DESTRUCTIVE;
            specs[i].confirm = TOOLGOV_CONFIRM_NEVER;
            break;
        default:
            specs[i].effect = TOOLGOV_EFFECT_READ;
            specs[i].confirm = TOOLGOV_CONFIRM_NEVER;
            specs[i].answers_directly = 1;
            break;
        }
    }
    return names;
}

static void free_specs(char **names)
{
    size_t i;

    for (i = 0; i < nspecs; i++)
        free(names[i]);
    free(names);
    free(specs);
}

static volatile unsigned sink;

static int bench_pool(size_t n, double *gate_ns)
{
    counter c = {0};
    toolgov_allocator hook = {count_alloc, &c};
    toolgov_plugin plugin = {TOOLGOV_ABI_VERSION, "bench", "bench.yaml", NULL, 0, NULL, 0,
                             register_all};
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    char **names = make_specs(n);
    const char *loop[NAMES];
    double gate_t[BATCHES], find_t[BATCHES];
    unsigned long long before, gate_allocs;
    size_t i, b;
    unsigned acc = 0;

    plugin.tools = specs;
    plugin.tool_count = n;
    if (toolgov_registry_new(&reg, &hook) < 0 || toolgov_registry_mount(reg, &plugin, NULL) < 0 ||
        toolgov_policy_new(&pol, reg) < 0 || toolgov_run_new(&run, pol, NULL) < 0) {
        fprintf(stderr, "bench_gate: setup failed\n");
        return 1;
    }
    /* A held result and an approval, so those branches search something. */
    toolgov_run_approve(run, names[4 % n], "{\"id\":1}");
    srand(12345);
    for (i = 0; i < NAMES; i++)
        loop[i] = names[(size_t)rand() % n];

    before = c.allocs;
    for (b = 0; b < BATCHES; b++) {
        double t0 = now_ns();

        for (i = 0; i < BATCH; i++)
            acc += (unsigned)toolgov_run_gate(run, loop[i % NAMES], "{\"id\":1}");
        gate_t[b] = (now_ns() - t0) / BATCH;
    }
    gate_allocs = c.allocs - before;
    for (b = 0; b < BATCHES; b++) {
        double t0 = now_ns();

        for (i = 0; i < BATCH; i++)
            acc += toolgov_registry_find(reg, loop[i % NAMES]) != NULL;
        find_t[b] = (now_ns() - t0) / BATCH;
    }
    sink = acc;
    *gate_ns = median(gate_t, BATCHES);
    printf("%8zu  %12.1f  %10.1f  %14.1f  %11.3f\n", n, *gate_ns, fastest(gate_t),
           median(find_t, BATCHES), (double)gate_allocs / ((double)BATCH * BATCHES));
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    free_specs(names);
    return 0;
}

static int bench_prompt(void)
{
    toolgov_plugin plugin = {TOOLGOV_ABI_VERSION, "bench", "bench.yaml", NULL, 0, NULL, 0,
                             register_all};
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    char **names = make_specs(200);
    const char *loop[50];
    static char buf[1 << 16];
    double t[BATCHES];
    size_t i, b, need = 0;
    const int reps = 200;

    plugin.tools = specs;
    plugin.tool_count = 200;
    if (toolgov_registry_new(&reg, NULL) < 0 || toolgov_registry_mount(reg, &plugin, NULL) < 0 ||
        toolgov_policy_new(&pol, reg) < 0) {
        fprintf(stderr, "bench_gate: setup failed\n");
        return 1;
    }
    for (i = 0; i < 50; i++)
        loop[i] = names[(i * 37) % 200]; /* not in registration order */
    for (b = 0; b < BATCHES; b++) {
        double t0 = now_ns();
        int r;

        for (r = 0; r < reps; r++)
            if (toolgov_prompt_render(buf, sizeof buf, &need, pol, loop, 50) < 0)
                return 1;
        t[b] = (now_ns() - t0) / reps;
    }
    printf("prompt, 50 on-loop tools: %.2f us per render median, %.2f fastest "
           "(%zu bytes; target <= 10 us)\n",
           median(t, BATCHES) / 1000.0, fastest(t) / 1000.0, need);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    free_specs(names);
    return 0;
}

int main(void)
{
    static const size_t sizes[] = {10, 1000, 10000};
    double ns[3];
    size_t i;

    printf("bench_gate: median of %d batches of %d calls, %d names cycled\n", BATCHES, BATCH,
           NAMES);
    printf("   tools  gate ns/call  (fastest)  lookup ns/call  allocs/call\n");
    for (i = 0; i < 3; i++)
        if (bench_pool(sizes[i], &ns[i]))
            return 1;
    printf("gate at 10,000 tools vs 10: %.2fx (target <= 1.5x); gate target <= 20 ns, 0 allocs\n",
           ns[2] / ns[0]);
    return bench_prompt();
}
