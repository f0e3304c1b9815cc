/* SPDX-License-Identifier: MIT */
/*
** grants.h: standing grants, the answers a user gives once and ahead of
** time (SPEC §15): "always allow" and "never".
**
** A grant names either a tool as a whole (by plugin and tool) or one exact
** call of it (the tool and its canonical arguments, SPEC §9), a verdict,
** an expiry and who granted it:
**
**   ALLOW  answers for the user where the gate would ask: a confirm-once
**          write runs without the run's confirmation being asked (the
**          whole tool, or the one call); a destructive call runs without
**          its own approval, and only for a grant of exactly that call:
**          a destructive tool is never granted as a whole.
**   NEVER  refuses the tool (or the call) in every run that holds the
**          grant, whatever else the run was told: the invoke returns
**          TOOLGOV_ENEVER, a refusal of its own. A destructive tool takes
**          a never for one exact call too.
**
** A never wins over an allow; an exact-call grant and a whole-tool one are
** both consulted. An allow never turns a refusal into a yes: after the
** user's no in a run (a confirm-once write declined) the write stays
** refused. A grant is used while the clock reads before its expiry
** (expires 0: no expiry); from the expiry on it is never used, and a
** revoked grant is gone from the set at once.
**
** A set of grants belongs to one user, named by the host when it makes
** the set. The host keeps it as text sealed like run state (SPEC §11:
** keyed BLAKE2b-256 under a toolgov_state_key, run.h) and bound to that
** user: toolgov_grants_load() refuses whole, with TOOLGOV_ESTATE, a text
** sealed for another user, under another key, of another kind (a saved
** run) or altered in any byte; a grant past its expiry is dropped as the
** text is read. The seal proves only that a holder of the key wrote the
** text: an older text of the same user (one that still holds a grant
** revoked since) opens as well as the newest, so the host keeps the latest
** text only.
**
** The gate consults the grants a host hands a run (toolgov_run_set_grants)
** and every use is an audit event naming the grant (audit.h: an `allowed`
** event, or a `refused` one with reason `never_granted`, carrying the
** grant's id and who granted it).
**
** Time: the set reads its clock (toolgov_grants_set_clock; by default the
** system's UTC clock) when a grant is added, when text is loaded or saved,
** and when the gate finds a grant that could decide a call. Tests and
** hosts with their own notion of time pass their own.
**
** Threads: a set is used by one thread at a time; a run reads the set it
** was handed, so do not change the set while another thread drives that
** run. Allocation through the allocator hook given to toolgov_grants_new.
*/
#ifndef TOOLGOV_GRANTS_H
#define TOOLGOV_GRANTS_H

#include <stddef.h>

#include "toolgov.h"
#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum toolgov_grant_verdict {
    TOOLGOV_GRANT_ALLOW = 1,
    TOOLGOV_GRANT_NEVER = 2
} toolgov_grant_verdict;

/* expires: the grant does not expire. */
#define TOOLGOV_GRANT_NO_EXPIRY 0LL
/* Bytes of a user name, and of a granted_by, at most. */
#define TOOLGOV_GRANTS_NAME_MAX 256
/* Grants in one set, at most. */
#define TOOLGOV_GRANTS_MAX 4096

/* The clock a set reads: UTC seconds since 1970-01-01. */
typedef long long (*toolgov_clock_fn)(void *ud);

/* One grant. To add one, fill tool, args, verdict, expires and granted_by
** (plugin optional); toolgov_grants_at() fills every field, with pointers
** borrowed from the set until it next changes. */
typedef struct toolgov_grant {
    unsigned long long id;       /* the set's number for it (1, 2, ...; never
                                 ** reused); ignored by add */
    const char *plugin;          /* the tool's plugin, "" for a core built-in;
                                 ** NULL on add: whichever owns the tool */
    const char *tool;
    const char *args;            /* NULL: the whole tool; else one exact call:
                                 ** JSON argument text, kept in canonical form */
    toolgov_grant_verdict verdict;
    long long expires;           /* UTC seconds; used while the clock reads
                                 ** less; TOOLGOV_GRANT_NO_EXPIRY: never expires */
    long long created;           /* the clock when it was added; ignored by add */
    const char *granted_by;      /* who gave it (NULL or "" on add: the set's
                                 ** user) */
} toolgov_grant;

typedef struct toolgov_grants toolgov_grants;

/* Static names: "allow", "never"; "unknown" otherwise. */
TOOLGOV_EXTERN const char *toolgov_grant_verdict_name(toolgov_grant_verdict verdict);

/* Create an empty set of grants for `user` (1 to TOOLGOV_GRANTS_NAME_MAX
** bytes, no NUL; copied), allocating through `alloc` (NULL: the C
** library's; the hook is copied). *out is owned by the caller
** (toolgov_grants_free). TOOLGOV_EINVAL, TOOLGOV_ENOMEM; *out untouched. */
TOOLGOV_EXTERN int toolgov_grants_new(toolgov_grants **out, const char *user,
                                      const toolgov_allocator *alloc);

/* Free a set and every grant in it. NULL is a no-op. The runs it was handed
** to must not use it afterwards (clear it from them first, or free them). */
TOOLGOV_EXTERN void toolgov_grants_free(toolgov_grants *g);

/* The user the set belongs to (borrowed from the set). */
TOOLGOV_EXTERN const char *toolgov_grants_user(const toolgov_grants *g);

/* Set the clock (fn NULL: the system's UTC clock again). */
TOOLGOV_EXTERN void toolgov_grants_set_clock(toolgov_grants *g, toolgov_clock_fn fn, void *ud);

/* Add a grant for a tool of `reg`'s pool (or one declared for a plugin's
** own loop): its arguments, when given, are decoded with the tool's
** parameters and kept in canonical form, so any spelling of the call
** matches. A grant for the same tool and the same call (or both the whole
** tool) replaces the one the set held. *id_out (may be NULL) receives the
** new grant's id. Refused with nothing changed:
**   TOOLGOV_EINVAL   a NULL argument, a verdict out of range, an allow for a
**                    read tool (it never asks), a grant of a destructive tool
**                    as a whole, an expiry not after the clock, a granted_by
**                    longer than TOOLGOV_GRANTS_NAME_MAX or holding a control
**                    byte;
**   TOOLGOV_ENOENT   no such tool, or it belongs to another plugin than
**                    grant->plugin;
**   TOOLGOV_EARGS    arguments the tool's parameters refuse;
**   TOOLGOV_ENOSPC   the set holds TOOLGOV_GRANTS_MAX grants;
**   TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_grants_add(unsigned long long *id_out, toolgov_grants *g,
                                      const toolgov_registry *reg, const toolgov_grant *grant);

/* Revoke grant `id`: it is gone from the set, and from every run holding
** the set, at once. 0, or TOOLGOV_ENOENT when the set holds no such grant. */
TOOLGOV_EXTERN int toolgov_grants_revoke(toolgov_grants *g, unsigned long long id);

/* Grants in the set (expired ones included until the set is next saved or
** loaded; toolgov_grant.expires tells). */
TOOLGOV_EXTERN size_t toolgov_grants_count(const toolgov_grants *g);

/* The i-th grant, in the order they were added. Pointers in *out are
** borrowed from the set until it next changes. TOOLGOV_EINVAL, or
** TOOLGOV_ENOENT when i is not below the count. */
TOOLGOV_EXTERN int toolgov_grants_at(toolgov_grant *out, const toolgov_grants *g, size_t i);

/* Write the set as sealed text, bound to its user, leaving out grants past
** their expiry:
**   toolgov-grants 1
**   bound <n>:<user>
**   next <the id the next grant will get>
**   grant <id> allow|never <created> <expires> <n>:<plugin> <n>:<tool> -|<n>:<args> <n>:<by>
**   mac <64 hex digits>
** Buffer contract: the renderer convention of toolgov.h (size 0 is a
** sizing call; TOOLGOV_ENOSPC when cut short). TOOLGOV_EINVAL, TOOLGOV_EFAIL
** (the crypto library cannot start). Allocates nothing. */
TOOLGOV_EXTERN int toolgov_grants_save(char *out, size_t size, size_t *needed,
                                       const toolgov_grants *g, const toolgov_state_key *key);

/* Replace the set's grants with the ones in `text` (`len` bytes, borrowed
** for the call). The seal is checked first, over the whole text, in
** constant time: a text sealed under another key, for another user, of
** another kind, or changed in any byte, cut short or malformed is refused
** whole with TOOLGOV_ESTATE and the set is unchanged. Grants past their
** expiry are dropped. TOOLGOV_EINVAL, TOOLGOV_ENOMEM (set unchanged),
** TOOLGOV_EFAIL (crypto library). */
TOOLGOV_EXTERN int toolgov_grants_load(toolgov_grants *g, const char *text, size_t len,
                                       const toolgov_state_key *key);

/* Hand a run the grants its gate consults (NULL: none, the default). The
** set is borrowed: it must outlive the run or be cleared from it first. A
** child run (a plugin's own loop) consults its root run's grants: setting
** them on a child is TOOLGOV_EINVAL. 0 or TOOLGOV_EINVAL. */
TOOLGOV_EXTERN int toolgov_run_set_grants(toolgov_run *run, const toolgov_grants *g);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_GRANTS_H */
