/* SPDX-License-Identifier: MIT */
/*
** diag.h: GCC-style diagnostics for toolgov-gen (generator and drift check).
**
** Every problem is printed as `FILE:LINE:COL: error: message` (or `warning:`,
** `note:`) to the sink given at init. Errors are counted; after `max_errors`
** of them further errors are counted but not printed, and
** toolgov__diag_finish() prints how many were left out. Notes and warnings
** attached to a suppressed error are suppressed too.
**
** Diagnostics own positions: a toolgov__mark is a 1-based line:column as
** libyaml and libclang report them, and every module that reports a place
** passes one (or a line and column) here. There is one formatter: each
** message is formatted once into a buffer of TOOLGOV_DIAG_MSG_MAX bytes (a
** longer one is cut on a UTF-8 character boundary), and not formatted at all
** when it is over the --max-errors cap, so a hostile file with millions of
** errors costs a count each.
**
** Ownership: the struct is the caller's (usually on the stack); `file`
** strings passed to the report functions are borrowed for the call only.
*/
#ifndef TOOLGOV_GEN_DIAG_H
#define TOOLGOV_GEN_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* A place in a file: 1-based line and column (columns count characters). */
typedef struct toolgov__mark {
    unsigned line; /* 1-based; 0: the whole file */
    unsigned col;  /* 1-based; 0: the whole line */
} toolgov__mark;

/* The longest message text printed, in bytes, terminating NUL included. */
#define TOOLGOV_DIAG_MSG_MAX 4096u

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

/* The same at a mark: the form every loader and checker uses. */
void toolgov__diag_error_at(toolgov__diag *d, const char *file, toolgov__mark at,
                            const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void toolgov__diag_note_at(toolgov__diag *d, const char *file, toolgov__mark at,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The va_list forms, for modules with a reporting function of their own
** (a reader names its file once). */
void toolgov__diag_verror_at(toolgov__diag *d, const char *file, toolgov__mark at,
                             const char *fmt, va_list ap);
void toolgov__diag_vnote_at(toolgov__diag *d, const char *file, toolgov__mark at,
                            const char *fmt, va_list ap);

/* 1 when the next error would be over the cap (counted, not printed):
** callers skip work that only serves the message, such as suggestions. */
int toolgov__diag_over_cap(const toolgov__diag *d);

/* Print "N more errors not shown" when the cap was hit. Returns d->errors. */
size_t toolgov__diag_finish(toolgov__diag *d);

/* The candidate closest to `word` by edit distance when it is close enough to
** be a likely misspelling (distance <= max(1, strlen(word) / 3)), else NULL.
** Only ever called on the error path. Borrowed from `candidates`. */
const char *toolgov__suggest(const char *word, const char *const *candidates,
                             size_t n);

#endif /* TOOLGOV_GEN_DIAG_H */
