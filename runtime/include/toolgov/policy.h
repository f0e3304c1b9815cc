/* SPDX-License-Identifier: MIT */
/*
** policy.h: the effect policy of one registry, which tools ask once per run.
**
** The confirm-once set is derived from the registry: every pooled tool whose
** manifest says `effect: write` and `confirm: once` (built-ins included). The
** operator may override it with a comma list, usually taken from the
** environment variable TOOLGOV_CONFIRM_ONCE_TOOLS:
**   - each name adds that tool to the set;
**   - the word `none` clears the derived set; the names listed with it are
**     still added, wherever they stand (so "none,T" keeps
**     exactly the one tool T);
**   - blanks around names and empty items are ignored ("a, ,b," is a and b);
**   - a name that matches no pooled tool adds nothing and leaves a drift row.
** The override is an argument, never read behind the host's back: the host
** calls toolgov_policy_override_from_env() when it wants the environment.
**
** Destructive tools are never governed by this set: each of their calls
** needs its own approval (see run.h) whatever the override says. A read tool
** or a confirm-never write named by the override does ask once.
**
** Confirmation scope: what the user's yes to the run's one question covers.
**   run     (the default) every confirm-once write of the run, listed in the
**           question or not: the user is asked once per run.
**   listed  exactly the calls the question listed, each by its tool and
**           canonical arguments, each once; any other write asks again, and
**           a no refuses the listed calls only. The user may be asked more
**           than once per run, and never has a write run unseen.
** Set by toolgov_policy_set_confirm_scope(), or from the text of the
** variable TOOLGOV_CONFIRM_SCOPE ("run" or "listed") by
** toolgov_policy_override_from_env(). A text that is neither is refused
** with TOOLGOV_EINVAL and a drift row that names the variable, the value
** and the two it may take; the scope then stays as it was.
**
** Lifecycle: mount every plugin, then create the policy, set the override,
** then create runs. (A tool mounted after the policy was made is outside
** the override and the fingerprint; it asks once exactly when its manifest
** says write + confirm once, so a late mount is never less careful.) The
** policy borrows the registry (which must outlive it) and, once set up, is
** read-only and may be shared between threads like the registry. Changing
** the override while runs exist is not thread-safe.
*/
#ifndef TOOLGOV_POLICY_H
#define TOOLGOV_POLICY_H

#include <stddef.h>

#include "toolgov.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The name of the environment variable toolgov_policy_override_from_env()
** reads. */
#define TOOLGOV_CONFIRM_ONCE_ENV "TOOLGOV_CONFIRM_ONCE_TOOLS"
/* The variable toolgov_policy_override_from_env() reads the scope from. */
#define TOOLGOV_CONFIRM_SCOPE_ENV "TOOLGOV_CONFIRM_SCOPE"

/* What a yes to the run's one question covers (see above). */
typedef enum toolgov_confirm_scope {
    TOOLGOV_CONFIRM_SCOPE_RUN = 0,
    TOOLGOV_CONFIRM_SCOPE_LISTED = 1
} toolgov_confirm_scope;

/* Static names "run" and "listed"; "unknown" outside the enum. */
TOOLGOV_EXTERN const char *toolgov_confirm_scope_name(toolgov_confirm_scope scope);

typedef struct toolgov_policy toolgov_policy;

/* Create the policy of a registry with the derived confirm-once set and no
** override. Allocates through the registry's allocator hook. On success *out
** is owned by the caller (free with toolgov_policy_free). TOOLGOV_EINVAL or
** TOOLGOV_ENOMEM, *out untouched. */
TOOLGOV_EXTERN int toolgov_policy_new(toolgov_policy **out, const toolgov_registry *reg);

/* Free a policy. NULL is a no-op. Runs made from it must be freed first. */
TOOLGOV_EXTERN void toolgov_policy_free(toolgov_policy *pol);

/* Set the operator override from its text (the syntax above); NULL or a text
** of blanks and commas only means "no override" (the derived set). Each call
** replaces the previous override, it does not stack. The text is borrowed for
** the call. On TOOLGOV_ENOMEM the policy keeps its previous set and rows. */
TOOLGOV_EXTERN int toolgov_policy_set_override(toolgov_policy *pol, const char *text);

/* Read TOOLGOV_CONFIRM_SCOPE and TOOLGOV_CONFIRM_ONCE_TOOLS once, now, and
** apply them with toolgov_policy_set_confirm_scope_text() and
** toolgov_policy_set_override() (unset: scope run, no override). A bad
** scope is TOOLGOV_EINVAL with its drift row, and then neither variable is
** applied: a host should stop and show the panel rather than run under
** rules the operator did not ask for. Call it during setup, from one
** thread; it is the only place the runtime reads the environment. */
TOOLGOV_EXTERN int toolgov_policy_override_from_env(toolgov_policy *pol);

/* Set the confirmation scope. Runs made before the change must be freed
** first (their saved state carries the fingerprint, which includes a
** listed scope). 0 or TOOLGOV_EINVAL (NULL policy, value outside the enum). */
TOOLGOV_EXTERN int toolgov_policy_set_confirm_scope(toolgov_policy *pol,
                                                    toolgov_confirm_scope scope);

/* Set the scope from its text as the variable holds it: "run" or "listed",
** blanks around it ignored; NULL or blank means run. Anything else is
** TOOLGOV_EINVAL with one drift row (kind setting_invalid) and the scope
** unchanged; a later valid text clears the row. TOOLGOV_ENOMEM. The text is
** borrowed for the call. */
TOOLGOV_EXTERN int toolgov_policy_set_confirm_scope_text(toolgov_policy *pol, const char *text);

/* The policy's confirmation scope; TOOLGOV_CONFIRM_SCOPE_RUN for NULL. */
TOOLGOV_EXTERN toolgov_confirm_scope toolgov_policy_confirm_scope(const toolgov_policy *pol);

/* 1 when a pooled tool is in the effective confirm-once set, 0 otherwise
** (also for an unknown name). Allocates nothing. */
TOOLGOV_EXTERN int toolgov_policy_is_confirm_once(const toolgov_policy *pol, const char *name);

/* The effective confirm-once set in registration order: its size and its
** i-th name (NULL out of range). Names are borrowed from the registry. */
TOOLGOV_EXTERN size_t toolgov_policy_confirm_once_count(const toolgov_policy *pol);
TOOLGOV_EXTERN const char *toolgov_policy_confirm_once_at(const toolgov_policy *pol, size_t i);

/* A 64-bit fingerprint of the pooled tools (names, effects, confirm,
** answers_directly), the effective confirm-once set and a listed scope. Saved run state
** carries it, so state is only restored under the same rules it was made
** under. 0 for NULL. */
TOOLGOV_EXTERN unsigned long long toolgov_policy_fingerprint(const toolgov_policy *pol);

/* The registry the policy was made from. Borrowed. */
TOOLGOV_EXTERN const toolgov_registry *toolgov_policy_registry(const toolgov_policy *pol);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_POLICY_H */
