/* SPDX-License-Identifier: MIT */
/*
** test_toolcalls.c: rendering the tools on the loop for model APIs, and
** reading a model's tool calls back (toolcalls.h), over a hand-built plugin
** whose create_reminder has SPEC §9's parameters (tests/args's fixture).
** Rendered text is compared exactly and read back with the strict reader;
** every kind of bad model output is one refused entry, never a crash and
** never a dropped call; parsing fails cleanly under every allocation
** failure.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/policy.h>
#include <toolgov/run.h>
#include <toolgov/toolcalls.h>
#include <toolgov/toolgov.h>

#include "fixture_reminder.h"
#include "json.h"

#define REMINDER_SCHEMA REMINDER_SCHEMA_JSON
#define NO_ARGS "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"

static int ok_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)args;
    return toolgov_result_set(out, call->args, call->args_len);
}

static const toolgov_tool_spec notes_tools[] = {
    {sizeof(toolgov_tool_spec), "lookup", "Find notes about \"a\" topic.", TOOLGOV_EFFECT_READ,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 4, 3, NULL, NO_ARGS},
    {sizeof(toolgov_tool_spec), "create_reminder", "Create one reminder.", TOOLGOV_EFFECT_WRITE,
     TOOLGOV_CONFIRM_ONCE, "", 0, 0, 7, 3, &reminder_schema, REMINDER_SCHEMA},
    {sizeof(toolgov_tool_spec), "tidy", "Merge tags.", TOOLGOV_EFFECT_WRITE,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 10, 3, NULL, NO_ARGS},
    {sizeof(toolgov_tool_spec), "purge", "Delete every note.", TOOLGOV_EFFECT_DESTRUCTIVE,
     TOOLGOV_CONFIRM_NEVER, "", 0, 0, 13, 3, NULL, NO_ARGS},
};

static const char *const notes_provides[] = {"tool"};

static int notes_register(toolgov_plugin_api *api)
{
    size_t i;
    for (i = 0; i < sizeof notes_tools / sizeof notes_tools[0]; i++) {
        int rc = toolgov_register_tool(api, notes_tools[i].name, notes_tools[i].description,
                                       ok_handler);
        if (rc)
            return rc;
    }
    return 0;
}

static const toolgov_plugin notes_plugin = {
    TOOLGOV_ABI_VERSION, "notes", "notes.yaml", notes_provides, 1,
    notes_tools, sizeof notes_tools / sizeof notes_tools[0], notes_register};

static toolgov_registry *reg;
static toolgov_policy *pol;

static void setup_with(const toolgov_allocator *alloc)
{
    ck_assert_int_eq(toolgov_registry_new(&reg, alloc), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &notes_plugin, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
}

static void setup(void)
{
    setup_with(NULL);
}

static void teardown(void)
{
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    pol = NULL;
    reg = NULL;
}

static const char *const loop[] = {"lookup", "create_reminder", "tidy", "purge"};

static char *render(toolgov_tools_format fmt)
{
    size_t needed = 0;
    char *buf;
    ck_assert_int_eq(toolgov_tools_render(NULL, 0, &needed, pol, fmt, loop, 4), 0);
    buf = malloc(needed + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(toolgov_tools_render(buf, needed + 1, NULL, pol, fmt, loop, 4), 0);
    ck_assert_uint_eq(strlen(buf), needed);
    return buf;
}

/* The text is one valid JSON value (read back with the strict reader). */
static void assert_json(const char *text)
{
    toolgov_allocator a = {NULL, NULL};
    toolgov__scratch arena;
    toolgov__json_doc doc;
    toolgov__json_error err;
    toolgov__scratch_init(&arena, &a);
    ck_assert_msg(toolgov__json_parse(&doc, &err, &arena, text, strlen(text), 64,
                                      TOOLGOV__JSON_MAX_LEN, 0) == 0,
                  "not JSON (%s at %zu): %s", err.msg, err.pos, text);
    toolgov__scratch_free(&arena);
}

START_TEST(test_render_openai)
{
    char *t = render(TOOLGOV_TOOLS_OPENAI);
    ck_assert_str_eq(t,
        "[{\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"description\":"
        "\"Find notes about \\\"a\\\" topic.\",\"parameters\":" NO_ARGS "}},"
        "{\"type\":\"function\",\"function\":{\"name\":\"create_reminder\",\"description\":"
        "\"[write, asks once] Create one reminder.\",\"parameters\":" REMINDER_SCHEMA "}},"
        "{\"type\":\"function\",\"function\":{\"name\":\"tidy\",\"description\":"
        "\"[write] Merge tags.\",\"parameters\":" NO_ARGS "}},"
        "{\"type\":\"function\",\"function\":{\"name\":\"purge\",\"description\":"
        "\"[destructive, needs approval] Delete every note.\",\"parameters\":" NO_ARGS "}}]");
    assert_json(t);
    free(t);
}
END_TEST

/* A pooled tool with nothing bound to run it (the core built-ins this host
** never bound) is not offered: every format leaves it out. */
START_TEST(test_render_only_offered)
{
    static const char *const names[] = {"memory_search", "lookup", "ask_user", "invoke_pending_action"};
    static const char *const want[] = {
        "[{\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"description\":"
        "\"Find notes about \\\"a\\\" topic.\",\"parameters\":" NO_ARGS "}}]",
        "[{\"name\":\"lookup\",\"description\":\"Find notes about \\\"a\\\" topic.\","
        "\"input_schema\":" NO_ARGS "}]",
        NULL, NULL};
    char buf[2048];
    int f;
    for (f = TOOLGOV_TOOLS_OPENAI; f <= TOOLGOV_TOOLS_JSON_SCHEMA; f++) {
        ck_assert_int_eq(toolgov_tools_render(buf, sizeof buf, NULL, pol, (toolgov_tools_format)f,
                                              names, 4), 0);
        ck_assert_msg(strstr(buf, "memory_search") == NULL && strstr(buf, "ask_user") == NULL &&
                          strstr(buf, "invoke_pending_action") == NULL && strstr(buf, "lookup"),
                      "format %d: %s", f, buf);
        if (want[f])
            ck_assert_str_eq(buf, want[f]);
        assert_json(buf);
    }
    ck_assert_int_eq(toolgov_registry_bind_builtin(reg, "ask_user", ok_handler, NULL), 0);
    ck_assert_int_eq(toolgov_tools_render(buf, sizeof buf, NULL, pol, TOOLGOV_TOOLS_MCP, names, 4),
                     0);
    ck_assert_ptr_nonnull(strstr(buf, "\"name\":\"ask_user\""));
    ck_assert_ptr_null(strstr(buf, "memory_search"));
}
END_TEST

START_TEST(test_render_anthropic_mcp_schema)
{
    char *t = render(TOOLGOV_TOOLS_ANTHROPIC);
    ck_assert_str_eq(t,
        "[{\"name\":\"lookup\",\"description\":\"Find notes about \\\"a\\\" topic.\","
        "\"input_schema\":" NO_ARGS "},"
        "{\"name\":\"create_reminder\",\"description\":\"[write, asks once] Create one "
        "reminder.\",\"input_schema\":" REMINDER_SCHEMA "},"
        "{\"name\":\"tidy\",\"description\":\"[write] Merge tags.\",\"input_schema\":" NO_ARGS "},"
        "{\"name\":\"purge\",\"description\":\"[destructive, needs approval] Delete every note.\","
        "\"input_schema\":" NO_ARGS "}]");
    assert_json(t);
    free(t);
    t = render(TOOLGOV_TOOLS_MCP);
    ck_assert_ptr_nonnull(strstr(t, "{\"tools\":[{\"name\":\"lookup\","));
    ck_assert_ptr_nonnull(strstr(t, "\"inputSchema\":" NO_ARGS ",\"annotations\":{\"readOnlyHint\":true}}"));
    ck_assert_ptr_nonnull(strstr(t, "\"annotations\":{\"readOnlyHint\":false,\"destructiveHint\":false,"
                                    "\"idempotentHint\":false}}"));
    ck_assert_ptr_nonnull(strstr(t, "\"annotations\":{\"readOnlyHint\":false,\"destructiveHint\":true,"
                                    "\"idempotentHint\":false}}]}"));
    assert_json(t);
    free(t);
    t = render(TOOLGOV_TOOLS_JSON_SCHEMA);
    ck_assert_str_eq(t, "{\"lookup\":" NO_ARGS ",\"create_reminder\":" REMINDER_SCHEMA
                        ",\"tidy\":" NO_ARGS ",\"purge\":" NO_ARGS "}");
    assert_json(t);
    free(t);
}
END_TEST

/* The operator's override moves the marks with the gate. */
START_TEST(test_render_override_marks)
{
    char buf[2048];
    static const char *const two[] = {"lookup", "create_reminder", "lookup"};
    ck_assert_int_eq(toolgov_policy_set_override(pol, "none,lookup"), 0);
    ck_assert_int_eq(toolgov_tools_render(buf, sizeof buf, NULL, pol, TOOLGOV_TOOLS_ANTHROPIC, two, 3), 0);
    ck_assert_ptr_nonnull(strstr(buf, "\"description\":\"[asks once] Find notes"));
    ck_assert_ptr_nonnull(strstr(buf, "\"description\":\"[write] Create one reminder.\""));
    /* A name given twice is written once. */
    ck_assert_ptr_null(strstr(strstr(buf, "Find notes") + 1, "Find notes"));
}
END_TEST

START_TEST(test_render_contract)
{
    char buf[64], full[4096];
    size_t needed = 0, n;
    static const char *const bad[] = {"lookup", "no_such_tool"};
    ck_assert_int_eq(toolgov_tools_render(full, sizeof full, &n, pol, TOOLGOV_TOOLS_OPENAI, loop, 4), 0);
    /* Cut short at every size: always NUL-terminated, a prefix of the text. */
    for (size_t size = 1; size < sizeof buf; size++) {
        ck_assert_int_eq(toolgov_tools_render(buf, size, &needed, pol, TOOLGOV_TOOLS_OPENAI, loop, 4),
                         TOOLGOV_ENOSPC);
        ck_assert_uint_eq(needed, n);
        ck_assert_uint_eq(strlen(buf), size - 1);
        ck_assert_int_eq(strncmp(buf, full, size - 1), 0);
    }
    strcpy(buf, "x");
    ck_assert_int_eq(toolgov_tools_render(buf, sizeof buf, &needed, pol, TOOLGOV_TOOLS_OPENAI, bad, 2),
                     TOOLGOV_ENOENT);
    ck_assert_str_eq(buf, "");
    ck_assert_uint_eq(needed, 0);
    ck_assert_int_eq(toolgov_tools_render(buf, sizeof buf, NULL, NULL, TOOLGOV_TOOLS_OPENAI, loop, 4),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_tools_render(buf, sizeof buf, NULL, pol, (toolgov_tools_format)9, loop, 4),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_tools_render(buf, sizeof buf, NULL, pol, TOOLGOV_TOOLS_OPENAI, NULL, 0), 0);
    ck_assert_str_eq(buf, "[]");
}
END_TEST

/* ---- parsing ---------------------------------------------------------------- */

static toolgov_model_calls *mc;

static void psetup(void)
{
    setup();
    ck_assert_int_eq(toolgov_model_calls_new(&mc, reg), 0);
}

static void pteardown(void)
{
    toolgov_model_calls_free(mc);
    mc = NULL;
    teardown();
}

static int parse(toolgov_tools_format fmt, const char *text)
{
    return toolgov_model_calls_parse(mc, fmt, text, strlen(text), NULL, 0);
}

static const toolgov_model_call *at(size_t i)
{
    const toolgov_model_call *c = toolgov_model_calls_at(mc, i);
    ck_assert_ptr_nonnull(c);
    return c;
}

#define CANON "{\"title\":\"Pay rent\",\"date\":\"2026-12-02\",\"time\":\"08:30\",\"priority\":\"normal\",\"minutes_before\":0}"

/* The renderer convention (toolgov.h): size 0 asks for the size, returns 0
** and writes nothing. */
START_TEST(test_render_sizing_call)
{
    char buf[8] = "#######", full[4096];
    size_t needed = 1, n = 0;

    ck_assert_int_eq(toolgov_tools_render(full, sizeof full, &n, pol, TOOLGOV_TOOLS_MCP, loop, 4), 0);
    ck_assert_int_eq(toolgov_tools_render(NULL, 0, &needed, pol, TOOLGOV_TOOLS_MCP, loop, 4), 0);
    ck_assert_uint_eq(needed, n);
    needed = 1;
    ck_assert_int_eq(toolgov_tools_render(buf, 0, &needed, pol, TOOLGOV_TOOLS_MCP, loop, 4), 0);
    ck_assert_uint_eq(needed, n);
    ck_assert_str_eq(buf, "#######");
}
END_TEST

START_TEST(test_parse_openai)
{
    static const char resp[] =
        "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
        "\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
        "{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"create_reminder\","
        "\"arguments\":\"{\\\"date\\\": \\\"2026-12-02\\\", \\\"title\\\": \\\"Pay rent\\\", \\\"time\\\": \\\"08:30\\\"}\"}},"
        "{\"id\":\"call_2\",\"type\":\"function\",\"function\":{\"name\":\"create_reminder\","
        "\"arguments\":\"{\\\"title\\\":\\\"Pay rent\\\",\\\"date\\\":\\\"2026-12-02\\\",\\\"time\\\":\\\"08:30\\\",\\\"minutes_before\\\":0.0}\"}},"
        "{\"id\":\"call_3\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"}}"
        "]},\"finish_reason\":\"tool_calls\"}]}";
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_OPENAI, resp), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 3);
    ck_assert_str_eq(at(0)->id, "call_1");
    ck_assert_str_eq(at(0)->tool, "create_reminder");
    ck_assert_int_eq(at(0)->status, 0);
    ck_assert_str_eq(at(0)->error, "");
    /* Two spellings of one call: one canonical text. */
    ck_assert_str_eq(at(0)->call.args, CANON);
    ck_assert_str_eq(at(1)->call.args, CANON);
    ck_assert_uint_eq(at(0)->args_len, strlen(CANON));
    ck_assert_str_eq(at(0)->call.tool, "create_reminder");
    ck_assert_str_eq(at(2)->call.args, "{}");
    ck_assert_str_eq(toolgov_model_calls_error(mc), "");
}
END_TEST

START_TEST(test_parse_openai_forms)
{
    /* A message, and the bare array. */
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_OPENAI, "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"a\","
                                                 "\"type\":\"function\",\"function\":{\"name\":\"tidy\","
                                                 "\"arguments\":\"{}\"}}]}"), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 1);
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_OPENAI, "[{\"function\":{\"name\":\"tidy\",\"arguments\":\"\"}}]"), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 1);
    ck_assert_int_eq(at(0)->status, 0);
    ck_assert_str_eq(at(0)->id, "");
    /* A text answer: no calls. */
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_OPENAI, "{\"choices\":[{\"message\":{\"role\":\"assistant\","
                                                 "\"content\":\"Done.\"}}]}"), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 0);
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_OPENAI, "{\"choices\":[{\"message\":{\"tool_calls\":null}}]}"), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 0);
}
END_TEST

/* Every bad call is one refused entry, in place; none is dropped. */
START_TEST(test_parse_openai_bad_calls)
{
    static const char resp[] =
        "[{\"id\":\"1\",\"type\":\"function\",\"function\":{\"name\":\"create_reminder\",\"arguments\":\"{bad\"}},"
        "{\"id\":\"2\",\"type\":\"function\",\"function\":{\"name\":\"create_reminder\",\"arguments\":{\"title\":\"x\"}}},"
        "{\"id\":\"3\",\"type\":\"function\",\"function\":{\"name\":\"create_reminder\",\"arguments\":\"[1]\"}},"
        "{\"id\":\"4\",\"type\":\"function\",\"function\":{\"name\":\"delete_everything\",\"arguments\":\"{}\"}},"
        "{\"id\":\"5\",\"type\":\"function\",\"function\":{\"arguments\":\"{}\"}},"
        "{\"id\":\"6\",\"type\":\"code\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"}},"
        "\"lookup\","
        "{\"id\":\"8\",\"type\":\"function\"},"
        "{\"id\":\"9\",\"type\":\"function\",\"function\":{\"name\":\"create_reminder\","
        "\"arguments\":\"{\\\"title\\\":\\\"\\\",\\\"date\\\":\\\"12/03/2026\\\"}\"}},"
        "{\"id\":\"10\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{}\"}}]";
    static const int want[] = {TOOLGOV_EARGS, TOOLGOV_EINVAL, TOOLGOV_EARGS, TOOLGOV_ENOENT,
                               TOOLGOV_EINVAL, TOOLGOV_EINVAL, TOOLGOV_EINVAL, TOOLGOV_EINVAL,
                               TOOLGOV_EARGS, 0};
    size_t i;
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_OPENAI, resp), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 10);
    for (i = 0; i < 10; i++) {
        const toolgov_model_call *c = at(i);
        ck_assert_msg(c->status == want[i], "call %zu: status %d, want %d (%s)", i, c->status,
                      want[i], c->error);
        ck_assert_msg((c->status == 0) == (c->error[0] == '\0'), "call %zu: error '%s'", i, c->error);
        if (c->status) {
            ck_assert_str_eq(c->call.tool, "");
            ck_assert_str_eq(c->call.args, "");
        }
    }
    ck_assert_str_eq(at(3)->tool, "delete_everything");
    ck_assert_ptr_nonnull(strstr(at(3)->error, "there is no tool 'delete_everything'"));
    ck_assert_ptr_nonnull(strstr(at(1)->error, "\"arguments\" must be a JSON string"));
    ck_assert_ptr_nonnull(strstr(at(8)->error, "create_reminder: "));
    ck_assert_ptr_nonnull(strstr(at(8)->error, "/date must be a date (YYYY-MM-DD)"));
    ck_assert_ptr_nonnull(strstr(at(8)->error, "/time is required"));
    ck_assert_str_eq(at(9)->id, "10");
    /* A name the model wrote with a terminal escape, a bidi control and a
    ** NUL: the message shows them escaped, as a call shown to a person is. */
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_OPENAI,
                           "[{\"id\":\"1\",\"type\":\"function\",\"function\":{\"name\":"
                           "\"x\\u001b[2J\\u202e\\u0000y\",\"arguments\":\"{}\"}}]"),
                     0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 1);
    ck_assert_int_eq(at(0)->status, TOOLGOV_ENOENT);
    ck_assert_msg(strstr(at(0)->error, "there is no tool 'x\\x1b[2J\\u202e\\x00y'") != NULL,
                  "%s", at(0)->error);
}
END_TEST

START_TEST(test_parse_anthropic)
{
    static const char resp[] =
        "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":["
        "{\"type\":\"text\",\"text\":\"I'll add both.\"},"
        "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"create_reminder\","
        "\"input\":{\"time\":\"08:30\",\"title\":\"Pay rent\",\"date\":\"2026-12-02\"}},"
        "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"create_reminder\",\"input\":\"{}\"},"
        "{\"type\":\"tool_use\",\"id\":\"toolu_3\",\"name\":\"nope\",\"input\":{}},"
        "{\"type\":\"tool_use\",\"id\":\"toolu_4\",\"input\":{}},"
        "{\"type\":\"tool_use\",\"id\":\"toolu_5\",\"name\":\"purge\",\"input\":{\"all\":true}}"
        "],\"stop_reason\":\"tool_use\"}";
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_ANTHROPIC, resp), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 5);
    ck_assert_str_eq(at(0)->id, "toolu_1");
    ck_assert_int_eq(at(0)->status, 0);
    ck_assert_str_eq(at(0)->call.args, CANON);
    ck_assert_int_eq(at(1)->status, TOOLGOV_EINVAL);
    ck_assert_ptr_nonnull(strstr(at(1)->error, "\"input\" must be an object"));
    ck_assert_int_eq(at(2)->status, TOOLGOV_ENOENT);
    ck_assert_int_eq(at(3)->status, TOOLGOV_EINVAL);
    /* A tool without parameters takes none. */
    ck_assert_int_eq(at(4)->status, TOOLGOV_EARGS);
    /* The content array alone works too. */
    ck_assert_int_eq(parse(TOOLGOV_TOOLS_ANTHROPIC, "[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":"
                                                    "\"lookup\",\"input\":{}}]"), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 1);
    ck_assert_str_eq(at(0)->call.args, "{}");
}
END_TEST

START_TEST(test_parse_whole_answer_refused)
{
    static const struct {
        toolgov_tools_format fmt;
        const char *text, *words;
    } cases[] = {
        {TOOLGOV_TOOLS_OPENAI, "I will call lookup now", "not JSON"},
        {TOOLGOV_TOOLS_OPENAI, "{\"choices\":[]}", "no message in choices[0]"},
        {TOOLGOV_TOOLS_OPENAI, "42", "not an OpenAI chat completion"},
        {TOOLGOV_TOOLS_ANTHROPIC, "{\"role\":\"assistant\"}", "not an Anthropic message"},
        {TOOLGOV_TOOLS_ANTHROPIC, "{\"content\":[1,}", "not JSON"},
        {TOOLGOV_TOOLS_ANTHROPIC, "{\"a\":1,\"a\":2}", "duplicate key"},
        {TOOLGOV_TOOLS_MCP, "[]", "invalid argument"},
        /* Issue 29 item 8: an error body, {} and a Responses API body are
        ** not "no calls" (each returned 0 with no entries before). The
        ** error body's shape: platform.openai.com/docs/guides/error-codes. */
        {TOOLGOV_TOOLS_OPENAI,
         "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":"
         "\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}",
         "OpenAI API error: Incorrect API key provided"},
        {TOOLGOV_TOOLS_OPENAI, "{\"error\":\"model 'x' not found\"}", "model 'x' not found"},
        {TOOLGOV_TOOLS_OPENAI, "{}", "not an OpenAI chat completion"},
        {TOOLGOV_TOOLS_OPENAI,
         "{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"output\":"
         "[{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"tidy\","
         "\"arguments\":\"{}\"}]}",
         "Responses API"},
        {TOOLGOV_TOOLS_ANTHROPIC,
         "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":"
         "\"Overloaded\"}}",
         "not an Anthropic message"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_int_eq(toolgov_model_calls_parse(mc, cases[i].fmt, cases[i].text,
                                                   strlen(cases[i].text), NULL, 0),
                         TOOLGOV_EINVAL);
        ck_assert_uint_eq(toolgov_model_calls_count(mc), 0);
        ck_assert_msg(strstr(toolgov_model_calls_error(mc), cases[i].words) != NULL,
                      "case %zu: %s", i, toolgov_model_calls_error(mc));
    }
}
END_TEST

START_TEST(test_parse_offered_and_gate)
{
    static const char *const offered[] = {"create_reminder", "lookup"};
    static const char resp[] =
        "[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"create_reminder\",\"input\":"
        "{\"title\":\"A\",\"date\":\"2026-12-02\",\"time\":\"08:30\"}},"
        "{\"type\":\"tool_use\",\"id\":\"b\",\"name\":\"purge\",\"input\":{}},"
        "{\"type\":\"tool_use\",\"id\":\"c\",\"name\":\"lookup\",\"input\":{}}]";
    toolgov_proposed_call calls[3];
    toolgov_gate per[3], all;
    toolgov_run *run;
    size_t i, n = 0;
    ck_assert_int_eq(toolgov_model_calls_parse(mc, TOOLGOV_TOOLS_ANTHROPIC, resp, strlen(resp),
                                               offered, 2), 0);
    ck_assert_uint_eq(toolgov_model_calls_count(mc), 3);
    ck_assert_int_eq(at(1)->status, TOOLGOV_ENOENT); /* pooled, but not offered */
    for (i = 0; i < 3; i++)
        if (at(i)->status == 0)
            calls[n++] = at(i)->call;
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(toolgov_run_new(&run, pol, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate_batch(&all, per, NULL, NULL, run, calls, n), 0);
    ck_assert_int_eq(all, TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(per[0], TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(per[1], TOOLGOV_GATE_ALLOW);
    toolgov_run_free(run);
}
END_TEST

/* ---- allocation failure ------------------------------------------------------ */

typedef struct counting {
    long fail_at; /* the allocation (1-based) that fails; 0: none */
    long count;
    long live;
} counting;

static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    counting *c = ud;
    (void)osize;
    if (nsize == 0) {
        if (ptr)
            c->live--;
        free(ptr);
        return NULL;
    }
    if (++c->count == c->fail_at)
        return NULL;
    if (!ptr)
        c->live++;
    return realloc(ptr, nsize);
}

START_TEST(test_parse_allocation_failure)
{
    static const char resp[] =
        "{\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"create_reminder\",\"input\":"
        "{\"title\":\"A\",\"date\":\"2026-12-02\",\"time\":\"08:30\",\"tags\":[\"x\",\"y\"]}},"
        "{\"type\":\"tool_use\",\"id\":\"b\",\"name\":\"nope\",\"input\":{}}]}";
    counting c = {0, 0, 0};
    toolgov_allocator a = {count_alloc, &c};
    long n;
    int done = 0;
    for (n = 1; !done && n < 10000; n++) {
        toolgov_model_calls *m = NULL;
        int rc;
        c.fail_at = 0;
        c.count = 0;
        setup_with(&a);
        /* Fail the n-th allocation after the registry and policy exist. */
        c.fail_at = c.count + n;
        rc = toolgov_model_calls_new(&m, reg);
        if (rc == 0) {
            rc = toolgov_model_calls_parse(m, TOOLGOV_TOOLS_ANTHROPIC, resp, strlen(resp), NULL, 0);
            if (rc == 0) {
                ck_assert_uint_eq(toolgov_model_calls_count(m), 2);
                ck_assert_str_eq(toolgov_model_calls_at(m, 0)->call.args,
                                 "{\"title\":\"A\",\"date\":\"2026-12-02\",\"time\":\"08:30\","
                                 "\"priority\":\"normal\",\"minutes_before\":0,\"tags\":[\"x\",\"y\"]}");
                done = c.count < c.fail_at; /* nothing failed: every point was tried */
            } else {
                ck_assert_int_eq(rc, TOOLGOV_ENOMEM);
                ck_assert_uint_eq(toolgov_model_calls_count(m), 0);
            }
        } else {
            ck_assert_int_eq(rc, TOOLGOV_ENOMEM);
        }
        toolgov_model_calls_free(m);
        c.fail_at = 0;
        teardown();
        ck_assert_int_eq(c.live, 0);
    }
    ck_assert_msg(done, "the parse never succeeded");
}
END_TEST

static Suite *toolcalls_suite(void)
{
    Suite *s = suite_create("toolcalls");
    TCase *r = tcase_create("render"), *p = tcase_create("parse"), *f = tcase_create("alloc");
    tcase_add_checked_fixture(r, setup, teardown);
    tcase_add_test(r, test_render_openai);
    tcase_add_test(r, test_render_only_offered);
    tcase_add_test(r, test_render_anthropic_mcp_schema);
    tcase_add_test(r, test_render_override_marks);
    tcase_add_test(r, test_render_contract);
    tcase_add_test(r, test_render_sizing_call);
    tcase_add_checked_fixture(p, psetup, pteardown);
    tcase_add_test(p, test_parse_openai);
    tcase_add_test(p, test_parse_openai_forms);
    tcase_add_test(p, test_parse_openai_bad_calls);
    tcase_add_test(p, test_parse_anthropic);
    tcase_add_test(p, test_parse_whole_answer_refused);
    tcase_add_test(p, test_parse_offered_and_gate);
    tcase_add_test(f, test_parse_allocation_failure);
    suite_add_tcase(s, r);
    suite_add_tcase(s, p);
    suite_add_tcase(s, f);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(toolcalls_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
