/* SPDX-License-Identifier: MIT */
/*
** test_demo.c: toolgov-demo's scenarios, asserted on their --json
** transcripts (asks, executions, model calls, how each run ended, the data
** afterwards), the text transcript, the command line, --interactive driven
** through a pipe, and the host driven in-process with other models and
** answerers.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <toolgov/loop.h>
#include <toolgov/prompt.h>

#include "chat.h"
#include "demo.h"
#include "json_dom.h"

#ifndef TOOLGOV_DEMO_EXE
#error "TOOLGOV_DEMO_EXE must name the toolgov-demo executable"
#endif

/* Run a shell command line, return its stdout (owned), its exit status in
** *status. */
static char *run(const char *cmdline, int *status)
{
    FILE *p = popen(cmdline, "r");
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int st;
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(buf);
    for (;;) {
        size_t got;
        if (cap - n < 2048) {
            buf = realloc(buf, cap *= 2);
            ck_assert_ptr_nonnull(buf);
        }
        got = fread(buf + n, 1, cap - n - 1, p);
        if (got == 0)
            break;
        n += got;
    }
    buf[n] = '\0';
    st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}

static char *demo(const char *args, int *status)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s", TOOLGOV_DEMO_EXE, args);
    return run(cmd, status);
}

/* The scenario object on line `index` of a --json output. */
static jdom *nth_scenario(const char *out, size_t index)
{
    const char *line = out;
    size_t i;
    jdom *j;
    for (i = 0; i < index; i++) {
        line = strchr(line, '\n');
        ck_assert_ptr_nonnull(line);
        line++;
    }
    j = jdom_parse(line, strcspn(line, "\n"));
    ck_assert_msg(j != NULL, "line %lu is not JSON: %.200s", (unsigned long)index, line);
    return j;
}

static size_t count_lines(const char *out)
{
    size_t n = 0;
    for (; *out; out++)
        n += *out == '\n';
    return n;
}

/* Play a scenario with --json and return its one object. */
static jdom *play(const char *args)
{
    int status;
    char *out = demo(args, &status);
    jdom *j;
    ck_assert_msg(status == 0, "toolgov-demo %s exited %d", args, status);
    ck_assert_uint_eq(count_lines(out), 1);
    j = nth_scenario(out, 0);
    free(out);
    ck_assert_int_eq(jdom_bool(jdom_get(j, "complete")), 1);
    return j;
}

static long num(const jdom *j, const char *path)
{
    const jdom *v = jdom_path(j, path);
    ck_assert_msg(v != NULL && v->type == JDOM_NUMBER, "no number at %s", path);
    return jdom_long(v, -1);
}

static const char *str(const jdom *j, const char *path)
{
    const char *s = jdom_str(jdom_path(j, path));
    ck_assert_msg(s != NULL, "no string at %s", path);
    return s;
}

/* The events of one type (and, when tool is not NULL, of that tool). */
static size_t events(const jdom *j, const char *type, const char *tool, const jdom **out,
                     size_t max)
{
    const jdom *evs = jdom_get(j, "events");
    size_t i, n = 0;
    for (i = 0; i < jdom_len(evs); i++) {
        const jdom *e = jdom_at(evs, i);
        if (strcmp(jdom_str(jdom_get(e, "type")), type))
            continue;
        if (tool && (!jdom_str(jdom_get(e, "tool")) || strcmp(jdom_str(jdom_get(e, "tool")), tool)))
            continue;
        if (out && n < max)
            out[n] = e;
        n++;
    }
    return n;
}

/* The index of the first event of one type (and tool) in the transcript;
** the count of events when there is none. */
static size_t event_index(const jdom *j, const char *type, const char *tool)
{
    const jdom *evs = jdom_get(j, "events");
    size_t i;
    for (i = 0; i < jdom_len(evs); i++) {
        const jdom *e = jdom_at(evs, i);
        const char *t = jdom_str(jdom_get(e, "tool"));
        if (!strcmp(jdom_str(jdom_get(e, "type")), type) && (!tool || (t && !strcmp(t, tool))))
            return i;
    }
    return i;
}

/* The due dates upcoming_dues listed, read from its output in the
** transcript: the reminders must follow what the tool said. */
static size_t due_dates(const jdom *j, char dates[][11], size_t max)
{
    const jdom *call;
    const char *line;
    size_t n = 0;
    ck_assert_uint_eq(events(j, "call", "upcoming_dues", &call, 1), 1);
    line = str(call, "output");
    while (line && *line) {
        if (line[0] == '-' && line[1] == ' ' && n < max) {
            memcpy(dates[n], line + 2, 10);
            dates[n][10] = '\0';
            n++;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return n;
}

START_TEST(dues_yes_asks_once_and_creates_each)
{
    jdom *j = play("--json dues");
    const jdom *asks[4], *calls[8], *mem;
    char dates[8][11];
    size_t ndues = due_dates(j, dates, 8), i;

    ck_assert_uint_eq(ndues, 4);
    ck_assert_str_eq(str(j, "scenario"), "dues");
    ck_assert_int_eq(num(j, "model_calls"), 3);
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_int_eq(num(j, "executions"), 2 + (long)ndues);
    ck_assert_str_eq(str(j, "end"), "model_answered");

    /* one question, the run's confirmation, listing every reminder */
    ck_assert_uint_eq(events(j, "ask", NULL, asks, 4), 1);
    ck_assert_str_eq(str(asks[0], "kind"), "confirm");
    ck_assert_str_eq(str(asks[0], "answer"), "yes");
    ck_assert_uint_eq(jdom_len(jdom_get(asks[0], "items")), ndues);
    for (i = 0; i < ndues; i++) {
        const jdom *item = jdom_at(jdom_get(asks[0], "items"), i);
        ck_assert_str_eq(str(item, "tool"), "create_reminder");
        ck_assert_ptr_nonnull(strstr(str(item, "args"), dates[i]));
        ck_assert_ptr_nonnull(strstr(str(asks[0], "question"), str(item, "args")));
    }

    /* one batch of writes, asked about before any of them ran: the
    ** question comes before the first reminder's call in the transcript */
    ck_assert_uint_lt(event_index(j, "ask", NULL), event_index(j, "call", "create_reminder"));

    /* after the yes, every reminder ran through the gate as ALLOW */
    ck_assert_uint_eq(events(j, "call", "create_reminder", calls, 8), ndues);
    for (i = 0; i < ndues; i++) {
        ck_assert_str_eq(str(calls[i], "gate"), "ALLOW");
        ck_assert_int_eq(jdom_bool(jdom_get(calls[i], "executed")), 1);
        ck_assert_int_eq(num(calls[i], "status"), 0);
        ck_assert_int_eq(num(calls[i], "step"), 2);
    }

    /* the data: one reminder per due, at the time memory_search gave */
    ck_assert_uint_eq(events(j, "call", "memory_search", &mem, 1), 1);
    ck_assert_ptr_nonnull(strstr(str(mem, "output"), "08:30"));
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), ndues);
    for (i = 0; i < ndues; i++) {
        const jdom *r = jdom_at(jdom_path(j, "state.reminders"), i);
        ck_assert_str_eq(str(r, "date"), dates[i]);
        ck_assert_str_eq(str(r, "time"), "08:30");
    }
    jdom_free(j);
}
END_TEST

static void assert_dues_declined(jdom *j)
{
    const jdom *asks[4], *calls[8];
    size_t i, n;
    ck_assert_int_eq(num(j, "model_calls"), 3);
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_int_eq(num(j, "executions"), 2);
    ck_assert_str_eq(str(j, "end"), "model_answered");
    ck_assert_uint_eq(events(j, "ask", NULL, asks, 4), 1);
    ck_assert_str_eq(str(asks[0], "answer"), "no");
    n = events(j, "call", "create_reminder", calls, 8);
    ck_assert_uint_eq(n, 4);
    for (i = 0; i < n; i++) {
        ck_assert_str_eq(str(calls[i], "gate"), "REFUSE");
        ck_assert_int_eq(jdom_bool(jdom_get(calls[i], "executed")), 0);
    }
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 0);
}

START_TEST(dues_no_creates_nothing)
{
    jdom *j = play("--json --answer no dues");
    assert_dues_declined(j);
    jdom_free(j);
    j = play("--json dues-declined");
    assert_dues_declined(j);
    jdom_free(j);
    /* and --answer yes turns the declined script around */
    j = play("--json --answer=yes dues-declined");
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 4);
    jdom_free(j);
}
END_TEST

START_TEST(digest_ends_on_its_output)
{
    jdom *j = play("--json digest");
    const jdom *calls[4], *ends[2];
    ck_assert_int_eq(num(j, "model_calls"), 1);
    ck_assert_int_eq(num(j, "executions"), 1);
    ck_assert_int_eq(num(j, "asks"), 0);
    ck_assert_str_eq(str(j, "end"), "answered_directly");
    ck_assert_uint_eq(events(j, "call", NULL, calls, 4), 1);
    ck_assert_str_eq(str(calls[0], "tool"), "inbox_digest");
    ck_assert_uint_eq(events(j, "end", NULL, ends, 2), 1);
    ck_assert_str_eq(str(ends[0], "answer"), str(calls[0], "output"));
    ck_assert_ptr_nonnull(strstr(str(ends[0], "answer"), "You have 25 emails"));
    jdom_free(j);
}
END_TEST

/* The model copies the user's date as written: the runtime refuses it
** before the handler runs, naming the member and its form; the model sends
** it again as YYYY-MM-DD and answers from the output. */
START_TEST(bad_args_refused_with_path_then_sent_right)
{
    jdom *j = play("--json bad-args");
    const jdom *calls[4], *ends[2];
    ck_assert_int_eq(num(j, "model_calls"), 3);
    ck_assert_int_eq(num(j, "executions"), 1);
    ck_assert_int_eq(num(j, "asks"), 0);
    ck_assert_uint_eq(events(j, "call", "calendar_lookup", calls, 4), 2);
    ck_assert_int_eq(jdom_bool(jdom_get(calls[0], "executed")), 0);
    ck_assert_int_eq(num(calls[0], "status"), TOOLGOV_EARGS);
    /* the output is what the model was sent: the loop's text for a call
    ** its parameters refuse, with the decoder's message */
    ck_assert_str_eq(str(calls[0], "output"),
                     "not run: the arguments do not match the tool's parameters; send the call "
                     "again with arguments that do (calendar_lookup: /date must be a date "
                     "(YYYY-MM-DD), got \"12/03/2026\")");
    ck_assert_str_eq(str(calls[0], "args"), "{\"date\":\"12/03/2026\"}");
    ck_assert_str_eq(str(calls[1], "args"), "{\"date\":\"2026-12-03\"}");
    ck_assert_int_eq(jdom_bool(jdom_get(calls[1], "executed")), 1);
    ck_assert_int_eq(num(calls[1], "status"), 0);
    ck_assert_str_eq(str(calls[1], "output"),
                     "- Thursday 2026-12-03 18:00-19:00 Yoga class (Studio Nord)\n");
    ck_assert_uint_eq(events(j, "end", NULL, ends, 2), 1);
    ck_assert_ptr_nonnull(strstr(str(ends[0], "answer"), "Yoga class"));
    ck_assert_str_eq(str(j, "end"), "model_answered");
    jdom_free(j);
}
END_TEST

START_TEST(bad_args_text_says_why)
{
    int status;
    char *out = demo("bad-args", &status);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_nonnull(strstr(out, "  calendar_lookup {\"date\":\"12/03/2026\"} -> REFUSE, not "
                                      "executed: the call's arguments do not match the tool's "
                                      "parameters\n    | not run: the arguments do not match the "
                                      "tool's parameters; send the call again with arguments "
                                      "that do (calendar_lookup: /date must be a date "
                                      "(YYYY-MM-DD), got \"12/03/2026\")\n"));
    ck_assert_ptr_nonnull(strstr(out, "-> ALLOW, executed, ok\n"));
    free(out);
}
END_TEST

START_TEST(promos_trash_without_asking_and_replay)
{
    jdom *j = play("--json promos");
    const jdom *calls[4];
    ck_assert_int_eq(num(j, "asks"), 0);
    ck_assert_uint_eq(events(j, "call", "trash_category", calls, 4), 2);
    ck_assert_str_eq(str(calls[0], "gate"), "ALLOW");
    ck_assert_int_eq(jdom_bool(jdom_get(calls[0], "executed")), 1);
    ck_assert_str_eq(str(calls[1], "gate"), "REPLAY");
    ck_assert_int_eq(jdom_bool(jdom_get(calls[1], "executed")), 0);
    ck_assert_int_eq(num(calls[1], "status"), 0);
    ck_assert_str_eq(str(calls[1], "output"), str(calls[0], "output"));
    ck_assert_ptr_nonnull(strstr(str(calls[0], "output"), "Moved 10 promotions emails"));
    /* the repeat moved nothing: one handler run, ten mails */
    ck_assert_int_eq(num(j, "state.email.trash_calls"), 1);
    ck_assert_int_eq(num(j, "state.email.trash"), 10);
    ck_assert_int_eq(num(j, "state.email.trashed_total"), 10);
    ck_assert_int_eq(num(j, "state.email.promotions_in_inbox"), 3);
    ck_assert_int_eq(num(j, "executions"), 2); /* list_by_category, trash_category */
    ck_assert_str_eq(str(j, "end"), "model_answered");
    jdom_free(j);
}
END_TEST

/* The email assistant's own loop: tidy_inbox asks once (a write); after a
** yes each move is a trash_email call through a child run, which shares
** that yes; after a no nothing runs at all. */
START_TEST(tidy_runs_the_own_loop_under_the_yes)
{
    jdom *j = play("--json tidy");
    const jdom *calls[2];
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_uint_eq(events(j, "call", "tidy_inbox", calls, 2), 1);
    ck_assert_str_eq(str(calls[0], "gate"), "ALLOW");
    ck_assert_str_eq(str(calls[0], "output"),
                     "The email assistant tidied updates: moved 2 emails to the Trash, kept 1 "
                     "with an attachment.");
    ck_assert_int_eq(num(j, "state.email.trash"), 2);
    ck_assert_int_eq(num(j, "state.email.trashed_total"), 2);
    ck_assert_int_eq(num(j, "state.email.trash_calls"), 0); /* not trash_category */
    jdom_free(j);

    j = play("--json --answer no tidy");
    ck_assert_int_eq(num(j, "state.email.trash"), 0);
    ck_assert_int_eq(num(j, "executions"), 0);
    jdom_free(j);
}
END_TEST

/* Under confirmation scope "listed" the yes covered tidy_inbox's own call
** only: the first move the loop makes asks, so the loop stops and moves
** nothing. The gate, not the plugin, decided. */
START_TEST(tidy_own_loop_asks_under_scope_listed)
{
    char cmd[1024];
    int status;
    char *out;
    jdom *j;
    const jdom *calls[2];

    snprintf(cmd, sizeof cmd, "TOOLGOV_CONFIRM_SCOPE=listed '%s' --json tidy", TOOLGOV_DEMO_EXE);
    out = run(cmd, &status);
    ck_assert_int_eq(status, 0);
    j = nth_scenario(out, 0);
    free(out);
    ck_assert_uint_eq(events(j, "call", "tidy_inbox", calls, 2), 1);
    ck_assert_ptr_nonnull(strstr(str(calls[0], "output"),
                                 "moved 0 emails to the Trash, kept 0 with an attachment. It "
                                 "stopped at email #10: the gate said ASK_FIRST"));
    ck_assert_int_eq(num(j, "state.email.trash"), 0);
    ck_assert_int_eq(num(j, "state.email.inbox"), 25);
    jdom_free(j);
}
END_TEST

START_TEST(empty_trash_denied_keeps_the_trash)
{
    jdom *j = play("--json empty-trash");
    const jdom *asks[4], *calls[4];
    ck_assert_int_eq(num(j, "turns"), 2);
    ck_assert_str_eq(jdom_str(jdom_at(jdom_get(j, "ends"), 0)), "answered_directly");
    ck_assert_str_eq(jdom_str(jdom_at(jdom_get(j, "ends"), 1)), "model_answered");
    ck_assert_uint_eq(events(j, "ask", NULL, asks, 4), 1);
    ck_assert_str_eq(str(asks[0], "kind"), "approval");
    ck_assert_str_eq(str(asks[0], "answer"), "no");
    ck_assert_uint_eq(events(j, "call", "empty_trash", calls, 4), 1);
    ck_assert_str_eq(str(calls[0], "gate"), "NEEDS_APPROVAL");
    ck_assert_int_eq(jdom_bool(jdom_get(calls[0], "executed")), 0);
    ck_assert_int_eq(num(j, "state.email.trash"), 10);
    ck_assert_int_eq(num(j, "state.email.deleted"), 0);
    ck_assert_int_eq(num(j, "state.email.empty_calls"), 0);
    jdom_free(j);
}
END_TEST

START_TEST(empty_trash_approved_deletes)
{
    jdom *j = play("--json --answer yes empty-trash");
    const jdom *asks[4], *calls[4];
    ck_assert_uint_eq(events(j, "ask", NULL, asks, 4), 1);
    ck_assert_str_eq(str(asks[0], "answer"), "yes");
    ck_assert_uint_eq(events(j, "call", "empty_trash", calls, 4), 1);
    ck_assert_int_eq(jdom_bool(jdom_get(calls[0], "executed")), 1);
    ck_assert_str_eq(str(calls[0], "output"), "Permanently deleted 10 emails from the Trash.");
    ck_assert_int_eq(num(j, "state.email.trash"), 0);
    ck_assert_int_eq(num(j, "state.email.deleted"), 10);
    ck_assert_int_eq(num(j, "state.email.empty_calls"), 1);
    jdom_free(j);
}
END_TEST

static size_t occurrences(const char *hay, const char *needle)
{
    size_t n = 0;
    while ((hay = strstr(hay, needle)) != NULL) {
        n++;
        hay += strlen(needle);
    }
    return n;
}

START_TEST(prompt_marks_rule_guidance)
{
    jdom *j = play("--json prompt");
    const char *p = str(j, "prompt");
    ck_assert_uint_ge(jdom_len(jdom_get(j, "tools")), 18);
    ck_assert_ptr_nonnull(strstr(p, "\n- create_reminder [write, asks once]: "));
    ck_assert_ptr_nonnull(strstr(p, "\n- trash_category [write]: "));
    ck_assert_ptr_nonnull(strstr(p, "\n- configure_brief [write]: "));
    ck_assert_ptr_nonnull(strstr(p, "\n- empty_trash [destructive, needs approval]: "));
    ck_assert_ptr_nonnull(strstr(p, "\n- calendar_lookup: "));
    /* the loop's system text: its own rule (the loop asks), no schemas
    ** (the tools go natively in the request) */
    ck_assert_uint_eq(occurrences(p, toolgov_prompt_rule_text(TOOLGOV_PROMPT_RULE_LOOP_ASKS)), 1);
    ck_assert_uint_eq(occurrences(p, toolgov_prompt_confirm_rule), 0);
    ck_assert_ptr_null(strstr(p, "Arguments (JSON Schema)"));
    ck_assert_uint_eq(occurrences(p, "For a whole-day question"), 1);
    ck_assert_uint_eq(occurrences(p, "search the inbox with\nsearch_inbox") +
                          occurrences(p, "search the inbox with search_inbox"),
                      1);
    ck_assert_uint_eq(occurrences(p, "Anything current"), 1);
    ck_assert_int_eq(jdom_get(j, "state")->type, JDOM_NULL);
    jdom_free(j);
}
END_TEST

START_TEST(drift_panel_rows)
{
    static const char *const kinds[] = {"undeclared", "duplicate", "never_registered",
                                        "override_unknown"};
    static const char *const tools[] = {"faulty_echo_v2", "research", "faulty_stale",
                                        "create_remindr"};
    jdom *j = play("--json drift");
    const jdom *rows = jdom_path(j, "drift.rows");
    size_t i;
    ck_assert_uint_eq(jdom_len(rows), 4);
    for (i = 0; i < 4; i++) {
        const jdom *r = jdom_at(rows, i);
        ck_assert_str_eq(str(r, "kind"), kinds[i]);
        if (i < 3) {
            ck_assert_str_eq(str(r, "plugin"), "faulty");
            ck_assert_str_eq(str(r, "tool"), tools[i]);
        } else {
            ck_assert_ptr_nonnull(strstr(str(r, "message"), tools[i]));
        }
    }
    ck_assert_str_eq(str(jdom_at(rows, 1), "owner"), "research");
    ck_assert_int_eq(num(jdom_at(rows, 2), "line"), 14);
    ck_assert_ptr_nonnull(strstr(str(j, "drift_text"),
                                 "faulty: undeclared: tool faulty_echo_v2 is registered by "
                                 "plugin faulty but not declared in its manifest\n"));
    jdom_free(j);
}
END_TEST

START_TEST(all_scenarios_in_order)
{
    static const char *const forms[] = {"--json", "--json all"};
    int f;
    for (f = 0; f < 2; f++) {
        int status;
        char *out = demo(forms[f], &status);
        size_t i;
        ck_assert_int_eq(status, 0);
        ck_assert_uint_eq(count_lines(out), demo_scenario_count);
        for (i = 0; i < demo_scenario_count; i++) {
            jdom *j = nth_scenario(out, i);
            ck_assert_str_eq(str(j, "scenario"), demo_scenarios[i].name);
            ck_assert_int_eq(jdom_bool(jdom_get(j, "complete")), 1);
            jdom_free(j);
        }
        free(out);
    }
}
END_TEST

START_TEST(text_transcript_shows_gates)
{
    int status;
    char *out = demo("dues", &status);
    ck_assert_int_eq(status, 0);
    ck_assert_uint_eq(occurrences(out, "ask the user (confirm):"), 1);
    ck_assert_uint_eq(occurrences(out, "user answers: yes"), 1);
    ck_assert_ptr_nonnull(strstr(out, "? Make these 4 changes?\n"));
    ck_assert_uint_eq(occurrences(out, "-> ALLOW, executed, ok"), 6);
    ck_assert_ptr_nonnull(strstr(out, "summary: 3 model calls, 1 question to the user, 6 executions\n"));
    ck_assert_ptr_nonnull(strstr(out, "  reminders: 4\n"));
    free(out);
    out = demo("digest empty-trash", &status);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_nonnull(strstr(out, "end of turn 1: answered_directly\n"));
    ck_assert_ptr_nonnull(strstr(out, "-> NEEDS_APPROVAL, not executed\n"));
    free(out);
}
END_TEST

START_TEST(command_line_misuse)
{
    static const char *const bad[] = {"nosuch", "--answer maybe dues", "--answer",
                                      "--interactive --answer yes dues", "--frobnicate"};
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[128];
        int status;
        char *out;
        snprintf(args, sizeof args, "%s 2>&1", bad[i]);
        out = demo(args, &status);
        ck_assert_msg(status == 2, "'%s' exited %d", bad[i], status);
        ck_assert_ptr_nonnull(strstr(out, "toolgov-demo: error: "));
        free(out);
    }
    {
        int status;
        char *out = demo("--help", &status);
        ck_assert_int_eq(status, 0);
        ck_assert_ptr_nonnull(strstr(out, "empty-trash"));
        free(out);
    }
}
END_TEST

/* ---- --interactive through a pipe ---------------------------------------- */

static jdom *interactive(const char *input, const char *scenario)
{
    char cmd[1024];
    int status;
    char *out;
    jdom *j;
    snprintf(cmd, sizeof cmd, "printf '%s' | '%s' --interactive --json %s 2>/dev/null", input,
             TOOLGOV_DEMO_EXE, scenario);
    out = run(cmd, &status);
    ck_assert_int_eq(status, 0);
    j = nth_scenario(out, 0);
    free(out);
    return j;
}

START_TEST(interactive_yes_and_no)
{
    jdom *j = interactive("y\\n", "dues");
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 4);
    jdom_free(j);
    j = interactive("n\\n", "dues");
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 0);
    jdom_free(j);
    /* an unclear answer is asked again */
    j = interactive("maybe\\nyes\\n", "dues");
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 4);
    jdom_free(j);
    /* end of input is a no */
    j = interactive("", "dues");
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 0);
    jdom_free(j);
    /* the scripted default of a scenario does not apply */
    j = interactive("y\\n", "empty-trash");
    ck_assert_int_eq(num(j, "state.email.deleted"), 10);
    jdom_free(j);
}
END_TEST

START_TEST(interactive_question_on_stderr)
{
    char cmd[1024];
    int status;
    char *err;
    snprintf(cmd, sizeof cmd, "printf 'y\\n' | '%s' --interactive dues 2>&1 >/dev/null",
             TOOLGOV_DEMO_EXE);
    err = run(cmd, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_nonnull(strstr(err, "[confirm] Make these 4 changes?\n  1. create_reminder "));
    ck_assert_uint_eq(occurrences(err, "answer y/n: "), 1);
    free(err);
}
END_TEST

/* ---- the host in-process ------------------------------------------------- */

typedef struct counting {
    int answer;
    int confirm, approval, ask_user;
    char last[2048];
} counting;

static int count_answers(void *ud, const char *kind, const char *question)
{
    counting *c = ud;
    if (!strcmp(kind, "confirm"))
        c->confirm++;
    else if (!strcmp(kind, "approval"))
        c->approval++;
    else
        c->ask_user++;
    snprintf(c->last, sizeof c->last, "%s", question);
    return c->answer;
}

static const demo_scenario *scenario(const char *name)
{
    size_t i;
    for (i = 0; i < demo_scenario_count; i++)
        if (!strcmp(demo_scenarios[i].name, name))
            return &demo_scenarios[i];
    ck_abort_msg("no scenario %s", name);
    return NULL;
}

START_TEST(host_asks_the_answerer_once)
{
    counting c = {1, 0, 0, 0, {0}};
    demo_answerer a = {count_answers, &c};
    demo_transcript tr;
    memset(&tr, 0, sizeof tr);
    ck_assert_int_eq(demo_play(&tr, scenario("dues"), &demo_scripted_model, &a), 0);
    ck_assert_int_eq(c.confirm, 1);
    ck_assert_int_eq(c.approval + c.ask_user, 0);
    ck_assert_ptr_nonnull(strstr(c.last, "\"date\":\"2026-12-12\""));
    ck_assert_uint_eq(tr.state.calendar.reminder_count, 4);
    demo_transcript_free(&tr);
}
END_TEST

/* A model that makes its writes one per step, in separate batches: after
** the one yes, the later batches must not ask again. */
static int one_at_a_time(void *ud, const demo_turn *t, demo_proposal *out)
{
    static const char *const days[] = {"2026-12-03", "2026-12-05", "2026-12-07"};
    (void)ud;
    if (t->step <= 3) {
        out->call_count = 1;
        strcpy(out->calls[0].tool, "create_reminder");
        snprintf(out->calls[0].args, sizeof out->calls[0].args,
                 "{\"title\":\"r\",\"date\":\"%s\",\"time\":\"09:00\"}", days[t->step - 1]);
        return 0;
    }
    strcpy(out->answer, "done");
    return 0;
}

START_TEST(host_later_batches_do_not_ask)
{
    static const demo_model m = {"one-at-a-time", one_at_a_time, NULL};
    counting c = {1, 0, 0, 0, {0}};
    demo_answerer a = {count_answers, &c};
    demo_transcript tr;
    size_t i, allowed = 0;
    memset(&tr, 0, sizeof tr);
    ck_assert_int_eq(demo_play(&tr, scenario("dues"), &m, &a), 0);
    ck_assert_int_eq(c.confirm, 1);
    ck_assert_uint_eq(tr.state.calendar.reminder_count, 3);
    /* the first asked, the yes covers the run: every one ran */
    for (i = 0; i < tr.count; i++)
        if (tr.events[i].type == DEMO_EV_CALL && !strcmp(tr.events[i].gate, "ALLOW") &&
            tr.events[i].executed)
            allowed++;
    ck_assert_uint_eq(allowed, 3);
    ck_assert_uint_eq(tr.model_calls, 4);
    demo_transcript_free(&tr);
}
END_TEST

/* A model proposing a tool that is not in the pool: refused, never run. */
static int unknown_tool(void *ud, const demo_turn *t, demo_proposal *out)
{
    (void)ud;
    if (t->step == 1) {
        out->call_count = 1;
        strcpy(out->calls[0].tool, "send_money");
        strcpy(out->calls[0].args, "{\"amount\":100}");
        return 0;
    }
    ck_assert_uint_eq(t->obs_count, 1);
    ck_assert_str_eq(t->obs[0].gate, "REFUSE");
    ck_assert_int_eq(t->obs[0].executed, 0);
    strcpy(out->answer, "I cannot do that.");
    return 0;
}

START_TEST(host_refuses_unknown_tools)
{
    static const demo_model m = {"unknown", unknown_tool, NULL};
    counting c = {1, 0, 0, 0, {0}};
    demo_answerer a = {count_answers, &c};
    demo_transcript tr;
    memset(&tr, 0, sizeof tr);
    ck_assert_int_eq(demo_play(&tr, scenario("digest"), &m, &a), 0);
    ck_assert_uint_eq(tr.executions, 0);
    ck_assert_int_eq(c.confirm + c.approval + c.ask_user, 0);
    demo_transcript_free(&tr);
}
END_TEST

/* A model writing malformed arguments: the runtime refuses them before any
** handler runs (TOOLGOV_EARGS) with a message the model sees as an
** observation, naming each problem by its JSON path, and the run goes on.
** The model is handed each tool's schema (in the loop's request) to get
** them right. */
static int sloppy(void *ud, const demo_turn *t, demo_proposal *out)
{
    (void)ud;
    ck_assert_ptr_nonnull(t->request);
    ck_assert_uint_eq(strlen(t->request), t->request_len);
    ck_assert_ptr_nonnull(strstr(t->request, "{\"type\":\"function\",\"function\":"
                                             "{\"name\":\"search_inbox\""));
    ck_assert_ptr_nonnull(strstr(t->request, "\"limit\":{\"type\":\"integer\",\"minimum\":1,"
                                             "\"maximum\":20,\"default\":5"));
    if (t->step == 1) {
        out->call_count = 1;
        strcpy(out->calls[0].tool, "search_inbox");
        strcpy(out->calls[0].args, "{query: invoice}");
        return 0;
    }
    if (t->step == 2) {
        ck_assert_uint_eq(t->obs_count, 1);
        ck_assert_int_eq(t->obs[0].executed, 0);
        ck_assert_int_eq(t->obs[0].status, TOOLGOV_EARGS);
        ck_assert_ptr_nonnull(
            strstr(t->obs[0].output, "search_inbox: the arguments are not valid JSON"));
        out->call_count = 1;
        strcpy(out->calls[0].tool, "search_inbox");
        strcpy(out->calls[0].args, "{\"query\":\"\",\"limit\":99}");
        return 0;
    }
    ck_assert_uint_eq(t->obs_count, 2);
    ck_assert_int_eq(t->obs[1].executed, 0);
    ck_assert_int_eq(t->obs[1].status, TOOLGOV_EARGS);
    ck_assert_ptr_nonnull(strstr(t->obs[1].output,
                                 "search_inbox: /query must be at least 1 character long, "
                                 "got 0; /limit must be at most 20, got 99"));
    strcpy(out->answer, "sorry");
    return 0;
}

START_TEST(host_passes_usage_errors_back)
{
    static const demo_model m = {"sloppy", sloppy, NULL};
    counting c = {1, 0, 0, 0, {0}};
    demo_answerer a = {count_answers, &c};
    demo_transcript tr;
    size_t i, usage = 0;
    memset(&tr, 0, sizeof tr);
    ck_assert_int_eq(demo_play(&tr, scenario("digest"), &m, &a), 0);
    for (i = 0; i < tr.count; i++)
        if (tr.events[i].type == DEMO_EV_CALL && tr.events[i].status == TOOLGOV_EARGS &&
            strstr(tr.events[i].text, "search_inbox: "))
            usage++;
    ck_assert_uint_eq(usage, 2);
    ck_assert_uint_eq(tr.model_calls, 3);
    demo_transcript_free(&tr);
}
END_TEST

/* The scripted model takes every value from the observations: given other
** dues and another preferred time, it proposes other reminders. */
START_TEST(scripted_model_reads_observations)
{
    static const char *const tools[] = {"memory_search", "ask_user", "upcoming_dues",
                                        "create_reminder"};
    demo_observation obs[2] = {
        {"upcoming_dues", "{\"days\":14}", "ALLOW", 1, 0,
         "2 bills due from 2027-03-01 to 2027-03-14:\n"
         "- 2027-03-02 | Gym \"Iron\" | Iron Gym | 45.00 EUR\n"
         "- 2027-03-09 | Tax | Revenue Office | 310.00 EUR | autopay\n"},
        {"memory_search", "{}", "ALLOW", 1, 0, "- Prefers reminders at 07:15.\n"},
    };
    demo_turn t = {"Find my bills due soon and set a reminder for each.", tools, 4, NULL, 0, obs, 2, 2};
    demo_proposal p;
    memset(&p, 0, sizeof p);
    ck_assert_int_eq(demo_scripted_model.propose(NULL, &t, &p), 0);
    ck_assert_uint_eq(p.call_count, 2);
    ck_assert_str_eq(p.calls[0].tool, "create_reminder");
    ck_assert_str_eq(p.calls[0].args, "{\"title\":\"Pay Gym \\\"Iron\\\" (45.00 EUR)\","
                                      "\"date\":\"2027-03-02\",\"time\":\"07:15\","
                                      "\"note\":\"Iron Gym\"}");
    ck_assert_str_eq(p.calls[1].args, "{\"title\":\"Pay Tax (310.00 EUR)\",\"date\":\"2027-03-09\","
                                      "\"time\":\"07:15\",\"note\":\"Revenue Office\"}");
    /* without create_reminder on the loop it does not propose it */
    t.tool_count = 3;
    memset(&p, 0, sizeof p);
    ck_assert_int_eq(demo_scripted_model.propose(NULL, &t, &p), 0);
    ck_assert_uint_eq(p.call_count, 0);
    ck_assert_ptr_nonnull(strstr(p.answer, "I cannot create reminders here"));
    /* nothing due: no calls */
    obs[0].output = "No bills due from 2027-03-01 to 2027-03-14.";
    t.tool_count = 4;
    memset(&p, 0, sizeof p);
    ck_assert_int_eq(demo_scripted_model.propose(NULL, &t, &p), 0);
    ck_assert_uint_eq(p.call_count, 0);
    ck_assert_ptr_nonnull(strstr(p.answer, "Nothing is due"));
    /* a memory with no time in it: the default time, and no read past the
    ** end of the output (a heap copy, so ASan sees its exact size) */
    obs[0].output = "1 bill due from 2027-03-01 to 2027-03-14:\n"
                    "- 2027-03-02 | Gym | Iron Gym | 45.00 EUR\n";
    {
        char *mem = malloc(7);
        ck_assert_ptr_nonnull(mem);
        memcpy(mem, "- 08:3", 7);
        obs[1].output = mem;
        memset(&p, 0, sizeof p);
        ck_assert_int_eq(demo_scripted_model.propose(NULL, &t, &p), 0);
        ck_assert_uint_eq(p.call_count, 1);
        ck_assert_ptr_nonnull(strstr(p.calls[0].args, "\"time\":\"09:00\""));
        obs[1].output = "";
        memset(&p, 0, sizeof p);
        ck_assert_int_eq(demo_scripted_model.propose(NULL, &t, &p), 0);
        ck_assert_ptr_nonnull(strstr(p.calls[0].args, "\"time\":\"09:00\""));
        free(mem);
    }
}
END_TEST

/* A model may write any bytes. The --json transcript must still be UTF-8
** JSON: what is not well-formed UTF-8 comes out as U+FFFD. The loop
** refuses a response that is not UTF-8 (the turn ends bad_response), so
** the answer with bad bytes comes first when the model is asked to
** (ud non-NULL). */
static int bad_bytes(void *ud, const demo_turn *t, demo_proposal *out)
{
    if (t->step == 1 && !ud) {
        out->call_count = 1;
        strcpy(out->calls[0].tool, "search_inbox");
        strcpy(out->calls[0].args, "{\"query\":\"caf\xe9 \xff\xc3\"}");
        return 0;
    }
    strcpy(out->answer, "caf\xc3\xa9 \xed\xa0\x80 \xf0\x9f\x98\x80 \xe2\x82");
    return 0;
}

static int strict_utf8(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text, *end = s + len;

    while (s < end) {
        unsigned c = *s, n, cp, i;

        if (c < 0x80) {
            s++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            n = 1, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef)
            n = 2, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4)
            n = 3, cp = c & 0x07;
        else
            return 0;
        if ((size_t)(end - s) <= n)
            return 0;
        for (i = 1; i <= n; i++) {
            if ((s[i] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i] & 0x3fu);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        s += n + 1;
    }
    return 1;
}

START_TEST(json_transcript_is_utf8_whatever_the_model_writes)
{
    static int answer_first;
    static const demo_model m = {"bad-bytes", bad_bytes, NULL};
    static const demo_model m2 = {"bad-bytes", bad_bytes, &answer_first};
    counting c = {1, 0, 0, 0, {0}};
    demo_answerer a = {count_answers, &c};
    demo_transcript tr;
    char buf[65536];
    size_t n;
    FILE *f = tmpfile();
    jdom *j;
    ck_assert_ptr_nonnull(f);
    memset(&tr, 0, sizeof tr);
    ck_assert_int_eq(demo_play(&tr, scenario("digest"), &m, &a), 0);
    ck_assert_str_eq(tr.events[tr.count - 1].kind, "bad_response");
    demo_report_json(f, &tr);
    demo_transcript_free(&tr);
    memset(&tr, 0, sizeof tr);
    ck_assert_int_eq(demo_play(&tr, scenario("digest"), &m2, &a), 0);
    demo_report_json(f, &tr);
    demo_transcript_free(&tr);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    ck_assert_msg(strict_utf8(buf, n), "the JSON transcript is not UTF-8: %s", buf);
    j = jdom_parse(buf, strcspn(buf, "\n"));
    ck_assert_ptr_nonnull(j);
    jdom_free(j);
    j = jdom_parse(strchr(buf, '\n') + 1, strcspn(strchr(buf, '\n') + 1, "\n"));
    ck_assert_ptr_nonnull(j);
    ck_assert_ptr_nonnull(strstr(buf, "caf\\ufffd \\ufffd\\ufffd"));
    ck_assert_ptr_nonnull(
        strstr(buf, "caf\xc3\xa9 \\ufffd\\ufffd\\ufffd \xf0\x9f\x98\x80 \\ufffd\\ufffd"));
    jdom_free(j);
}
END_TEST

/* ---- the operator override from the environment ------------------------- */

/* Play a scenario with TOOLGOV_CONFIRM_ONCE_TOOLS set to `value`. */
static jdom *play_with_override(const char *value, const char *args)
{
    char cmd[1024];
    int status;
    char *out;
    jdom *j;
    snprintf(cmd, sizeof cmd, "TOOLGOV_CONFIRM_ONCE_TOOLS='%s' '%s' %s", value,
             TOOLGOV_DEMO_EXE, args);
    out = run(cmd, &status);
    ck_assert_msg(status == 0, "toolgov-demo %s exited %d", args, status);
    ck_assert_uint_eq(count_lines(out), 1);
    j = nth_scenario(out, 0);
    free(out);
    ck_assert_int_eq(jdom_bool(jdom_get(j, "complete")), 1);
    return j;
}

START_TEST(override_none_lets_the_reminders_through)
{
    jdom *j = play_with_override("none", "--json dues-declined");
    const jdom *calls[8];
    size_t i;
    ck_assert_str_eq(str(j, "override"), "none");
    ck_assert_int_eq(num(j, "asks"), 0);
    ck_assert_uint_eq(events(j, "ask", NULL, NULL, 0), 0);
    ck_assert_uint_eq(events(j, "call", "create_reminder", calls, 8), 4);
    for (i = 0; i < 4; i++) {
        ck_assert_str_eq(str(calls[i], "gate"), "ALLOW");
        ck_assert_int_eq(jdom_bool(jdom_get(calls[i], "executed")), 1);
    }
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 4);
    jdom_free(j);
}
END_TEST

START_TEST(override_adds_a_tool_that_then_asks)
{
    /* trash_category is confirm: never in its manifest; the operator makes
    ** it ask once, and the scripted user's no keeps the inbox as it is. */
    jdom *j = play_with_override(" , trash_category ,", "--json --answer no promos");
    const jdom *asks[4], *calls[4];
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_uint_eq(events(j, "ask", NULL, asks, 4), 1);
    ck_assert_str_eq(str(asks[0], "kind"), "confirm");
    ck_assert_uint_ge(events(j, "call", "trash_category", calls, 4), 1);
    ck_assert_str_eq(str(calls[0], "gate"), "REFUSE");
    ck_assert_int_eq(jdom_bool(jdom_get(calls[0], "executed")), 0);
    ck_assert_int_eq(num(j, "state.email.trash_calls"), 0);
    ck_assert_int_eq(num(j, "state.email.trash"), 0);
    jdom_free(j);
    /* and the prompt marks it */
    j = play_with_override("trash_category", "--json prompt");
    ck_assert_ptr_nonnull(strstr(str(j, "prompt"), "\n- trash_category [write, asks once]: "));
    jdom_free(j);
}
END_TEST

START_TEST(override_typo_is_a_drift_row)
{
    jdom *j = play_with_override("none,create_reminder,trash_categry", "--json drift");
    const jdom *rows = jdom_path(j, "drift.rows");
    const jdom *last;
    ck_assert_str_eq(str(j, "override"), "none,create_reminder,trash_categry");
    ck_assert_uint_eq(jdom_len(rows), 4);
    last = jdom_at(rows, 3);
    ck_assert_str_eq(str(last, "kind"), "override_unknown");
    ck_assert_str_eq(str(last, "tool"), "trash_categry");
    ck_assert_ptr_null(strstr(str(j, "drift_text"), "create_remindr"));
    jdom_free(j);
}
END_TEST

/* ---- the question's wording and the operator's variables ---------------- */

/* The text transcript of `args` with `env` (shell assignments) set. */
static char *demo_env(const char *env, const char *args, int *status)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s '%s' %s", env, TOOLGOV_DEMO_EXE, args);
    return run(cmd, status);
}

START_TEST(question_counts_and_names_what_it_asks_about)
{
    int status;
    char *out = demo_env("TOOLGOV_CONFIRM_ONCE_TOOLS=trash_category", "--answer no promos",
                         &status);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_nonnull(strstr(out, "? Make this change?\n    ?   1. trash_category "));
    ck_assert_ptr_null(strstr(out, "1 changes"));
    free(out);
    /* a read the override makes ask is not a change */
    out = demo_env("TOOLGOV_CONFIRM_ONCE_TOOLS=inbox_digest", "digest", &status);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_nonnull(strstr(out, "? Run this call?\n    ?   1. inbox_digest {\"limit\":5}"));
    ck_assert_ptr_null(strstr(out, "change"));
    free(out);
    /* four writes */
    out = demo("dues", &status);
    ck_assert_ptr_nonnull(strstr(out, "? Make these 4 changes?\n"));
    free(out);
}
END_TEST

START_TEST(heading_keeps_the_override_on_its_line)
{
    int status;
    char *out = demo_env("TOOLGOV_CONFIRM_ONCE_TOOLS=\"$(printf 'none\\nx\\\\y')\"", "digest",
                         &status);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_nonnull(strstr(out, "\noperator override: TOOLGOV_CONFIRM_ONCE_TOOLS=none\\x0ax\\\\y\n\n"));
    free(out);
}
END_TEST

START_TEST(scope_listed_still_asks_once_for_a_planned_list)
{
    int status;
    char *out = demo_env("TOOLGOV_CONFIRM_SCOPE=listed", "--json dues", &status);
    jdom *j;
    ck_assert_int_eq(status, 0);
    j = nth_scenario(out, 0);
    free(out);
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 4);
    jdom_free(j);
}
END_TEST

START_TEST(scope_typo_stops_with_the_fix)
{
    int status;
    char *err = demo_env("TOOLGOV_CONFIRM_SCOPE=lsted", "dues 2>&1 >/dev/null", &status);
    ck_assert_int_eq(status, 1);
    ck_assert_ptr_nonnull(strstr(err, "toolgov-demo: error: TOOLGOV_CONFIRM_SCOPE is \"lsted\", "
                                      "which it may not be: set it to run "));
    free(err);
}
END_TEST

/* ---- the model's side of the wire (chat.h) -------------------------------- */

/* The completion names each call with its id, or carries the answer. */
START_TEST(chat_completion_shapes)
{
    demo_proposal p;
    char *body = NULL, id[DEMO_CHAT_ID_MAX];
    size_t len = 0;
    memset(&p, 0, sizeof p);
    p.call_count = 2;
    strcpy(p.calls[0].tool, "search_inbox");
    strcpy(p.calls[0].args, "{\"query\":\"a\\\"b\"}");
    strcpy(p.calls[1].tool, "read_email");
    strcpy(p.calls[1].args, "{\"id\":3}");
    ck_assert_int_eq(demo_chat_completion(&body, &len, &p, 4), 0);
    ck_assert_uint_eq(strlen(body), len);
    demo_chat_call_id(id, sizeof id, 4, 1);
    ck_assert_str_eq(id, "call_4_2");
    ck_assert_ptr_nonnull(strstr(body, "{\"id\":\"call_4_2\",\"type\":\"function\",\"function\":"
                                       "{\"name\":\"read_email\",\"arguments\":\"{\\\"id\\\":3}\"}}"));
    ck_assert_ptr_nonnull(strstr(body, "\"arguments\":\"{\\\"query\\\":\\\"a\\\\\\\"b\\\"}\""));
    ck_assert_ptr_nonnull(strstr(body, "\"finish_reason\":\"tool_calls\""));
    free(body);
    memset(&p, 0, sizeof p);
    strcpy(p.answer, "done\n");
    ck_assert_int_eq(demo_chat_completion(&body, &len, &p, 1), 0);
    ck_assert_ptr_nonnull(strstr(body, "\"content\":\"done\\u000a\"},\"finish_reason\":\"stop\""));
    free(body);
}
END_TEST

/* ---- a standing grant ----------------------------------------------------- */

/* The user's standing grant "always allow create_reminder": the reminders
** run without a question (each call names the grant), and tidy_inbox, a
** write the grant does not cover, is still asked about, on its own. */
START_TEST(grant_runs_granted_writes_unasked)
{
    jdom *j = play("--json grant");
    const jdom *asks[4], *calls[8], *tidy;
    size_t i;
    ck_assert_ptr_nonnull(strstr(str(j, "grant"), "allow create_reminder"));
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_uint_eq(events(j, "ask", NULL, asks, 4), 1);
    ck_assert_str_eq(str(asks[0], "kind"), "confirm");
    ck_assert_uint_eq(jdom_len(jdom_get(asks[0], "items")), 1);
    ck_assert_str_eq(str(jdom_at(jdom_get(asks[0], "items"), 0), "tool"), "tidy_inbox");
    ck_assert_ptr_null(strstr(str(asks[0], "question"), "create_reminder"));
    ck_assert_uint_eq(events(j, "call", "create_reminder", calls, 8), 4);
    for (i = 0; i < 4; i++) {
        ck_assert_str_eq(str(calls[i], "gate"), "ALLOW");
        ck_assert_int_eq(jdom_bool(jdom_get(calls[i], "executed")), 1);
        ck_assert_int_eq(num(calls[i], "grant"), 1);
    }
    /* every reminder ran before the question was asked */
    ck_assert_uint_lt(event_index(j, "call", "create_reminder"), event_index(j, "ask", NULL));
    ck_assert_uint_eq(events(j, "call", "tidy_inbox", &tidy, 1), 1);
    ck_assert_int_eq(num(tidy, "grant"), 0);
    ck_assert_int_eq(jdom_bool(jdom_get(tidy, "executed")), 1);
    ck_assert_uint_gt(event_index(j, "call", "tidy_inbox"), event_index(j, "ask", NULL));
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 4);
    ck_assert_int_eq(num(j, "state.email.trash"), 2);
    jdom_free(j);

    /* the user's no to the tidying leaves the inbox; the granted
    ** reminders stand */
    j = play("--json --answer no grant");
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_uint_eq(events(j, "call", "tidy_inbox", &tidy, 1), 1);
    ck_assert_int_eq(jdom_bool(jdom_get(tidy, "executed")), 0);
    ck_assert_str_eq(str(tidy, "gate"), "REFUSE");
    ck_assert_uint_eq(jdom_len(jdom_path(j, "state.reminders")), 4);
    ck_assert_int_eq(num(j, "state.email.trash"), 0);
    jdom_free(j);

    /* without the grant (the dues scenario) the same reminders ask */
    j = play("--json dues");
    ck_assert_int_eq(num(j, "asks"), 1);
    ck_assert_uint_eq(events(j, "call", "create_reminder", calls, 8), 4);
    ck_assert_int_eq(num(calls[0], "grant"), 0);
    jdom_free(j);
}
END_TEST

/* Every use of the grant is an audit event that names it and who gave it. */
START_TEST(grant_uses_are_audited)
{
    char path[] = "/tmp/toolgov-demo-grant-XXXXXX", cmd[1024], *log;
    int fd = mkstemp(path), status;
    FILE *f;
    size_t n = 0, cap = 65536, got;
    ck_assert_int_ge(fd, 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "'%s' --audit '%s' grant > /dev/null", TOOLGOV_DEMO_EXE, path);
    free(run(cmd, &status));
    ck_assert_int_eq(status, 0);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    log = malloc(cap);
    ck_assert_ptr_nonnull(log);
    while ((got = fread(log + n, 1, cap - n - 1, f)) > 0)
        n += got;
    log[n] = '\0';
    fclose(f);
    unlink(path);
    ck_assert_uint_eq(occurrences(log, "\"event\":\"allowed\",\"decision\":\"ALLOW\","
                                       "\"tool\":\"create_reminder\""), 4);
    ck_assert_uint_eq(occurrences(log, "\"grant\":1,\"granted_by\":\"ana\""), 4);
    free(log);
}
END_TEST

/* ---- text shown to a person ---------------------------------------------- */

/* A model- or tool-supplied text with terminal escapes (clear screen, a
** title change), a right-to-left override, a line separator, a zero width
** space and a C1 control: the text transcript shows each escaped, never
** raw, and still breaks lines where the text has them. */
#define HOSTILE "spam\x1b[2J\x1b]0;owned\x07 \xe2\x80\xaetxt.exe\xe2\x80\xa8x\xe2\x80\x8by\xc2\x9b"

static void assert_nothing_hostile(const char *out)
{
    ck_assert_msg(strchr(out, '\x1b') == NULL, "a raw ESC is shown: %s", out);
    ck_assert_msg(strchr(out, '\x07') == NULL, "a raw BEL is shown: %s", out);
    ck_assert_msg(strstr(out, "\xe2\x80\xae") == NULL, "a raw U+202E is shown: %s", out);
    ck_assert_msg(strstr(out, "\xe2\x80\xa8") == NULL, "a raw U+2028 is shown: %s", out);
    ck_assert_msg(strstr(out, "\xe2\x80\x8b") == NULL, "a raw U+200B is shown: %s", out);
    ck_assert_msg(strstr(out, "\xc2\x9b") == NULL, "a raw C1 control is shown: %s", out);
}

START_TEST(text_transcript_escapes_hostile_text)
{
    static char tool[] = "search_inbox", args[] = "{\"query\":\"" HOSTILE "\"}";
    static char output[] = "line one " HOSTILE "\nline two", answer[] = HOSTILE "\nbye";
    static char question[] = "Shall I? " HOSTILE;
    char *item = args;
    demo_event evs[4];
    char *out = NULL;
    size_t len = 0, i;
    FILE *f = open_memstream(&out, &len);

    ck_assert_ptr_nonnull(f);
    memset(evs, 0, sizeof evs);
    evs[0].type = DEMO_EV_MODEL;
    evs[0].items = &item;
    evs[0].item_count = 1;
    evs[1].type = DEMO_EV_CALL;
    evs[1].tool = tool;
    evs[1].args = args;
    evs[1].gate = "ALLOW";
    evs[1].executed = 1;
    evs[1].text = output;
    evs[2].type = DEMO_EV_ASK;
    evs[2].kind = "ask_user";
    evs[2].text = question;
    evs[3].type = DEMO_EV_END;
    evs[3].kind = "answered";
    evs[3].text = answer;
    for (i = 0; i < 4; i++)
        demo_report_event(f, &evs[i]);
    demo_report_escaped(f, HOSTILE);
    fclose(f);
    assert_nothing_hostile(out);
    ck_assert_ptr_nonnull(strstr(out, "\\x1b[2J"));
    ck_assert_ptr_nonnull(strstr(out, "\\u202e"));
    ck_assert_ptr_nonnull(strstr(out, "\\u2028"));
    ck_assert_ptr_nonnull(strstr(out, "\\u200b"));
    /* the output's own line break is kept, each line indented */
    ck_assert_ptr_nonnull(strstr(out, "\n    | line two\n"));
    ck_assert_ptr_nonnull(strstr(out, "\n  > bye\n"));
    free(out);
}
END_TEST

static Suite *demo_suite(void)
{
    Suite *s = suite_create("toolgov_demo");
    TCase *tc = tcase_create("scenarios");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, dues_yes_asks_once_and_creates_each);
    tcase_add_test(tc, dues_no_creates_nothing);
    tcase_add_test(tc, digest_ends_on_its_output);
    tcase_add_test(tc, bad_args_refused_with_path_then_sent_right);
    tcase_add_test(tc, bad_args_text_says_why);
    tcase_add_test(tc, promos_trash_without_asking_and_replay);
    tcase_add_test(tc, tidy_runs_the_own_loop_under_the_yes);
    tcase_add_test(tc, tidy_own_loop_asks_under_scope_listed);
    tcase_add_test(tc, empty_trash_denied_keeps_the_trash);
    tcase_add_test(tc, empty_trash_approved_deletes);
    tcase_add_test(tc, prompt_marks_rule_guidance);
    tcase_add_test(tc, drift_panel_rows);
    tcase_add_test(tc, all_scenarios_in_order);
    tcase_add_test(tc, text_transcript_shows_gates);
    tcase_add_test(tc, command_line_misuse);
    suite_add_tcase(s, tc);
    tc = tcase_create("interactive");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, interactive_yes_and_no);
    tcase_add_test(tc, interactive_question_on_stderr);
    suite_add_tcase(s, tc);
    tc = tcase_create("override");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, override_none_lets_the_reminders_through);
    tcase_add_test(tc, override_adds_a_tool_that_then_asks);
    tcase_add_test(tc, override_typo_is_a_drift_row);
    tcase_add_test(tc, question_counts_and_names_what_it_asks_about);
    tcase_add_test(tc, heading_keeps_the_override_on_its_line);
    tcase_add_test(tc, scope_listed_still_asks_once_for_a_planned_list);
    tcase_add_test(tc, scope_typo_stops_with_the_fix);
    suite_add_tcase(s, tc);
    tc = tcase_create("host");
    tcase_add_test(tc, host_asks_the_answerer_once);
    tcase_add_test(tc, host_later_batches_do_not_ask);
    tcase_add_test(tc, host_refuses_unknown_tools);
    tcase_add_test(tc, host_passes_usage_errors_back);
    tcase_add_test(tc, json_transcript_is_utf8_whatever_the_model_writes);
    tcase_add_test(tc, scripted_model_reads_observations);
    tcase_add_test(tc, text_transcript_escapes_hostile_text);
    tcase_add_test(tc, grant_runs_granted_writes_unasked);
    tcase_add_test(tc, grant_uses_are_audited);
    tcase_add_test(tc, chat_completion_shapes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr;
    int failed;
    /* The demo honours the operator's override: the scenarios above expect
    ** the manifests' own policy, whatever the calling shell has set. */
    unsetenv("TOOLGOV_CONFIRM_ONCE_TOOLS");
    unsetenv("TOOLGOV_CONFIRM_SCOPE");
    sr = srunner_create(demo_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
