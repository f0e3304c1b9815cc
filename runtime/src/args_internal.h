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

/* Where one problem of a validation stands in the decoder's message. */
typedef struct toolgov__args_problem {
    size_t at;       /* offset of its first byte */
    size_t path_len; /* bytes of its JSON pointer at `at`; 0 for the root,
                     ** which the message names instead */
    size_t len;      /* bytes of the whole problem, pointer included */
} toolgov__args_problem;

/* Validate the JSON text s[0..len) against `s`, which may be any schema
** node (a property's, an array's items), not only a tool's root object.
** It is the decoder's own walk in its validating mode, so every keyword is
** judged exactly as in a call, in the same words; nothing is stored or
** canonicalised. The message names the root value `root` (NULL: "the
** value"), every other value by its JSON pointer, and has no tool prefix.
** Returns 0 when valid; TOOLGOV_EARGS when not: *total problems were
** found, *message (the decoder's, valid until its next use) names up to
** TOOLGOV_ARGS_MAX_PROBLEMS of them, and the first min(max, those) are
** described in probs[0..*nprobs); TOOLGOV_EINVAL when the text is not JSON
** or the schema cannot be walked (*message says why, no problems listed);
** TOOLGOV_ENOMEM. The generator checks defaults, examples and enum values
** with it (gen/schema.c), so there is one validator. */
int toolgov__args_validate(toolgov_args_decoder *dec, const toolgov_arg_schema *s,
                           const char *root, const char *text, size_t len,
                           toolgov__args_problem *probs, size_t max, size_t *nprobs,
                           unsigned *total, const char **message);

/* A tool's defaults made once (args.c): for each property default of a
** scalar kind that is valid against its schema, its struct bytes and its
** canonical `"name":value` member, so a call that omits the property
** copies them instead of reading, checking and writing the default again.
** The registry makes one per pooled or declared tool when it is added and
** frees it with the tool; the run decodes with it. */
typedef struct toolgov__args_prep toolgov__args_prep;

/* *out: a new prep for the tree under root (owned by the caller, free with
** toolgov__args_prep_free and the same allocator), or NULL when the tree
** has no such default (nothing is allocated). 0 or TOOLGOV_ENOMEM. The
** tables must have passed toolgov__args_table_check and must outlive it. */
int toolgov__args_prep_new(const toolgov_allocator *a, const toolgov_arg_schema *root,
                           toolgov__args_prep **out);
void toolgov__args_prep_free(const toolgov_allocator *a, toolgov__args_prep *p);

/* toolgov_args_decode with the tool's prep (NULL: none): the same results,
** byte for byte, with less work per call. prep must be the one made for
** params. */
int toolgov__args_decode_prep(toolgov_decoded_args *out, toolgov_args_decoder *dec,
                              const toolgov_arg_schema *params,
                              const toolgov__args_prep *prep, const char *tool,
                              const char *text, size_t len);

/* Mount's check of a tool's argument tables and schema text (args_check.c):
** 0, or TOOLGOV_EINVAL with the first problem (and its JSON path) in why;
** TOOLGOV_ENOMEM. root NULL: a tool without parameters. Reads the text
** with an arena on `a`, freed before it returns. */
int toolgov__args_table_check(const toolgov_allocator *a, const toolgov_arg_schema *root,
                              const char *schema_json, char *why, size_t whysize);

#endif /* TOOLGOV_ARGS_INTERNAL_H */
