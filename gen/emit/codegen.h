/* SPDX-License-Identifier: MIT */
/*
** codegen.h: render a validated manifest as C (SPEC section 2). Writing the
** files is fileio's job (generate.h joins the two).
**
** The rendering is pure: the same manifest gives the same bytes, with no
** time and no directory in them. docs/generated-code.md describes the output.
**
** Ownership: the caller owns the buffers (buf.h); the manifest is borrowed.
*/
#ifndef TOOLGOV_GEN_CODEGEN_H
#define TOOLGOV_GEN_CODEGEN_H

#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "manifest/manifest.h"

/* C spellings for the renderers of other modules (schema_c.c), appended to
** a toolgov__buf (buf.h). */
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
