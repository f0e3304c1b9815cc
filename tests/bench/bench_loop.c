/* SPDX-License-Identifier: MIT */
/*
** bench_loop.c: the loop's own work per step (loop.h), SPEC §12's budget:
** with 20 tools on the loop and a history of about ten messages, one step
** is reading a response with 4 tool calls (toolgov_loop_response), then the
** gate, the 4 handlers (trivial here) and the results, and writing the
** next request (toolgov_loop_next). Printed beside the same response read
** by toolgov_model_calls_parse (the decode alone) in the same run, as
** medians of the thread's CPU time, with the allocations a warm step makes.
** Never a test: run it by hand, build/tests/bench/bench_loop.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include <toolgov/loop.h>
#include <toolgov/policy.h>
#include <toolgov/run.h>
#include <toolgov/toolcalls.h>
#include <toolgov/toolgov.h>

#include "bench_util.h"

#define TOOLS 20
#define ROUNDS 3000

static int ok_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)args;
    return toolgov_result_set(out, call->args, call->args_len);
}

/* {"type": "object"}: any object, kept in canonical form. */
static const toolgov_arg_schema any_object = {
    TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, sizeof(toolgov_no_args),
    0u, NULL, 0};

static char names[TOOLS][16];
static toolgov_tool_spec specs[TOOLS];
static const char *tool_names[TOOLS];

static int reg_fn(toolgov_plugin_api *api)
{
    size_t i;
    for (i = 0; i < TOOLS; i++) {
        int rc = toolgov_register_tool(api, specs[i].name, specs[i].description, ok_handler);
        if (rc)
            return rc;
    }
    return 0;
}

static const char *const provides[] = {"tool"};

static const char response[] =
    "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
    "\"finish_reason\":\"tool_calls\",\"message\":{\"role\":\"assistant\",\"content\":null,"
    "\"tool_calls\":["
    "{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"tool_00\",\"arguments\":"
    "\"{\\\"query\\\":\\\"bills due\\\",\\\"limit\\\":10}\"}},"
    "{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"tool_05\",\"arguments\":"
    "\"{\\\"date\\\":\\\"2026-12-03\\\"}\"}},"
    "{\"id\":\"call_3\",\"type\":\"function\",\"function\":{\"name\":\"tool_11\",\"arguments\":"
    "\"{\\\"category\\\":\\\"promotions\\\",\\\"limit\\\":5}\"}},"
    "{\"id\":\"call_4\",\"type\":\"function\",\"function\":{\"name\":\"tool_19\",\"arguments\":"
    "\"{}\"}}]}}],\"usage\":{\"prompt_tokens\":1117,\"completion_tokens\":46}}";

int main(void)
{
    static double t_step[ROUNDS], t_decode[ROUNDS];
    counter cnt = {0};
    toolgov_allocator alloc = {count_alloc, &cnt};
    toolgov_plugin plugin;
    toolgov_registry *reg;
    toolgov_policy *pol;
    toolgov_loop *lp;
    toolgov_run *run;
    toolgov_model_calls *mc;
    toolgov_loop_action a;
    unsigned long long allocs_step = 0;
    size_t i, req_len = 0;
    double m_step, m_decode;

    for (i = 0; i < TOOLS; i++) {
        snprintf(names[i], sizeof names[i], "tool_%02zu", i);
        tool_names[i] = names[i];
        specs[i] = (toolgov_tool_spec){sizeof(toolgov_tool_spec), names[i],
                                       "Look something up in the user's data.",
                                       TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0,
                                       (unsigned)i + 1, 3, &any_object, "{\"type\":\"object\"}"};
    }
    plugin = (toolgov_plugin){TOOLGOV_ABI_VERSION, "bench", "bench.yaml", provides, 1,
                              specs, TOOLS, reg_fn};
    if (toolgov_registry_new(&reg, &alloc) || toolgov_registry_mount(reg, &plugin, NULL) ||
        toolgov_policy_new(&pol, reg) || toolgov_loop_new(&lp, pol, NULL) ||
        toolgov_model_calls_new(&mc, reg)) {
        fputs("bench_loop: setup failed\n", stderr);
        return 1;
    }
    for (i = 0; i < ROUNDS + 50; i++) {
        double t0, t1;
        unsigned long long before;
        /* A turn with one step done: system, user, assistant, 4 results;
        ** the measured step adds the second (about ten messages sent). */
        if (toolgov_run_new(&run, pol, NULL) ||
            toolgov_loop_start(lp, run, "What is due, and what is on my calendar?", tool_names,
                               TOOLS) ||
            toolgov_loop_next(lp, &a) ||
            toolgov_loop_response(lp, response, sizeof response - 1) ||
            toolgov_loop_next(lp, &a)) {
            fputs("bench_loop: a turn failed\n", stderr);
            return 1;
        }
        before = cnt.allocs;
        t0 = now_ns();
        if (toolgov_loop_response(lp, response, sizeof response - 1) ||
            toolgov_loop_next(lp, &a) || a.what != TOOLGOV_LOOP_SEND) {
            fputs("bench_loop: the step failed\n", stderr);
            return 1;
        }
        t1 = now_ns();
        req_len = a.len;
        if (i >= 50) {
            t_step[i - 50] = t1 - t0;
            allocs_step += cnt.allocs - before;
        }
        toolgov_run_free(run);

        t0 = now_ns();
        if (toolgov_model_calls_parse(mc, TOOLGOV_TOOLS_OPENAI, response, sizeof response - 1,
                                      tool_names, TOOLS) ||
            toolgov_model_calls_count(mc) != 4) {
            fputs("bench_loop: the decode failed\n", stderr);
            return 1;
        }
        t1 = now_ns();
        if (i >= 50)
            t_decode[i - 50] = t1 - t0;
    }
    m_step = median(t_step, ROUNDS);
    m_decode = median(t_decode, ROUNDS);
    printf("loop step (20 tools, ~10 messages, 4 calls): median %.2f us, fastest %.2f us; "
           "request %zu bytes\n",
           m_step / 1000.0, t_step[0] / 1000.0, req_len);
    printf("decode only (model_calls_parse, same response): median %.2f us; step/decode %.1fx\n",
           m_decode / 1000.0, m_step / m_decode);
    printf("allocations per warm step: %.2f (budget: 0); step budget: 20 us\n",
           (double)allocs_step / ROUNDS);
    toolgov_model_calls_free(mc);
    toolgov_loop_free(lp);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    return 0;
}
