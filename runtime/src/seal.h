/* SPDX-License-Identifier: MIT */
/*
** seal.h: sealed texts, the one way the runtime authenticates text it hands
** a host to keep and later takes back (saved run state, and any other text
** of that kind: grants, paused turns).
**
** A sealed text is
**
**   <magic line>                 e.g. "toolgov-run 3\n": names what the text is
**   bound <n>:<bytes>\n          what the text belongs to (a run's identity,
**                                a user): restore refuses it anywhere else
**   <body>                       the kind's own fields
**   mac <64 lowercase hex digits>\n
**
** The mac is keyed BLAKE2b-256 (libsodium's crypto_generichash) of every
** byte before the mac line, under the host's toolgov_state_key. The magic
** line is under the mac, so a text of one kind never opens as another; the
** binding is under it, so a text of one run never opens for another.
** Opening checks the mac first, in constant time, over the whole text, by
** comparing the text's mac line with the one it must have, byte for byte
** (so "AB" for "ab" is a change like any other), then the magic and the
** binding, and only then hands back the body.
**
** What a holder of the key can still do is everything: seal any body for
** any binding. And a sealed text carries no freshness: an older text of
** the same run opens as well as the newest (the host keeps only the newest
** when that matters). Private to the runtime.
*/
#ifndef TOOLGOV_SEAL_H
#define TOOLGOV_SEAL_H

#include <sodium.h>

#include "internal.h"

#define TOOLGOV__SEAL_MAC_BYTES crypto_generichash_BYTES /* 32 */
/* "mac " + 64 hex digits + "\n" */
#define TOOLGOV__SEAL_MAC_LINE (4 + 2 * TOOLGOV__SEAL_MAC_BYTES + 1)

/* A text being sealed: every byte goes to the caller's buffer (which may be
** too short: the mac still covers all of it) and into the running mac. */
typedef struct toolgov__sealer {
    toolgov__out *o;
    crypto_generichash_state h;
} toolgov__sealer;

/* Start a sealed text in `o`: the magic line (with its "\n") and the
** binding line. */
void toolgov__seal_begin(toolgov__sealer *k, toolgov__out *o, const toolgov_state_key *key,
                         const char *magic, const char *bound, size_t bound_len);
void toolgov__seal_put(toolgov__sealer *k, const char *s, size_t n);
void toolgov__seal_str(toolgov__sealer *k, const char *s);
void toolgov__seal_num(toolgov__sealer *k, unsigned long long v);
void toolgov__seal_hex64(toolgov__sealer *k, unsigned long long v);
/* <n>:<bytes> */
void toolgov__seal_bytes(toolgov__sealer *k, const char *s, size_t n);
/* Write the mac line and forget the mac state. */
void toolgov__seal_end(toolgov__sealer *k);

/* Open a sealed text: 0 and the body's span (borrowed from `text`) when
** its mac is right under `key`, its magic line is `magic` and it is bound
** to exactly `bound`; TOOLGOV_ESTATE otherwise (nothing of the text is
** trusted or returned). */
int toolgov__seal_open(const char **body, size_t *body_len, const char *text, size_t len,
                       const toolgov_state_key *key, const char *magic, const char *bound,
                       size_t bound_len);

/* Reading an opened body: a cursor and the field readers every kind
** shares, the inverses of toolgov__seal_str, _num and _bytes. Each returns
** 1 and moves past what it read, or 0 (the cursor then says nothing). */
typedef struct toolgov__reader {
    const char *p, *end;
} toolgov__reader;

/* Exactly the bytes of s. */
int toolgov__read_lit(toolgov__reader *c, const char *s);
/* A decimal number without sign or leading zeros, below `limit`. */
int toolgov__read_num(toolgov__reader *c, unsigned long long limit, unsigned long long *out);
/* <n>:<bytes> with n below 2^48, borrowed from the text. */
int toolgov__read_bytes(toolgov__reader *c, const char **s, size_t *n);

#endif /* TOOLGOV_SEAL_H */
