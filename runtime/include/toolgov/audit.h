/* SPDX-License-Identifier: MIT */
/*
** audit.h: the audit trail of a run, one structured event per decision.
**
** A host that sets an observer on a run (toolgov_run_set_audit) receives an
** event each time the run decides something or something changes because
** of it: a write needs the run's one confirmation, the user answered it, a
** destructive call waits for or received its approval, an approval was used
** up, a call was allowed and its handler ran, a result in hand was replayed,
** a call was refused (and why), a call's arguments were refused, the run
** ended, saved state was restored into it. Events come from
** toolgov_run_invoke (and _invoke_decoded), toolgov_run_gate_batch,
** toolgov_run_confirm, toolgov_run_approve, toolgov_run_end and
** toolgov_run_restore. The pure gate queries (toolgov_run_gate,
** toolgov_run_gate_decoded) emit nothing: asking is not deciding.
**
** Every event names the run (the host's id, or a random one), carries its
** number in the run (seq 1, 2, ... with no gap, so a lost line shows; the
** count travels in saved state, so a restored run numbers on from it), a
** UTC timestamp, the tool (name, owning plugin, effect) and the call's
** canonical arguments (or their BLAKE2b-256 digest, by option), the
** decision, and the run's confirmation and pending approvals after it: a
** log of one run read in seq order replays every state change the gate
** made. What a run did not decide (a host calling a handler itself, a tool
** outside the pool) is not in it.
**
** Failing closed: an event that authorises something is delivered before
** that thing happens, and a non-zero return from the observer stops it:
** ALLOWED (the handler does not run), APPROVAL_GRANTED (the approval is not
** kept) and CONFIRM_ANSWERED (the answer is not recorded); the call then
** returns the observer's negative code (TOOLGOV_EFAIL for a positive one)
** and the run is as it was. For every other event, which records what has
** already happened, the observer's return is ignored by the run (the
** JSON-lines writer keeps its first error: toolgov_audit_jsonl_status).
**
** Ownership: every pointer in an event (run id, tool, plugin, args,
** message) is borrowed and valid only during the callback; copy what you
** keep. The observer runs on the thread that called into the run, while
** the run is busy: it must not call back into that run.
**
** Cost: with no observer set a run does what it did before (the gate and
** invoke take one predictable branch more, and allocate nothing). With an
** observer, each event costs the callback, and a digest when asked for.
*/
#ifndef TOOLGOV_AUDIT_H
#define TOOLGOV_AUDIT_H

#include <stddef.h>
#include <stdio.h>

#include "toolgov.h"
#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What happened. The names in comments are the "event" values of the JSON
** form (toolgov_audit_kind_name). */
typedef enum toolgov_audit_kind {
    TOOLGOV_AUDIT_CONFIRM_ASKED = 1,     /* "confirm_asked": a confirm-once write waits
                                         ** for the run's one confirmation (a batch that
                                         ** lists it, or an invoke that stopped on it) */
    TOOLGOV_AUDIT_CONFIRM_ANSWERED = 2,  /* "confirm_answered": the user's answer (answer) */
    TOOLGOV_AUDIT_APPROVAL_ASKED = 3,    /* "approval_asked": a batch holds a destructive
                                         ** call that waits for its own approval */
    TOOLGOV_AUDIT_APPROVAL_GRANTED = 4,  /* "approval_granted": toolgov_run_approve */
    TOOLGOV_AUDIT_APPROVAL_CONSUMED = 5, /* "approval_consumed": used up by the call
                                         ** about to run */
    TOOLGOV_AUDIT_ALLOWED = 6,           /* "allowed": the gate allowed the call; its
                                         ** handler runs next */
    TOOLGOV_AUDIT_EXECUTED = 7,          /* "executed": the handler returned (status,
                                         ** output_len, ended) */
    TOOLGOV_AUDIT_REPLAYED = 8,          /* "replayed": the result in hand was returned */
    TOOLGOV_AUDIT_REFUSED = 9,           /* "refused": nothing ran (reason, status) */
    TOOLGOV_AUDIT_ARGS_ERROR = 10,       /* "args_error": the arguments do not match the
                                         ** tool's parameters (message) */
    TOOLGOV_AUDIT_RUN_ENDED = 11,        /* "run_ended": the run is over (end) */
    TOOLGOV_AUDIT_RESTORED = 12          /* "restored": saved state replaced the run's */
} toolgov_audit_kind;

/* Why a call was refused ("reason" in JSON). */
typedef enum toolgov_audit_reason {
    TOOLGOV_AUDIT_REASON_NONE = 0,         /* not a refusal */
    TOOLGOV_AUDIT_REASON_UNKNOWN_TOOL = 1, /* "unknown_tool": not in the pool */
    TOOLGOV_AUDIT_REASON_DECLINED = 2,     /* "declined": a confirm-once write after a no */
    TOOLGOV_AUDIT_REASON_NOT_APPROVED = 3, /* "not_approved": a destructive call with no
                                           ** approval of exactly it */
    TOOLGOV_AUDIT_REASON_ENDED = 4,        /* "ended": the run is over */
    TOOLGOV_AUDIT_REASON_NO_HANDLER = 5,   /* "no_handler": allowed, but nothing bound */
    TOOLGOV_AUDIT_REASON_NEVER_GRANTED = 6 /* "never_granted": a standing grant says
                                           ** never (grants.h; grant names it) */
} toolgov_audit_reason;

/* What `args` holds ("args_form" in JSON). */
typedef enum toolgov_audit_args_form {
    TOOLGOV_AUDIT_ARGS_NONE = 0,      /* no call: args is NULL */
    TOOLGOV_AUDIT_ARGS_CANONICAL = 1, /* "canonical": the decoded call's canonical JSON */
    TOOLGOV_AUDIT_ARGS_AS_SENT = 2,   /* "as_sent": the text as the host passed it
                                      ** (a call refused before or without decoding:
                                      ** unknown tool, bad arguments, a batch) */
    TOOLGOV_AUDIT_ARGS_DIGEST = 3     /* "digest": "blake2b-256:" and 64 hex digits of
                                      ** the canonical (or as-sent) bytes */
} toolgov_audit_args_form;

/* One event. Fields that do not apply to a kind are 0 / NULL. */
typedef struct toolgov_audit_event {
    toolgov_audit_kind kind;
    const char *run_id;            /* never NULL */
    unsigned long long seq;        /* 1, 2, ... in the run, no gaps */
    long long time_sec;            /* UTC, seconds since 1970-01-01 */
    long time_nsec;                /* and nanoseconds */
    const char *decision;          /* static: the gate's answer for a call
                                   ** ("ALLOW", "ASK_FIRST", "NEEDS_APPROVAL",
                                   ** "REPLAY", "REFUSE"), "yes"/"no" for an
                                   ** answer, "granted" for an approval, the end
                                   ** reason for run_ended, "restored" */
    /* The call, for every kind but confirm_answered, run_ended, restored: */
    const char *tool;              /* the tool's name (as sent when unknown) */
    const char *plugin;            /* its plugin, "core" for a built-in; NULL when
                                   ** the tool is not in the pool */
    int effect;                    /* a toolgov_effect; -1 when not in the pool */
    const char *args;              /* see args_form; NUL-terminated */
    size_t args_len;
    toolgov_audit_args_form args_form;
    /* Per kind: */
    toolgov_audit_reason reason;   /* refused */
    int status;                    /* executed: the handler's return; refused,
                                   ** args_error: the code the call returned */
    int answer;                    /* confirm_answered: 1 yes, 0 no */
    size_t output_len;             /* executed, replayed: the output's length */
    int ended;                     /* executed, replayed: 1 when the run ended
                                   ** on this output */
    toolgov_end_reason end;        /* run_ended, restored: how the run ended */
    const char *message;           /* args_error: the message for the model
                                   ** (NULL with TOOLGOV_AUDIT_DIGEST_ARGS: it
                                   ** quotes argument values) */
    size_t batch_index;            /* confirm_asked, approval_asked from a batch:
                                   ** the call's index in it, */
    size_t batch_count;            /* and the batch's size (0: not from a batch) */
    /* The run after the event: */
    toolgov_confirmation confirmation;
    size_t approvals;              /* approvals granted and not yet used */
    int child;                     /* 1 when a child run (a plugin's own loop,
                                   ** toolgov_run_child_new) made the decision;
                                   ** run_id and seq are its root run's */
    /* A standing grant that decided the call (grants.h): allowed (an allow
    ** answered for the user) or refused with reason never_granted. */
    unsigned long long grant;      /* its id; 0: no grant decided */
    const char *granted_by;        /* who gave it; NULL when grant is 0 */
} toolgov_audit_event;

/* The observer. Return 0, or non-zero to stop an authorising event's action
** (see the header comment). */
typedef int (*toolgov_audit_fn)(void *ud, const toolgov_audit_event *ev);

/* Option flags. */
#define TOOLGOV_AUDIT_DIGEST_ARGS 0x1u /* args as a digest, never the text */

#define TOOLGOV_AUDIT_RUN_ID_MAX TOOLGOV_RUN_ID_MAX /* bytes of a host's run id */
#define TOOLGOV_AUDIT_DIGEST_KEY_BYTES 32

typedef struct toolgov_audit_options {
    toolgov_audit_fn observer;   /* NULL: stop auditing the run */
    void *ud;                    /* passed to the observer */
    const char *run_id;          /* copied; NULL or "": keep the run's identity
                                 ** (toolgov_run_id: the host's, or random);
                                 ** else the run's identity becomes this
                                 ** (toolgov_run_set_id) */
    unsigned flags;              /* TOOLGOV_AUDIT_DIGEST_ARGS */
    const unsigned char *digest_key; /* NULL, or TOOLGOV_AUDIT_DIGEST_KEY_BYTES bytes
                                 ** (copied) that key the digest, so that nobody
                                 ** without the key can test a guess of the
                                 ** arguments against the log */
} toolgov_audit_options;

/* Set (or with observer NULL, clear) the run's observer. Allocates once,
** the first time, through the registry's allocator hook. The event numbers
** continue across calls. 0, TOOLGOV_EINVAL (NULL run or options, a run id
** longer than TOOLGOV_AUDIT_RUN_ID_MAX, a run whose handler is running, a
** child run: it reports to its parent's observer),
** TOOLGOV_ENOMEM, TOOLGOV_EFAIL (the crypto library cannot start: random
** ids and digests need it); on failure the run keeps its previous
** observer. */
TOOLGOV_EXTERN int toolgov_run_set_audit(toolgov_run *run, const toolgov_audit_options *opt);

/* The run's audit id, which is its identity (toolgov_run_id),
** NUL-terminated; NULL when no observer was ever set. Borrowed from the
** run. */
TOOLGOV_EXTERN const char *toolgov_run_audit_id(const toolgov_run *run);

/* Static names: the "event", "reason" and "args_form" values of the JSON
** form; "unknown" outside the enums. */
TOOLGOV_EXTERN const char *toolgov_audit_kind_name(toolgov_audit_kind kind);
TOOLGOV_EXTERN const char *toolgov_audit_reason_name(toolgov_audit_reason reason);
TOOLGOV_EXTERN const char *toolgov_audit_args_form_name(toolgov_audit_args_form form);

/* Render one event as one line of JSON (an object and "\n"; RFC 8259, valid
** UTF-8 whatever the names hold: a byte that is not well-formed UTF-8 is
** written as \ufffd, control bytes escaped, so the line never splits):
**   {"v":1,"run":"...","seq":1,"time":"2026-12-01T09:00:00.000000000Z",
**    "event":"allowed","decision":"ALLOW","tool":"t","plugin":"p",
**    "effect":"write","args":"{...}","args_form":"canonical",
**    ...the fields of the kind...,"confirmation":"given","approvals":0}
** Effect and confirmation by name ("read", "pending", ...). Buffer
** contract: the renderer convention of toolgov.h. TOOLGOV_EINVAL.
** Allocates nothing. */
TOOLGOV_EXTERN int toolgov_audit_event_render(char *out, size_t size, size_t *needed,
                                              const toolgov_audit_event *ev);

/* The JSON-lines writer: an observer that appends each event to a stdio
** stream as one line (toolgov_audit_event_render) and flushes it, so a log
** is whole up to the last event even if the process dies. Opaque. Use it
** from one thread at a time (one writer per thread, or a lock around it in
** your own observer). */
typedef struct toolgov_audit_jsonl toolgov_audit_jsonl;

/* Create a writer on `stream` (borrowed: it must outlive the writer and is
** not closed by it). `alloc` NULL: the C library's allocator; the hook is
** copied. *out is owned by the caller (toolgov_audit_jsonl_free).
** TOOLGOV_EINVAL, TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_audit_jsonl_new(toolgov_audit_jsonl **out, FILE *stream,
                                           const toolgov_allocator *alloc);

/* The observer function: pass it with the writer as `ud`. Writes one line.
** 0, or (and from then on, without writing) the writer's first error:
** TOOLGOV_ENOMEM (its line buffer could not grow) or TOOLGOV_EFAIL (the
** stream refused the line or the flush; errno as the stream left it is
** kept, see toolgov_audit_jsonl_status). */
TOOLGOV_EXTERN int toolgov_audit_jsonl_observe(void *writer, const toolgov_audit_event *ev);

/* The writer's first error (0 when every line was written) and, when
** sys_errno is not NULL, the errno of a stream failure (0 otherwise). */
TOOLGOV_EXTERN int toolgov_audit_jsonl_status(const toolgov_audit_jsonl *w, int *sys_errno);

/* Lines written so far. */
TOOLGOV_EXTERN unsigned long long toolgov_audit_jsonl_lines(const toolgov_audit_jsonl *w);

/* Free the writer (not the stream). NULL is a no-op. */
TOOLGOV_EXTERN void toolgov_audit_jsonl_free(toolgov_audit_jsonl *w);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_AUDIT_H */
