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

/* Render <name>.toolgov.h into *h and <name>.toolgov.c into *c (both
** initialized by the caller and appended to). 0, or TOOLGOV_ENOMEM. */
int toolgov__codegen_render(toolgov__buf *h, toolgov__buf *c, const toolgov__manifest *m);

#endif /* TOOLGOV_GEN_CODEGEN_H */
