/* SPDX-License-Identifier: MIT */
/*
** test_alloc_runtime.c: the runtime's allocations as the C library sees them.
**
** tests/runtime/test_alloc.c fails every allocation made through the
** toolgov_allocator hook. This suite covers what a hook cannot see, with
** failalloc.c underneath the whole process:
**   - with a hook installed, the runtime calls the C library's allocator
**     not once (everything goes through the hook, so a host's allocator
**     really is the only one);
**   - with no hook (alloc NULL: the C library's allocator), failing the
**     N-th malloc for every N gives TOOLGOV_ENOMEM from the call that met
**     it and leaks nothing once everything is freed;
**   - the calls the runtime promises never allocate (gate decisions,
**     lookup, selection, rendering, saving) make no allocation at all.
*/
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/drift.h>
#include <toolgov/prompt.h>
#include <toolgov/shortlist.h>

#include "failalloc.h"
#include "fuzz_runtime_fixture.h"

/* The key run state is saved and restored under. */
static const toolgov_state_key state_key = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                             1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};

extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);

/* A hook that goes straight to glibc, past failalloc, and counts. */
static unsigned long hook_calls;
static void *direct_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)osize;
    hook_calls++;
    if (nsize == 0) {
        __libc_free(ptr);
        return NULL;
    }
    return __libc_realloc(ptr, nsize);
}

/* Check's assertions allocate (they report to the parent process), so no
** ck_assert runs while failalloc is armed: a step that goes wrong records
** why here, and the test asserts on it once the allocator is disarmed. */
static char step_error[512];

/* One step: the expected result, or TOOLGOV_ENOMEM when the injected
** failure happened inside it, which ends the scenario. */
#define STEP(expect, expr)                                                      \
    do {                                                                        \
        int was_ = failalloc_injected();                                        \
        int rc_ = (expr);                                                       \
        if (rc_ == (expect))                                                    \
            break;                                                              \
        if (!was_ && failalloc_injected() && rc_ == TOOLGOV_ENOMEM)             \
            goto out;                                                           \
        if (step_error[0] == '\0')                                              \
            snprintf(step_error, sizeof step_error, "%s: got %d, want %d%s", #expr, \
                     rc_, (expect), failalloc_injected() ? " (after a failed malloc)" : ""); \
        goto out;                                                               \
    } while (0)

static const char *const loop_tools[] = {"lookup", "create_note", "digest", "wipe"};
static const char *const ranking[] = {"lookup", "skill_one", "wipe"};

/* Everything a host does in a run. Returns 1 when it ran to the end. */
static int scenario(const toolgov_allocator *alloc)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL, *run2 = NULL;
    toolgov_shortlist *sl = NULL;
    toolgov_outcome oc;
    char buf[8192];
    size_t len = 0;
    int completed = 0;

    STEP(0, toolgov_registry_new(&reg, alloc));
    STEP(0, toolgov_registry_mount(reg, &fixture_plugin, NULL));
    STEP(0, toolgov_registry_bind_builtin(reg, "memory_search", fixture_handler, NULL));
    STEP(0, toolgov_policy_new(&pol, reg));
    STEP(0, toolgov_policy_set_override(pol, "none, create_note, no_such_tool"));
    STEP(0, toolgov_run_new(&run, pol, NULL));
    STEP(0, toolgov_run_invoke(&oc, run, "lookup", "{}"));
    STEP(TOOLGOV_ECONFIRM, toolgov_run_invoke(&oc, run, "create_note", "{}"));
    STEP(0, toolgov_run_confirm(run, 1));
    STEP(0, toolgov_run_invoke(&oc, run, "create_note", "{\"n\":1}"));
    STEP(0, toolgov_run_approve(run, "wipe", "{}"));
    STEP(0, toolgov_run_invoke(&oc, run, "digest", "{\"d\":1}"));
    STEP(0, toolgov_run_invoke(&oc, run, "digest", "{\"d\":1}"));
    STEP(0, toolgov_run_save(buf, sizeof buf, &len, run, &state_key));
    STEP(0, toolgov_run_new(&run2, pol, NULL));
    STEP(0, toolgov_run_set_id(run2, toolgov_run_id(run)));
    STEP(0, toolgov_run_restore(run2, buf, len, &state_key));
    STEP(0, toolgov_run_invoke(&oc, run2, "wipe", "{}"));
    STEP(0, toolgov_shortlist_new(&sl, reg, 3));
    STEP(0, toolgov_shortlist_add_skill(sl, "skill_one"));
    STEP(0, toolgov_shortlist_select(sl, ranking, 3));
    STEP(0, toolgov_prompt_render(buf, sizeof buf, NULL, pol, loop_tools, 4));
    STEP(0, toolgov_drift_render_json(buf, sizeof buf, NULL, reg, pol));
    completed = 1;
out:
    toolgov_shortlist_free(sl);
    toolgov_run_free(run2);
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    return completed;
}

START_TEST(test_hook_is_the_only_allocator)
{
    toolgov_allocator hook = {direct_alloc, NULL};
    int done;
    hook_calls = 0;
    step_error[0] = '\0';
    failalloc_arm(0);
    done = scenario(&hook);
    failalloc_disarm();
    ck_assert_msg(step_error[0] == '\0', "%s", step_error);
    ck_assert_int_eq(done, 1);
    ck_assert_uint_gt(hook_calls, 0);
    ck_assert_msg(failalloc_attempts() == 0,
                  "the runtime called the C library's allocator %lu times past its hook",
                  failalloc_attempts());
}
END_TEST

START_TEST(test_default_allocator_every_failure)
{
    unsigned long n, total = 0;
    for (n = 1;; n++) {
        int done;
        step_error[0] = '\0';
        failalloc_arm(n);
        done = scenario(NULL);
        failalloc_disarm();
        ck_assert_msg(step_error[0] == '\0', "failing malloc %lu: %s", n, step_error);
        if (failalloc_live() != 0) {
            failalloc_dump_live(stderr, 10);
            ck_abort_msg("failing malloc %lu: %zu blocks leaked", n, failalloc_live());
        }
        if (!failalloc_injected()) {
            ck_assert_int_eq(done, 1);
            total = failalloc_attempts();
            break;
        }
    }
    ck_assert_msg(total > 0, "no allocation was counted: is failalloc's malloc in use?");
    printf("alloc-runtime: %lu C-library allocations in the scenario, each failed in turn\n",
           total);
}
END_TEST

START_TEST(test_hot_paths_allocate_nothing)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    toolgov_shortlist *sl = NULL;
    toolgov_proposed_call calls[] = {{"lookup", NULL}, {"create_note", "{}"}, {"wipe", "{}"}};
    toolgov_gate all, per[3];
    size_t idx[3], nidx = 0, len = 0, i;
    char buf[8192];
    int ok = 1;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fixture_plugin, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    ck_assert_int_eq(toolgov_run_new(&run, pol, NULL), 0);
    ck_assert_int_eq(toolgov_shortlist_new(&sl, reg, 3), 0);

    failalloc_arm(0);
    for (i = 0; i < 100; i++) {
        ok &= toolgov_run_gate(run, "lookup", "{}") == TOOLGOV_GATE_ALLOW;
        ok &= toolgov_run_gate(run, "create_note", "{}") == TOOLGOV_GATE_ASK_FIRST;
        ok &= toolgov_run_gate(run, "wipe", "{}") == TOOLGOV_GATE_NEEDS_APPROVAL;
        ok &= toolgov_run_gate(run, "nope", "{}") == TOOLGOV_GATE_REFUSE;
    }
    ok &= toolgov_run_gate_batch(&all, per, idx, &nidx, run, calls, 3) == 0;
    ok &= toolgov_registry_find(reg, "digest") != NULL;
    ok &= toolgov_policy_is_confirm_once(pol, "create_note") == 1;
    ok &= toolgov_shortlist_select(sl, ranking, 3) == 0;
    ok &= toolgov_prompt_render(buf, sizeof buf, NULL, pol, loop_tools, 4) == 0;
    ok &= toolgov_drift_render_text(buf, sizeof buf, NULL, reg, pol) == 0;
    ok &= toolgov_run_save(buf, sizeof buf, &len, run, &state_key) == 0;
    failalloc_disarm();
    ck_assert_int_eq(ok, 1);
    ck_assert_msg(failalloc_attempts() == 0, "%lu allocations on paths that promise none",
                  failalloc_attempts());

    toolgov_shortlist_free(sl);
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}
END_TEST

static Suite *alloc_runtime_suite(void)
{
    Suite *s = suite_create("alloc_runtime");
    TCase *tc = tcase_create("alloc_runtime");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_hook_is_the_only_allocator);
    tcase_add_test(tc, test_default_allocator_every_failure);
    tcase_add_test(tc, test_hot_paths_allocate_nothing);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(alloc_runtime_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
