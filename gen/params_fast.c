/* SPDX-License-Identifier: MIT */
/*
** params_fast.c: a parameters text read without libyaml (params_fast.h has
** the contract and the subset).
**
** The reader follows libyaml's scanner where the subset needs it:
** - a block collection's indentation is the column of its first key or
**   '-'; a line indented less ends it, one indented more after a whole
**   value is a continuation or an error (declined), and a mapping's value
**   may be a sequence at the mapping's own column (indentless);
** - a plain scalar ends at ': ' or ':' at the line's end, at a '#' after a
**   blank (a comment), and in flow also at , [ ] { }; its trailing blanks
**   are not part of it;
** - marks: a block mapping starts at its first key, a block sequence at
**   its first '-', a flow collection at its bracket, a scalar at its first
**   character or quote; lines are the file's, columns count characters.
** Where libyaml would report, or where its rules get subtle, the reader
** declines: it never has to be right about an error.
*/
#include "params_fast.h"

#include <stdint.h>
#include <string.h>

#include "buf.h"

/* Collections deeper than this are left to libyaml (which refuses at 48). */
#define FAST_DEPTH_MAX 40u
/* libyaml looks for a simple key's ':' within 1024 characters of the
** key's start: a key's bytes to its ':' are held to less. */
#define FAST_KEY_MAX 1000u

typedef struct fr {
    toolgov__schema_ctx *cx;
    const unsigned char *b;
    size_t n;
    size_t p;      /* the cursor */
    size_t ls, le; /* the cursor's line: its start, and its end (its '\r\n',
                   ** '\n', or n) */
    unsigned line; /* the cursor's line in the file */
    int ascii;     /* the cursor's line has no byte above 0x7F */
    size_t ind;    /* the current content line's indentation */
    int end;       /* no content line is left */
    int no;        /* declined (or out of memory: cx->oom) */
    unsigned depth;
    toolgov__buf tmp; /* a quoted or folded scalar's value being built */
} fr;

/* Whether the byte at i (above 0x7F) starts a character the subset leaves
** to libyaml: NEL, LS or PS (libyaml's line breaks) or the BOM (which it
** skips). */
static int odd_char(const fr *f, size_t i, size_t le)
{
    const unsigned char *b = f->b;
    return (b[i] == 0xC2 && i + 1 < le && b[i + 1] == 0x85) ||
           (b[i] == 0xE2 && i + 2 < le && b[i + 1] == 0x80 &&
            (b[i + 2] == 0xA8 || b[i + 2] == 0xA9)) ||
           (b[i] == 0xEF && i + 2 < le && b[i + 1] == 0xBB && b[i + 2] == 0xBF);
}

/* Make the line at ls the cursor's. Its bytes are looked at once, eight at
** a time where they are printable ASCII: a tab, a CR that does not end it,
** or an odd character (odd_char) declines the text. */
static void set_line(fr *f, size_t ls)
{
    const unsigned char *nl = memchr(f->b + ls, '\n', f->n - ls);
    size_t le = nl ? (size_t)(nl - f->b) : f->n, i = ls;
    const uint64_t high = 0x8080808080808080u;
    if (le > ls && f->b[le - 1] == '\r')
        le--;
    f->ls = ls;
    f->le = le;
    f->p = ls;
    f->ascii = 1;
    while (i < le) {
        unsigned char c;
        if (le - i >= 8) {
            uint64_t w;
            memcpy(&w, f->b + i, 8);
            /* no byte below 0x20 and none above 0x7F: all printable */
            if (!(((w - 0x2020202020202020u) | w) & high)) {
                i += 8;
                continue;
            }
        }
        c = f->b[i];
        if (c & 0x80) {
            f->ascii = 0;
            if (odd_char(f, i, le))
                f->no = 1;
        } else if (c < 0x20) {
            f->no = 1; /* a tab, or a CR inside the line */
        }
        i++;
    }
}

/* On to the line after the cursor's: 0, or 1 (and f->end) when there is
** none. */
static int next_line(fr *f)
{
    size_t next = f->le < f->n && f->b[f->le] == '\r' ? f->le + 2 : f->le + 1;
    if (f->le >= f->n || next >= f->n) {
        f->end = 1;
        f->p = f->n;
        return 1;
    }
    set_line(f, next);
    f->line++;
    return 0;
}

/* From the start of a line, on to the first line from there that holds a
** token (not blank, not only a comment): its indentation in f->ind and
** the cursor at its first token, or f->end. */
static void content(fr *f)
{
    do {
        size_t j = f->ls;
        while (j < f->le && f->b[j] == ' ')
            j++;
        if (j < f->le && f->b[j] != '#') {
            f->p = j;
            f->ind = j - f->ls;
            return;
        }
    } while (!next_line(f));
}

static void next_content(fr *f)
{
    if (!next_line(f))
        content(f);
}

static toolgov__mark mark(const fr *f, size_t at)
{
    toolgov__mark m;
    m.line = f->line;
    if (f->ascii) {
        m.col = (unsigned)(at - f->ls) + 1;
    } else {
        size_t i;
        unsigned c = 1;
        for (i = f->ls; i < at; i++)
            c += (f->b[i] & 0xC0) != 0x80;
        m.col = c;
    }
    return m;
}

static void *decline(fr *f)
{
    f->no = 1;
    return NULL;
}

/* The first byte from i on that is not a blank (or the line's end). */
static size_t after_blanks(const fr *f, size_t i)
{
    while (i < f->le && f->b[i] == ' ')
        i++;
    return i;
}

static void skip_spaces(fr *f)
{
    f->p = after_blanks(f, f->p);
}

/* Whether the byte at i is a '-' that starts a block sequence entry. */
static int dash_at(const fr *f, size_t i)
{
    return f->b[i] == '-' && (i + 1 == f->le || f->b[i + 1] == ' ');
}

/* Whether a plain scalar may start at i: not an indicator, or a '-' before
** a letter, a digit or a '.' (-1, -.5). */
static int plain_start(const fr *f, size_t i)
{
    unsigned char c = f->b[i];
    if (c == '-') {
        unsigned char d = i + 1 < f->le ? f->b[i + 1] : 0;
        return (d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') ||
               d == '.';
    }
    return !strchr("?:,[]{}#&*!|>'\"%@`", c) && c != ' ';
}

/* A plain scalar in block context from the cursor: its end (trailing
** blanks left out) in *e; the cursor at the ':' of a key (returns 1), or
** at the line's end or a comment (returns 0). */
static int plain_block(fr *f, size_t *e)
{
    size_t i = f->p, last = f->p;
    while (i < f->le) {
        unsigned char c = f->b[i];
        if (c == ' ') {
            size_t j = after_blanks(f, i);
            if (j == f->le || f->b[j] == '#')
                break;
            i = j;
            continue;
        }
        if (c == ':' && (i + 1 == f->le || f->b[i + 1] == ' ')) {
            *e = last;
            f->p = i;
            return 1;
        }
        i++;
        last = i;
    }
    *e = last;
    f->p = i;
    return 0;
}

/* A plain scalar in flow context from the cursor: its end in *e, the
** cursor after its trailing blanks (at , ] } or the ':' of a key). Declines
** a ':' that is not a key's, a comment, a line end and a '[' or '{'. */
static void plain_flow(fr *f, size_t *e)
{
    size_t i = f->p, last = f->p;
    while (i < f->le) {
        unsigned char c = f->b[i];
        if (c == ' ') {
            size_t j = after_blanks(f, i);
            if (j < f->le && f->b[j] == '#') {
                decline(f);
                return;
            }
            i = j;
            continue;
        }
        if (c == ',' || c == ']' || c == '}')
            break;
        if (c == ':') {
            if (i + 1 < f->le && f->b[i + 1] == ' ')
                break;
            decline(f);
            return;
        }
        if (c == '[' || c == '{') {
            decline(f);
            return;
        }
        i++;
        last = i;
    }
    if (i == f->le) {
        decline(f);
        return;
    }
    *e = last;
    f->p = i;
}

static unsigned hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10u;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10u;
    return 16;
}

/* Append to the scalar being built. */
static void emit(fr *f, const char *s, size_t n)
{
    toolgov__buf_put(&f->tmp, s, n);
}

/* A JSON escape (or '\ ', an escaped space) of a double-quoted scalar at
** f->b[i] (its '\'), written out: the bytes it takes, or 0 (declined) for
** any other escape, a NUL, a control character or a surrogate (libyaml's
** own messages). */
static size_t escape(fr *f, size_t i)
{
    static const char from[] = "\"\\/bfnrt ", to[] = "\"\\/\b\f\n\r\t ";
    const char *k;
    unsigned v = 0, d, j;
    char u[3];
    if (i + 1 >= f->le)
        return 0; /* an escaped line break */
    k = strchr(from, f->b[i + 1]);
    if (k && *k) {
        emit(f, to + (k - from), 1);
        return 2;
    }
    if (f->b[i + 1] != 'u' || i + 5 >= f->le)
        return 0;
    for (j = 2; j <= 5; j++) {
        if ((d = hexval(f->b[i + j])) > 15)
            return 0;
        v = v * 16 + d;
    }
    if (v < 0x20 || (v >= 0x7F && v < 0xA0) || (v >= 0xD800 && v < 0xE000) || v >= 0xFFFE)
        return 0;
    if (v < 0x80) {
        u[0] = (char)v;
        emit(f, u, 1);
    } else if (v < 0x800) {
        u[0] = (char)(0xC0 | (v >> 6));
        u[1] = (char)(0x80 | (v & 0x3F));
        emit(f, u, 2);
    } else {
        u[0] = (char)(0xE0 | (v >> 12));
        u[1] = (char)(0x80 | ((v >> 6) & 0x3F));
        u[2] = (char)(0x80 | (v & 0x3F));
        emit(f, u, 3);
    }
    return 6;
}

/* Past the line break(s) of a scalar that goes on below, folding them as
** YAML does (one break is a space, each further one, of a blank line, a
** '\n'): 0 with the cursor at the next line's first non-blank, which a
** scalar of a block collection at column c must be indented past; -1 at
** the end of the text or a line indented c or less (declined: libyaml
** reads it, or refuses it). */
static int fold(fr *f, size_t c)
{
    size_t breaks = 0, j;
    do {
        breaks++;
        if (next_line(f))
            return -1;
        j = after_blanks(f, f->ls);
    } while (j == f->le);
    if (j - f->ls <= c)
        return -1;
    if (breaks == 1)
        emit(f, " ", 1);
    while (--breaks)
        emit(f, "\n", 1);
    f->p = j;
    return 0;
}

/* A quoted scalar from the cursor (at its quote), its value built in
** f->tmp, the cursor after the closing quote. It may go on over lines
** (folded) only as a value of a block collection at column c (c >= 0):
** keys and flow values stay on their line (c < 0). 0, or -1 declined. */
static int quoted(fr *f, long c, const char **s, size_t *len)
{
    unsigned char q = f->b[f->p];
    size_t i = f->p + 1, keep = 0;
    f->tmp.len = 0;
    for (;;) {
        unsigned char ch;
        if (i >= f->le) {
            /* The line ends inside: its trailing blanks are dropped. */
            f->tmp.len = keep;
            if (c < 0 || fold(f, (size_t)c)) {
                decline(f);
                return -1;
            }
            i = f->p;
            keep = f->tmp.len;
            continue;
        }
        ch = f->b[i];
        if (ch == q) {
            if (q == '\'' && i + 1 < f->le && f->b[i + 1] == '\'') {
                emit(f, "'", 1);
                keep = f->tmp.len;
                i += 2;
                continue;
            }
            break;
        }
        if (q == '"' && ch == '\\' && i + 1 == f->le) {
            /* An escaped line break: the next line's text follows at once
            ** (what PyYAML writes to wrap a double-quoted scalar). */
            size_t j;
            if (c < 0 || next_line(f) || (j = after_blanks(f, f->ls)) == f->le ||
                j - f->ls <= (size_t)c) {
                decline(f);
                return -1;
            }
            i = j;
            keep = f->tmp.len;
            continue;
        }
        if (q == '"' && ch == '\\') {
            size_t used = escape(f, i);
            if (!used) {
                decline(f);
                return -1;
            }
            keep = f->tmp.len;
            i += used;
            continue;
        }
        emit(f, (const char *)f->b + i, 1);
        if (ch != ' ')
            keep = f->tmp.len;
        i++;
    }
    if (f->tmp.oom) {
        f->cx->oom = 1;
        decline(f);
        return -1;
    }
    f->p = i + 1;
    *s = f->tmp.data ? f->tmp.data : "";
    *len = f->tmp.len;
    return 0;
}

/* A quoted key: quoted(), with the text kept in the arena (f->tmp is
** reused by the value). */
static int quoted_key(fr *f, const char **s, size_t *len)
{
    char *k;
    if (quoted(f, -1, s, len))
        return -1;
    if (!(k = toolgov__arena_strndup(f->cx->arena, *s, *len))) {
        f->cx->oom = 1;
        decline(f);
        return -1;
    }
    *s = k;
    return 0;
}

static toolgov__jval *scalar(fr *f, const char *s, size_t n, int plain, toolgov__mark at)
{
    toolgov__jval *v = toolgov__schema_yaml_scalar(f->cx, s, n, plain, at);
    return v ? v : decline(f);
}

/* After a value that ends the line: only blanks and a comment before the
** line's end, then on to the next content line. */
static void rest_blank(fr *f)
{
    size_t at = f->p;
    skip_spaces(f);
    if (f->p < f->le && !(f->b[f->p] == '#' && f->p > at)) {
        decline(f);
        return;
    }
    next_content(f);
}

/* Add key[0..klen) (at kat) = val to the object; a duplicate declines. */
static void put(fr *f, toolgov__jval *obj, const char *key, size_t klen, toolgov__mark kat,
                toolgov__jval *val)
{
    if (toolgov__jv_find(obj, key, klen)) {
        decline(f);
        return;
    }
    if (toolgov__jv_put(f->cx, obj, key, klen, kat, val))
        decline(f);
}

/* A new collection of `kind` whose start is the cursor, one level deeper
** (declined past FAST_DEPTH_MAX). */
static toolgov__jval *collection(fr *f, toolgov__jkind kind)
{
    toolgov__jval *v;
    if (++f->depth > FAST_DEPTH_MAX)
        return decline(f);
    v = toolgov__jv_new(f->cx, kind, mark(f, f->p));
    return v ? v : decline(f);
}

static toolgov__jval *flow_node(fr *f);

/* A flow scalar or collection from the cursor, on one line. */
static toolgov__jval *flow_value(fr *f)
{
    size_t s = f->p, e;
    if (f->p >= f->le)
        return decline(f);
    if (f->b[s] == '{' || f->b[s] == '[')
        return flow_node(f);
    if (f->b[s] == '"' || f->b[s] == '\'') {
        const char *t;
        size_t n;
        toolgov__mark at = mark(f, s);
        if (quoted(f, -1, &t, &n))
            return NULL;
        return scalar(f, t, n, 0, at);
    }
    if (!plain_start(f, s))
        return decline(f);
    plain_flow(f, &e);
    if (f->no || f->b[f->p] == ':')
        return decline(f);
    return scalar(f, (const char *)f->b + s, e - s, 1, mark(f, s));
}

static toolgov__jval *flow_node(fr *f)
{
    int map = f->b[f->p] == '{';
    unsigned char close = map ? '}' : ']';
    toolgov__jval *v;
    if (!(v = collection(f, map ? TOOLGOV_J_OBJECT : TOOLGOV_J_ARRAY)))
        return NULL;
    f->p++;
    skip_spaces(f);
    if (f->p < f->le && f->b[f->p] == close) {
        f->p++;
        f->depth--;
        return v;
    }
    for (;;) {
        toolgov__jval *item;
        if (map) {
            size_t ks = f->p, ke;
            const char *key;
            size_t klen;
            toolgov__mark kat;
            if (ks >= f->le)
                return decline(f);
            kat = mark(f, ks);
            if (f->b[ks] == '"' || f->b[ks] == '\'') {
                if (quoted_key(f, &key, &klen))
                    return NULL;
                skip_spaces(f);
                if (f->p >= f->le || f->b[f->p] != ':')
                    return decline(f);
            } else {
                if (!plain_start(f, ks))
                    return decline(f);
                plain_flow(f, &ke);
                if (f->no || f->b[f->p] != ':')
                    return decline(f);
                key = (const char *)f->b + ks;
                klen = ke - ks;
            }
            if (f->p - ks > FAST_KEY_MAX)
                return decline(f); /* libyaml's simple key ends before */
            f->p++; /* the ':' */
            skip_spaces(f);
            item = flow_value(f);
            if (!item)
                return NULL;
            put(f, v, key, klen, kat, item);
            if (f->no)
                return NULL;
        } else {
            item = flow_value(f);
            if (!item)
                return NULL;
            if (toolgov__jv_push(f->cx, v, item))
                return decline(f);
        }
        skip_spaces(f);
        if (f->p >= f->le)
            return decline(f);
        if (f->b[f->p] == close) {
            f->p++;
            break;
        }
        if (f->b[f->p] != ',')
            return decline(f);
        f->p++;
        skip_spaces(f);
        if (f->p >= f->le || f->b[f->p] == close)
            return decline(f); /* a trailing ',' */
    }
    f->depth--;
    return v;
}

static toolgov__jval *block_map(fr *f, size_t c);
static toolgov__jval *block_seq(fr *f, size_t c);

/* The block node whose first token is the cursor's, at column c. */
static toolgov__jval *block_node(fr *f, size_t c)
{
    return dash_at(f, f->p) ? block_seq(f, c) : block_map(f, c);
}

/* A plain scalar s[0..e) that reached its line's end, inside a block
** collection at column c: the lines below indented past c go on with it
** (folded), up to a line indented c or less, a comment or the text's end.
** On to the next content line. */
static toolgov__jval *plain_lines(fr *f, size_t c, size_t s, size_t e, toolgov__mark at)
{
    toolgov__jval *v;
    f->tmp.len = 0;
    emit(f, (const char *)f->b + s, e - s);
    for (;;) {
        size_t len0 = f->tmp.len, j;
        if (fold(f, c)) {
            /* the text's end, or a line indented c or less */
            f->tmp.len = len0;
            if (!f->end)
                content(f);
            break;
        }
        j = f->p;
        if (f->b[j] == '#') {
            f->tmp.len = len0; /* a comment line ends it */
            content(f);
            break;
        }
        /* An indicator is text here ('- ', quotes, brackets...): libyaml's
        ** scanner only ends a plain scalar at ': ' and ' #'. */
        if (plain_block(f, &e))
            return decline(f); /* a key below: libyaml refuses it */
        emit(f, (const char *)f->b + j, e - j);
        if (f->p < f->le) {
            next_content(f); /* a comment after it ends it */
            break;
        }
    }
    if (f->tmp.oom) {
        f->cx->oom = 1;
        return decline(f);
    }
    v = scalar(f, f->tmp.data, f->tmp.len, 1, at);
    if (v && !f->end && f->ind > c)
        return decline(f);
    return v;
}

/* Whether the quoted scalar at s is a key: it closes on its line and a ':'
** and a blank (or the line's end) follow. */
static int quoted_is_key(const fr *f, size_t s)
{
    unsigned char q = f->b[s];
    size_t i;
    for (i = s + 1; i < f->le; i++) {
        if (f->b[i] == q) {
            if (q == '\'' && i + 1 < f->le && f->b[i + 1] == '\'') {
                i++;
                continue;
            }
            i = after_blanks(f, i + 1);
            return i < f->le && f->b[i] == ':' && (i + 1 == f->le || f->b[i + 1] == ' ');
        }
        if (q == '"' && f->b[i] == '\\')
            i++;
    }
    return 0;
}

/* A scalar or a flow collection that starts at the cursor and ends its
** line, inside a block collection at column c; on to the next content
** line, which must not continue it. */
static toolgov__jval *inline_value(fr *f, size_t c)
{
    size_t s = f->p, e;
    toolgov__jval *v;
    unsigned char ch = f->b[s];
    if (ch == '{' || ch == '[') {
        v = flow_node(f);
        if (v)
            rest_blank(f);
    } else if (ch == '"' || ch == '\'') {
        const char *t;
        size_t n;
        toolgov__mark at = mark(f, s);
        if (quoted(f, (long)c, &t, &n))
            return NULL;
        v = scalar(f, t, n, 0, at);
        if (v)
            rest_blank(f);
    } else if (plain_start(f, s)) {
        toolgov__mark at = mark(f, s);
        if (plain_block(f, &e))
            return decline(f); /* `a: b: c` */
        if (f->p == f->le)
            return plain_lines(f, c, s, e, at);
        v = scalar(f, (const char *)f->b + s, e - s, 1, at);
        if (v)
            next_content(f); /* after a comment: it ends the scalar */
    } else {
        return decline(f);
    }
    if (f->no)
        return NULL;
    if (!f->end && f->ind > c)
        return decline(f); /* a continuation line, or an error */
    return v;
}

/* The value of a key of the block mapping at column c, from the cursor
** after the ':' and its blanks. */
static toolgov__jval *block_value(fr *f, size_t c)
{
    if (f->p == f->le || f->b[f->p] == '#') {
        next_content(f);
        if (f->end)
            return decline(f); /* an empty value */
        if (f->ind > c)
            return block_node(f, f->ind);
        if (f->ind == c && dash_at(f, f->p))
            return block_seq(f, c); /* indentless */
        return decline(f);
    }
    if (dash_at(f, f->p))
        return decline(f);
    return inline_value(f, c);
}

/* A block mapping at column c whose first key is at the cursor (at a
** line's first token, or after a sequence entry's '- '). */
static toolgov__jval *block_map(fr *f, size_t c)
{
    toolgov__jval *v;
    if (!(v = collection(f, TOOLGOV_J_OBJECT)))
        return NULL;
    for (;;) {
        size_t ks = f->p, ke;
        const char *key;
        size_t klen;
        toolgov__mark kat = mark(f, ks);
        toolgov__jval *val;
        if (f->b[ks] == '"' || f->b[ks] == '\'') {
            if (quoted_key(f, &key, &klen))
                return NULL;
            skip_spaces(f);
            if (f->p >= f->le || f->b[f->p] != ':' || (f->p + 1 < f->le && f->b[f->p + 1] != ' '))
                return decline(f);
        } else {
            if (!plain_start(f, ks) || !plain_block(f, &ke))
                return decline(f);
            key = (const char *)f->b + ks;
            klen = ke - ks;
        }
        if (f->p - ks > FAST_KEY_MAX)
            return decline(f); /* libyaml's simple key ends before */
        f->p++; /* the ':' */
        skip_spaces(f);
        val = block_value(f, c);
        if (!val)
            return NULL;
        put(f, v, key, klen, kat, val);
        if (f->no)
            return NULL;
        if (f->end || f->ind < c)
            break;
        if (f->ind > c || dash_at(f, f->p))
            return decline(f);
    }
    f->depth--;
    return v;
}

/* A block sequence at column c whose first '-' is at the cursor. It ends
** at a line indented less, or at one of its own column that is not an
** entry (the next key of the mapping an indentless sequence is the value
** of; anything else the caller declines). */
static toolgov__jval *block_seq(fr *f, size_t c)
{
    toolgov__jval *v;
    if (!(v = collection(f, TOOLGOV_J_ARRAY)))
        return NULL;
    for (;;) {
        toolgov__jval *item;
        size_t s;
        f->p++; /* the '-' */
        skip_spaces(f);
        s = f->p;
        if (s == f->le || f->b[s] == '#' || dash_at(f, s))
            return decline(f); /* the item on later lines, or `- - x` */
        if (f->b[s] == '"' || f->b[s] == '\'') {
            item = quoted_is_key(f, s) ? block_map(f, s - f->ls) /* `- "k": v` */
                                       : inline_value(f, c);
        } else if (plain_start(f, s)) {
            size_t e;
            int key = plain_block(f, &e);
            f->p = s;
            item = key ? block_map(f, s - f->ls) : inline_value(f, c);
        } else {
            item = inline_value(f, c);
        }
        if (!item)
            return NULL;
        if (toolgov__jv_push(f->cx, v, item))
            return decline(f);
        if (f->end || f->ind < c || (f->ind == c && !dash_at(f, f->p)))
            break;
        if (f->ind > c)
            return decline(f);
    }
    f->depth--;
    return v;
}

int toolgov__params_fast_read(toolgov__schema_ctx *cx, const unsigned char *buf, size_t len,
                              unsigned line, size_t kcol, toolgov__jval **out)
{
    static const char key[] = "parameters:";
    fr f;
    toolgov__jval *v = NULL;
    size_t i;
    *out = NULL;
    if (kcol == 0 || len < kcol + sizeof key - 1)
        return 0;
    for (i = 0; i < kcol; i++)
        if (buf[i] != ' ')
            return 0;
    if (memcmp(buf + kcol, key, sizeof key - 1) != 0)
        return 0;
    memset(&f, 0, sizeof f);
    f.cx = cx;
    f.b = buf;
    f.n = len;
    f.line = line;
    set_line(&f, 0);
    f.p = kcol + sizeof key - 1;
    if (f.p < f.le && f.b[f.p] != ' ')
        return 0;
    skip_spaces(&f);
    if (f.p == f.le || f.b[f.p] == '#') {
        next_content(&f);
        if (!f.end && f.ind > kcol)
            v = block_node(&f, f.ind);
    } else if (f.b[f.p] == '{') {
        v = flow_node(&f);
        if (v)
            rest_blank(&f);
    }
    toolgov__buf_free(&f.tmp);
    if (cx->oom)
        return -1;
    if (!v || f.no || !f.end)
        return 0;
    *out = v;
    return 1;
}
