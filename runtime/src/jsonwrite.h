/* SPDX-License-Identifier: MIT */
/*
** jsonwrite.h: the one spelling of canonical JSON (SPEC section 9) that both
** products use. The runtime's canonical arguments (json.c, args.c) and the
** generator's canonical schema texts and defaults (gen/schema*.c, export.c)
** are written by these functions, so a default the generator puts in a
** table and the same value canonicalised by the runtime are the same bytes.
**
** Buffer-free on purpose: each function writes into bytes the caller
** provides and returns how many it wrote, like snprintf, so the runtime's
** allocator-hook buffer and the generator's buffer share the writer without
** sharing a buffer type. The caller reserves room first:
** toolgov__json_str_size() bytes for a string, TOOLGOV__JSON_NUMBER_MAX for
** a number.
**
** Internal (toolgov__ names): compiled into libtoolgov with hidden
** visibility and into toolgov-gen. No allocation, no global state.
*/
#ifndef TOOLGOV_JSONWRITE_H
#define TOOLGOV_JSONWRITE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Room that toolgov__json_int_text and toolgov__json_double_text may need
** (the longest spelling is 25 bytes: "-0.0000012345678901234567"). */
#define TOOLGOV__JSON_NUMBER_MAX 32

/* Bytes the canonical form of the string s[0..len) takes, both quotes
** included (see toolgov__json_str_write). */
size_t toolgov__json_str_size(const char *s, size_t len);

/* Write s[0..len) as a canonical JSON string into out, which has room for
** toolgov__json_str_size(s, len) bytes: quotes; \" \\ \b \f \n \r \t;
** other bytes below 0x20 as \u00xx; well-formed UTF-8 (utf8.h) and every
** other byte (including '/' and DEL) as is. Returns the bytes written (that
** size). This is also the one lenient writer: a byte that starts no
** well-formed UTF-8 sequence is written as \ufffd, so any bytes give valid
** JSON (a handler's output, a name computed at run time); text a reader
** checked is never changed by that. */
size_t toolgov__json_str_write(char *out, const char *s, size_t len);

/* The same without the quotes: the inside of a JSON string, for a writer
** that joins several texts into one string (a mark and a description). */
size_t toolgov__json_chars_size(const char *s, size_t len);
size_t toolgov__json_chars_write(char *out, const char *s, size_t len);

/* A uint64 in decimal into out (TOOLGOV__JSON_NUMBER_MAX bytes of room);
** returns the bytes written (no NUL). The runtime's one decimal printer. */
size_t toolgov__u64_text(char *out, uint64_t v);

/* An int64 in decimal into out (TOOLGOV__JSON_NUMBER_MAX bytes of room);
** returns the bytes written (no NUL). */
size_t toolgov__json_int_text(char *out, int64_t v);

/* A finite double in the shortest text that reads back to the same value,
** laid out as ECMAScript's Number::toString (RFC 8785 does the same):
** plain digits for 1e-6 <= |v| < 1e21, else d[.ddd]e+N / e-N; -0 is "-0".
** Into out (TOOLGOV__JSON_NUMBER_MAX bytes of room); returns the bytes
** written (no NUL). Not for NaN or infinities (JSON has no spelling). */
size_t toolgov__json_double_text(char *out, double v);

/* The one string scan of the reader (json.c) and the writer (jsonput.c),
** eight bytes at a time (SWAR): toolgov__json_special8(w) has a bit set in
** the byte of every '"', '\\', control byte or byte >= 0x80 of the word w
** (and maybe in bytes after the first such one, which callers never look
** at: they only ask whether any is there, or which is the first). The
** same on any byte order; where the lowest byte comes first and
** __builtin_ctzll exists (TOOLGOV__JSON_LE_CTZ), the first flagged byte
** is found in the word. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TOOLGOV__JSON_LE_CTZ 1
#else
#define TOOLGOV__JSON_LE_CTZ 0
#endif

#define TOOLGOV__JSON_ONES 0x0101010101010101ull
#define TOOLGOV__JSON_HIGH 0x8080808080808080ull

static inline uint64_t toolgov__json_load8(const unsigned char *p)
{
    uint64_t w;

    memcpy(&w, p, sizeof w);
    return w;
}

static inline uint64_t toolgov__json_zero8(uint64_t w)
{
    return (w - TOOLGOV__JSON_ONES) & ~w & TOOLGOV__JSON_HIGH;
}

static inline uint64_t toolgov__json_special8(uint64_t w)
{
    return ((w - TOOLGOV__JSON_ONES * 0x20) & ~w & TOOLGOV__JSON_HIGH) |
           toolgov__json_zero8(w ^ (TOOLGOV__JSON_ONES * '"')) |
           toolgov__json_zero8(w ^ (TOOLGOV__JSON_ONES * '\\')) | (w & TOOLGOV__JSON_HIGH);
}

#endif /* TOOLGOV_JSONWRITE_H */
