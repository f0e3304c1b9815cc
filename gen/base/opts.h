/* SPDX-License-Identifier: MIT */
/*
** opts.h: the one option parser of toolgov-gen and toolgov-gen-check.
**
** Every option that takes a value accepts both `--opt VALUE` and
** `--opt=VALUE`; a flag given a value (`--help=x`) is refused. Values are
** either text (non-empty unless the table says so) or a count: a decimal
** number, no sign, at most the table's limit. `-h` is --help and `-V`
** --version in both programs. What a program does with an option (and the
** order of its commands) stays in the program; this module only matches
** and converts, so the two command lines cannot drift apart again.
**
** Ownership: the table, argv and the values stored (pointers into argv) are
** the caller's.
*/
#ifndef TOOLGOV_GEN_OPTS_H
#define TOOLGOV_GEN_OPTS_H

#include <stddef.h>

enum toolgov__opt_kind {
    TOOLGOV_OPT_TEXT,       /* a non-empty string */
    TOOLGOV_OPT_TEXT_EMPTY, /* a string, possibly empty */
    TOOLGOV_OPT_COUNT       /* a number 0..max */
};

typedef struct toolgov__opt {
    const char *name;            /* "--manifest" */
    enum toolgov__opt_kind kind;
    const char **text;           /* TEXT: where the value goes */
    size_t *count;               /* COUNT: where the number goes */
    size_t max;                  /* COUNT: the largest value; 0: no limit */
} toolgov__opt;

/* The length of the message buffer toolgov__opt_take() fills. */
#define TOOLGOV_OPT_ERR_MAX 256

/* Match argv[*i] against opts[0..n). 1: taken (the value stored, *i moved
** past a separate value); 0: not an option of the table; -1: misuse, with a
** message such as "--jobs wants a number from 0 to 64, not '65'" in err. */
int toolgov__opt_take(const toolgov__opt *opts, size_t n, int argc, char **argv, int *i,
                      char err[TOOLGOV_OPT_ERR_MAX]);

/* 1 when a is -h or --help; 1 when a is -V or --version. */
int toolgov__opt_is_help(const char *a);
int toolgov__opt_is_version(const char *a);

#endif /* TOOLGOV_GEN_OPTS_H */
