/* SPDX-License-Identifier: MIT */
/*
** out.h: the snprintf-style writer every renderer uses (toolgov.h,
** "Renderers"): it writes into the caller's bytes, never past them, and
** counts what the whole text needs, so a sizing call (size 0) and a call cut
** short (TOOLGOV_ENOSPC) both report the length to retry with.
**
** Internal (toolgov__ names). Compiled into libtoolgov and into toolgov-gen
** (which renders the tool lists of export through tooljson.c). No
** allocation, no state beyond the writer the caller holds.
*/
#ifndef TOOLGOV_OUT_H
#define TOOLGOV_OUT_H

#include <stddef.h>

typedef struct toolgov__out {
    char *buf;
    size_t size;   /* capacity including the NUL */
    size_t len;    /* length the full text needs so far */
} toolgov__out;

void toolgov__out_init(toolgov__out *o, char *buf, size_t size);
void toolgov__out_put(toolgov__out *o, const char *s, size_t n);
void toolgov__out_str(toolgov__out *o, const char *s);
/* A number in decimal (jsonwrite.h's printer). */
void toolgov__out_u64(toolgov__out *o, unsigned long long v);
void toolgov__out_hex64(toolgov__out *o, unsigned long long v);
/* A JSON string with its quotes (NULL: null), written by jsonwrite.h's one
** string writer: control bytes escaped, bytes that are not well-formed
** UTF-8 written as \ufffd, so the text is always valid JSON. */
void toolgov__out_json_str(toolgov__out *o, const char *s);
/* The same for len bytes (NUL included), and without the quotes. */
void toolgov__out_json_mem(toolgov__out *o, const char *s, size_t len);
void toolgov__out_json_chars(toolgov__out *o, const char *s, size_t len);
/* Text shown to a person (toolgov_text_shown, toolgov.h), and every
** one-line record: C0 control bytes, DEL and bytes that are not UTF-8
** written as \xNN; C1 controls (U+0080..U+009F), U+2028/U+2029 and every
** format character (Cf: bidi controls, zero widths, tags) as \uXXXX (or
** \UXXXXXXXX); a backslash as two; so a name with a line break (or a
** terminal escape, or a right-to-left override) cannot start a line of its
** own or reorder what is read, and a literal "\x0a" cannot pass for an
** escape. _line_str takes a NUL-terminated text. */
void toolgov__out_shown(toolgov__out *o, const char *s, size_t len);
void toolgov__out_line_str(toolgov__out *o, const char *s);
/* NUL-terminate, store *needed; 0 (also for a sizing call, size 0) or
** TOOLGOV_ENOSPC (size > 0 and the text was cut short). */
int toolgov__out_finish(toolgov__out *o, size_t *needed);

#endif /* TOOLGOV_OUT_H */
