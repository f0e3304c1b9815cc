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

/* How a run's diagnostics are written (--diagnostics-format). */
enum toolgov__diag_format {
    TOOLGOV_DIAG_TEXT,  /* FILE:LINE:COL: error: ..., as they come */
    TOOLGOV_DIAG_JSON,  /* one JSON array at the end, GCC's shape */
    TOOLGOV_DIAG_SARIF  /* one SARIF 2.1.0 log at the end */
};

typedef struct toolgov__diag_record toolgov__diag_record; /* private */

typedef struct toolgov__diag {
    FILE *sink;          /* where diagnostics go (stderr in the tool) */
    size_t max_errors;   /* 0 means no cap */
    size_t errors;       /* errors reported, printed or not */
    size_t warnings;
    int suppressing;     /* the last error was over the cap: drop its notes */
    /* Presentation: set by the program after init; the defaults are plain
    ** text without colour or source lines, which is what tests compare. */
    enum toolgov__diag_format format;
    int color;           /* ANSI colours in text (a terminal, --color) */
    int show_source;     /* text: the source line and a caret under the column */
    FILE *machine_sink;  /* JSON/SARIF: written here by finish (NULL: sink) */
    const char *tool_name;    /* SARIF driver name and version */
    const char *tool_version;
    /* private */
    char *src_path_, *src_;   /* one file's text, for source lines */
    size_t src_len_;
    toolgov__diag_record *recs_;
    size_t nrec_, caprec_;
    long parent_;             /* record a note belongs to, or -1 */
    int lost_;                /* a record could not be kept (out of memory) */
} toolgov__diag;

void toolgov__diag_init(toolgov__diag *d, FILE *sink, size_t max_errors);

/* The text of `path` (len bytes), so text diagnostics at a line of it can
** show that line with a caret. Copied when show_source is on (replacing any
** earlier file), ignored otherwise. */
void toolgov__diag_source(toolgov__diag *d, const char *path, const char *text, size_t len);

/* The presentation options a command line gives: "--color" values auto,
** always, never (auto: colour when `fd` is a terminal and NO_COLOR is not
** set); "--diagnostics-format" values text, json, sarif. 0, or -1 for a
** value that is none of those. */
int toolgov__diag_parse_color(const char *value, int fd, int *out);
int toolgov__diag_parse_format(const char *value, enum toolgov__diag_format *out);

/* Apply a command line's --color, --caret (auto|always|never: the source
** line and a caret under the column; auto: on a terminal) and
** --diagnostics-format values (NULL: the default, auto/auto/text) to a diag
** whose sink is the stream of file descriptor `fd`. 0, or -1 with a message
** for the user in err (256 bytes). */
int toolgov__diag_configure(toolgov__diag *d, int fd, const char *color, const char *caret,
                            const char *format, char err[256]);

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

/* Print "N more errors not shown" when the cap was hit (text), or write the
** JSON/SARIF document; release what the diag holds. Returns d->errors. */
size_t toolgov__diag_finish(toolgov__diag *d);

/* The candidate closest to `word` by edit distance when it is close enough to
** be a likely misspelling (distance <= max(1, strlen(word) / 3)), else NULL.
** Only ever called on the error path. Borrowed from `candidates`. */
const char *toolgov__suggest(const char *word, const char *const *candidates,
                             size_t n);

#endif /* TOOLGOV_GEN_DIAG_H */
