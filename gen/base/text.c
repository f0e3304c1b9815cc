/* SPDX-License-Identifier: MIT */
/*
** text.c: the byte-level checks of a manifest and line:column of offsets
** (see text.h).
*/
#include "base/text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h" /* runtime/src: the one UTF-8 decoder */

/* The length of a leading UTF-8 BOM: 3 or 0. */
static size_t bom_len(const unsigned char *buf, size_t len)
{
    return (len >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF) ? 3 : 0;
}

void toolgov__text_pos_init(toolgov__text_pos *c, const unsigned char *buf, size_t len)
{
    c->off = bom_len(buf, len);
    c->line = 1;
    c->col = 1;
}

toolgov__mark toolgov__text_pos_to(toolgov__text_pos *c, const unsigned char *buf, size_t len,
                                   size_t target)
{
    toolgov__mark r;
    if (target > len)
        target = len;
    while (c->off < target) {
        unsigned char b = buf[c->off];
        if (b == '\n') {
            c->line++;
            c->col = 1;
            c->off++;
        } else if (b == '\r') {
            c->line++;
            c->col = 1;
            c->off += (c->off + 1 < len && buf[c->off + 1] == '\n') ? 2 : 1;
        } else if (b == 0xE2 && c->off + 2 < len && buf[c->off + 1] == 0x80 &&
                   (buf[c->off + 2] == 0xA8 || buf[c->off + 2] == 0xA9)) {
            c->line++;
            c->col = 1;
            c->off += 3;
        } else {
            if ((b & 0xC0) != 0x80)
                c->col++;
            c->off++;
        }
    }
    r.line = c->line;
    r.col = c->col;
    return r;
}

void toolgov__text_chars_init(toolgov__text_chars *c, const unsigned char *buf, size_t len)
{
    c->ch = 0;
    c->off = bom_len(buf, len);
}

/* Past eight ASCII bytes at the cursor, when there are: 1. */
static int ascii8(toolgov__text_chars *c, const unsigned char *buf, size_t len)
{
    uint64_t w;
    if (len - c->off < 8)
        return 0;
    memcpy(&w, buf + c->off, 8);
    if (w & 0x8080808080808080u)
        return 0;
    c->ch += 8;
    c->off += 8;
    return 1;
}

size_t toolgov__text_chars_to(toolgov__text_chars *c, const unsigned char *buf, size_t len,
                              size_t index)
{
    size_t bom = bom_len(buf, len);
    while (c->ch > index && c->off > bom) {
        do
            c->off--;
        while (c->off > bom && (buf[c->off] & 0xC0) == 0x80);
        c->ch--;
    }
    while (c->ch < index && c->off < len) {
        if (index - c->ch >= 8 && ascii8(c, buf, len))
            continue;
        do
            c->off++;
        while (c->off < len && (buf[c->off] & 0xC0) == 0x80);
        c->ch++;
    }
    return c->off;
}

/* 1: ASCII that needs no look (printable, tab, LF, CR). */
static unsigned char ascii_ok[256];
static int ascii_ok_ready;

static void init_ascii_ok(void)
{
    int i;
    for (i = 0x20; i < 0x7F; i++)
        ascii_ok[i] = 1;
    ascii_ok['\t'] = ascii_ok['\n'] = ascii_ok['\r'] = 1;
    ascii_ok_ready = 1;
}

/* Report every line that holds a byte a manifest must not contain (the
** first such byte of each line). Returns the number of problems found. */
size_t toolgov__text_check(toolgov__diag *d, const char *path, const unsigned char *buf,
                           size_t len)
{
    size_t i, problems = 0;
    unsigned last_line = 0;
    toolgov__text_pos cur;

    if (!ascii_ok_ready)
        init_ascii_ok();
    if (len >= 2 && ((buf[0] == 0xFE && buf[1] == 0xFF) || (buf[0] == 0xFF && buf[1] == 0xFE))) {
        toolgov__mark at = {1, 1};
        toolgov__diag_error_at(d, path, at, "the manifest is UTF-16 (it starts with a UTF-16 byte order mark); "
                      "save it as UTF-8");
        return 1;
    }
    toolgov__text_pos_init(&cur, buf, len);
    i = cur.off;
    while (i < len) {
        unsigned cp = 0;
        size_t n;
        toolgov__mark at;

        /* Eight bytes at a time while they are all printable ASCII or LF
        ** (the bulk of any manifest); anything else takes the byte path.
        ** Per byte, with the high bit clear: b < 0x20 iff b + 0x60 has no
        ** high bit; b == 0x7F iff b + 1 has it; b == LF iff b ^ 0x0A is 0. */
        while (len - i >= 8) {
            uint64_t w, y, lo, del, lf;
            const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
            memcpy(&w, buf + i, 8);
            if (w & high)
                break;
            lo = ~(w + 0x60 * ones) & high;
            del = (w + ones) & high;
            y = w ^ (0x0A * ones);
            lf = ~((y + 0x7F * ones) | y) & high;
            if ((lo & ~lf) | del)
                break;
            i += 8;
        }
        if (i >= len)
            break;
        if (ascii_ok[buf[i]]) {
            i++;
            continue;
        }
        if (buf[i] >= 0x80) {
            n = toolgov__utf8_decode(buf + i, buf + len, &cp);
            if (n && !(cp >= 0x80 && cp <= 0x9F) && cp != 0xFFFE && cp != 0xFFFF) {
                i += n;
                continue;
            }
        } else {
            n = 1;
            cp = buf[i];
        }
        at = toolgov__text_pos_to(&cur, buf, len, i);
        if (at.line != last_line) {
            last_line = at.line;
            problems++;
            if (n == 0)
                toolgov__diag_error_at(d, path, at, "invalid UTF-8 byte 0x%02x; a manifest must be UTF-8 text "
                              "(re-save the file as UTF-8)", buf[i]);
            else if (cp == 0)
                toolgov__diag_error_at(d, path, at, "NUL byte in the manifest; a manifest is text and its strings "
                              "become C strings: remove it");
            else if (cp == 0xFFFE || cp == 0xFFFF)
                toolgov__diag_error_at(d, path, at, "character U+%04X is not allowed in YAML; remove it",
                       (unsigned)cp);
            else
                toolgov__diag_error_at(d, path, at, "control character U+%04X is not allowed in a manifest "
                              "(only tab, CR and LF are); remove it", (unsigned)cp);
        }
        i += n ? n : 1;
    }
    return problems;
}

const char *toolgov__text_show(char out[TOOLGOV_SHOW_MAX], const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t i, o = 0;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (o >= 60 && (c & 0xC0) != 0x80) {
            memcpy(out + o, "...", 4);
            return out;
        }
        if (c < 0x20 || c == 0x7F) {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        } else {
            out[o++] = (char)c;
        }
    }
    out[o] = '\0';
    return out;
}
