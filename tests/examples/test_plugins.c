/* SPDX-License-Identifier: MIT */
/*
** test_plugins.c: each example plugin on its own: mounted alone into a
** fresh registry, every declared tool is in the pool with its declared
** effect, and its handlers answer valid arguments with the right text and
** malformed ones with a refusal (TOOLGOV_EARGS from the runtime's decoder
** for what the parameters forbid, TOOLGOV_EUSAGE from the handler for what
** they cannot say), never a crash.
** Handlers are invoked through a real run, as a host invokes them.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/drift.h>
#include <toolgov/run.h>
#include <toolgov/testing.h>

#include "calendar.toolgov.h"
#include "calendar_state.h"
#include "code_exec.toolgov.h"
#include "email_state.h"
#include "email_workflows.toolgov.h"
#include "faulty.h"
#include "faulty.toolgov.h"
#include "finance_workflows.toolgov.h"
#include "planner.toolgov.h"
#include "planner_state.h"
#include "research.toolgov.h"
#include "system.toolgov.h"

typedef struct fixture {
    toolgov_registry *reg;
    toolgov_policy *pol;
    size_t builtins;
    char *out; /* the last call's output */
} fixture;

static fixture fx;

static void mount_alone(const toolgov_plugin *p, void *ctx)
{
    memset(&fx, 0, sizeof fx);
    ck_assert_int_eq(toolgov_registry_new(&fx.reg, NULL), 0);
    fx.builtins = toolgov_registry_count(fx.reg);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, p, ctx), 0);
    ck_assert_int_eq(toolgov_policy_new(&fx.pol, fx.reg), 0);
}

static void teardown(void)
{
    free(fx.out);
    toolgov_policy_free(fx.pol);
    toolgov_registry_free(fx.reg);
    memset(&fx, 0, sizeof fx);
}

/* A tool of a plugin's own loop is not in the pool: run it as that loop
** does, through a child of a run of its own, with the host's yes given and
** its call approved (the email plugin is the one with such a loop). */
static int call_own(const char *tool, const char *args, toolgov_outcome *oc)
{
    toolgov_run *run = NULL, *child = NULL;
    email_workflows_ToolId id = email_workflows_ToolFind(tool);
    int rc;

    ck_assert_msg(id != email_workflows_ToolCount, "%s is in no pool and no own loop", tool);
    ck_assert_int_eq(toolgov_run_new(&run, fx.pol, NULL), 0);
    ck_assert_int_eq(toolgov_run_child_new(&child, run, NULL), 0);
    ck_assert_int_eq(toolgov_run_confirm(run, 1), 0);
    memset(oc, 0, sizeof *oc);
    rc = email_workflows_Invoke(oc, child, id, args);
    ck_assert_int_eq(oc->executed, rc != TOOLGOV_EARGS);
    free(fx.out);
    fx.out = strdup(oc->output ? oc->output : "");
    ck_assert_ptr_nonnull(fx.out);
    toolgov_run_free(child);
    toolgov_run_free(run);
    return rc;
}

/* Invoke one tool in a run of its own, answering yes to its confirmation
** and approving it when it is destructive; fx.out gets the output. */
static int call(const char *tool, const char *args)
{
    toolgov_run *run = NULL;
    toolgov_outcome oc;
    const toolgov_tool_spec *spec = toolgov_registry_find(fx.reg, tool);
    int rc;

    if (!spec)
        return call_own(tool, args, &oc);
    ck_assert_int_eq(toolgov_run_new(&run, fx.pol, NULL), 0);
    if (toolgov_run_gate(run, tool, args) == TOOLGOV_GATE_ASK_FIRST)
        ck_assert_int_eq(toolgov_run_confirm(run, 1), 0);
    if (spec->effect == TOOLGOV_EFFECT_DESTRUCTIVE) {
        rc = toolgov_run_approve(run, tool, args); /* the invoke refuses them too */
        ck_assert_int_eq(rc == 0 || rc == TOOLGOV_EARGS, 1);
    }
    memset(&oc, 0, sizeof oc);
    rc = toolgov_run_invoke(&oc, run, tool, args);
    /* A text that is not a JSON object is refused before any handler runs
    ** (TOOLGOV_EARGS, the message in the output). */
    ck_assert_int_eq(oc.executed, rc != TOOLGOV_EARGS);
    free(fx.out);
    fx.out = strdup(oc.output ? oc.output : "");
    ck_assert_ptr_nonnull(fx.out);
    toolgov_run_free(run);
    return rc;
}

#define ASSERT_OK(tool, args) ck_assert_msg(call(tool, args) == 0, "%s %s failed: %s", tool, args, fx.out)
#define ASSERT_HAS(text) ck_assert_msg(strstr(fx.out, text) != NULL, "output lacks '%s':\n%s", text, fx.out)
#define ASSERT_LACKS(text) ck_assert_msg(strstr(fx.out, text) == NULL, "output has '%s':\n%s", text, fx.out)

/* Arguments the tool's parameters do not allow: the runtime's decoder
** refuses them with TOOLGOV_EARGS before any handler runs, in one message
** that starts with the tool's name and names each problem by its JSON path. */
static void assert_refused(const char *tool, const char *args, const char *what)
{
    char prefix[128];
    int rc = call(tool, args);

    ck_assert_msg(rc == TOOLGOV_EARGS, "%s %s: expected TOOLGOV_EARGS, got %d: %s", tool, args,
                  rc, fx.out);
    snprintf(prefix, sizeof prefix, "%s: ", tool);
    ck_assert_msg(!strncmp(fx.out, prefix, strlen(prefix)), "no refusal: %s", fx.out);
    ck_assert_msg(strstr(fx.out, what) != NULL, "'%s' not in: %s", what, fx.out);
}

/* Arguments the parameters allow but the handler cannot serve (a range
** too long, an id that does not exist): TOOLGOV_EUSAGE and an output
** "error: <tool>: <what>". */
static void assert_usage(const char *tool, const char *args, const char *what)
{
    char prefix[128];
    int rc = call(tool, args);

    ck_assert_msg(rc == TOOLGOV_EUSAGE, "%s %s: expected TOOLGOV_EUSAGE, got %d: %s", tool,
                  args, rc, fx.out);
    snprintf(prefix, sizeof prefix, "error: %s: ", tool);
    ck_assert_msg(!strncmp(fx.out, prefix, strlen(prefix)), "no error line: %s", fx.out);
    ck_assert_msg(strstr(fx.out, what) != NULL, "'%s' not in: %s", what, fx.out);
}

/* Every declared tool of the descriptor is pooled with the declared spec,
** owned by the plugin, and the pool holds nothing else of it. */
static void assert_declared_tools_mounted(const toolgov_plugin *p)
{
    size_t i, own = 0;
    for (i = 0; i < p->tool_count; i++) {
        toolgov_plugin_tool row;
        ck_assert_int_eq(toolgov_registry_plugin_tool_at(&row, fx.reg, p->name, i), 0);
        ck_assert_ptr_eq(row.spec, &p->tools[i]);
        ck_assert_msg(row.status == TOOLGOV_TOOL_POOLED || row.status == TOOLGOV_TOOL_OWN_LOOP,
                      "%s: status %d", p->tools[i].name, (int)row.status);
        own += row.status == TOOLGOV_TOOL_OWN_LOOP;
    }
    ck_assert_uint_eq(toolgov_registry_count(fx.reg), fx.builtins + p->tool_count - own);
    for (i = 0; i < p->tool_count; i++) {
        const toolgov_tool_spec *want = &p->tools[i];
        const toolgov_tool_spec *got = toolgov_registry_find(fx.reg, want->name);
        toolgov_plugin_tool row;
        ck_assert_int_eq(toolgov_registry_plugin_tool_at(&row, fx.reg, p->name, i), 0);
        if (row.status == TOOLGOV_TOOL_OWN_LOOP) { /* declared, never pooled */
            ck_assert_ptr_null(got);
            continue;
        }
        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(toolgov_registry_owner(fx.reg, want->name), p->name);
        ck_assert_int_eq(got->effect, want->effect);
        ck_assert_int_eq(got->confirm, want->confirm);
        ck_assert_int_eq(got->pinned, want->pinned);
        ck_assert_int_eq(got->answers_directly, want->answers_directly);
        ck_assert_str_eq(got->description, want->description);
        ck_assert_uint_gt(got->manifest_line, 0);
    }
    ck_assert_uint_eq(toolgov_drift_count(fx.reg, fx.pol), 0);
}

static void assert_spec(const char *tool, toolgov_effect effect, toolgov_confirm confirm,
                        int pinned, int answers_directly)
{
    const toolgov_tool_spec *s = toolgov_registry_find(fx.reg, tool);
    ck_assert_msg(s != NULL, "%s is not in the pool", tool);
    ck_assert_int_eq(s->effect, effect);
    ck_assert_int_eq(s->confirm, confirm);
    ck_assert_int_eq(s->pinned, pinned);
    ck_assert_int_eq(s->answers_directly, answers_directly);
}

/* ---- calendar ------------------------------------------------------------ */

static calendar_state cal;

static void calendar_setup(void)
{
    calendar_state_init(&cal);
    mount_alone(&calendar_toolgov_plugin, &cal);
}

START_TEST(calendar_mounts)
{
    assert_declared_tools_mounted(&calendar_toolgov_plugin);
    ck_assert_uint_eq(calendar_toolgov_plugin.tool_count, 2);
    assert_spec("calendar_lookup", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("create_reminder", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE, 0, 0);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(fx.pol, "create_reminder"), 1);
}
END_TEST

START_TEST(calendar_lookup_answers)
{
    ASSERT_OK("calendar_lookup", "{\"date\":\"2026-12-01\"}");
    ASSERT_HAS("- Tuesday 2026-12-01 09:30-10:00 Team stand-up (Room 4.12)\n");
    ASSERT_HAS("Dentist");
    ASSERT_LACKS("Yoga");
    ASSERT_OK("calendar_lookup", "{}"); /* today by default */
    ASSERT_HAS("Lunch with Ana");
    ASSERT_OK("calendar_lookup", "{\"from\":\"2026-12-01\",\"to\":\"2026-12-03\",\"query\":\"YOGA\"}");
    ck_assert_str_eq(fx.out, "- Thursday 2026-12-03 18:00-19:00 Yoga class (Studio Nord)\n");
    ASSERT_OK("calendar_lookup", "{\"date\":\"2026-12-04\"}");
    ck_assert_str_eq(fx.out, "No events on Friday 2026-12-04.");
}
END_TEST

START_TEST(calendar_lookup_malformed)
{
    assert_refused("calendar_lookup", "tomorrow", "the arguments are not valid JSON");
    assert_refused("calendar_lookup", "{\"date\":20261201}", "/date must be a string, got 20261201");
    assert_refused("calendar_lookup", "{\"date\":\"2026-02-30\"}",
                   "/date must be a date (YYYY-MM-DD), got \"2026-02-30\"");
    assert_refused("calendar_lookup", "{\"date\":\"12/01/2026\"}", "/date must be a date (YYYY-MM-DD)");
    assert_usage("calendar_lookup", "{\"date\":\"2026-12-01\",\"from\":\"2026-12-01\"}", "not both");
    assert_usage("calendar_lookup", "{\"from\":\"2026-12-01\"}", "go together");
    assert_usage("calendar_lookup", "{\"from\":\"2026-12-05\",\"to\":\"2026-12-01\"}", "is before");
    assert_usage("calendar_lookup", "{\"from\":\"2026-01-01\",\"to\":\"2026-12-31\"}", "at most 31 days");
    assert_refused("calendar_lookup", "{\"day\":\"2026-12-01\"}", "/day is not allowed");
}
END_TEST

START_TEST(calendar_creates_reminders)
{
    ASSERT_OK("create_reminder",
              "{\"title\":\"Pay rent\",\"date\":\"2026-12-07\",\"time\":\"08:30\",\"note\":\"Harbour\"}");
    ck_assert_str_eq(fx.out, "Created reminder \"Pay rent\" on Monday 2026-12-07 at 08:30.");
    ck_assert_uint_eq(cal.reminder_count, 1);
    ck_assert_str_eq(cal.reminders[0].title, "Pay rent");
    ck_assert_str_eq(cal.reminders[0].date, "2026-12-07");
    ck_assert_str_eq(cal.reminders[0].time, "08:30");
    ck_assert_str_eq(cal.reminders[0].note, "Harbour");
    /* the same reminder again is not a second one */
    ASSERT_OK("create_reminder", "{\"title\":\"Pay rent\",\"date\":\"2026-12-07\",\"time\":\"08:30\"}");
    ASSERT_HAS("already exists");
    ck_assert_uint_eq(cal.reminder_count, 1);
    /* the lookup shows it beside the events */
    ASSERT_OK("calendar_lookup", "{\"date\":\"2026-12-07\"}");
    ck_assert_str_eq(fx.out, "- Monday 2026-12-07 08:30 reminder: Pay rent\n");
}
END_TEST

START_TEST(calendar_reminder_malformed)
{
    char long_title[300], args[400];
    memset(long_title, 'a', sizeof long_title - 1);
    long_title[sizeof long_title - 1] = '\0';
    snprintf(args, sizeof args, "{\"title\":\"%s\",\"date\":\"2026-12-07\",\"time\":\"08:30\"}",
             long_title);
    assert_refused("create_reminder", "{\"title\":\"x\",\"date\":\"2026-12-07\"}",
                   "/time is required");
    assert_refused("create_reminder", "{\"title\":\"x\",\"date\":\"2026-12-07\",\"time\":\"25:00\"}",
                   "/time must be a time");
    /* HH:MM only: the handler keeps minutes, not seconds */
    assert_refused("create_reminder", "{\"title\":\"x\",\"date\":\"2026-12-07\",\"time\":\"08:00:00\"}",
                   "/time must be at most 5 characters long");
    assert_refused("create_reminder", "{\"title\":\"x\",\"date\":\"2026-13-01\",\"time\":\"08:00\"}",
                   "/date must be a date (YYYY-MM-DD)");
    assert_refused("create_reminder", "{\"title\":\"\",\"date\":\"2026-12-07\",\"time\":\"08:00\"}",
                   "/title must be at least 1 character long");
    assert_refused("create_reminder", args, "/title must be at most 127 characters long");
    assert_refused("create_reminder", "[\"x\"]", "must be a JSON object");
    /* every problem at once, each with its path */
    assert_refused("create_reminder", "{\"date\":\"12/03/2026\",\"time\":\"08:00\"}",
                   "/title is required; /date must be a date (YYYY-MM-DD), got \"12/03/2026\"");
    ck_assert_uint_eq(cal.reminder_count, 0);
}
END_TEST

START_TEST(calendar_without_state)
{
    teardown();
    mount_alone(&calendar_toolgov_plugin, NULL);
    ck_assert_int_eq(call("create_reminder",
                          "{\"title\":\"x\",\"date\":\"2026-12-07\",\"time\":\"08:00\"}"),
                     TOOLGOV_EHANDLER);
    ASSERT_HAS("without a calendar_state");
    ASSERT_OK("calendar_lookup", "{}");
}
END_TEST

START_TEST(calendar_full)
{
    char args[128];
    int i;
    for (i = 0; i < (int)CALENDAR_MAX_REMINDERS; i++) {
        snprintf(args, sizeof args, "{\"title\":\"r%d\",\"date\":\"2026-12-07\",\"time\":\"08:30\"}", i);
        ASSERT_OK("create_reminder", args);
    }
    ck_assert_int_eq(call("create_reminder",
                          "{\"title\":\"one more\",\"date\":\"2026-12-07\",\"time\":\"08:30\"}"),
                     TOOLGOV_EHANDLER);
    ASSERT_HAS("at most 64 reminders");
    ck_assert_uint_eq(cal.reminder_count, CALENDAR_MAX_REMINDERS);
}
END_TEST

/* ---- finance_workflows --------------------------------------------------- */

static void finance_setup(void)
{
    mount_alone(&finance_workflows_toolgov_plugin, NULL);
}

START_TEST(finance_mounts)
{
    assert_declared_tools_mounted(&finance_workflows_toolgov_plugin);
    ck_assert_uint_eq(finance_workflows_toolgov_plugin.tool_count, 4);
    assert_spec("finance_lookup", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("upcoming_dues", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("portfolio", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("net_worth_trend", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    ck_assert_ptr_nonnull(strstr(toolgov_registry_find(fx.reg, "finance_lookup")->guidance,
                                 "search_inbox"));
}
END_TEST

START_TEST(finance_answers)
{
    ASSERT_OK("upcoming_dues", "{}");
    ck_assert_str_eq(fx.out,
                     "4 bills due from 2026-12-01 to 2026-12-14:\n"
                     "- 2026-12-03 | Electricity | City Power | 84.20 EUR\n"
                     "- 2026-12-05 | Internet | Fibrenet | 39.99 EUR | autopay\n"
                     "- 2026-12-07 | Rent | Harbour Homes | 1250.00 EUR\n"
                     "- 2026-12-12 | Car insurance | Safe Drive | 412.75 EUR\n");
    ASSERT_OK("upcoming_dues", "{\"days\":3}");
    ck_assert_str_eq(fx.out, "1 bills due from 2026-12-01 to 2026-12-03:\n"
                             "- 2026-12-03 | Electricity | City Power | 84.20 EUR\n");
    ASSERT_OK("upcoming_dues", "{\"days\":1}");
    ck_assert_str_eq(fx.out, "No bills due from 2026-12-01 to 2026-12-01.");
    ASSERT_OK("finance_lookup", "{\"query\":\"harbour\"}");
    ASSERT_HAS("- Rent (Harbour Homes): 1250.00 EUR, due 2026-12-07");
    ASSERT_OK("finance_lookup", "{\"query\":\"water\"}");
    ASSERT_HAS("(past)");
    ASSERT_OK("finance_lookup", "{\"query\":\"gym\"}");
    ck_assert_str_eq(fx.out, "No bills or payments match 'gym'.");
    ASSERT_OK("portfolio", "{}");
    ASSERT_HAS("- ASML ASML Holding: 4 shares at 682.30 EUR = 2729.20 EUR");
    ASSERT_HAS("Total: 33406.60 EUR");
    ASSERT_OK("portfolio", "{\"ticker\":\"vwce\"}");
    ASSERT_HAS("VWCE");
    ASSERT_LACKS("Total");
    ASSERT_OK("net_worth_trend", "{\"months\":2}");
    ck_assert_str_eq(fx.out, "- 2026-10: 68240 EUR (+1060)\n- 2026-11: 69035 EUR (+795)\n"
                             "Change over 2 months: +1855 EUR (+2.8%)\n");
}
END_TEST

START_TEST(finance_malformed)
{
    assert_refused("upcoming_dues", "{\"days\":0}", "/days must be at least 1, got 0");
    assert_refused("upcoming_dues", "{\"days\":91}", "/days must be at most 90, got 91");
    assert_refused("upcoming_dues", "{\"days\":1.5}", "/days must be an integer");
    assert_refused("upcoming_dues", "{\"days\":\"14\"}", "/days must be an integer");
    assert_refused("finance_lookup", "{}", "/query is required");
    assert_refused("finance_lookup", "{\"query\":\"rent\"", "not valid JSON");
    assert_usage("portfolio", "{\"ticker\":\"XXX\"}", "no holding with ticker 'XXX'");
    assert_usage("portfolio", "{\"ticker\":\"VW\"}", "no holding");
    assert_refused("net_worth_trend", "{\"months\":13}", "/months must be at most 12");
    assert_refused("net_worth_trend", "{\"months\":-1}", "/months must be at least 1");
}
END_TEST

/* ---- email_workflows ----------------------------------------------------- */

static email_state mail;

static void email_setup(void)
{
    email_state_init(&mail);
    mount_alone(&email_workflows_toolgov_plugin, &mail);
}

START_TEST(email_mounts)
{
    assert_declared_tools_mounted(&email_workflows_toolgov_plugin);
    ck_assert_uint_eq(email_workflows_toolgov_plugin.tool_count, 9);
    assert_spec("search_inbox", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 1, 0);
    assert_spec("read_email", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("find_attachment", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("inbox_digest", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 1);
    assert_spec("list_by_category", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("trash_category", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER, 0, 1);
    assert_spec("empty_trash", TOOLGOV_EFFECT_DESTRUCTIVE, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("tidy_inbox", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE, 0, 0);
    /* the assistant's own step: declared for its loop, not in the pool */
    ck_assert_ptr_null(toolgov_registry_find(fx.reg, "trash_email"));
    ck_assert_int_eq(email_workflows_ToolFind("trash_email"), email_workflows_Tool_trash_email);
    ck_assert_int_eq(email_workflows_ToolFind("tidy_inbox"), email_workflows_ToolCount);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(fx.pol, "trash_category"), 0);
    ck_assert_int_eq(toolgov_policy_is_confirm_once(fx.pol, "empty_trash"), 0);
}
END_TEST

/* tidy_inbox's own loop: each move is a trash_email call through a child
** of the run; the run's yes covers them (scope run), and without it the
** loop's first move asks and nothing moves. */
START_TEST(email_tidy_own_loop)
{
    toolgov_run *run = NULL;
    toolgov_outcome oc;

    ASSERT_OK("tidy_inbox", "{\"category\":\"updates\"}"); /* call() says yes first */
    ck_assert_str_eq(fx.out, "The email assistant tidied updates: moved 2 emails to the Trash, "
                             "kept 1 with an attachment.");
    ck_assert_uint_eq(mail.trashed_total, 2);
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_TRASH, "updates"), 2);
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_INBOX, "updates"), 1);
    /* again: only the email with an attachment is left, and it stays */
    ASSERT_OK("tidy_inbox", "{\"category\":\"updates\"}");
    ck_assert_str_eq(fx.out, "The email assistant tidied updates: moved 0 emails to the Trash, "
                             "kept 1 with an attachment.");
    /* The own-loop step on its own: moves one, then says it is gone. */
    ASSERT_OK("trash_email", "{\"id\":6}");
    ck_assert_str_eq(fx.out, "Moved email #6 to the Trash.");
    ASSERT_OK("trash_email", "{\"id\":6}");
    ck_assert_str_eq(fx.out, "Email #6 is not in the inbox.");
    ASSERT_OK("trash_email", "{\"id\":999}");
    ck_assert_str_eq(fx.out, "There is no email #999.");
    assert_refused("trash_email", "{\"id\":0}", "/id must be at least 1, got 0");

    /* A run where the user said no: tidy_inbox asks first (a confirm-once
    ** write) and, refused, never runs, so its loop never starts. */
    ck_assert_int_eq(toolgov_run_new(&run, fx.pol, NULL), 0);
    ck_assert_int_eq(toolgov_run_gate(run, "tidy_inbox", "{\"category\":\"social\"}"),
                     TOOLGOV_GATE_ASK_FIRST);
    ck_assert_int_eq(toolgov_run_confirm(run, 0), 0);
    memset(&oc, 0, sizeof oc);
    ck_assert_int_ne(toolgov_run_invoke(&oc, run, "tidy_inbox", "{\"category\":\"social\"}"), 0);
    ck_assert_int_eq(oc.executed, 0);
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_INBOX, "social"), 2); /* #15, #21 */
    toolgov_run_free(run);
}
END_TEST

START_TEST(email_reads)
{
    ASSERT_OK("search_inbox", "{\"query\":\"invoice\"}");
    ck_assert_str_eq(fx.out, "- #2 2026-12-01 City Power: Your December invoice [primary] (attachment)\n");
    ASSERT_OK("search_inbox", "{\"query\":\"megamart\",\"limit\":1}");
    ASSERT_HAS("#3");
    ASSERT_HAS("(1 more;");
    ASSERT_OK("search_inbox", "{\"query\":\"no such words\"}");
    ck_assert_str_eq(fx.out, "No email in the inbox matches 'no such words'.");
    ASSERT_OK("read_email", "{\"id\":7}");
    ASSERT_HAS("From: Iron Gym\n");
    ASSERT_HAS("Folder: Inbox\n");
    ASSERT_HAS("45.00 EUR");
    ASSERT_OK("find_attachment", "{\"query\":\"pdf\"}");
    ASSERT_HAS("invoice-city-power-2026-12.pdf in #2");
    ASSERT_HAS("boarding-pass-FA212.pdf in #19");
    ASSERT_OK("inbox_digest", "{}");
    ASSERT_HAS("You have 25 emails in your inbox.");
    ASSERT_HAS("Ana confirms lunch");
    ASSERT_HAS("Also waiting: 13 promotions, 3 social, 3 updates.");
    ASSERT_OK("list_by_category", "{\"category\":\"social\"}");
    ASSERT_HAS("3 social emails in the inbox:\n");
    ASSERT_HAS("#21");
}
END_TEST

START_TEST(email_reads_malformed)
{
    assert_refused("search_inbox", "{\"query\":\"x\",\"limit\":0}", "/limit must be at least 1, got 0");
    assert_refused("search_inbox", "{\"q\":\"x\"}", "/q is not allowed");
    assert_refused("read_email", "{\"id\":\"2\"}", "/id must be an integer");
    assert_usage("read_email", "{\"id\":999}", "no email with id 999");
    assert_refused("read_email", "{}", "/id is required");
    assert_refused("find_attachment", "{\"query\":false}", "/query must be a string");
    assert_refused("inbox_digest", "{\"limit\":11}", "/limit must be at most 10");
    assert_refused("list_by_category", "{\"category\":\"spam\"}",
                   "/category must be one of \"primary\", \"promotions\", \"social\", \"updates\", got \"spam\"");
}
END_TEST

START_TEST(email_trash_and_empty)
{
    ASSERT_OK("trash_category", "{\"category\":\"promotions\"}");
    ASSERT_HAS("Moved 10 promotions emails to the Trash");
    ASSERT_HAS("Sample: \"Cyber Monday: 40% off everything\" (MegaMart)");
    ASSERT_HAS("Still in the inbox: 3 promotions emails");
    ASSERT_HAS("to undo, move them from the Trash back to the inbox");
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_TRASH, "promotions"), 10);
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_INBOX, "promotions"), 3);
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_INBOX, "primary"), 6);
    /* a trashed mail is still readable, from the Trash */
    ASSERT_OK("read_email", "{\"id\":3}");
    ASSERT_HAS("Folder: Trash\n");
    /* in its own run, a second call moves the rest */
    ASSERT_OK("trash_category", "{\"category\":\"promotions\",\"limit\":50}");
    ASSERT_HAS("Moved 3 promotions emails");
    ASSERT_HAS("No promotions emails are left in the inbox.");
    ASSERT_OK("trash_category", "{\"category\":\"promotions\"}");
    ck_assert_str_eq(fx.out, "No promotions emails in the inbox: nothing was moved.");
    ck_assert_uint_eq(mail.trashed_total, 13);
    ck_assert_uint_eq(mail.trash_calls, 3);

    /* arguments to empty_trash are refused before anything is deleted */
    assert_refused("empty_trash", "{\"all\":true}", "/all is not allowed (the tool takes no arguments)");
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_TRASH, NULL), 13);
    ASSERT_OK("empty_trash", "{}");
    ck_assert_str_eq(fx.out, "Permanently deleted 13 emails from the Trash.");
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_TRASH, NULL), 0);
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_DELETED, NULL), 13);
    ASSERT_OK("empty_trash", "{}");
    ck_assert_str_eq(fx.out, "The Trash was already empty: nothing was deleted.");
    /* deleted for good: gone from reading and searching */
    assert_usage("read_email", "{\"id\":3}", "no email with id 3");
    ASSERT_OK("search_inbox", "{\"query\":\"Cyber Monday\"}");
    ASSERT_HAS("No email");
}
END_TEST

START_TEST(email_trash_malformed)
{
    assert_refused("trash_category", "{}", "/category is required");
    assert_refused("trash_category", "{\"category\":\"Promotions\"}", "/category must be one of");
    assert_refused("trash_category", "{\"category\":\"promotions\",\"limit\":0}", "/limit must be at least 1");
    assert_refused("trash_category", "{\"category\":[\"promotions\"]}", "/category must be");
    ck_assert_uint_eq(email_state_count(&mail, EMAIL_INBOX, NULL), 25);
    ck_assert_uint_eq(mail.trash_calls, 0);
}
END_TEST

START_TEST(email_without_state)
{
    teardown();
    mount_alone(&email_workflows_toolgov_plugin, NULL);
    ck_assert_int_eq(call("inbox_digest", "{}"), TOOLGOV_EHANDLER);
    ASSERT_HAS("without an email_state");
}
END_TEST

/* ---- planner --------------------------------------------------------------- */

static planner_state plan;

static void planner_setup(void)
{
    planner_state_init(&plan);
    mount_alone(&planner_toolgov_plugin, &plan);
}

START_TEST(planner_mounts)
{
    assert_declared_tools_mounted(&planner_toolgov_plugin);
    ck_assert_uint_eq(planner_toolgov_plugin.tool_count, 2);
    assert_spec("daily_plan", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    assert_spec("configure_brief", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER, 0, 0);
    ck_assert_ptr_nonnull(strstr(toolgov_registry_find(fx.reg, "daily_plan")->guidance,
                                 "do not also call calendar_lookup or finance_lookup"));
}
END_TEST

START_TEST(planner_answers)
{
    ASSERT_OK("daily_plan", "{}");
    ck_assert_str_eq(fx.out,
                     "Plan for Tuesday 2026-12-01\n"
                     "Events (3):\n"
                     "- 09:30-10:00 Team stand-up (Room 4.12)\n"
                     "- 12:30-13:30 Lunch with Ana (Cafe Lisboa)\n"
                     "- 16:00-17:00 Dentist (Dr. Okafor, Elm Street 8)\n"
                     "Tasks (3):\n"
                     "- Review Lena's planning deck (about 45 min)\n"
                     "- Pay the electricity bill (about 10 min)\n"
                     "- Book flights for the holidays (about 30 min)\n"
                     "Free: 08:00-09:30, 10:00-12:30, 13:30-16:00, 17:00-18:00\n");
    ASSERT_OK("daily_plan", "{\"date\":\"2026-12-03\"}");
    ASSERT_HAS("Bills due:\n- Electricity (City Power) 84.20 EUR\n");
    ASSERT_HAS("Free: 08:00-18:00\n");
    ASSERT_OK("configure_brief", "{\"section\":\"weather\",\"enabled\":true}");
    ck_assert_str_eq(fx.out, "Turned the weather section on. The morning brief now has: "
                             "calendar, tasks, bills, weather.");
    ck_assert_int_eq(plan.brief[PLANNER_SECTION_WEATHER], 1);
    ck_assert_uint_eq(plan.configure_calls, 1);
    ASSERT_OK("configure_brief", "{\"section\":\"weather\",\"enabled\":true}");
    ASSERT_HAS("already on; nothing changed");
    ck_assert_uint_eq(plan.configure_calls, 1);
}
END_TEST

START_TEST(planner_malformed)
{
    assert_refused("daily_plan", "{\"date\":\"today\"}", "/date must be a date (YYYY-MM-DD), got \"today\"");
    assert_refused("configure_brief", "{\"section\":\"sports\",\"enabled\":true}",
                   "/section must be one of");
    assert_refused("configure_brief", "{\"section\":\"news\",\"enabled\":\"yes\"}",
                   "/enabled must be a boolean");
    assert_refused("configure_brief", "{\"section\":\"news\"}", "/enabled is required");
    ck_assert_int_eq(plan.brief[PLANNER_SECTION_NEWS], 0);
    ck_assert_uint_eq(plan.configure_calls, 0);
}
END_TEST

/* ---- system, research, code_exec ------------------------------------------ */

static void system_setup(void) { mount_alone(&system_toolgov_plugin, NULL); }
static void research_setup(void) { mount_alone(&research_toolgov_plugin, NULL); }
static void code_exec_setup(void) { mount_alone(&code_exec_toolgov_plugin, NULL); }

START_TEST(system_works)
{
    assert_declared_tools_mounted(&system_toolgov_plugin);
    ck_assert_uint_eq(system_toolgov_plugin.tool_count, 1);
    assert_spec("system_health", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    ASSERT_OK("system_health", "{}");
    ASSERT_HAS("- research_index: degraded");
    ASSERT_HAS("Overall: degraded.");
    ASSERT_OK("system_health", "{\"component\":\"storage\"}");
    ck_assert_str_eq(fx.out, "- storage: ok (62% of 20 GB used)\n");
    assert_refused("system_health", "{\"component\":\"cpu\"}", "/component must be one of");
    assert_refused("system_health", "{\"component\":1}", "/component must be");
}
END_TEST

START_TEST(research_works)
{
    assert_declared_tools_mounted(&research_toolgov_plugin);
    ck_assert_uint_eq(research_toolgov_plugin.tool_count, 1);
    assert_spec("research", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 1, 0);
    ASSERT_OK("research", "{\"query\":\"Weather this week?\"}");
    ASSERT_HAS("- [2026-11-28] Forecast for the first week of December");
    ASSERT_HAS("(snapshot of 2026-11-28; today is 2026-12-01)");
    ASSERT_OK("research", "{\"query\":\"quantum gravity\"}");
    ck_assert_str_eq(fx.out,
                     "Nothing in the research snapshot of 2026-11-28 matches 'quantum gravity'.");
    assert_refused("research", "{\"query\":\"\"}", "/query must be at least 1 character long");
    assert_refused("research", "{\"query\":\"a\",\"depth\":3}", "/depth is not allowed");
}
END_TEST

static const struct {
    const char *code;
    const char *out;
} sums[] = {
    {"2*(3+4)", "2*(3+4) = 14"},
    {"2^3^2", "2^3^2 = 512"},
    {"-(2) + sqrt(16)", "-(2) + sqrt(16) = 2"},
    {"min(3, 1, 2) + max(4, 9)", "min(3, 1, 2) + max(4, 9) = 10"},
    {"7 % 4", "7 % 4 = 3"},
    {"(84.20 + 39.99) * 12", "(84.20 + 39.99) * 12 = 1490.28"},
    {"round(2.5) - abs(-3)", "round(2.5) - abs(-3) = 0"},
    {"1e3 / 8", "1e3 / 8 = 125"},
    {"- - 1", "- - 1 = 1"},
    {"0 * -1", "0 * -1 = 0"},
};

START_TEST(code_exec_evaluates)
{
    char args[256];
    if (_i == 0) {
        assert_declared_tools_mounted(&code_exec_toolgov_plugin);
        assert_spec("code_exec", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, 0, 0);
    }
    snprintf(args, sizeof args, "{\"code\":\"%s\"}", sums[_i].code);
    ASSERT_OK("code_exec", args);
    ck_assert_str_eq(fx.out, sums[_i].out);
}
END_TEST

START_TEST(code_exec_refuses)
{
    char deep[1200], args[1300];
    size_t i;
    assert_usage("code_exec", "{\"code\":\"2+\"}", "unexpected end of expression at column 3");
    assert_usage("code_exec", "{\"code\":\"1 + system(ls)\"}",
                 "unknown function (known: sqrt, abs, round, min, max) at column 5");
    assert_usage("code_exec", "{\"code\":\"`rm -rf /`\"}", "unexpected character at column 1");
    assert_usage("code_exec", "{\"code\":\"1.2.3\"}", "malformed number");
    assert_usage("code_exec", "{\"code\":\"(1\"}", "')' expected");
    assert_usage("code_exec", "{\"code\":\"1 2\"}", "unexpected text after the expression");
    assert_usage("code_exec", "{\"code\":\"sqrt(1,2)\"}", "takes one argument");
    assert_refused("code_exec", "{\"code\":5}", "/code must be a string");
    /* deep nesting and long input are refused, never a stack overflow */
    for (i = 0; i < 250; i++)
        deep[i] = '(';
    deep[i++] = '1';
    for (; i < 501; i++)
        deep[i] = ')';
    deep[i] = '\0';
    snprintf(args, sizeof args, "{\"code\":\"%s\"}", deep);
    assert_usage("code_exec", args, "nested too deeply");
    memset(deep, '-', 300);
    deep[300] = '1';
    deep[301] = '\0';
    snprintf(args, sizeof args, "{\"code\":\"%s\"}", deep);
    assert_usage("code_exec", args, "nested too deeply");
    memset(deep, '1', 600);
    deep[600] = '\0';
    snprintf(args, sizeof args, "{\"code\":\"%s\"}", deep);
    assert_refused("code_exec", args, "/code must be at most 512 characters long, got 600");
    /* 300 characters but 600 bytes: within maxLength, refused by the handler */
    for (i = 0; i < 300; i++) {
        deep[2 * i] = '\xc3';
        deep[2 * i + 1] = '\xa9';
    }
    deep[600] = '\0';
    snprintf(args, sizeof args, "{\"code\":\"%s\"}", deep);
    assert_usage("code_exec", args, "longer than 512 bytes");
    /* a bad value is the handler's failure, not the caller's usage */
    ck_assert_int_eq(call("code_exec", "{\"code\":\"1/0\"}"), TOOLGOV_EHANDLER);
    ck_assert_str_eq(fx.out, "error: code_exec: division by zero at column 4");
    ck_assert_int_eq(call("code_exec", "{\"code\":\"sqrt(-1)\"}"), TOOLGOV_EHANDLER);
    ck_assert_int_eq(call("code_exec", "{\"code\":\"10^400\"}"), TOOLGOV_EHANDLER);
    ASSERT_HAS("not a finite number");
}
END_TEST

/* ---- faulty -------------------------------------------------------------- */

START_TEST(faulty_generated_descriptor_is_clean)
{
    /* Through its generated register function the faulty plugin is fine:
    ** its faults are all in the hand-written one. */
    mount_alone(&faulty_toolgov_plugin, NULL);
    assert_declared_tools_mounted(&faulty_toolgov_plugin);
    teardown();
}
END_TEST

START_TEST(faulty_by_hand_leaves_rows)
{
    toolgov_plugin by_hand;
    size_t i, n;
    int seen[3] = {0, 0, 0};

    faulty_plugin_by_hand(&by_hand);
    mount_alone(&research_toolgov_plugin, NULL);
    toolgov_policy_free(fx.pol);
    fx.pol = NULL;
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, &by_hand, NULL), 0);
    ck_assert_ptr_nonnull(toolgov_registry_find(fx.reg, "faulty_echo"));
    ck_assert_ptr_null(toolgov_registry_find(fx.reg, "faulty_echo_v2"));
    ck_assert_ptr_null(toolgov_registry_find(fx.reg, "faulty_stale"));
    ck_assert_str_eq(toolgov_registry_owner(fx.reg, "research"), "research");
    n = toolgov_drift_count(fx.reg, NULL);
    ck_assert_uint_eq(n, 3);
    for (i = 0; i < n; i++) {
        const toolgov_drift_row *r = toolgov_drift_at(fx.reg, NULL, i);
        ck_assert_str_eq(r->plugin, "faulty");
        if (r->kind == TOOLGOV_DRIFT_UNDECLARED) {
            ck_assert_str_eq(r->tool, "faulty_echo_v2");
            seen[0]++;
        } else if (r->kind == TOOLGOV_DRIFT_DUPLICATE) {
            ck_assert_str_eq(r->tool, "research");
            ck_assert_str_eq(r->owner, "research");
            seen[1]++;
        } else if (r->kind == TOOLGOV_DRIFT_NEVER_REGISTERED) {
            ck_assert_str_eq(r->tool, "faulty_stale");
            ck_assert_uint_eq(r->line, 14);
            seen[2]++;
        }
    }
    ck_assert_int_eq(seen[0], 1);
    ck_assert_int_eq(seen[1], 1);
    ck_assert_int_eq(seen[2], 1);
    teardown();
}
END_TEST

/* ---- every handler against generated arguments --------------------------
** A deterministic stream of argument texts, most of them objects built from
** the keys and values the examples know (so handlers get past the reader
** and into their own checks), some of them broken JSON or random bytes.
** Every answer must be a usable result, a usage error or a handler error,
** with a message; under ASan/UBSan this is also a memory-safety sweep. */

static unsigned long long rng_state = 12345;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng_state >> 33) % n);
}

static const char *const fuzz_keys[] = {
    "date", "from", "to", "query", "title", "time", "note", "days", "ticker", "months", "id",
    "limit", "category", "section", "enabled", "component", "code", "question", "x"};
static const char *const fuzz_values[] = {
    "\"2026-12-01\"", "\"2026-12-31\"", "\"2026-02-29\"", "\"08:30\"", "\"24:00\"", "1", "-1",
    "0", "14", "90", "91", "1.5", "1e300", "true", "false", "null", "\"promotions\"",
    "\"primary\"", "\"weather\"", "\"storage\"", "\"VWCE\"", "\"((1+2)*3)/0\"",
    "\"sqrt(2)^2\"", "\"\\u00e9\\n\\\"\"", "\"\"", "\"%s%n%x\"", "2147483648", "\"a b c\""};

static void fuzz_text(char *buf, size_t size)
{
    size_t at = 0, n, i;
    unsigned mode = rnd(10);
    if (mode == 0) { /* random bytes */
        n = rnd((unsigned)size - 1);
        for (i = 0; i < n; i++)
            buf[i] = (char)(1 + rnd(255));
        buf[n] = '\0';
        return;
    }
    buf[at++] = '{';
    n = rnd(5);
    for (i = 0; i < n && at + 96 < size; i++) {
        at += (size_t)snprintf(buf + at, size - at, "%s\"%s\":%s", i ? "," : "",
                               fuzz_keys[rnd(sizeof fuzz_keys / sizeof fuzz_keys[0])],
                               fuzz_values[rnd(sizeof fuzz_values / sizeof fuzz_values[0])]);
    }
    if (mode != 1)
        buf[at++] = '}';
    buf[at] = '\0';
    if (mode == 2 && at > 2) /* one byte knocked out */
        memmove(buf + rnd((unsigned)at), buf + at - 1, 2);
}

START_TEST(every_handler_survives_generated_arguments)
{
    static const toolgov_plugin *const plugins[] = {
        &calendar_toolgov_plugin, &finance_workflows_toolgov_plugin,
        &email_workflows_toolgov_plugin, &planner_toolgov_plugin, &system_toolgov_plugin,
        &research_toolgov_plugin, &code_exec_toolgov_plugin};
    calendar_state c;
    email_state e;
    planner_state p;
    size_t t, k, calls = 0;
    char args[1024];

    calendar_state_init(&c);
    email_state_init(&e);
    planner_state_init(&p);
    memset(&fx, 0, sizeof fx);
    ck_assert_int_eq(toolgov_registry_new(&fx.reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[0], &c), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[1], NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[2], &e), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[3], &p), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[4], NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[5], NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[6], NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&fx.pol, fx.reg), 0);

    for (k = 0; k < 300; k++) {
        for (t = 0; t < sizeof plugins / sizeof plugins[0]; t++) {
            size_t i;
            for (i = 0; i < plugins[t]->tool_count; i++) {
                const char *tool = plugins[t]->tools[i].name;
                int rc;
                fuzz_text(args, sizeof args);
                rc = call(tool, args);
                ck_assert_msg(rc == 0 || rc == TOOLGOV_EUSAGE || rc == TOOLGOV_EHANDLER ||
                              rc == TOOLGOV_EARGS, "%s %s: %d", tool, args, rc);
                ck_assert_msg(fx.out[0] != '\0', "%s %s: empty output", tool, args);
                if (rc == TOOLGOV_EUSAGE)
                    ck_assert_msg(!strncmp(fx.out, "error: ", 7), "%s: %s", tool, fx.out);
                calls++;
            }
        }
    }
    ck_assert_uint_eq(calls, 300u * 20u);
    ck_assert_uint_le(c.reminder_count, CALENDAR_MAX_REMINDERS);
    teardown();
}
END_TEST

/* ---- every tool declares its arguments --------------------------------
** The manifests are the one place a tool's arguments are written: every
** tool that takes any has parameters (and the schema text exports carry),
** its description does not repeat them in prose, and a member it does not
** declare is refused by the runtime before its handler runs. */

START_TEST(every_tool_declares_its_arguments)
{
    static const toolgov_plugin *const plugins[] = {
        &calendar_toolgov_plugin, &finance_workflows_toolgov_plugin,
        &email_workflows_toolgov_plugin, &planner_toolgov_plugin, &system_toolgov_plugin,
        &research_toolgov_plugin, &code_exec_toolgov_plugin};
    /* the tools that take no arguments at all */
    static const char *const no_args[] = {"empty_trash"};
    calendar_state c;
    email_state e;
    planner_state p;
    size_t t, i, k, with = 0, without = 0;

    calendar_state_init(&c);
    email_state_init(&e);
    planner_state_init(&p);
    memset(&fx, 0, sizeof fx);
    ck_assert_int_eq(toolgov_registry_new(&fx.reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[0], &c), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[1], NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[2], &e), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[3], &p), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[4], NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[5], NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(fx.reg, plugins[6], NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&fx.pol, fx.reg), 0);

    for (t = 0; t < sizeof plugins / sizeof plugins[0]; t++) {
        for (i = 0; i < plugins[t]->tool_count; i++) {
            const toolgov_tool_spec *s = &plugins[t]->tools[i];
            int takes_none = 0;
            char path[96];

            for (k = 0; k < sizeof no_args / sizeof no_args[0]; k++)
                takes_none |= !strcmp(s->name, no_args[k]);
            ck_assert_msg(strstr(s->description, "Arguments") == NULL,
                          "%s: the description repeats the arguments: %s", s->name,
                          s->description);
            ck_assert_msg((s->params == NULL) == takes_none, "%s: params %s", s->name,
                          s->params ? "declared" : "missing");
            ck_assert_ptr_nonnull(strstr(s->schema_json, "\"type\":\"object\""));
            with += !takes_none;
            without += takes_none;
            /* an undeclared member never reaches the handler */
            snprintf(path, sizeof path, "/%s_extra is not allowed", s->name);
            {
                char args[128];
                snprintf(args, sizeof args, "{\"%s_extra\":1}", s->name);
                assert_refused(s->name, args, path);
            }
        }
    }
    ck_assert_uint_eq(with, 19);
    ck_assert_uint_eq(without, 1);
    teardown();
}
END_TEST

/* ---- strings are read with their length ----------------------------------- */

/* A string from a call is `len` bytes at `ptr`: each handler here is given
** strings whose buffer goes on past `len` (as a string with an opted-in NUL
** would, or any hand-built toolgov_str), and must act on the `len` bytes
** only, never on ptr read as C text (issue 29 item 5). */
START_TEST(handlers_read_strings_with_their_length)
{
    toolgov_result *out = NULL;
    toolgov_call call;
    email_state em;
    calendar_state cal;
    email_workflows_Args_search_inbox s;
    calendar_Args_create_reminder r;
    planner_Args_daily_plan d;
    finance_workflows_Args_portfolio pf;
    research_Args_research rs;

    ck_assert_int_eq(toolgov_result_new(&out, NULL), 0);
    memset(&call, 0, sizeof call);
    email_state_init(&em);
    calendar_state_init(&cal);

    call.tool = "search_inbox";
    call.plugin_ctx = &em;
    memset(&s, 0, sizeof s);
    s.query.ptr = "invoice|not part of the query";
    s.query.len = 7;
    s.limit = 10;
    ck_assert_int_eq(email_workflows_Handler_search_inbox(&call, &s, out), 0);
    ck_assert_msg(strstr(toolgov_result_text(out), "No email") == NULL, "%s",
                  toolgov_result_text(out));

    toolgov_result_set(out, "", 0);
    call.tool = "create_reminder";
    call.plugin_ctx = &cal;
    memset(&r, 0, sizeof r);
    r.title.ptr = "milk and more";
    r.title.len = 4;
    r.date.ptr = "2026-12-02T";
    r.date.len = 10;
    r.time.ptr = "09:00:59";
    r.time.len = 5;
    ck_assert_int_eq(calendar_Handler_create_reminder(&call, &r, out), 0);
    ck_assert_uint_eq(cal.reminder_count, 1);
    ck_assert_str_eq(cal.reminders[0].title, "milk");
    ck_assert_str_eq(cal.reminders[0].date, "2026-12-02");
    ck_assert_str_eq(cal.reminders[0].time, "09:00");

    toolgov_result_set(out, "", 0);
    call.tool = "daily_plan";
    call.plugin_ctx = NULL;
    memset(&d, 0, sizeof d);
    d.date.ptr = "2026-12-02 and more";
    d.date.len = 10;
    d.has.date = 1;
    ck_assert_int_eq(planner_Handler_daily_plan(&call, &d, out), 0);
    ck_assert_ptr_nonnull(strstr(toolgov_result_text(out), "Plan for Wednesday 2026-12-02\n"));

    toolgov_result_set(out, "", 0);
    call.tool = "portfolio";
    memset(&pf, 0, sizeof pf);
    pf.ticker.ptr = "VWCE2";
    pf.ticker.len = 4;
    pf.has.ticker = 1;
    ck_assert_int_eq(finance_workflows_Handler_portfolio(&call, &pf, out), 0);
    ck_assert_ptr_nonnull(strstr(toolgov_result_text(out), "VWCE"));

    toolgov_result_set(out, "", 0);
    call.tool = "research";
    memset(&rs, 0, sizeof rs);
    rs.query.ptr = "zzzzqqqq";
    rs.query.len = 0;
    ck_assert_int_eq(research_Handler_research(&call, &rs, out), 0);
    ck_assert_ptr_nonnull(strstr(toolgov_result_text(out), "matches ''."));
    toolgov_result_free(out);
}
END_TEST

static Suite *plugins_suite(void)
{
    Suite *s = suite_create("example_plugins");
    TCase *tc;

    tc = tcase_create("calendar");
    tcase_add_checked_fixture(tc, calendar_setup, teardown);
    tcase_add_test(tc, calendar_mounts);
    tcase_add_test(tc, calendar_lookup_answers);
    tcase_add_test(tc, calendar_lookup_malformed);
    tcase_add_test(tc, calendar_creates_reminders);
    tcase_add_test(tc, calendar_reminder_malformed);
    tcase_add_test(tc, calendar_without_state);
    tcase_add_test(tc, calendar_full);
    suite_add_tcase(s, tc);

    tc = tcase_create("finance_workflows");
    tcase_add_checked_fixture(tc, finance_setup, teardown);
    tcase_add_test(tc, finance_mounts);
    tcase_add_test(tc, finance_answers);
    tcase_add_test(tc, finance_malformed);
    suite_add_tcase(s, tc);

    tc = tcase_create("email_workflows");
    tcase_add_checked_fixture(tc, email_setup, teardown);
    tcase_add_test(tc, email_mounts);
    tcase_add_test(tc, email_tidy_own_loop);
    tcase_add_test(tc, email_reads);
    tcase_add_test(tc, email_reads_malformed);
    tcase_add_test(tc, email_trash_and_empty);
    tcase_add_test(tc, email_trash_malformed);
    tcase_add_test(tc, email_without_state);
    suite_add_tcase(s, tc);

    tc = tcase_create("planner");
    tcase_add_checked_fixture(tc, planner_setup, teardown);
    tcase_add_test(tc, planner_mounts);
    tcase_add_test(tc, planner_answers);
    tcase_add_test(tc, planner_malformed);
    suite_add_tcase(s, tc);

    tc = tcase_create("system");
    tcase_add_checked_fixture(tc, system_setup, teardown);
    tcase_add_test(tc, system_works);
    suite_add_tcase(s, tc);

    tc = tcase_create("research");
    tcase_add_checked_fixture(tc, research_setup, teardown);
    tcase_add_test(tc, research_works);
    suite_add_tcase(s, tc);

    tc = tcase_create("code_exec");
    tcase_add_checked_fixture(tc, code_exec_setup, teardown);
    tcase_add_loop_test(tc, code_exec_evaluates, 0, (int)(sizeof sums / sizeof sums[0]));
    tcase_add_test(tc, code_exec_refuses);
    suite_add_tcase(s, tc);

    tc = tcase_create("parameters");
    tcase_add_test(tc, every_tool_declares_its_arguments);
    tcase_add_test(tc, handlers_read_strings_with_their_length);
    suite_add_tcase(s, tc);

    tc = tcase_create("generated_arguments");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_handler_survives_generated_arguments);
    suite_add_tcase(s, tc);

    tc = tcase_create("faulty");
    tcase_add_test(tc, faulty_generated_descriptor_is_clean);
    tcase_add_test(tc, faulty_by_hand_leaves_rows);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(plugins_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
