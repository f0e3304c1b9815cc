/* SPDX-License-Identifier: MIT */
/*
** planner.c: the day's plan, merged from the examples' fixed calendar and
** bills and the planner's own tasks, and the settings of the morning brief.
*/
#include <stdio.h>
#include <string.h>

#include "exargs.h"
#include "exworld.h"
#include "planner.toolgov.h"
#include "planner_state.h"

typedef struct task {
    const char *date;
    const char *title;
    int minutes;  /* estimated effort */
} task;

static const task tasks[] = {
    {"2026-12-01", "Review Lena's planning deck", 45},
    {"2026-12-01", "Pay the electricity bill", 10},
    {"2026-12-01", "Book flights for the holidays", 30},
    {"2026-12-02", "Send the Q1 budget draft", 60},
    {"2026-12-03", "Renew the car insurance", 20},
};

static const char *const section_names[PLANNER_SECTION_COUNT] = {
    "calendar", "tasks", "bills", "weather", "news"};

#define PLAN_USAGE "optional {\"date\": \"YYYY-MM-DD\"}"
#define BRIEF_USAGE \
    "{\"section\": \"calendar\" | \"tasks\" | \"bills\" | \"weather\" | \"news\", \"enabled\": true | false}"

/* The working day the free slots are counted in. */
#define DAY_START (8 * 60)
#define DAY_END (18 * 60)

void planner_state_init(planner_state *st)
{
    memset(st, 0, sizeof *st);
    st->brief[PLANNER_SECTION_CALENDAR] = 1;
    st->brief[PLANNER_SECTION_TASKS] = 1;
    st->brief[PLANNER_SECTION_BILLS] = 1;
}

const char *planner_section_name(planner_section s)
{
    return (unsigned)s < PLANNER_SECTION_COUNT ? section_names[s] : "unknown";
}

static int minutes_of(const char *hhmm)
{
    return ((hhmm[0] - '0') * 10 + (hhmm[1] - '0')) * 60 + (hhmm[3] - '0') * 10 + (hhmm[4] - '0');
}

TOOLGOV_HANDLER(daily_plan, call, out)
{
    static const exargs_spec spec[] = {{"date", EXARGS_STRING, 0}};
    const exworld_event *day_events[16];
    size_t n = 0, i, j, count;
    exargs_object args;
    const char *date;
    long day;
    int cursor, rc;

    if ((rc = exargs_read(&args, call, spec, 1, PLAN_USAGE, out)))
        return rc;
    date = exargs_str(&args, "date", EXWORLD_TODAY);
    if (exworld_parse_date(date, &day))
        return exargs_usage(out, call->tool, PLAN_USAGE, "'%s' is not a date (YYYY-MM-DD)", date);

    /* The event table is in time order within a day, so no sort is needed. */
    for (i = 0; i < exworld_event_count && n < 16; i++)
        if (!strcmp(exworld_events[i].date, date))
            day_events[n++] = &exworld_events[i];

    if (toolgov_result_printf(out, "Plan for %s %s\n", exworld_weekday(day), date) ||
        toolgov_result_printf(out, "Events (%lu):\n", (unsigned long)n))
        return TOOLGOV_ENOMEM;
    for (i = 0; i < n; i++)
        if (toolgov_result_printf(out, "- %s-%s %s (%s)\n", day_events[i]->start,
                                  day_events[i]->end, day_events[i]->title,
                                  day_events[i]->place))
            return TOOLGOV_ENOMEM;

    for (i = 0, count = 0; i < sizeof tasks / sizeof tasks[0]; i++)
        count += !strcmp(tasks[i].date, date);
    if (toolgov_result_printf(out, "Tasks (%lu):\n", (unsigned long)count))
        return TOOLGOV_ENOMEM;
    for (i = 0; i < sizeof tasks / sizeof tasks[0]; i++)
        if (!strcmp(tasks[i].date, date) &&
            toolgov_result_printf(out, "- %s (about %d min)\n", tasks[i].title, tasks[i].minutes))
            return TOOLGOV_ENOMEM;

    for (i = 0, count = 0; i < exworld_bill_count; i++)
        count += !strcmp(exworld_bills[i].due, date);
    if (count && toolgov_result_printf(out, "Bills due:\n"))
        return TOOLGOV_ENOMEM;
    for (i = 0; i < exworld_bill_count; i++) {
        const exworld_bill *b = &exworld_bills[i];
        if (strcmp(b->due, date))
            continue;
        if (toolgov_result_printf(out, "- %s (%s) %ld.%02ld EUR%s\n", b->name, b->payee,
                                  b->cents / 100, b->cents % 100,
                                  b->autopay ? ", paid automatically" : ""))
            return TOOLGOV_ENOMEM;
    }

    /* Free slots of at least half an hour between the events. */
    if (toolgov_result_printf(out, "Free:"))
        return TOOLGOV_ENOMEM;
    cursor = DAY_START;
    for (i = 0, j = 0; i <= n; i++) {
        int start = i < n ? minutes_of(day_events[i]->start) : DAY_END;
        int end = i < n ? minutes_of(day_events[i]->end) : DAY_END;
        if (start - cursor >= 30) {
            if (toolgov_result_printf(out, "%s %02d:%02d-%02d:%02d", j ? "," : "", cursor / 60,
                                      cursor % 60, start / 60, start % 60))
                return TOOLGOV_ENOMEM;
            j++;
        }
        if (end > cursor)
            cursor = end;
    }
    if (toolgov_result_printf(out, "%s\n", j ? "" : " none"))
        return TOOLGOV_ENOMEM;
    return 0;
}

TOOLGOV_HANDLER(configure_brief, call, out)
{
    static const exargs_spec spec[] = {{"section", EXARGS_STRING, 1},
                                       {"enabled", EXARGS_BOOL, 1}};
    planner_state *st = call->plugin_ctx;
    exargs_object args;
    const char *section;
    int enabled, s, rc, first = 1;

    if ((rc = exargs_read(&args, call, spec, 2, BRIEF_USAGE, out)))
        return rc;
    if (!st) {
        toolgov_result_set(out, "", 0);
        toolgov_result_printf(out, "error: %s: planner was mounted without a planner_state",
                              call->tool);
        return TOOLGOV_EHANDLER;
    }
    section = exargs_str(&args, "section", "");
    enabled = exargs_bool(&args, "enabled", 0);
    for (s = 0; s < PLANNER_SECTION_COUNT; s++)
        if (!strcmp(section_names[s], section))
            break;
    if (s == PLANNER_SECTION_COUNT)
        return exargs_usage(out, call->tool, BRIEF_USAGE, "unknown section '%s'", section);
    if (st->brief[s] == enabled) {
        rc = toolgov_result_printf(out, "The %s section was already %s; nothing changed.",
                                   section, enabled ? "on" : "off");
    } else {
        st->brief[s] = enabled;
        st->configure_calls++;
        rc = toolgov_result_printf(out, "Turned the %s section %s.", section,
                                   enabled ? "on" : "off");
    }
    if (rc || toolgov_result_printf(out, " The morning brief now has:"))
        return TOOLGOV_ENOMEM;
    for (s = 0; s < PLANNER_SECTION_COUNT; s++)
        if (st->brief[s]) {
            if (toolgov_result_printf(out, "%s %s", first ? "" : ",", section_names[s]))
                return TOOLGOV_ENOMEM;
            first = 0;
        }
    if (toolgov_result_printf(out, "%s.", first ? " no sections" : ""))
        return TOOLGOV_ENOMEM;
    return 0;
}
