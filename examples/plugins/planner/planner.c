/* SPDX-License-Identifier: MIT */
/*
** planner.c: the day's plan, merged from the examples' fixed calendar and
** bills and the planner's own tasks, and the settings of the morning brief.
*/
#include <stdio.h>
#include <string.h>

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

/* configure_brief's section enum (planner.yaml) lists the sections in the
** order of planner_section, so a decoded section is its index. */
typedef char section_enum_follows_planner_section
    [(int)planner_Enum_configure_brief_section_calendar == (int)PLANNER_SECTION_CALENDAR &&
     (int)planner_Enum_configure_brief_section_tasks == (int)PLANNER_SECTION_TASKS &&
     (int)planner_Enum_configure_brief_section_bills == (int)PLANNER_SECTION_BILLS &&
     (int)planner_Enum_configure_brief_section_weather == (int)PLANNER_SECTION_WEATHER &&
     (int)planner_Enum_configure_brief_section_news == (int)PLANNER_SECTION_NEWS ? 1 : -1];

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

PLANNER_TOOLGOV_HANDLER(daily_plan, call, args, out)
{
    const exworld_event *day_events[16];
    /* The date is read with its length; a string from a call is never read
    ** as C text (it is copied into a buffer of its own here). */
    char date[11] = EXWORLD_TODAY;
    size_t n = 0, i, j, count;
    long day;
    int cursor;

    /* The decoder checked format: date; the day number is still needed. */
    if (args->has.date) {
        if (exworld_parse_date_n(args->date.ptr, args->date.len, &day))
            return exworld_refuse(out, call->tool, "'%.*s' is not a date (YYYY-MM-DD)",
                                  (int)args->date.len, args->date.ptr);
        memcpy(date, args->date.ptr, 10);
    } else if (exworld_parse_date(date, &day)) {
        return TOOLGOV_EHANDLER;
    }

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

PLANNER_TOOLGOV_HANDLER(configure_brief, call, args, out)
{
    planner_state *st = call->plugin_ctx;
    unsigned sec = (unsigned)args->section;
    const char *section = planner_section_name((planner_section)sec);
    int enabled = args->enabled, rc, s, first = 1;

    if (!st) {
        toolgov_result_set(out, "", 0);
        toolgov_result_printf(out, "error: %s: planner was mounted without a planner_state",
                              call->tool);
        return TOOLGOV_EHANDLER;
    }
    if (sec >= PLANNER_SECTION_COUNT)
        return exworld_refuse(out, call->tool, "unknown section %u", sec);
    if (st->brief[sec] == enabled) {
        rc = toolgov_result_printf(out, "The %s section was already %s; nothing changed.",
                                   section, enabled ? "on" : "off");
    } else {
        st->brief[sec] = enabled;
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
