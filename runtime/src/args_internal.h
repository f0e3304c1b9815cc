/* SPDX-License-Identifier: MIT */
/*
** args_internal.h: what the argument decoder's modules share (args.c walks
** the schema, args_format.c checks formats) and what the run uses.
** Ownership: functions here borrow their arguments and allocate nothing.
*/
#ifndef TOOLGOV_ARGS_INTERNAL_H
#define TOOLGOV_ARGS_INTERNAL_H

#include <stddef.h>

#include "toolgov/args.h"

/* 1 when the `len` bytes of well-formed UTF-8 at s satisfy format f
** (TOOLGOV_FORMAT_NONE: always). */
int toolgov__args_format_ok(toolgov_arg_format f, const char *s, size_t len);
/* "a date (YYYY-MM-DD)" and so on, for messages. Static. */
const char *toolgov__args_format_desc(toolgov_arg_format f);

#endif /* TOOLGOV_ARGS_INTERNAL_H */
