/* SPDX-License-Identifier: MIT */
/*
** model.h: the model interface of toolgov-demo.
**
** The host asks a model for the next step of a run: it hands over what a
** real LLM would see (the request the runtime's loop built: system text,
** the user's message, the tools with their JSON Schemas, every call and
** its result so far) and, read from it, the user's message, the tools on
** the loop and every observation of the run so far; it gets back either a
** batch of calls to make or a final answer. The demo ships a
** scripted model (demo_scripted_model) that reads the observations it is
** given; an LLM client plugs in by providing another demo_model_fn.
**
** Ownership: everything in a demo_turn is borrowed for the duration of the
** call. The model writes its proposal into the caller's demo_proposal.
*/
#ifndef TOOLGOV_DEMO_MODEL_H
#define TOOLGOV_DEMO_MODEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DEMO_MAX_BATCH 16u      /* most calls in one proposal */
#define DEMO_MAX_ARGS 1024u     /* longest argument text of one call */
#define DEMO_MAX_ANSWER 2048u   /* longest final answer */

/* One tool call the run made, and what came of it. */
typedef struct demo_observation {
    const char *tool;
    const char *args;
    const char *gate;    /* the gate's answer at the call: "ALLOW", "REPLAY", ... */
    int executed;        /* 1 when the handler ran */
    int status;          /* 0, or the negative TOOLGOV_E* code of the call */
    const char *output;  /* the tool's output, or why it did not run */
} demo_observation;

/* What the model sees at one step. */
typedef struct demo_turn {
    const char *user;            /* the user's message */
    const char *const *tools;    /* names of the tools on the loop */
    size_t tool_count;
    /* The request the loop built (toolgov_loop_next's SEND: an OpenAI
    ** Chat Completions body with the system text, the messages and the
    ** tools' JSON Schemas), request_len bytes; what an LLM client POSTs.
    ** NULL when the caller has none. */
    const char *request;
    size_t request_len;
    const demo_observation *obs; /* this run's observations, oldest first */
    size_t obs_count;
    unsigned step;               /* 1 for the run's first model call */
} demo_turn;

typedef struct demo_proposed {
    char tool[65];
    char args[DEMO_MAX_ARGS];
} demo_proposed;

/* The model's answer: call_count calls (made in order, as one batch), or,
** with call_count 0, the final answer to the user. */
typedef struct demo_proposal {
    size_t call_count;
    demo_proposed calls[DEMO_MAX_BATCH];
    char answer[DEMO_MAX_ANSWER];
} demo_proposal;

/* Propose the next step. Return 0, or a negative code to abort the run
** (the host records it and ends the run). `out` arrives zeroed. */
typedef int (*demo_model_fn)(void *ud, const demo_turn *turn, demo_proposal *out);

typedef struct demo_model {
    const char *name;
    demo_model_fn propose;
    void *ud;
} demo_model;

/* The scripted model: reads the user's request and the observations, and
** proposes what a well-behaved model would. Stateless (ud unused). */
extern const demo_model demo_scripted_model;

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_DEMO_MODEL_H */
