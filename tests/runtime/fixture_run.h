/* SPDX-License-Identifier: MIT */
/*
** fixture_run.h: a registry with the fixture plugins, a policy and one run,
** opened and closed together, for the suites that drive runs (test_run.c,
** test_state.c). Uses Check's asserts, so it is included after <check.h>.
** Everything env_open() makes is owned by the env and freed by env_close().
*/
#ifndef TOOLGOV_TEST_FIXTURE_RUN_H
#define TOOLGOV_TEST_FIXTURE_RUN_H

#include <check.h>

#include "fixture.h"

typedef struct env {
    toolgov_registry *reg;
    toolgov_policy *pol;
    toolgov_run *run;
    fx_counts counts; /* the run's counters (its run_ctx) */
} env;

/* The fixture registry, a policy with `override` (NULL: none) and a run. */
static FX_UNUSED void env_open(env *e, const char *override)
{
    memset(e, 0, sizeof *e);
    e->reg = fx_registry(NULL, NULL);
    ck_assert_ptr_nonnull(e->reg);
    ck_assert_int_eq(toolgov_policy_new(&e->pol, e->reg), 0);
    ck_assert_int_eq(toolgov_policy_set_override(e->pol, override), 0);
    ck_assert_int_eq(toolgov_run_new(&e->run, e->pol, &e->counts), 0);
}

static FX_UNUSED void env_close(env *e)
{
    toolgov_run_free(e->run);
    toolgov_policy_free(e->pol);
    toolgov_registry_free(e->reg);
}

#endif /* TOOLGOV_TEST_FIXTURE_RUN_H */
