/* SPDX-License-Identifier: MIT */
/*
** test_loop.c: the agent loop (loop.h) driven with recorded responses in
** the shapes the vendors document (tests/data/loop/README.md says where
** each shape comes from), over the seven example plugins.
**
** The seed's scenarios: dues asks once for four reminders; the digest ends
** the turn on one call; empty-trash asks for its approval, refused and
** then granted; promos replays a repeated call. Every request the loop
** writes is read back with the strict JSON reader and checked: each tool
** call answered by exactly one result with its id, the question restated
** with the scratchpad after the first step, the tools in the API's format,
** no schema twice. And the edges: bad calls from the model, error bodies,
** refusals, the step and size limits, too many calls.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/loop.h>
#include <toolgov/prompt.h>
#include <toolgov/run.h>
#include <toolgov/shortlist.h>
#include <toolgov/toolcalls.h>

#include "json.h"
#include "loop_internal.h"
#include "loop_world.h"

static const char *const api_dir[] = {"openai-chat", "openai-responses", "anthropic"};

static loop_world W;
static toolgov_loop *lp;
static toolgov_run *run;
static toolgov_allocator heap = {NULL, NULL};
static toolgov__scratch arena;
static toolgov__json_doc doc;

static char *slurp_ext(const char *api, const char *name, const char *ext, size_t *len)
{
    char path[1024];
    FILE *f;
    long n;
    char *buf;

    snprintf(path, sizeof path, "%s/loop/%s/%s.%s", TOOLGOV_TESTDATA_DIR, api, name, ext);
    f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static char *slurp(const char *api, const char *name, size_t *len)
{
    return slurp_ext(api, name, "json", len);
}

static void setup(void)
{
    ck_assert_int_eq(loop_world_open(&W, NULL), 0);
    toolgov__scratch_init(&arena, &heap);
    lp = NULL;
    run = NULL;
}

static void teardown(void)
{
    toolgov_loop_free(lp);
    toolgov_run_free(run);
    toolgov__scratch_free(&arena);
    loop_world_close(&W);
}

static void open_loop(toolgov_loop_api api, const toolgov_loop_options *o)
{
    toolgov_loop_options opt;
    if (o)
        opt = *o;
    else
        memset(&opt, 0, sizeof opt);
    opt.api = api;
    if (!opt.model)
        opt.model = "test-model";
    toolgov_loop_free(lp);
    lp = NULL;
    ck_assert_int_eq(toolgov_loop_new(&lp, W.pol, &opt), 0);
}

static void start(const char *user, const char *const *tools, size_t n)
{
    toolgov_run_free(run);
    run = NULL;
    ck_assert_int_eq(toolgov_run_new(&run, W.pol, NULL), 0);
    ck_assert_int_eq(toolgov_loop_start(lp, run, user, tools, n), 0);
}

static toolgov_loop_action next(toolgov_loop_what want)
{
    toolgov_loop_action a;
    ck_assert_int_eq(toolgov_loop_next(lp, &a), 0);
    ck_assert_msg(a.what == want, "wanted action %d, got %d (end %s: %s)", (int)want,
                  (int)a.what, toolgov_loop_end_name(a.end), a.error);
    ck_assert_uint_eq(strlen(a.text), a.len);
    return a;
}

static int respond(toolgov_loop_api api, const char *name)
{
    size_t len;
    char *body = slurp(api_dir[api], name, &len);
    int rc = toolgov_loop_response(lp, body, len);
    free(body);
    return rc;
}

/* ---- reading requests back ------------------------------------------------ */

static long J(long node, const char *key)
{
    if (node < 0 || doc.nodes[node].type != TOOLGOV__JSON_OBJECT)
        return -1;
    return toolgov__json_get(&doc, (size_t)node, key, strlen(key));
}

static long AT(long arr, size_t i)
{
    size_t k, at;
    if (arr < 0 || doc.nodes[arr].type != TOOLGOV__JSON_ARRAY || i >= doc.nodes[arr].len)
        return -1;
    for (k = 0, at = (size_t)arr + 1; k < i; k++)
        at = doc.nodes[at].end;
    return (long)at;
}

static size_t LEN(long n)
{
    return n < 0 ? 0 : doc.nodes[n].len;
}

static const char *STR(long n)
{
    return n >= 0 && doc.nodes[n].type == TOOLGOV__JSON_STRING ? doc.nodes[n].u.str : NULL;
}

static int str_is(long n, const char *s)
{
    return STR(n) && strcmp(STR(n), s) == 0;
}

static void parse_request(const char *text, size_t len)
{
    toolgov__json_error err;
    toolgov__scratch_reset(&arena);
    ck_assert_msg(toolgov__json_parse(&doc, &err, &arena, text, len, 64, TOOLGOV__JSON_MAX_LEN,
                                      0) == 0,
                  "request is not JSON (%s at %zu): %s", err.msg, err.pos, text);
}

/* The ids of a request's tool calls and its results, each answered once. */
#define MAX_IDS 256
typedef struct ids {
    const char *id[MAX_IDS];
    int answered[MAX_IDS];
    size_t n;
} ids;

static void call_id(ids *s, const char *id)
{
    size_t i;
    ck_assert_ptr_nonnull(id);
    for (i = 0; i < s->n; i++)
        ck_assert_msg(strcmp(s->id[i], id) != 0, "tool call id %s used twice", id);
    ck_assert_uint_lt(s->n, MAX_IDS);
    s->id[s->n] = id;
    s->answered[s->n++] = 0;
}

static void result_id(ids *s, const char *id)
{
    size_t i;
    ck_assert_ptr_nonnull(id);
    for (i = 0; i < s->n; i++)
        if (strcmp(s->id[i], id) == 0) {
            ck_assert_msg(!s->answered[i], "tool call %s answered twice", id);
            s->answered[i] = 1;
            return;
        }
    ck_abort_msg("a result for %s, which is no call", id);
}

static void all_answered(const ids *s)
{
    size_t i;
    for (i = 0; i < s->n; i++)
        ck_assert_msg(s->answered[i], "tool call %s has no result", s->id[i]);
}

/* Check a request of `api`: its shape, every call paired with one result,
** the tools, the system text; return the last user text (the scratchpad
** after the first step) or NULL. *n_calls gets the number of calls. */
static const char *check_request(toolgov_loop_api api, const char *text, size_t len,
                                 size_t *n_calls)
{
    ids s;
    long msgs, tools, sys = -1, m;
    const char *last_user = NULL;
    size_t i, j;

    memset(&s, 0, sizeof s);
    parse_request(text, len);
    ck_assert(str_is(J(0, "model"), "test-model"));
    tools = J(0, "tools");
    if (api == TOOLGOV_LOOP_OPENAI_CHAT) {
        msgs = J(0, "messages");
        ck_assert(str_is(J(AT(msgs, 0), "role"), "system"));
        sys = J(AT(msgs, 0), "content");
        for (i = 1; i < LEN(msgs); i++) {
            m = AT(msgs, i);
            if (str_is(J(m, "role"), "assistant")) {
                long tc = J(m, "tool_calls");
                all_answered(&s);
                for (j = 0; j < LEN(tc); j++) {
                    long c = AT(tc, j);
                    ck_assert(str_is(J(c, "type"), "function"));
                    ck_assert_ptr_nonnull(STR(J(J(c, "function"), "arguments")));
                    call_id(&s, STR(J(c, "id")));
                }
            } else if (str_is(J(m, "role"), "tool")) {
                result_id(&s, STR(J(m, "tool_call_id")));
                ck_assert_ptr_nonnull(STR(J(m, "content")));
            } else {
                ck_assert(str_is(J(m, "role"), "user"));
                all_answered(&s);
                last_user = STR(J(m, "content"));
            }
        }
        for (i = 0; i < LEN(tools); i++) {
            ck_assert(str_is(J(AT(tools, i), "type"), "function"));
            ck_assert_ptr_nonnull(STR(J(J(AT(tools, i), "function"), "name")));
        }
    } else if (api == TOOLGOV_LOOP_OPENAI_RESPONSES) {
        msgs = J(0, "input");
        sys = J(0, "instructions");
        for (i = 0; i < LEN(msgs); i++) {
            m = AT(msgs, i);
            if (str_is(J(m, "type"), "function_call"))
                call_id(&s, STR(J(m, "call_id")));
            else if (str_is(J(m, "type"), "function_call_output"))
                result_id(&s, STR(J(m, "call_id")));
            else if (str_is(J(m, "role"), "user")) {
                all_answered(&s);
                last_user = STR(J(m, "content"));
            }
        }
        for (i = 0; i < LEN(tools); i++) {
            ck_assert(str_is(J(AT(tools, i), "type"), "function"));
            ck_assert_ptr_nonnull(STR(J(AT(tools, i), "name")));
            ck_assert_int_eq(doc.nodes[J(AT(tools, i), "parameters")].type, TOOLGOV__JSON_OBJECT);
        }
    } else {
        msgs = J(0, "messages");
        sys = J(0, "system");
        ck_assert_int_eq(doc.nodes[J(0, "max_tokens")].type, TOOLGOV__JSON_NUMBER);
        for (i = 0; i < LEN(msgs); i++) {
            long content;
            m = AT(msgs, i);
            content = J(m, "content");
            ck_assert(str_is(J(m, "role"), i % 2 ? "assistant" : "user"));
            if (i % 2 == 1)
                all_answered(&s);
            if (STR(content)) {
                last_user = STR(content);
                continue;
            }
            for (j = 0; j < LEN(content); j++) {
                long b = AT(content, j);
                if (str_is(J(b, "type"), "tool_use")) {
                    ck_assert_int_eq(doc.nodes[J(b, "input")].type, TOOLGOV__JSON_OBJECT);
                    call_id(&s, STR(J(b, "id")));
                } else if (str_is(J(b, "type"), "tool_result")) {
                    result_id(&s, STR(J(b, "tool_use_id")));
                } else if (i % 2 == 0 && str_is(J(b, "type"), "text")) {
                    last_user = STR(J(b, "text"));
                }
            }
        }
        for (i = 0; i < LEN(tools); i++)
            ck_assert_int_eq(doc.nodes[J(AT(tools, i), "input_schema")].type,
                             TOOLGOV__JSON_OBJECT);
    }
    all_answered(&s);
    /* The tools go natively: the system text does not repeat the schemas. */
    ck_assert_ptr_nonnull(STR(sys));
    ck_assert_ptr_null(strstr(STR(sys), "Arguments (JSON Schema)"));
    if (n_calls)
        *n_calls = s.n;
    return last_user;
}

/* ---- the seed's scenarios --------------------------------------------------- */

static const char *const dues_tools[] = {"memory_search", "upcoming_dues", "create_reminder",
                                         "finance_lookup", "calendar_lookup"};
#define DUES_USER "Find my bills due in the next two weeks and set a reminder for each."

/* dues: the dues and the memory run at once, then one question lists the
** four reminders; after the yes all four run; the model answers. */
START_TEST(test_dues)
{
    toolgov_loop_api api = (toolgov_loop_api)_i;
    toolgov_loop_action a;
    const char *pad;
    size_t n;

    open_loop(api, NULL);
    start(DUES_USER, dues_tools, 5);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(a.step, 1);
    pad = check_request(api, a.text, a.len, &n);
    ck_assert_uint_eq(n, 0);
    ck_assert_uint_eq(LEN(J(0, "tools")), 5);
    /* The loop asks, so the rule says so (and not "ask the user" in chat). */
    ck_assert_ptr_nonnull(strstr(a.text, "propose every such call your plan needs together"));
    ck_assert_ptr_null(strstr(a.text, "before calling them, ask the user one question"));
    ck_assert_int_eq(respond(api, "dues-1"), 0);

    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(a.step, 2);
    pad = check_request(api, a.text, a.len, &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_ptr_nonnull(pad);
    ck_assert_ptr_nonnull(strstr(pad, "The user's request, restated: " DUES_USER));
    ck_assert_ptr_nonnull(strstr(pad, "1. upcoming_dues {\"days\":14}: ran\n"));
    ck_assert_ptr_nonnull(strstr(pad, "2. memory_search {\"query\":\"reminders\"}: ran\n"));
    ck_assert_ptr_nonnull(strstr(pad, "Do not repeat a call that ran"));
    ck_assert_ptr_nonnull(strstr(a.text, "Electricity | City Power"));
    ck_assert_int_eq(respond(api, "dues-2"), 0);

    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_int_eq(a.question, TOOLGOV_LOOP_CONFIRM);
    ck_assert_uint_eq(a.n_calls, 4);
    ck_assert_str_eq(a.calls[0].tool, "create_reminder");
    ck_assert_str_eq(a.calls[3].args, "{\"title\":\"Pay Car insurance (412.75 EUR)\",\"date\":"
                                      "\"2026-12-12\",\"time\":\"08:30\",\"note\":\"Safe Drive\"}");
    ck_assert_ptr_nonnull(strstr(a.text, "Make these 4 changes?\n  1. create_reminder {"));
    ck_assert_uint_eq(W.calendar.reminder_count, 0);
    /* Asked again, the same question. */
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_uint_eq(a.n_calls, 4);
    ck_assert_int_eq(toolgov_loop_response(lp, "{}", 2), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_loop_answer(lp, 1), 0);

    a = next(TOOLGOV_LOOP_SEND);
    pad = check_request(api, a.text, a.len, &n);
    ck_assert_uint_eq(n, 6);
    ck_assert_uint_eq(W.calendar.reminder_count, 4);
    ck_assert_ptr_nonnull(strstr(pad, "6. create_reminder {\"title\":\"Pay Car insurance"));
    ck_assert_ptr_nonnull(strstr(a.text, "Created reminder \\\"Pay Rent (1250.00 EUR)\\\""));
    ck_assert_int_eq(respond(api, "dues-3"), 0);

    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_ANSWERED);
    ck_assert_str_eq(a.text, "Done: I created 4 reminders, one for each due, at 08:30 on the day "
                             "it is due.");
    ck_assert_uint_eq(a.step, 3);
    ck_assert_int_eq(toolgov_run_end_reason(run), TOOLGOV_END_HOST);
    /* Done is done. */
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(toolgov_loop_answer(lp, 1), TOOLGOV_EINVAL);
}
END_TEST

/* dues, answered no: nothing is created, and the model is told so. */
START_TEST(test_dues_declined)
{
    toolgov_loop_action a;
    const char *pad;

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "dues-1"), 0);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "dues-2"), 0);
    next(TOOLGOV_LOOP_ASK);
    ck_assert_int_eq(toolgov_loop_answer(lp, 0), 0);
    a = next(TOOLGOV_LOOP_SEND);
    pad = check_request(TOOLGOV_LOOP_OPENAI_CHAT, a.text, a.len, NULL);
    ck_assert_uint_eq(W.calendar.reminder_count, 0);
    ck_assert_ptr_nonnull(strstr(pad, "3. create_reminder"));
    ck_assert_ptr_nonnull(strstr(pad, "not run: the user said no"));
    ck_assert_ptr_nonnull(strstr(a.text, toolgov_not_run_text(TOOLGOV_NOT_RUN_DECLINED)));
}
END_TEST

/* The same under the listed scope: one question, a yes runs exactly the
** four listed calls. */
START_TEST(test_dues_listed_scope)
{
    toolgov_loop_action a;

    ck_assert_int_eq(toolgov_policy_set_confirm_scope(W.pol, TOOLGOV_CONFIRM_SCOPE_LISTED), 0);
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "dues-1"), 0);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "dues-2"), 0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_uint_eq(a.n_calls, 4);
    ck_assert_int_eq(toolgov_loop_answer(lp, 1), 0);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(W.calendar.reminder_count, 4);
}
END_TEST

/* digest: an answers-directly first tool: one call and the turn ends on
** its output, with one request sent. */
START_TEST(test_digest)
{
    static const char *const tools[] = {"inbox_digest", "read_email", "list_by_category"};
    toolgov_loop_api api = (toolgov_loop_api)_i;
    toolgov_loop_action a;

    open_loop(api, NULL);
    start("Summarize my latest emails.", tools, 3);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(api, "digest-1"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_ANSWERED_DIRECTLY);
    ck_assert_uint_eq(a.step, 1);
    ck_assert_uint_gt(a.len, 20);
    ck_assert_int_eq(toolgov_run_end_reason(run), TOOLGOV_END_ANSWERED_DIRECTLY);
}
END_TEST

/* promos: the repeat of a completed answers-directly call replays; the
** Trash gets the promotions once. */
START_TEST(test_promos_repeat)
{
    static const char *const tools[] = {"list_by_category", "trash_category", "read_email"};
    toolgov_loop_action a;
    const char *pad;
    size_t moved;

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start("What promotions do I have? Trash them.", tools, 3);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "promos-1"), 0);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "promos-2"), 0);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(W.email.trash_calls, 1);
    moved = W.email.trashed_total;
    ck_assert_uint_gt(moved, 0);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "promos-3"), 0);
    a = next(TOOLGOV_LOOP_SEND);
    pad = check_request(TOOLGOV_LOOP_OPENAI_CHAT, a.text, a.len, NULL);
    ck_assert_uint_eq(W.email.trash_calls, 1);
    ck_assert_uint_eq(W.email.trashed_total, moved);
    ck_assert_msg(strstr(pad, "3. trash_category {\"category\":\"promotions\",\"limit\":10}: replayed") != NULL,
                  "%s", pad);
    /* The assistant's text beside its calls is echoed. */
    ck_assert_ptr_nonnull(strstr(a.text, "Trashing them again to be sure."));
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "promos-4"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_ANSWERED);
}
END_TEST

/* empty-trash: turn one trashes the promotions; turn two's destructive call
** asks on its own: refused (nothing deleted, the model told why), then in a
** later turn granted (deleted once). */
START_TEST(test_empty_trash)
{
    static const char *const tools[] = {"empty_trash", "trash_category", "list_by_category"};
    toolgov_loop_api api = _i ? TOOLGOV_LOOP_ANTHROPIC : TOOLGOV_LOOP_OPENAI_CHAT;
    toolgov_loop_action a;

    open_loop(api, NULL);
    if (api == TOOLGOV_LOOP_OPENAI_CHAT) {
        start("Trash my promotions.", tools, 3);
        next(TOOLGOV_LOOP_SEND);
        ck_assert_int_eq(respond(api, "trash-1"), 0);
        a = next(TOOLGOV_LOOP_DONE);
        ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_ANSWERED_DIRECTLY);
        ck_assert_uint_gt(W.email.trashed_total, 0);
    }
    start("Now empty the trash.", tools, 3);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(api, "empty-1"), 0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_int_eq(a.question, TOOLGOV_LOOP_APPROVAL);
    ck_assert_uint_eq(a.n_calls, 1);
    ck_assert_str_eq(a.text, "Approve this call? It cannot be undone.\n  empty_trash {}");
    ck_assert_int_eq(toolgov_loop_answer(lp, 0), 0);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(W.email.empty_calls, 0);
    ck_assert_ptr_nonnull(strstr(check_request(api, a.text, a.len, NULL),
                                 "1. empty_trash {}: not run: the user did not approve it"));
    ck_assert_ptr_nonnull(strstr(a.text, "not run: the user did not approve this call"));
    if (api == TOOLGOV_LOOP_ANTHROPIC)
        ck_assert_ptr_nonnull(strstr(a.text, "\"is_error\":true"));
    ck_assert_int_eq(respond(api, "empty-2"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_ANSWERED);

    if (api != TOOLGOV_LOOP_OPENAI_CHAT)
        return;
    start("Empty the trash, I am sure.", tools, 3);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(api, "empty-3"), 0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_int_eq(a.question, TOOLGOV_LOOP_APPROVAL);
    ck_assert_int_eq(toolgov_loop_answer(lp, 1), 0);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(W.email.empty_calls, 1);
    ck_assert_ptr_nonnull(strstr(check_request(api, a.text, a.len, NULL),
                                 "1. empty_trash {}: ran"));
    ck_assert_int_eq(respond(api, "empty-4"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_str_eq(a.text, "The Trash is empty.");
}
END_TEST

/* ---- what the model gets wrong ---------------------------------------------- */

/* A tool not offered, arguments that are not JSON, arguments of the wrong
** type, an id used twice: each is answered with what was wrong, nothing of
** it runs, every call keeps exactly one result with a unique id. */
START_TEST(test_bad_calls)
{
    toolgov_loop_action a;
    const char *pad;
    size_t n;

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "bad-calls"), 0);
    a = next(TOOLGOV_LOOP_SEND);
    pad = check_request(TOOLGOV_LOOP_OPENAI_CHAT, a.text, a.len, &n);
    ck_assert_uint_eq(n, 4);
    ck_assert_ptr_nonnull(strstr(a.text, "there is no tool 'send_money' here"));
    ck_assert_ptr_nonnull(strstr(pad, "1. send_money {\"to\":\"me\"}: not run: no such tool"));
    ck_assert_ptr_nonnull(strstr(pad, "2. upcoming_dues {\"days\": fourteen}: not run: arguments"));
    ck_assert_ptr_nonnull(strstr(pad, "3. upcoming_dues {\"days\":\"14\"}: not run: arguments"));
    ck_assert_ptr_nonnull(strstr(a.text, "/days"));
    /* The fourth reused the first one's id: it got a fresh one, and ran. */
    ck_assert_ptr_nonnull(strstr(a.text, "\"tool_call_id\":\"toolgov_call_4\""));
    ck_assert_ptr_nonnull(strstr(pad, "4. calendar_lookup {\"date\":\"2026-12-03\"}: ran"));
}
END_TEST

/* Each call of the turn through the public accessor: ids, tools,
** canonical arguments, outcome and reason, and the result as the request
** carries it. */
START_TEST(test_call_info)
{
    toolgov_loop_call_info ci;
    toolgov_loop_action a;

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    ck_assert_uint_eq(toolgov_loop_calls_count(lp), 0);
    ck_assert_uint_eq(toolgov_loop_calls_count(NULL), 0);
    ck_assert_int_eq(toolgov_loop_call_at(lp, 0, &ci), TOOLGOV_EINVAL);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "bad-calls"), 0);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(toolgov_loop_calls_count(lp), 4);
    ck_assert_int_eq(toolgov_loop_call_at(lp, 4, &ci), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_loop_call_at(NULL, 0, &ci), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_loop_call_at(lp, 0, NULL), TOOLGOV_EINVAL);

    ck_assert_int_eq(toolgov_loop_call_at(lp, 0, &ci), 0);
    ck_assert_str_eq(ci.tool, "send_money");
    ck_assert_uint_eq(ci.tool_len, 10);
    ck_assert_str_eq(ci.args, "{\"to\":\"me\"}");
    ck_assert_int_eq(ci.outcome, TOOLGOV_LOOP_CALL_NOT_RUN);
    ck_assert_int_eq(ci.why, TOOLGOV_NOT_RUN_UNKNOWN_TOOL);
    ck_assert_int_eq(ci.status, TOOLGOV_ENOENT);
    ck_assert_int_eq(ci.is_error, 1);
    ck_assert_uint_eq(ci.step, 1);
    ck_assert_uint_eq(ci.result_len, strlen(ci.result));
    ck_assert_ptr_nonnull(strstr(ci.result, "there is no tool 'send_money' here"));
    ck_assert_ptr_nonnull(strstr(a.text, ci.id));

    ck_assert_int_eq(toolgov_loop_call_at(lp, 1, &ci), 0);
    ck_assert_str_eq(ci.tool, "upcoming_dues");
    ck_assert_int_eq(ci.outcome, TOOLGOV_LOOP_CALL_NOT_RUN);
    ck_assert_int_eq(ci.why, TOOLGOV_NOT_RUN_BAD_ARGS);
    ck_assert_int_eq(ci.status, TOOLGOV_EARGS);

    /* The fourth reused the first one's id: the fresh one is given. */
    ck_assert_int_eq(toolgov_loop_call_at(lp, 3, &ci), 0);
    ck_assert_str_eq(ci.id, "toolgov_call_4");
    ck_assert_uint_eq(ci.id_len, 14);
    ck_assert_str_eq(ci.tool, "calendar_lookup");
    ck_assert_str_eq(ci.args, "{\"date\":\"2026-12-03\"}");
    ck_assert_int_eq(ci.outcome, TOOLGOV_LOOP_CALL_RAN);
    ck_assert_int_eq(ci.why, 0);
    ck_assert_int_eq(ci.status, 0);
    ck_assert_int_eq(ci.is_error, 0);
    ck_assert_uint_eq(ci.step, 1);
    ck_assert_uint_gt(ci.result_len, 0);
    ck_assert_uint_eq(ci.result_len, strlen(ci.result));
}
END_TEST

/* A result with bytes that are not UTF-8 reads as the request carries it:
** each ill-formed byte is U+FFFD (the JSON writer's \\ufffd), and a
** well-formed result is not copied. */
START_TEST(test_call_info_sent_utf8)
{
    lcall c;

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start(DUES_USER, dues_tools, 5);
    memset(&c, 0, sizeof c);
    c.result = toolgov__loop_keep(lp, "caf\xc3\xa9 \xff\xc3 \xed\xa0\x80!", 13);
    c.result_len = 13;
    toolgov__loop_keep_sent(lp, &c);
    ck_assert_uint_ne(c.sent, c.result);
    ck_assert_uint_eq(c.sent_len, strlen(S(lp, c.sent)));
    ck_assert_str_eq(S(lp, c.sent), "caf\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd "
                                    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!");
    c.result = toolgov__loop_keep(lp, "caf\xc3\xa9", 5);
    c.result_len = 5;
    toolgov__loop_keep_sent(lp, &c);
    ck_assert_uint_eq(c.sent, c.result);
    ck_assert_uint_eq(c.sent_len, 5);
}
END_TEST

static char *calls_body(size_t n, const char *tool, const char *args)
{
    size_t cap = 256 + n * (96 + strlen(tool) + strlen(args)), at = 0, i;
    char *b = malloc(cap);
    ck_assert_ptr_nonnull(b);
    at += (size_t)snprintf(b + at, cap - at,
                           "{\"choices\":[{\"index\":0,\"finish_reason\":\"tool_calls\","
                           "\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[");
    for (i = 0; i < n; i++)
        at += (size_t)snprintf(b + at, cap - at,
                               "%s{\"id\":\"c%zu\",\"type\":\"function\",\"function\":{\"name\":"
                               "\"%s\",\"arguments\":\"%s\"}}",
                               i ? "," : "", i, tool, args);
    snprintf(b + at, cap - at, "]}}]}");
    return b;
}

/* Ten parallel calls all run; past max_calls each is answered "too many";
** past the reader's bound the response is refused whole. */
START_TEST(test_many_calls)
{
    toolgov_loop_options o;
    toolgov_loop_action a;
    char *body;
    size_t n;

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    body = calls_body(10, "calendar_lookup", "{\\\"date\\\":\\\"2026-12-03\\\"}");
    ck_assert_int_eq(toolgov_loop_response(lp, body, strlen(body)), 0);
    free(body);
    a = next(TOOLGOV_LOOP_SEND);
    check_request(TOOLGOV_LOOP_OPENAI_CHAT, a.text, a.len, &n);
    ck_assert_uint_eq(n, 10);
    ck_assert_ptr_null(strstr(a.text, "not run"));

    memset(&o, 0, sizeof o);
    o.max_calls = 3;
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, &o);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    body = calls_body(5, "calendar_lookup", "{}");
    ck_assert_int_eq(toolgov_loop_response(lp, body, strlen(body)), 0);
    free(body);
    a = next(TOOLGOV_LOOP_SEND);
    check_request(TOOLGOV_LOOP_OPENAI_CHAT, a.text, a.len, &n);
    ck_assert_uint_eq(n, 5);
    ck_assert_ptr_nonnull(strstr(a.text, "5. calendar_lookup {}: not run: too many calls"));

    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    body = calls_body(10000, "x", "{}");
    ck_assert_int_eq(toolgov_loop_response(lp, body, strlen(body)), TOOLGOV_EINVAL);
    free(body);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_BAD_RESPONSE);
    ck_assert_ptr_nonnull(strstr(a.error, "more than 1024 tool calls"));
}
END_TEST

/* Error bodies are errors the host sees, with the API's message; a body of
** another API, {} or not JSON is a bad response; nothing runs after. */
START_TEST(test_error_bodies)
{
    static const struct {
        toolgov_loop_api api;
        const char *body;
        toolgov_loop_end end;
        const char *words;
    } cases[] = {
        {TOOLGOV_LOOP_OPENAI_CHAT, NULL, TOOLGOV_LOOP_END_API_ERROR, "Incorrect API key provided"},
        {TOOLGOV_LOOP_OPENAI_RESPONSES, NULL, TOOLGOV_LOOP_END_API_ERROR, "`gpt-9` does not exist"},
        {TOOLGOV_LOOP_ANTHROPIC, NULL, TOOLGOV_LOOP_END_API_ERROR, "(overloaded_error): Overloaded"},
        {TOOLGOV_LOOP_OPENAI_CHAT, "{\"error\":\"model 'llama' not found\"}",
         TOOLGOV_LOOP_END_API_ERROR, "model 'llama' not found"},
        {TOOLGOV_LOOP_OPENAI_CHAT, "{}", TOOLGOV_LOOP_END_BAD_RESPONSE, "an empty object"},
        {TOOLGOV_LOOP_OPENAI_CHAT, "{\"object\":\"response\",\"output\":[]}",
         TOOLGOV_LOOP_END_BAD_RESPONSE, "Responses API response (--api openai-responses)"},
        {TOOLGOV_LOOP_ANTHROPIC, "{\"choices\":[]}", TOOLGOV_LOOP_END_BAD_RESPONSE,
         "chat completion (--api openai)"},
        {TOOLGOV_LOOP_OPENAI_RESPONSES, "{\"status\":\"failed\",\"output\":[],\"error\":{\"code\":"
         "\"server_error\",\"message\":\"The model failed.\"}}",
         TOOLGOV_LOOP_END_API_ERROR, "The model failed."},
        {TOOLGOV_LOOP_OPENAI_CHAT, "{\"choices\":[{\"message\":{\"tool_calls\":[", 
         TOOLGOV_LOOP_END_BAD_RESPONSE, "not JSON"},
        {TOOLGOV_LOOP_OPENAI_CHAT, "<html>502 Bad Gateway</html>", TOOLGOV_LOOP_END_BAD_RESPONSE,
         "not JSON"},
        {TOOLGOV_LOOP_OPENAI_CHAT, "{\"choices\":[{\"message\":{\"content\":\"\xff\"}}]}",
         TOOLGOV_LOOP_END_BAD_RESPONSE, "UTF-8"},
    };
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        toolgov_loop_action a;
        int rc;
        open_loop(cases[i].api, NULL);
        start(DUES_USER, dues_tools, 5);
        next(TOOLGOV_LOOP_SEND);
        if (cases[i].body)
            rc = toolgov_loop_response(lp, cases[i].body, strlen(cases[i].body));
        else
            rc = respond(cases[i].api, "error");
        ck_assert_int_eq(rc, TOOLGOV_EINVAL);
        a = next(TOOLGOV_LOOP_DONE);
        ck_assert_msg(a.end == cases[i].end, "case %zu: %s", i, toolgov_loop_end_name(a.end));
        ck_assert_msg(strstr(a.error, cases[i].words) != NULL, "case %zu: %s", i, a.error);
        ck_assert_str_eq(toolgov_loop_error(lp), a.error);
        ck_assert_uint_eq(a.len, 0);
    }
}
END_TEST

START_TEST(test_refusal_and_length)
{
    toolgov_loop_action a;
    toolgov_loop_api api = (toolgov_loop_api)_i;

    open_loop(api, NULL);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(api, "refusal"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_REFUSAL);
    if (api != TOOLGOV_LOOP_ANTHROPIC)
        ck_assert_ptr_nonnull(strstr(a.text, "can't help with that"));
    if (api != TOOLGOV_LOOP_OPENAI_CHAT)
        return;
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(api, "length"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_TRUNCATED);
    ck_assert_str_eq(a.text, "The first of your bills is");
}
END_TEST

/* ---- limits ------------------------------------------------------------------- */

START_TEST(test_step_limit)
{
    toolgov_loop_options o;
    toolgov_loop_action a;

    memset(&o, 0, sizeof o);
    o.max_steps = 2;
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, &o);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "dues-1"), 0);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "dues-1"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_STEP_LIMIT);
    ck_assert_uint_eq(a.step, 2);
}
END_TEST

START_TEST(test_size_limit)
{
    toolgov_loop_options o;
    toolgov_loop_action a;

    memset(&o, 0, sizeof o);
    o.max_request = 100;
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, &o);
    start(DUES_USER, dues_tools, 5);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_SIZE_LIMIT);
    ck_assert_ptr_nonnull(strstr(a.error, "over the limit of 100"));
    ck_assert_uint_eq(a.step, 0);
}
END_TEST

/* The rule matches who asks; schemas go in the system text only when
** asked for. */
START_TEST(test_rule_and_schemas)
{
    toolgov_loop_options o;
    toolgov_loop_action a;
    long sys;

    memset(&o, 0, sizeof o);
    o.model_asks = 1;
    o.schemas_in_prompt = 1;
    o.preamble = "You are a careful assistant.";
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, &o);
    start(DUES_USER, dues_tools, 5);
    a = next(TOOLGOV_LOOP_SEND);
    parse_request(a.text, a.len);
    sys = J(AT(J(0, "messages"), 0), "content");
    ck_assert_ptr_nonnull(strstr(STR(sys), "You are a careful assistant.\n\nTools:\n"));
    ck_assert_ptr_nonnull(strstr(STR(sys), toolgov_prompt_rule_text(TOOLGOV_PROMPT_RULE_MODEL_ASKS)));
    ck_assert_ptr_nonnull(strstr(STR(sys), "Arguments (JSON Schema)"));
    ck_assert_ptr_null(strstr(STR(sys), toolgov_prompt_rule_text(TOOLGOV_PROMPT_RULE_LOOP_ASKS)));
}
END_TEST

/* ---- the blocking convenience ------------------------------------------------- */

typedef struct script {
    toolgov_loop_api api;
    const char *const *bodies;
    size_t at;
    int answer;
    unsigned asks;
} script;

static int script_send(void *ud, toolgov_loop *l, const char *req, size_t len)
{
    script *s = ud;
    size_t n;
    char *body;
    int rc;
    (void)req;
    (void)len;
    if (!s->bodies[s->at])
        return -1;
    body = slurp(api_dir[s->api], s->bodies[s->at++], &n);
    rc = toolgov_loop_response(l, body, n);
    free(body);
    return rc == TOOLGOV_ENOMEM ? -1 : 0;
}

static int script_ask(void *ud, const toolgov_loop_action *q)
{
    script *s = ud;
    s->asks++;
    ck_assert_int_eq(q->what, TOOLGOV_LOOP_ASK);
    return s->answer;
}

START_TEST(test_drive)
{
    static const char *const bodies[] = {"dues-1", "dues-2", "dues-3", NULL};
    script s = {TOOLGOV_LOOP_ANTHROPIC, bodies, 0, 1, 0};
    toolgov_loop_io io = {script_send, script_ask, &s};
    toolgov_loop_action done;

    open_loop(TOOLGOV_LOOP_ANTHROPIC, NULL);
    start(DUES_USER, dues_tools, 5);
    ck_assert_int_eq(toolgov_loop_drive(lp, &io, &done), 0);
    ck_assert_int_eq(done.end, TOOLGOV_LOOP_END_ANSWERED);
    ck_assert_uint_eq(s.asks, 1);
    ck_assert_uint_eq(W.calendar.reminder_count, 4);

    /* A transport that fails ends the turn, nothing more runs. */
    s.at = 3;
    start(DUES_USER, dues_tools, 5);
    ck_assert_int_eq(toolgov_loop_drive(lp, &io, &done), 0);
    ck_assert_int_eq(done.end, TOOLGOV_LOOP_END_ABORTED);
    ck_assert_str_eq(done.error, "the host's transport failed");
}
END_TEST

/* ---- texts ---------------------------------------------------------------------- */

START_TEST(test_texts)
{
    char buf[256];
    size_t need;
    int i;

    for (i = TOOLGOV_NOT_RUN_WAITS_CONFIRM; i <= TOOLGOV_NOT_RUN_TOO_MANY; i++)
        ck_assert_int_eq(strncmp(toolgov_not_run_text((toolgov_not_run)i), "not run: ", 9), 0);
    ck_assert_str_eq(toolgov_not_run_text((toolgov_not_run)99), "not run");
    ck_assert_str_eq(toolgov_loop_end_name(TOOLGOV_LOOP_END_API_ERROR), "api_error");
    ck_assert_str_eq(toolgov_loop_end_name((toolgov_loop_end)99), "unknown");

    ck_assert_int_eq(toolgov_loop_tool_result_render(buf, sizeof buf, &need,
                                                     TOOLGOV_LOOP_OPENAI_CHAT, "call_1",
                                                     "a \"b\"\n", 6, 0), 0);
    ck_assert_str_eq(buf, "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"a \\\"b\\\"\\n\"}");
    ck_assert_uint_eq(need, strlen(buf));
    ck_assert_int_eq(toolgov_loop_tool_result_render(buf, sizeof buf, NULL,
                                                     TOOLGOV_LOOP_OPENAI_RESPONSES, "call_1", "ok",
                                                     2, 0), 0);
    ck_assert_str_eq(buf, "{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":\"ok\"}");
    /* Invalid UTF-8 from a handler never makes the JSON invalid. */
    ck_assert_int_eq(toolgov_loop_tool_result_render(buf, sizeof buf, NULL, TOOLGOV_LOOP_ANTHROPIC,
                                                     "toolu_1", "x\xff", 2, 1), 0);
    /* U+FFFD for the ill-formed byte, escaped or as its UTF-8 bytes. */
    ck_assert_msg(strcmp(buf, "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":"
                              "\"x\\ufffd\",\"is_error\":true}") == 0 ||
                      strcmp(buf, "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":"
                                  "\"x\xef\xbf\xbd\",\"is_error\":true}") == 0,
                  "%s", buf);
    ck_assert_int_eq(toolgov_loop_tool_result_render(buf, 5, &need, TOOLGOV_LOOP_ANTHROPIC, "t",
                                                     "x", 1, 0), TOOLGOV_ENOSPC);
    ck_assert_uint_eq(strlen(buf), 4);
    ck_assert_int_eq(toolgov_loop_tool_result_render(NULL, 0, &need, TOOLGOV_LOOP_ANTHROPIC, "t",
                                                     "x", 1, 0), 0);
    ck_assert_uint_eq(need, strlen("{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":\"x\"}"));
    ck_assert_int_eq(toolgov_loop_tool_result_render(buf, sizeof buf, NULL,
                                                     (toolgov_loop_api)7, "t", "x", 1, 0),
                     TOOLGOV_EINVAL);
}
END_TEST

/* What the user is asked shows hidden characters, so what they read is what
** runs. */
START_TEST(test_question_shows_hidden)
{
    static const char body[] =
        "{\"choices\":[{\"index\":0,\"finish_reason\":\"tool_calls\",\"message\":{\"role\":"
        "\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
        "\"function\":{\"name\":\"create_reminder\",\"arguments\":\"{\\\"title\\\":\\\"Pay "
        "\\u202eRENT\\u200b\\\",\\\"date\\\":\\\"2026-12-03\\\",\\\"time\\\":\\\"08:30\\\"}\"}}]}}]}";
    toolgov_loop_action a;

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(toolgov_loop_response(lp, body, strlen(body)), 0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_ptr_nonnull(strstr(a.text, "Pay \\u202eRENT\\u200b"));
    ck_assert_ptr_null(strstr(a.text, "\xe2\x80\xae"));
}
END_TEST

/* Issue 29 item 10: the loop's questions show model-supplied text exactly as
** toolgov_text_shown does (the one writer every place shares): a tag
** character, a C1 control and a backslash that spells an escape are
** escaped too, so a literal "\u202e" cannot pass for a shown one. */
START_TEST(test_question_is_text_shown)
{
    static const char body[] =
        "{\"choices\":[{\"index\":0,\"finish_reason\":\"tool_calls\",\"message\":{\"role\":"
        "\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
        "\"function\":{\"name\":\"create_reminder\",\"arguments\":\"{\\\"title\\\":\\\"Pay "
        "\\udb40\\udc41\\u009b31m \\\\\\\\u202e\\u0600\\\",\\\"date\\\":\\\"2026-12-03\\\","
        "\\\"time\\\":\\\"08:30\\\"}\"}}]}}]}";
    toolgov_loop_action a;
    char call[512], shown[2048], line[2100];
    size_t need = 0;

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(toolgov_loop_response(lp, body, strlen(body)), 0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_uint_eq(a.n_calls, 1);
    snprintf(call, sizeof call, "%s %s", a.calls[0].tool, a.calls[0].args);
    ck_assert_int_eq(toolgov_text_shown(shown, sizeof shown, &need, call, strlen(call)), 0);
    snprintf(line, sizeof line, "\n  1. %s", shown);
    ck_assert_msg(strstr(a.text, line) != NULL, "question %s lacks %s", a.text, line);
    ck_assert_ptr_nonnull(strstr(a.text, "\\U000e0041"));
    ck_assert_ptr_nonnull(strstr(a.text, "\\u009b"));
    ck_assert_ptr_nonnull(strstr(a.text, "\\u0600"));
    ck_assert_ptr_null(strstr(a.text, "\xf3\xa0\x81\x81"));
    ck_assert_ptr_null(strstr(a.text, "\xc2\x9b"));
}
END_TEST

/* ---- streams ---------------------------------------------------------------- */

/* Feed `body` to the loop in pieces of 1, 2, ... `step` bytes (cycling),
** the deltas collected in `deltas` (NULL: not kept). The chunk calls'
** first non-zero result, or 0. */
static int feed(const char *body, size_t len, size_t step, char *deltas, size_t dsize)
{
    size_t at = 0, k = 1, dl = 0;
    if (deltas)
        deltas[0] = '\0';
    while (at < len) {
        size_t n = k < len - at ? k : len - at, got = 0;
        const char *d = NULL;
        int rc = toolgov_loop_response_chunk(lp, body + at, n, &d, &got);
        if (rc)
            return rc;
        ck_assert_ptr_nonnull(d);
        if (deltas && got) {
            ck_assert_uint_lt(dl + got, dsize);
            memcpy(deltas + dl, d, got);
            dl += got;
            deltas[dl] = '\0';
        }
        at += n;
        k = k % step + 1;
    }
    return 0;
}

/* The dues through streams, for each API: the first response a whole JSON
** body fed in chunks, the four reminders' calls assembled from their
** fragments (split at every size from 1 to 13 bytes), the answer's text
** handed out as deltas that add up to the answer. */
START_TEST(test_stream_dues)
{
    toolgov_loop_api api = (toolgov_loop_api)_i;
    toolgov_loop_options o;
    toolgov_loop_action a;
    size_t len;
    char *body, deltas[4096];

    memset(&o, 0, sizeof o);
    o.stream = 1;
    open_loop(api, &o);
    start(DUES_USER, dues_tools, 5);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_ptr_nonnull(strstr(a.text, ",\"stream\":true}"));
    body = slurp(api_dir[api], "dues-1", &len);
    ck_assert_int_eq(feed(body, len, 5, NULL, 0), 0);
    free(body);
    ck_assert_int_eq(toolgov_loop_response_end(lp), 0);
    next(TOOLGOV_LOOP_SEND);
    body = slurp_ext(api_dir[api], "dues-2", "sse", &len);
    ck_assert_int_eq(feed(body, len, 13, NULL, 0), 0);
    free(body);
    ck_assert_int_eq(toolgov_loop_response_end(lp), 0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_uint_eq(a.n_calls, 4);
    ck_assert_str_eq(a.calls[2].tool, "create_reminder");
    ck_assert_ptr_nonnull(strstr(a.calls[2].args, "\"title\":\"Pay Rent (1250.00 EUR)\""));
    ck_assert_ptr_nonnull(strstr(a.text, "Make these 4 changes?"));
    ck_assert_int_eq(toolgov_loop_answer(lp, 1), 0);
    next(TOOLGOV_LOOP_SEND);
    body = slurp_ext(api_dir[api], "dues-3", "sse", &len);
    ck_assert_int_eq(feed(body, len, 3, deltas, sizeof deltas), 0);
    free(body);
    ck_assert_int_eq(toolgov_loop_response_end(lp), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_ANSWERED);
    ck_assert_str_eq(a.text, deltas);
    ck_assert_ptr_nonnull(strstr(a.text, "Done: I created 4 reminders"));
}
END_TEST

/* The same stream with CRLF line ends fed one byte at a time (a CRLF split
** across chunks is one line end). */
START_TEST(test_stream_crlf_bytes)
{
    toolgov_loop_options o;
    toolgov_loop_action a;
    size_t len, i, n = 0;
    char *body, *crlf;

    memset(&o, 0, sizeof o);
    o.stream = 1;
    open_loop(TOOLGOV_LOOP_ANTHROPIC, &o);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    body = slurp_ext("anthropic", "dues-2", "sse", &len);
    crlf = malloc(2 * len + 1);
    ck_assert_ptr_nonnull(crlf);
    for (i = 0; i < len; i++) {
        if (body[i] == '\n')
            crlf[n++] = '\r';
        crlf[n++] = body[i];
    }
    ck_assert_int_eq(feed(crlf, n, 1, NULL, 0), 0);
    free(body);
    free(crlf);
    ck_assert_int_eq(toolgov_loop_response_end(lp), 0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_uint_eq(a.n_calls, 4);
}
END_TEST

/* A stream cut in the middle of an event (the third reminder's first,
** when two calls are whole already), or between events before the API's
** last two: a clear error, the turn ends BAD_RESPONSE, and not
** one of its calls reaches the gate, the whole ones included. */
START_TEST(test_stream_cut)
{
    toolgov_loop_api api = (toolgov_loop_api)(_i % 3);
    int between = _i >= 3;
    toolgov_loop_options o;
    toolgov_loop_action a;
    size_t len, cut;
    char *body;

    memset(&o, 0, sizeof o);
    o.stream = 1;
    open_loop(api, &o);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    body = slurp_ext(api_dir[api], "dues-2", "sse", &len);
    if (between) {
        /* every event but the last two (a chat stream whose finish_reason
        ** came is whole even without its [DONE]) */
        int ends = 0;
        cut = len;
        while (cut > 2 && ends < 3)
            ends += body[--cut - 1] == '\n' && body[cut - 2] == '\n';
    } else {
        /* in the third reminder's first event: two calls are whole */
        const char *third = strstr(body, "em_3") ? strstr(body, "em_3") : strstr(body, "Rem3");
        ck_assert_ptr_nonnull(third);
        cut = (size_t)(third - body);
    }
    ck_assert_int_eq(feed(body, cut, 7, NULL, 0), 0);
    free(body);
    ck_assert_int_eq(toolgov_loop_response_end(lp), TOOLGOV_EINVAL);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_BAD_RESPONSE);
    ck_assert_msg(strstr(a.error, between ? "the stream ended before its last event"
                                          : "the stream was cut in the middle of an event") &&
                      strstr(a.error, "nothing of this response is used"),
                  "error: %s", a.error);
    ck_assert_int_eq(toolgov_loop_response_end(lp), TOOLGOV_EINVAL);
}
END_TEST

/* Error events end the turn at once with the API's message; a stream over
** max_response, an event that is not JSON, an empty body: BAD_RESPONSE. */
START_TEST(test_stream_errors)
{
    static const char anth[] =
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\","
        "\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\n"
        ": a comment\nevent: error\ndata: {\"type\": \"error\", \"error\": {\"type\": "
        "\"overloaded_error\", \"message\": \"Overloaded\"}}\n\n";
    static const char resp[] = "event: error\ndata: {\"type\":\"error\",\"code\":\"ERR_SOMETHING\","
                               "\"message\":\"Something went wrong\",\"param\":null,"
                               "\"sequence_number\":1}\n\n";
    static const char chat[] = "data: {\"error\":{\"message\":\"Rate limit\",\"type\":\"requests\"}}\n\n";
    static const char notjson[] = "data: {\"choices\": [\n\n";
    toolgov_loop_options o;
    toolgov_loop_action a;
    char big[300];

    memset(&o, 0, sizeof o);
    o.stream = 1;
    open_loop(TOOLGOV_LOOP_ANTHROPIC, &o);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(feed(anth, strlen(anth), 9, NULL, 0), TOOLGOV_EINVAL);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_API_ERROR);
    ck_assert_str_eq(a.error, "Anthropic API error (overloaded_error): Overloaded");

    open_loop(TOOLGOV_LOOP_OPENAI_RESPONSES, &o);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(feed(resp, strlen(resp), 64, NULL, 0), TOOLGOV_EINVAL);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_API_ERROR);
    ck_assert_str_eq(a.error, "OpenAI API error (ERR_SOMETHING): Something went wrong");

    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, &o);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(feed(chat, strlen(chat), 64, NULL, 0), TOOLGOV_EINVAL);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_API_ERROR);
    ck_assert_ptr_nonnull(strstr(a.error, "Rate limit"));

    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(feed(notjson, strlen(notjson), 64, NULL, 0), TOOLGOV_EINVAL);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_BAD_RESPONSE);
    ck_assert_ptr_nonnull(strstr(a.error, "event 1 of the stream is not JSON"));

    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(toolgov_loop_response_end(lp), TOOLGOV_EINVAL);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_ptr_nonnull(strstr(a.error, "ended before anything was sent"));

    o.max_response = 256;
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, &o);
    start(DUES_USER, dues_tools, 5);
    next(TOOLGOV_LOOP_SEND);
    memset(big, ':', sizeof big);
    ck_assert_int_eq(feed(big, sizeof big, 64, NULL, 0), TOOLGOV_EINVAL);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_BAD_RESPONSE);
    ck_assert_ptr_nonnull(strstr(a.error, "over 256 bytes"));
    /* No stream is awaited now. */
    ck_assert_int_eq(toolgov_loop_response_chunk(lp, "x", 1, NULL, NULL), TOOLGOV_EINVAL);
}
END_TEST

/* Chat chunks as servers send them: the calls of two indexes interleaved,
** a name in two pieces, a chunk with no index (it goes on the last call),
** and no [DONE] after the finish_reason (llama.cpp-style servers close
** the stream there): read whole. */
START_TEST(test_stream_chat_interleaved)
{
    static const char s[] =
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":["
        "{\"index\":0,\"id\":\"c0\",\"type\":\"function\",\"function\":{\"name\":\"calendar_\","
        "\"arguments\":\"{\\\"da\"}},{\"index\":1,\"id\":\"c1\",\"type\":\"function\","
        "\"function\":{\"name\":\"calendar_lookup\",\"arguments\":\"{\\\"date\\\":\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":"
        "{\"name\":\"lookup\",\"arguments\":\"te\\\":\\\"2026-12-01\\\"}\"}}]}}]}\n\n"
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"function\":"
        "{\"arguments\":\"\\\"2026-12-02\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n";
    static const char *const tools[] = {"calendar_lookup"};
    toolgov_loop_options o;
    toolgov_loop_action a;

    memset(&o, 0, sizeof o);
    o.stream = 1;
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, &o);
    start("What is on the first two days?", tools, 1);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(feed(s, strlen(s), 11, NULL, 0), 0);
    ck_assert_int_eq(toolgov_loop_response_end(lp), 0);
    a = next(TOOLGOV_LOOP_SEND);
    parse_request(a.text, a.len);
    ck_assert_ptr_nonnull(strstr(a.text, "1. calendar_lookup {\\\"date\\\":\\\"2026-12-01\\\"}: ran"));
    ck_assert_ptr_nonnull(strstr(a.text, "2. calendar_lookup {\\\"date\\\":\\\"2026-12-02\\\"}: ran"));
}
END_TEST

/* OpenAI's strict mode (both OpenAI APIs): every tool says "strict": true,
** every property is required and the optional one nullable, objects are
** closed, minLength/maxLength move into the description; the model's
** null for the optional note reads as absent, so the call is the one
** without it. */
START_TEST(test_strict)
{
    toolgov_loop_api api = _i ? TOOLGOV_LOOP_OPENAI_RESPONSES : TOOLGOV_LOOP_OPENAI_CHAT;
    static const char chat_body[] =
        "{\"choices\":[{\"index\":0,\"finish_reason\":\"tool_calls\",\"message\":{\"role\":"
        "\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
        "\"function\":{\"name\":\"create_reminder\",\"arguments\":\"{\\\"title\\\":\\\"Pay rent"
        "\\\",\\\"date\\\":\\\"2026-12-07\\\",\\\"time\\\":\\\"08:30\\\",\\\"note\\\":null}\"}}]}}]}";
    static const char resp_body[] =
        "{\"object\":\"response\",\"status\":\"completed\",\"output\":[{\"type\":\"function_call\","
        "\"call_id\":\"c1\",\"name\":\"create_reminder\",\"arguments\":\"{\\\"title\\\":\\\"Pay rent"
        "\\\",\\\"date\\\":\\\"2026-12-07\\\",\\\"time\\\":\\\"08:30\\\",\\\"note\\\":null}\"}]}";
    toolgov_loop_options o;
    toolgov_loop_action a;
    long tools, t, fn, params, props, req, note, type;
    size_t i;
    int found = 0;

    memset(&o, 0, sizeof o);
    o.strict = 1;
    open_loop(api, &o);
    start(DUES_USER, dues_tools, 5);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_ptr_null(strstr(a.text, "\"minLength\""));
    ck_assert_ptr_null(strstr(a.text, "\"maxLength\""));
    parse_request(a.text, a.len);
    tools = J(0, "tools");
    ck_assert_uint_eq(LEN(tools), 5);
    for (i = 0; i < LEN(tools); i++) {
        t = AT(tools, i);
        fn = api == TOOLGOV_LOOP_OPENAI_CHAT ? J(t, "function") : t;
        ck_assert_int_eq(doc.nodes[J(fn, "strict")].type, TOOLGOV__JSON_TRUE);
        params = J(fn, "parameters");
        ck_assert_int_eq(doc.nodes[J(params, "additionalProperties")].type, TOOLGOV__JSON_FALSE);
        props = J(params, "properties");
        req = J(params, "required");
        ck_assert_uint_eq(LEN(req), LEN(props));
        if (!str_is(J(fn, "name"), "create_reminder"))
            continue;
        found = 1;
        note = J(props, "note");
        type = J(note, "type");
        ck_assert_uint_eq(LEN(type), 2);
        ck_assert(str_is(AT(type, 0), "string") && str_is(AT(type, 1), "null"));
        ck_assert_ptr_nonnull(strstr(STR(J(note, "description")), "(maxLength: 255)"));
        ck_assert(str_is(J(J(props, "title"), "type"), "string"));
        ck_assert_ptr_nonnull(strstr(STR(J(J(props, "title"), "description")),
                                     "minLength: 1, maxLength: 127"));
    }
    ck_assert(found);
    ck_assert_int_eq(toolgov_loop_response(lp, _i ? resp_body : chat_body,
                                           strlen(_i ? resp_body : chat_body)),
                     0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_uint_eq(a.n_calls, 1);
    ck_assert_str_eq(a.calls[0].args,
                     "{\"title\":\"Pay rent\",\"date\":\"2026-12-07\",\"time\":\"08:30\"}");
}
END_TEST

/* One rendering of each OpenAI shape: the tools the loop sends (chat or
** Responses, strict mode or not) are byte for byte what
** toolgov_tools_render_with gives for the same tools (and, through the same
** code, what toolgov-gen export writes: tests/export). */
START_TEST(test_tools_render_same)
{
    toolgov_loop_api api = _i & 1 ? TOOLGOV_LOOP_OPENAI_RESPONSES : TOOLGOV_LOOP_OPENAI_CHAT;
    toolgov_tools_format fmt =
        _i & 1 ? TOOLGOV_TOOLS_OPENAI_RESPONSES : TOOLGOV_TOOLS_OPENAI;
    toolgov_tools_options to;
    toolgov_loop_options o;
    toolgov_loop_action a;
    char *want, *at;
    size_t need = 0;

    memset(&o, 0, sizeof o);
    memset(&to, 0, sizeof to);
    o.strict = to.strict = _i >= 2;
    open_loop(api, &o);
    start(DUES_USER, dues_tools, 5);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(toolgov_tools_render_with(NULL, 0, &need, W.pol, fmt, dues_tools, 5, &to), 0);
    want = malloc(need + 9);
    ck_assert_ptr_nonnull(want);
    memcpy(want, "\"tools\":", 8);
    ck_assert_int_eq(toolgov_tools_render_with(want + 8, need + 1, NULL, W.pol, fmt, dues_tools,
                                               5, &to), 0);
    ck_assert_uint_eq(strlen(want), need + 8);
    at = strstr(a.text, want);
    ck_assert_msg(at != NULL, "the loop's tools differ from toolgov_tools_render_with's:\n%s\n%s",
                  a.text, want);
    ck_assert(strchr(",]}", at[need + 8]) != NULL);
    /* Cut short: ENOSPC with the length, never a partial list beyond it. */
    ck_assert_int_eq(toolgov_tools_render_with(want, 10, &need, W.pol, fmt, dues_tools, 5, &to),
                     TOOLGOV_ENOSPC);
    ck_assert_uint_eq(strlen(want), 9);
    free(want);
    /* Strict mode is OpenAI's: not for the other shapes. */
    to.strict = 1;
    ck_assert_int_eq(toolgov_tools_render_with(NULL, 0, &need, W.pol, TOOLGOV_TOOLS_ANTHROPIC,
                                               dues_tools, 5, &to),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_tools_render_with(NULL, 0, &need, W.pol, TOOLGOV_TOOLS_MCP,
                                               dues_tools, 5, &to),
                     TOOLGOV_EINVAL);
}
END_TEST

START_TEST(test_misuse)
{
    toolgov_loop_action a;
    static const char *const bogus[] = {"no_such_tool"};
    toolgov_loop_options o;

    memset(&o, 0, sizeof o);
    o.api = (toolgov_loop_api)9;
    ck_assert_int_eq(toolgov_loop_new(&lp, W.pol, &o), TOOLGOV_EINVAL);
    ck_assert_ptr_null(lp);
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    ck_assert_int_eq(toolgov_loop_next(lp, &a), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_loop_response(lp, "{}", 2), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_loop_answer(lp, 1), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_new(&run, W.pol, NULL), 0);
    ck_assert_int_eq(toolgov_loop_start(lp, run, "hi", bogus, 1), TOOLGOV_ENOENT);
    ck_assert_int_eq(toolgov_loop_start(lp, NULL, "hi", NULL, 0), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_loop_start(lp, run, "hi", NULL, 0), 0);
    a = next(TOOLGOV_LOOP_SEND);
    parse_request(a.text, a.len);
    ck_assert_int_lt(J(0, "tools"), 0);
    ck_assert_int_eq(toolgov_loop_abort(lp, "the user left"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_ABORTED);
    ck_assert_str_eq(a.error, "the user left");
    toolgov_loop_free(NULL);
}
END_TEST

/* ---- pause and resume ----------------------------------------------------------- */

static char *save_turn(const toolgov_state_key *key, size_t *len)
{
    char *text;
    ck_assert_int_eq(toolgov_loop_save(NULL, 0, len, lp, key), 0);
    text = malloc(*len + 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(toolgov_loop_save(text, *len + 1, NULL, lp, key), 0);
    return text;
}

/* A fresh loop and run with identity `id`, as another process would make
** them. */
static void fresh_as(toolgov_loop_api api, const char *id)
{
    open_loop(api, NULL);
    toolgov_run_free(run);
    run = NULL;
    ck_assert_int_eq(toolgov_run_new(&run, W.pol, NULL), 0);
    ck_assert_int_eq(toolgov_run_set_id(run, id), 0);
}

static void start_as(const char *id, const char *user, const char *const *tools, size_t n)
{
    toolgov_run_free(run);
    run = NULL;
    ck_assert_int_eq(toolgov_run_new(&run, W.pol, NULL), 0);
    ck_assert_int_eq(toolgov_run_set_id(run, id), 0);
    ck_assert_int_eq(toolgov_loop_start(lp, run, user, tools, n), 0);
}

/* dues stopped at its question, saved, restored into a new loop and run:
** the same question, and after the yes the four reminders, once. */
START_TEST(test_save_restore_confirm)
{
    toolgov_loop_api api = (toolgov_loop_api)_i;
    toolgov_state_key key, other;
    toolgov_loop_action a;
    char *text, question[2048];
    size_t len, n;

    ck_assert_int_eq(toolgov_state_key_generate(&key), 0);
    ck_assert_int_eq(toolgov_state_key_generate(&other), 0);
    open_loop(api, NULL);
    start_as("c-1", DUES_USER, dues_tools, 5);
    ck_assert_int_eq(toolgov_loop_save(NULL, 0, &len, lp, &key), TOOLGOV_EINVAL);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(api, "dues-1"), 0);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(api, "dues-2"), 0);
    a = next(TOOLGOV_LOOP_ASK);
    snprintf(question, sizeof question, "%s", a.text);
    text = save_turn(&key, &len);

    /* Refused whole: another run, another key, another api, any byte. */
    fresh_as(api, "c-2");
    ck_assert_int_eq(toolgov_loop_restore(lp, run, text, len, &key), TOOLGOV_ESTATE);
    fresh_as(api, "c-1");
    ck_assert_int_eq(toolgov_loop_restore(lp, run, text, len, &other), TOOLGOV_ESTATE);
    ck_assert_int_eq(toolgov_loop_restore(lp, run, text, len - 1, &key), TOOLGOV_ESTATE);
    for (n = 0; n < len; n += 1 + n / 8) {
        char was = text[n];
        text[n] = (char)(text[n] ^ 0x20);
        ck_assert_msg(toolgov_loop_restore(lp, run, text, len, &key) == TOOLGOV_ESTATE,
                      "byte %zu changed and accepted", n);
        text[n] = was;
    }
    ck_assert_int_eq(toolgov_loop_next(lp, &a), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_run_confirmation(run), TOOLGOV_CONFIRMATION_PENDING);
    fresh_as(api == TOOLGOV_LOOP_ANTHROPIC ? TOOLGOV_LOOP_OPENAI_CHAT : TOOLGOV_LOOP_ANTHROPIC,
             "c-1");
    ck_assert_int_eq(toolgov_loop_restore(lp, run, text, len, &key), TOOLGOV_ESTATE);

    fresh_as(api, "c-1");
    ck_assert_int_eq(toolgov_loop_restore(lp, run, text, len, &key), 0);
    free(text);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_str_eq(a.text, question);
    ck_assert_uint_eq(a.n_calls, 4);
    ck_assert_str_eq(a.calls[0].tool, "create_reminder");
    ck_assert_int_eq(toolgov_loop_answer(lp, 1), 0);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(a.step, 3);
    check_request(api, a.text, a.len, &n);
    ck_assert_uint_eq(n, 6);
    ck_assert_uint_eq(W.calendar.reminder_count, 4);
    ck_assert_int_eq(respond(api, "dues-3"), 0);
    a = next(TOOLGOV_LOOP_DONE);
    ck_assert_int_eq(a.end, TOOLGOV_LOOP_END_ANSWERED);
    ck_assert_uint_eq(W.calendar.reminder_count, 4);
}
END_TEST

/* A destructive call's approval across a save: granted after the restore,
** it runs once. */
START_TEST(test_save_restore_approval)
{
    static const char *const tools[] = {"empty_trash", "trash_category"};
    toolgov_state_key key;
    toolgov_loop_action a;
    char *text;
    size_t len;

    ck_assert_int_eq(toolgov_state_key_generate(&key), 0);
    open_loop(TOOLGOV_LOOP_OPENAI_CHAT, NULL);
    start_as("c-9", "Empty the trash.", tools, 2);
    next(TOOLGOV_LOOP_SEND);
    ck_assert_int_eq(respond(TOOLGOV_LOOP_OPENAI_CHAT, "empty-3"), 0);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_int_eq(a.question, TOOLGOV_LOOP_APPROVAL);
    text = save_turn(&key, &len);
    fresh_as(TOOLGOV_LOOP_OPENAI_CHAT, "c-9");
    ck_assert_int_eq(toolgov_loop_restore(lp, run, text, len, &key), 0);
    free(text);
    a = next(TOOLGOV_LOOP_ASK);
    ck_assert_int_eq(a.question, TOOLGOV_LOOP_APPROVAL);
    ck_assert_str_eq(a.calls[0].tool, "empty_trash");
    ck_assert_int_eq(toolgov_loop_answer(lp, 1), 0);
    a = next(TOOLGOV_LOOP_SEND);
    ck_assert_uint_eq(W.email.empty_calls, 1);
    ck_assert_ptr_nonnull(strstr(check_request(TOOLGOV_LOOP_OPENAI_CHAT, a.text, a.len, NULL),
                                 "1. empty_trash {}: ran"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("loop");
    TCase *t = tcase_create("scenarios");
    TCase *e = tcase_create("edges");

    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_loop_test(t, test_dues, 0, 3);
    tcase_add_test(t, test_dues_declined);
    tcase_add_test(t, test_dues_listed_scope);
    tcase_add_loop_test(t, test_digest, 0, 3);
    tcase_add_test(t, test_promos_repeat);
    tcase_add_loop_test(t, test_empty_trash, 0, 2);
    tcase_add_test(t, test_drive);
    tcase_add_loop_test(t, test_save_restore_confirm, 0, 3);
    tcase_add_test(t, test_save_restore_approval);
    suite_add_tcase(s, t);

    tcase_add_checked_fixture(e, setup, teardown);
    tcase_add_test(e, test_bad_calls);
    tcase_add_test(e, test_many_calls);
    tcase_add_test(e, test_error_bodies);
    tcase_add_loop_test(e, test_refusal_and_length, 0, 3);
    tcase_add_test(e, test_step_limit);
    tcase_add_test(e, test_size_limit);
    tcase_add_test(e, test_rule_and_schemas);
    tcase_add_test(e, test_texts);
    tcase_add_test(e, test_question_shows_hidden);
    tcase_add_test(e, test_question_is_text_shown);
    tcase_add_test(e, test_misuse);
    tcase_add_loop_test(e, test_stream_dues, 0, 3);
    tcase_add_test(e, test_stream_crlf_bytes);
    tcase_add_loop_test(e, test_stream_cut, 0, 6);
    tcase_add_test(e, test_stream_errors);
    tcase_add_test(e, test_stream_chat_interleaved);
    tcase_add_test(e, test_call_info);
    tcase_add_test(e, test_call_info_sent_utf8);
    tcase_add_loop_test(e, test_strict, 0, 2);
    tcase_add_loop_test(e, test_tools_render_same, 0, 4);
    suite_add_tcase(s, e);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
