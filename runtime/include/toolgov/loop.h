/* SPDX-License-Identifier: MIT */
/*
** loop.h: the agent loop, in the runtime and without I/O (SPEC §12).
**
** The loop owns the mechanics of one turn: it builds each model request,
** reads each model response, runs the gate (run.h), says what to ask the
** user, invokes the handlers and decides when the turn ends. It opens no
** socket and starts no thread: the host (or a transport library, such as
** toolgov-agent's) moves the bytes. A turn is driven like this:
**
**     toolgov_loop_start(lp, run, "Find my bills ...", names, n);
**     for (;;) {
**         toolgov_loop_action a;
**         toolgov_loop_next(lp, &a);
**         if (a.what == TOOLGOV_LOOP_SEND)        POST a.text; then
**             toolgov_loop_response(lp, body, body_len);
**             (or, streamed: toolgov_loop_response_chunk() per piece,
**             then toolgov_loop_response_end())
**         else if (a.what == TOOLGOV_LOOP_ASK)    show a.text; then
**             toolgov_loop_answer(lp, yes);
**         else                                    TOOLGOV_LOOP_DONE:
**             break;                              a.text is the answer,
**     }                                           a.end why it ended
**
** toolgov_loop_drive() does the same through two host callbacks.
**
** What the loop does, step by step:
**   - Every request carries the system text (the host's preamble, the tool
**     section of prompt.h without the schemas when the tools go natively,
**     and the rule that matches who asks: the loop's own question by
**     default), the user's message, every message of the turn so far, and
**     the tools on the loop (the shortlist, in order) in the API's own
**     format (toolcalls.h's renderer). From the second request on, a last
**     user message restates the user's request and lists what the turn
**     has done (each call, its canonical arguments, and whether it ran, was
**     replayed, was not run and why), with the instruction not to repeat a
**     completed call. It is written fresh for each request.
**   - Every tool call of a response is answered by exactly one tool result
**     carrying the call's id (an id the model left out or used twice is
**     replaced by a unique one in the history the loop sends back).
**   - Calls are decoded against their tools' parameters first. A call of a
**     tool not on the loop, or with arguments its parameters refuse, or not
**     a well-formed call at all, runs nothing: its result tells the model
**     what was wrong (the decoder's message) so it can send it again.
**   - The batch's confirm-once writes are asked about in ONE question that
**     lists them all (the policy's scope, run or listed, decides what a yes
**     covers); each destructive call is asked about on its own, just
**     before it would run; everything else runs in the order the model
**     gave. A repeat of an answers-directly call replays its result.
**   - The turn ends when: the model answers in text (ANSWERED); an
**     answers-directly first tool answered (ANSWERED_DIRECTLY); the model
**     still calls tools after max_steps requests (STEP_LIMIT); a request
**     would exceed max_request bytes (SIZE_LIMIT); the model stopped at
**     its output limit (TRUNCATED) or refused (REFUSAL); the API answered
**     with an error (API_ERROR, with the API's own message); the response
**     is not one of the API's responses (BAD_RESPONSE); or the host gave
**     up (ABORTED, toolgov_loop_abort). The run is ended with it.
**
** Ownership: a loop borrows its policy (which must outlive it) and, for a
** turn, the run given to toolgov_loop_start (the host's: it may carry an
** audit observer, a run_ctx for handlers, restored state); the loop never
** frees the run. Everything else the loop copies. Texts and arrays in an
** action are borrowed from the loop until its next call. Allocation goes
** through the registry's allocator hook; once warm (buffers grown to the
** turn's size) a step allocates nothing. One thread at a time.
*/
#ifndef TOOLGOV_LOOP_H
#define TOOLGOV_LOOP_H

#include <stddef.h>

#include "policy.h"
#include "run.h"
#include "toolgov.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The model API a loop speaks. */
typedef enum toolgov_loop_api {
    TOOLGOV_LOOP_OPENAI_CHAT = 0,      /* POST {base}/chat/completions */
    TOOLGOV_LOOP_OPENAI_RESPONSES = 1, /* POST {base}/responses */
    TOOLGOV_LOOP_ANTHROPIC = 2         /* POST {base}/v1/messages */
} toolgov_loop_api;

/* Why a turn ended. */
typedef enum toolgov_loop_end {
    TOOLGOV_LOOP_END_NONE = 0,              /* not over */
    TOOLGOV_LOOP_END_ANSWERED = 1,          /* the model wrote its answer */
    TOOLGOV_LOOP_END_ANSWERED_DIRECTLY = 2, /* an answers-directly tool's output */
    TOOLGOV_LOOP_END_STEP_LIMIT = 3,
    TOOLGOV_LOOP_END_SIZE_LIMIT = 4,
    TOOLGOV_LOOP_END_TRUNCATED = 5,         /* the model hit its output limit */
    TOOLGOV_LOOP_END_REFUSAL = 6,           /* the model refused; text is its refusal */
    TOOLGOV_LOOP_END_API_ERROR = 7,         /* error says the API's message */
    TOOLGOV_LOOP_END_BAD_RESPONSE = 8,      /* error says what is wrong */
    TOOLGOV_LOOP_END_ABORTED = 9            /* toolgov_loop_abort */
} toolgov_loop_end;

/* Static lowercase name ("answered", "step_limit", ...); "unknown" outside
** the enum. */
TOOLGOV_EXTERN const char *toolgov_loop_end_name(toolgov_loop_end end);

typedef enum toolgov_loop_what {
    TOOLGOV_LOOP_SEND = 1, /* send text to the model, then toolgov_loop_response */
    TOOLGOV_LOOP_ASK = 2,  /* ask the user text, then toolgov_loop_answer */
    TOOLGOV_LOOP_DONE = 3  /* the turn is over */
} toolgov_loop_what;

typedef enum toolgov_loop_question {
    TOOLGOV_LOOP_QUESTION_NONE = 0,
    TOOLGOV_LOOP_CONFIRM = 1,  /* the run's one confirmation: every write listed */
    TOOLGOV_LOOP_APPROVAL = 2  /* one destructive call */
} toolgov_loop_question;

/* One thing for the host to do. Every pointer is borrowed from the loop
** until its next call. */
typedef struct toolgov_loop_action {
    toolgov_loop_what what;
    /* SEND: the request body (JSON for the API); ASK: the question for the
    ** user (the calls listed one a line, each tool and its arguments
    ** escaped as toolgov_text_shown does, so what is read is what runs);
    ** DONE: the answer
    ** ("" when there is none). NUL-terminated; len bytes. */
    const char *text;
    size_t len;
    toolgov_loop_question question;     /* ASK */
    const toolgov_proposed_call *calls; /* ASK: the calls asked about, with */
    size_t n_calls;                     /* canonical arguments */
    toolgov_loop_end end;               /* DONE */
    const char *error;                  /* DONE: the API's message or what was
                                        ** wrong; "" otherwise. Never NULL. */
    unsigned step;                      /* model requests made this turn */
} toolgov_loop_action;

/* A loop's settings. All zero is a usable default. Strings are copied. */
typedef struct toolgov_loop_options {
    toolgov_loop_api api;
    const char *model;      /* the request's "model"; NULL leaves it out */
    const char *preamble;   /* the host's part of the system text; NULL: none */
    unsigned max_steps;     /* model requests per turn; 0: 8 */
    size_t max_request;     /* bytes of one request; 0: 4 MiB */
    size_t max_response;    /* bytes of one response; 0: 8 MiB */
    unsigned max_tokens;    /* the request's output limit; 0: 4096 for
                            ** Anthropic (which requires one), none else */
    unsigned max_calls;     /* calls run per response; 0: 64 (more are each
                            ** answered "not run: too many calls") */
    int model_asks;         /* 1: the prompt carries the seed's rule (the
                            ** model asks in chat, or through ask_user);
                            ** 0: the loop's rule (the loop asks) */
    int schemas_in_prompt;  /* 1: the system text repeats every schema too */
    int strict;             /* 1: OpenAI's strict mode (both OpenAI APIs;
                            ** ignored for Anthropic): each tool says
                            ** "strict": true, every property is required
                            ** and an optional one nullable, objects are
                            ** closed, keywords strict mode does not take
                            ** (minLength, maxLength, default, ...) move
                            ** into the description; a null sent for an
                            ** optional property reads as absent */
    int stream;             /* 1: each request asks for a stream ("stream":
                            ** true); hand the body back in pieces with
                            ** toolgov_loop_response_chunk/_end */
} toolgov_loop_options;

typedef struct toolgov_loop toolgov_loop;

/* Create a loop over `pol` (borrowed). `opt` NULL: defaults. *out is owned
** by the caller (toolgov_loop_free). TOOLGOV_EINVAL (an api outside the
** enum), TOOLGOV_ENOMEM; *out untouched. */
TOOLGOV_EXTERN int toolgov_loop_new(toolgov_loop **out, const toolgov_policy *pol,
                                    const toolgov_loop_options *opt);
/* Free it (never the run of its turn). NULL is a no-op. */
TOOLGOV_EXTERN void toolgov_loop_free(toolgov_loop *lp);

/* Start a turn: the user's message `user`, the tools on the loop `tools`
** (n pooled names, e.g. toolgov_shortlist_names(); copied), the host's run
** `run` (borrowed until the turn is over or another starts; it must come
** from the loop's policy). Forgets any previous turn. TOOLGOV_EINVAL,
** TOOLGOV_ENOENT (a name not in the pool), TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_loop_start(toolgov_loop *lp, toolgov_run *run, const char *user,
                                      const char *const *tools, size_t n);

/* What to do next, in *out. While a request waits for its response, or a
** question for its answer, the same action is given again. 0,
** TOOLGOV_EINVAL (no turn started), TOOLGOV_ENOMEM (the turn is then over:
** ABORTED). */
TOOLGOV_EXTERN int toolgov_loop_next(toolgov_loop *lp, toolgov_loop_action *out);

/* Hand back the model's response to the request of the last SEND: `len`
** bytes of the body (borrowed for the call). 0 when it was a response of
** the API; TOOLGOV_EINVAL when it was an error body (the API's message in
** toolgov_loop_error) or not such a response at all: the turn then ends
** (API_ERROR or BAD_RESPONSE) and nothing of it runs. TOOLGOV_EINVAL also
** when no response is awaited. */
TOOLGOV_EXTERN int toolgov_loop_response(toolgov_loop *lp, const char *body, size_t len);

/* Streaming: hand back the body of the last SEND's response piece by
** piece as it arrives (`len` bytes of `chunk`, borrowed for the call; any
** split, even inside a line or a UTF-8 character), then
** toolgov_loop_response_end() when the body has ended. The body is the
** API's server-sent events (options.stream asks for them): OpenAI chat
** chunks up to `data: [DONE]`, the Responses API's events up to
** response.completed (.incomplete, .failed), Anthropic's up to
** message_stop; a body that is one JSON object instead (an error body) is
** read whole at the end. Tool calls are assembled from their fragments
** and nothing of them runs before the stream's end. *delta (may be NULL)
** receives the answer text this chunk brought (*delta_len bytes, ""
** when none; UTF-8 as the model sent it, possibly ending inside a
** character; borrowed until the loop's next call), for the host to show
** as it comes. 0; TOOLGOV_EINVAL when no response is awaited, or when the
** stream is an error (an error event: API_ERROR with its message; over
** max_response or not the API's events: BAD_RESPONSE): the turn then ends
** at once and the host stops reading. TOOLGOV_ENOMEM (the turn ends
** ABORTED). */
TOOLGOV_EXTERN int toolgov_loop_response_chunk(toolgov_loop *lp, const char *chunk, size_t len,
                                               const char **delta, size_t *delta_len);

/* The streamed body has ended: its calls go to the gate, as a whole
** response's do (toolgov_loop_response). A stream that stopped before the
** API's last event, or in the middle of an event (the connection dropped),
** is TOOLGOV_EINVAL with a message that says so: the turn ends
** BAD_RESPONSE and none of its calls runs, not even a whole one. */
TOOLGOV_EXTERN int toolgov_loop_response_end(toolgov_loop *lp);

/* Hand back the user's answer to the last ASK (yes non-zero). 0,
** TOOLGOV_EINVAL when no answer is awaited, TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_loop_answer(toolgov_loop *lp, int yes);

/* End the turn now (the transport failed, the user left): ABORTED, with
** `why` (copied; NULL: "") as its error. Nothing more runs. 0 or
** TOOLGOV_EINVAL. */
TOOLGOV_EXTERN int toolgov_loop_abort(toolgov_loop *lp, const char *why);

/* Why the last response was refused, or the turn's error; "" if none. */
TOOLGOV_EXTERN const char *toolgov_loop_error(const toolgov_loop *lp);

/* The blocking convenience: the host's transport and asker. */
typedef struct toolgov_loop_io {
    /* Send `request` (len bytes) and hand the response back with
    ** toolgov_loop_response(lp, ...) (or its chunks and
    ** toolgov_loop_response_end) before returning 0; a negative return
    ** (the transport failed) ends the turn ABORTED. */
    int (*send)(void *ud, toolgov_loop *lp, const char *request, size_t len);
    /* Ask the user `q->text` (q->calls lists what it is about). 1 yes,
    ** 0 no, negative ends the turn ABORTED. */
    int (*ask)(void *ud, const toolgov_loop_action *q);
    void *ud;
} toolgov_loop_io;

/* Run the started turn to its end through `io`; *done receives the DONE
** action. 0, TOOLGOV_EINVAL, TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_loop_drive(toolgov_loop *lp, const toolgov_loop_io *io,
                                      toolgov_loop_action *done);

/* ---- the calls of the turn ---------------------------------------------- */

/* What became of a call of the turn. */
typedef enum toolgov_loop_outcome {
    TOOLGOV_LOOP_CALL_PENDING = 0,  /* not decided yet (a question waits) */
    TOOLGOV_LOOP_CALL_RAN = 1,      /* its handler ran; the result is its output */
    TOOLGOV_LOOP_CALL_FAILED = 2,   /* its handler ran and failed; the result says why */
    TOOLGOV_LOOP_CALL_REPLAYED = 3, /* a repeat: the earlier result given again */
    TOOLGOV_LOOP_CALL_NOT_RUN = 4   /* nothing ran; `why` says why */
} toolgov_loop_outcome;

/* One call of the turn, as the model sent it and as the loop answered it.
** Every pointer is borrowed from the loop until its next call that is not
** a read (toolgov_loop_next, _response, _answer, _start, ...): the texts
** are NUL-terminated, their lengths exclude the NUL. */
typedef struct toolgov_loop_call_info {
    const char *id;            /* the id its result carries (the model's, or */
    size_t id_len;             /* the loop's own when it left one out or reused one) */
    const char *tool;          /* the tool named ("" when none was) */
    size_t tool_len;
    const char *args;          /* canonical arguments when status is 0; */
    size_t args_len;           /* else as the model sent them ("{}" when none) */
    const char *result;        /* the result text exactly as the model is sent */
    size_t result_len;         /* it: bytes that are not well-formed UTF-8 are
                               ** U+FFFD here, as in the request; "" while pending */
    toolgov_loop_outcome outcome;
    int why;                   /* NOT_RUN: a toolgov_not_run, or -1 for a call that
                               ** was not well formed; 0 otherwise */
    int status;                /* the decoding: 0, TOOLGOV_ENOENT (not a tool on the
                               ** loop), TOOLGOV_EARGS (arguments refused) or
                               ** TOOLGOV_EINVAL (not a well-formed call) */
    int is_error;              /* the result is marked as an error (NOT_RUN, FAILED) */
    unsigned step;             /* the model request (1, 2, ...) whose response held it */
} toolgov_loop_call_info;

/* The number of calls of the current (or last) turn, in the order the
** model sent them, every step's; 0 for NULL or before a turn. */
TOOLGOV_EXTERN size_t toolgov_loop_calls_count(const toolgov_loop *lp);

/* Call i (0 .. count-1) of the turn into *out (nothing allocated; see
** toolgov_loop_call_info for how long its pointers live). 0, or
** TOOLGOV_EINVAL for NULL or i out of range (*out untouched). */
TOOLGOV_EXTERN int toolgov_loop_call_at(const toolgov_loop *lp, size_t i,
                                        toolgov_loop_call_info *out);

/* ---- pause and resume ------------------------------------------------------ */

/* Save the turn while it waits for the user's answer (after an ASK): the
** conversation, the calls and their results, the open question and the
** run's own state (toolgov_run_save), as one text sealed with `key` (the
** run state's key and mac, run.h) and bound to the run's identity
** (toolgov_run_id; give it the host's, e.g. a conversation id, with
** toolgov_run_set_id, so a later process can name it). Renderer
** convention of toolgov.h; the text may hold NUL bytes (keep *needed
** bytes). TOOLGOV_EINVAL when no question is open, TOOLGOV_ENOMEM,
** TOOLGOV_EFAIL (crypto library). Allocates through the allocator hook. */
TOOLGOV_EXTERN int toolgov_loop_save(char *out, size_t size, size_t *needed,
                                     const toolgov_loop *lp, const toolgov_state_key *key);

/* Restore a saved turn into `lp` (made over an equivalent policy with the
** same api; a new process may restore it) and the fresh run `run`, given
** the saved run's identity first (toolgov_run_set_id), which the turn then
** uses: the loop gives the same ASK again, and the answer goes on from
** there; nothing that ran runs again. The text's seal is checked first,
** in constant time over the exact bytes; a text of another run (identity),
** sealed with another key, of another api, or changed in any byte
** is refused whole with TOOLGOV_ESTATE, leaving the loop and the run as
** they were. TOOLGOV_EINVAL, TOOLGOV_ENOMEM, TOOLGOV_EFAIL. */
TOOLGOV_EXTERN int toolgov_loop_restore(toolgov_loop *lp, toolgov_run *run, const char *text,
                                        size_t len, const toolgov_state_key *key);

/* ---- texts for the model ------------------------------------------------ */

/* Outcomes of a call that did not run. */
typedef enum toolgov_not_run {
    TOOLGOV_NOT_RUN_WAITS_CONFIRM = 0, /* waiting for the run's one confirmation */
    TOOLGOV_NOT_RUN_DECLINED = 1,      /* the user said no to these changes */
    TOOLGOV_NOT_RUN_WAITS_APPROVAL = 2,/* a destructive call waiting for approval */
    TOOLGOV_NOT_RUN_NOT_APPROVED = 3,  /* the user did not approve it */
    TOOLGOV_NOT_RUN_UNKNOWN_TOOL = 4,  /* no such tool on the loop */
    TOOLGOV_NOT_RUN_BAD_ARGS = 5,      /* arguments the parameters refuse */
    TOOLGOV_NOT_RUN_ENDED = 6,         /* the run has ended */
    TOOLGOV_NOT_RUN_NO_HANDLER = 7,    /* the tool has no handler bound */
    TOOLGOV_NOT_RUN_TOO_MANY = 8       /* past the loop's calls per response */
} toolgov_not_run;

/* The text a model gets as the result of such a call: a static sentence
** starting with "not run: " that says what the model can do about it;
** "not run" outside the enum. The loop follows it with the specifics (the
** decoder's message, the tool's name) where there are some. */
TOOLGOV_EXTERN const char *toolgov_not_run_text(toolgov_not_run why);

/* One tool result in the API's shape, as the loop puts it in a request:
**   OPENAI_CHAT       {"role":"tool","tool_call_id":ID,"content":TEXT}
**   OPENAI_RESPONSES  {"type":"function_call_output","call_id":ID,"output":TEXT}
**   ANTHROPIC         {"type":"tool_result","tool_use_id":ID,"content":TEXT}
**                     (with "is_error":true when is_error; a block of the
**                     user message that follows the assistant's)
** `text` is len bytes of UTF-8 (not checked: a result the loop writes is
** a handler's output or its own). Renderer convention of toolgov.h;
** TOOLGOV_EINVAL for a NULL id or an api outside the enum. */
TOOLGOV_EXTERN int toolgov_loop_tool_result_render(char *out, size_t size, size_t *needed,
                                                   toolgov_loop_api api, const char *id,
                                                   const char *text, size_t len,
                                                   int is_error);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_LOOP_H */
