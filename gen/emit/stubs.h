/* SPDX-License-Identifier: MIT */
/*
** stubs.h: handler skeletons for `toolgov-gen stubs`: one definition per
** declared tool in the handler form of contract.h, headed by a comment with
** the tool's effect and the first line of its description, returning
** TOOLGOV_EHANDLER until the author writes the body.
**
** Ownership: writes into the caller's buffer; the manifest is borrowed.
*/
#ifndef TOOLGOV_GEN_STUBS_H
#define TOOLGOV_GEN_STUBS_H

#include <stddef.h>

#include "manifest/manifest.h"

/* The skeleton of t's handler into out[0..cap) (NUL-terminated when cap >
** 0), like snprintf: returns the length it needs. */
size_t toolgov__handler_stub(char *out, size_t cap, const toolgov__manifest *m,
                             const toolgov__tool_decl *t);

#endif /* TOOLGOV_GEN_STUBS_H */
