/* SPDX-License-Identifier: MIT */
/*
** codegen.h: render a validated manifest as C (SPEC section 2). Writing the
** files is fileio's job (generate.h joins the two).
**
** The rendering is pure: the same manifest gives the same bytes, with no
** time and no directory in them. docs/generated-code.md describes the output.
**
** Ownership: a toolgov__buf owns its data (free with toolgov__buf_free);
** the manifest is borrowed.
*/
#ifndef TOOLGOV_GEN_CODEGEN_H
#define TOOLGOV_GEN_CODEGEN_H

#include <stddef.h>

#include "diag.h"
#include "manifest.h"

typedef struct toolgov__buf {
    char *data;  /* not NUL-terminated; NULL while empty */
    size_t len;
    size_t cap;
    int oom;     /* an append failed: the content is incomplete */
} toolgov__buf;

void toolgov__buf_init(toolgov__buf *b);
void toolgov__buf_free(toolgov__buf *b);

/* Appenders for the renderers of other modules (schema_c.c). A failed
** allocation sets b->oom and later appends do nothing. */
void toolgov__buf_put(toolgov__buf *b, const char *s, size_t n);
void toolgov__buf_printf(toolgov__buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* s[0..n) as a C string literal (codegen.c's escaping rules); after an
** inner newline the literal continues on a new line that starts with
** `indent`. Only for n <= 4095 (C99's longest literal). */
void toolgov__buf_literal(toolgov__buf *b, const char *s, size_t n, const char *indent);
/* s[0..n) as the body of a brace-initialized char array, NUL included,
** closed with "};" (for strings too long for a literal). */
void toolgov__buf_char_array(toolgov__buf *b, const char *s, size_t n);

/* Render <name>.toolgov.h into *h and <name>.toolgov.c into *c (both
** initialized by the caller and appended to). 0, or TOOLGOV_ENOMEM. */
int toolgov__codegen_render(toolgov__buf *h, toolgov__buf *c, const toolgov__manifest *m);

#endif /* TOOLGOV_GEN_CODEGEN_H */
