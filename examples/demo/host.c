/* SPDX-License-Identifier: MIT */
/*
** host.c: toolgov-demo's host. It mounts the example plugins into a real
** registry, binds the core built-ins it implements (ask_user,
** memory_search), and drives each user turn as one toolgov run: the model
** proposes a batch, the gate decides, the user is asked where the gate says
** so, and every call goes through toolgov_run_invoke() so the runtime, not
** the host, decides what executes.
*/
#include "demo.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/prompt.h>
#include <toolgov/run.h>
#include <toolgov/shortlist.h>
#include <toolgov/toolcalls.h>

#include "calendar.toolgov.h"
#include "code_exec.toolgov.h"
#include "email_workflows.toolgov.h"
#include "exworld.h"
#include "faulty.h"
#include "finance_workflows.toolgov.h"
#include "planner.toolgov.h"
#include "research.toolgov.h"
#include "system.toolgov.h"

#define MAX_STEPS 8u
#define SHORTLIST_LIMIT 8u


typedef struct host {
    toolgov_registry *reg;
    toolgov_policy *pol;
    demo_world *world;
    demo_transcript *tr;
    const demo_answerer *answerer;
    unsigned turn;
    toolgov_plugin faulty; /* built by hand; must outlive the registry it is mounted in */
} host;

/* ---- transcript --------------------------------------------------------- */

static char *dup_str(demo_transcript *tr, const char *s)
{
    char *d;
    size_t n;
    if (!s)
        return NULL;
    n = strlen(s);
    d = malloc(n + 1);
    if (!d) {
        tr->failed = 1;
        return NULL;
    }
    memcpy(d, s, n + 1);
    return d;
}

static char *format_str(demo_transcript *tr, const char *fmt, ...)
{
    va_list ap;
    char small[512], *big;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        tr->failed = 1;
        return NULL;
    }
    if ((size_t)n < sizeof small)
        return dup_str(tr, small);
    big = malloc((size_t)n + 1);
    if (!big) {
        tr->failed = 1;
        return NULL;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return big;
}

/* Append an event (copied by value, strings already owned) and print it
** when the transcript is live. Returns the stored event or NULL. */
static demo_event *add_event(demo_transcript *tr, const demo_event *ev)
{
    if (tr->count == tr->cap) {
        size_t cap = tr->cap ? tr->cap * 2 : 32;
        demo_event *e = realloc(tr->events, cap * sizeof *e);
        if (!e) {
            size_t i;
            tr->failed = 1;
            free(ev->tool);
            free(ev->args);
            free(ev->text);
            for (i = 0; i < ev->item_count; i++)
                free(ev->items[i]);
            free(ev->items);
            return NULL;
        }
        tr->events = e;
        tr->cap = cap;
    }
    tr->events[tr->count] = *ev;
    if (tr->live)
        demo_report_event(tr->live, &tr->events[tr->count]);
    return &tr->events[tr->count++];
}

static char **new_items(demo_transcript *tr, size_t n)
{
    char **items = calloc(n ? n : 1, sizeof *items);
    if (!items)
        tr->failed = 1;
    return items;
}

void demo_transcript_free(demo_transcript *tr)
{
    size_t i, j;
    if (!tr)
        return;
    for (i = 0; i < tr->count; i++) {
        demo_event *e = &tr->events[i];
        free(e->tool);
        free(e->args);
        free(e->text);
        for (j = 0; j < e->item_count; j++)
            free(e->items[j]);
        free(e->items);
    }
    free(tr->events);
    free(tr->prompt);
    for (i = 0; i < tr->prompt_tool_count; i++)
        free(tr->prompt_tools[i]);
    free(tr->prompt_tools);
    free(tr->drift_text);
    free(tr->drift_json);
    free(tr->override);
    memset(tr, 0, sizeof *tr);
}

/* ---- the core built-ins the host implements ----------------------------- */

static const char *const memories[] = {
    "Prefers reminders at 08:30 on the day something is due.",
    "Works at Harbour Labs; the team stand-up is every weekday at 09:30.",
    "Has lunch with Ana on Tuesdays.",
    "Pays the rent by bank transfer, never by card.",
};

/* The built-ins' parameters are in the runtime (a required, non-empty
** string each); the handlers get the decoded struct. */
static int builtin_memory_search(const toolgov_call *call, const void *decoded,
                                 toolgov_result *out)
{
    const toolgov_core_memory_search_args *args = decoded;
    size_t i, found = 0;

    (void)call;
    for (i = 0; i < sizeof memories / sizeof memories[0]; i++) {
        /* Any word of four letters or more: a crude stand-in for the
        ** semantic search a real memory would do. */
        if (!exworld_words_match(memories[i], args->query.ptr, args->query.len, 4))
            continue;
        if (toolgov_result_printf(out, "- %s\n", memories[i]))
            return TOOLGOV_ENOMEM;
        found++;
    }
    if (!found && toolgov_result_printf(out, "Nothing remembered about '%.*s'.",
                                        (int)args->query.len, args->query.ptr))
        return TOOLGOV_ENOMEM;
    return 0;
}

/* The model's question, read with its length and shown as a person should
** see it (toolgov_text_shown): the person is asked exactly what the model
** wrote, with nothing in it able to change the terminal. */
static int builtin_ask_user(const toolgov_call *call, const void *decoded,
                            toolgov_result *out)
{
    const toolgov_core_ask_user_args *args = decoded;
    host *h = call->plugin_ctx;
    demo_event ev;
    size_t need = 0;
    char *question;
    int yes;

    if (toolgov_text_shown(NULL, 0, &need, args->question.ptr, args->question.len) ||
        !(question = malloc(need + 1)))
        return TOOLGOV_ENOMEM;
    (void)toolgov_text_shown(question, need + 1, NULL, args->question.ptr, args->question.len);
    yes = h->answerer->ask(h->answerer->ud, "ask_user", question);
    memset(&ev, 0, sizeof ev);
    ev.type = DEMO_EV_ASK;
    ev.turn = h->turn;
    ev.kind = "ask_user";
    ev.text = question;
    ev.shown = 1;
    ev.answer = yes;
    h->tr->asks++;
    add_event(h->tr, &ev);
    return toolgov_result_printf(out, "The user answered: %s.", yes ? "yes" : "no")
               ? TOOLGOV_ENOMEM : 0;
}

/* ---- setting up ----------------------------------------------------------- */

/* from_env: apply the operator's TOOLGOV_CONFIRM_ONCE_TOOLS (it is set);
** otherwise apply `override` when not NULL. */
static int host_open(host *h, demo_world *world, int with_faulty, int from_env,
                     const char *override)
{
    int rc;

    memset(h, 0, sizeof *h);
    h->world = world;
    calendar_state_init(&world->calendar);
    email_state_init(&world->email);
    planner_state_init(&world->planner);
    if ((rc = toolgov_registry_new(&h->reg, NULL)))
        return rc;
    if ((rc = toolgov_registry_bind_builtin(h->reg, "ask_user", builtin_ask_user, h)) ||
        (rc = toolgov_registry_bind_builtin(h->reg, "memory_search", builtin_memory_search,
                                            h)))
        return rc;
    /* Mount order is registration order: it is the order of the prompt's
    ** guidance and, for the faulty plugin, what makes `research` a duplicate. */
    if ((rc = toolgov_registry_mount(h->reg, &calendar_toolgov_plugin, &world->calendar)) ||
        (rc = toolgov_registry_mount(h->reg, &finance_workflows_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(h->reg, &email_workflows_toolgov_plugin, &world->email)) ||
        (rc = toolgov_registry_mount(h->reg, &planner_toolgov_plugin, &world->planner)) ||
        (rc = toolgov_registry_mount(h->reg, &system_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(h->reg, &research_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(h->reg, &code_exec_toolgov_plugin, NULL)))
        return rc;
    if (with_faulty) {
        faulty_plugin_by_hand(&h->faulty);
        if ((rc = toolgov_registry_mount(h->reg, &h->faulty, NULL)))
            return rc;
    }
    if ((rc = toolgov_policy_new(&h->pol, h->reg)))
        return rc;
    /* The operator's variables (TOOLGOV_CONFIRM_SCOPE always, the
    ** confirm-once override when set); else the scenario's own override. */
    rc = toolgov_policy_override_from_env(h->pol);
    if (rc == 0 && !from_env && override)
        rc = toolgov_policy_set_override(h->pol, override);
    return rc;
}

static void host_close(host *h)
{
    toolgov_policy_free(h->pol);
    toolgov_registry_free(h->reg);
    h->pol = NULL;
    h->reg = NULL;
}

/* Render the prompt for `names` into a new string (NULL on failure). */
static char *render_prompt(demo_transcript *tr, const toolgov_policy *pol,
                           const char *const *names, size_t n)
{
    size_t needed = 0;
    char *text;
    if (toolgov_prompt_render(NULL, 0, &needed, pol, names, n) &&
        needed == 0) {
        tr->failed = 1;
        return NULL;
    }
    text = malloc(needed + 1);
    if (!text) {
        tr->failed = 1;
        return NULL;
    }
    if (toolgov_prompt_render(text, needed + 1, NULL, pol, names, n)) {
        free(text);
        tr->failed = 1;
        return NULL;
    }
    return text;
}

/* Render `names` with their JSON Schemas, as an OpenAI request's `tools`,
** into a new string (NULL on failure). */
static char *render_tools_json(demo_transcript *tr, const toolgov_policy *pol,
                               const char *const *names, size_t n)
{
    size_t needed = 0;
    char *text;
    if (toolgov_tools_render(NULL, 0, &needed, pol, TOOLGOV_TOOLS_OPENAI, names, n) &&
        needed == 0) {
        tr->failed = 1;
        return NULL;
    }
    text = malloc(needed + 1);
    if (!text) {
        tr->failed = 1;
        return NULL;
    }
    if (toolgov_tools_render(text, needed + 1, NULL, pol, TOOLGOV_TOOLS_OPENAI, names, n)) {
        free(text);
        tr->failed = 1;
        return NULL;
    }
    return text;
}

/* ---- one turn: one run ---------------------------------------------------- */

typedef struct observations {
    demo_observation *obs;
    size_t count, cap;
} observations;

static void observations_free(observations *o)
{
    size_t i;
    for (i = 0; i < o->count; i++) {
        free((char *)o->obs[i].tool);
        free((char *)o->obs[i].args);
        free((char *)o->obs[i].output);
    }
    free(o->obs);
    memset(o, 0, sizeof *o);
}

static int observe(demo_transcript *tr, observations *o, const char *tool, const char *args,
                   const char *gate, int executed, int status, const char *output)
{
    demo_observation *ob;
    if (o->count == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 16;
        demo_observation *n = realloc(o->obs, cap * sizeof *n);
        if (!n) {
            tr->failed = 1;
            return TOOLGOV_ENOMEM;
        }
        o->obs = n;
        o->cap = cap;
    }
    ob = &o->obs[o->count];
    ob->tool = dup_str(tr, tool);
    ob->args = dup_str(tr, args);
    ob->output = dup_str(tr, output);
    ob->gate = gate;
    ob->executed = executed;
    ob->status = status;
    if (!ob->tool || !ob->args || !ob->output) {
        free((char *)ob->tool);
        free((char *)ob->args);
        free((char *)ob->output);
        return TOOLGOV_ENOMEM;
    }
    o->count++;
    return 0;
}

/* The run's one question and the numbered list of every call it is about,
** so the person sees all of them before answering once. The calls are
** "changes" only when every one of them writes: the operator's override can
** make a read ask too, and a read changes nothing. */
static char *confirm_question(demo_transcript *tr, char *const *items, size_t n,
                              size_t writes)
{
    size_t len = 64, i, at;
    char *q;
    for (i = 0; i < n; i++)
        len += strlen(items[i] ? items[i] : "") + 32;
    if (!(q = malloc(len))) {
        tr->failed = 1;
        return NULL;
    }
    if (writes == n)
        at = (size_t)(n == 1 ? snprintf(q, len, "Make this change?")
                             : snprintf(q, len, "Make these %lu changes?", (unsigned long)n));
    else
        at = (size_t)(n == 1 ? snprintf(q, len, "Run this call?")
                             : snprintf(q, len, "Run these %lu calls?", (unsigned long)n));
    for (i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(q + at, len - at, "\n  %lu. %s", (unsigned long)i + 1,
                               items[i] ? items[i] : "");
    return q;
}

/* Why a call that did not execute did not, in words the model can use. */
static const char *not_run_reason(int rc, toolgov_gate gate, const toolgov_run *run)
{
    if (rc == TOOLGOV_EAPPROVAL)
        return "not run: the user did not approve this call";
    if (rc == TOOLGOV_ECONFIRM)
        return "not run: waiting for the user's confirmation";
    if (gate == TOOLGOV_GATE_REFUSE &&
        toolgov_run_confirmation(run) == TOOLGOV_CONFIRMATION_REFUSED)
        return "not run: the user said no to these changes";
    if (rc == TOOLGOV_EENDED)
        return "not run: the run has ended";
    return NULL;
}

static int play_turn(host *h, const char *user, const char *const *names, size_t name_count,
                     const char *prompt, const char *tools_json, const demo_model *model)
{
    demo_transcript *tr = h->tr;
    toolgov_run *run = NULL;
    observations obs = {NULL, 0, 0};
    demo_proposal *prop = NULL;
    toolgov_proposed_call batch[DEMO_MAX_BATCH];
    toolgov_gate per_call[DEMO_MAX_BATCH];
    size_t confirm_idx[DEMO_MAX_BATCH];
    unsigned step;
    demo_event ev;
    int rc;

    memset(&ev, 0, sizeof ev);
    ev.type = DEMO_EV_TURN;
    ev.turn = h->turn;
    ev.text = dup_str(tr, user);
    ev.item_count = name_count;
    ev.items = new_items(tr, name_count);
    if (ev.items) {
        size_t i;
        for (i = 0; i < name_count; i++)
            ev.items[i] = dup_str(tr, names[i]);
    } else {
        ev.item_count = 0;
    }
    add_event(tr, &ev);

    if ((rc = toolgov_run_new(&run, h->pol, h)))
        goto out;
    if (tr->audit) {
        /* --audit: this run's decisions go to the log, under an id that
        ** names the scenario and the turn. */
        toolgov_audit_options ao;
        char id[96];

        memset(&ao, 0, sizeof ao);
        snprintf(id, sizeof id, "%s/turn-%u", tr->scenario ? tr->scenario : "demo", h->turn);
        ao.observer = toolgov_audit_jsonl_observe;
        ao.ud = tr->audit;
        ao.run_id = id;
        if ((rc = toolgov_run_set_audit(run, &ao)))
            goto out;
    }
    if (!(prop = malloc(sizeof *prop))) {
        rc = TOOLGOV_ENOMEM;
        goto out;
    }

    for (step = 1; step <= MAX_STEPS; step++) {
        demo_turn t;
        toolgov_gate batch_gate;
        size_t i, confirm_count = 0;
        int mrc;

        t.user = user;
        t.prompt = prompt;
        t.tools = names;
        t.tool_count = name_count;
        t.tools_json = tools_json;
        t.obs = obs.obs;
        t.obs_count = obs.count;
        t.step = step;
        memset(prop, 0, sizeof *prop);
        mrc = model->propose(model->ud, &t, prop);
        tr->model_calls++;
        if (prop->call_count > DEMO_MAX_BATCH)
            prop->call_count = DEMO_MAX_BATCH;

        memset(&ev, 0, sizeof ev);
        ev.type = DEMO_EV_MODEL;
        ev.turn = h->turn;
        ev.step = step;
        ev.status = mrc;
        if (!mrc && prop->call_count == 0) {
            prop->answer[DEMO_MAX_ANSWER - 1] = '\0';
            ev.text = dup_str(tr, prop->answer);
        }
        ev.items = new_items(tr, prop->call_count);
        if (ev.items) {
            ev.item_count = prop->call_count;
            for (i = 0; i < prop->call_count; i++) {
                prop->calls[i].tool[sizeof prop->calls[i].tool - 1] = '\0';
                prop->calls[i].args[DEMO_MAX_ARGS - 1] = '\0';
                ev.items[i] = format_str(tr, "%s %s", prop->calls[i].tool,
                                         prop->calls[i].args[0] ? prop->calls[i].args : "{}");
            }
        }
        add_event(tr, &ev);

        if (mrc || prop->call_count == 0) {
            toolgov_run_end(run);
            memset(&ev, 0, sizeof ev);
            ev.type = DEMO_EV_END;
            ev.turn = h->turn;
            ev.kind = mrc ? "model_error" : "model_answered";
            ev.text = dup_str(tr, mrc ? toolgov_strerror(mrc) : prop->answer);
            add_event(tr, &ev);
            goto out;
        }

        for (i = 0; i < prop->call_count; i++) {
            batch[i].tool = prop->calls[i].tool;
            batch[i].args = prop->calls[i].args[0] ? prop->calls[i].args : "{}";
        }
        if ((rc = toolgov_run_gate_batch(&batch_gate, per_call, confirm_idx, &confirm_count,
                                         run, batch, prop->call_count)))
            goto out;
        memset(&ev, 0, sizeof ev);
        ev.type = DEMO_EV_GATE;
        ev.turn = h->turn;
        ev.step = step;
        ev.gate = toolgov_gate_name(batch_gate);
        ev.items = new_items(tr, prop->call_count);
        if (ev.items) {
            ev.item_count = prop->call_count;
            for (i = 0; i < prop->call_count; i++)
                ev.items[i] = format_str(tr, "%s %s: %s", batch[i].tool, batch[i].args,
                                         toolgov_gate_name(per_call[i]));
        }
        add_event(tr, &ev);

        /* The run's one confirmation: one question listing every write the
        ** model proposed, asked before any of them runs. */
        if (batch_gate == TOOLGOV_GATE_ASK_FIRST && confirm_count > 0) {
            toolgov_proposed_call listed[DEMO_MAX_BATCH];
            size_t writes = 0;
            int yes;
            for (i = 0; i < confirm_count; i++) {
                const toolgov_tool_spec *spec =
                    toolgov_registry_find(h->reg, batch[confirm_idx[i]].tool);
                listed[i] = batch[confirm_idx[i]];
                writes += spec && spec->effect != TOOLGOV_EFFECT_READ;
            }
            memset(&ev, 0, sizeof ev);
            ev.type = DEMO_EV_ASK;
            ev.turn = h->turn;
            ev.kind = "confirm";
            ev.items = new_items(tr, confirm_count);
            if (ev.items) {
                ev.item_count = confirm_count;
                for (i = 0; i < confirm_count; i++)
                    ev.items[i] = format_str(tr, "%s %s", batch[confirm_idx[i]].tool,
                                             batch[confirm_idx[i]].args);
            }
            ev.text = confirm_question(tr, ev.items, ev.item_count, writes);
            yes = h->answerer->ask(h->answerer->ud, "confirm", ev.text ? ev.text : "");
            ev.answer = yes;
            tr->asks++;
            add_event(tr, &ev);
            /* The answer covers the calls the question listed (all of the
            ** run's writes under the default scope, exactly these under
            ** TOOLGOV_CONFIRM_SCOPE=listed). */
            if ((rc = toolgov_run_confirm_listed(run, yes, listed, confirm_count)))
                goto out;
        }

        for (i = 0; i < prop->call_count; i++) {
            toolgov_outcome oc;
            const char *output, *reason;
            int irc;

            if (toolgov_run_gate(run, batch[i].tool, batch[i].args) ==
                TOOLGOV_GATE_NEEDS_APPROVAL) {
                int yes;
                memset(&ev, 0, sizeof ev);
                ev.type = DEMO_EV_ASK;
                ev.turn = h->turn;
                ev.kind = "approval";
                ev.text = format_str(tr, "Approve this call? It cannot be undone.\n  %s %s",
                                     batch[i].tool, batch[i].args);
                ev.items = new_items(tr, 1);
                if (ev.items) {
                    ev.item_count = 1;
                    ev.items[0] = format_str(tr, "%s %s", batch[i].tool, batch[i].args);
                }
                yes = h->answerer->ask(h->answerer->ud, "approval", ev.text ? ev.text : "");
                ev.answer = yes;
                tr->asks++;
                add_event(tr, &ev);
                if (yes && (rc = toolgov_run_approve(run, batch[i].tool, batch[i].args)))
                    goto out;
            }

            memset(&oc, 0, sizeof oc);
            irc = toolgov_run_invoke(&oc, run, batch[i].tool, batch[i].args);
            if (irc == TOOLGOV_ENOMEM || irc == TOOLGOV_EINVAL) {
                rc = irc;
                goto out;
            }
            reason = oc.executed || oc.gate == TOOLGOV_GATE_REPLAY
                         ? NULL
                         : not_run_reason(irc, oc.gate, run);
            output = reason ? reason : (oc.output && oc.output[0] ? oc.output
                                                                  : toolgov_strerror(irc));
            if (oc.executed)
                tr->executions++;

            memset(&ev, 0, sizeof ev);
            ev.type = DEMO_EV_CALL;
            ev.turn = h->turn;
            ev.step = step;
            ev.tool = dup_str(tr, batch[i].tool);
            ev.args = dup_str(tr, batch[i].args);
            ev.gate = toolgov_gate_name(oc.gate);
            ev.executed = oc.executed;
            ev.status = irc;
            ev.text = dup_str(tr, output);
            add_event(tr, &ev);
            if ((rc = observe(tr, &obs, batch[i].tool, batch[i].args, toolgov_gate_name(oc.gate),
                              oc.executed, irc, output)))
                goto out;

            if (oc.ended) {
                size_t len = 0;
                const char *answer = toolgov_run_answer(run, &len);
                memset(&ev, 0, sizeof ev);
                ev.type = DEMO_EV_END;
                ev.turn = h->turn;
                ev.kind = toolgov_end_reason_name(toolgov_run_end_reason(run));
                ev.text = dup_str(tr, answer ? answer : "");
                add_event(tr, &ev);
                goto out;
            }
        }
    }
    toolgov_run_end(run);
    memset(&ev, 0, sizeof ev);
    ev.type = DEMO_EV_END;
    ev.turn = h->turn;
    ev.kind = "step_limit";
    ev.text = dup_str(tr, "");
    add_event(tr, &ev);
    rc = 0;
out:
    free(prop);
    observations_free(&obs);
    toolgov_run_free(run);
    return rc;
}

/* ---- scenarios ------------------------------------------------------------ */

static int play_prompt(host *h)
{
    demo_transcript *tr = h->tr;
    size_t n = toolgov_registry_count(h->reg), i;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names)
        return TOOLGOV_ENOMEM;
    for (i = 0; i < n; i++)
        names[i] = toolgov_registry_at(h->reg, i)->name;
    tr->prompt = render_prompt(tr, h->pol, names, n);
    tr->prompt_tools = calloc(n ? n : 1, sizeof *tr->prompt_tools);
    if (tr->prompt_tools) {
        tr->prompt_tool_count = n;
        for (i = 0; i < n; i++)
            tr->prompt_tools[i] = dup_str(tr, names[i]);
    }
    free(names);
    return tr->prompt && tr->prompt_tools ? 0 : TOOLGOV_ENOMEM;
}

static char *render_drift(demo_transcript *tr, const host *h, int json)
{
    size_t needed = 0;
    char *text;
    if (json)
        toolgov_drift_render_json(NULL, 0, &needed, h->reg, h->pol);
    else
        toolgov_drift_render_text(NULL, 0, &needed, h->reg, h->pol);
    text = malloc(needed + 1);
    if (!text) {
        tr->failed = 1;
        return NULL;
    }
    if ((json ? toolgov_drift_render_json(text, needed + 1, NULL, h->reg, h->pol)
              : toolgov_drift_render_text(text, needed + 1, NULL, h->reg, h->pol))) {
        free(text);
        tr->failed = 1;
        return NULL;
    }
    return text;
}

int demo_play(demo_transcript *out, const demo_scenario *sc, const demo_model *model,
              const demo_answerer *answerer)
{
    FILE *live = out->live;
    toolgov_audit_jsonl *audit = out->audit;
    const char *env = getenv(TOOLGOV_CONFIRM_ONCE_ENV);
    const char *override = env ? env : sc->kind == DEMO_KIND_DRIFT ? DEMO_DRIFT_OVERRIDE : NULL;
    toolgov_shortlist *sl = NULL;
    demo_world *world;
    host h;
    int rc;

    memset(out, 0, sizeof *out);
    out->live = live;
    out->audit = audit;
    out->scenario = sc->name;
    out->title = sc->title;
    out->override = dup_str(out, override);
    if (!(world = malloc(sizeof *world)))
        return TOOLGOV_ENOMEM;
    rc = host_open(&h, world, sc->kind == DEMO_KIND_DRIFT, env != NULL, override);
    h.tr = out;
    h.answerer = answerer;
    if (live)
        demo_report_heading(live, out);
    if (rc) {
        /* A setting the policy refused says what is wrong and how to fix it. */
        size_t i, n = h.pol ? toolgov_drift_count(NULL, h.pol) : 0;
        for (i = 0; i < n; i++) {
            const toolgov_drift_row *r = toolgov_drift_at(NULL, h.pol, i);
            if (r->kind == TOOLGOV_DRIFT_SETTING_INVALID) {
                fputs("toolgov-demo: error: ", stderr);
                demo_report_escaped(stderr, r->message);
                fputc('\n', stderr);
            }
        }
        goto out;
    }

    if (sc->kind == DEMO_KIND_PROMPT) {
        rc = play_prompt(&h);
    } else if (sc->kind == DEMO_KIND_DRIFT) {
        out->drift_text = render_drift(out, &h, 0);
        out->drift_json = render_drift(out, &h, 1);
        rc = out->drift_text && out->drift_json ? 0 : TOOLGOV_ENOMEM;
    } else {
        size_t nrank = 0, t;
        while (nrank < sizeof sc->ranking / sizeof sc->ranking[0] && sc->ranking[nrank])
            nrank++;
        if ((rc = toolgov_shortlist_new(&sl, h.reg, SHORTLIST_LIMIT)) ||
            (rc = toolgov_shortlist_select(sl, sc->ranking, nrank)))
            goto out;
        for (t = 0; t < sizeof sc->turns / sizeof sc->turns[0] && sc->turns[t]; t++) {
            const char *const *names = toolgov_shortlist_names(sl);
            size_t n = toolgov_shortlist_count(sl);
            char *prompt = render_prompt(out, h.pol, names, n);
            char *tools_json = render_tools_json(out, h.pol, names, n);
            if (!prompt || !tools_json) {
                free(prompt);
                free(tools_json);
                rc = TOOLGOV_ENOMEM;
                goto out;
            }
            h.turn = (unsigned)t + 1u;
            out->turns++;
            rc = play_turn(&h, sc->turns[t], names, n, prompt, tools_json, model);
            free(prompt);
            free(tools_json);
            if (rc)
                goto out;
        }
        out->has_state = 1;
        out->state = *world;
    }
out:
    toolgov_shortlist_free(sl);
    host_close(&h);
    free(world);
    if (!rc && out->failed)
        rc = TOOLGOV_ENOMEM;
    if (live)
        demo_report_closing(live, out);
    return rc;
}
