/* SPDX-License-Identifier: MIT */
/*
** names.h: the rules for plugin names, tool names and provides entries.
**
** Names become parts of C identifiers in the generated code
** (calendar_Handler_create_reminder, CALENDAR_TOOLGOV_HANDLER; contract.h
** has the shapes), so they match [a-z][a-z0-9_]*, are at most 64 bytes, are
** not C or C++ keywords (the generated header is also compiled as C++), hold
** no "__"; a plugin name does not start with "toolgov" nor end in "_".
** Provides entries follow only the pattern and the length.
*/
#ifndef TOOLGOV_GEN_NAMES_H
#define TOOLGOV_GEN_NAMES_H

#include <stddef.h>

#include "base/diag.h"

/* The longest plugin or tool name, in bytes. */
#define TOOLGOV_NAME_MAX 64u

enum toolgov__name_kind { TOOLGOV_NAME_PLUGIN, TOOLGOV_NAME_TOOL, TOOLGOV_NAME_PROVIDES };

/* 0 when s[0..len) is a good name of that kind; otherwise one error at `at`
** (as `path`:LINE:COL, saying which rule and how to fix it) and -1. A good
** name costs one pass and no formatting. */
int toolgov__name_check(toolgov__diag *d, const char *path, toolgov__mark at, const char *s,
                        size_t len, enum toolgov__name_kind kind);

#endif /* TOOLGOV_GEN_NAMES_H */
