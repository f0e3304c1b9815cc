/* SPDX-License-Identifier: MIT */
/* Handlers for the golden planner plugin (declared parameters): compiled with
** gcc and clang as C99 to C2x and with g++ and clang++ at -Wall -Wextra
** -Wpedantic -Werror, so the argument structs, the handler macro and the
** descriptor tables agree in every language mode. */
#include "planner.toolgov.h"

PLANNER_TOOLGOV_HANDLER(create_reminder, call, args, out)
{
    size_t i, n = 0;
    (void)call;
    if (args->priority == planner_Enum_create_reminder_priority_high && args->urgent)
        n++;
    for (i = 0; i < args->tags.count; i++)
        n += args->tags.items[i].len;
    for (i = 0; i < args->stops.count; i++)
        n += args->stops.items[i].has.mode &&
             args->stops.items[i].mode == planner_Enum_create_reminder_stops_item_mode_on_foot;
    for (i = 0; i < args->grid.count; i++)
        n += args->grid.items[i].count;
    if (args->has.where && args->where.has.class_ && args->where.class_)
        n += (size_t)args->where.lat;
    if (args->has.extra)
        n += args->extra.len;
    n += args->maybe.len + args->anything.len + args->start_date.len + args->default_.len;
    n += (size_t)args->minutes_before + (size_t)args->level + (size_t)(args->ratio * 2);
    return toolgov_result_printf(out, "%.*s %zu", (int)args->title.len, args->title.ptr, n);
}

PLANNER_TOOLGOV_HANDLER(list_reminders, call, args, out)
{
    (void)call;
    (void)args;
    return toolgov_result_set(out, "none", 4);
}

/* Two tools whose tables are shared with create_reminder's and with each
** other's: the arguments still arrive in each tool's own struct. */
PLANNER_TOOLGOV_HANDLER(snooze_reminder, call, args, out)
{
    size_t i, n = 0;
    (void)call;
    for (i = 0; i < args->stops.count; i++)
        n += args->stops.items[i].has.mode &&
             args->stops.items[i].mode == planner_Enum_snooze_reminder_stops_item_mode_drive;
    n += args->priority == planner_Enum_snooze_reminder_priority_low;
    return toolgov_result_printf(out, "%.*s %zu", (int)args->title.len, args->title.ptr, n);
}

PLANNER_TOOLGOV_HANDLER(postpone_reminder, call, args, out)
{
    (void)call;
    return toolgov_result_printf(out, "%.*s %lld", (int)args->title.len, args->title.ptr,
                                 args->has.minutes ? (long long)args->minutes : -1LL);
}
