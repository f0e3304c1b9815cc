/* SPDX-License-Identifier: MIT */
/*
** test_mcp_server.c: toolgov-mcp's protocol engine in-process, over the
** example plugins: the JSON-RPC envelope (every malformed shape gets its
** error), initialize and protocol negotiation, tools/list, and tools/call
** through the gate with elicitation: accept, decline, cancel, cancellation
** of the call, destructive approvals, a client without elicitation and the
** operator's override. Each test feeds lines and compares what comes back.
*/
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/policy.h>

#include "fixture_reminder.h"
#include "plugins.h"
#include "server.h"

/* A plugin with declared parameters (SPEC section 9's create_reminder,
** tests/args's fixture), mounted beside the examples: its handler says back
** the arguments it gets. */
#define NOTE_SCHEMA REMINDER_SCHEMA_JSON

static int echo_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)args;
    return toolgov_result_printf(out, "%s |", call->args);
}

static const toolgov_tool_spec note_tools[] = {
    {sizeof(toolgov_tool_spec), "note_reminder", "Note a reminder.", TOOLGOV_EFFECT_READ,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 1, 1, &reminder_schema, NOTE_SCHEMA},
};
static const char *const note_provides[] = {"tool"};

static int note_register(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "note_reminder", "Note a reminder.", echo_handler);
}

static const toolgov_plugin note_plugin = {TOOLGOV_ABI_VERSION, "notes", "notes.yaml",
                                           note_provides, 1, note_tools, 1, note_register};

typedef struct session {
    toolgov_mcp_plugins plugins;
    toolgov_policy *pol;
    toolgov_mcp_server *srv;
    char *lines[64]; /* what the server sent, one message each */
    size_t count;
    int fail_writes;
} session;

static int capture(void *ud, const char *msg, size_t len)
{
    session *s = ud;
    if (s->fail_writes)
        return -1;
    ck_assert_uint_lt(s->count, 64);
    ck_assert_ptr_null(memchr(msg, '\n', len)); /* one line per message */
    s->lines[s->count] = strndup(msg, len);
    ck_assert_ptr_nonnull(s->lines[s->count]);
    s->count++;
    return 0;
}

static void clear(session *s)
{
    size_t i;
    for (i = 0; i < s->count; i++)
        free(s->lines[i]);
    s->count = 0;
}

static void open_session(session *s, const char *override)
{
    toolgov_mcp_options opt;
    memset(s, 0, sizeof *s);
    memset(&opt, 0, sizeof opt);
    opt.max_message = 4096;
    ck_assert_int_eq(toolgov_mcp_plugins_open(&s->plugins, 1, NULL, 0, NULL, stderr), 0);
    ck_assert_int_eq(toolgov_registry_mount(s->plugins.reg, &note_plugin, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&s->pol, s->plugins.reg), 0);
    if (override)
        ck_assert_int_eq(toolgov_policy_set_override(s->pol, override), 0);
    ck_assert_int_eq(toolgov_mcp_server_new(&s->srv, s->plugins.reg, s->pol, &opt, capture, s), 0);
}

static void close_session(session *s)
{
    clear(s);
    toolgov_mcp_server_free(s->srv);
    toolgov_policy_free(s->pol);
    toolgov_mcp_plugins_close(&s->plugins);
}

/* Send one line; returns how many messages came back. */
static size_t feed(session *s, const char *line)
{
    clear(s);
    ck_assert_int_eq(toolgov_mcp_server_handle(s->srv, line, strlen(line)), 0);
    return s->count;
}

/* The only message that came back, which must contain `want`. */
static void expect1(session *s, const char *line, const char *want)
{
    size_t n = feed(s, line);
    ck_assert_msg(n == 1, "%zu messages for %s", n, line);
    ck_assert_msg(strstr(s->lines[0], want) != NULL, "for %s\n  got:  %s\n  want: ...%s...",
                  line, s->lines[0], want);
}

static void init(session *s, const char *caps)
{
    char line[512];
    snprintf(line, sizeof line,
             "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
             "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":%s,"
             "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}", caps);
    expect1(s, line, "\"protocolVersion\":\"2025-11-25\"");
    ck_assert_uint_eq(feed(s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), 0);
}

static char call_line[1024];

static const char *call(int id, const char *tool, const char *args)
{
    snprintf(call_line, sizeof call_line,
             "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\""
             "%s%s}}", id, tool, args ? ",\"arguments\":" : "", args ? args : "");
    return call_line;
}

static char answer_line[256];

static const char *answer(int eid, const char *action)
{
    snprintf(answer_line, sizeof answer_line,
             "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"action\":\"%s\"}}", eid, action);
    return answer_line;
}

#define REMINDER(t) "{\"title\":\"" t "\",\"date\":\"2026-12-02\",\"time\":\"08:30\"}"

/* ---- the envelope ------------------------------------------------------- */

START_TEST(test_envelope_errors)
{
    static const struct {
        const char *in, *want;
    } cases[] = {
        {"nonsense", "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"", "\"code\":-32700"},
        {"{\"a\":1,\"a\":2}", "\"code\":-32600,\"message\":\"invalid request: a key appears twice"},
        {"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", "batches are not supported"},
        {"42", "invalid request: a message is a JSON object"},
        {"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
         "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,"},
        {"{\"id\":1,\"method\":\"ping\"}", "jsonrpc must be \\\"2.0\\\""},
        {"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", "id must be a string or an integer"},
        {"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", "id must be a string or an integer"},
        {"{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}", "id must be a string or an integer"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", "method must be a string"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1}", "invalid request: no method"},
        {"{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\",\"params\":[1]}",
         "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"error\":{\"code\":-32602,"},
        {"{\"jsonrpc\":\"2.0\",\"id\":\"a\\u0062\",\"method\":\"nothing/here\"}",
         "{\"jsonrpc\":\"2.0\",\"id\":\"ab\",\"error\":{\"code\":-32601,\"message\":\"method not found: 'nothing/here'\"}}"},
        {"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}", "the session is not initialized"},
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"\xff\"}", "\"code\":-32700"},
    };
    session s;
    size_t i;
    open_session(&s, NULL);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect1(&s, cases[i].in, cases[i].want);
    /* ping works before initialize; notifications are never answered. */
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}");
    ck_assert_uint_eq(feed(&s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}"), 0);
    ck_assert_uint_eq(feed(&s, "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":5}"), 0);
    /* A response to a question never asked is ignored. */
    ck_assert_uint_eq(feed(&s, answer(77, "accept")), 0);
    close_session(&s);
}
END_TEST

/* Every object the server reads is read strictly (issue 29 item 13): a key
** twice anywhere in a message is refused, except inside a tool's arguments,
** which the runtime's decoder refuses with a message for the model. An
** answer to a question with `action` twice is no answer: nothing runs. */
START_TEST(test_strict_objects)
{
    static const char *const dups[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        "\"2025-11-25\",\"capabilities\":{\"elicitation\":{},\"elicitation\":{}},"
        "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"name\":\"u\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":{\"a\":[{\"b\":1,"
        "\"b\":2}]}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
        "\"calendar_lookup\",\"arguments\":{\"date\":\"2026-12-02\"},\"_meta\":"
        "{\"toolgov/new_run\":false,\"toolgov/new_run\":true}}}",
    };
    session s;
    size_t i;
    open_session(&s, NULL);
    for (i = 0; i < sizeof dups / sizeof dups[0]; i++)
        expect1(&s, dups[i], "\"id\":1,\"error\":{\"code\":-32600,\"message\":\"invalid request: "
                             "a key appears twice");
    init(&s, "{\"elicitation\":{}}");
    /* In the arguments: the decoder's answer, as a tool error. */
    expect1(&s, call(2, "calendar_lookup", "{\"date\":\"2026-12-02\",\"date\":\"2026-12-03\"}"),
            "\"id\":2,\"result\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":true"));
    /* An answer with action twice: the question closes, nothing runs, and
    ** the run is not confirmed (the next write asks). */
    expect1(&s, call(3, "create_reminder", REMINDER("Dup")), "\"id\":1,\"method\":\"elicitation/create\"");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"action\":\"decline\",\"action\":"
                "\"accept\"}}", "\"id\":3,\"result\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "closed the question without answering"));
    expect1(&s, call(4, "calendar_lookup", "{\"date\":\"2026-12-02\"}"), "\"id\":4,\"result\"");
    ck_assert_ptr_null(strstr(s.lines[0], "Dup"));
    expect1(&s, call(5, "create_reminder", REMINDER("Dup")), "\"id\":2,\"method\":\"elicitation/create\"");
    /* A key twice deeper in the answer, too. */
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"action\":\"accept\",\"content\":"
                "{\"x\":1,\"x\":2}}}", "closed the question without answering");
    close_session(&s);
}
END_TEST

/* Issue 29 item 10: a question shows every invisible or reordering
** character of a call escaped (U+202E, U+2028, U+200B, a tag, C1), so what
** the user reads is what runs. */
START_TEST(test_question_shows_hidden_characters)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{}}");
    expect1(&s, call(1, "create_reminder",
                     "{\"title\":\"Pay \\u202erent\\u2028x\\u200by\\u0085z\xf3\xa0\x80\x81\","
                     "\"date\":\"2026-12-02\",\"time\":\"08:30\"}"),
            "\"method\":\"elicitation/create\"");
    ck_assert_ptr_null(strstr(s.lines[0], "\xe2\x80\xae"));
    ck_assert_ptr_null(strstr(s.lines[0], "\xe2\x80\xa8"));
    ck_assert_ptr_null(strstr(s.lines[0], "\xe2\x80\x8b"));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Pay \\\\u202erent\\\\u2028x\\\\u200by\\\\u0085z"
                                             "\\\\U000e0001"));
    close_session(&s);
}
END_TEST

START_TEST(test_oversized)
{
    session s;
    char *big;
    open_session(&s, NULL);
    big = malloc(5000);
    ck_assert_ptr_nonnull(big);
    memset(big, ' ', 5000);
    ck_assert_int_eq(toolgov_mcp_server_handle(s.srv, big, 5000), 0);
    ck_assert_uint_eq(s.count, 1);
    ck_assert_str_eq(s.lines[0], "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,"
                                 "\"message\":\"invalid request: the message is 5000 bytes or "
                                 "more; the limit is 4096 bytes\"}}");
    free(big);
    close_session(&s);
}
END_TEST

START_TEST(test_write_failure)
{
    session s;
    open_session(&s, NULL);
    s.fail_writes = 1;
    ck_assert_int_eq(toolgov_mcp_server_handle(s.srv, "{}", 2), TOOLGOV_EFAIL);
    close_session(&s);
}
END_TEST

/* ---- initialize and tools/list ------------------------------------------ */

START_TEST(test_initialize_versions)
{
    session s;
    open_session(&s, NULL);
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"elicitation\":{}}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\","
            "\"capabilities\":{\"tools\":{\"listChanged\":false}},\"serverInfo\":"
            "{\"name\":\"toolgov-mcp\",\"version\":\"" TOOLGOV_VERSION_STRING "\"}");
    /* 2025-06-18 has no elicitation modes: the question carries none. */
    expect1(&s, call(2, "create_reminder", REMINDER("a")),
            "\"method\":\"elicitation/create\",\"params\":{\"message\":");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":"
                "{\"protocolVersion\":\"1999-01-01\",\"capabilities\":{}}}",
            "\"protocolVersion\":\"" TOOLGOV_MCP_PROTOCOL_LATEST "\"");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"initialize\",\"params\":{}}",
            "\"code\":-32602");
    close_session(&s);
}
END_TEST

START_TEST(test_tools_list)
{
    session s;
    const char *l;
    open_session(&s, NULL);
    init(&s, "{}");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":\"L\",\"method\":\"tools/list\",\"params\":{}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"L\",\"result\":{\"tools\":[{\"name\":\"calendar_lookup\"");
    l = s.lines[0];
    /* Only the plugins' tools: no core built-in without a handler. */
    ck_assert_ptr_null(strstr(l, "\"memory_search\""));
    ck_assert_ptr_null(strstr(l, "\"ask_user\""));
    ck_assert_ptr_nonnull(strstr(l, "\"name\":\"code_exec\""));
    /* Annotations from the effect, exactly. */
    ck_assert_ptr_nonnull(strstr(l, "\"annotations\":{\"readOnlyHint\":true}},{\"name\":\"create_reminder\""));
    ck_assert_ptr_nonnull(strstr(l, "\"annotations\":{\"readOnlyHint\":false,\"destructiveHint\":false,"
                                    "\"idempotentHint\":false}},{\"name\":\"finance_lookup\""));
    ck_assert_ptr_nonnull(strstr(l, "\"name\":\"empty_trash\""));
    ck_assert_ptr_nonnull(strstr(l, "\"annotations\":{\"readOnlyHint\":false,\"destructiveHint\":true,"
                                    "\"idempotentHint\":false}}"));
    ck_assert_ptr_null(strstr(l, "openWorldHint"));
    close_session(&s);
}
END_TEST

/* ---- tools/call ---------------------------------------------------------- */

START_TEST(test_call_read_and_errors)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{}}");
    expect1(&s, call(1, "calendar_lookup", "{\"date\": \"2026-12-01\"}"),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
            "\"- Tuesday 2026-12-01 09:30-10:00 Team stand-up");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":false}}"));
    expect1(&s, call(2, "no_such_tool", "{}"),
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":\"unknown tool "
            "'no_such_tool'");
    expect1(&s, call(3, "memory_search", "{}"), "unknown tool 'memory_search'");
    expect1(&s, call(4, "calendar_lookup", "[1]"), "arguments must be a JSON object");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":true"));
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{}}",
            "tools/call needs params.name");
    /* Invalid arguments: an error result the model can act on. */
    expect1(&s, call(6, "calendar_lookup", "{\"date\":\"12/03/2026\"}"), "\"isError\":true");
    close_session(&s);
}
END_TEST

START_TEST(test_confirm_accept_once_for_two)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{\"form\":{}}}");
    /* The first write asks; a second one waits on the same question. */
    expect1(&s, call(1, "create_reminder", REMINDER("Pay rent")),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"elicitation/create\",\"params\":"
            "{\"mode\":\"form\",\"message\":\"Allow the changes of this session? The assistant "
            "wants to run:\\n- calendar.create_reminder {");
    /* The question shows the call's canonical arguments. */
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\\\"title\\\":\\\"Pay rent\\\""));
    /* Its form offers to remember the answer: this session only, since no
    ** grant store was given. */
    ck_assert_ptr_nonnull(strstr(s.lines[0],
        "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"remember\":{\"type\":"
        "\"string\",\"title\":\"Remember this answer\",\"oneOf\":[{\"const\":\"once\",\"title\":"
        "\"Only this time\"},{\"const\":\"session\",\"title\":\"Allow for this session\"}],"
        "\"default\":\"once\"}}}}}"));
    ck_assert_uint_eq(feed(&s, call(2, "create_reminder", REMINDER("Call Ana"))), 0);
    /* A read meanwhile runs at once. */
    expect1(&s, call(3, "calendar_lookup", "{\"date\":\"2026-12-02\"}"), "\"id\":3,\"result\"");
    ck_assert_ptr_null(strstr(s.lines[0], "Pay rent"));
    /* Accept: both run, in order. */
    ck_assert_uint_eq(feed(&s, answer(1, "accept")), 2);
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"id\":1,\"result\":{\"content\":[{\"type\":\"text\","
                                             "\"text\":\"Created reminder \\\"Pay rent\\\""));
    ck_assert_ptr_nonnull(strstr(s.lines[1], "\"id\":2,\"result\""));
    ck_assert_ptr_nonnull(strstr(s.lines[1], "Call Ana"));
    /* Later writes of the run do not ask. */
    expect1(&s, call(4, "create_reminder", REMINDER("Third")), "\"id\":4,\"result\"");
    expect1(&s, call(5, "calendar_lookup", "{\"date\":\"2026-12-02\"}"), "reminder: Pay rent");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "reminder: Call Ana"));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "reminder: Third"));
    close_session(&s);
}
END_TEST

/* Under the confirmation scope `listed` a yes covers exactly what the user
** was shown (issue 29 item 1): a write that arrives while a question is open
** gets a question of its own; cancelling the shown call and then accepting
** runs nothing unseen; the same call sent twice asks twice; the wording says
** what a yes does under this scope. */
START_TEST(test_confirm_listed_scope)
{
    session s;
    open_session(&s, NULL);
    ck_assert_int_eq(toolgov_policy_set_confirm_scope(s.pol, TOOLGOV_CONFIRM_SCOPE_LISTED), 0);
    init(&s, "{\"elicitation\":{\"form\":{}}}");
    expect1(&s, call(1, "create_reminder", REMINDER("Pay rent")),
            "\"id\":1,\"method\":\"elicitation/create\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Allow this change? The assistant wants to run:"));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Accept runs exactly this call, once; any other "
                                             "write asks on its own. Decline refuses this call."));
    ck_assert_ptr_null(strstr(s.lines[0], "later writes"));
    /* A write while the question is open waits for its own question. */
    expect1(&s, call(2, "create_reminder", REMINDER("Call Ana")),
            "\"id\":2,\"method\":\"elicitation/create\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Call Ana"));
    ck_assert_ptr_null(strstr(s.lines[0], "Pay rent"));
    /* The first yes runs the call it showed, only. */
    ck_assert_uint_eq(feed(&s, answer(1, "accept")), 1);
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"id\":1,\"result\""));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Pay rent"));
    expect1(&s, call(3, "calendar_lookup", "{\"date\":\"2026-12-02\"}"), "reminder: Pay rent");
    ck_assert_ptr_null(strstr(s.lines[0], "Call Ana"));
    ck_assert_uint_eq(feed(&s, answer(2, "accept")), 1);
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"id\":2,\"result\""));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Call Ana"));

    /* Cancel the shown call, then accept its question: nothing runs, and
    ** the call that arrived meanwhile still waits for its own answer. */
    expect1(&s, call(4, "create_reminder", REMINDER("Shown")),
            "\"id\":3,\"method\":\"elicitation/create\"");
    expect1(&s, call(5, "create_reminder", REMINDER("Unseen")),
            "\"id\":4,\"method\":\"elicitation/create\"");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                "{\"requestId\":4}}", "\"method\":\"notifications/cancelled\",\"params\":"
                                      "{\"requestId\":3,");
    ck_assert_uint_eq(feed(&s, answer(3, "accept")), 0);
    expect1(&s, call(6, "calendar_lookup", "{\"date\":\"2026-12-02\"}"), "\"id\":6,\"result\"");
    ck_assert_ptr_null(strstr(s.lines[0], "Unseen"));
    ck_assert_ptr_null(strstr(s.lines[0], "Shown"));
    expect1(&s, answer(4, "decline"), "\"id\":5,\"result\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "the user declined this call"));

    /* The same call twice: two questions, and one yes runs it once. */
    expect1(&s, call(7, "create_reminder", REMINDER("Twice")),
            "\"id\":5,\"method\":\"elicitation/create\"");
    expect1(&s, call(8, "create_reminder", REMINDER("Twice")),
            "\"id\":6,\"method\":\"elicitation/create\"");
    ck_assert_uint_eq(feed(&s, answer(5, "accept")), 1);
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"id\":7,\"result\""));
    expect1(&s, answer(6, "decline"), "\"id\":8,\"result\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":true"));
    expect1(&s, call(9, "calendar_lookup", "{\"date\":\"2026-12-02\"}"), "reminder: Twice");
    ck_assert_ptr_null(strstr(strstr(s.lines[0], "reminder: Twice") + 1, "reminder: Twice"));
    /* The declined call stays refused; a write nobody listed asks. */
    expect1(&s, call(10, "create_reminder", REMINDER("Twice")), "declined this call in this run");
    expect1(&s, call(11, "create_reminder", REMINDER("Third")),
            "\"id\":7,\"method\":\"elicitation/create\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Third"));
    close_session(&s);
}
END_TEST

START_TEST(test_confirm_decline_and_cancel)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{}}");
    /* Cancel: nothing runs, the next write asks again. */
    expect1(&s, call(1, "create_reminder", REMINDER("A")), "elicitation/create");
    expect1(&s, answer(1, "cancel"), "closed the question without answering");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"id\":1,\"result\""));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":true"));
    expect1(&s, call(2, "create_reminder", REMINDER("B")), "\"id\":2,\"method\":\"elicitation/create\"");
    /* An error answer counts as no answer too. */
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-1,\"message\":\"no\"}}",
            "closed the question without answering");
    /* Decline: refused, and every later write of the run too, without asking. */
    expect1(&s, call(3, "create_reminder", REMINDER("C")), "\"id\":3,\"method\":\"elicitation/create\"");
    expect1(&s, answer(3, "decline"), "the user declined the writes of this run");
    expect1(&s, call(4, "create_reminder", REMINDER("D")), "the user declined the writes of this run");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"id\":4,\"result\""));
    expect1(&s, call(5, "calendar_lookup", "{\"date\":\"2026-12-02\"}"), "\"isError\":false");
    ck_assert_ptr_null(strstr(s.lines[0], "reminder:"));
    /* A new run asks again. */
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"create_reminder\",\"arguments\":" REMINDER("E") ",\"_meta\":{\"toolgov/new_run\":true}}}",
            "\"id\":4,\"method\":\"elicitation/create\"");
    expect1(&s, answer(4, "accept"), "Created reminder \\\"E\\\"");
    close_session(&s);
}
END_TEST

START_TEST(test_destructive_each_call)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{}}");
    expect1(&s, call(1, "empty_trash", "{}"),
            "\"id\":1,\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":"
            "\"Approve this destructive call? It cannot be undone:\\n- email_workflows.empty_trash {}");
    expect1(&s, answer(1, "accept"), "\"id\":1,\"result\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":false"));
    /* The second call asks again, for itself. */
    expect1(&s, call(2, "empty_trash", NULL), "\"id\":2,\"method\":\"elicitation/create\"");
    expect1(&s, answer(2, "decline"), "the user did not approve this call");
    expect1(&s, call(3, "empty_trash", "{}"), "\"id\":3,\"method\":\"elicitation/create\"");
    expect1(&s, answer(3, "cancel"), "closed the question");
    close_session(&s);
}
END_TEST

/* An accept with content.remember. */
static const char *answer_remember(int eid, const char *remember)
{
    snprintf(answer_line, sizeof answer_line,
             "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"action\":\"accept\","
             "\"content\":{\"remember\":%s}}}", eid, remember);
    return answer_line;
}

#define NEW_RUN_CALL(id, tool, args)                                                        \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"tools/call\",\"params\":{\"name\":\"" tool \
    "\",\"arguments\":" args ",\"_meta\":{\"toolgov/new_run\":true}}}"

/* "Allow for this session": the answer stands in the session's later runs
** (a standing grant), for the tool asked about or the one destructive
** call; "always" without a grant store, or a key given twice, is once. */
START_TEST(test_remember_for_the_session)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{\"form\":{}}}");
    expect1(&s, call(1, "create_reminder", REMINDER("A")), "\"id\":1,\"method\":\"elicitation/create\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Remember this answer to let these tools' writes run "
                                             "without asking for the rest of this session."));
    ck_assert_ptr_null(strstr(s.lines[0], "always"));
    expect1(&s, answer_remember(1, "\"session\""), "Created reminder \\\"A\\\"");
    /* A new run: the write runs without a question. */
    expect1(&s, NEW_RUN_CALL(2, "create_reminder", REMINDER("B")), "\"id\":2,\"result\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Created reminder"));
    /* The destructive call: only exactly the approved call is remembered. */
    expect1(&s, call(3, "empty_trash", "{}"), "\"id\":2,\"method\":\"elicitation/create\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "exactly this call"));
    expect1(&s, answer_remember(2, "\"session\""), "\"id\":3,\"result\"");
    expect1(&s, NEW_RUN_CALL(4, "empty_trash", "{}"), "\"id\":4,\"result\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":false"));
    close_session(&s);

    /* Not offered or not read: once. */
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{\"form\":{}}}");
    expect1(&s, call(1, "create_reminder", REMINDER("A")), "\"id\":1,\"method\":\"elicitation/create\"");
    expect1(&s, answer_remember(1, "\"always\""), "\"id\":1,\"result\"");
    expect1(&s, NEW_RUN_CALL(2, "create_reminder", REMINDER("B")), "\"id\":2,\"method\":\"elicitation/create\"");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"action\":\"accept\",\"content\":"
                "{\"remember\":\"once\",\"remember\":\"session\"}}}", "\"id\":2,\"result\"");
    expect1(&s, NEW_RUN_CALL(3, "create_reminder", REMINDER("C")), "\"id\":3,\"method\":\"elicitation/create\"");
    close_session(&s);
}
END_TEST

/* A standing never of the host's set: refused with its own message. */
START_TEST(test_never_grant)
{
    session s;
    toolgov_mcp_options opt;
    toolgov_grants *g;
    toolgov_grant gr;

    memset(&s, 0, sizeof s);
    memset(&opt, 0, sizeof opt);
    ck_assert_int_eq(toolgov_mcp_plugins_open(&s.plugins, 1, NULL, 0, NULL, stderr), 0);
    ck_assert_int_eq(toolgov_policy_new(&s.pol, s.plugins.reg), 0);
    ck_assert_int_eq(toolgov_grants_new(&g, "ana", NULL), 0);
    memset(&gr, 0, sizeof gr);
    gr.tool = "calendar_lookup";
    gr.verdict = TOOLGOV_GRANT_NEVER;
    ck_assert_int_eq(toolgov_grants_add(NULL, g, s.plugins.reg, &gr), 0);
    opt.grants = g;
    ck_assert_int_eq(toolgov_mcp_server_new(&s.srv, s.plugins.reg, s.pol, &opt, capture, &s), 0);
    init(&s, "{\"elicitation\":{\"form\":{}}}");
    expect1(&s, call(1, "calendar_lookup", "{\"date\":\"2026-12-02\"}"),
            "calendar_lookup was not run: the user said never to this call, in a standing grant.");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":true"));
    close_session(&s);
    toolgov_grants_free(g);
}
END_TEST

START_TEST(test_cancelled_call)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{}}");
    expect1(&s, call(7, "create_reminder", REMINDER("A")), "\"id\":1,\"method\":\"elicitation/create\"");
    /* The client cancels its call: no response, the question is withdrawn. */
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                "{\"requestId\":7,\"reason\":\"user stopped\"}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1,");
    /* A late answer runs nothing and confirms nothing. */
    ck_assert_uint_eq(feed(&s, answer(1, "accept")), 0);
    expect1(&s, call(8, "create_reminder", REMINDER("B")), "\"id\":2,\"method\":\"elicitation/create\"");
    /* Cancelling one of two waiting calls keeps the question. */
    ck_assert_uint_eq(feed(&s, call(9, "create_reminder", REMINDER("C"))), 0);
    ck_assert_uint_eq(feed(&s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                               "\"params\":{\"requestId\":8}}"), 0);
    ck_assert_uint_eq(feed(&s, answer(2, "accept")), 1);
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"id\":9,\"result\""));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "Created reminder \\\"C\\\""));
    close_session(&s);
}
END_TEST

START_TEST(test_no_elicitation)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{\"url\":{}}}"); /* URL mode only: no form */
    expect1(&s, call(1, "create_reminder", REMINDER("A")), "\"id\":1,\"result\"");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":true"));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "cannot ask the user"));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "TOOLGOV_CONFIRM_ONCE_TOOLS"));
    expect1(&s, call(2, "empty_trash", "{}"), "Destructive tools cannot run for this client");
    /* A write that never asks still runs. */
    expect1(&s, call(3, "trash_category", "{\"category\":\"promotions\"}"), "\"isError\":false");
    close_session(&s);
}
END_TEST

START_TEST(test_override_none)
{
    session s;
    open_session(&s, "none");
    init(&s, "{}");
    expect1(&s, call(1, "create_reminder", REMINDER("A")), "Created reminder");
    /* The override never reaches destructive tools. */
    expect1(&s, call(2, "empty_trash", "{}"), "Destructive tools cannot run for this client");
    close_session(&s);
}
END_TEST

START_TEST(test_answers_directly_new_run)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{}}");
    /* A read runs first; a write is declined. */
    expect1(&s, call(1, "calendar_lookup", "{\"date\":\"2026-12-02\"}"), "\"isError\":false");
    expect1(&s, call(2, "create_reminder", REMINDER("A")), "elicitation/create");
    expect1(&s, answer(1, "decline"), "declined");
    /* inbox_digest is not the run's first tool: one step, the run goes on
    ** and its writes stay refused. */
    expect1(&s, call(3, "inbox_digest", "{}"), "\"isError\":false");
    expect1(&s, call(4, "create_reminder", REMINDER("B")), "declined");
    /* In a fresh run the digest is the first tool: it is the answer and
    ** ends the run, so the next write belongs to a new run and asks. */
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"inbox_digest\",\"arguments\":{},\"_meta\":{\"toolgov/new_run\":true}}}",
            "\"isError\":false");
    expect1(&s, call(6, "create_reminder", REMINDER("C")), "\"id\":2,\"method\":\"elicitation/create\"");
    expect1(&s, answer(2, "accept"), "Created reminder \\\"C\\\"");
    /* A question asked in a run that has since ended runs nothing. */
    expect1(&s, call(7, "create_reminder", REMINDER("D")), "\"id\":7,\"result\"");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"empty_trash\",\"_meta\":{\"toolgov/new_run\":true}}}",
            "\"id\":3,\"method\":\"elicitation/create\"");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"calendar_lookup\",\"arguments\":{\"date\":\"2026-12-01\"},\"_meta\":{\"toolgov/new_run\":true}}}",
            "\"id\":9,\"result\"");
    expect1(&s, answer(3, "accept"), "its run ended before the user answered");
    close_session(&s);
}
END_TEST

/* The calls waiting for the user are bounded. */
START_TEST(test_pending_bound)
{
    session s;
    int i;
    open_session(&s, NULL);
    init(&s, "{\"elicitation\":{}}");
    for (i = 0; i < 256; i++)
        ck_assert_uint_eq(feed(&s, call(100 + i, "empty_trash", "{}")), 1);
    expect1(&s, call(9999, "empty_trash", "{}"), "256 calls already wait for the user's answer");
    expect1(&s, call(9998, "create_reminder", REMINDER("A")), "256 calls already wait");
    /* Reads still run. */
    expect1(&s, call(9997, "calendar_lookup", "{\"date\":\"2026-12-01\"}"), "\"isError\":false");
    close_session(&s);
}
END_TEST

/* Declared parameters: the schema is listed, arguments are decoded before
** the gate (refusals carry the decoder's message), and the handler gets
** the canonical text. */
START_TEST(test_declared_parameters)
{
    session s;
    open_session(&s, NULL);
    init(&s, "{}");
    expect1(&s, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
            "{\"name\":\"note_reminder\",\"description\":\"Note a reminder.\",\"inputSchema\":"
            NOTE_SCHEMA ",\"annotations\":{\"readOnlyHint\":true}}");
    expect1(&s, call(2, "note_reminder", "{\"date\":\"12/03/2026\",\"time\":\"08:30\"}"),
            "{\"type\":\"text\",\"text\":\"note_reminder: ");
    ck_assert_ptr_nonnull(strstr(s.lines[0], "/date must be a date (YYYY-MM-DD)"));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "/title is required"));
    ck_assert_ptr_nonnull(strstr(s.lines[0], "\"isError\":true"));
    expect1(&s, call(3, "note_reminder", "{ \"time\" : \"08:30\", \"title\": \"Rent\", \"date\": \"2026-12-02\" }"),
            "\"text\":\"{\\\"title\\\":\\\"Rent\\\",\\\"date\\\":\\\"2026-12-02\\\",\\\"time\\\":\\\"08:30\\\","
            "\\\"priority\\\":\\\"normal\\\",\\\"minutes_before\\\":0} |\"");
    expect1(&s, call(4, "note_reminder", "{\"title\":\"a\",\"title\":\"b\"}"), "duplicate");
    close_session(&s);
}
END_TEST

static Suite *mcp_suite(void)
{
    Suite *su = suite_create("mcp_server");
    TCase *tc = tcase_create("protocol");
    tcase_add_test(tc, test_envelope_errors);
    tcase_add_test(tc, test_oversized);
    tcase_add_test(tc, test_write_failure);
    tcase_add_test(tc, test_initialize_versions);
    tcase_add_test(tc, test_tools_list);
    tcase_add_test(tc, test_call_read_and_errors);
    tcase_add_test(tc, test_confirm_accept_once_for_two);
    tcase_add_test(tc, test_confirm_listed_scope);
    tcase_add_test(tc, test_confirm_decline_and_cancel);
    tcase_add_test(tc, test_destructive_each_call);
    tcase_add_test(tc, test_remember_for_the_session);
    tcase_add_test(tc, test_never_grant);
    tcase_add_test(tc, test_cancelled_call);
    tcase_add_test(tc, test_no_elicitation);
    tcase_add_test(tc, test_override_none);
    tcase_add_test(tc, test_answers_directly_new_run);
    tcase_add_test(tc, test_pending_bound);
    tcase_add_test(tc, test_declared_parameters);
    tcase_add_test(tc, test_strict_objects);
    tcase_add_test(tc, test_question_shows_hidden_characters);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    SRunner *sr = srunner_create(mcp_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
