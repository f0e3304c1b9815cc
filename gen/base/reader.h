/* SPDX-License-Identifier: MIT */
/*
** reader.h: the YAML event reader under every manifest walk (libyaml).
**
** A reader pulls libyaml events one at a time from a buffer that
** toolgov__text_check() has already accepted, and gives the walks above it
** (the manifest walk in manifest.c, the JSON Schema walk of a tool's
** parameters) the few moves they are written in: advance, look at the
** current event with its mark, skip a whole node, read a mapping key by key,
** read a scalar value, and report a problem at a mark. It knows YAML and
** nothing of what a manifest means.
**
** The walk convention. There is always one current event (r->ev). A walker
** is called with the first event of its node current (a MAPPING_START, a
** SEQUENCE_START or a SCALAR) and returns with the last event of that node
** current (the matching END, or the scalar itself), so the caller's next
** toolgov__reader_next_key() or toolgov__reader_next() continues after it.
** Functions returning int give 0 (or 1, as documented) to go on and -1 when
** the stream cannot go on (a YAML syntax error, a node nested too deep, out
** of memory): that was reported already and every walker returns -1 up.
**
** Anchors, aliases and tags are refused where they appear
** (toolgov__reader_check_props) and never resolved, so nothing expands. A
** collection found where it does not belong is skipped with a depth counter,
** never descended into, and at most TOOLGOV_READER_DEPTH_MAX deep.
**
** Errors go to the diag sink as `path:LINE:COL: error: ...`; the walk goes on
** after a reported error wherever the event stream allows it, and the caller
** decides from d->errors whether its result is usable.
**
** Ownership: the reader borrows path, the buffer and the diag for its whole
** life; the current event and the scalar text it holds are valid until the
** next call that advances. The reader allocates nothing of its own beyond
** libyaml's parser state, released by toolgov__reader_close().
*/
#ifndef TOOLGOV_GEN_READER_H
#define TOOLGOV_GEN_READER_H

#include <stddef.h>

#include <yaml.h>

#include "base/diag.h"
#include "base/text.h"

/* The deepest collection toolgov__reader_skip_node() walks through.
** libyaml's scanner does work proportional to the flow nesting depth for
** every token, so 100,000 nested '[' take minutes: stop long before that. */
#define TOOLGOV_READER_DEPTH_MAX 64u

typedef struct toolgov__reader {
    const char *path;         /* names the buffer in diagnostics */
    const unsigned char *buf; /* the whole manifest, already text-checked */
    size_t len;
    toolgov__diag *d;
    yaml_parser_t parser;
    yaml_event_t ev;          /* the current event, while have_ev */
    int have_ev;
    int failed;               /* the event stream cannot go on */
    int oom;                  /* out of memory was reported once */
    toolgov__text_chars chars; /* toolgov__reader_offset's cursor */
} toolgov__reader;

/* Set up a reader over buf[0..len). 0, or -1 after reporting out of memory. */
int toolgov__reader_open(toolgov__reader *r, const char *path, const unsigned char *buf,
                         size_t len, toolgov__diag *d);
void toolgov__reader_close(toolgov__reader *r);

/* Report an error or a note at a mark of this reader's file. */
void toolgov__reader_error(toolgov__reader *r, toolgov__mark at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void toolgov__reader_note(toolgov__reader *r, toolgov__mark at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Report "out of memory" once and stop the stream (later calls return -1). */
void toolgov__reader_oom(toolgov__reader *r);

/* Advance to the next event. 0, or -1 when the stream cannot go on (a
** libyaml error is reported at its line:column first). */
int toolgov__reader_next(toolgov__reader *r);

/* The byte offset in the buffer of a libyaml mark's index (which counts
** characters, not bytes: see toolgov__text_chars). */
size_t toolgov__reader_offset(toolgov__reader *r, size_t index);

/* Where the current event starts. */
toolgov__mark toolgov__reader_mark(const toolgov__reader *r);

/* "a scalar", "a sequence", "a mapping", "an alias" or "nothing": the
** current event's kind, for messages ("..., not a sequence"). */
const char *toolgov__reader_kind(const toolgov__reader *r);

/* Report an anchor, a tag or an alias on the current event. Call it once on
** every node's first event; an alias is then skipped by the caller (it has
** no value to read). */
void toolgov__reader_check_props(toolgov__reader *r);

/* When the current event starts a collection, consume the whole collection
** without looking inside; a scalar or an alias is already whole. */
int toolgov__reader_skip_node(toolgov__reader *r);

/* Pull the next node and skip it (after a key that is refused). */
int toolgov__reader_skip_value(toolgov__reader *r);

/* The current SCALAR event's bytes (not NUL-free: check them) and length. */
static inline const char *toolgov__reader_text(const toolgov__reader *r)
{
    return (const char *)r->ev.data.scalar.value;
}
static inline size_t toolgov__reader_len(const toolgov__reader *r)
{
    return r->ev.data.scalar.length;
}
/* 1 when the current scalar is written as plain text (no quotes, no block). */
static inline int toolgov__reader_plain(const toolgov__reader *r)
{
    return r->ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* 1 when the current scalar is YAML's null: plain "", "~", "null", "Null",
** "NULL". */
int toolgov__reader_is_null(const toolgov__reader *r);

/* Who a message about a value speaks of: `key` alone ("name"), or `key` of
** `owner_kind` `owner` ("'effect' of tool 'x'"). Only formatted on an error. */
typedef struct toolgov__subject {
    const char *key;
    const char *owner_kind; /* "tool", "property", ...; NULL: key alone */
    const char *owner;
} toolgov__subject;

/* Text check of the current scalar beyond what the byte scan saw: only
** escapes in double-quoted scalars can produce a NUL or a control character.
** 0, or -1 after reporting one at the scalar. */
int toolgov__reader_scalar_ok(toolgov__reader *r, toolgov__subject what);

/* Advance to the next key of the mapping being read: 1 with a scalar key as
** the current event, 0 at the MAPPING_END, -1 when reading must stop. An
** alias key (reported by check_props) or a non-scalar key (one error that
** names `where`, e.g. "a tool") is skipped with its value. */
int toolgov__reader_next_key(toolgov__reader *r, const char *where);

/* Index of the current scalar key in keys[0..n), or -1. */
int toolgov__reader_key_index(const toolgov__reader *r, const char *const *keys, size_t n);

/* Report the current key as unknown `where` ("in tool 'x'"), with "did you
** mean" when one of keys[0..n) is close, else the list of expected keys. */
void toolgov__reader_unknown_key(toolgov__reader *r, const char *where,
                                 const char *const *keys, size_t n);

/* Pull the value of a key that must be one scalar: 1 with a usable scalar
** current, 0 when the value was an alias, a collection (reported, skipped)
** or a scalar with a bad escape (reported), -1 when the stream ended. */
int toolgov__reader_scalar_value(toolgov__reader *r, toolgov__subject what);

/* The current scalar as a YAML boolean (true/True/TRUE, false/False/FALSE,
** unquoted) into *out: 0, or -1 after reporting what was found instead. */
int toolgov__reader_bool(toolgov__reader *r, toolgov__subject what, int *out);

/* The format of a subject for a message, into out[160]. */
const char *toolgov__reader_describe(char out[160], toolgov__subject what);

#endif /* TOOLGOV_GEN_READER_H */
