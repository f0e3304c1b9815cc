/*
** diag.h: GCC-style diagnostics for toolgov-gen (generator and drift check).
**
** Every problem is printed as `FILE:LINE:COL: error: message` (or `warning:`,
** `note:`) to the sink given at init. Errors are counted; after `max_errors`
** of them further errors are counted but not printed, and
** toolgov__diag_finish() prints how many were left out. Notes and warnings
** attached to a suppressed error are suppressed too.
**
** Ownership: the struct is the caller's (usually on the stack); `file`
** strings passed to the report functions are borrowed for the call only.
*/
#ifndef TOOLGOV_GEN_DIAG_H
#define TOOLGOV_GEN_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef struct toolgov__diag {
    FILE *sink;          /* where diagnostics go (stderr in the tool) */
    size_t max_errors;   /* 0 means no cap */
    size_t errors;       /* errors reported, printed or not */
    size_t warnings;
    int suppressing;     /* the last error was over the cap: drop its notes */
} toolgov__diag;

void toolgov__diag_init(toolgov__diag *d, FILE *sink, size_t max_errors);

/* line/col are 1-based; col 0 prints FILE:LINE:, line 0 prints FILE: only. */
void toolgov__diag_error(toolgov__diag *d, const char *file, unsigned line,
                         unsigned col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void toolgov__diag_warning(toolgov__diag *d, const char *file, unsigned line,
                           unsigned col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void toolgov__diag_note(toolgov__diag *d, const char *file, unsigned line,
                        unsigned col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Print "N more errors not shown" when the cap was hit. Returns d->errors. */
size_t toolgov__diag_finish(toolgov__diag *d);

/* The candidate closest to `word` by edit distance when it is close enough to
** be a likely misspelling (distance <= max(1, strlen(word) / 3)), else NULL.
** Only ever called on the error path. Borrowed from `candidates`. */
const char *toolgov__suggest(const char *word, const char *const *candidates,
                             size_t n);

#endif /* TOOLGOV_GEN_DIAG_H */
