/* SPDX-License-Identifier: MIT */
/* test_registry.c: built-ins, mounting, refusal rows, lookup, results. */
#include <check.h>
#include <stdio.h>

#include <toolgov/args.h>

#include "fixture.h"

static const struct {
    const char *name;
    toolgov_effect effect;
    toolgov_confirm confirm;
} builtin_table[] = {
    {"memory_search", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER},
    {"ask_user", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER},
    {"memory_correct", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER},
    {"memory_forget", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER},
    {"memory_restore", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER},
    {"record_feedback", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER},
    {"promote_recommendation", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE},
    {"propose_skill_from_sandbox", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE},
    {"invoke_pending_action", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE},
};

START_TEST(builtins_declared_in_code)
{
    toolgov_registry *reg = NULL;
    size_t i;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_uint_eq(toolgov_registry_count(reg), 9);
    for (i = 0; i < 9; i++) {
        const toolgov_tool_spec *s = toolgov_registry_find(reg, builtin_table[i].name);

        ck_assert_ptr_nonnull(s);
        ck_assert_str_eq(s->name, builtin_table[i].name);
        ck_assert_int_eq(s->effect, builtin_table[i].effect);
        ck_assert_int_eq(s->confirm, builtin_table[i].confirm);
        ck_assert_ptr_eq(toolgov_registry_at(reg, i), s);
        ck_assert_str_eq(toolgov_registry_owner(reg, builtin_table[i].name), "core");
        ck_assert_str_eq(s->guidance, "");
    }
    ck_assert_ptr_null(toolgov_registry_at(reg, 9));
    ck_assert_ptr_null(toolgov_registry_find(reg, "nope"));
    ck_assert_ptr_null(toolgov_registry_find(reg, "memory_searc"));
    ck_assert_ptr_null(toolgov_registry_find(reg, "memory_search_"));
    ck_assert_ptr_null(toolgov_registry_find(reg, ""));
    ck_assert_ptr_null(toolgov_registry_find(NULL, "ask_user"));
    ck_assert_ptr_null(toolgov_registry_find(reg, NULL));
    toolgov_registry_free(reg);
    toolgov_registry_free(NULL);
}
END_TEST

START_TEST(mount_gives_declared_spec)
{
    toolgov_registry *reg = NULL;
    size_t i;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_alpha, NULL), 0);
    ck_assert_uint_eq(toolgov_registry_count(reg), 9 + 7);
    for (i = 0; i < 7; i++) {
        /* The pooled spec is the manifest row itself, not a copy. */
        ck_assert_ptr_eq(toolgov_registry_find(reg, fx_alpha_tools[i].name), &fx_alpha_tools[i]);
        ck_assert_ptr_eq(toolgov_registry_at(reg, 9 + i), &fx_alpha_tools[i]);
        ck_assert_str_eq(toolgov_registry_owner(reg, fx_alpha_tools[i].name), "alpha");
    }
    /* The description passed to register_tool ("ignored") is not used. */
    ck_assert_str_eq(toolgov_registry_find(reg, "lookup")->description, "Find entries for a day.");
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 0);
    toolgov_registry_free(reg);
}
END_TEST

START_TEST(refusals_leave_rows)
{
    toolgov_registry *reg = NULL;
    const toolgov_drift_row *r;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_alpha, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_beta, NULL), 0);
    ck_assert_uint_eq(toolgov_registry_count(reg), 9 + 7 + 1);
    ck_assert_ptr_eq(toolgov_registry_find(reg, "beta_read"), &fx_beta_tools[0]);
    ck_assert_ptr_null(toolgov_registry_find(reg, "sneaky"));
    /* lookup stays alpha's, ask_user the core's. */
    ck_assert_ptr_eq(toolgov_registry_find(reg, "lookup"), &fx_alpha_tools[0]);
    ck_assert_str_eq(toolgov_registry_owner(reg, "lookup"), "alpha");
    ck_assert_str_eq(toolgov_registry_owner(reg, "ask_user"), "core");

    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 4);
    r = toolgov_drift_at(reg, NULL, 0);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_UNDECLARED);
    ck_assert_str_eq(r->plugin, "beta");
    ck_assert_str_eq(r->tool, "sneaky");
    ck_assert_str_eq(r->message,
                     "tool sneaky is registered by plugin beta but not declared in its manifest");
    r = toolgov_drift_at(reg, NULL, 1);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_DUPLICATE);
    ck_assert_str_eq(r->tool, "lookup");
    ck_assert_str_eq(r->owner, "alpha");
    ck_assert_str_eq(r->message, "tool lookup of plugin beta is refused: the name is already "
                                 "in the pool, owned by alpha");
    r = toolgov_drift_at(reg, NULL, 2);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_DUPLICATE);
    ck_assert_str_eq(r->tool, "ask_user");
    ck_assert_str_eq(r->owner, "core");
    ck_assert_str_eq(r->message, "tool ask_user of plugin beta is refused: the name is already "
                                 "in the pool, owned by the core");
    r = toolgov_drift_at(reg, NULL, 3);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_NEVER_REGISTERED);
    ck_assert_str_eq(r->tool, "forgotten");
    ck_assert_uint_eq(r->line, 9);
    ck_assert_uint_eq(r->column, 3);
    ck_assert_str_eq(r->message,
                     "tool forgotten is declared in beta.yaml:9:3 but plugin beta never registered it");
    ck_assert_ptr_null(toolgov_drift_at(reg, NULL, 4));
    toolgov_registry_free(reg);
}
END_TEST

/* A plugin that records what each registration call returned. */
static int codes[8];
static const toolgov_tool_spec rec_tools[] = {
    {sizeof(toolgov_tool_spec), "r1", "One.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 1, 1, NULL, "{}"},
};
static int rec_register(toolgov_plugin_api *api)
{
    const toolgov_tool_spec *spec = NULL;

    codes[0] = toolgov_register_tool(api, "r1", "", fx_handler);
    codes[1] = toolgov_register_tool(api, "r1", "", fx_handler);
    codes[2] = toolgov_register_tool(api, "r2", "", fx_handler);
    codes[3] = toolgov_register_tool(api, "memory_search", "", fx_handler);
    codes[4] = toolgov_register_tool(api, NULL, "", fx_handler);
    codes[5] = toolgov_register_tool(api, "", "", fx_handler);
    codes[6] = toolgov_declare_tool(api, "r1", &spec);
    codes[7] = spec == &rec_tools[0];
    return 0;
}
static const toolgov_plugin rec_plugin = {TOOLGOV_ABI_VERSION, "rec", "rec.yaml", NULL, 0,
                                          rec_tools, 1, rec_register};

START_TEST(registration_return_codes)
{
    toolgov_registry *reg = NULL;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &rec_plugin, NULL), 0);
    ck_assert_int_eq(codes[0], 0);
    ck_assert_int_eq(codes[1], TOOLGOV_EEXIST);
    ck_assert_int_eq(codes[2], TOOLGOV_EUNDECLARED);
    ck_assert_int_eq(codes[3], TOOLGOV_EUNDECLARED); /* not in rec's manifest */
    ck_assert_int_eq(codes[4], TOOLGOV_EINVAL);
    ck_assert_int_eq(codes[5], TOOLGOV_EINVAL);
    ck_assert_int_eq(codes[6], 0);
    ck_assert_int_eq(codes[7], 1);
    ck_assert_str_eq(toolgov_drift_at(reg, NULL, 0)->owner, "rec");
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 3);
    toolgov_registry_free(reg);
}
END_TEST

/* declare_tool: the plugin's own loop gets the spec, the pool does not. */
static const toolgov_tool_spec own_tools[] = {
    {sizeof(toolgov_tool_spec), "own_step", "A step of the plugin's loop.", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE,
     "", 0, 0, 2, 3, NULL, "{}"},
};
static const toolgov_tool_spec *own_spec;
static int own_rc[2];
static int own_register(toolgov_plugin_api *api)
{
    const toolgov_tool_spec *dummy = NULL;

    own_rc[0] = toolgov_declare_tool(api, "own_step", &own_spec);
    own_rc[1] = toolgov_declare_tool(api, "own_missing", &dummy);
    return 0;
}
static const toolgov_plugin own_plugin = {TOOLGOV_ABI_VERSION, "own", "own.yaml", NULL, 0,
                                          own_tools, 1, own_register};

START_TEST(declare_tool_for_own_loop)
{
    toolgov_registry *reg = NULL;
    const toolgov_drift_row *r;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &own_plugin, NULL), 0);
    ck_assert_int_eq(own_rc[0], 0);
    ck_assert_ptr_eq(own_spec, &own_tools[0]);
    ck_assert_int_eq(own_spec->effect, TOOLGOV_EFFECT_WRITE);
    ck_assert_int_eq(own_rc[1], TOOLGOV_EUNDECLARED);
    ck_assert_ptr_null(toolgov_registry_find(reg, "own_step"));
    ck_assert_uint_eq(toolgov_registry_count(reg), 9);
    /* One row (the undeclared name); own_step is not "never registered". */
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 1);
    r = toolgov_drift_at(reg, NULL, 0);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_UNDECLARED);
    ck_assert_str_eq(r->tool, "own_missing");
    ck_assert_int_eq(toolgov_declare_tool(NULL, "x", &own_spec), TOOLGOV_EINVAL);
    toolgov_registry_free(reg);
}
END_TEST

START_TEST(provides_tool_with_nothing_registered)
{
    toolgov_registry *reg = NULL;
    const toolgov_drift_row *r;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_gamma, NULL), 0);
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 2);
    r = toolgov_drift_at(reg, NULL, 0);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_NEVER_REGISTERED);
    ck_assert_str_eq(r->tool, "g1");
    r = toolgov_drift_at(reg, NULL, 1);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_PROVIDES_NOTHING);
    ck_assert_ptr_null(r->tool);
    ck_assert_str_eq(r->message, "plugin gamma says provides: tool but no tool of it is in the pool");
    toolgov_registry_free(reg);
}
END_TEST

START_TEST(abi_mismatch_and_failing_register_fn)
{
    toolgov_registry *reg = NULL;
    toolgov_plugin old = fx_alpha;
    const toolgov_drift_row *r;

    old.abi_version = TOOLGOV_ABI_VERSION + 1;
    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &old, NULL), TOOLGOV_EABI);
    ck_assert_uint_eq(toolgov_registry_count(reg), 9);
    r = toolgov_drift_at(reg, NULL, 0);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_MOUNT_FAILED);
    ck_assert_int_eq(r->err, TOOLGOV_EABI);

    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_broken, NULL), TOOLGOV_EFAIL);
    ck_assert_uint_eq(toolgov_registry_count(reg), 9);
    ck_assert_ptr_null(toolgov_registry_find(reg, "b1"));
    r = toolgov_drift_at(reg, NULL, 1);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_MOUNT_FAILED);
    ck_assert_int_eq(r->err, TOOLGOV_EFAIL);
    ck_assert_str_eq(r->plugin, "broken");
    /* The pool still works after the rollback. */
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_alpha, NULL), 0);
    ck_assert_ptr_nonnull(toolgov_registry_find(reg, "purge"));
    ck_assert_ptr_nonnull(toolgov_registry_find(reg, "memory_search"));

    ck_assert_int_eq(toolgov_registry_mount(NULL, &fx_alpha, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_registry_mount(reg, NULL, NULL), TOOLGOV_EINVAL);
    toolgov_registry_free(reg);
}
END_TEST

START_TEST(malformed_descriptors_refused)
{
    toolgov_registry *reg = NULL;
    toolgov_plugin p;
    toolgov_tool_spec bad[1];

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    p = fx_alpha;
    p.register_fn = NULL;
    ck_assert_int_eq(toolgov_registry_mount(reg, &p, NULL), TOOLGOV_EINVAL);
    p = fx_alpha;
    p.name = NULL;
    ck_assert_int_eq(toolgov_registry_mount(reg, &p, NULL), TOOLGOV_EINVAL);
    p = fx_alpha;
    p.tools = NULL;
    ck_assert_int_eq(toolgov_registry_mount(reg, &p, NULL), TOOLGOV_EINVAL);
    p = fx_alpha;
    p.provides = NULL;
    ck_assert_int_eq(toolgov_registry_mount(reg, &p, NULL), TOOLGOV_EINVAL);
    bad[0] = fx_alpha_tools[0];
    bad[0].description = NULL;
    p = fx_alpha;
    p.tools = bad;
    p.tool_count = 1;
    ck_assert_int_eq(toolgov_registry_mount(reg, &p, NULL), TOOLGOV_EINVAL);
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 1); /* the spec's row */
    p.abi_version = 0;
    p.name = NULL;
    ck_assert_int_eq(toolgov_registry_mount(reg, &p, NULL), TOOLGOV_EINVAL);
    /* Nothing was pooled; only the bad spec left a row. */
    ck_assert_uint_eq(toolgov_registry_count(reg), 9);
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 1);
    ck_assert_int_eq(toolgov_registry_new(NULL, NULL), TOOLGOV_EINVAL);
    ck_assert_uint_eq(toolgov_registry_count(NULL), 0);
    ck_assert_ptr_null(toolgov_registry_owner(reg, "nope"));
    ck_assert_ptr_null(toolgov_registry_owner(NULL, "ask_user"));
    toolgov_registry_free(reg);
}
END_TEST

START_TEST(bind_builtin_only_builtins)
{
    toolgov_registry *reg = fx_registry(NULL, NULL);

    ck_assert_ptr_nonnull(reg);
    ck_assert_int_eq(toolgov_registry_bind_builtin(reg, "ask_user", fx_handler, NULL), 0);
    ck_assert_int_eq(toolgov_registry_bind_builtin(reg, "lookup", fx_handler, NULL),
                     TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_registry_bind_builtin(reg, "nope", fx_handler, NULL),
                     TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_registry_bind_builtin(NULL, "ask_user", fx_handler, NULL),
                     TOOLGOV_EINVAL);
    toolgov_registry_free(reg);
}
END_TEST

/* A plugin of `n` generated-looking tools, to grow the hash index. */
static toolgov_tool_spec *big_tools;
static size_t big_n;
static int big_register(toolgov_plugin_api *api)
{
    size_t i;

    for (i = 0; i < big_n; i++) {
        int rc = toolgov_register_tool(api, big_tools[i].name, "", fx_handler);

        if (rc < 0)
            return rc;
    }
    return 0;
}

START_TEST(ten_thousand_tools_all_found)
{
    toolgov_registry *reg = NULL;
    toolgov_plugin big = {TOOLGOV_ABI_VERSION, "big", "big.yaml", fx_provides_tool, 1,
                          NULL, 0, big_register};
    char (*names)[32];
    size_t i;

    big_n = 10000;
    big_tools = calloc(big_n, sizeof *big_tools);
    names = calloc(big_n, sizeof *names);
    for (i = 0; i < big_n; i++) {
        snprintf(names[i], sizeof names[i], "tool_%zu", i);
        big_tools[i].name = names[i];
        big_tools[i].description = "d";
        big_tools[i].guidance = "";
        big_tools[i].effect = (toolgov_effect)(i % 3);
        big_tools[i].confirm = TOOLGOV_CONFIRM_NEVER;
    }
    big.tools = big_tools;
    big.tool_count = big_n;
    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &big, NULL), 0);
    ck_assert_uint_eq(toolgov_registry_count(reg), 9 + big_n);
    for (i = 0; i < big_n; i++)
        ck_assert_ptr_eq(toolgov_registry_find(reg, names[i]), &big_tools[i]);
    ck_assert_ptr_null(toolgov_registry_find(reg, "tool_10000"));
    ck_assert_ptr_nonnull(toolgov_registry_find(reg, "ask_user"));
    toolgov_registry_free(reg);
    free(names);
    free(big_tools);
}
END_TEST

START_TEST(strerror_every_code)
{
#define CHECK_MSG(name, value, msg) ck_assert_str_eq(toolgov_strerror(value), msg);
    TOOLGOV_ERRNO_MAP(CHECK_MSG)
#undef CHECK_MSG
    ck_assert_str_eq(toolgov_strerror(-999), "unknown error");
    ck_assert_str_eq(toolgov_strerror(5), "unknown error");
    ck_assert_str_eq(toolgov_strerror(0), "success");
}
END_TEST

static int result_handler(const toolgov_call *call, const void *args,
                          toolgov_result *out)
{
    (void)args;
    char big[300];
    int i;

    (void)call;
    ck_assert_str_eq(toolgov_result_text(out), "");
    ck_assert_uint_eq(toolgov_result_len(out), 0);
    ck_assert_int_eq(toolgov_result_set(out, "abc", 3), 0);
    ck_assert_int_eq(toolgov_result_append(out, "de\0f", 4), 0);
    ck_assert_uint_eq(toolgov_result_len(out), 7);
    ck_assert_int_eq(toolgov_result_set(out, "xyz", 2), 0);
    ck_assert_str_eq(toolgov_result_text(out), "xy");
    memset(big, 'q', sizeof big);
    for (i = 0; i < 10; i++)
        ck_assert_int_eq(toolgov_result_append(out, big, sizeof big), 0);
    ck_assert_uint_eq(toolgov_result_len(out), 3002);
    ck_assert_int_eq(toolgov_result_set(out, NULL, 0), 0);
    ck_assert_int_eq(toolgov_result_printf(out, "%d-%s", 42, "x"), 0);
    ck_assert_int_eq(toolgov_result_printf(out, "%0300d", 7), 0);
    ck_assert_uint_eq(toolgov_result_len(out), 304);
    ck_assert_int_eq(strncmp(toolgov_result_text(out), "42-x000", 7), 0);
    ck_assert_int_eq(toolgov_result_set(out, NULL, 3), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_result_append(NULL, "a", 1), TOOLGOV_EINVAL);
    return toolgov_result_set(out, "done", 4);
}

START_TEST(result_buffer_functions)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    toolgov_outcome oc;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_bind_builtin(reg, "memory_search", result_handler, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    ck_assert_int_eq(toolgov_run_new(&run, pol, NULL), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, run, "memory_search", "{\"query\":\"a\"}"), 0);
    ck_assert_str_eq(oc.output, "done");
    /* Second call: the handler sees an empty buffer again. */
    ck_assert_int_eq(toolgov_run_invoke(&oc, run, "memory_search", "{\"query\":\"a\"}"), 0);
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}
END_TEST

/* Mounting the same plugin twice refuses the second mount as a whole, with
** one row, not a duplicate row per tool and a false "provides nothing". */
START_TEST(second_mount_of_a_plugin_refused)
{
    toolgov_registry *reg = NULL;
    size_t rows, count;
    const toolgov_drift_row *r;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_alpha, NULL), 0);
    rows = toolgov_drift_count(reg, NULL);
    count = toolgov_registry_count(reg);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_alpha, NULL), TOOLGOV_EEXIST);
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), rows + 1);
    ck_assert_uint_eq(toolgov_registry_count(reg), count);
    r = toolgov_drift_at(reg, NULL, rows);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_MOUNT_FAILED);
    ck_assert_int_eq(r->err, TOOLGOV_EEXIST);
    ck_assert_str_eq(r->message, "plugin alpha is already mounted: the second mount is refused");
    toolgov_registry_free(reg);
}
END_TEST

/* Built-ins have one owner name everywhere: "core". */
START_TEST(builtin_owner_is_core)
{
    toolgov_registry *reg = fx_registry(NULL, NULL);

    ck_assert_str_eq(toolgov_registry_owner(reg, "ask_user"), "core");
    ck_assert_str_eq(toolgov_registry_owner(reg, "lookup"), "alpha");
    ck_assert_ptr_null(toolgov_registry_owner(reg, "nope"));
    toolgov_registry_free(reg);
}
END_TEST

/* Mount re-validates every spec: a hand-built or corrupted table is refused
** whole, with a row, and no value falls back to `read`. */
START_TEST(mount_revalidates_every_spec)
{
    static const struct {
        toolgov_tool_spec spec;
        const char *why;
    } bad[] = {
        {{sizeof(toolgov_tool_spec), "odd", "d", (toolgov_effect)7, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 3, 3, NULL, "{}"}, "effect"},
        {{sizeof(toolgov_tool_spec), "odd", "d", TOOLGOV_EFFECT_WRITE, (toolgov_confirm)5, "", 0, 0, 3, 3, NULL, "{}"}, "confirm"},
        {{sizeof(toolgov_tool_spec), "odd", "d", TOOLGOV_EFFECT_DESTRUCTIVE, TOOLGOV_CONFIRM_NEVER, "", 0, 1, 3, 3, NULL, "{}"},
         "answers_directly"},
        {{sizeof(toolgov_tool_spec), "odd", "d", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE, "", 0, 1, 3, 3, NULL, "{}"},
         "answers_directly"},
        {{sizeof(toolgov_tool_spec), "Odd", "d", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 3, 3, NULL, "{}"}, "name"},
        {{sizeof(toolgov_tool_spec), "odd", NULL, TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 3, 3, NULL, "{}"}, "NULL"},
        {{5, "odd", "d", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 3, 3, NULL, "{}"}, "size"},
        {{sizeof(toolgov_tool_spec), "odd", "d", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 2, 0, 3, 3, NULL, "{}"}, "pinned"},
    };
    size_t k;

    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        toolgov_registry *reg = NULL;
        toolgov_plugin p = fx_alpha;
        toolgov_tool_spec tools[2];
        const toolgov_drift_row *r;

        tools[0] = fx_alpha_tools[0];
        tools[1] = bad[k].spec;
        p.tools = tools;
        p.tool_count = 2;
        ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
        ck_assert_int_eq(toolgov_registry_mount(reg, &p, NULL), TOOLGOV_EINVAL);
        ck_assert_uint_eq(toolgov_registry_count(reg), 9);
        ck_assert_ptr_null(toolgov_registry_find(reg, "odd"));
        ck_assert_ptr_null(toolgov_registry_find(reg, "lookup"));
        ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 1);
        r = toolgov_drift_at(reg, NULL, 0);
        ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_MOUNT_FAILED);
        ck_assert_int_eq(r->err, TOOLGOV_EINVAL);
        ck_assert_msg(strstr(r->message, bad[k].why) != NULL, "case %u: %s", (unsigned)k,
                      r->message);
        toolgov_registry_free(reg);
    }
}
END_TEST

/* ---- hand-built argument tables (issue 29 items 4 and 17) ---- */

typedef struct odd_args {
    toolgov_str s;
    int64_t n;
    struct { const toolgov_str *items; size_t count; } l;
    struct { bool n, l; } has;
} odd_args;

#define ODD_LEAF(kind)                                                                       \
    { kind, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0, NULL, 0, NULL, \
      0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, 0, 0u, NULL, 0 }
#define ODD_TEXT                                                                             \
    "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\"},\"n\":{\"type\":"       \
    "\"integer\"},\"l\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":"  \
    "[\"s\"],\"additionalProperties\":false}"

/* One table a case may break: every node and field is a copy. */
typedef struct odd_table {
    toolgov_arg_schema str, num, item, list, root;
    toolgov_arg_field fields[3];
    toolgov_tool_spec spec[1];
} odd_table;

static void odd_make(odd_table *t)
{
    static const toolgov_arg_schema leaf_s = ODD_LEAF(TOOLGOV_ARG_STRING);
    static const toolgov_arg_schema leaf_n = ODD_LEAF(TOOLGOV_ARG_INTEGER);
    static const toolgov_arg_schema obj = ODD_LEAF(TOOLGOV_ARG_OBJECT);
    static const toolgov_arg_schema arr = ODD_LEAF(TOOLGOV_ARG_ARRAY);
    static const toolgov_tool_spec row = TOOLGOV_TOOL_SPEC_INIT("odd", "An odd tool.");

    memset(t, 0, sizeof *t);
    t->str = leaf_s;
    t->num = leaf_n;
    t->item = leaf_s;
    t->list = arr;
    t->list.items = &t->item;
    t->list.item_size = sizeof(toolgov_str);
    t->fields[0] = (toolgov_arg_field){"s", 1, &t->str, offsetof(odd_args, s),
                                       TOOLGOV_ARG_NO_HAS, 1, NULL};
    t->fields[1] = (toolgov_arg_field){"n", 1, &t->num, offsetof(odd_args, n),
                                       offsetof(odd_args, has.n), 0, NULL};
    t->fields[2] = (toolgov_arg_field){"l", 1, &t->list, offsetof(odd_args, l),
                                       offsetof(odd_args, has.l), 0, NULL};
    t->root = obj;
    t->root.flags = TOOLGOV_ARG_F_CLOSED;
    t->root.fields = t->fields;
    t->root.field_count = 3;
    t->root.struct_size = sizeof(odd_args);
    t->spec[0] = row;
    t->spec[0].params = &t->root;
    t->spec[0].schema_json = ODD_TEXT;
}

static int odd_register(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "odd", "", fx_handler);
}

/* Mount the table: the return code, and the drift row's message when the
** mount was refused (in why). */
static int odd_mount(odd_table *t, toolgov_registry **reg, char *why, size_t size)
{
    toolgov_plugin p = {TOOLGOV_ABI_VERSION, "oddity", "oddity.yaml", fx_provides_tool, 1,
                        t->spec, 1, odd_register};
    int rc;

    why[0] = '\0';
    ck_assert_int_eq(toolgov_registry_new(reg, NULL), 0);
    rc = toolgov_registry_mount(*reg, &p, NULL);
    if (rc != 0) {
        const toolgov_drift_row *r;

        ck_assert_uint_eq(toolgov_registry_count(*reg), 9);
        ck_assert_uint_eq(toolgov_drift_count(*reg, NULL), 1);
        r = toolgov_drift_at(*reg, NULL, 0);
        ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_MOUNT_FAILED);
        snprintf(why, size, "%s", r->message);
    }
    return rc;
}

/* Issue 29 item 4: a descriptor that would make the decoder write outside
** its struct, walk a bad pointer or loop, or whose schema text says other
** arguments than its tables, is refused at mount with a row. */
START_TEST(hostile_argument_tables_refused)
{
    enum { N_CASES = 24 };
    unsigned k;

    for (k = 0; k < N_CASES; k++) {
        odd_table t;
        toolgov_registry *reg = NULL;
        char why[512];
        const char *want = NULL;

        odd_make(&t);
        switch (k) {
        case 0: t.fields[0].offset = sizeof(odd_args); want = "outside its struct"; break;
        case 1: t.fields[1].offset = sizeof(odd_args) - 4; want = "outside its struct"; break;
        case 2: t.fields[1].offset = offsetof(odd_args, s) + 8; want = "overlaps"; break;
        case 3: memset(&t.str, 0xff, sizeof t.str); want = "unknown kind"; break;
        case 4: t.root.struct_size = 4; want = "outside its struct"; break;
        case 5: t.spec[0].schema_json = NULL; want = "schema_json is NULL"; break;
        case 6:
            t.spec[0].schema_json = "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":"
                                    "\"string\"}},\"required\":[\"s\"],\"additionalProperties\":false}";
            want = "other properties";
            break;
        case 7:
            t.spec[0].schema_json = "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":"
                                    "\"string\"},\"n\":{\"type\":\"string\"},\"l\":{\"type\":\"array\","
                                    "\"items\":{\"type\":\"string\"}}},\"required\":[\"s\"],"
                                    "\"additionalProperties\":false}";
            want = "another type";
            break;
        case 8:
            t.spec[0].schema_json = "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":"
                                    "\"string\"},\"n\":{\"type\":\"integer\"},\"l\":{\"type\":\"array\","
                                    "\"items\":{\"type\":\"string\"}}},\"additionalProperties\":false}";
            want = "required differs";
            break;
        case 9: t.spec[0].schema_json = "{\"type\":\"object\","; want = "not strict JSON"; break;
        case 10:
            t.spec[0].schema_json = "{\"type\":\"object\",\"type\":\"object\"}";
            want = "not strict JSON";
            break;
        case 11: t.root.flags = 0; want = "additionalProperties"; break;
        case 12: t.list.items = &t.list; want = "nest"; break;
        case 13: t.list.item_size = 1; want = "item_size"; break;
        case 14: t.list.items = NULL; want = "no items"; break;
        case 15:
            t.str.kind = TOOLGOV_ARG_STRING_ENUM;
            t.str.str_enum_count = 2;
            want = "NULL";
            break;
        case 16: t.fields[1].has_offset = sizeof(odd_args); want = "presence flag"; break;
        case 17: t.fields[1].has_offset = offsetof(odd_args, n); want = "overlaps"; break;
        case 18: t.fields[1].name_len = 7; want = "name_len"; break;
        case 19: t.fields[2].schema = NULL; want = "NULL"; break;
        case 20: t.str.min_len = 5; t.str.max_len = 2; want = "min_len"; break;
        case 21: t.num.flags = 0x8000u; want = "flag"; break;
        case 22: t.root.kind = TOOLGOV_ARG_STRING; want = "not an OBJECT"; break;
        case 23:
            t.spec[0].params = NULL;
            want = "declares arguments";
            break;
        default: break;
        }
        ck_assert_msg(odd_mount(&t, &reg, why, sizeof why) == TOOLGOV_EINVAL,
                      "case %u mounted", k);
        ck_assert_msg(strstr(why, want) != NULL, "case %u: %s", k, why);
        ck_assert_ptr_nonnull(strstr(why, "odd"));
        toolgov_registry_free(reg);
    }
}
END_TEST

/* The table itself is good: it mounts and decodes. */
START_TEST(hand_built_table_mounts)
{
    odd_table t;
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    toolgov_decoded_call dc;
    char why[512];

    odd_make(&t);
    ck_assert_int_eq(odd_mount(&t, &reg, why, sizeof why), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    ck_assert_int_eq(toolgov_run_new(&run, pol, NULL), 0);
    ck_assert_int_eq(toolgov_run_decode(&dc, run, "odd", "{\"s\":\"x\",\"l\":[\"a\"]}", 19), 0);
    ck_assert_str_eq(dc.args, "{\"s\":\"x\",\"l\":[\"a\"]}");
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}
END_TEST

/* Issue 29 item 17: a zeroed spec row filled by hand (size 0, guidance
** NULL) mounts with the seed's defaults and keeps its parameters; the
** initializer gives read, once and "". */
START_TEST(zeroed_spec_gets_defaults)
{
    static const toolgov_tool_spec init = TOOLGOV_TOOL_SPEC_INIT("x", "y");
    odd_table t;
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    toolgov_decoded_call dc;
    char why[512], prompt[2048];
    const char *loop[] = {"odd"};

    ck_assert_uint_eq(init.size, sizeof(toolgov_tool_spec));
    ck_assert_int_eq(init.effect, TOOLGOV_EFFECT_READ);
    ck_assert_int_eq(init.confirm, TOOLGOV_CONFIRM_ONCE);
    ck_assert_str_eq(init.guidance, "");
    ck_assert_ptr_null(init.params);
    ck_assert_int_eq(init.pinned | init.answers_directly, 0);

    odd_make(&t);
    memset(t.spec, 0, sizeof t.spec);
    t.spec[0].name = "odd";
    t.spec[0].description = "An odd tool.";
    t.spec[0].params = &t.root;
    t.spec[0].schema_json = ODD_TEXT;
    ck_assert_msg(odd_mount(&t, &reg, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(toolgov_registry_find(reg, "odd")->effect, TOOLGOV_EFFECT_READ);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    ck_assert_int_eq(toolgov_run_new(&run, pol, NULL), 0);
    /* The parameters hold: s is required. */
    ck_assert_int_eq(toolgov_run_decode(&dc, run, "odd", "{}", 2), TOOLGOV_EARGS);
    ck_assert_ptr_nonnull(strstr(dc.message, "/s is required"));
    ck_assert_int_eq(toolgov_run_decode(&dc, run, "odd", "{\"s\":\"a\"}", 9), 0);
    /* A NULL guidance renders as none. */
    ck_assert_int_eq(toolgov_prompt_render(prompt, sizeof prompt, NULL, pol, loop, 1), 0);
    ck_assert_ptr_nonnull(strstr(prompt, "odd"));
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}
END_TEST

/* Issue 29 item 10: one escaper for what a person is shown, by class:
** Cc, Cf (bidi controls, zero widths, tags), Zl, Zp, and bytes that are not
** UTF-8; everything else passes as it is. */
START_TEST(text_shown_escapes_hidden_characters)
{
    static const struct { const char *in; const char *out; } cases[] = {
        {"plain text, caf\xc3\xa9 \xe2\x82\xac", "plain text, caf\xc3\xa9 \xe2\x82\xac"},
        {"a\\b", "a\\\\b"},
        {"line\nbreak\ttab\r", "line\\x0abreak\\x09tab\\x0d"},
        {"del\x7f", "del\\x7f"},
        {"c1\xc2\x85", "c1\\u0085"},
        {"rlo\xe2\x80\xae" "evil", "rlo\\u202eevil"},
        {"lri\xe2\x81\xa6x\xe2\x81\xa9", "lri\\u2066x\\u2069"},
        {"zw\xe2\x80\x8b\xe2\x80\x8c\xe2\x80\x8d\xe2\x81\xa0", "zw\\u200b\\u200c\\u200d\\u2060"},
        {"bom\xef\xbb\xbf", "bom\\ufeff"},
        {"ls\xe2\x80\xa8ps\xe2\x80\xa9", "ls\\u2028ps\\u2029"},
        {"shy\xc2\xad", "shy\\u00ad"},
        {"alm\xd8\x9c", "alm\\u061c"},
        {"tag\xf3\xa0\x80\x81\xf3\xa0\x81\xbf", "tag\\U000e0001\\U000e007f"},
        {"emoji\xf0\x9f\x98\x80", "emoji\xf0\x9f\x98\x80"},
        {"bad\xff\xc3", "bad\\xff\\xc3"},
        {"cut\xe2\x80", "cut\\xe2\\x80"},
    };
    char buf[128];
    size_t k, need;

    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ck_assert_int_eq(toolgov_text_shown(buf, sizeof buf, &need, cases[k].in,
                                            strlen(cases[k].in)), 0);
        ck_assert_str_eq(buf, cases[k].out);
        ck_assert_uint_eq(need, strlen(cases[k].out));
    }
    /* Length-delimited: a NUL inside is shown, and nothing past len read. */
    ck_assert_int_eq(toolgov_text_shown(buf, sizeof buf, &need, "a\0b\xe2", 4), 0);
    ck_assert_str_eq(buf, "a\\x00b\\xe2");
    ck_assert_int_eq(toolgov_text_shown(NULL, 0, &need, "\xe2\x80\xae", 3), 0);
    ck_assert_uint_eq(need, 6);
    ck_assert_int_eq(toolgov_text_shown(buf, 4, &need, "\xe2\x80\xae", 3), TOOLGOV_ENOSPC);
    ck_assert_int_eq(toolgov_text_shown(NULL, 5, &need, "x", 1), TOOLGOV_EINVAL);
}
END_TEST

/* Read back what was written to a temporary stream. */
static size_t written(FILE *f, char *out, size_t size)
{
    size_t n;
    rewind(f);
    n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    return n;
}

/* toolgov_text_shown_write gives toolgov_text_shown's bytes for any text,
** however its pieces fall: characters of 1 to 4 bytes, hidden ones and
** bytes that are not UTF-8 at every offset around its 512-byte pieces; with
** TOOLGOV_SHOWN_LINES each line so and the line breaks kept. */
START_TEST(text_shown_write_is_text_shown)
{
    static const char *const unit[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                       "\xe2\x80\xae", "\xff", "\\", "\x1b[2J", "\xe2\x80"};
    static char text[4000], want[20000], got[20000];
    size_t len = 0, need = 0, n, k;
    FILE *f = tmpfile();

    ck_assert_ptr_nonnull(f);
    for (k = 0; len + 8 < sizeof text - 1; k++) {
        const char *u = unit[(k * 7 + k / 3) % (sizeof unit / sizeof unit[0])];
        memcpy(text + len, u, strlen(u));
        len += strlen(u);
    }
    text[len] = '\0';
    ck_assert_int_eq(toolgov_text_shown(want, sizeof want, &need, text, len), 0);
    ck_assert_int_eq(toolgov_text_shown_write(f, text, len, 0), 0);
    n = written(f, got, sizeof got);
    ck_assert_uint_eq(n, need);
    ck_assert_str_eq(got, want);

    /* Lines: "one\x1b\n\n" then the long text: breaks kept, lines shown. */
    fclose(f);
    f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(toolgov_text_shown_write(f, "one\x1b\n\ntwo\xe2\x80\xae\n", 13,
                                              TOOLGOV_SHOWN_LINES), 0);
    ck_assert_int_eq(toolgov_text_shown_write(f, text, len, TOOLGOV_SHOWN_LINES), 0);
    n = written(f, got, sizeof got);
    ck_assert_uint_eq(n, 19 + need);
    ck_assert(memcmp(got, "one\\x1b\n\ntwo\\u202e\n", 19) == 0);
    ck_assert_str_eq(got + 19, want);
    ck_assert_int_eq(toolgov_text_shown_write(NULL, "x", 1, 0), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_text_shown_write(f, NULL, 1, 0), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_text_shown_write(f, NULL, 0, 0), 0);
    fclose(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("registry");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, builtins_declared_in_code);
    tcase_add_test(tc, mount_gives_declared_spec);
    tcase_add_test(tc, refusals_leave_rows);
    tcase_add_test(tc, registration_return_codes);
    tcase_add_test(tc, declare_tool_for_own_loop);
    tcase_add_test(tc, provides_tool_with_nothing_registered);
    tcase_add_test(tc, abi_mismatch_and_failing_register_fn);
    tcase_add_test(tc, bind_builtin_only_builtins);
    tcase_add_test(tc, malformed_descriptors_refused);
    tcase_add_test(tc, ten_thousand_tools_all_found);
    tcase_add_test(tc, strerror_every_code);
    tcase_add_test(tc, result_buffer_functions);
    tcase_add_test(tc, second_mount_of_a_plugin_refused);
    tcase_add_test(tc, builtin_owner_is_core);
    tcase_add_test(tc, mount_revalidates_every_spec);
    tcase_add_test(tc, hostile_argument_tables_refused);
    tcase_add_test(tc, hand_built_table_mounts);
    tcase_add_test(tc, zeroed_spec_gets_defaults);
    tcase_add_test(tc, text_shown_escapes_hidden_characters);
    tcase_add_test(tc, text_shown_write_is_text_shown);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
