/* SPDX-License-Identifier: MIT */
/*
** c_literal.c: manifest text spelt as C (see c_literal.h).
*/
#include "base/c_literal.h"

#include <string.h>

#define put toolgov__buf_put
#define reserve toolgov__buf_reserve

static void puts_(toolgov__buf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* The spelling of each byte inside a string literal; built once. */
static char lit_esc[256][5];
static unsigned char lit_len[256];
static int lit_ready;

static void init_lit(void)
{
    int c;
    for (c = 0; c < 256; c++) {
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\' && c != '?') {
            lit_esc[c][0] = (char)c;
            lit_len[c] = 1;
            continue;
        }
        switch (c) {
        case '"': memcpy(lit_esc[c], "\\\"", 2); lit_len[c] = 2; break;
        case '\\': memcpy(lit_esc[c], "\\\\", 2); lit_len[c] = 2; break;
        case '?': memcpy(lit_esc[c], "\\?", 2); lit_len[c] = 2; break;
        case '\n': memcpy(lit_esc[c], "\\n", 2); lit_len[c] = 2; break;
        case '\t': memcpy(lit_esc[c], "\\t", 2); lit_len[c] = 2; break;
        case '\r': memcpy(lit_esc[c], "\\r", 2); lit_len[c] = 2; break;
        default:
            lit_esc[c][0] = '\\';
            lit_esc[c][1] = (char)('0' + ((c >> 6) & 7));
            lit_esc[c][2] = (char)('0' + ((c >> 3) & 7));
            lit_esc[c][3] = (char)('0' + (c & 7));
            lit_len[c] = 4;
            break;
        }
    }
    lit_ready = 1;
}

/* A string literal for s[0..n). After each newline that is not the last
** byte the literal is closed and reopened on a new line with `indent`, so
** multi-line guidance reads as lines; adjacent literals concatenate. */
void toolgov__buf_literal(toolgov__buf *b, const char *s, size_t n, const char *indent)
{
    size_t i, ind = strlen(indent);
    char *o;
    if (!lit_ready)
        init_lit();
    /* Worst case: 4 bytes per input byte, plus a line break per newline. */
    if (n > ((size_t)-1 - 2) / (8 + ind) || reserve(b, n * (8 + ind) + 2))
        return;
    o = b->data + b->len;
    *o++ = '"';
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (lit_len[c] == 1) {
            /* A run of bytes that stand for themselves: one copy. */
            size_t j = i + 1;
            while (j < n && lit_len[(unsigned char)s[j]] == 1)
                j++;
            memcpy(o, s + i, j - i);
            o += j - i;
            i = j - 1;
        } else {
            memcpy(o, lit_esc[c], lit_len[c]);
            o += lit_len[c];
            if (c == '\n' && i + 1 < n) {
                *o++ = '"';
                *o++ = '\n';
                memcpy(o, indent, ind);
                o += ind;
                *o++ = '"';
            }
        }
    }
    *o++ = '"';
    b->len = (size_t)(o - b->data);
}

/* A char array initializer for a string too long for one literal. */
void toolgov__buf_char_array(toolgov__buf *b, const char *s, size_t n)
{
    size_t i;
    if (!lit_ready)
        init_lit();
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        puts_(b, i % 12 == 0 ? "\n    " : " ");
        if (c == '\'')
            puts_(b, "'\\''");
        else if (c == '"')
            puts_(b, "'\"'");
        else if (c == '?')
            puts_(b, "'?'");
        else {
            put(b, "'", 1);
            put(b, lit_esc[c], lit_len[c]);
            put(b, "'", 1);
        }
        put(b, ",", 1);
    }
    puts_(b, "\n    0\n};\n");
}
