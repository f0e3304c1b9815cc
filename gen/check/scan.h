/* SPDX-License-Identifier: MIT */
/*
** scan.h: the libclang half of the drift check.
**
** toolgov__scan_run() parses every source of one plugin in one process
** (loading libclang costs more than parsing a file), on worker threads when
** there are several sources (parse_parallel.c), with a full parse
** (SkipFunctionBodies would hide every call) and KeepGoing (so a fatal
** error does not hide later diagnostics), and walks every declaration and
** every function body of C and C++ (members, constructors, destructors,
** templates, class-scope initialisers, lambdas) outside the compiler's own
** system directories. It collects:
**
**   - handlers: every declaration carrying the annotation
**     "toolgov:tool:<name>" that the plugin's handler macro puts on a
**     definition under clang (function definitions, and anything else a
**     hand-written annotate() was put on), and function definitions whose
**     name contains "_tool_" without it, so a handler written without the
**     macro can be pointed at. For each: the linker symbol (asm labels and
**     C++ mangling applied), whether it is a plain function definition,
**     whether the plugin's generated header declares that symbol with the
**     same type in the same translation unit, and the translation unit and
**     #include through which it was reached. Placed at the expansion
**     location, so a handler made by a macro points at the macro's use. One
**     entry per place and translation unit: a handler in a header that two
**     sources include appears twice, once per source;
**   - registrations: calls of toolgov_register_tool() and
**     toolgov_declare_tool(), with the name argument evaluated by clang (so
**     "a" "b" and #name from a macro are literals too) or NULL when the
**     name is computed at run time, and any other use of those functions
**     (taking their address), which the check cannot follow;
**   - clang's error and fatal diagnostics (with their notes), and every file
**     a translation unit read, for the depfile.
**
** What is skipped: declarations in headers that clang calls system headers
** AND that lie under the compiler's own directories (/usr/include,
** /usr/local/include, /usr/lib/gcc, /usr/lib/llvm-*, clang's resource
** directory, and those under a --sysroot/-isysroot); a project header
** reached through -isystem, a line marker or #pragma GCC system_header is
** read like any other. A file that includes the plugin's generated header,
** the generated header itself, and a file that defines an annotated
** function are never skipped.
**
** Nothing is printed here: the caller decides how to report (check.c
** prints, the tests inspect).
**
** Ownership: a toolgov__scan and every string in it belong to the scan and
** are freed together by toolgov__scan_free(). The argument arrays and the
** options are borrowed for the call only.
*/
#ifndef TOOLGOV_GEN_SCAN_H
#define TOOLGOV_GEN_SCAN_H

#include <stddef.h>

#include "base/contract.h"

/* The annotation prefix the handler macro writes; the tool name follows. */
#define TOOLGOV_SCAN_ANNOTATION TOOLGOV_ANNOTATION_PREFIX /* contract.h */

typedef struct toolgov__loc {
    const char *file; /* as clang opened it (absolute when given absolute) */
    unsigned line;    /* 1-based; 0 when unknown */
    unsigned col;     /* 1-based; 0 when unknown */
} toolgov__loc;

/* What a handler entry is; flags of toolgov__handler. */
enum {
    TOOLGOV__HANDLER_DEFINITION = 1u, /* a function with its body here */
    TOOLGOV__HANDLER_FUNCTION = 2u,   /* a plain function at file or namespace
                                      ** scope (not a member, template,
                                      ** variable or type) */
    TOOLGOV__HANDLER_PROTOTYPED = 4u, /* the plugin's generated header declares
                                      ** the same function with the same type
                                      ** in this translation unit */
    TOOLGOV__HANDLER_CXX_INLINE = 8u  /* an inline C++ function: one definition
                                      ** per translation unit is allowed */
};

typedef struct toolgov__handler {
    const char *tool;     /* the name after "toolgov:tool:"; NULL for a plain
                          ** definition whose name contains "_tool_" (a
                          ** handler written without the macro, maybe) */
    const char *function; /* the declaration's name as written */
    const char *symbol;   /* the linker symbol of a function (asm label or
                          ** C++ mangling applied); NULL for a non-function */
    toolgov__loc at;      /* expansion location of the declaration */
    const char *source;   /* the translation unit it was seen in */
    toolgov__loc via;     /* the #include in `source` through which at.file
                          ** was reached; file NULL when at.file is source */
    unsigned flags;       /* TOOLGOV__HANDLER_* */
} toolgov__handler;

typedef struct toolgov__registration {
    const char *callee; /* "toolgov_register_tool" or "toolgov_declare_tool" */
    const char *name;   /* the name's value, or NULL when computed */
    toolgov__loc at;    /* the name argument (expansion location) */
    int indirect;       /* 1: not a call but another use of the function
                        ** (its address taken), at the use; name NULL */
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

/* A source that uses a handler macro without including the plugin's
** generated header (clang then sees a function named after the macro, and
** reports errors that do not say what is missing). */
typedef struct toolgov__headerless {
    const char *source;
    toolgov__loc at; /* the first use of the macro */
} toolgov__headerless;

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
    toolgov__headerless *headerless;    /* with a plugin name only */
    size_t headerless_count;
    void *priv_;                        /* private: ownership bookkeeping */
} toolgov__scan;

typedef struct toolgov__scan_opts {
    const char *plugin; /* the plugin's name: its generated header is
                        ** "<plugin>.toolgov.h"; NULL: no plugin (no handler
                        ** is then PROTOTYPED) */
    unsigned jobs;      /* sources parsed at once on worker threads (0: one
                        ** per online CPU, at most 8; 1: no threads); the
                        ** result does not depend on it */
    const char *const *const *source_args; /* NULL, or per source: arguments
                        ** of that source only, after the common ones (its
                        ** own definitions, a -x, its language's -std=) */
    const size_t *source_nargs; /* their counts (with source_args) */
} toolgov__scan_opts;

/* Parse `sources` with the compiler arguments `args` (include dirs,
** definitions, -std=...; not the sources) and fill *out with a new scan.
** `opts` may be NULL (no plugin, default jobs).
** A source that does not parse is not a failure of this call: it shows up as
** parse_errors > 0 with clang's diagnostics. Returns 0, TOOLGOV_EINVAL (no
** sources, NULL arguments) or TOOLGOV_ENOMEM (*out untouched). */
int toolgov__scan_run(toolgov__scan **out, const char *const *args, size_t nargs,
                      const char *const *sources, size_t nsources,
                      const toolgov__scan_opts *opts);

/* Free a scan and every string in it. NULL is a no-op. */
void toolgov__scan_free(toolgov__scan *s);

#endif /* TOOLGOV_GEN_SCAN_H */
