/* SPDX-License-Identifier: MIT */
/*
** calendar.c: the calendar plugin's handlers, over the examples' fixed
** events (exworld.h) and the host's calendar_state (the reminders).
*/
#include <stdio.h>
#include <string.h>

#include "calendar.toolgov.h"
#include "calendar_state.h"
#include "exargs.h"
#include "exworld.h"

#define LOOKUP_USAGE \
    "{\"date\": \"YYYY-MM-DD\"} or {\"from\": \"YYYY-MM-DD\", \"to\": \"YYYY-MM-DD\"}, optional \"query\""
#define REMINDER_USAGE \
    "{\"title\": text, \"date\": \"YYYY-MM-DD\", \"time\": \"HH:MM\"}, optional \"note\""
#define MAX_RANGE_DAYS 31

void calendar_state_init(calendar_state *st)
{
    memset(st, 0, sizeof *st);
}

TOOLGOV_HANDLER(calendar_lookup, call, out)
{
    static const exargs_spec spec[] = {
        {"date", EXARGS_STRING, 0},
        {"from", EXARGS_STRING, 0},
        {"to", EXARGS_STRING, 0},
        {"query", EXARGS_STRING, 0},
    };
    const calendar_state *st = call->plugin_ctx;
    exargs_object args;
    const char *date, *from, *to, *query;
    long first, last, day;
    size_t i, found = 0;
    int rc;

    if ((rc = exargs_read(&args, call, spec, 4, LOOKUP_USAGE, out)))
        return rc;
    date = exargs_str(&args, "date", NULL);
    from = exargs_str(&args, "from", NULL);
    to = exargs_str(&args, "to", NULL);
    query = exargs_str(&args, "query", "");
    if (date && (from || to))
        return exargs_usage(out, call->tool, LOOKUP_USAGE,
                            "give either 'date' or 'from' and 'to', not both");
    if (!from != !to)
        return exargs_usage(out, call->tool, LOOKUP_USAGE,
                            "'from' and 'to' go together");
    if (!date && !from)
        date = EXWORLD_TODAY;
    if (date) {
        if (exworld_parse_date(date, &first))
            return exargs_usage(out, call->tool, LOOKUP_USAGE,
                                "'%s' is not a date (YYYY-MM-DD)", date);
        last = first;
    } else {
        if (exworld_parse_date(from, &first))
            return exargs_usage(out, call->tool, LOOKUP_USAGE,
                                "'%s' is not a date (YYYY-MM-DD)", from);
        if (exworld_parse_date(to, &last))
            return exargs_usage(out, call->tool, LOOKUP_USAGE,
                                "'%s' is not a date (YYYY-MM-DD)", to);
        if (last < first)
            return exargs_usage(out, call->tool, LOOKUP_USAGE,
                                "'to' (%s) is before 'from' (%s)", to, from);
        if (last - first >= MAX_RANGE_DAYS)
            return exargs_usage(out, call->tool, LOOKUP_USAGE,
                                "a range covers at most %d days", MAX_RANGE_DAYS);
    }

    for (day = first; day <= last; day++) {
        char ymd[11];
        exworld_format_date(day, ymd);
        for (i = 0; i < exworld_event_count; i++) {
            const exworld_event *e = &exworld_events[i];
            if (strcmp(e->date, ymd) != 0 || !exworld_contains(e->title, query))
                continue;
            if (toolgov_result_printf(out, "- %s %s %s-%s %s (%s)\n",
                                      exworld_weekday(day), e->date, e->start,
                                      e->end, e->title, e->place))
                return TOOLGOV_ENOMEM;
            found++;
        }
        for (i = 0; st && i < st->reminder_count; i++) {
            const calendar_reminder *r = &st->reminders[i];
            if (strcmp(r->date, ymd) != 0 || !exworld_contains(r->title, query))
                continue;
            if (toolgov_result_printf(out, "- %s %s %s reminder: %s\n",
                                      exworld_weekday(day), r->date, r->time,
                                      r->title))
                return TOOLGOV_ENOMEM;
            found++;
        }
    }
    if (found == 0) {
        char a[11], b[11];
        exworld_format_date(first, a);
        exworld_format_date(last, b);
        if (first == last)
            rc = toolgov_result_printf(out, "No events on %s %s%s%s%s.",
                                       exworld_weekday(first), a,
                                       *query ? " matching '" : "", query,
                                       *query ? "'" : "");
        else
            rc = toolgov_result_printf(out, "No events from %s to %s%s%s%s.", a, b,
                                       *query ? " matching '" : "", query,
                                       *query ? "'" : "");
        return rc ? TOOLGOV_ENOMEM : 0;
    }
    return 0;
}

static int copy_field(char *dst, size_t size, const char *src, size_t len)
{
    if (len >= size)
        return -1;
    memcpy(dst, src, len + 1);
    return 0;
}

TOOLGOV_HANDLER(create_reminder, call, out)
{
    static const exargs_spec spec[] = {
        {"title", EXARGS_STRING, 1},
        {"date", EXARGS_STRING, 1},
        {"time", EXARGS_STRING, 1},
        {"note", EXARGS_STRING, 0},
    };
    calendar_state *st = call->plugin_ctx;
    calendar_reminder r;
    exargs_object args;
    const exargs_field *title, *note;
    const char *date, *time;
    long day;
    size_t i;
    int rc;

    if ((rc = exargs_read(&args, call, spec, 4, REMINDER_USAGE, out)))
        return rc;
    if (!st) {
        toolgov_result_set(out, "", 0);
        toolgov_result_printf(out, "error: %s: the calendar was mounted without "
                                   "a calendar_state to keep reminders in", call->tool);
        return TOOLGOV_EHANDLER;
    }
    title = exargs_find(&args, "title");
    note = exargs_find(&args, "note");
    date = exargs_str(&args, "date", "");
    time = exargs_str(&args, "time", "");
    if (exworld_parse_date(date, &day))
        return exargs_usage(out, call->tool, REMINDER_USAGE,
                            "'%s' is not a date (YYYY-MM-DD)", date);
    if (exworld_check_time(time))
        return exargs_usage(out, call->tool, REMINDER_USAGE,
                            "'%s' is not a time (HH:MM, 24-hour)", time);
    memset(&r, 0, sizeof r);
    if (copy_field(r.title, sizeof r.title, title->str, title->str_len))
        return exargs_usage(out, call->tool, REMINDER_USAGE,
                            "'title' is longer than %u bytes",
                            (unsigned)sizeof r.title - 1u);
    if (note && copy_field(r.note, sizeof r.note, note->str, note->str_len))
        return exargs_usage(out, call->tool, REMINDER_USAGE,
                            "'note' is longer than %u bytes",
                            (unsigned)sizeof r.note - 1u);
    memcpy(r.date, date, sizeof r.date);
    memcpy(r.time, time, sizeof r.time);

    /* Creating the same reminder twice is one reminder: a retried call must
    ** not double the user's calendar. */
    for (i = 0; i < st->reminder_count; i++) {
        const calendar_reminder *o = &st->reminders[i];
        if (!strcmp(o->title, r.title) && !strcmp(o->date, r.date) &&
            !strcmp(o->time, r.time))
            return toolgov_result_printf(out, "Reminder already exists: \"%s\" on %s %s at %s.",
                                         o->title, exworld_weekday(day), o->date, o->time)
                       ? TOOLGOV_ENOMEM : 0;
    }
    if (st->reminder_count >= CALENDAR_MAX_REMINDERS) {
        toolgov_result_set(out, "", 0);
        toolgov_result_printf(out, "error: %s: the calendar holds at most %u reminders",
                              call->tool, CALENDAR_MAX_REMINDERS);
        return TOOLGOV_EHANDLER;
    }
    st->reminders[st->reminder_count++] = r;
    return toolgov_result_printf(out, "Created reminder \"%s\" on %s %s at %s.", r.title,
                                 exworld_weekday(day), r.date, r.time)
               ? TOOLGOV_ENOMEM : 0;
}
