/* SPDX-License-Identifier: MIT */
/* test_alloc_hook.c: every allocation failure is a clean error and leaks nothing.
**
** One scenario drives every allocating public call. It is replayed with the
** allocator hook failing the 1st, 2nd, 3rd, ... allocation until a replay
** meets no failure. Each time, the call that met the failure must return
** TOOLGOV_ENOMEM (or, inside a handler, pass it on), calls that promise to
** leave their object unchanged must have done so, and after freeing
** everything the hook must hold no block and no byte: the sizes the runtime
** reports when freeing are checked too. Run it under ASan/valgrind as well. */
#include <check.h>
#include <stdio.h>

#include "fixture.h"

/* The key run state is saved and restored under. */
static const toolgov_state_key state_key = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                             1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};

static fx_alloc_state st;
static toolgov_allocator hook = {fx_alloc, &st};

/* Run one step: stop the scenario at the first injected failure, after
** checking the step reported it. */
#define STEP(expect, expr)                                                      \
    do {                                                                        \
        int rc_;                                                                \
        int was_failed_ = st.failed;                                            \
        rc_ = (expr);                                                           \
        if (!was_failed_ && st.failed) {                                        \
            ck_assert_msg(rc_ == TOOLGOV_ENOMEM, "%s: got %d after a failed allocation", \
                          #expr, rc_);                                          \
            goto out;                                                           \
        }                                                                       \
        ck_assert_msg(rc_ == (expect), "%s: got %d, want %d", #expr, rc_, (expect)); \
    } while (0)

/* Steps that must leave their object as it was on failure. */
#define UNCHANGED(before, now, expr, expect)                                    \
    do {                                                                        \
        int rc_;                                                                \
        int was_failed_ = st.failed;                                            \
        size_t b_ = (before);                                                   \
        rc_ = (expr);                                                           \
        if (!was_failed_ && st.failed) {                                        \
            ck_assert_int_eq(rc_, TOOLGOV_ENOMEM);                              \
            ck_assert_uint_eq((now), b_);                                       \
            goto out;                                                           \
        }                                                                       \
        ck_assert_msg(rc_ == (expect), "%s: got %d, want %d", #expr, rc_, (expect)); \
    } while (0)

static char saved[4096];

/* Returns 1 when the scenario ran to the end. */
static int scenario(void)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL, *run2 = NULL;
    toolgov_shortlist *sl = NULL;
    toolgov_plugin old = fx_gamma;
    fx_counts counts;
    const char *const loop[] = {"lookup", "make_note", "digest"};
    const char *const ranking[] = {"lookup", "skill_one"};
    char buf[8192];
    size_t len = 0;
    int completed = 0;

    memset(&counts, 0, sizeof counts);
    old.abi_version = 0;
    STEP(0, toolgov_registry_new(&reg, &hook));
    UNCHANGED(toolgov_registry_count(reg), toolgov_registry_count(reg),
              toolgov_registry_mount(reg, &fx_alpha, NULL), 0);
    UNCHANGED(toolgov_drift_count(reg, NULL), toolgov_drift_count(reg, NULL),
              toolgov_registry_mount(reg, &fx_beta, NULL), 0);
    UNCHANGED(toolgov_drift_count(reg, NULL), toolgov_drift_count(reg, NULL),
              toolgov_registry_mount(reg, &fx_gamma, NULL), 0);
    UNCHANGED(toolgov_registry_count(reg), toolgov_registry_count(reg),
              toolgov_registry_mount(reg, &fx_broken, NULL), TOOLGOV_EFAIL);
    STEP(TOOLGOV_EABI, toolgov_registry_mount(reg, &old, NULL));
    STEP(0, toolgov_registry_bind_builtin(reg, "memory_search", fx_handler, NULL));
    STEP(0, toolgov_policy_new(&pol, reg));
    UNCHANGED(toolgov_policy_confirm_once_count(pol), toolgov_policy_confirm_once_count(pol),
              toolgov_policy_set_override(pol, "none, make_note, typo_one, typo_two"), 0);
    STEP(0, toolgov_run_new(&run, pol, &counts));
    STEP(0, toolgov_run_invoke(NULL, run, "lookup", "{}"));
    STEP(TOOLGOV_ECONFIRM, toolgov_run_invoke(NULL, run, "make_note", "{}"));
    STEP(0, toolgov_run_confirm(run, 1));
    STEP(0, toolgov_run_invoke(NULL, run, "make_note", "{\"n\":1}"));
    UNCHANGED(toolgov_run_pending_approvals(run), toolgov_run_pending_approvals(run),
              toolgov_run_approve(run, "purge", "{\"all\":true}"), 0);
    STEP(0, toolgov_run_approve(run, "purge", "{}"));
    UNCHANGED((size_t)counts.total, (size_t)counts.total,
              toolgov_run_invoke(NULL, run, "digest", "{\"d\":1}"), 0);
    STEP(0, toolgov_run_invoke(NULL, run, "digest", "{\"d\":1}")); /* replay */
    STEP(0, toolgov_run_invoke(NULL, run, "purge", "{\"all\":true}"));
    STEP(0, toolgov_run_save(saved, sizeof saved, &len, run, &state_key));
    STEP(0, toolgov_run_new(&run2, pol, NULL));
    STEP(0, toolgov_run_set_id(run2, toolgov_run_id(run)));
    STEP(0, toolgov_run_approve(run2, "purge", "{\"x\":2}"));
    UNCHANGED(toolgov_run_pending_approvals(run2), toolgov_run_pending_approvals(run2),
              toolgov_run_restore(run2, saved, len, &state_key), 0);
    ck_assert_uint_eq(toolgov_run_pending_approvals(run2), 1);
    STEP(0, toolgov_shortlist_new(&sl, reg, 4));
    STEP(0, toolgov_shortlist_add_skill(sl, "skill_one"));
    STEP(0, toolgov_shortlist_select(sl, ranking, 2));
    STEP(0, toolgov_prompt_render(buf, sizeof buf, NULL, pol, loop, 3));
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

START_TEST(fail_every_allocation_in_turn)
{
    size_t n, total;

    /* A clean pass first: how many allocations the scenario makes. */
    memset(&st, 0, sizeof st);
    ck_assert_int_eq(scenario(), 1);
    ck_assert_int_eq(st.failed, 0);
    ck_assert_int_eq(st.live, 0);
    ck_assert_int_eq(st.bytes, 0);
    total = st.attempts;
    ck_assert_uint_gt(total, 20);

    for (n = 1;; n++) {
        int done;

        memset(&st, 0, sizeof st);
        st.fail_at = n;
        done = scenario();
        ck_assert_msg(st.live == 0, "fail at %zu: %ld blocks leaked", n, st.live);
        ck_assert_msg(st.bytes == 0, "fail at %zu: %lld bytes unaccounted", n, st.bytes);
        if (!st.failed) {
            ck_assert_int_eq(done, 1);
            break;
        }
        ck_assert_int_eq(done, 0);
    }
    ck_assert_uint_eq(n, total + 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alloc");
    TCase *tc = tcase_create("failure");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, fail_every_allocation_in_turn);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
