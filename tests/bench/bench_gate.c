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
**
** Then the gate with standing grants (grants.h) handed to the run: none,
** a set that names none of the cycled tools, a set of the same size that
** answers the cycled ones, and a large set that names none (see
** bench_grants), with the ratio of each to the run without grants. The
** plugin, its handler and the pool setup are bench_plugin.h's.
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <toolgov/toolgov.h>
#include <toolgov/grants.h>
#include <toolgov/policy.h>
#include <toolgov/prompt.h>
#include <toolgov/run.h>
#include "bench_util.h"
#include "bench_plugin.h"

#define BATCH 10000
#define BATCHES 101
#define NAMES 64

static toolgov_tool_spec *specs;
static size_t nspecs;

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
    bench_rt p;
    char **names = make_specs(n);
    const char *loop[NAMES];
    double gate_t[BATCHES], find_t[BATCHES];
    unsigned long long before, gate_allocs;
    size_t i, b;
    unsigned acc = 0;

    if (bench_rt_new(&p, "bench_gate", &hook, specs, n, 1) != 0)
        return 1;
    /* A held result and an approval, so those branches search something. */
    toolgov_run_approve(p.run, names[4 % n], "{\"id\":1}");
    srand(12345);
    for (i = 0; i < NAMES; i++)
        loop[i] = names[(size_t)rand() % n];

    before = c.allocs;
    for (b = 0; b < BATCHES; b++) {
        double t0 = now_ns();

        for (i = 0; i < BATCH; i++)
            acc += (unsigned)toolgov_run_gate(p.run, loop[i % NAMES], "{\"id\":1}");
        gate_t[b] = (now_ns() - t0) / BATCH;
    }
    gate_allocs = c.allocs - before;
    for (b = 0; b < BATCHES; b++) {
        double t0 = now_ns();

        for (i = 0; i < BATCH; i++)
            acc += toolgov_registry_find(p.reg, loop[i % NAMES]) != NULL;
        find_t[b] = (now_ns() - t0) / BATCH;
    }
    sink = acc;
    *gate_ns = median(gate_t, BATCHES);
    printf("%8zu  %12.1f  %10.1f  %14.1f  %11.3f\n", n, *gate_ns, fastest(gate_t),
           median(find_t, BATCHES), (double)gate_allocs / ((double)BATCH * BATCHES));
    bench_rt_free(&p);
    free_specs(names);
    return 0;
}

/* Standing grants (grants.h) on the gate: one pool of 2,000 tools and the
** same 64 cycled names, four runs side by side with their batches
** interleaved: no grants (the baseline); 64 grants of which none names a
** cycled tool (every decision scans the whole set and finds nothing); 64
** grants of which every cycled tool that can have one has one (allow for a
** write, never for a read; a destructive tool takes grants for one exact
** call only and the bench's calls have no parameters, so it has none),
** the rest of the 64 naming other tools; and 1,024 grants, none matching.
** No grant expires, so the clock is never read. */
#define GRANT_RUNS 4
#define GRANT_POOL 2000

static int add_grant(toolgov_grants *g, const toolgov_registry *reg, const toolgov_tool_spec *s,
                     size_t *count)
{
    toolgov_grant gr;

    if (s->effect == TOOLGOV_EFFECT_DESTRUCTIVE)
        return 0;
    memset(&gr, 0, sizeof gr);
    gr.tool = s->name;
    gr.verdict = s->effect == TOOLGOV_EFFECT_READ ? TOOLGOV_GRANT_NEVER : TOOLGOV_GRANT_ALLOW;
    gr.expires = TOOLGOV_GRANT_NO_EXPIRY;
    if (toolgov_grants_add(NULL, g, reg, &gr) != 0) {
        fprintf(stderr, "bench_gate: a grant for %s refused\n", s->name);
        return -1;
    }
    (*count)++;
    return 0;
}

/* Grants for `want` tools: first those of the cycled names (when
** matching), then others, never a cycled one otherwise. */
static int fill_grants(toolgov_grants *g, const toolgov_registry *reg, const char *cycled,
                       int matching, size_t want)
{
    size_t i, count = 0;

    for (i = 0; matching && i < GRANT_POOL && count < want; i++)
        if (cycled[i] && add_grant(g, reg, &specs[i], &count) != 0)
            return -1;
    for (i = 0; i < GRANT_POOL && count < want; i++)
        if (!cycled[i] && add_grant(g, reg, &specs[i], &count) != 0)
            return -1;
    return count == want ? 0 : -1;
}

static int bench_grants(void)
{
    static const char *const label[GRANT_RUNS] = {
        "no grants (baseline)", "64 grants, none matching", "64 grants, cycled ones matching",
        "1,024 grants, none matching"};
    static const size_t want[GRANT_RUNS] = {0, 64, 64, 1024};
    static double t[GRANT_RUNS][BATCHES];
    counter c = {0};
    toolgov_allocator hook = {count_alloc, &c};
    bench_rt p;
    char **names = make_specs(GRANT_POOL);
    char cycled[GRANT_POOL];
    const char *loop[NAMES];
    toolgov_grants *g[GRANT_RUNS] = {NULL};
    toolgov_run *run[GRANT_RUNS] = {NULL};
    unsigned long long before, allocs;
    size_t i, b, r, decided = 0;
    unsigned acc = 0;
    int rc = 1;

    if (bench_rt_new(&p, "bench_gate", &hook, specs, GRANT_POOL, 0) != 0)
        return 1;
    memset(cycled, 0, sizeof cycled);
    srand(12345);
    for (i = 0; i < NAMES; i++) {
        size_t k = (size_t)rand() % GRANT_POOL;

        loop[i] = names[k];
        cycled[k] = 1;
    }
    for (r = 0; r < GRANT_RUNS; r++) {
        if (toolgov_run_new(&run[r], p.pol, NULL) != 0)
            goto out;
        toolgov_run_approve(run[r], names[4], "{\"id\":1}");
        if (r == 0)
            continue;
        if (toolgov_grants_new(&g[r], "bench-user", &hook) != 0 ||
            fill_grants(g[r], p.reg, cycled, r == 2, want[r]) != 0 ||
            toolgov_run_set_grants(run[r], g[r]) != 0) {
            fprintf(stderr, "bench_gate: grants setup failed\n");
            goto out;
        }
    }
    /* How many of the cycled calls a grant decides in the matching run. */
    for (i = 0; i < NAMES; i++)
        decided += toolgov_run_gate(run[2], loop[i], "{\"id\":1}") !=
                   toolgov_run_gate(run[0], loop[i], "{\"id\":1}");
    before = c.allocs;
    for (b = 0; b < BATCHES; b++)
        for (r = 0; r < GRANT_RUNS; r++) {
            double t0 = now_ns();

            for (i = 0; i < BATCH; i++)
                acc += (unsigned)toolgov_run_gate(run[r], loop[i % NAMES], "{\"id\":1}");
            t[r][b] = (now_ns() - t0) / BATCH;
        }
    allocs = c.allocs - before;
    sink = acc;
    {
        double base = median(t[0], BATCHES);

        printf("\ngate with standing grants, %d tools, %d names cycled (%zu of them answered "
               "otherwise by a grant in the matching run)\n",
               GRANT_POOL, NAMES, decided);
        printf("%-34s %12s %10s %8s\n", "grants handed to the run", "gate ns/call", "(fastest)",
               "ratio");
        for (r = 0; r < GRANT_RUNS; r++) {
            double m = r ? median(t[r], BATCHES) : base;

            printf("%-34s %12.1f %10.1f %7.2fx\n", label[r], m, fastest(t[r]), m / base);
        }
        printf("allocations in %d grant-consulting decisions: %llu\n",
               BATCH * BATCHES * GRANT_RUNS, allocs);
    }
    rc = 0;
out:
    for (r = 0; r < GRANT_RUNS; r++) {
        toolgov_run_free(run[r]);
        toolgov_grants_free(g[r]);
    }
    bench_rt_free(&p);
    free_specs(names);
    return rc;
}

static int bench_prompt(void)
{
    bench_rt p;
    char **names = make_specs(200);
    const char *loop[50];
    static char buf[1 << 16];
    double t[BATCHES], med;
    size_t i, b, need = 0;
    const int reps = 200;

    if (bench_rt_new(&p, "bench_gate", NULL, specs, 200, 0) != 0)
        return 1;
    for (i = 0; i < 50; i++)
        loop[i] = names[(i * 37) % 200]; /* not in registration order */
    for (b = 0; b < BATCHES; b++) {
        double t0 = now_ns();
        int r;

        for (r = 0; r < reps; r++)
            if (toolgov_prompt_render(buf, sizeof buf, &need, p.pol, loop, 50) < 0)
                return 1;
        t[b] = (now_ns() - t0) / reps;
    }
    med = median(t, BATCHES); /* sorts t: fastest() after it */
    printf("prompt, 50 on-loop tools: %.2f us per render median, %.2f fastest "
           "(%zu bytes; target <= 10 us)\n",
           med / 1000.0, fastest(t) / 1000.0, need);
    bench_rt_free(&p);
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
    if (bench_prompt())
        return 1;
    return bench_grants();
}
