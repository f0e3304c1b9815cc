/* SPDX-License-Identifier: MIT */
/*
** bench_plugin.h: the plugin bench_gate and bench_calls mount, and the
** registry, policy and run they time over it. Every tool gets one handler
** that answers with its tool's name; the specs are the bench's (a table it
** fills and keeps alive until bench_rt_free). Header-only (static
** functions); include it once per program, after bench_util.h.
*/
#ifndef TOOLGOV_BENCH_PLUGIN_H
#define TOOLGOV_BENCH_PLUGIN_H

#include <stdio.h>
#include <string.h>

#include <toolgov/toolgov.h>
#include <toolgov/policy.h>
#include <toolgov/run.h>

#include "bench_util.h"

/* The specs the register function below registers: a bench sets them
** through bench_rt_new, one pool at a time. */
static const toolgov_tool_spec *bench_specs;
static size_t bench_nspecs;

static BENCH_UNUSED int bench_handler(const toolgov_call *call, const void *args,
                                      toolgov_result *out)
{
    (void)args;
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}

static BENCH_UNUSED int bench_register_all(toolgov_plugin_api *api)
{
    size_t i;

    for (i = 0; i < bench_nspecs; i++)
        if (toolgov_register_tool(api, bench_specs[i].name, "", bench_handler) < 0)
            return TOOLGOV_EFAIL;
    return 0;
}

/* What a bench times: plugin "bench" (the n specs), a registry holding it,
** its policy and, when asked for, a run. */
typedef struct bench_rt {
    toolgov_plugin plugin; /* the registry keeps a pointer to it: a bench_rt
                           ** stays where it is until bench_rt_free */
    toolgov_registry *reg;
    toolgov_policy *pol;
    toolgov_run *run;
} bench_rt;

/* Mount specs[0..n) as plugin "bench" through `hook` (NULL: the C
** library's) and make the policy and, when with_run, a run. 0, or -1 with
** a line on stderr naming `who` and what failed (the pool is then freed). */
static BENCH_UNUSED int bench_rt_new(bench_rt *p, const char *who,
                                       const toolgov_allocator *hook,
                                       const toolgov_tool_spec *specs, size_t n, int with_run)
{
    const toolgov_plugin plugin = {TOOLGOV_ABI_VERSION, "bench", "bench.yaml", NULL, 0, NULL, 0,
                                   bench_register_all};
    int rc;
    const char *step = "registry_new";

    memset(p, 0, sizeof *p);
    bench_specs = specs;
    bench_nspecs = n;
    p->plugin = plugin;
    p->plugin.tools = specs;
    p->plugin.tool_count = n;
    rc = toolgov_registry_new(&p->reg, hook);
    if (rc >= 0) {
        step = "registry_mount";
        rc = toolgov_registry_mount(p->reg, &p->plugin, NULL);
    }
    if (rc >= 0) {
        step = "policy_new";
        rc = toolgov_policy_new(&p->pol, p->reg);
    }
    if (rc >= 0 && with_run) {
        step = "run_new";
        rc = toolgov_run_new(&p->run, p->pol, NULL);
    }
    if (rc < 0) {
        fprintf(stderr, "%s: setup failed: toolgov_%s: %s\n", who, step, toolgov_strerror(rc));
        toolgov_run_free(p->run);
        toolgov_policy_free(p->pol);
        toolgov_registry_free(p->reg);
        memset(p, 0, sizeof *p);
        return -1;
    }
    return 0;
}

static BENCH_UNUSED void bench_rt_free(bench_rt *p)
{
    toolgov_run_free(p->run);
    toolgov_policy_free(p->pol);
    toolgov_registry_free(p->reg);
    memset(p, 0, sizeof *p);
}

#endif /* TOOLGOV_BENCH_PLUGIN_H */
