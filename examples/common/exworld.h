/* SPDX-License-Identifier: MIT */
/*
** exworld.h: the small, fixed world the example plugins describe.
**
** The examples answer from built-in data so the demo and the tests are
** reproducible on any machine: one fixed "today", a few calendar events and
** bills. Calendar, finance and planner all read this one table, so a day's
** plan agrees with the calendar and the bills it merges. The data is const;
** what a run changes (reminders, trashed mail, the brief's sections) lives in
** each plugin's own state struct, passed as the plugin context at mount.
**
** Ownership: everything here is static and const.
**
** The plugins never parse their arguments: each tool declares them in its
** manifest (`parameters:`), the runtime decodes and validates every call
** against that schema before the handler runs, and the handler reads the
** typed struct. What a schema cannot say (a range of at most 31 days, a
** ticker the user does not hold) the handler refuses with exworld_refuse().
*/
#ifndef TOOLGOV_EXAMPLES_EXWORLD_H
#define TOOLGOV_EXAMPLES_EXWORLD_H

#include <stdarg.h>
#include <stddef.h>

#include <toolgov/toolgov.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The demo's "today": a Tuesday. */
#define EXWORLD_TODAY "2026-12-01"

typedef struct exworld_event {
    const char *date;   /* YYYY-MM-DD */
    const char *start;  /* HH:MM */
    const char *end;    /* HH:MM */
    const char *title;
    const char *place;
} exworld_event;

typedef struct exworld_bill {
    const char *name;
    const char *payee;
    const char *due;    /* YYYY-MM-DD */
    long cents;         /* amount due, in euro cents */
    int autopay;        /* 1 when it is paid automatically */
} exworld_bill;

extern const exworld_event exworld_events[];
extern const size_t exworld_event_count;
extern const exworld_bill exworld_bills[];
extern const size_t exworld_bill_count;

/* Parse "YYYY-MM-DD" into a day number (days since 1970-01-01, proleptic
** Gregorian). 0 on success, -1 when the text is not a real date.
**
** Strings from a call (a toolgov_str) are read with their length: the
** functions that take one take (ptr, len), never ptr alone as C text, the
** habit SPEC §9 and the manifest reference ask of every handler. */
int exworld_parse_date(const char *text, long *out);
int exworld_parse_date_n(const char *text, size_t len, long *out);
/* Write the date of day number `day` as "YYYY-MM-DD" into out[11]. */
void exworld_format_date(long day, char out[11]);
/* Day of the week of a day number as an English name ("Tuesday"). Static. */
const char *exworld_weekday(long day);
/* Check "HH:MM" (24-hour). 0 when valid, -1 otherwise. */
int exworld_check_time(const char *text);
/* Case-insensitive substring test; an empty needle matches. The _n form
** reads `len` bytes of the needle (a NUL among them never matches). */
int exworld_contains(const char *hay, const char *needle);
int exworld_contains_n(const char *hay, const char *needle, size_t len);
/* 1 when some word of `query` (a run of letters and digits, at least
** min_len long; a plural 's' dropped when the word is longer than that)
** occurs in `hay`, case-insensitively: the plain keyword match the
** examples' search tools use. `query` is query_len bytes. */
int exworld_words_match(const char *hay, const char *query, size_t query_len, size_t min_len);

/* Replace the result with "error: <tool>: <message>" for a call whose
** arguments match the tool's parameters but ask for something this world
** does not have, and return TOOLGOV_EUSAGE (TOOLGOV_ENOMEM when the message
** cannot be written). */
int exworld_refuse(toolgov_result *out, const char *tool, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_EXAMPLES_EXWORLD_H */
