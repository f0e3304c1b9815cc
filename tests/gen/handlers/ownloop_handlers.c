/* SPDX-License-Identifier: MIT */
/* Handlers of the golden ownloop plugin: tidy, a pooled tool, runs the
** plugin's own loop through a child of the run it was called in, with the
** generated ownloop_Invoke(); the other three run in that loop. Compiled
** with the golden files in every language mode (syntax) and linked into
** test_own_loop.c. */
#include "ownloop.toolgov.h"
#include "ownloop_handlers.h"

#include <stdio.h>

OWNLOOP_TOOLGOV_HANDLER(tidy, call, args, out)
{
    ownloop_log *log = (ownloop_log *)call->run_ctx;
    static const ownloop_ToolId steps[4] = {ownloop_Tool_listing, ownloop_Tool_trash_one,
                                            ownloop_Tool_purge_one, ownloop_Tool_archive_all};
    static const char *const step_args[4] = {"{}", "{\"id\": 3}", "{\"id\":3}", NULL};
    toolgov_run *loop = NULL;
    toolgov_outcome oc;
    int i;

    (void)args;
    log->child_rc = toolgov_run_child_new(&loop, call->run, call->run_ctx);
    if (log->child_rc < 0)
        return log->child_rc;
    for (i = 0; i < 4; i++) {
        log->rc[i] = ownloop_Invoke(&oc, loop, steps[i], step_args[i]);
        log->gate[i] = oc.gate;
        log->executed[i] = oc.executed;
    }
    log->pool_only_rc = ownloop_Invoke(&oc, loop, ownloop_Tool_tidy, "{}");
    toolgov_run_free(loop);
    return toolgov_result_printf(out, "trashed %u, purged %u, archived %u", log->trashed,
                                 log->purged, log->archived);
}

OWNLOOP_TOOLGOV_HANDLER(listing, call, args, out)
{
    (void)call;
    (void)args;
    return toolgov_result_set(out, "3: a newsletter", 15);
}

OWNLOOP_TOOLGOV_HANDLER(trash_one, call, args, out)
{
    ownloop_log *log = (ownloop_log *)call->run_ctx;
    if (log)
        log->trashed++;
    return toolgov_result_printf(out, "moved %lld", (long long)args->id);
}

OWNLOOP_TOOLGOV_HANDLER(purge_one, call, args, out)
{
    ownloop_log *log = (ownloop_log *)call->run_ctx;
    if (log)
        log->purged++;
    return toolgov_result_printf(out, "deleted %lld", (long long)args->id);
}

OWNLOOP_TOOLGOV_HANDLER(archive_all, call, args, out)
{
    ownloop_log *log = (ownloop_log *)call->run_ctx;
    (void)args;
    if (log)
        log->archived++;
    return toolgov_result_set(out, "archived", 8);
}
