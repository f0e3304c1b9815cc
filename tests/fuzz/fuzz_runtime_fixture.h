/* SPDX-License-Identifier: MIT */
/*
** fuzz_runtime_fixture.h: one registry with a small plugin mounted, and its
** policy, built once per fuzzing process and shared by every input.
**
** The plugin has one tool of every kind the gate tells apart: a read, an
** answers-directly read, a confirm-once write, a confirm-never write that
** answers directly, and a destructive tool, so restored state and override
** text can name tools of each kind.
*/
#ifndef TOOLGOV_TESTS_FUZZ_RUNTIME_FIXTURE_H
#define TOOLGOV_TESTS_FUZZ_RUNTIME_FIXTURE_H

#include <toolgov/policy.h>
#include <toolgov/run.h>
#include <toolgov/toolgov.h>

#include "fuzz_check.h"

static int fixture_handler(const toolgov_call *call, const void *args,
                           toolgov_result *out)
{
    (void)args;
    return toolgov_result_printf(out, "%s(%s)", call->tool, call->args);
}

/* The parameters {"type": "object"}: any object, kept in canonical form,
** so calls with arguments reach the handler and state can name them. */
static const toolgov_arg_schema fixture_any_object = {
    TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, sizeof(toolgov_no_args),
    0u, NULL, 0};

static const toolgov_tool_spec fixture_tools[] = {
    {sizeof(toolgov_tool_spec), "lookup", "Find things.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 4, 3, &fixture_any_object, "{\"type\":\"object\"}"},
    {sizeof(toolgov_tool_spec), "digest", "Summarise.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "Use it.", 1, 1, 7, 3, &fixture_any_object, "{\"type\":\"object\"}"},
    {sizeof(toolgov_tool_spec), "create_note", "Create.", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE, "", 0, 0, 10, 3, &fixture_any_object, "{\"type\":\"object\"}"},
    {sizeof(toolgov_tool_spec), "quick_note", "Dictated.", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER, "", 0, 1, 13, 3, &fixture_any_object, "{\"type\":\"object\"}"},
    {sizeof(toolgov_tool_spec), "wipe", "Delete all.", TOOLGOV_EFFECT_DESTRUCTIVE, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 16, 3, &fixture_any_object, "{\"type\":\"object\"}"},
};

static int fixture_register(toolgov_plugin_api *api)
{
    size_t i;
    for (i = 0; i < sizeof fixture_tools / sizeof fixture_tools[0]; i++) {
        int rc = toolgov_register_tool(api, fixture_tools[i].name, fixture_tools[i].description,
                                       fixture_handler);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static const char *const fixture_provides[] = {"tool"};

static const toolgov_plugin fixture_plugin = {
    TOOLGOV_ABI_VERSION,
    "fuzzplug",
    "fuzzplug.yaml",
    fixture_provides,
    1,
    fixture_tools,
    sizeof fixture_tools / sizeof fixture_tools[0],
    fixture_register,
};

static toolgov_registry *fixture_reg;
static toolgov_policy *fixture_pol;

#if defined(__GNUC__)
__attribute__((unused))
#endif
static void fixture_init(void)
{
    if (fixture_reg != NULL)
        return;
    FUZZ_CHECK(toolgov_registry_new(&fixture_reg, NULL) == 0);
    FUZZ_CHECK(toolgov_registry_mount(fixture_reg, &fixture_plugin, NULL) == 0);
    FUZZ_CHECK(toolgov_policy_new(&fixture_pol, fixture_reg) == 0);
}

#endif /* TOOLGOV_TESTS_FUZZ_RUNTIME_FIXTURE_H */
