/* SPDX-License-Identifier: MIT */
/*
** loop_internal.h: the loop's state, shared by loop.c (the turn) and
** loop_state.c (saving and restoring a turn stopped at a question).
** Internal to libtoolgov.
*/
#ifndef TOOLGOV_LOOP_INTERNAL_H
#define TOOLGOV_LOOP_INTERNAL_H

#include "internal.h"
#include "toolgov/loop.h"
#include "wire.h"

enum { ST_IDLE, ST_SEND, ST_WAIT_RESPONSE, ST_GATE, ST_WAIT_CONFIRM, ST_EXEC, ST_WAIT_APPROVAL,
       ST_DONE };
enum { OC_PENDING, OC_RAN, OC_FAILED, OC_REPLAYED, OC_NOT_RUN };
#define WHY_MALFORMED (-1)

#define DEFAULT_STEPS 8u
#define DEFAULT_REQUEST ((size_t)4 << 20)
#define DEFAULT_RESPONSE ((size_t)8 << 20)
#define DEFAULT_CALLS 64u
#define ANTHROPIC_TOKENS 4096u

typedef struct lcall {
    size_t id, id_len;         /* offsets in store */
    size_t name, name_len;
    size_t raw, raw_len;       /* the arguments as the model sent them */
    size_t args, args_len;     /* canonical when status is 0; else = raw */
    size_t result, result_len;
    size_t sent, sent_len;     /* the result as the model reads it: = result, or a
                               ** copy with U+FFFD for bytes not well-formed UTF-8 */
    int status;                /* 0, TOOLGOV_ENOENT, TOOLGOV_EARGS, TOOLGOV_EINVAL */
    int outcome;               /* OC_* */
    int why;                   /* OC_NOT_RUN: toolgov_not_run or WHY_MALFORMED */
    int is_error;
    int asked;                 /* its approval was asked for */
} lcall;

typedef struct lstep {
    size_t text, text_len;     /* the assistant's text beside its calls */
    size_t first, n;           /* its calls */
} lstep;

struct toolgov_loop {
    const toolgov_policy *pol;
    const toolgov_registry *reg;
    toolgov_allocator alloc;
    toolgov_loop_options opt;
    toolgov__jbuf settings;    /* the options' strings */
    toolgov_run *run;
    int state;
    unsigned steps;
    toolgov__jbuf store;
    size_t user, user_len;
    toolgov__jbuf names;       /* the tools on the loop, NUL-separated */
    const char **tools;
    size_t n_tools, tools_cap;
    toolgov__jbuf system, tools_json, req, pad, question, answer;
    lcall *calls;
    size_t n_calls, calls_cap;
    lstep *stepv;
    size_t n_steps, steps_cap;
    size_t cursor;             /* EXEC: the next call */
    toolgov_proposed_call *props;
    size_t props_cap, n_asked;
    size_t *asked_call;        /* the calls the open question is about */
    size_t asked_cap;
    toolgov_gate *per_call;
    size_t *confirm_idx, *prop_call;
    size_t per_call_cap, confirm_cap, prop_call_cap;
    int question_kind;
    int streaming;             /* WAIT_RESPONSE: a stream is being fed */
    toolgov__wire wire;
    toolgov_loop_end end;
    char error[640];
};

#define S(lp, off) ((lp)->store.ptr + (off))

/* loop.c: copy n bytes and a NUL into the turn's store; its offset. */
size_t toolgov__loop_keep(toolgov_loop *lp, const char *s, size_t n);
/* loop.c: set c's sent text from its result (after the result is set). */
void toolgov__loop_keep_sent(toolgov_loop *lp, lcall *c);
/* loop.c: the turn's prompt and tools for lp->tools (after a restore). */
int toolgov__loop_prepare(toolgov_loop *lp);

#endif /* TOOLGOV_LOOP_INTERNAL_H */
