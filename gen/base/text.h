/* SPDX-License-Identifier: MIT */
/*
** text.h: a manifest as bytes, before and around YAML: the check that it is
** text a manifest may hold, byte offsets turned into line:column, and short
** printable excerpts of user text for messages.
**
** Ownership: buffers are borrowed for the call; toolgov__text_show() writes
** into the caller's array and returns it.
*/
#ifndef TOOLGOV_GEN_TEXT_H
#define TOOLGOV_GEN_TEXT_H

#include <stddef.h>

#include "base/diag.h"

/* A position moving forward through a buffer. Columns count characters
** (code points), like libyaml's marks; CRLF, a lone CR, LF, U+2028 and U+2029
** each end a line, as in libyaml; a leading UTF-8 BOM is not a column. */
typedef struct toolgov__text_pos {
    size_t off;
    unsigned line, col;
} toolgov__text_pos;

void toolgov__text_pos_init(toolgov__text_pos *p, const unsigned char *buf, size_t len);

/* Advance p to byte `target` (never backwards) and return its line:column,
** so reporting many offsets in file order stays linear. */
toolgov__mark toolgov__text_pos_to(toolgov__text_pos *p, const unsigned char *buf, size_t len,
                                   size_t target);

/* libyaml's marks count characters, not bytes: a mark's index is the
** number of code points before it (after a leading BOM, which is not
** counted). A cursor turns such an index into a byte offset of the
** buffer; it moves both ways, one character at a time (eight at a time
** over ASCII), so offsets asked for in file order stay linear. The buffer
** must be UTF-8 (toolgov__text_check accepted it). */
typedef struct toolgov__text_chars {
    size_t ch;  /* the character index of ... */
    size_t off; /* ... this byte offset */
} toolgov__text_chars;

void toolgov__text_chars_init(toolgov__text_chars *c, const unsigned char *buf, size_t len);

/* The byte offset of character `index` (len when beyond the end). */
size_t toolgov__text_chars_to(toolgov__text_chars *c, const unsigned char *buf, size_t len,
                              size_t index);

/* Report (as `path`:LINE:COL errors to d) every line holding a byte a
** manifest must not contain: invalid UTF-8, NUL, control characters other
** than tab, CR and LF (C1 controls included), U+FFFE/U+FFFF, or a UTF-16
** byte order mark. Returns the number of problems reported. */
size_t toolgov__text_check(toolgov__diag *d, const char *path, const unsigned char *buf,
                           size_t len);

#define TOOLGOV_SHOW_MAX 96

/* A printable excerpt of s[0..len) for a message: control bytes escaped as
** \xHH, cut after about 60 bytes on a UTF-8 boundary with "...". */
const char *toolgov__text_show(char out[TOOLGOV_SHOW_MAX], const char *s, size_t len);

#endif /* TOOLGOV_GEN_TEXT_H */
