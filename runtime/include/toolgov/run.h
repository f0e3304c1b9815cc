/* SPDX-License-Identifier: MIT */
/*
** run.h: one run of the agent loop, and the gate every tool call passes.
**
** A run is what happens between the user's message and the answer. For each
** call the model proposes, the gate answers one of:
**
**   ALLOW           run it.
**   ASK_FIRST       a confirm-once write (see policy.h) the user has not
**                   answered for: ask once, listing every write the model
**                   proposed, then toolgov_run_confirm_listed() with that
**                   list (or toolgov_run_confirm()). Under the policy's
**                   confirmation scope `run` (the default), after a yes no
**                   confirm-once write of this run asks again, and after a
**                   no each of them is REFUSE for the rest of the run. Under
**                   scope `listed`, a yes lets exactly the listed calls run,
**                   each once, by tool and canonical arguments; any other
**                   write asks again; a no refuses the listed calls.
**   NEEDS_APPROVAL  a destructive call: it runs only after its own approval
**                   (toolgov_run_approve) of exactly this tool with exactly
**                   these canonical arguments. One approval lets one call run.
**   REPLAY          an answers-directly tool repeated with the same canonical
**                   arguments in this run: the result in hand is returned,
**                   nothing runs.
**   REFUSE          an unknown tool, a confirm-once write after a no, or any
**                   call once the run has ended.
**
** The gate is checked in that order of concerns: ended run, unknown tool,
** replay, destructive approval, confirm-once set, otherwise ALLOW. Every
** comparison of arguments is of canonical text: argument text handed to
** the gate (toolgov_run_gate, toolgov_run_gate_batch) is canonicalised
** with the tool's parameters before it is compared, so {"a": 1} finds the
** approval of {"a":1}; a text that does not decode matches nothing.
**
** A plugin's own loop: a plugin that runs tools of its own (declared with
** toolgov_declare_tool, not in the pool) runs them through a child of the
** current run, toolgov_run_child_new(). The child shares its parent's
** confirmation, listed confirmations and approvals: a write in the child
** asks exactly as it would in the parent (once per the parent's run under
** scope run), a yes or an approval given to either is used by either, and
** a destructive call needs its own approval. The child keeps its own first
** tool, answers-directly end and results in hand (its loop's answer is not
** the parent's), and is over when it or its parent has ended.
**
** Answers directly: when the run's first executed tool (ask_user does not
** count) is an answers_directly tool and its handler returns 0 with a
** non-empty output, the run ends on that output, after the optional
** evaluator has had its say (it may keep the run going). Later in a run such
** a tool is one step of a larger answer and the run goes on. A tool that
** asks never answers directly: when the operator's override puts an
** answers-directly tool in the confirm-once set (policy.h), it asks, and
** its output is one step of the run (no end, no replay).
**
** toolgov_run_invoke() applies the gate before the handler: a handler never
** executes unless the gate says ALLOW.
**
** Decoding (args.h, SPEC §9): before the gate, a call is decoded against its
** tool's parameters, toolgov_run_decode(), which yields a decoded call: the
** typed argument struct the handler receives and the call's canonical JSON
** text. Approvals, replays (results in hand) and the saved state hold and
** compare canonical text, so {"a": 1} and {"a":1} are one call and distinct
** calls are never merged. An unknown tool is TOOLGOV_ENOENT and invalid
** arguments TOOLGOV_EARGS with a message for the model; neither reaches the
** gate or a handler, counts as the run's first tool or is ever usable. A
** decoded call lives in the run's scratch area until the run's next decode,
** approve or invoke; once warm, decoding allocates nothing. A tool whose
** spec row carries no parameters takes no arguments: only {}, "" or no
** text decode (canonical "{}"); anything else is TOOLGOV_EARGS naming each
** member it was given ("/x is not allowed ...").
**
** Pause and resume: toolgov_run_save() writes the run's state (confirmation
** given or refused, approvals not yet used, results in hand, whether the
** first tool ran, how the run ended, the number of its last audit event)
** as compact text tagged with a format
** version and the policy's fingerprint, authenticated with a keyed mac
** under a key only the host holds; toolgov_run_restore() reads it into a
** fresh run of an equivalent policy and the same identity
** (toolgov_run_set_id), possibly in another process. Bad, truncated,
** altered, forged or foreign text (another key, another run) is refused
** whole with TOOLGOV_ESTATE and the run is left exactly as it was.
**
** What the seal does not stop: a holder of the key can write any state for
** any run (the key is the host's trust: keep it apart from where the texts
** live); and a text is not fresh, so an older text of the same run restores
** as well as its newest (an approval used since is there again): a host
** that keeps texts where others can write keeps only the newest, or
** remembers which one is (the number of the last audit event travels in
** it, audit.h).
**
** Re-entry: a handler or the evaluator may read its run (gate, confirmation)
** but not invoke through it or restore it: those return TOOLGOV_EINVAL while
** the run's handler or evaluator is running.
**
** Audit: a run may carry an observer that receives one event per decision
** (audit.h); without one, nothing of this header changes.
**
** Threads: a run is used by one thread at a time (it is not locked); many
** runs over one registry and policy may live on many threads at once. The
** allocator hook is then called from each of those threads.
**
** Allocation: toolgov_run_gate() and toolgov_run_gate_batch() allocate
** nothing for canonical text or for a tool whose answer does not depend on
** the arguments; otherwise only while the run's query decoder grows to the
** largest call (nothing once warm; on a failed allocation the text matches
** nothing, so the answer is the stricter one). toolgov_run_new, _approve, _invoke and _restore allocate through
** the registry's allocator hook and report TOOLGOV_ENOMEM without changing
** the run's state.
*/
#ifndef TOOLGOV_RUN_H
#define TOOLGOV_RUN_H

#include <stddef.h>

#include "toolgov.h"
#include "policy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum toolgov_gate {
    TOOLGOV_GATE_ALLOW = 0,
    TOOLGOV_GATE_ASK_FIRST = 1,
    TOOLGOV_GATE_NEEDS_APPROVAL = 2,
    TOOLGOV_GATE_REPLAY = 3,
    TOOLGOV_GATE_REFUSE = 4
} toolgov_gate;

/* The run's one confirmation. */
typedef enum toolgov_confirmation {
    TOOLGOV_CONFIRMATION_PENDING = 0, /* not asked, or asked and not answered */
    TOOLGOV_CONFIRMATION_GIVEN = 1,
    TOOLGOV_CONFIRMATION_REFUSED = 2
} toolgov_confirmation;

/* Why a run is over. */
typedef enum toolgov_end_reason {
    TOOLGOV_END_NONE = 0,              /* still running */
    TOOLGOV_END_ANSWERED_DIRECTLY = 1, /* an answers-directly tool's output is the answer */
    TOOLGOV_END_HOST = 2               /* the host ended it (toolgov_run_end) */
} toolgov_end_reason;

/* A proposed call: tool name and JSON argument text (NULL means "{}"). */
typedef struct toolgov_proposed_call {
    const char *tool;
    const char *args;
} toolgov_proposed_call;

/* What toolgov_run_invoke() did. */
typedef struct toolgov_outcome {
    toolgov_gate gate;    /* the gate's answer for the call */
    int executed;         /* 1 when the handler ran */
    int status;           /* the invoke's return value */
    const char *output;   /* the handler's output or the replayed result;
                          ** "" when none. Borrowed from the run until its
                          ** next invoke, restore or free. */
    size_t output_len;
    int ended;            /* 1 when the run ended on this output */
} toolgov_outcome;

/* Evaluator: looks at the output an answers-directly first tool produced
** before the run ends on it. Return 1 to let the run end, 0 to keep it going
** (the output is then an ordinary step). `call` and `output` are borrowed. */
typedef int (*toolgov_evaluator_fn)(void *ud, const toolgov_call *call,
                                    const char *output, size_t output_len);

typedef struct toolgov_run toolgov_run;

/* Static uppercase name of a gate answer ("ALLOW", ...); "UNKNOWN" outside
** the enum. */
TOOLGOV_EXTERN const char *toolgov_gate_name(toolgov_gate gate);
/* Static names: "none", "answered_directly", "host"; "unknown" otherwise. */
TOOLGOV_EXTERN const char *toolgov_end_reason_name(toolgov_end_reason reason);

/* Create a run governed by `pol`, which must outlive it. `run_ctx` is passed
** to handlers as call->run_ctx. The run gets a random identity (see
** toolgov_run_id). *out is owned by the caller (free with toolgov_run_free).
** TOOLGOV_EINVAL, TOOLGOV_ENOMEM, or TOOLGOV_EFAIL (the crypto library
** cannot start), *out untouched. */
TOOLGOV_EXTERN int toolgov_run_new(toolgov_run **out, const toolgov_policy *pol, void *run_ctx);

/* Free a run and everything it holds. NULL is a no-op. */
TOOLGOV_EXTERN void toolgov_run_free(toolgov_run *run);

/* The gate's answer for one call in the run's current state. `args` NULL
** means "{}"; it is compared in canonical form with the calls the run
** holds (see above). A child run also knows the tools declared for its
** plugin's own loop. Never fails: a NULL run or tool is REFUSE. Uses the
** run's query decoder, never its current decoded call; like every use of
** a run, not from two threads at once. */
TOOLGOV_EXTERN toolgov_gate toolgov_run_gate(const toolgov_run *run, const char *tool,
                                             const char *args);

/* One decision for calls the model proposed together. per_call (NULL, or n
** entries) receives each call's own answer. confirm_idx (NULL, or n entries)
** receives the indexes of the calls that need the run's one confirmation,
** in order, and *confirm_count (when not NULL) their number, so one question
** can list every write at once (hand those calls to
** toolgov_run_confirm_listed). Calls are compared in canonical form, also
** with each other: two spellings of one call in a batch with one approval
** (or one listed confirmation) leave the second waiting. *out is:
**   ASK_FIRST       when any call needs the confirmation;
**   else NEEDS_APPROVAL when any destructive call waits for approval;
**   else REFUSE     when any call is refused;
**   else REPLAY     when every call is a replay;
**   else ALLOW.
** An empty batch is ALLOW. Returns 0 or TOOLGOV_EINVAL. Allocates nothing. */
TOOLGOV_EXTERN int toolgov_run_gate_batch(toolgov_gate *out, toolgov_gate *per_call,
                                          size_t *confirm_idx, size_t *confirm_count,
                                          const toolgov_run *run,
                                          const toolgov_proposed_call *calls, size_t n);

/* Record the user's answer to the run's one confirmation (yes non-zero),
** for the whole run: under scope run, the first answer holds for the run:
** repeating it returns 0, contradicting it returns TOOLGOV_EINVAL. Under
** scope listed only a no may be given this way (it refuses every
** confirm-once write of the run); a yes is TOOLGOV_EINVAL, since it must
** say what it covers (toolgov_run_confirm_listed). TOOLGOV_EENDED after the
** run ended. A child run answers for its parent's run. */
TOOLGOV_EXTERN int toolgov_run_confirm(toolgov_run *run, int yes);

/* Record the user's answer to a question that listed `calls` (n entries;
** the calls toolgov_run_gate_batch put in confirm_idx). Under scope run it
** is toolgov_run_confirm(run, yes). Under scope listed, a yes lets each
** listed call run once and a no refuses each for the rest of the run, by
** tool and canonical arguments (a call listed twice runs twice); calls of
** tools that never ask are skipped. Nothing is recorded unless every call
** is recorded: TOOLGOV_ENOENT (no such tool), TOOLGOV_EARGS (arguments its
** parameters refuse), TOOLGOV_EINVAL (a NULL tool; a yes after a run-wide
** no), TOOLGOV_EENDED, TOOLGOV_ENOMEM. The calls are borrowed for the call;
** the canonical texts are copied. A child run answers for its parent's. */
TOOLGOV_EXTERN int toolgov_run_confirm_listed(toolgov_run *run, int yes,
                                              const toolgov_proposed_call *calls, size_t n);

/* The run's one confirmation (its root run's, for a child). Under scope
** listed it stays PENDING unless a run-wide no was given. */
TOOLGOV_EXTERN toolgov_confirmation toolgov_run_confirmation(const toolgov_run *run);

/* Approve one destructive call: exactly `tool` with exactly the canonical
** form of `args` (NULL: "{}"), which is decoded here (this ends the run's
** current decoded call). `tool` may also be a tool declared for a plugin's
** own loop; the approval is shared with the run's parent and children.
** TOOLGOV_EINVAL from inside the run's own handler (approve through a
** child run there: the approval is the same). The approval lets one such call run and is used
** up by it; approving twice lets two run. The canonical text is copied.
** TOOLGOV_ENOENT for a tool not in the pool, TOOLGOV_EINVAL for a tool that
** is not destructive, TOOLGOV_EARGS for arguments its parameters refuse,
** TOOLGOV_EENDED, TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_run_approve(toolgov_run *run, const char *tool, const char *args);

/* Number of approvals granted and not yet used (shared by a run's family). */
TOOLGOV_EXTERN size_t toolgov_run_pending_approvals(const toolgov_run *run);

/* Set or clear (fn NULL) the evaluator consulted before an answers-directly
** end. Not part of the saved state. */
TOOLGOV_EXTERN void toolgov_run_set_evaluator(toolgov_run *run, toolgov_evaluator_fn fn, void *ud);

/* A call decoded against its tool's parameters. Every pointer is borrowed
** from the run until its next decode, approve or invoke. */
typedef struct toolgov_decoded_call {
    const char *tool;      /* the pooled tool's name; NULL on failure */
    const char *args;      /* the canonical arguments (SPEC §9), NUL-terminated */
    size_t args_len;
    const void *decoded;   /* the tool's argument struct (a toolgov_no_args when
                           ** the tool takes no arguments) */
    const char *message;   /* TOOLGOV_EARGS: one message naming every problem
                           ** with its JSON path, for the model; else "" */
    size_t message_len;
    unsigned long seq;     /* which decode of the run made it (the run checks
                           ** it is its current call) */
} toolgov_decoded_call;

/* Decode one call: `args` is len bytes of JSON text (NULL or blank: "{}").
** 0: *out holds the decoded call, which becomes the run's current one.
** TOOLGOV_ENOENT: no tool of that name in the pool. TOOLGOV_EARGS: the
** arguments do not match the tool's parameters (out->message says how).
** TOOLGOV_EINVAL (NULL argument, or called from this run's own handler or
** evaluator), TOOLGOV_ENOMEM. Any call ends the previous decoded call. No
** allocation once the run's scratch area has grown to the largest call. */
TOOLGOV_EXTERN int toolgov_run_decode(toolgov_decoded_call *out, toolgov_run *run,
                                      const char *tool, const char *args, size_t len);

/* The gate's answer for the run's current decoded call; REFUSE for a call
** that is not the current one (stale, or from another run). Allocates
** nothing. */
TOOLGOV_EXTERN toolgov_gate toolgov_run_gate_decoded(const toolgov_run *run,
                                                     const toolgov_decoded_call *call);

/* Invoke the run's current decoded call through the gate, as
** toolgov_run_invoke() does after decoding; the handler receives
** call->decoded. TOOLGOV_EINVAL for a call that is not the current one. The
** call is used up. */
TOOLGOV_EXTERN int toolgov_run_invoke_decoded(toolgov_outcome *out, toolgov_run *run,
                                              const toolgov_decoded_call *call);

/* Invoke a tool through the gate, decoding its arguments first. `out` (may
** be NULL) receives what happened. Returns:
**   0                   the handler ran and returned 0, or REPLAY returned
**                       the result in hand;
**   TOOLGOV_ECONFIRM    ASK_FIRST: nothing ran;
**   TOOLGOV_EAPPROVAL   NEEDS_APPROVAL: nothing ran;
**   TOOLGOV_EREFUSED    REFUSE: nothing ran (TOOLGOV_EENDED instead when the
**                       run has ended);
**   TOOLGOV_ENOENT      no tool of that name in the pool: nothing ran;
**   TOOLGOV_EARGS       invalid arguments: nothing ran, out->output is the
**                       message for the model (borrowed until the run's next
**                       decode, approve or invoke);
**   TOOLGOV_ENOHANDLER  the tool is pooled but no handler is bound;
**   the handler's own negative code (its message is in out->output);
**   TOOLGOV_EINVAL (also from inside this run's own handler or evaluator),
**   TOOLGOV_ENOMEM (nothing ran, state unchanged).
** A successful answers-directly call keeps its result in hand for REPLAY. */
TOOLGOV_EXTERN int toolgov_run_invoke(toolgov_outcome *out, toolgov_run *run,
                                      const char *tool, const char *args);

/* A child run for a plugin's own loop (see the header comment): governed
** by the parent's policy, sharing the parent's confirmation and approvals.
** Usually made inside a handler of a pooled tool, from call->run (the run
** that handler was invoked in, busy while it runs: the child is how the
** plugin's loop calls tools meanwhile); a host may make one too.
** `run_ctx` is passed to the child's handlers. The child's decisions go to
** the parent's audit observer (audit.h) as it is when the child is made;
** toolgov_run_set_audit() on a child is TOOLGOV_EINVAL. *out is owned by the
** caller: free it with toolgov_run_free() before the parent is freed or
** restored; a child is not saved with its parent (save the parent: the
** shared answers are its). TOOLGOV_EINVAL, TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_run_child_new(toolgov_run **out, toolgov_run *parent, void *run_ctx);

/* The run a child was made from; NULL for a run of the host. Borrowed. */
TOOLGOV_EXTERN toolgov_run *toolgov_run_parent(const toolgov_run *run);

/* The run's identity: who the run is, for everything that outlives a call
** into it. Saved state is bound to it (toolgov_run_restore refuses a text
** saved by a run of another identity), the audit trail names it (audit.h),
** and other texts the runtime seals for a run are bound to it too. A run
** starts with a random identity (32 lowercase hex digits from the system's
** secure source), which no other run has; a host that pauses a run and
** resumes it in a fresh run object (another process, a restart) gives the
** run its own identity, the same one each time, e.g. a conversation id.
**
** toolgov_run_id: the identity, NUL-terminated (never NULL for a run; NULL
** for NULL), borrowed from the run until its identity changes or it is
** freed. A child run's identity is its root run's.
**
** toolgov_run_set_id: give the run the host's identity, 1 to
** TOOLGOV_RUN_ID_MAX bytes up to a NUL (copied). Any bytes, compared byte
** for byte. TOOLGOV_EINVAL for a NULL, empty or longer id, a child run, or
** from inside the run's own handler or evaluator. Setting it does not
** change the run's state: it says which saved texts belong to the run. */
#define TOOLGOV_RUN_ID_MAX 128
TOOLGOV_EXTERN const char *toolgov_run_id(const toolgov_run *run);
TOOLGOV_EXTERN int toolgov_run_set_id(toolgov_run *run, const char *id);

/* Invoke a tool declared for the plugin's own loop through a child run:
** `spec` is the pointer toolgov_declare_tool() gave, `handler` the
** plugin's handler of that tool. Decoded, gated and run exactly as
** toolgov_run_invoke() does a pooled tool, with the same return codes;
** TOOLGOV_ENOENT for a spec no mounted plugin declared, TOOLGOV_EINVAL on
** a run that is not a child. */
TOOLGOV_EXTERN int toolgov_run_invoke_declared(toolgov_outcome *out, toolgov_run *run,
                                               const toolgov_tool_spec *spec,
                                               toolgov_handler_fn handler, const char *args);

/* End the run from the host (the model wrote its answer). 0, or
** TOOLGOV_EENDED when it had already ended. Ending a child ends only the
** child; ending a parent ends its children too: a child's end reason is
** then its parent's, and ending it again is TOOLGOV_EENDED. */
TOOLGOV_EXTERN int toolgov_run_end(toolgov_run *run);
TOOLGOV_EXTERN toolgov_end_reason toolgov_run_end_reason(const toolgov_run *run);

/* The output the run ended on when it answered directly, with its length in
** *len (when not NULL); NULL otherwise. Borrowed from the run. */
TOOLGOV_EXTERN const char *toolgov_run_answer(const toolgov_run *run, size_t *len);

/* The secret that authenticates saved run state: 32 random bytes the host
** makes once (toolgov_state_key_generate) and keeps where the saved text
** cannot be read or changed by whoever may alter that text. A text saved
** under one key is restored only under the same key. */
#define TOOLGOV_STATE_KEY_BYTES 32
typedef struct toolgov_state_key {
    unsigned char bytes[TOOLGOV_STATE_KEY_BYTES];
} toolgov_state_key;

/* Fill *out with a new key from the system's secure random source
** (libsodium's randombytes). 0, TOOLGOV_EINVAL, or TOOLGOV_EFAIL when the
** crypto library cannot start. */
TOOLGOV_EXTERN int toolgov_state_key_generate(toolgov_state_key *out);

/* Write the run's state as text (see the header comment), authenticated
** with a keyed BLAKE2b mac under `key` and bound to the run's identity
** (toolgov_run_id): the text restores only into a run of that identity, so
** a confirmation or an approval given in one run never opens the gate of
** another. Tools are named by (plugin, tool).
** Names, arguments and held outputs are stored length-prefixed and byte for
** byte, so a held output that contains a NUL puts one in the text: keep
** *needed bytes, and do not treat the text as a C string.
** Buffer contract: the renderer convention of toolgov.h (size 0 is a
** sizing call returning 0; TOOLGOV_ENOSPC when cut short). TOOLGOV_EINVAL or TOOLGOV_EFAIL (crypto library). Allocates
** nothing. */
TOOLGOV_EXTERN int toolgov_run_save(char *out, size_t size, size_t *needed,
                                    const toolgov_run *run, const toolgov_state_key *key);

/* Replace the state of `run` with the saved one. `text` is `len` bytes and
** borrowed for the call. The whole text's mac is checked under `key`, in
** constant time, before any field is read: a text not sealed with this key,
** or changed in any byte (the case of a hex digit included), or cut short,
** is refused; so is a text saved by a run of another identity
** (toolgov_run_set_id gives a fresh run the identity of the run it
** resumes). The run must come from a
** policy with the same fingerprint (same tools, effects and confirm-once
** set) as the saved one, and every tool the text names must be in the pool
** under the same plugin. TOOLGOV_ESTATE for text that is malformed,
** truncated, altered, not sealed with `key`, of another run, of another
** version or of another policy; TOOLGOV_ENOMEM; TOOLGOV_EINVAL; in every failure case the
** run is unchanged. */
TOOLGOV_EXTERN int toolgov_run_restore(toolgov_run *run, const char *text, size_t len,
                                       const toolgov_state_key *key);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_RUN_H */
