/* SPDX-License-Identifier: MIT */
/*
** test_own_loop.c: the generated code of a plugin with a loop of its own
** (tests/gen/manifests/ownloop.yaml, generated at build time by the
** toolgov-gen just built). Mounting registers the pool's tools and declares
** the own loop's (loop: own never enters the pool, loop: both does both);
** ownloop_Invoke() runs an own-loop tool through a child run under the
** same gate as the pool, sharing the host run's confirmation and approvals;
** ownloop_ToolFind() maps a name to an own-loop tool.
*/
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/drift.h>
#include <toolgov/policy.h>
#include <toolgov/run.h>

#include "ownloop.toolgov.h"
#include "ownloop_handlers.h"

typedef struct env {
    toolgov_registry *reg;
    toolgov_policy *pol;
    toolgov_run *run;
    ownloop_log log;
} env;

static void env_open(env *e)
{
    memset(e, 0, sizeof *e);
    ck_assert_int_eq(toolgov_registry_new(&e->reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(e->reg, &ownloop_toolgov_plugin, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&e->pol, e->reg), 0);
    ck_assert_int_eq(toolgov_run_new(&e->run, e->pol, &e->log), 0);
}

static void env_close(env *e)
{
    toolgov_run_free(e->run);
    toolgov_policy_free(e->pol);
    toolgov_registry_free(e->reg);
}

/* loop: pool and both are pooled, loop: own is declared only; nothing drifts. */
START_TEST(test_mount_pools_and_declares)
{
    static const toolgov_tool_status want[ownloop_ToolCount] = {
        TOOLGOV_TOOL_POOLED, TOOLGOV_TOOL_POOLED, TOOLGOV_TOOL_OWN_LOOP, TOOLGOV_TOOL_OWN_LOOP,
        TOOLGOV_TOOL_POOLED};
    env e;
    toolgov_outcome oc;
    size_t i;

    env_open(&e);
    ck_assert_uint_eq(toolgov_drift_count(e.reg, e.pol), 0);
    ck_assert_uint_eq(toolgov_registry_plugin_tool_count(e.reg, "ownloop"), ownloop_ToolCount);
    for (i = 0; i < ownloop_ToolCount; i++) {
        toolgov_plugin_tool row;
        ck_assert_int_eq(toolgov_registry_plugin_tool_at(&row, e.reg, "ownloop", i), 0);
        ck_assert_int_eq(row.status, want[i]);
    }
    /* The host cannot call an own-loop tool: it is not in the pool. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "trash_one", "{\"id\":3}"), TOOLGOV_ENOENT);
    ck_assert_uint_eq(e.log.trashed, 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "listing", NULL), 0);
    ck_assert_int_eq(oc.executed, 1);
    env_close(&e);
}
END_TEST

/* Before the user said yes, the own loop's write asks and its destructive
** call waits for approval: neither runs. The read runs. */
START_TEST(test_own_loop_is_gated)
{
    env e;
    toolgov_outcome oc;

    env_open(&e);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "tidy", NULL), 0);
    ck_assert_int_eq(e.log.child_rc, 0);
    ck_assert_int_eq(e.log.gate[0], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(e.log.executed[0], 1);
    ck_assert_int_eq(e.log.gate[1], TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(e.log.executed[1], 0);
    ck_assert_int_eq(e.log.gate[2], TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(e.log.executed[2], 0);
    ck_assert_int_eq(e.log.gate[3], TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(e.log.executed[3], 0);
    ck_assert_uint_eq(e.log.trashed, 0);
    ck_assert_uint_eq(e.log.purged, 0);
    ck_assert_int_eq(e.log.pool_only_rc, TOOLGOV_EINVAL);
    ck_assert_str_eq(oc.output, "trashed 0, purged 0, archived 0");
    env_close(&e);
}
END_TEST

/* The host run's yes and approval reach the child: after them the own
** loop's write and its approved destructive call run, once each. */
START_TEST(test_own_loop_shares_the_answers)
{
    env e;
    toolgov_outcome oc;

    env_open(&e);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
    /* Another spelling of the same call: approvals compare canonical text. */
    ck_assert_int_eq(toolgov_run_approve(e.run, "purge_one", "{ \"id\" : 3 }"), 0);
    /* A tool in both loops is one tool: the host's approval by name covers
    ** the own loop's call. */
    ck_assert_int_eq(toolgov_run_approve(e.run, "archive_all", NULL), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "tidy", NULL), 0);
    ck_assert_int_eq(e.log.gate[1], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(e.log.gate[2], TOOLGOV_GATE_ALLOW);
    ck_assert_uint_eq(e.log.trashed, 1);
    ck_assert_uint_eq(e.log.purged, 1);
    ck_assert_int_eq(e.log.gate[3], TOOLGOV_GATE_ALLOW);
    ck_assert_uint_eq(e.log.archived, 1);
    ck_assert_str_eq(oc.output, "trashed 1, purged 1, archived 1");
    /* The approval is used up: a second pass asks for a new one. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "tidy", NULL), 0);
    ck_assert_int_eq(e.log.gate[2], TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_uint_eq(e.log.purged, 1);
    env_close(&e);
}
END_TEST

/* Invoke outside a child run, out of range; ToolFind by name. */
START_TEST(test_invoke_and_find)
{
    env e;
    toolgov_outcome oc;

    env_open(&e);
    ck_assert_int_eq(ownloop_Invoke(&oc, e.run, ownloop_Tool_trash_one, "{\"id\":1}"),
                     TOOLGOV_EINVAL); /* the host's run is not a child */
    ck_assert_int_eq(ownloop_Invoke(&oc, e.run, ownloop_ToolCount, "{}"), TOOLGOV_EINVAL);
    ck_assert_int_eq(ownloop_ToolFind("trash_one"), ownloop_Tool_trash_one);
    ck_assert_int_eq(ownloop_ToolFind("purge_one"), ownloop_Tool_purge_one);
    ck_assert_int_eq(ownloop_ToolFind("listing"), ownloop_Tool_listing);
    ck_assert_int_eq(ownloop_ToolFind("tidy"), ownloop_ToolCount); /* pool only */
    ck_assert_int_eq(ownloop_ToolFind("trash"), ownloop_ToolCount);
    ck_assert_int_eq(ownloop_ToolFind(NULL), ownloop_ToolCount);
    env_close(&e);
}
END_TEST

/* A hand-built plugin whose one pooled tool is called `name`. */
static const toolgov_tool_spec other_tools[2] = {
    {sizeof(toolgov_tool_spec), "trash_one", "Another plugin's tool.", TOOLGOV_EFFECT_READ,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 4, 3, NULL, "{\"type\":\"object\",\"properties\":{}}"},
    {sizeof(toolgov_tool_spec), "listing", "Another plugin's tool.", TOOLGOV_EFFECT_READ,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 7, 3, NULL, "{\"type\":\"object\",\"properties\":{}}"},
};

static int other_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)call;
    (void)args;
    return toolgov_result_set(out, "other", 5);
}

static int other_register(toolgov_plugin_api *api)
{
    (void)toolgov_register_tool(api, "trash_one", NULL, other_handler);
    (void)toolgov_register_tool(api, "listing", NULL, other_handler);
    return 0;
}

static const char *const other_provides[] = {"tool"};
static const toolgov_plugin other = {TOOLGOV_ABI_VERSION, "other", "other.yaml", other_provides,
                                     1, other_tools, 2, other_register};

static toolgov_tool_status status_of(const toolgov_registry *reg, const char *plugin, size_t i)
{
    toolgov_plugin_tool row;
    ck_assert_int_eq(toolgov_registry_plugin_tool_at(&row, reg, plugin, i), 0);
    return row.status;
}

/* One name, one tool, whichever loop: a name another plugin holds is
** refused for the own loop as for the pool, in either mount order. */
START_TEST(test_own_loop_names_are_the_pools)
{
    toolgov_registry *reg;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &other, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &ownloop_toolgov_plugin, NULL), 0);
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 2);
    ck_assert_int_eq(status_of(reg, "ownloop", ownloop_Tool_listing), TOOLGOV_TOOL_DUPLICATE);
    ck_assert_int_eq(status_of(reg, "ownloop", ownloop_Tool_trash_one), TOOLGOV_TOOL_DUPLICATE);
    ck_assert_int_eq(status_of(reg, "ownloop", ownloop_Tool_purge_one), TOOLGOV_TOOL_OWN_LOOP);
    toolgov_registry_free(reg);

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &ownloop_toolgov_plugin, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &other, NULL), 0);
    /* two refusals, and "provides tool but registered none" */
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 3);
    ck_assert_int_eq(status_of(reg, "other", 0), TOOLGOV_TOOL_DUPLICATE);
    ck_assert_int_eq(status_of(reg, "other", 1), TOOLGOV_TOOL_DUPLICATE);
    ck_assert_int_eq(status_of(reg, "ownloop", ownloop_Tool_trash_one), TOOLGOV_TOOL_OWN_LOOP);
    toolgov_registry_free(reg);
}
END_TEST

/* A plugin whose every tool runs in its own loop pools nothing and still
** provides its tools: no "provides nothing" row. */
static int own_only_register(toolgov_plugin_api *api)
{
    const toolgov_tool_spec *spec;
    return toolgov_declare_tool(api, "trash_one", &spec);
}

static const toolgov_plugin own_only = {TOOLGOV_ABI_VERSION, "own_only", "own_only.yaml",
                                        other_provides, 1, other_tools, 1, own_only_register};

START_TEST(test_own_loop_only_plugin_provides)
{
    toolgov_registry *reg;
    size_t before;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    before = toolgov_registry_count(reg);
    ck_assert_int_eq(toolgov_registry_mount(reg, &own_only, NULL), 0);
    ck_assert_uint_eq(toolgov_registry_count(reg), before);
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 0);
    ck_assert_int_eq(status_of(reg, "own_only", 0), TOOLGOV_TOOL_OWN_LOOP);
    toolgov_registry_free(reg);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("own_loop");
    TCase *tc = tcase_create("own_loop");
    tcase_add_test(tc, test_mount_pools_and_declares);
    tcase_add_test(tc, test_own_loop_is_gated);
    tcase_add_test(tc, test_own_loop_shares_the_answers);
    tcase_add_test(tc, test_invoke_and_find);
    tcase_add_test(tc, test_own_loop_names_are_the_pools);
    tcase_add_test(tc, test_own_loop_only_plugin_provides);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
