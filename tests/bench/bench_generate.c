/* SPDX-License-Identifier: MIT */
/*
** bench_generate.c: toolgov-gen's generate against a bare libyaml event
** parse of the same manifest (SPEC section 8: at most 1.3 times), in one
** process, side by side.
**
**   bench_generate [--params|--distinct-params] [RUNS]      (default 31)
**
** A 10,000-tool manifest of about 1.35 MB is built in memory (with
** --params every tool also declares the same parameters, with
** --distinct-params parameters no two alike: bench_manifest.h). In one
** process the memory freed by a round serves the next, so, unlike
** bench_generate_process, this measures the work without the kernel's
** cost of fresh pages. Each round
** times, in turn: (a) a bare libyaml event parse (initialize, parse every
** event, delete), (b) toolgov__manifest_load_mem (load + validate), and
** (c) load + validate + rendering both generated files in memory. Medians
** of RUNS rounds are printed with the ratios b/a and c/a. Writing the files
** is left out of (c): it depends on the disk, not on the generator. Times
** are the process's CPU time, so other load on the machine is not counted,
** and beside them the wall time. The generator runs on one thread, so the
** two differ only by what the machine's other work takes from it.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <yaml.h>

#include "emit/codegen.h"
#include "base/diag.h"
#include "manifest/manifest.h"

#include "bench_manifest.h"

/* CPU time of this (single-threaded) process: on a shared machine a wall
** clock charges other processes' time slices to whichever step was
** running. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static size_t bare_parse(const char *y, size_t len)
{
    yaml_parser_t p;
    yaml_event_t ev;
    size_t events = 0;
    int done = 0;
    if (!yaml_parser_initialize(&p))
        abort();
    yaml_parser_set_input_string(&p, (const unsigned char *)y, len);
    while (!done) {
        if (!yaml_parser_parse(&p, &ev))
            abort();
        done = ev.type == YAML_STREAM_END_EVENT;
        events++;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    return events;
}

int main(int argc, char **argv)
{
    int params = 0;
    size_t runs, len, r, out_bytes = 0;
    char *y;
    double *ta, *tb, *tc, *wa, *wb, *wc, ma, mb, mc, na, nb, nc;
    toolgov__diag d;

    if (argc > 1 && strcmp(argv[1], "--params") == 0)
        params = 1, argc--, argv++;
    else if (argc > 1 && strcmp(argv[1], "--distinct-params") == 0)
        params = 2, argc--, argv++;
    runs = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 31;
    y = build_manifest_ex(&len, params);
    if (!y || runs == 0)
        return 1;
    ta = malloc(runs * sizeof *ta);
    tb = malloc(runs * sizeof *tb);
    tc = malloc(runs * sizeof *tc);
    wa = malloc(runs * sizeof *wa);
    wb = malloc(runs * sizeof *wb);
    wc = malloc(runs * sizeof *wc);
    if (!ta || !tb || !tc || !wa || !wb || !wc)
        return 1;
    toolgov__diag_init(&d, stderr, 0);

    /* One warm-up of each, then interleaved rounds so drift in the
    ** machine's speed hits all three alike. */
    for (r = 0; r <= runs; r++) {
        double t0, t1, t2, t3, w0, w1, w2, w3;
        toolgov__manifest *m;
        toolgov__buf h, c;

        w0 = wall_ms();
        t0 = now_ms();
        bare_parse(y, len);
        t1 = now_ms();
        w1 = wall_ms();
        m = toolgov__manifest_load_mem("bench.yaml", y, len, &d);
        if (!m)
            return 1;
        toolgov__manifest_free(m);
        t2 = now_ms();
        w2 = wall_ms();
        m = toolgov__manifest_load_mem("bench.yaml", y, len, &d);
        if (!m)
            return 1;
        toolgov__buf_init(&h);
        toolgov__buf_init(&c);
        if (toolgov__codegen_render(&h, &c, m))
            return 1;
        out_bytes = h.len + c.len;
        toolgov__buf_free(&h);
        toolgov__buf_free(&c);
        toolgov__manifest_free(m);
        t3 = now_ms();
        w3 = wall_ms();
        if (r == 0)
            continue;
        ta[r - 1] = t1 - t0;
        tb[r - 1] = t2 - t1;
        tc[r - 1] = t3 - t2;
        wa[r - 1] = w1 - w0;
        wb[r - 1] = w2 - w1;
        wc[r - 1] = w3 - w2;
    }
    ma = median(ta, runs);
    mb = median(tb, runs);
    mc = median(tc, runs);
    na = median(wa, runs);
    nb = median(wb, runs);
    nc = median(wc, runs);
    printf("manifest: %d tools%s, %zu bytes; generated output %zu bytes; %zu runs "
           "(medians of the process's CPU time, and of wall time)\n",
           TOOLS,
           params == 2   ? " with parameters, no two alike"
           : params == 1 ? " with the same parameters"
                         : "",
           len, out_bytes, runs);
    printf("                                            CPU ms   ratio    wall ms   ratio\n");
    printf("(a) bare libyaml event parse:          %10.2f   1.00x %10.2f   1.00x\n", ma, na);
    printf("(b) load + validate:                   %10.2f  %5.2fx %10.2f  %5.2fx\n", mb,
           mb / ma, nb, nb / na);
    printf("(c) load + validate + generate (mem):  %10.2f  %5.2fx %10.2f  %5.2fx"
           "  (target <= 1.30x)\n",
           mc, mc / ma, nc, nc / na);
    free(ta);
    free(tb);
    free(tc);
    free(wa);
    free(wb);
    free(wc);
    free(y);
    return 0;
}
