/* SPDX-License-Identifier: MIT */
/*
** calendar.c: the calendar plugin's handlers, over the examples' fixed
** events (exworld.h) and the host's calendar_state (the reminders).
*/
#include <stdio.h>
#include <string.h>

#include "calendar.toolgov.h"
#include "calendar_state.h"
#include "exworld.h"

#define MAX_RANGE_DAYS 31

void calendar_state_init(calendar_state *st)
{
    memset(st, 0, sizeof *st);
}

/* The arguments are valid dates already (format: date in the manifest);
** what is left to check is how they go together. */
CALENDAR_TOOLGOV_HANDLER(calendar_lookup, call, args, out)
{
    const calendar_state *st = call->plugin_ctx;
    /* Every string is read with its length (toolgov_str), never as C text. */
    const toolgov_str *date = args->has.date ? &args->date : NULL;
    const toolgov_str *from = args->has.from ? &args->from : NULL;
    const toolgov_str *to = args->has.to ? &args->to : NULL;
    static const toolgov_str today = {EXWORLD_TODAY, sizeof EXWORLD_TODAY - 1}, all = {"", 0};
    const toolgov_str *query = args->has.query ? &args->query : &all;
    long first, last, day;
    size_t i, found = 0;
    int rc;

    if (date && (from || to))
        return exworld_refuse(out, call->tool, "give either 'date' or 'from' and 'to', not both");
    if (!from != !to)
        return exworld_refuse(out, call->tool, "'from' and 'to' go together");
    if (!date && !from)
        date = &today;
    if (date) {
        if (exworld_parse_date_n(date->ptr, date->len, &first))
            return exworld_refuse(out, call->tool, "'%.*s' is not a date (YYYY-MM-DD)",
                                  (int)date->len, date->ptr);
        last = first;
    } else {
        if (exworld_parse_date_n(from->ptr, from->len, &first))
            return exworld_refuse(out, call->tool, "'%.*s' is not a date (YYYY-MM-DD)",
                                  (int)from->len, from->ptr);
        if (exworld_parse_date_n(to->ptr, to->len, &last))
            return exworld_refuse(out, call->tool, "'%.*s' is not a date (YYYY-MM-DD)",
                                  (int)to->len, to->ptr);
        if (last < first)
            return exworld_refuse(out, call->tool, "'to' (%.*s) is before 'from' (%.*s)",
                                  (int)to->len, to->ptr, (int)from->len, from->ptr);
        if (last - first >= MAX_RANGE_DAYS)
            return exworld_refuse(out, call->tool, "a range covers at most %d days",
                                  MAX_RANGE_DAYS);
    }

    for (day = first; day <= last; day++) {
        char ymd[11];
        exworld_format_date(day, ymd);
        for (i = 0; i < exworld_event_count; i++) {
            const exworld_event *e = &exworld_events[i];
            if (strcmp(e->date, ymd) != 0 || !exworld_contains_n(e->title, query->ptr, query->len))
                continue;
            if (toolgov_result_printf(out, "- %s %s %s-%s %s (%s)\n",
                                      exworld_weekday(day), e->date, e->start,
                                      e->end, e->title, e->place))
                return TOOLGOV_ENOMEM;
            found++;
        }
        for (i = 0; st && i < st->reminder_count; i++) {
            const calendar_reminder *r = &st->reminders[i];
            if (strcmp(r->date, ymd) != 0 || !exworld_contains_n(r->title, query->ptr, query->len))
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
            rc = toolgov_result_printf(out, "No events on %s %s%s%.*s%s.",
                                       exworld_weekday(first), a,
                                       query->len ? " matching '" : "", (int)query->len,
                                       query->ptr, query->len ? "'" : "");
        else
            rc = toolgov_result_printf(out, "No events from %s to %s%s%.*s%s.", a, b,
                                       query->len ? " matching '" : "", (int)query->len,
                                       query->ptr, query->len ? "'" : "");
        return rc ? TOOLGOV_ENOMEM : 0;
    }
    return 0;
}

/* Lengths are checked in characters by the decoder (maxLength); the
** state's buffers are sized in bytes, so a long multi-byte text is
** refused here rather than cut. */
static int copy_field(char *dst, size_t size, toolgov_str src)
{
    if (src.len >= size)
        return -1;
    memcpy(dst, src.ptr, src.len);
    dst[src.len] = '\0';
    return 0;
}

CALENDAR_TOOLGOV_HANDLER(create_reminder, call, args, out)
{
    calendar_state *st = call->plugin_ctx;
    calendar_reminder r;
    long day;
    size_t i;

    if (!st) {
        toolgov_result_set(out, "", 0);
        toolgov_result_printf(out, "error: %s: the calendar was mounted without "
                                   "a calendar_state to keep reminders in", call->tool);
        return TOOLGOV_EHANDLER;
    }
    /* date and time are checked by the decoder (format: date, format: time
    ** of exactly five characters, HH:MM); the day number is still needed. */
    if (exworld_parse_date_n(args->date.ptr, args->date.len, &day))
        return exworld_refuse(out, call->tool, "'%.*s' is not a date (YYYY-MM-DD)",
                              (int)args->date.len, args->date.ptr);
    memset(&r, 0, sizeof r);
    if (copy_field(r.title, sizeof r.title, args->title))
        return exworld_refuse(out, call->tool, "'title' is longer than %u bytes",
                              (unsigned)sizeof r.title - 1u);
    if (args->has.note && copy_field(r.note, sizeof r.note, args->note))
        return exworld_refuse(out, call->tool, "'note' is longer than %u bytes",
                              (unsigned)sizeof r.note - 1u);
    if (copy_field(r.date, sizeof r.date, args->date) ||
        copy_field(r.time, sizeof r.time, args->time))
        return exworld_refuse(out, call->tool, "'%.*s' at '%.*s' is not YYYY-MM-DD at HH:MM",
                              (int)args->date.len, args->date.ptr, (int)args->time.len,
                              args->time.ptr);

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
