/* SPDX-License-Identifier: MIT */
/*
** bench_calls.c: the argument decoder on real tool schemas and calls,
** beside jansson and cJSON in the same run.
**
** Schemas: the inputSchema of each called tool as its MCP server published
** it (tests/data/mcp-servers/, sources in its README), compiled by the
** generator's schema compiler into the runtime's tables in memory (what
** generated code holds). Calls: tests/data/mcp-calls/calls.jsonl (its
** README says where they come from). For each call, per call and in
** interleaved rounds (so a noisy stretch of the shared machine hits all
** three alike): toolgov_args_decode (strict parse + validate + typed struct
** + canonical text), jansson's json_loadb + json_dumps(JSON_COMPACT), and
** cJSON's cJSON_ParseWithLength + cJSON_PrintUnformatted (parse and print,
** no validation: a floor, not a peer). Times are the thread's CPU time, the
** median of the rounds. Then the gate on a decoded call and on the call's
** text beside a pool lookup (toolgov_registry_find) of the same tools.
**
** Targets (issue 30; printed, never asserted): median over the calls
** <= 500 ns and <= 0.5x jansson's parse + dump, no call over 2x its jansson
** time, 0 allocations once warm, gate <= 1.5x a pool lookup.
**
** bench_calls [--profile] [DATA_DIR]   (default: the source tree's
** tests/data). --profile only runs 200 rounds of the calls through
** toolgov, then jansson, then cJSON, untimed, each in its own function
** (profile_toolgov, profile_jansson, profile_cjson) for callgrind's
** --toggle-collect or perf.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <jansson.h>

#include <toolgov/toolgov.h>
#include <toolgov/args.h>
#include <toolgov/policy.h>
#include <toolgov/run.h>

#include "bench_util.h"
#include "bench_plugin.h"
#include "args_internal.h"
#include "schema/schema.h"

#define MAX_CALLS 64
#define ROUNDS 31
#define TARGET_NS 20000.0 /* each round of one call runs about this long */

typedef struct call {
    char server[64];
    char tool[96];
    char *text; /* the arguments as written in calls.jsonl (compact, the
                ** model's order), NUL-terminated */
    size_t len;
    const toolgov_arg_schema *params;
    toolgov__args_prep *prep; /* its defaults made once, as a mount makes them */
    char *schema_json; /* the tool's inputSchema as published (compact) */
    unsigned reps;
    double tg[ROUNDS], jn[ROUNDS], cj[ROUNDS];
    double tg_med, jn_med, cj_med;
} call;

static call calls[MAX_CALLS];
static size_t ncalls;
static toolgov_tool_spec specs[MAX_CALLS];
static size_t nspecs;
static volatile size_t sink;

/* The tables of one tool's inputSchema, compiled in memory. */
static const toolgov_arg_schema *tables_of(toolgov__schema_ctx *cx, const char *dir,
                                           const char *server, const char *tool,
                                           char **schema_json)
{
    char path[1024];
    json_error_t jerr;
    json_t *root, *tools, *t;
    const toolgov_arg_schema *out = NULL;
    size_t i;

    snprintf(path, sizeof path, "%s/mcp-servers/%s.json", dir, server);
    root = json_load_file(path, 0, &jerr);
    if (!root) {
        fprintf(stderr, "bench_calls: %s: %s\n", path, jerr.text);
        return NULL;
    }
    tools = json_object_get(root, "tools");
    json_array_foreach(tools, i, t)
    {
        const char *name = json_string_value(json_object_get(t, "name"));

        if (name && strcmp(name, tool) == 0) {
            char *text = json_dumps(json_object_get(t, "inputSchema"),
                                    JSON_COMPACT | JSON_PRESERVE_ORDER);
            toolgov__jval *v;
            toolgov__snode *n;

            cx->tool = tool;
            if (text && toolgov__jtext_parse(cx, text, strlen(text), &v) == 0 &&
                toolgov__schema_compile(cx, v, v->at, &n) == 0 &&
                toolgov__schema_tables(cx, n, &out) != 0)
                out = NULL;
            if (out)
                *schema_json = text;
            else
                free(text);
            break;
        }
    }
    json_decref(root);
    if (!out)
        fprintf(stderr, "bench_calls: no tables for %s/%s\n", server, tool);
    return out;
}

/* The bytes of a line's "arguments" value as written (a model's numbers
** and escapes, not a library's reprint of them): the line's last member,
** from after `"arguments":` to the line's closing brace. NULL unless those
** bytes read as the value jansson read (malloc'd otherwise). */
static char *arguments_text(const char *line, const json_t *args)
{
    const char *start = strstr(line, "\"arguments\":"), *end = line + strlen(line);
    json_error_t jerr;
    json_t *back;
    char *text;
    int same;

    if (!start)
        return NULL;
    start += strlen("\"arguments\":");
    while (end > start && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    if (end == start || end[-1] != '}')
        return NULL;
    end--; /* the line's own closing brace */
    text = malloc((size_t)(end - start) + 1);
    if (!text)
        return NULL;
    memcpy(text, start, (size_t)(end - start));
    text[end - start] = '\0';
    back = json_loads(text, 0, &jerr);
    same = back && json_equal(back, (json_t *)args);
    json_decref(back);
    if (!same) {
        free(text);
        return NULL;
    }
    return text;
}

static int load_calls(toolgov__schema_ctx *cx, const char *dir)
{
    char path[1024], line[8192];
    FILE *f;

    snprintf(path, sizeof path, "%s/mcp-calls/calls.jsonl", dir);
    f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_calls: cannot open %s\n", path);
        return -1;
    }
    while (ncalls < MAX_CALLS && fgets(line, sizeof line, f)) {
        json_error_t jerr;
        json_t *j = json_loads(line, 0, &jerr);
        call *c = &calls[ncalls];

        if (!j) {
            fprintf(stderr, "bench_calls: %s:%d: %s\n", path, jerr.line, jerr.text);
            fclose(f);
            return -1;
        }
        snprintf(c->server, sizeof c->server, "%s",
                 json_string_value(json_object_get(j, "server")));
        snprintf(c->tool, sizeof c->tool, "%s", json_string_value(json_object_get(j, "tool")));
        c->text = arguments_text(line, json_object_get(j, "arguments"));
        json_decref(j);
        if (!c->text) {
            fprintf(stderr, "bench_calls: %s:%zu: \"arguments\" must be the line's last member\n",
                    path, ncalls + 1);
            fclose(f);
            return -1;
        }
        c->len = strlen(c->text);
        c->params = tables_of(cx, dir, c->server, c->tool, &c->schema_json);
        if (!c->params) {
            fclose(f);
            return -1;
        }
        ncalls++;
    }
    fclose(f);
    return 0;
}

static void run_toolgov(toolgov_args_decoder *dec, call *c)
{
    toolgov_decoded_args out;
    unsigned i;

    for (i = 0; i < c->reps; i++) {
        toolgov__args_decode_prep(&out, dec, c->params, c->prep, c->tool, c->text, c->len);
        sink += out.canonical_len;
    }
}

static void run_jansson(call *c)
{
    unsigned i;

    for (i = 0; i < c->reps; i++) {
        json_error_t err;
        json_t *j = json_loadb(c->text, c->len, JSON_REJECT_DUPLICATES, &err);
        char *s = json_dumps(j, JSON_COMPACT);

        sink += strlen(s);
        free(s);
        json_decref(j);
    }
}

static void run_cjson(call *c)
{
    unsigned i;

    for (i = 0; i < c->reps; i++) {
        cJSON *j = cJSON_ParseWithLength(c->text, c->len);
        char *s = cJSON_PrintUnformatted(j);

        sink += strlen(s);
        cJSON_free(s);
        cJSON_Delete(j);
    }
}

static double timed(void (*fn)(call *), call *c)
{
    double t0 = now_ns();

    fn(c);
    return (now_ns() - t0) / c->reps;
}

/* One target's line: PASS or FAIL, what it is, the measured value. */
static void target(const char *what, int ok, const char *fmt, ...)
{
    va_list ap;

    printf("  %s  %-52s ", ok ? "PASS" : "FAIL", what);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* The load average now (the machine may be shared), or "?". */
static void print_load(void)
{
    char buf[64] = "?";
    FILE *f = fopen("/proc/loadavg", "r");

    if (f) {
        if (!fgets(buf, sizeof buf, f))
            snprintf(buf, sizeof buf, "?\n");
        fclose(f);
    } else {
        snprintf(buf, sizeof buf, "?\n");
    }
    printf("load average: %s", buf);
}

static toolgov_args_decoder *g_dec;

/* --profile: 200 rounds of the calls through each, untimed, one function
** each so callgrind can count one alone (--toggle-collect=profile_jansson). */
#if defined(__GNUC__) || defined(__clang__)
#define PROFILE_FN_ __attribute__((noinline))
#else
#define PROFILE_FN_
#endif

static PROFILE_FN_ void profile_toolgov(toolgov_decoded_args *out)
{
    size_t r, i;

    for (r = 0; r < 200; r++)
        for (i = 0; i < ncalls; i++)
            toolgov__args_decode_prep(out, g_dec, calls[i].params, calls[i].prep, calls[i].tool,
                                      calls[i].text, calls[i].len);
}

/* 200 rounds of every call, once each, through run. */
static void profile_rounds(void (*run)(call *))
{
    size_t r, i;

    for (r = 0; r < 200; r++)
        for (i = 0; i < ncalls; i++) {
            unsigned reps = calls[i].reps;

            calls[i].reps = 1;
            run(&calls[i]);
            calls[i].reps = reps;
        }
}

static PROFILE_FN_ void profile_jansson(void)
{
    profile_rounds(run_jansson);
}

static PROFILE_FN_ void profile_cjson(void)
{
    profile_rounds(run_cjson);
}

static void run_toolgov_g(call *c)
{
    run_toolgov(g_dec, c);
}

static int cmp_double_p(const void *a, const void *b)
{
    return cmp_double(a, b);
}

static void bench_gate(void)
{
    counter cnt = {0};
    toolgov_allocator hook = {count_alloc, &cnt};
    bench_rt p;
    toolgov_registry *reg;
    toolgov_run *run;
    double gate_t[ROUNDS], text_t[ROUNDS], find_t[ROUNDS];
    unsigned long long before = 0;
    unsigned acc = 0;
    size_t i, r, k;
    const unsigned reps = 2000;

    for (i = 0; i < ncalls; i++) {
        size_t j;

        for (j = 0; j < nspecs && strcmp(specs[j].name, calls[i].tool) != 0; j++)
            ;
        if (j < nspecs)
            continue;
        specs[nspecs].size = sizeof specs[0];
        specs[nspecs].name = calls[i].tool;
        specs[nspecs].description = "";
        specs[nspecs].guidance = "";
        specs[nspecs].effect = TOOLGOV_EFFECT_WRITE;
        specs[nspecs].confirm = TOOLGOV_CONFIRM_ONCE;
        specs[nspecs].params = calls[i].params;
        specs[nspecs].schema_json = calls[i].schema_json;
        nspecs++;
    }
    if (bench_rt_new(&p, "bench_calls", &hook, specs, nspecs, 1) != 0)
        exit(1);
    reg = p.reg;
    run = p.run;
    /* An approval, so the answer depends on the arguments. */
    toolgov_run_approve(run, calls[0].tool, calls[0].text);
    for (r = 0; r < ROUNDS; r++) {
        double g = 0, t = 0, f = 0;

        for (i = 0; i < ncalls; i++) {
            toolgov_decoded_call dc;
            double t0;

            if (toolgov_run_decode(&dc, run, calls[i].tool, calls[i].text, calls[i].len) != 0) {
                fprintf(stderr, "bench_calls: run_decode refused %s\n", calls[i].tool);
                exit(1);
            }
            if (r == 1 && i == 0)
                before = cnt.allocs;
            t0 = now_ns();
            for (k = 0; k < reps; k++)
                acc += (unsigned)toolgov_run_gate_decoded(run, &dc);
            g += now_ns() - t0;
            t0 = now_ns();
            for (k = 0; k < reps; k++)
                acc += (unsigned)toolgov_run_gate(run, calls[i].tool, calls[i].text);
            t += now_ns() - t0;
            t0 = now_ns();
            for (k = 0; k < reps; k++)
                acc += toolgov_registry_find(reg, calls[i].tool) != NULL;
            f += now_ns() - t0;
        }
        gate_t[r] = g / ((double)reps * ncalls);
        text_t[r] = t / ((double)reps * ncalls);
        find_t[r] = f / ((double)reps * ncalls);
    }
    sink += acc;
    {
        double g = median(gate_t, ROUNDS), t = median(text_t, ROUNDS),
               f = median(find_t, ROUNDS);

        printf("\ngate on a decoded call: %.1f ns, on the call's text: %.1f ns, pool lookup: "
               "%.1f ns\ngate (decoded) / lookup: %.2fx; gate (text) / lookup: "
               "%.2fx\nallocations in the run's decode + gate once warm: %llu\n",
               g, t, f, g / f, t / f, cnt.allocs - before);
        target("gate on a decoded call <= 1.5x a pool lookup", g <= 1.5 * f, "%.2fx", g / f);
        target("zero allocations in the run's decode + gate once warm", cnt.allocs == before,
               "%llu", cnt.allocs - before);
    }
    bench_rt_free(&p);
}

int main(int argc, char **argv)
{
    int profile = argc > 1 && strcmp(argv[1], "--profile") == 0;
    const char *dir = argc > 1 + profile ? argv[1 + profile] : TOOLGOV_TESTDATA_DIR;
    counter cnt = {0};
    toolgov_allocator hook = {count_alloc, &cnt}, plain = {NULL, NULL};
    toolgov__diag d;
    toolgov__arena a;
    toolgov__schema_ctx cx;
    toolgov_decoded_args out;
    double tg[MAX_CALLS], jn[MAX_CALLS], ratio[MAX_CALLS], worst = 0;
    unsigned long long warm;
    size_t i, r, over = 0, calls_done = 0;
    const char *worst_tool = "";

    toolgov__diag_init(&d, stderr, 0);
    toolgov__arena_init(&a);
    memset(&cx, 0, sizeof cx);
    cx.arena = &a;
    cx.d = &d;
    cx.path = "inputSchema";
    if (load_calls(&cx, dir) != 0 || ncalls == 0)
        return 1;
    if (toolgov_args_decoder_new(&g_dec, &hook) != 0)
        return 1;
    for (i = 0; i < ncalls; i++) {
        json_error_t err;
        json_t *j = json_loadb(calls[i].text, calls[i].len, 0, &err);
        cJSON *cj = cJSON_ParseWithLength(calls[i].text, calls[i].len);

        if (toolgov__args_prep_new(&plain, calls[i].params, &calls[i].prep) != 0)
            return 1;
        if (toolgov_args_decode(&out, g_dec, calls[i].params, calls[i].tool, calls[i].text,
                                calls[i].len) != 0 || !j || !cj) {
            fprintf(stderr, "bench_calls: %s refused: %s\n", calls[i].tool, out.message);
            return 1;
        }
        /* The defaults made once give the same canonical text. */
        {
            char *plain_text = strdup(out.canonical);
            toolgov_decoded_args out2;

            if (!plain_text ||
                toolgov__args_decode_prep(&out2, g_dec, calls[i].params, calls[i].prep,
                                          calls[i].tool, calls[i].text, calls[i].len) != 0 ||
                strcmp(plain_text, out2.canonical) != 0) {
                fprintf(stderr, "bench_calls: %s: the prepared defaults differ\n",
                        calls[i].tool);
                return 1;
            }
            free(plain_text);
        }
        json_decref(j);
        cJSON_Delete(cj);
        /* About TARGET_NS of work per round, from a first estimate. */
        calls[i].reps = 1;
        {
            double t = timed(run_jansson, &calls[i]);

            calls[i].reps = t > 0 ? (unsigned)(TARGET_NS / t) + 1 : 100;
            if (calls[i].reps > 2000)
                calls[i].reps = 2000;
        }
    }
    if (profile) {
        profile_toolgov(&out);
        profile_jansson();
        profile_cjson();
        toolgov_args_decoder_free(g_dec);
        return 0;
    }
    for (i = 0; i < ncalls; i++)
        run_toolgov(g_dec, &calls[i]);
    warm = cnt.allocs;
    for (r = 0; r < ROUNDS; r++) {
        for (i = 0; i < ncalls; i++) {
            calls[i].tg[r] = timed(run_toolgov_g, &calls[i]);
            calls[i].jn[r] = timed(run_jansson, &calls[i]);
            calls[i].cj[r] = timed(run_cjson, &calls[i]);
            calls_done += calls[i].reps;
        }
    }
    printf("bench_calls: %zu real calls, median of %d interleaved rounds, ns per call "
           "(thread CPU time); toolgov with the defaults its mount makes, as a run decodes\n",
           ncalls, ROUNDS);
    print_load();
    printf("%-28s %5s %9s %9s %7s %9s\n", "call", "bytes", "toolgov", "jansson", "ratio",
           "cJSON");
    for (i = 0; i < ncalls; i++) {
        call *c = &calls[i];

        c->tg_med = median(c->tg, ROUNDS);
        c->jn_med = median(c->jn, ROUNDS);
        c->cj_med = median(c->cj, ROUNDS);
        tg[i] = c->tg_med;
        jn[i] = c->jn_med;
        ratio[i] = c->tg_med / c->jn_med;
        if (ratio[i] > 2.0)
            over++;
        if (ratio[i] > worst) {
            worst = ratio[i];
            worst_tool = c->tool;
        }
        printf("%-28s %5zu %9.0f %9.0f %6.2fx %9.0f\n", c->tool, c->len, c->tg_med, c->jn_med,
               ratio[i], c->cj_med);
    }
    qsort(tg, ncalls, sizeof tg[0], cmp_double_p);
    qsort(jn, ncalls, sizeof jn[0], cmp_double_p);
    qsort(ratio, ncalls, sizeof ratio[0], cmp_double_p);
    printf("\nmedian over the calls: toolgov %.0f ns, jansson %.0f ns; median ratio %.2fx\n",
           tg[ncalls / 2], jn[ncalls / 2], ratio[ncalls / 2]);
    printf("slowest against jansson: %s at %.2fx; calls over 2x: %zu\n", worst_tool, worst,
           over);
    printf("allocations per decode once warm: %.4f over %zu decodes\n",
           (double)(cnt.allocs - warm) / (double)(calls_done ? calls_done : 1), calls_done);
    printf("\ntargets (issue 30):\n");
    target("median over the real calls <= 500 ns", tg[ncalls / 2] <= 500.0, "%.0f ns",
           tg[ncalls / 2]);
    target("median per-call ratio to jansson <= 0.5x", ratio[ncalls / 2] <= 0.5, "%.2fx",
           ratio[ncalls / 2]);
    target("median over the calls <= 0.5x jansson's median", tg[ncalls / 2] <= 0.5 * jn[ncalls / 2],
           "%.2fx", tg[ncalls / 2] / jn[ncalls / 2]);
    target("no call over 2x its jansson time", over == 0, "%zu over, worst %.2fx", over, worst);
    target("zero allocations per decode once warm", cnt.allocs == warm, "%llu",
           cnt.allocs - warm);
    toolgov_args_decoder_free(g_dec);
    bench_gate();
    print_load();
    for (i = 0; i < ncalls; i++) {
        toolgov__args_prep_free(&plain, calls[i].prep);
        free(calls[i].text);
        free(calls[i].schema_json);
    }
    toolgov__arena_free(&a);
    return sink == 0;
}
