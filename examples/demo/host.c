/* SPDX-License-Identifier: MIT */
/*
** host.c: toolgov-demo's host, on the library's loop (toolgov/loop.h).
**
** It mounts the example plugins into a real registry, binds the core
** built-ins it implements (ask_user, memory_search) and plays each user
** turn as one toolgov run driven by the runtime's loop: the loop builds
** every request, reads every response, asks the one confirmation of a
** batch of writes and each destructive call's approval, replays repeats
** and ends the turn. The host only moves the loop's bytes to the demo's
** model and back, puts the loop's questions to the answerer, and writes
** the transcript:
**
**   SEND  the request goes to the model (model_exchange): each call's
**         result is read from the request, as a model reads it (chat.h),
**         the model proposes, and the proposal goes back to the loop as an
**         OpenAI chat completion;
**   ASK   the question, as the loop wrote it, to the answerer;
**   DONE  the end of the turn and its answer.
**
** What each call came to (the gate's answer, whether it ran, its status)
** is read from the run's audit trail, the events the gate emits as it
** decides; its output, the result the loop sends the model, from the loop
** (toolgov_loop_call_at; for the call that ended the turn, the answer). A
** call's line in the live transcript waits until its output is known.
*/
#include "demo.h"
#include "chat.h"

#include <stdlib.h>
#include <string.h>

#include <toolgov/grants.h>
#include <toolgov/loop.h>
#include <toolgov/prompt.h>
#include <toolgov/run.h>
#include <toolgov/shortlist.h>

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

/* One call of the model's latest proposal, until its result is known. */
typedef struct step_call {
    char id[DEMO_CHAT_ID_MAX]; /* its id in the completion (chat.h) */
    const char *tool;     /* borrowed from the proposal */
    const char *args;
    int on_loop;          /* offered this turn (else the loop refuses it) */
    int has_ev;           /* its CALL event exists: */
    size_t ev;            /* at this index of the transcript */
    int ended;            /* the run ended on its output */
} step_call;

typedef struct host {
    toolgov_registry *reg;
    toolgov_policy *pol;
    toolgov_grants *grants; /* the scenario's standing grants, or NULL */
    demo_world *world;
    demo_transcript *tr;
    const demo_answerer *answerer;
    unsigned turn;
    toolgov_plugin faulty; /* built by hand; must outlive the registry it is mounted in */
    /* The turn being played. */
    const char *const *names;
    size_t name_count;
    demo_proposal *prop;  /* the model's latest proposal */
    step_call calls[DEMO_MAX_BATCH];
    size_t n_calls;
    unsigned long long allowed_grant; /* the grant of the last "allowed" event */
} host;

/* Transcript strings (report.c's builders; an allocation that fails marks
** the transcript incomplete). */
static char *dup_str(demo_transcript *tr, const char *s)
{
    return s ? demo_tr_dup(tr, s, strlen(s)) : NULL;
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
    demo_tr_add(h->tr, &ev);
    return toolgov_result_printf(out, "The user answered: %s.", yes ? "yes" : "no")
               ? TOOLGOV_ENOMEM : 0;
}

/* ---- setting up ----------------------------------------------------------- */

/* The user's standing grant (grants.h): "always allow" for every call of
** one write tool, given ahead of this run by the user the set belongs to.
** A host keeps the set as sealed text between runs, under a key of its
** own; the demo gives the grant, seals the set and reads it back into the
** set the runs consult, as a host does at start-up. */
static int load_grants(host *h, const char *grant_tool)
{
    toolgov_state_key key;
    toolgov_grants *given = NULL;
    toolgov_grant g;
    char *text = NULL;
    size_t needed = 0;
    int rc;

    memset(&g, 0, sizeof g);
    g.tool = grant_tool;
    g.verdict = TOOLGOV_GRANT_ALLOW;
    g.expires = TOOLGOV_GRANT_NO_EXPIRY;
    g.granted_by = DEMO_GRANT_USER;
    if ((rc = toolgov_state_key_generate(&key)) ||
        (rc = toolgov_grants_new(&given, DEMO_GRANT_USER, NULL)) ||
        (rc = toolgov_grants_add(NULL, given, h->reg, &g)) ||
        (rc = toolgov_grants_save(NULL, 0, &needed, given, &key)))
        goto out;
    if (!(text = malloc(needed + 1))) {
        rc = TOOLGOV_ENOMEM;
        goto out;
    }
    if ((rc = toolgov_grants_save(text, needed + 1, NULL, given, &key)) ||
        (rc = toolgov_grants_new(&h->grants, DEMO_GRANT_USER, NULL)))
        goto out;
    rc = toolgov_grants_load(h->grants, text, needed, &key);
out:
    free(text);
    toolgov_grants_free(given);
    return rc;
}

/* from_env: apply the operator's TOOLGOV_CONFIRM_ONCE_TOOLS (it is set);
** otherwise apply `override` when not NULL. */
static int host_open(host *h, demo_world *world, int with_faulty, int from_env,
                     const char *override, const char *grant_tool)
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
    if (rc == 0 && grant_tool)
        rc = load_grants(h, grant_tool);
    return rc;
}

static void host_close(host *h)
{
    toolgov_grants_free(h->grants);
    h->grants = NULL;
    toolgov_policy_free(h->pol);
    toolgov_registry_free(h->reg);
    h->pol = NULL;
    h->reg = NULL;
}

/* Render the prompt for `names` into a new string (NULL on failure): the
** tool section of the system text the loop sends (loop.h): the schemas
** left out, since the tools go natively in the request, and the rule for
** a loop that asks the user itself. */
static char *render_prompt(demo_transcript *tr, const toolgov_policy *pol,
                           const char *const *names, size_t n)
{
    toolgov_prompt_options po;
    size_t needed = 0;
    char *text;
    memset(&po, 0, sizeof po);
    po.omit_schemas = 1;
    po.rule = TOOLGOV_PROMPT_RULE_LOOP_ASKS;
    if (toolgov_prompt_render_with(NULL, 0, &needed, pol, names, n, &po) &&
        needed == 0) {
        tr->failed = 1;
        return NULL;
    }
    text = malloc(needed + 1);
    if (!text) {
        tr->failed = 1;
        return NULL;
    }
    if (toolgov_prompt_render_with(text, needed + 1, NULL, pol, names, n, &po)) {
        free(text);
        tr->failed = 1;
        return NULL;
    }
    return text;
}

/* ---- what the gate decided: the run's audit trail ------------------------ */

/* The call of the current proposal an audit event is about: the first one
** of that tool not yet decided (for an argument error, the one sent with
** exactly those arguments first: the loop checks arguments before it runs
** a batch). NULL for a call the host did not propose (a plugin's own loop
** reports through a child run: those are left to the handler). */
static step_call *call_of(host *h, const toolgov_audit_event *ev)
{
    size_t i;
    if (!ev->tool)
        return NULL;
    if (ev->kind == TOOLGOV_AUDIT_ARGS_ERROR && ev->args)
        for (i = 0; i < h->n_calls; i++)
            if (!h->calls[i].has_ev && h->calls[i].on_loop &&
                !strcmp(h->calls[i].tool, ev->tool) && !strcmp(h->calls[i].args, ev->args))
                return &h->calls[i];
    for (i = 0; i < h->n_calls; i++)
        if (!h->calls[i].has_ev && h->calls[i].on_loop && !strcmp(h->calls[i].tool, ev->tool))
            return &h->calls[i];
    return NULL;
}

/* A CALL event for call c, its output to come (pending). */
static void call_event(host *h, step_call *c, const char *gate, int executed, int status,
                       unsigned long long grant)
{
    demo_event ev;
    size_t at;
    memset(&ev, 0, sizeof ev);
    ev.type = DEMO_EV_CALL;
    ev.turn = h->turn;
    ev.step = h->tr->model_calls_turn;
    ev.tool = dup_str(h->tr, c->tool);
    ev.args = dup_str(h->tr, c->args);
    ev.gate = gate;
    ev.executed = executed;
    ev.status = status;
    ev.grant = grant;
    ev.pending = 1;
    at = demo_tr_add(h->tr, &ev);
    if (at != (size_t)-1) {
        c->has_ev = 1;
        c->ev = at;
    }
}

/* The run's observer: every event goes to the --audit log first (its
** answer is the observer's, so a log that cannot be written still stops
** what it would record), then the outcome of each call the model
** proposed is noted. */
static int host_observe(void *ud, const toolgov_audit_event *ev)
{
    host *h = ud;
    step_call *c;
    int rc = h->tr->audit ? toolgov_audit_jsonl_observe(h->tr->audit, ev) : 0;

    if (ev->child)
        return rc;
    switch (ev->kind) {
    case TOOLGOV_AUDIT_ALLOWED:
        h->allowed_grant = ev->grant;
        break;
    case TOOLGOV_AUDIT_EXECUTED:
        if ((c = call_of(h, ev)) != NULL) {
            call_event(h, c, "ALLOW", 1, ev->status, h->allowed_grant);
            c->ended = ev->ended;
        }
        h->allowed_grant = 0;
        h->tr->executions++;
        break;
    case TOOLGOV_AUDIT_REPLAYED:
        if ((c = call_of(h, ev)) != NULL)
            call_event(h, c, "REPLAY", 0, 0, 0);
        break;
    case TOOLGOV_AUDIT_REFUSED:
        if ((c = call_of(h, ev)) != NULL)
            call_event(h, c, ev->reason == TOOLGOV_AUDIT_REASON_NOT_APPROVED ? "NEEDS_APPROVAL"
                                                                             : "REFUSE",
                       0, ev->status, ev->grant);
        break;
    case TOOLGOV_AUDIT_ARGS_ERROR:
        if ((c = call_of(h, ev)) != NULL)
            call_event(h, c, "REFUSE", 0, ev->status, 0);
        break;
    case TOOLGOV_AUDIT_CONFIRM_ASKED:
        /* From an invoke (not a batch): the write stopped, unasked. */
        if (ev->batch_count == 0 && (c = call_of(h, ev)) != NULL)
            call_event(h, c, "ASK_FIRST", 0, TOOLGOV_ECONFIRM, 0);
        break;
    default:
        break;
    }
    return rc;
}

/* The result the loop sends the model for the call with id `id`, as the
** model reads it (toolgov_loop_call_at), copied; NULL when there is none. */
static char *sent_result(demo_transcript *tr, const toolgov_loop *lp, const char *id)
{
    size_t i = toolgov_loop_calls_count(lp);
    toolgov_loop_call_info ci;
    while (i-- > 0)
        if (toolgov_loop_call_at(lp, i, &ci) == 0 && ci.outcome != TOOLGOV_LOOP_CALL_PENDING &&
            strcmp(ci.id, id) == 0)
            return dup_str(tr, ci.result);
    return NULL;
}

/* The previous proposal's calls get their outputs: from the loop when a
** request is about to carry them (sent non-NULL), else (the turn is over)
** from how it ended. A call the loop refused before the gate (a tool not
** offered) gets its event here. */
static void settle_calls(host *h, const toolgov_loop *sent, const toolgov_loop_action *done)
{
    demo_transcript *tr = h->tr;
    size_t i;
    for (i = 0; i < h->n_calls; i++) {
        step_call *c = &h->calls[i];
        char *out = sent ? sent_result(tr, sent, c->id) : NULL;
        demo_event *e;
        if (!c->has_ev)
            call_event(h, c, "REFUSE", 0, c->on_loop ? TOOLGOV_EFAIL : TOOLGOV_ENOENT, 0);
        if (!c->has_ev) {
            free(out);
            continue;
        }
        e = &tr->events[c->ev];
        if (!out && done)
            out = dup_str(tr, c->ended ? (done->text ? done->text : "")
                          : e->executed ? ""
                                        : toolgov_not_run_text(TOOLGOV_NOT_RUN_ENDED));
        e->text = out ? out : dup_str(tr, "");
        e->pending = 0;
    }
    h->n_calls = 0;
    demo_tr_flush(tr);
}

/* What the model is shown: every call of this turn so far, from the
** transcript. */
static demo_observation *observations(host *h, size_t *n)
{
    demo_transcript *tr = h->tr;
    demo_observation *obs;
    size_t i, k = 0;
    if (!(obs = calloc(tr->count ? tr->count : 1, sizeof *obs)))
        return NULL;
    for (i = 0; i < tr->count; i++) {
        const demo_event *e = &tr->events[i];
        if (e->type != DEMO_EV_CALL || e->turn != h->turn || !e->tool || !e->args)
            continue;
        obs[k].tool = e->tool;
        obs[k].args = e->args;
        obs[k].gate = e->gate ? e->gate : "";
        obs[k].executed = e->executed;
        obs[k].status = e->status;
        obs[k].output = e->text ? e->text : "";
        k++;
    }
    *n = k;
    return obs;
}

/* One request: the model reads it (the results of its last calls), the
** transcript records its proposal, and the proposal goes back to the loop
** as the API's response. 0, a model's failure (the turn is aborted), or
** TOOLGOV_ENOMEM. */
static int model_exchange(host *h, toolgov_loop *lp, const toolgov_loop_action *a,
                          const demo_model *model, const char *user, int *model_rc)
{
    demo_transcript *tr = h->tr;
    demo_observation *obs;
    demo_turn t;
    demo_event ev;
    char *body = NULL;
    size_t i, n_obs = 0, body_len = 0;
    int rc;

    settle_calls(h, lp, NULL);
    if (!(obs = observations(h, &n_obs)))
        return TOOLGOV_ENOMEM;
    memset(&t, 0, sizeof t);
    t.user = user;
    t.tools = h->names;
    t.tool_count = h->name_count;
    t.request = a->text;
    t.request_len = a->len;
    t.obs = obs;
    t.obs_count = n_obs;
    t.step = ++tr->model_calls_turn;
    memset(h->prop, 0, sizeof *h->prop);
    *model_rc = model->propose(model->ud, &t, h->prop);
    free(obs);
    tr->model_calls++;
    if (h->prop->call_count > DEMO_MAX_BATCH)
        h->prop->call_count = DEMO_MAX_BATCH;
    h->prop->answer[DEMO_MAX_ANSWER - 1] = '\0';

    memset(&ev, 0, sizeof ev);
    ev.type = DEMO_EV_MODEL;
    ev.turn = h->turn;
    ev.step = t.step;
    ev.status = *model_rc;
    if (!*model_rc && h->prop->call_count == 0)
        ev.text = dup_str(tr, h->prop->answer);
    ev.items = demo_tr_items(tr, h->prop->call_count);
    if (ev.items) {
        ev.item_count = h->prop->call_count;
        for (i = 0; i < h->prop->call_count; i++) {
            demo_proposed *c = &h->prop->calls[i];
            c->tool[sizeof c->tool - 1] = '\0';
            c->args[DEMO_MAX_ARGS - 1] = '\0';
            if (!c->args[0])
                memcpy(c->args, "{}", 3);
            ev.items[i] = demo_tr_printf(tr, "%s %s", c->tool, c->args);
        }
    }
    demo_tr_add(tr, &ev);
    if (*model_rc)
        return toolgov_loop_abort(lp, toolgov_strerror(*model_rc)) ? TOOLGOV_EINVAL : 0;

    /* The proposal's calls, as the loop will see them (ids of the
    ** completion); a tool not on the loop is refused there. */
    for (i = 0; i < h->prop->call_count; i++) {
        step_call *c = &h->calls[i];
        size_t k;
        memset(c, 0, sizeof *c);
        demo_chat_call_id(c->id, sizeof c->id, t.step, i);
        c->tool = h->prop->calls[i].tool;
        c->args = h->prop->calls[i].args;
        for (k = 0; k < h->name_count && !c->on_loop; k++)
            c->on_loop = !strcmp(h->names[k], c->tool);
    }
    h->n_calls = h->prop->call_count;
    if ((rc = demo_chat_completion(&body, &body_len, h->prop, t.step)) == 0) {
        /* A response the loop refuses (a model that wrote bytes that are
        ** not UTF-8, say) ends the turn: its DONE says why. */
        rc = toolgov_loop_response(lp, body, body_len);
        if (rc == TOOLGOV_EINVAL)
            rc = 0;
        free(body);
    }
    return rc;
}

/* The loop's question, put to the answerer as the loop wrote it (calls
** shown through toolgov_text_shown). */
static int ask_user_loop(host *h, toolgov_loop *lp, const toolgov_loop_action *a)
{
    demo_transcript *tr = h->tr;
    const char *kind = a->question == TOOLGOV_LOOP_APPROVAL ? "approval" : "confirm";
    demo_event ev;
    size_t i;
    int yes;

    yes = h->answerer->ask(h->answerer->ud, kind, a->text);
    memset(&ev, 0, sizeof ev);
    ev.type = DEMO_EV_ASK;
    ev.turn = h->turn;
    ev.kind = kind;
    ev.text = demo_tr_dup(tr, a->text, a->len);
    ev.shown = 1;
    ev.answer = yes;
    ev.items = demo_tr_items(tr, a->n_calls);
    if (ev.items) {
        ev.item_count = a->n_calls;
        for (i = 0; i < a->n_calls; i++)
            ev.items[i] = demo_tr_printf(tr, "%s %s", a->calls[i].tool, a->calls[i].args);
    }
    tr->asks++;
    demo_tr_add(tr, &ev);
    return toolgov_loop_answer(lp, yes);
}

/* How a turn ended, in the transcript's words. */
static const char *end_name(const toolgov_loop_action *a, const toolgov_run *run, int model_rc)
{
    switch (a->end) {
    case TOOLGOV_LOOP_END_ANSWERED: return "model_answered";
    case TOOLGOV_LOOP_END_ANSWERED_DIRECTLY:
        return toolgov_end_reason_name(toolgov_run_end_reason(run));
    case TOOLGOV_LOOP_END_ABORTED: return model_rc ? "model_error" : "aborted";
    default: return toolgov_loop_end_name(a->end);
    }
}

/* One user turn: one run, driven by the loop to its end. */
static int play_turn(host *h, toolgov_loop *lp, const char *user, const demo_model *model)
{
    demo_transcript *tr = h->tr;
    toolgov_run *run = NULL;
    toolgov_audit_options ao;
    demo_event ev;
    char id[96];
    size_t i;
    int rc, model_rc = 0;

    memset(&ev, 0, sizeof ev);
    ev.type = DEMO_EV_TURN;
    ev.turn = h->turn;
    ev.text = dup_str(tr, user);
    ev.items = demo_tr_items(tr, h->name_count);
    if (ev.items) {
        ev.item_count = h->name_count;
        for (i = 0; i < h->name_count; i++)
            ev.items[i] = dup_str(tr, h->names[i]);
    }
    demo_tr_add(tr, &ev);
    tr->model_calls_turn = 0;
    h->n_calls = 0;

    if ((rc = toolgov_run_new(&run, h->pol, h)))
        goto out;
    /* The audit trail tells the transcript what the gate decided; with
    ** --audit it goes to the log too, under an id that names the scenario
    ** and the turn. */
    memset(&ao, 0, sizeof ao);
    snprintf(id, sizeof id, "%s/turn-%u", tr->scenario ? tr->scenario : "demo", h->turn);
    ao.observer = host_observe;
    ao.ud = h;
    ao.run_id = id;
    if ((rc = toolgov_run_set_audit(run, &ao)) ||
        (h->grants && (rc = toolgov_run_set_grants(run, h->grants))) ||
        (rc = toolgov_loop_start(lp, run, user, h->names, h->name_count)))
        goto out;
    for (;;) {
        toolgov_loop_action a;
        if ((rc = toolgov_loop_next(lp, &a)))
            goto out;
        if (a.what == TOOLGOV_LOOP_SEND) {
            if ((rc = model_exchange(h, lp, &a, model, user, &model_rc)))
                goto out;
        } else if (a.what == TOOLGOV_LOOP_ASK) {
            if ((rc = ask_user_loop(h, lp, &a)))
                goto out;
        } else {
            settle_calls(h, NULL, &a);
            memset(&ev, 0, sizeof ev);
            ev.type = DEMO_EV_END;
            ev.turn = h->turn;
            ev.kind = end_name(&a, run, model_rc);
            ev.text = dup_str(tr, model_rc ? toolgov_strerror(model_rc)
                                  : a.end == TOOLGOV_LOOP_END_BAD_RESPONSE ? a.error
                                                                           : a.text);
            demo_tr_add(tr, &ev);
            break;
        }
    }
out:
    if (h->n_calls)
        settle_calls(h, NULL, NULL);
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
    toolgov_loop *lp = NULL;
    toolgov_loop_options lo;
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
    if (sc->grant)
        out->grant = demo_tr_printf(out, "allow %s (every call), granted by %s", sc->grant,
                                DEMO_GRANT_USER);
    /* The loop speaks OpenAI Chat Completions to the demo's model; the
    ** rule in its system text is its own (the loop asks the user). */
    memset(&lo, 0, sizeof lo);
    lo.api = TOOLGOV_LOOP_OPENAI_CHAT;
    lo.model = demo_scripted_model.name;
    lo.max_steps = MAX_STEPS;
    rc = host_open(&h, world, sc->kind == DEMO_KIND_DRIFT, env != NULL, override, sc->grant);
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
        if ((rc = toolgov_loop_new(&lp, h.pol, &lo)))
            goto out;
        if (!(h.prop = malloc(sizeof *h.prop))) {
            rc = TOOLGOV_ENOMEM;
            goto out;
        }
        for (t = 0; t < sizeof sc->turns / sizeof sc->turns[0] && sc->turns[t]; t++) {
            h.names = toolgov_shortlist_names(sl);
            h.name_count = toolgov_shortlist_count(sl);
            h.turn = (unsigned)t + 1u;
            out->turns++;
            if ((rc = play_turn(&h, lp, sc->turns[t], model)))
                goto out;
        }
        out->has_state = 1;
        out->state = *world;
    }
out:
    toolgov_loop_free(lp);
    free(h.prop);
    toolgov_shortlist_free(sl);
    host_close(&h);
    free(world);
    if (!rc && out->failed)
        rc = TOOLGOV_ENOMEM;
    if (live)
        demo_report_closing(live, out);
    return rc;
}
