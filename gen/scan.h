/*
** scan.h: the libclang half of the drift check.
**
** toolgov__scan_run() parses every source of one plugin in one process
** (loading libclang costs more than parsing a file), on worker threads when
** there are several sources, with a full
** parse (SkipFunctionBodies would hide every call) and KeepGoing (so a fatal
** error does not hide later diagnostics), and collects three things:
**
**   - handlers: function *definitions* carrying the annotation
**     "toolgov:tool:<name>" that TOOLGOV_HANDLER() puts on them under clang.
**     Placed at the expansion location, so a handler made by a macro points
**     at the macro's use; de-duplicated by USR and place, so a handler
**     defined in a header that two sources include counts once, and an
**     annotated prototype plus its definition count once. Definitions
**     without the annotation whose name contains "_tool_" are kept too,
**     with no tool name, so a handler written without the macro can be
**     pointed at instead of only being "missing";
**   - registrations: calls of toolgov_register_tool() and
**     toolgov_declare_tool(), with the name argument evaluated by clang (so
**     "a" "b" and #name from a macro are literals too) or NULL when the
**     name is computed at run time;
**   - clang's error and fatal diagnostics (with their notes), and every file
**     a translation unit read, for the depfile.
**
** Code in system headers is not looked at. Nothing is printed here: the
** caller decides how to report (check.c prints, the tests inspect).
**
** Ownership: a toolgov__scan and every string in it belong to the scan and
** are freed together by toolgov__scan_free(). The argument arrays are
** borrowed for the call only.
*/
#ifndef TOOLGOV_GEN_SCAN_H
#define TOOLGOV_GEN_SCAN_H

#include <stddef.h>

/* The annotation prefix the handler macro writes; the tool name follows. */
#define TOOLGOV_SCAN_ANNOTATION "toolgov:tool:"

typedef struct toolgov__loc {
    const char *file; /* as clang opened it (absolute when given absolute) */
    unsigned line;    /* 1-based; 0 when unknown */
    unsigned col;     /* 1-based; 0 when unknown */
} toolgov__loc;

typedef struct toolgov__handler {
    const char *tool;     /* the name after "toolgov:tool:"; NULL for a plain
                          ** definition whose name contains "_tool_" (a
                          ** handler written without the macro, maybe) */
    const char *function; /* the C function's name */
    toolgov__loc at;      /* expansion location of the definition */
} toolgov__handler;

typedef struct toolgov__registration {
    const char *callee; /* "toolgov_register_tool" or "toolgov_declare_tool" */
    const char *name;   /* the name's value, or NULL when computed */
    toolgov__loc at;    /* the name argument (expansion location) */
} toolgov__registration;

typedef enum toolgov__clang_severity {
    TOOLGOV__CLANG_ERROR = 0, /* error or fatal */
    TOOLGOV__CLANG_NOTE = 1   /* a note attached to the error before it */
} toolgov__clang_severity;

typedef struct toolgov__clang_diag {
    toolgov__clang_severity severity;
    toolgov__loc at;      /* file NULL: no location (e.g. a bad argument) */
    const char *message;
    const char *source;   /* the source whose parse produced it */
} toolgov__clang_diag;

typedef struct toolgov__scan {
    toolgov__handler *handlers;         /* in the order first seen */
    size_t handler_count;
    toolgov__registration *registrations;
    size_t registration_count;
    toolgov__clang_diag *diags;         /* errors and their notes, in order */
    size_t diag_count;
    size_t parse_errors;                /* diags of severity ERROR */
    const char **files;                 /* every file read, no duplicates */
    size_t file_count;
    void *priv_;                        /* private: ownership bookkeeping */
} toolgov__scan;

/* Parse `sources` with the compiler arguments `args` (include dirs,
** definitions, -std=...; not the sources) and fill *out with a new scan.
** Up to `jobs` sources are parsed at once on worker threads (0: one per
** online CPU, at most 8; 1: no threads); the result does not depend on it.
** A source that does not parse is not a failure of this call: it shows up as
** parse_errors > 0 with clang's diagnostics. Returns 0, TOOLGOV_EINVAL (no
** sources, NULL arguments) or TOOLGOV_ENOMEM (*out untouched). */
int toolgov__scan_run(toolgov__scan **out, const char *const *args, size_t nargs,
                      const char *const *sources, size_t nsources, unsigned jobs);

/* Free a scan and every string in it. NULL is a no-op. */
void toolgov__scan_free(toolgov__scan *s);

#endif /* TOOLGOV_GEN_SCAN_H */
