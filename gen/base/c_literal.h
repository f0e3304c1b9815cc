/* SPDX-License-Identifier: MIT */
/*
** c_literal.h: manifest text spelt as C, for every renderer of generated C
** (emit/codegen.c, schema/schema_c.c).
**
** Every manifest string is written as a C string literal in which
** only printable ASCII stands for itself: quote, backslash, newline, tab and
** CR use their short escapes, '?' becomes \? (so no "??=" trigraph forms in
** a C99 compiler), and every other byte (controls, and all bytes of a
** multi-byte UTF-8 character) is a three-digit octal escape, which can never
** swallow the character after it the way a \x escape can. A string of more
** than 4095 bytes (C99's minimum limit, which gcc -Wpedantic enforces with
** -Woverlength-strings) is written as a brace-initialized char array
** instead. No manifest string is ever put inside a comment.
**
** Ownership: appends to the caller's buffer; s is borrowed.
*/
#ifndef TOOLGOV_GEN_BASE_C_LITERAL_H
#define TOOLGOV_GEN_BASE_C_LITERAL_H

#include <stddef.h>

#include "base/buf.h"

/* s[0..n) as a C string literal; after an inner newline the literal
** continues on a new line that starts with `indent`. Only for n <= 4095
** (C99's longest literal). */
void toolgov__buf_literal(toolgov__buf *b, const char *s, size_t n, const char *indent);

/* s[0..n) as the body of a brace-initialized char array, NUL included,
** closed with "};" (for strings too long for a literal). */
void toolgov__buf_char_array(toolgov__buf *b, const char *s, size_t n);

#endif /* TOOLGOV_GEN_BASE_C_LITERAL_H */
