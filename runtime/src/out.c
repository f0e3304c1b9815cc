/* SPDX-License-Identifier: MIT */
/*
** out.c: the snprintf-style writer every renderer uses (see out.h). Its
** JSON strings and numbers are jsonwrite.c's spelling; it only adds the
** caller's bounded buffer.
*/
#include "out.h"

#include <string.h>

#include "jsonwrite.h"
#include "toolgov/toolgov.h"
#include "utf8.h"

void toolgov__out_init(toolgov__out *o, char *buf, size_t size)
{
    o->buf = buf;
    o->size = buf ? size : 0;
    o->len = 0;
}

void toolgov__out_put(toolgov__out *o, const char *s, size_t n)
{
    if (o->len < o->size) {
        size_t room = o->size - 1 - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

void toolgov__out_str(toolgov__out *o, const char *s)
{
    toolgov__out_put(o, s, strlen(s));
}

void toolgov__out_u64(toolgov__out *o, unsigned long long v)
{
    char tmp[TOOLGOV__JSON_NUMBER_MAX];

    toolgov__out_put(o, tmp, toolgov__u64_text(tmp, (uint64_t)v));
}

void toolgov__out_hex64(toolgov__out *o, unsigned long long v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    int i;

    for (i = 15; i >= 0; i--) {
        tmp[i] = digits[v & 15];
        v >>= 4;
    }
    toolgov__out_put(o, tmp, 16);
}

/* Input bytes escaped at a time through a stack buffer when the text does
** not fit whole (each becomes at most 6). */
#define PIECE 64

void toolgov__out_json_chars(toolgov__out *o, const char *s, size_t len)
{
    size_t n = toolgov__json_chars_size(s, len);

    if (o->len < o->size && o->size - 1 - o->len >= n) {
        toolgov__json_chars_write(o->buf + o->len, s, len);
        o->len += n;
        return;
    }
    if (o->len >= o->size) { /* nothing more fits: count only */
        o->len += n;
        return;
    }
    /* Cut short: the part that fits, escaped piece by piece. A piece ends
    ** where the writer's own walk steps (after a well-formed sequence, or
    ** after one byte that starts none), so the writer sees each piece as it
    ** would have seen it in the whole text and the bytes are the whole
    ** text's: a piece cut by count could split a well-formed sequence, or
    ** end inside a run of continuation bytes that a lead before it owns. */
    while (len) {
        char tmp[6 * PIECE];
        const unsigned char *p = (const unsigned char *)s, *e = p + len;
        size_t k = 0;

        while (k < len) {
            size_t step = p[k] >= 0x80 ? toolgov__utf8_len(p + k, e) : 1;

            if (step == 0)
                step = 1;
            if (k + step > PIECE)
                break;
            k += step;
        }
        toolgov__out_put(o, tmp, toolgov__json_chars_write(tmp, s, k));
        s += k;
        len -= k;
    }
}

void toolgov__out_json_mem(toolgov__out *o, const char *s, size_t len)
{
    toolgov__out_put(o, "\"", 1);
    toolgov__out_json_chars(o, s, len);
    toolgov__out_put(o, "\"", 1);
}

void toolgov__out_json_str(toolgov__out *o, const char *s)
{
    if (!s)
        toolgov__out_put(o, "null", 4);
    else
        toolgov__out_json_mem(o, s, strlen(s));
}

/* Unicode's format characters (general category Cf, Unicode 15): the bidi
** controls (U+202A..U+202E, U+2066..U+2069, U+200E/F, U+061C), the zero
** widths (U+200B..U+200D, U+2060, U+FEFF), the soft hyphen, the tags
** (U+E0001, U+E0020..U+E007F) and the rest, as ranges. */
static int is_format_char(unsigned cp)
{
    static const unsigned ranges[][2] = {
        {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
        {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
        {0x200B, 0x200F},   {0x202A, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
        {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
        {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
        {0xE0020, 0xE007F},
    };
    size_t i;

    for (i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return 1;
    return 0;
}

void toolgov__out_shown(toolgov__out *o, const char *s, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s, *run = p, *e = p + len;

    while (p < e) {
        unsigned c = *p, cp = 0;
        size_t n = 1, xn = 0;
        char x[10];

        if (c == '\\') {
            x[0] = '\\';
            x[1] = '\\';
            xn = 2;
        } else if (c < 0x20 || c == 0x7f ||
                   (c >= 0x80 && (n = toolgov__utf8_decode(p, e, &cp)) == 0)) {
            /* C0, DEL, or a byte that is not UTF-8 (a raw 8-bit CSI, say) */
            n = 1;
            x[0] = '\\'; x[1] = 'x'; x[2] = digits[c >> 4]; x[3] = digits[c & 15];
            xn = 4;
        } else if (n > 1 && ((cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
                             is_format_char(cp))) {
            /* C1 controls, the line and paragraph separators (Zl, Zp) and
            ** the format characters (Cf): what a reader cannot see, or
            ** what reorders what they see. */
            int k, nd = cp > 0xffff ? 8 : 4;

            x[0] = '\\';
            x[1] = cp > 0xffff ? 'U' : 'u';
            for (k = 0; k < nd; k++)
                x[2 + k] = digits[(cp >> (4 * (nd - 1 - k))) & 15];
            xn = 2 + (size_t)nd;
        }
        if (xn) {
            toolgov__out_put(o, (const char *)run, (size_t)(p - run));
            toolgov__out_put(o, x, xn);
            run = p + n;
        }
        p += n;
    }
    toolgov__out_put(o, (const char *)run, (size_t)(p - run));
}

void toolgov__out_line_str(toolgov__out *o, const char *s)
{
    toolgov__out_shown(o, s, strlen(s));
}

int toolgov__out_finish(toolgov__out *o, size_t *needed)
{
    if (needed)
        *needed = o->len;
    if (o->size == 0)
        return 0; /* a sizing call (toolgov.h, "Renderers") */
    if (o->len < o->size) {
        o->buf[o->len] = '\0';
        return 0;
    }
    o->buf[o->size - 1] = '\0';
    return TOOLGOV_ENOSPC;
}
