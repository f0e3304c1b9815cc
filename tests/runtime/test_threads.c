/* SPDX-License-Identifier: MIT */
/* test_threads.c: many runs over one registry and policy, one per thread.
**
** The registry and policy are set up once and then only read; each thread
** owns its runs and shortlist. Built a second time with ThreadSanitizer
** (runtime_threads_tsan, CMake option TOOLGOV_TSAN) so a data race in the
** runtime fails the test instead of passing by luck. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>

#include "fixture.h"

/* The key the runs' state is saved and restored under. */
static const toolgov_state_key key = {{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
                                       7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}};

#define THREADS 6
#define ROUNDS 200

static toolgov_registry *reg;
static toolgov_policy *pol;

typedef struct worker {
    int id;
    int errors;
    fx_counts counts;
} worker;

#define EXPECT(cond) do { if (!(cond)) w->errors++; } while (0)

static void *work(void *arg)
{
    worker *w = arg;
    const char *const loop[] = {"lookup", "make_note", "digest", "purge", "beta_read"};
    const char *const ranking[] = {"digest", "lookup", "purge"};
    char buf[4096], state[4096];
    size_t len;
    int i;

    for (i = 0; i < ROUNDS; i++) {
        toolgov_run *run = NULL, *resumed = NULL;
        toolgov_shortlist *sl = NULL;
        toolgov_outcome oc;
        toolgov_proposed_call batch[] = {{"make_note", "{}"}, {"purge", "{}"}, {"lookup", NULL}};
        toolgov_gate g;
        size_t n;
        char args[64];

        snprintf(args, sizeof args, "{\"w\":%d,\"i\":%d}", w->id, i);
        EXPECT(toolgov_run_new(&run, pol, &w->counts) == 0);
        EXPECT(toolgov_run_gate_batch(&g, NULL, NULL, &n, run, batch, 3) == 0);
        EXPECT(g == TOOLGOV_GATE_ASK_FIRST && n == 1);
        EXPECT(toolgov_run_invoke(&oc, run, "lookup", args) == 0);
        EXPECT(toolgov_run_invoke(NULL, run, "make_note", args) == TOOLGOV_ECONFIRM);
        EXPECT(toolgov_run_confirm(run, i % 2) == 0);
        EXPECT(toolgov_run_invoke(NULL, run, "make_note", args) ==
               (i % 2 ? 0 : TOOLGOV_EREFUSED));
        EXPECT(toolgov_run_approve(run, "purge", args) == 0);
        EXPECT(toolgov_run_invoke(NULL, run, "digest", args) == 0);
        EXPECT(toolgov_run_save(state, sizeof state, &len, run, &key) == 0);
        EXPECT(toolgov_run_new(&resumed, pol, &w->counts) == 0);
        EXPECT(toolgov_run_set_id(resumed, toolgov_run_id(run)) == 0);
        EXPECT(toolgov_run_restore(resumed, state, len, &key) == 0);
        EXPECT(toolgov_run_invoke(&oc, resumed, "digest", args) == 0 &&
               oc.gate == TOOLGOV_GATE_REPLAY);
        EXPECT(toolgov_run_invoke(NULL, resumed, "purge", args) == 0);
        EXPECT(toolgov_prompt_render(buf, sizeof buf, NULL, pol, loop, 5) == 0);
        EXPECT(strstr(buf, "[write, asks once]") != NULL);
        EXPECT(toolgov_drift_render_text(buf, sizeof buf, NULL, reg, pol) == 0);
        EXPECT(toolgov_registry_find(reg, "beta_read") != NULL);
        EXPECT(toolgov_policy_is_confirm_once(pol, "make_note") == 1);
        EXPECT(toolgov_shortlist_new(&sl, reg, 4) == 0);
        EXPECT(toolgov_shortlist_add_skill(sl, "lookup") == TOOLGOV_EEXIST);
        EXPECT(toolgov_shortlist_select(sl, ranking, 3) == 0);
        EXPECT(toolgov_shortlist_count(sl) == 4);
        toolgov_shortlist_free(sl);
        toolgov_run_free(resumed);
        toolgov_run_free(run);
    }
    return NULL;
}

START_TEST(concurrent_runs_share_registry)
{
    pthread_t tid[THREADS];
    worker w[THREADS];
    int i;

    reg = fx_registry(NULL, NULL);
    ck_assert_ptr_nonnull(reg);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_beta, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    for (i = 0; i < THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].id = i;
        ck_assert_int_eq(pthread_create(&tid[i], NULL, work, &w[i]), 0);
    }
    for (i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
    for (i = 0; i < THREADS; i++) {
        ck_assert_int_eq(w[i].errors, 0);
        ck_assert_int_eq(w[i].counts.calls[FX_LOOKUP], ROUNDS);
        ck_assert_int_eq(w[i].counts.calls[FX_MAKE_NOTE], ROUNDS / 2);
        ck_assert_int_eq(w[i].counts.calls[FX_DIGEST], ROUNDS);
        ck_assert_int_eq(w[i].counts.calls[FX_PURGE], ROUNDS);
    }
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("shared_registry");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, concurrent_runs_share_registry);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
