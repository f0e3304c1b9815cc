/* SPDX-License-Identifier: MIT */
/*
** demo.h: toolgov-demo's host: the world it mounts, the scenarios it plays
** and the transcript it records.
**
** A host owns one registry with the core built-ins (ask_user and
** memory_search bound to the host's own handlers) and the seven example
** plugins mounted, each with its state from the host's demo_world; the
** drift scenario also mounts the faulty plugin. Every scenario runs in a
** fresh host, so scenarios never see each other's data.
**
** A scenario is one or more user turns; each turn is one toolgov run driven
** by the runtime's loop (toolgov/loop.h) with a model (model.h) behind the
** API the loop speaks. Everything that happens (model calls, questions to
** the user, each call with the gate's answer and its output, how the run
** ended) is recorded as events in a demo_transcript, which report.c prints
** as text or JSON together with the data state afterwards.
**
** Ownership: a transcript owns every string in its events (freed by
** demo_transcript_free). The host owns its registry, policy and world.
*/
#ifndef TOOLGOV_DEMO_DEMO_H
#define TOOLGOV_DEMO_DEMO_H

#include <stddef.h>
#include <stdio.h>

#include <toolgov/audit.h>
#include <toolgov/drift.h>
#include <toolgov/policy.h>
#include <toolgov/toolgov.h>

#include "calendar_state.h"
#include "email_state.h"
#include "model.h"
#include "planner_state.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The operator override the drift scenario sets: it keeps create_reminder
** and names a tool that does not exist (a typo), which the panel reports.
** When TOOLGOV_CONFIRM_ONCE_TOOLS is set in the environment, the host applies
** that instead, in every scenario (toolgov_policy_override_from_env), as any
** host that honours the operator's override would. */
#define DEMO_DRIFT_OVERRIDE "create_reminder,create_remindr"

/* The user whose standing grants the grant scenario holds (grants.h). */
#define DEMO_GRANT_USER "ana"

/* Everything the plugins change, owned by the host. */
typedef struct demo_world {
    calendar_state calendar;
    email_state email;
    planner_state planner;
} demo_world;

/* Asks the user a yes/no question. kind is "confirm" (the run's one
** confirmation of its writes) or "approval" (one destructive call), both
** as the loop words them, or "ask_user" (the model's own question). The
** question is safe to show as it is: every call and every model-written
** text in it went through toolgov_text_shown. Returns 1 for yes, 0 for no. */
typedef int (*demo_answer_fn)(void *ud, const char *kind, const char *question);

typedef struct demo_answerer {
    demo_answer_fn ask;
    void *ud;
} demo_answerer;

typedef enum demo_event_type {
    DEMO_EV_TURN = 0,   /* a user turn begins: text = the user's message */
    DEMO_EV_MODEL,      /* a model call: items = proposed calls, or text = answer */
    DEMO_EV_ASK,        /* a question to the user: kind, text, items, answer */
    DEMO_EV_CALL,       /* one call through the gate: tool, args, gate, executed, status,
                        ** text (its output), grant */
    DEMO_EV_END         /* the run ended: kind = reason, text = the answer */
} demo_event_type;

typedef struct demo_event {
    demo_event_type type;
    unsigned turn;        /* 1-based user turn */
    unsigned step;        /* DEMO_EV_MODEL: 1-based model call of the run */
    const char *gate;     /* static gate name, or NULL */
    const char *kind;     /* static: ask kind, end reason */
    char *tool;
    char *args;
    char *text;
    char **items;         /* DEMO_EV_MODEL/ASK: "tool args" */
    size_t item_count;
    int executed;
    int status;
    int answer;           /* DEMO_EV_ASK: 1 yes, 0 no */
    unsigned long long grant; /* DEMO_EV_CALL: the standing grant that decided
                          ** it (its id in the user's set), 0 for none */
    int pending;          /* host-internal: the output is still to come */
    int shown;            /* text is already safe to show a person (the loop
                          ** wrote it with toolgov_text_shown); every other
                          ** text is shown through it by the report */
} demo_event;

typedef struct demo_transcript {
    const char *scenario;
    const char *title;
    demo_event *events;
    size_t count, cap;
    int failed;           /* an allocation failed: the transcript is incomplete */
    /* Totals over the whole scenario. */
    unsigned model_calls, asks, executions, turns;
    /* Non-run scenarios: the prompt text, the drift panel text and JSON. */
    char *prompt;
    char **prompt_tools;
    size_t prompt_tool_count;
    char *drift_text;
    char *drift_json;
    char *override;       /* the operator override in effect, or NULL for none */
    char *grant;          /* the standing grant the runs hold, in words, or NULL */
    size_t printed;       /* events printed to `live` so far */
    unsigned model_calls_turn; /* model calls of the turn being played */
    int has_state;
    demo_world state;     /* the world after the scenario */
    FILE *live;           /* when set, each event is printed as text as it happens */
    toolgov_audit_jsonl *audit; /* when set, every run's decisions are logged there
                          ** (borrowed; run id "<scenario>/turn-<n>") */
} demo_transcript;

void demo_transcript_free(demo_transcript *tr);

/* Building a transcript (the host's; report.c). Each sets tr->failed when
** an allocation fails, so an incomplete transcript says so.
**   demo_tr_dup     n bytes of s as a new string (NULL s: NULL)
**   demo_tr_printf  a new formatted string
**   demo_tr_items   a zeroed array of n item strings
**   demo_tr_add     append an event (its strings become the transcript's;
**                   freed on failure): its index, or (size_t)-1
**   demo_tr_flush   print to tr->live the events not printed yet, up to
**                   the first one whose output is still to come (pending) */
char *demo_tr_dup(demo_transcript *tr, const char *s, size_t n);
char *demo_tr_printf(demo_transcript *tr, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
char **demo_tr_items(demo_transcript *tr, size_t n);
size_t demo_tr_add(demo_transcript *tr, const demo_event *ev);
void demo_tr_flush(demo_transcript *tr);

/* Options of one invocation of toolgov-demo. */
typedef struct demo_options {
    int answer;           /* -1: each scenario's scripted default; 0 no; 1 yes */
    int interactive;      /* ask the person at the terminal */
    int json;
    FILE *in;             /* where --interactive reads answers */
    FILE *out;
} demo_options;

typedef enum demo_kind {
    DEMO_KIND_RUN = 0,
    DEMO_KIND_PROMPT,
    DEMO_KIND_DRIFT
} demo_kind;

typedef struct demo_scenario {
    const char *name;
    const char *title;
    demo_kind kind;
    const char *turns[3];      /* the user's messages, one run each */
    const char *ranking[8];    /* the retriever's ranking for the shortlist */
    int default_answer;        /* the scripted user's answer, 1 yes / 0 no */
    const char *grant;         /* a write tool the user always allows (a standing
                               ** grant of DEMO_GRANT_USER's), or NULL */
} demo_scenario;

extern const demo_scenario demo_scenarios[];
extern const size_t demo_scenario_count;

/* Play one scenario with `model`, answering questions through `answerer`.
** The transcript is filled (and must be freed) even when the scenario fails.
** 0, or a negative TOOLGOV_E* code when the host could not be set up. */
int demo_play(demo_transcript *out, const demo_scenario *sc, const demo_model *model,
              const demo_answerer *answerer);

/* Print a transcript as readable text, or as one JSON object on one line.
** The text form is printed in three parts so a live transcript can print
** each event as it happens: the heading, the events, the closing summary. */
void demo_report_text(FILE *f, const demo_transcript *tr);
void demo_report_heading(FILE *f, const demo_transcript *tr);
/* Print text that came from outside (an environment variable, a message
** quoting one) on the current line, through toolgov_text_shown: controls,
** terminal escapes, bidirectional and invisible characters and a backslash
** are written as escapes, so it can neither start a line of its own nor
** change what the rest of the line looks like. The text form shows every
** model- or tool-supplied text (calls, outputs, questions, answers, the
** data afterwards) the same way, line by line. */
void demo_report_escaped(FILE *f, const char *s);
void demo_report_event(FILE *f, const demo_event *ev);
void demo_report_closing(FILE *f, const demo_transcript *tr);
void demo_report_json(FILE *f, const demo_transcript *tr);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_DEMO_DEMO_H */
