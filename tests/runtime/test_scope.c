/* SPDX-License-Identifier: MIT */
/*
** test_scope.c: what a yes covers (confirmation scope run | listed, the
** TOOLGOV_CONFIRM_SCOPE variable), canonical arguments in the gate and in
** batches, a plugin's own loop run through a child run, and the listing of
** what became of a plugin's declared tools.
**
** The plugin "desk" is written the way generated code would be, with
** declared parameters (an object with a required integer "id"), so every
** comparison in these tests is of canonical text:
**   note_add (write, once), wipe (destructive), peek (read),
**   sweep (read: its handler runs the plugin's own loop)
**   declared for the own loop only: own_note (write, once),
**   own_wipe (destructive), own_sum (read, answers directly)
*/
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixture.h"
#include <toolgov/audit.h>

/* ---- the desk plugin ---- */

typedef struct desk_args {
    int64_t id;
} desk_args;

static const toolgov_arg_schema desk_id_node = {
    TOOLGOV_ARG_INTEGER, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
    0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED,
    NULL, 0, 0, 0u, NULL, 0};

static const toolgov_arg_field desk_fields[] = {
    {"id", 2, &desk_id_node, offsetof(desk_args, id), TOOLGOV_ARG_NO_HAS, 1, NULL}};

static const toolgov_arg_schema desk_params = {
    TOOLGOV_ARG_OBJECT, TOOLGOV_ARG_F_CLOSED, 0, TOOLGOV_ARG_UNBOUNDED,
    TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0,
    TOOLGOV_ARG_UNBOUNDED, desk_fields, 1, sizeof(desk_args), 0u, NULL, 0};

#define DESK_SCHEMA                                                                         \
    "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"integer\"}},\"required\":[\"id\"],"        \
    "\"additionalProperties\":false}"

static const toolgov_tool_spec desk_tools[] = {
    {sizeof(toolgov_tool_spec), "note_add", "Add a note.", TOOLGOV_EFFECT_WRITE,
     TOOLGOV_CONFIRM_ONCE, "", 0, 0, 3, 3, &desk_params, DESK_SCHEMA},
    {sizeof(toolgov_tool_spec), "wipe", "Wipe a note.", TOOLGOV_EFFECT_DESTRUCTIVE,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 6, 3, &desk_params, DESK_SCHEMA},
    {sizeof(toolgov_tool_spec), "peek", "Read a note.", TOOLGOV_EFFECT_READ,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 9, 3, &desk_params, DESK_SCHEMA},
    {sizeof(toolgov_tool_spec), "sweep", "Tidy the desk in its own loop.", TOOLGOV_EFFECT_READ,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 12, 3, &desk_params, DESK_SCHEMA},
    {sizeof(toolgov_tool_spec), "own_note", "Own loop: add a note.", TOOLGOV_EFFECT_WRITE,
     TOOLGOV_CONFIRM_ONCE, "", 0, 0, 15, 3, &desk_params, DESK_SCHEMA},
    {sizeof(toolgov_tool_spec), "own_wipe", "Own loop: wipe a note.",
     TOOLGOV_EFFECT_DESTRUCTIVE, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 18, 3, &desk_params,
     DESK_SCHEMA},
    {sizeof(toolgov_tool_spec), "own_sum", "Own loop: sum up.", TOOLGOV_EFFECT_READ,
     TOOLGOV_CONFIRM_NEVER, "", 0, 1, 21, 3, &desk_params, DESK_SCHEMA},
};

/* What the own loop inside sweep's handler saw. */
typedef struct own_log {
    int rc[4];
    toolgov_gate gate[4];
    int child_rc;
    int ended_in_child;
    int approve_busy_rc; /* approving on the busy parent from its own handler */
} own_log;

static const toolgov_tool_spec *own_note, *own_wipe, *own_sum;
static int handled[16];

static int desk_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    const desk_args *a = args;

    handled[0]++;
    return toolgov_result_printf(out, "%s %lld", call->tool, (long long)a->id);
}

static int own_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    const desk_args *a = args;

    handled[15]++;
    return toolgov_result_printf(out, "own %s %lld", call->tool, (long long)a->id);
}

/* sweep: the plugin's own loop, through a child of the run it was called
** in: a write, a destructive call, then an answers-directly read. */
static int sweep_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    own_log *log = call->run_ctx;
    toolgov_run *child = NULL;
    toolgov_outcome oc;

    (void)args;
    log->approve_busy_rc = toolgov_run_approve(call->run, "own_wipe", "{\"id\":99}");
    log->child_rc = toolgov_run_child_new(&child, call->run, NULL);
    if (log->child_rc < 0)
        return log->child_rc;
    log->rc[0] = toolgov_run_invoke_declared(&oc, child, own_note, own_handler, "{\"id\": 7}");
    log->gate[0] = oc.gate;
    log->rc[1] = toolgov_run_invoke_declared(&oc, child, own_wipe, own_handler, "{\"id\":8}");
    log->gate[1] = oc.gate;
    log->rc[2] = toolgov_run_invoke_declared(&oc, child, own_sum, own_handler, "{\"id\":9}");
    log->gate[2] = oc.gate;
    log->ended_in_child = oc.ended;
    log->rc[3] = toolgov_run_invoke_declared(&oc, child, own_sum, own_handler, "{\"id\":10}");
    log->gate[3] = oc.gate;
    toolgov_run_free(child);
    return toolgov_result_printf(out, "swept");
}

static int desk_register(toolgov_plugin_api *api)
{
    int rc = 0;

    rc |= toolgov_register_tool(api, "note_add", "", desk_handler);
    rc |= toolgov_register_tool(api, "wipe", "", desk_handler);
    rc |= toolgov_register_tool(api, "peek", "", desk_handler);
    rc |= toolgov_register_tool(api, "sweep", "", sweep_handler);
    rc |= toolgov_declare_tool(api, "own_note", &own_note);
    rc |= toolgov_declare_tool(api, "own_wipe", &own_wipe);
    rc |= toolgov_declare_tool(api, "own_sum", &own_sum);
    return rc;
}

static const toolgov_plugin desk = {
    TOOLGOV_ABI_VERSION, "desk", "desk.yaml", NULL, 0, desk_tools,
    sizeof desk_tools / sizeof desk_tools[0], desk_register};

typedef struct denv {
    toolgov_registry *reg;
    toolgov_policy *pol;
    toolgov_run *run;
    own_log log;
} denv;

static void denv_open(denv *e, toolgov_confirm_scope scope)
{
    memset(e, 0, sizeof *e);
    memset(handled, 0, sizeof handled);
    ck_assert_int_eq(toolgov_registry_new(&e->reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(e->reg, &desk, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&e->pol, e->reg), 0);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope(e->pol, scope), 0);
    ck_assert_int_eq(toolgov_run_new(&e->run, e->pol, &e->log), 0);
}

static void denv_close(denv *e)
{
    toolgov_run_free(e->run);
    toolgov_policy_free(e->pol);
    toolgov_registry_free(e->reg);
}

/* ---- the scope setting ---- */

START_TEST(scope_from_text)
{
    denv e;
    const toolgov_drift_row *r;
    char text[512];
    unsigned long long fp_run;

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_RUN);
    fp_run = toolgov_policy_fingerprint(e.pol);
    ck_assert_int_eq(toolgov_policy_confirm_scope(e.pol), TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope_text(e.pol, " listed\n"), 0);
    ck_assert_int_eq(toolgov_policy_confirm_scope(e.pol), TOOLGOV_CONFIRM_SCOPE_LISTED);
    /* saved state of one scope is not restored under the other */
    ck_assert(toolgov_policy_fingerprint(e.pol) != fp_run);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope_text(e.pol, "run"), 0);
    ck_assert(toolgov_policy_fingerprint(e.pol) == fp_run);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope_text(e.pol, NULL), 0);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope_text(e.pol, " "), 0);
    ck_assert_int_eq(toolgov_policy_confirm_scope(e.pol), TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_drift_count(e.reg, e.pol), 0);

    /* a bad value: refused, one located row, scope unchanged */
    ck_assert_int_eq(toolgov_policy_set_confirm_scope_text(e.pol, "listed"), 0);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope_text(e.pol, "Listed\nx"), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_policy_confirm_scope(e.pol), TOOLGOV_CONFIRM_SCOPE_LISTED);
    ck_assert_int_eq(toolgov_drift_count(e.reg, e.pol), 1);
    r = toolgov_drift_at(e.reg, e.pol, 0);
    ck_assert_int_eq(r->kind, TOOLGOV_DRIFT_SETTING_INVALID);
    ck_assert_str_eq(toolgov_drift_kind_name(r->kind), "setting_invalid");
    ck_assert_str_eq(r->message,
                     "TOOLGOV_CONFIRM_SCOPE is \"Listed\nx\", which it may not be: set it to "
                     "run (one yes covers the run's writes) or listed (a yes covers the "
                     "calls it listed)");
    /* the panel keeps it on one line */
    ck_assert_int_eq(toolgov_drift_render_text(text, sizeof text, NULL, e.reg, e.pol), 0);
    ck_assert_ptr_nonnull(strstr(text, "override: setting_invalid: TOOLGOV_CONFIRM_SCOPE is "
                                       "\"Listed\\x0ax\""));
    ck_assert_ptr_eq(strchr(text, '\n'), text + strlen(text) - 1);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope_text(e.pol, "nope"), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_drift_count(e.reg, e.pol), 1);
    /* a good value clears the row */
    ck_assert_int_eq(toolgov_policy_set_confirm_scope_text(e.pol, "run"), 0);
    ck_assert_int_eq(toolgov_drift_count(e.reg, e.pol), 0);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope(e.pol, (toolgov_confirm_scope)2),
                     TOOLGOV_EINVAL);
    ck_assert_str_eq(toolgov_confirm_scope_name(TOOLGOV_CONFIRM_SCOPE_LISTED), "listed");
    ck_assert_str_eq(toolgov_confirm_scope_name((toolgov_confirm_scope)9), "unknown");
    denv_close(&e);
}
END_TEST

START_TEST(scope_from_environment)
{
    denv e;

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(setenv(TOOLGOV_CONFIRM_SCOPE_ENV, "listed", 1), 0);
    ck_assert_int_eq(setenv(TOOLGOV_CONFIRM_ONCE_ENV, "peek", 1), 0);
    ck_assert_int_eq(toolgov_policy_override_from_env(e.pol), 0);
    ck_assert_int_eq(toolgov_policy_confirm_scope(e.pol), TOOLGOV_CONFIRM_SCOPE_LISTED);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(e.pol, "peek"), 1);
    /* a bad scope: neither variable is applied */
    ck_assert_int_eq(setenv(TOOLGOV_CONFIRM_SCOPE_ENV, "lsted", 1), 0);
    ck_assert_int_eq(setenv(TOOLGOV_CONFIRM_ONCE_ENV, "none", 1), 0);
    ck_assert_int_eq(toolgov_policy_override_from_env(e.pol), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_policy_confirm_scope(e.pol), TOOLGOV_CONFIRM_SCOPE_LISTED);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(e.pol, "note_add"), 1);
    ck_assert_int_eq(toolgov_drift_count(e.reg, e.pol), 1);
    /* unset: the default */
    ck_assert_int_eq(unsetenv(TOOLGOV_CONFIRM_SCOPE_ENV), 0);
    ck_assert_int_eq(unsetenv(TOOLGOV_CONFIRM_ONCE_ENV), 0);
    ck_assert_int_eq(toolgov_policy_override_from_env(e.pol), 0);
    ck_assert_int_eq(toolgov_policy_confirm_scope(e.pol), TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_drift_count(e.reg, e.pol), 0);
    denv_close(&e);
}
END_TEST

/* ---- scope run: one yes covers every write of the run ---- */

START_TEST(scope_run_covers_unlisted_writes)
{
    denv e;
    toolgov_outcome oc;
    const toolgov_proposed_call one[] = {{"note_add", "{\"id\":1}"}};

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", "{\"id\":1}"), TOOLGOV_ECONFIRM);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, one, 1), 0);
    ck_assert_int_eq(toolgov_run_confirmation(e.run), TOOLGOV_CONFIRMATION_GIVEN);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", "{\"id\":1}"), 0);
    /* the seed's rule: writes nobody listed run too */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", "{\"id\":2}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", "{\"id\":1}"), 0);
    denv_close(&e);
}
END_TEST

/* ---- scope listed ---- */

START_TEST(scope_listed_covers_exactly_the_listed_calls)
{
    denv e;
    toolgov_outcome oc;
    toolgov_gate all, per[3];
    size_t idx[3], n = 9;
    const toolgov_proposed_call batch[] = {
        {"note_add", "{\"id\":1}"}, {"peek", "{\"id\":5}"}, {"note_add", "{\"id\":2}"}};
    /* the same two calls, spelt otherwise, as a host might re-serialise them */
    const toolgov_proposed_call listed[] = {{"note_add", "{ \"id\" : 1 }"},
                                            {"note_add", "{\"id\":2.0}"}};

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_LISTED);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, idx, &n, e.run, batch, 3), 0);
    ck_assert_int_eq(all, TOOLGOV_GATE_ASK_FIRST);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(idx[0], 0);
    ck_assert_uint_eq(idx[1], 2);
    /* a bare yes cannot say what it covers */
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, listed, 2), 0);
    ck_assert_int_eq(toolgov_run_confirmation(e.run), TOOLGOV_CONFIRMATION_PENDING);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, idx, &n, e.run, batch, 3), 0);
    ck_assert_int_eq(all, TOOLGOV_GATE_ALLOW);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(toolgov_run_gate(e.run, "note_add", "{\"id\":1}"), TOOLGOV_GATE_ALLOW);
    /* a write nobody listed asks */
    ck_assert_int_eq(toolgov_run_gate(e.run, "note_add", "{\"id\":3}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", "{\"id\":3}"), TOOLGOV_ECONFIRM);
    /* each listed call runs once */
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", "{\"id\":1}"), 0);
    ck_assert_str_eq(oc.output, "note_add 1");
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", "{\"id\":1}"), TOOLGOV_ECONFIRM);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", " {\"id\":2}"), 0);
    ck_assert_int_eq(toolgov_run_gate(e.run, "note_add", "{\"id\":2}"), TOOLGOV_GATE_ASK_FIRST);
    denv_close(&e);
}
END_TEST

START_TEST(scope_listed_no_refuses_the_listed_calls_only)
{
    denv e;
    toolgov_outcome oc;
    const toolgov_proposed_call listed[] = {{"note_add", "{\"id\":1}"}};
    const toolgov_proposed_call bad_args[] = {{"note_add", "{\"id\":2}"},
                                              {"note_add", "{\"id\":\"x\"}"}};
    const toolgov_proposed_call unknown[] = {{"note_add", "{\"id\":2}"}, {"nope", "{}"}};
    const toolgov_proposed_call again[] = {{"note_add", "{\"id\":2}"}};

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_LISTED);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 0, listed, 1), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "note_add", "{ \"id\":1}"), TOOLGOV_EREFUSED);
    ck_assert_int_eq(toolgov_run_gate(e.run, "note_add", "{\"id\":2}"), TOOLGOV_GATE_ASK_FIRST);
    /* nothing is recorded unless everything is */
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, bad_args, 2), TOOLGOV_EARGS);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, unknown, 2), TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_run_gate(e.run, "note_add", "{\"id\":2}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, again, 1), 0);
    ck_assert_int_eq(toolgov_run_gate(e.run, "note_add", "{\"id\":2}"), TOOLGOV_GATE_ALLOW);
    /* a run-wide no refuses every write, also the confirmed one */
    ck_assert_int_eq(toolgov_run_confirm(e.run, 0), 0);
    ck_assert_int_eq(toolgov_run_gate(e.run, "note_add", "{\"id\":2}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, again, 1), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 0, again, 1), 0);
    ck_assert_int_eq(handled[0], 0);
    denv_close(&e);
}
END_TEST

/* One listed confirmation, the same call twice in a batch: the second
** asks, spelt the same or otherwise. */
START_TEST(scope_listed_batch_counts_entries)
{
    denv e;
    toolgov_gate all, per[3];
    size_t idx[3], n = 0;
    const toolgov_proposed_call one[] = {{"note_add", "{\"id\":1}"}};
    const toolgov_proposed_call batch[] = {
        {"note_add", "{\"id\":1}"}, {"note_add", "{\"id\": 1}"}, {"note_add", "{\"id\":1}"}};

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_LISTED);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, one, 1), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, idx, &n, e.run, batch, 3), 0);
    ck_assert_int_eq(per[0], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(per[2], TOOLGOV_GATE_ASK_FIRST);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(idx[0], 1);
    /* listed twice: runs twice */
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, one, 1), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, idx, &n, e.run, batch, 3), 0);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[2], TOOLGOV_GATE_ASK_FIRST);
    denv_close(&e);
}
END_TEST

/* ---- canonical arguments in the gate and in batches ---- */

START_TEST(gate_compares_canonical_arguments)
{
    denv e;
    toolgov_gate all, per[3];
    const toolgov_proposed_call batch[] = {
        {"wipe", "{\"id\":1}"}, {"wipe", "{ \"id\": 1.0 }"}, {"wipe", "{\"id\":2}"}};

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_run_approve(e.run, "wipe", "{\"id\":1}"), 0);
    ck_assert_int_eq(toolgov_run_gate(e.run, "wipe", "{\"id\":1}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(e.run, "wipe", "\t{ \"id\" : 1 }\n"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(e.run, "wipe", "{\"id\":2}"),
                     TOOLGOV_GATE_NEEDS_APPROVAL);
    /* a text that does not decode matches nothing */
    ck_assert_int_eq(toolgov_run_gate(e.run, "wipe", "{\"id\":\"1\"}"),
                     TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(toolgov_run_gate(e.run, "wipe", "{\"id\":1"), TOOLGOV_GATE_NEEDS_APPROVAL);
    /* one approval, two spellings of the call in one batch: the second waits */
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, NULL, NULL, e.run, batch, 3), 0);
    ck_assert_int_eq(per[0], TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(per[2], TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(toolgov_run_approve(e.run, "wipe", "{\"id\" :1}"), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, NULL, NULL, e.run, batch, 3), 0);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_ALLOW);
    denv_close(&e);
}
END_TEST

/* The gate never disturbs the run's current decoded call. */
START_TEST(gate_keeps_the_current_decoded_call)
{
    denv e;
    toolgov_decoded_call dc;
    toolgov_outcome oc;

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_run_approve(e.run, "wipe", "{\"id\":1}"), 0);
    ck_assert_int_eq(toolgov_run_decode(&dc, e.run, "wipe", "{\"id\":1}", 8), 0);
    ck_assert_int_eq(toolgov_run_gate(e.run, "wipe", "{ \"id\": 3 }"),
                     TOOLGOV_GATE_NEEDS_APPROVAL);
    ck_assert_int_eq(toolgov_run_gate_decoded(e.run, &dc), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke_decoded(&oc, e.run, &dc), 0);
    ck_assert_str_eq(oc.output, "wipe 1");
    denv_close(&e);
}
END_TEST

/* ---- saved state under scope listed ---- */

START_TEST(scope_listed_state_round_trip)
{
    denv a, b;
    toolgov_state_key key;
    toolgov_run *other = NULL;
    toolgov_policy *pol_run = NULL;
    char text[2048];
    size_t need = 0;
    const toolgov_proposed_call yes[] = {{"note_add", "{\"id\":1}"}};
    const toolgov_proposed_call no[] = {{"note_add", "{\"id\":2}"}};

    ck_assert_int_eq(toolgov_state_key_generate(&key), 0);
    denv_open(&a, TOOLGOV_CONFIRM_SCOPE_LISTED);
    denv_open(&b, TOOLGOV_CONFIRM_SCOPE_LISTED);
    ck_assert_int_eq(toolgov_run_confirm_listed(a.run, 1, yes, 1), 0);
    ck_assert_int_eq(toolgov_run_confirm_listed(a.run, 0, no, 1), 0);
    ck_assert_int_eq(toolgov_run_save(text, sizeof text, &need, a.run, &key), 0);
    ck_assert_ptr_nonnull(strstr(text, "confirmed 4:desk 8:note_add 8:{\"id\":1}\n"));
    ck_assert_ptr_nonnull(strstr(text, "declined 4:desk 8:note_add 8:{\"id\":2}\n"));
    ck_assert_int_eq(toolgov_run_set_id(b.run, toolgov_run_id(a.run)), 0);
    ck_assert_int_eq(toolgov_run_restore(b.run, text, need, &key), 0);
    ck_assert_int_eq(toolgov_run_gate(b.run, "note_add", "{\"id\":1}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_gate(b.run, "note_add", "{\"id\":2}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_gate(b.run, "note_add", "{\"id\":3}"), TOOLGOV_GATE_ASK_FIRST);
    /* not under scope run */
    ck_assert_int_eq(toolgov_policy_new(&pol_run, b.reg), 0);
    ck_assert_int_eq(toolgov_run_new(&other, pol_run, NULL), 0);
    ck_assert_int_eq(toolgov_run_set_id(other, toolgov_run_id(a.run)), 0);
    ck_assert_int_eq(toolgov_run_restore(other, text, need, &key), TOOLGOV_ESTATE);
    toolgov_run_free(other);
    toolgov_policy_free(pol_run);
    denv_close(&b);
    denv_close(&a);
}
END_TEST

/* ---- a plugin's own loop ---- */

/* Inside sweep's handler, under scope run: the child's write asks because
** the parent's run has no yes yet; its destructive call needs an approval;
** its answers-directly first tool ends the child, not the parent. */
START_TEST(own_loop_asks_through_the_parent)
{
    denv e;
    toolgov_outcome oc;

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "sweep", "{\"id\":0}"), 0);
    ck_assert_int_eq(e.log.child_rc, 0);
    ck_assert_int_eq(e.log.approve_busy_rc, TOOLGOV_EINVAL);
    ck_assert_int_eq(e.log.rc[0], TOOLGOV_ECONFIRM);
    ck_assert_int_eq(e.log.gate[0], TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(e.log.rc[1], TOOLGOV_EAPPROVAL);
    ck_assert_int_eq(e.log.rc[2], 0);
    ck_assert_int_eq(e.log.ended_in_child, 1);
    ck_assert_int_eq(e.log.rc[3], TOOLGOV_EENDED);
    ck_assert_int_eq(handled[15], 1);
    ck_assert_int_eq(toolgov_run_end_reason(e.run), TOOLGOV_END_NONE);

    /* the user says yes for the run and approves the own loop's wipe: the
    ** next sweep runs both, the approval is used up once */
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
    ck_assert_int_eq(toolgov_run_approve(e.run, "own_wipe", "{ \"id\": 8 }"), 0);
    ck_assert_uint_eq(toolgov_run_pending_approvals(e.run), 1);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "sweep", "{\"id\":0}"), 0);
    ck_assert_int_eq(e.log.rc[0], 0);
    ck_assert_int_eq(e.log.rc[1], 0);
    ck_assert_int_eq(e.log.gate[1], TOOLGOV_GATE_ALLOW);
    ck_assert_uint_eq(toolgov_run_pending_approvals(e.run), 0);
    /* own_note ran first in this child, so own_sum is one step, not the end */
    ck_assert_int_eq(e.log.ended_in_child, 0);
    ck_assert_int_eq(e.log.rc[3], 0);
    ck_assert_int_eq(handled[15], 5);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "sweep", "{\"id\":0}"), 0);
    ck_assert_int_eq(e.log.rc[1], TOOLGOV_EAPPROVAL);
    denv_close(&e);
}
END_TEST

/* A child made by the host: answers given to either run are the family's;
** a no in the parent refuses the child's writes; ending. */
START_TEST(own_loop_child_shares_and_ends)
{
    denv e;
    toolgov_run *child = NULL, *grandchild = NULL;
    toolgov_outcome oc;
    toolgov_state_key key;
    char text[256];
    size_t need;

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_run_child_new(&child, e.run, NULL), 0);
    ck_assert_ptr_eq(toolgov_run_parent(child), e.run);
    ck_assert_ptr_null(toolgov_run_parent(e.run));
    /* declared tools run only through a child, only with their own spec */
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, e.run, own_note, own_handler, "{\"id\":1}"),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, child, &desk_tools[0], own_handler,
                                                 "{\"id\":1}"),
                     TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, child, own_note, own_handler, "{\"id\":\"x\"}"),
                     TOOLGOV_EARGS);
    ck_assert_str_eq(oc.output, "own_note: /id must be an integer, got \"x\"");
    /* a child's gate knows the declared names; the parent's pool does not */
    ck_assert_int_eq(toolgov_run_gate(child, "own_note", "{\"id\":1}"), TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_gate(e.run, "own_note", "{\"id\":1}"), TOOLGOV_GATE_REFUSE);
    /* the child's yes is the parent's */
    ck_assert_int_eq(toolgov_run_confirm(child, 1), 0);
    ck_assert_int_eq(toolgov_run_confirmation(e.run), TOOLGOV_CONFIRMATION_GIVEN);
    ck_assert_int_eq(toolgov_run_gate(e.run, "note_add", "{\"id\":1}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, child, own_note, own_handler, "{\"id\":1}"),
                     0);
    ck_assert_str_eq(oc.output, "own own_note 1");
    /* pooled tools through the child too */
    ck_assert_int_eq(toolgov_run_invoke(&oc, child, "peek", "{\"id\":4}"), 0);
    /* an approval given to the child is used by the parent */
    ck_assert_int_eq(toolgov_run_approve(child, "wipe", "{\"id\":2}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, e.run, "wipe", "{\"id\":2}"), 0);
    ck_assert_int_eq(toolgov_run_invoke(&oc, child, "wipe", "{\"id\":2}"), TOOLGOV_EAPPROVAL);
    /* a child is not saved or restored on its own */
    ck_assert_int_eq(toolgov_state_key_generate(&key), 0);
    ck_assert_int_eq(toolgov_run_save(text, sizeof text, &need, child, &key), TOOLGOV_EINVAL);
    /* a grandchild shares the same answers; ending the parent ends them all */
    ck_assert_int_eq(toolgov_run_child_new(&grandchild, child, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(grandchild, "own_note", "{\"id\":5}"), TOOLGOV_GATE_ALLOW);
    ck_assert_int_eq(toolgov_run_end_reason(grandchild), TOOLGOV_END_NONE);
    ck_assert_int_eq(toolgov_run_end(e.run), 0);
    ck_assert_int_eq(toolgov_run_end_reason(grandchild), TOOLGOV_END_HOST);
    ck_assert_int_eq(toolgov_run_end(child), TOOLGOV_EENDED);
    ck_assert_int_eq(toolgov_run_gate(child, "peek", "{\"id\":1}"), TOOLGOV_GATE_REFUSE);
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, grandchild, own_note, own_handler,
                                                 "{\"id\":5}"),
                     TOOLGOV_EENDED);
    ck_assert_int_eq(toolgov_run_confirm(child, 1), TOOLGOV_EENDED);
    toolgov_run_free(grandchild);
    toolgov_run_free(child);
    ck_assert_int_eq(toolgov_run_child_new(NULL, e.run, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_child_new(&child, NULL, NULL), TOOLGOV_EINVAL);
    denv_close(&e);
}
END_TEST

/* The own loop's decisions reach the parent's observer, with the declared
** tool's plugin and effect. */
typedef struct seen_events {
    int executed_own;
    int asked_own;
    char plugin[16];
} seen_events;

static int observe(void *ud, const toolgov_audit_event *ev)
{
    seen_events *se = ud;

    if (ev->tool && strcmp(ev->tool, "own_note") == 0) {
        se->executed_own += ev->kind == TOOLGOV_AUDIT_EXECUTED;
        se->asked_own += ev->kind == TOOLGOV_AUDIT_CONFIRM_ASKED;
        snprintf(se->plugin, sizeof se->plugin, "%s", ev->plugin ? ev->plugin : "");
    }
    return 0;
}

START_TEST(own_loop_reports_to_the_parents_observer)
{
    denv e;
    toolgov_run *child = NULL;
    toolgov_outcome oc;
    seen_events se;
    toolgov_audit_options opt;

    memset(&se, 0, sizeof se);
    memset(&opt, 0, sizeof opt);
    opt.observer = observe;
    opt.ud = &se;
    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_RUN);
    ck_assert_int_eq(toolgov_run_set_audit(e.run, &opt), 0);
    ck_assert_int_eq(toolgov_run_child_new(&child, e.run, NULL), 0);
    ck_assert_int_eq(toolgov_run_set_audit(child, &opt), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, child, own_note, own_handler, "{\"id\":1}"),
                     TOOLGOV_ECONFIRM);
    ck_assert_int_eq(toolgov_run_confirm(e.run, 1), 0);
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, child, own_note, own_handler, "{\"id\":1}"),
                     0);
    ck_assert_int_eq(se.asked_own, 1);
    ck_assert_int_eq(se.executed_own, 1);
    ck_assert_str_eq(se.plugin, "desk");
    toolgov_run_free(child);
    denv_close(&e);
}
END_TEST

/* Under scope listed, the own loop's write runs when the question listed it. */
START_TEST(own_loop_under_scope_listed)
{
    denv e;
    toolgov_run *child = NULL;
    toolgov_outcome oc;
    toolgov_gate all;
    size_t idx[2], n = 0;
    const toolgov_proposed_call calls[] = {{"own_note", "{\"id\":1}"},
                                           {"own_note", "{\"id\":2}"}};

    denv_open(&e, TOOLGOV_CONFIRM_SCOPE_LISTED);
    ck_assert_int_eq(toolgov_run_child_new(&child, e.run, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, NULL, idx, &n, child, calls, 2), 0);
    ck_assert_int_eq(all, TOOLGOV_GATE_ASK_FIRST);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(toolgov_run_confirm_listed(e.run, 1, calls, 1), 0);
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, child, own_note, own_handler, "{\"id\":1}"),
                     0);
    ck_assert_int_eq(toolgov_run_invoke_declared(&oc, child, own_note, own_handler, "{\"id\":2}"),
                     TOOLGOV_ECONFIRM);
    toolgov_run_free(child);
    denv_close(&e);
}
END_TEST

/* ---- which declared tools made it into the pool ---- */

START_TEST(plugin_tools_listed_with_their_fate)
{
    toolgov_registry *reg = NULL;
    toolgov_plugin_tool pt;
    static const char *const want[][3] = {
        {"beta_read", "pooled", NULL},
        {"lookup", "duplicate", "alpha"},
        {"ask_user", "duplicate", "core"},
        {"forgotten", "never_registered", NULL},
    };
    size_t i;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_alpha, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_beta, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &desk, NULL), 0);
    ck_assert_uint_eq(toolgov_registry_plugin_tool_count(reg, "beta"), 4);
    for (i = 0; i < 4; i++) {
        ck_assert_int_eq(toolgov_registry_plugin_tool_at(&pt, reg, "beta", i), 0);
        ck_assert_str_eq(pt.spec->name, want[i][0]);
        ck_assert_str_eq(toolgov_tool_status_name(pt.status), want[i][1]);
        if (want[i][2])
            ck_assert_str_eq(pt.owner, want[i][2]);
        else
            ck_assert_ptr_null(pt.owner);
    }
    ck_assert_int_eq(toolgov_registry_plugin_tool_at(&pt, reg, "beta", 4), TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_registry_plugin_tool_at(&pt, reg, "desk", 4), 0);
    ck_assert_int_eq(pt.status, TOOLGOV_TOOL_OWN_LOOP);
    ck_assert_int_eq(toolgov_registry_plugin_tool_at(&pt, reg, "desk", 3), 0);
    ck_assert_int_eq(pt.status, TOOLGOV_TOOL_POOLED);
    ck_assert_uint_eq(toolgov_registry_plugin_tool_count(reg, "alpha"), 7);
    /* a plugin that is not mounted, and a mount that failed as a whole */
    ck_assert_uint_eq(toolgov_registry_plugin_tool_count(reg, "nope"), 0);
    ck_assert_int_eq(toolgov_registry_plugin_tool_at(&pt, reg, "nope", 0), TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_broken, NULL), TOOLGOV_EFAIL);
    ck_assert_uint_eq(toolgov_registry_plugin_tool_count(reg, "broken"), 0);
    ck_assert_int_eq(toolgov_registry_plugin_tool_at(NULL, reg, "beta", 0), TOOLGOV_EINVAL);
    ck_assert_str_eq(toolgov_tool_status_name((toolgov_tool_status)7), "unknown");
    toolgov_registry_free(reg);
}
END_TEST

/* A plugin whose every registration was refused is mounted all the same:
** a second mount of it is refused as a whole, with one row. */
START_TEST(refused_plugin_cannot_be_mounted_twice)
{
    toolgov_registry *reg = NULL;
    size_t rows;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_gamma, NULL), 0);
    rows = toolgov_drift_count(reg, NULL);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_gamma, NULL), TOOLGOV_EEXIST);
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), rows + 1);
    ck_assert_str_eq(toolgov_drift_at(reg, NULL, rows)->message,
                     "plugin gamma is already mounted: the second mount is refused");
    toolgov_registry_free(reg);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("scope");
    TCase *tc = tcase_create("scope");

    tcase_add_test(tc, scope_from_text);
    tcase_add_test(tc, scope_from_environment);
    tcase_add_test(tc, scope_run_covers_unlisted_writes);
    tcase_add_test(tc, scope_listed_covers_exactly_the_listed_calls);
    tcase_add_test(tc, scope_listed_no_refuses_the_listed_calls_only);
    tcase_add_test(tc, scope_listed_batch_counts_entries);
    tcase_add_test(tc, gate_compares_canonical_arguments);
    tcase_add_test(tc, gate_keeps_the_current_decoded_call);
    tcase_add_test(tc, scope_listed_state_round_trip);
    tcase_add_test(tc, own_loop_asks_through_the_parent);
    tcase_add_test(tc, own_loop_child_shares_and_ends);
    tcase_add_test(tc, own_loop_under_scope_listed);
    tcase_add_test(tc, own_loop_reports_to_the_parents_observer);
    tcase_add_test(tc, plugin_tools_listed_with_their_fate);
    tcase_add_test(tc, refused_plugin_cannot_be_mounted_twice);
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
