/* SPDX-License-Identifier: MIT */
/*
** exargs.h: a strict, bounded reader for the flat JSON objects the example
** plugins take as tool arguments, and the usage message that answers a
** malformed one.
**
** A model writes tool arguments; nothing guarantees they are well formed. A
** handler therefore parses them with a reader that accepts exactly one JSON
** object whose values are strings, numbers, booleans or null (no nesting: no
** example tool needs it, and refusing it keeps the reader small and its
** memory bounded), checks them against the tool's argument list (unknown
** keys, wrong types and missing required keys are errors, not guesses), and
** on any problem writes a usage message into the result and returns
** TOOLGOV_EUSAGE. Nothing here allocates: an exargs_object holds the decoded
** strings in its own fixed buffer, so a handler keeps one on its stack.
**
** Ownership: every string an exargs_object hands out is borrowed from the
** object and lives as long as it does.
*/
#ifndef TOOLGOV_EXAMPLES_EXARGS_H
#define TOOLGOV_EXAMPLES_EXARGS_H

#include <stddef.h>

#include <toolgov/toolgov.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EXARGS_MAX_TEXT 4096u   /* longest argument text accepted, in bytes */
#define EXARGS_MAX_FIELDS 16u   /* most keys in one object */
#define EXARGS_MAX_NUMBER 40u   /* longest number literal */

typedef enum exargs_type {
    EXARGS_NULL = 0,
    EXARGS_STRING,
    EXARGS_NUMBER,  /* any JSON number */
    EXARGS_INT,     /* argument lists only: a number with no fraction */
    EXARGS_BOOL
} exargs_type;

typedef struct exargs_field {
    const char *key;    /* NUL-terminated; borrowed from the object */
    exargs_type type;   /* EXARGS_NULL, _STRING, _NUMBER or _BOOL */
    const char *str;    /* EXARGS_STRING: the decoded UTF-8, NUL-terminated */
    size_t str_len;
    double num;         /* EXARGS_NUMBER */
    int boolean;        /* EXARGS_BOOL: 0 or 1 */
} exargs_field;

typedef struct exargs_object {
    exargs_field fields[EXARGS_MAX_FIELDS];
    size_t count;
    char error[160];    /* what was wrong, when exargs_parse failed */
    size_t used;
    char buf[EXARGS_MAX_TEXT + EXARGS_MAX_FIELDS * 2u];
} exargs_object;

/* Parse `text` (len bytes, need not be NUL-terminated) as one flat JSON
** object. 0 on success; TOOLGOV_EUSAGE with out->error set otherwise (not
** an object, nested value, duplicate key, bad escape, invalid UTF-8, control
** byte, trailing text, too long, too many keys). `out` is overwritten. */
int exargs_parse(exargs_object *out, const char *text, size_t len);

/* One argument a tool takes. */
typedef struct exargs_spec {
    const char *key;
    exargs_type type;   /* EXARGS_STRING, _NUMBER, _INT or _BOOL */
    int required;
} exargs_spec;

/* Parse call->args and check them against `spec` (n entries): every key
** must be listed, of the listed type (null counts as absent), and every
** required key present and, for strings, not empty or blanks only. On
** failure the result is replaced by "error: <tool>: <what>\nusage: <tool>
** <usage>" and TOOLGOV_EUSAGE is returned; TOOLGOV_ENOMEM if even that cannot be
** written. `usage` describes the arguments, e.g. {"date": "YYYY-MM-DD"}. */
int exargs_read(exargs_object *obj, const toolgov_call *call,
                const exargs_spec *spec, size_t n, const char *usage,
                toolgov_result *out);

/* Replace the result with a usage message for a value that parsed but is
** not acceptable (a bad date, an unknown category), and return
** TOOLGOV_EUSAGE (TOOLGOV_ENOMEM when it cannot be written). */
int exargs_usage(toolgov_result *out, const char *tool, const char *usage,
                 const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The field named `key`, or NULL. A null value is reported as absent. */
const exargs_field *exargs_find(const exargs_object *obj, const char *key);
/* The string value of `key`, or `dflt` when absent. Borrowed. */
const char *exargs_str(const exargs_object *obj, const char *key, const char *dflt);
/* The numeric value of `key`, or `dflt` when absent. */
double exargs_num(const exargs_object *obj, const char *key, double dflt);
/* The integer value of `key` (checked integral by exargs_read), or `dflt`. */
long exargs_int(const exargs_object *obj, const char *key, long dflt);
/* The boolean value of `key`, or `dflt` when absent. */
int exargs_bool(const exargs_object *obj, const char *key, int dflt);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_EXAMPLES_EXARGS_H */
