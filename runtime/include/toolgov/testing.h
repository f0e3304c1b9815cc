/* SPDX-License-Identifier: MIT */
/*
** testing.h: calling one handler from a unit test, with no registry, policy
** or run of the test's own.
**
** A plugin author tests what a handler does with its arguments:
**
**   toolgov_result *out = NULL;
**   calendar_state st;
**   calendar_state_init(&st);
**   toolgov_result_new(&out, NULL);
**   rc = toolgov_test_invoke(out, &calendar_toolgov_plugin, "create_reminder",
**                            "{\"title\":\"milk\",\"date\":\"2026-12-02\",\"time\":\"09:00\"}",
**                            (size_t)-1, &st);
**   assert(rc == 0 && st.count == 1);
**   puts(toolgov_result_text(out));
**   toolgov_result_free(out);
**
** The arguments are decoded against the tool's parameters exactly as every
** call is (refused arguments are TOOLGOV_EARGS with the decoder's message,
** the same the model would get), and the handler gets its typed struct.
** The gate is not consulted: a write runs without a confirmation and a
** destructive call without an approval, since what is tested is the
** handler, not whether it may run (test the gate through run.h).
**
** Ownership: everything the call makes (a registry holding the plugin, a
** decoder) is freed before it returns; `out` is the caller's.
*/
#ifndef TOOLGOV_TESTING_H
#define TOOLGOV_TESTING_H

#include <stddef.h>

#include "toolgov.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run the handler `plugin` registers for `tool`, outside any run. `args` is
** `len` bytes of JSON text ((size_t)-1: NUL-terminated; NULL or "" reads as
** "{}"), borrowed for the call. The plugin is mounted with `plugin_ctx` (as
** a host would mount it) into a registry made for this call, so its
** register function, its spec table and the handler it binds are the ones a
** host gets. The handler sees call->tool, the canonical arguments in
** call->args, call->plugin_ctx, and NULL run_ctx and run (a handler that
** runs its own loop needs a run: test it through run.h). Its output is in
** `out` (emptied first). Returns what the handler returned (a positive
** return is TOOLGOV_EHANDLER, as in a run); TOOLGOV_EARGS with the
** decoder's message in `out`; TOOLGOV_ENOENT with a message in `out` when
** the plugin registers no tool of that name; a mount's failure code
** (TOOLGOV_EABI, TOOLGOV_EINVAL for a spec the runtime will not trust);
** TOOLGOV_EINVAL for a NULL argument; TOOLGOV_ENOMEM. Allocates through
** the allocator `out` was made with. */
TOOLGOV_EXTERN int toolgov_test_invoke(toolgov_result *out, const toolgov_plugin *plugin,
                                       const char *tool, const char *args, size_t len,
                                       void *plugin_ctx);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_TESTING_H */
