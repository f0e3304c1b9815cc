/* SPDX-License-Identifier: MIT */
/*
** research.c: answers "current" questions from a small dated snapshot of
** notes. A real deployment would query a search service; the example keeps
** a snapshot so the demo is the same everywhere, and says how old it is.
*/
#include <stdio.h>
#include <string.h>

#include "exworld.h"
#include "research.toolgov.h"

#define SNAPSHOT_DATE "2026-11-28"

static const struct {
    const char *topic;  /* words a query may contain, space-separated */
    const char *date;
    const char *note;
} notes[] = {
    {"weather forecast rain lisbon", "2026-11-28",
     "Forecast for the first week of December: mild, 14-17 C, rain likely on the 3rd."},
    {"ecb interest rate rates euro", "2026-11-27",
     "The ECB kept its deposit rate at 2.00% at its last meeting."},
    {"market opening hours farmers saturday", "2026-11-26",
     "The Old Square farmers market opens Saturdays 08:00-14:00 through December."},
    {"fuel petrol price diesel", "2026-11-28",
     "Average petrol price this week: 1.71 EUR per litre, down 2 cents."},
    {"asml shares stock news", "2026-11-27",
     "ASML shares closed at 682.30 EUR, up 1.4% on the week."},
};

#define NOTE_COUNT (sizeof notes / sizeof notes[0])

RESEARCH_TOOLGOV_HANDLER(research, call, args, out)
{
    size_t i, found = 0;

    (void)call;
    for (i = 0; i < NOTE_COUNT; i++) {
        if (!exworld_words_match(notes[i].topic, args->query.ptr, args->query.len, 3))
            continue;
        if (toolgov_result_printf(out, "- [%s] %s\n", notes[i].date, notes[i].note))
            return TOOLGOV_ENOMEM;
        found++;
    }
    if (!found)
        return toolgov_result_printf(out, "Nothing in the research snapshot of %s matches '%.*s'.",
                                     SNAPSHOT_DATE, (int)args->query.len, args->query.ptr)
                   ? TOOLGOV_ENOMEM : 0;
    return toolgov_result_printf(out, "(snapshot of %s; today is %s)\n", SNAPSHOT_DATE,
                                 EXWORLD_TODAY)
               ? TOOLGOV_ENOMEM : 0;
}
