/* SPDX-License-Identifier: MIT */
/*
** ownloop_handlers.h: what the golden ownloop plugin's own loop saw, for
** test_own_loop.c. The test owns the log and passes it as the run context
** of the host's run; tidy's handler fills it.
*/
#ifndef TOOLGOV_TEST_OWNLOOP_HANDLERS_H
#define TOOLGOV_TEST_OWNLOOP_HANDLERS_H

#include <toolgov/run.h>

typedef struct ownloop_log {
    int child_rc;         /* toolgov_run_child_new() */
    int rc[4];            /* listing, trash_one, purge_one, archive_all, each
                          ** through the child */
    toolgov_gate gate[4];
    int executed[4];
    int pool_only_rc;     /* ownloop_Invoke() of tidy, a pool-only tool */
    unsigned trashed;     /* trash_one's handler ran */
    unsigned purged;      /* purge_one's handler ran */
    unsigned archived;    /* archive_all's handler ran */
} ownloop_log;

#endif /* TOOLGOV_TEST_OWNLOOP_HANDLERS_H */
