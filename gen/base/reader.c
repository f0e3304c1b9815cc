/* SPDX-License-Identifier: MIT */
/*
** reader.c: the YAML event reader (see reader.h): libyaml events with
** their marks, libyaml's errors as line:column messages, the skipping of
** refused nodes, and the key-by-key and scalar moves every walk uses.
*/
#include "base/reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

#define SHOW_MAX TOOLGOV_SHOW_MAX
#define show toolgov__text_show

static toolgov__mark mark_of(yaml_mark_t m)
{
    toolgov__mark at;
    at.line = (unsigned)(m.line + 1);
    at.col = (unsigned)(m.column + 1);
    return at;
}

static int open_common(toolgov__reader *r, const char *path, const unsigned char *buf,
                       size_t len, toolgov__diag *d)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->buf = buf;
    r->len = len;
    toolgov__text_chars_init(&r->chars, buf, len);
    r->d = d;
    if (!yaml_parser_initialize(&r->parser)) {
        toolgov__reader_oom(r);
        return -1;
    }
    /* No yaml_parser_set_encoding(): a fixed encoding turns off libyaml's
    ** BOM detection, and the BOM would be read as text. toolgov__text_check()
    ** has already refused anything that is not UTF-8. */
    return 0;
}

int toolgov__reader_open(toolgov__reader *r, const char *path, const unsigned char *buf,
                         size_t len, toolgov__diag *d)
{
    if (open_common(r, path, buf, len, d))
        return -1;
    yaml_parser_set_input_string(&r->parser, buf, len);
    return 0;
}

void toolgov__reader_close(toolgov__reader *r)
{
    if (r->have_ev)
        yaml_event_delete(&r->ev);
    r->have_ev = 0;
    yaml_parser_delete(&r->parser);
}

void toolgov__reader_error(toolgov__reader *r, toolgov__mark at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    toolgov__diag_verror_at(r->d, r->path, at, fmt, ap);
    va_end(ap);
}

void toolgov__reader_note(toolgov__reader *r, toolgov__mark at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    toolgov__diag_vnote_at(r->d, r->path, at, fmt, ap);
    va_end(ap);
}

void toolgov__reader_oom(toolgov__reader *r)
{
    if (!r->oom) {
        toolgov__mark at = {0, 0};
        r->oom = 1;
        toolgov__reader_error(r, at, "out of memory while loading the manifest");
    }
    r->failed = 1;
}

/* ---- libyaml's errors ---------------------------------------------------- */

/* Whether the character at `at` is a tab with only blanks before it on its
** line: YAML forbids tabs in indentation, and libyaml's own message ("found
** character that cannot start any token") does not say so. Only called on a
** syntax error, so the walk from the start is fine. */
static int tab_indents(const toolgov__reader *r, toolgov__mark at)
{
    toolgov__text_pos pos;
    int blanks_only = 1;
    toolgov__text_pos_init(&pos, r->buf, r->len);
    for (size_t off = pos.off; off < r->len; off++) {
        toolgov__mark m = toolgov__text_pos_to(&pos, r->buf, r->len, off);
        if (m.line > at.line)
            break;
        if (m.line < at.line)
            continue;
        if (m.col == at.col)
            return r->buf[off] == '\t' && blanks_only;
        if (r->buf[off] != ' ' && r->buf[off] != '\t')
            blanks_only = 0;
    }
    return 0;
}

static long hex4(const unsigned char *s, size_t n)
{
    long v = 0;
    size_t i;
    if (n < 4)
        return -1;
    for (i = 0; i < 4; i++) {
        int c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* libyaml refuses a \u escape of a UTF-16 surrogate, which is how JSON
** (Python's json.dumps, for one) writes a character beyond U+FFFF: say so
** and give the YAML spelling. `idx` is where libyaml stopped, at the four
** hex digits. 1 when reported. */
static int surrogate_escape(toolgov__reader *r, size_t idx, toolgov__mark at)
{
    const unsigned char *b = r->buf;
    long hi, lo;
    if (idx < 2 || idx > r->len || b[idx - 2] != '\\' || b[idx - 1] != 'u')
        return 0;
    hi = hex4(b + idx, r->len - idx);
    if (hi < 0xD800 || hi > 0xDFFF)
        return 0;
    if (hi <= 0xDBFF && idx + 10 <= r->len && b[idx + 4] == '\\' && b[idx + 5] == 'u' &&
        (lo = hex4(b + idx + 6, r->len - idx - 6)) >= 0xDC00 && lo <= 0xDFFF) {
        long cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
        toolgov__reader_error(r, at, "YAML syntax: '\\u%.4s\\u%.4s' is JSON's way of writing "
                                     "one character beyond U+FFFF (a UTF-16 surrogate pair), "
                                     "which YAML does not read; write the character itself, or "
                                     "\\U%08lX", (const char *)b + idx,
                              (const char *)b + idx + 6, cp);
    } else {
        toolgov__reader_error(r, at, "YAML syntax: '\\u%.4s' is half of a UTF-16 surrogate "
                                     "pair, not a character; write the character itself, or "
                                     "its \\U escape (8 hex digits)", (const char *)b + idx);
    }
    r->failed = 1;
    return 1;
}

static void report_yaml_error(toolgov__reader *r)
{
    yaml_parser_t *p = &r->parser;
    toolgov__mark at;
    const char *problem = p->problem ? p->problem : "malformed YAML";

    switch (p->error) {
    case YAML_MEMORY_ERROR:
        toolgov__reader_oom(r);
        return;
    case YAML_READER_ERROR: {
        /* libyaml gives a byte offset here, not a mark. */
        toolgov__text_pos cur;
        toolgov__text_pos_init(&cur, r->buf, r->len);
        at = toolgov__text_pos_to(&cur, r->buf, r->len, p->problem_offset);
        toolgov__reader_error(r, at, "%s (byte 0x%02x); a manifest must be UTF-8 text", problem,
                              (unsigned)p->problem_value & 0xFFu);
        break;
    }
    default:
        at = mark_of(p->problem_mark);
        if (surrogate_escape(r, toolgov__reader_offset(r, p->problem_mark.index), at))
            break;
        if (tab_indents(r, at)) {
            toolgov__reader_error(r, at, "YAML syntax: a tab indents this line; YAML indents "
                                         "with spaces only: replace the tab with spaces");
            break;
        }
        if (p->context && (p->context_mark.line != p->problem_mark.line ||
                           p->context_mark.column != p->problem_mark.column)) {
            toolgov__reader_error(r, at, "YAML syntax: %s; check the indentation and quoting "
                                         "here", problem);
            toolgov__reader_note(r, mark_of(p->context_mark), "%s", p->context);
        } else if (p->context) {
            toolgov__reader_error(r, at, "YAML syntax: %s %s; check the indentation and "
                                         "quoting here", p->context, problem);
        } else {
            toolgov__reader_error(r, at, "YAML syntax: %s; check the indentation and quoting "
                                         "here", problem);
        }
        break;
    }
    r->failed = 1;
}

size_t toolgov__reader_offset(toolgov__reader *r, size_t index)
{
    return toolgov__text_chars_to(&r->chars, r->buf, r->len, index);
}

/* ---- events -------------------------------------------------------------- */

int toolgov__reader_next(toolgov__reader *r)
{
    if (r->failed)
        return -1;
    if (r->have_ev) {
        yaml_event_delete(&r->ev);
        r->have_ev = 0;
    }
    if (!yaml_parser_parse(&r->parser, &r->ev)) {
        report_yaml_error(r);
        return -1;
    }
    r->have_ev = 1;
    return 0;
}

toolgov__mark toolgov__reader_mark(const toolgov__reader *r)
{
    return mark_of(r->ev.start_mark);
}

const char *toolgov__reader_kind(const toolgov__reader *r)
{
    switch (r->ev.type) {
    case YAML_SCALAR_EVENT:
        return "a scalar";
    case YAML_SEQUENCE_START_EVENT:
        return "a sequence";
    case YAML_MAPPING_START_EVENT:
        return "a mapping";
    case YAML_ALIAS_EVENT:
        return "an alias";
    default:
        return "nothing";
    }
}

static void check_props_slow(toolgov__reader *r)
{
    const yaml_event_t *e = &r->ev;
    const yaml_char_t *anchor = NULL, *tag = NULL;
    char s[SHOW_MAX];

    switch (e->type) {
    case YAML_SCALAR_EVENT:
        anchor = e->data.scalar.anchor;
        tag = e->data.scalar.tag;
        break;
    case YAML_SEQUENCE_START_EVENT:
        anchor = e->data.sequence_start.anchor;
        tag = e->data.sequence_start.tag;
        break;
    case YAML_MAPPING_START_EVENT:
        anchor = e->data.mapping_start.anchor;
        tag = e->data.mapping_start.tag;
        break;
    case YAML_ALIAS_EVENT:
        toolgov__reader_error(r, toolgov__reader_mark(r),
                              "YAML alias '*%s' is not allowed in a manifest; write the value "
                              "out in full (aliases are never expanded)",
                              show(s, (const char *)e->data.alias.anchor,
                                   strlen((const char *)e->data.alias.anchor)));
        return;
    default:
        return;
    }
    if (anchor)
        toolgov__reader_error(r, toolgov__reader_mark(r),
                              "YAML anchor '&%s' is not allowed in a manifest; remove it",
                              show(s, (const char *)anchor, strlen((const char *)anchor)));
    if (tag)
        toolgov__reader_error(r, toolgov__reader_mark(r),
                              "YAML tag '%s' is not allowed in a manifest; remove it "
                              "(every value is read as plain text)",
                              show(s, (const char *)tag, strlen((const char *)tag)));
}

void toolgov__reader_check_props(toolgov__reader *r)
{
    const yaml_event_t *e = &r->ev;
    /* The common case, a plain scalar with neither, costs two loads. */
    if (e->type == YAML_SCALAR_EVENT && !e->data.scalar.anchor && !e->data.scalar.tag)
        return;
    check_props_slow(r);
}

int toolgov__reader_skip_node(toolgov__reader *r)
{
    size_t depth;
    if (r->ev.type != YAML_SEQUENCE_START_EVENT && r->ev.type != YAML_MAPPING_START_EVENT)
        return 0;
    depth = 1;
    while (depth > 0) {
        if (toolgov__reader_next(r))
            return -1;
        switch (r->ev.type) {
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++depth > TOOLGOV_READER_DEPTH_MAX) {
                toolgov__reader_error(r, toolgov__reader_mark(r),
                                      "collections nested more than %u deep; a manifest "
                                      "needs three levels at most", TOOLGOV_READER_DEPTH_MAX);
                r->failed = 1;
                return -1;
            }
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            depth--;
            break;
        default:
            break;
        }
    }
    return 0;
}

int toolgov__reader_skip_value(toolgov__reader *r)
{
    if (toolgov__reader_next(r))
        return -1;
    return toolgov__reader_skip_node(r);
}

/* ---- scalars ------------------------------------------------------------- */

int toolgov__reader_is_null(const toolgov__reader *r)
{
    const char *v = toolgov__reader_text(r);
    size_t n = toolgov__reader_len(r);
    if (!toolgov__reader_plain(r))
        return 0;
    return n == 0 || (n == 1 && v[0] == '~') ||
           (n == 4 && (!memcmp(v, "null", 4) || !memcmp(v, "Null", 4) || !memcmp(v, "NULL", 4)));
}

const char *toolgov__reader_describe(char out[160], toolgov__subject what)
{
    if (what.owner_kind)
        snprintf(out, 160, "'%s' of %s '%s'", what.key, what.owner_kind, what.owner);
    else
        snprintf(out, 160, "%s", what.key);
    return out;
}

int toolgov__reader_scalar_ok(toolgov__reader *r, toolgov__subject what)
{
    const unsigned char *v = r->ev.data.scalar.value;
    size_t n = toolgov__reader_len(r), i;
    char w[160];
    if (r->ev.data.scalar.style != YAML_DOUBLE_QUOTED_SCALAR_STYLE)
        return 0;
    for (i = 0; i < n; i++) {
        unsigned char c = v[i];
        if (c == 0) {
            toolgov__reader_error(r, toolgov__reader_mark(r),
                                  "%s contains a NUL character (from an escape such as \\0); "
                                  "a C string cannot hold it: remove it",
                                  toolgov__reader_describe(w, what));
            return -1;
        }
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F ||
            (c == 0xC2 && i + 1 < n && v[i + 1] >= 0x80 && v[i + 1] <= 0x9F)) {
            unsigned cp = c == 0xC2 ? v[i + 1] : c;
            toolgov__reader_error(r, toolgov__reader_mark(r),
                                  "%s contains control character U+%04X (from an escape); "
                                  "only tab, CR and newline are allowed: remove it",
                                  toolgov__reader_describe(w, what), cp);
            return -1;
        }
    }
    return 0;
}

int toolgov__reader_scalar_value(toolgov__reader *r, toolgov__subject what)
{
    char w[160];
    if (toolgov__reader_next(r))
        return -1;
    toolgov__reader_check_props(r);
    if (r->ev.type == YAML_ALIAS_EVENT)
        return 0;
    if (r->ev.type != YAML_SCALAR_EVENT) {
        toolgov__reader_error(r, toolgov__reader_mark(r), "%s must be a single value, not %s",
                              toolgov__reader_describe(w, what), toolgov__reader_kind(r));
        return toolgov__reader_skip_node(r) ? -1 : 0;
    }
    if (toolgov__reader_scalar_ok(r, what))
        return 0;
    return 1;
}

int toolgov__reader_bool(toolgov__reader *r, toolgov__subject what, int *out)
{
    char w[160];
    const char *v = toolgov__reader_text(r);
    size_t n = toolgov__reader_len(r);
    char q[SHOW_MAX];
    static const char *const yes[] = {"true", "True", "TRUE"};
    static const char *const no[] = {"false", "False", "FALSE"};
    size_t i;

    if (!toolgov__reader_plain(r)) {
        toolgov__reader_error(r, toolgov__reader_mark(r),
                              "%s must be a YAML boolean, not the string \"%s\"; remove the "
                              "quotes and write true or false",
                              toolgov__reader_describe(w, what), show(q, v, n));
        return -1;
    }
    for (i = 0; i < 3; i++) {
        if (strlen(yes[i]) == n && !memcmp(v, yes[i], n)) {
            *out = 1;
            return 0;
        }
        if (strlen(no[i]) == n && !memcmp(v, no[i], n)) {
            *out = 0;
            return 0;
        }
    }
    toolgov__reader_describe(w, what);
    if (toolgov__reader_is_null(r))
        toolgov__reader_error(r, toolgov__reader_mark(r), "%s has no value; write true or false",
                              w);
    else
        toolgov__reader_error(r, toolgov__reader_mark(r), "%s must be true or false, not '%s'", w,
                              show(q, v, n));
    return -1;
}

/* ---- mappings ------------------------------------------------------------ */

int toolgov__reader_key_index(const toolgov__reader *r, const char *const *keys, size_t n)
{
    const char *k = toolgov__reader_text(r);
    size_t len = toolgov__reader_len(r), i;
    for (i = 0; i < n; i++)
        if (keys[i][0] == k[0] && strlen(keys[i]) == len && memcmp(keys[i], k, len) == 0)
            return (int)i;
    return -1;
}

/* The current event is a mapping key that is not a scalar: report it and
** skip the key and its value. */
static int bad_key(toolgov__reader *r, const char *where)
{
    toolgov__reader_error(r, toolgov__reader_mark(r),
                          "a key in %s is %s; keys must be plain words such as 'effect'", where,
                          toolgov__reader_kind(r));
    if (toolgov__reader_skip_node(r) || toolgov__reader_next(r))
        return -1;
    return toolgov__reader_skip_node(r);
}

int toolgov__reader_next_key(toolgov__reader *r, const char *where)
{
    for (;;) {
        if (toolgov__reader_next(r))
            return -1;
        if (r->ev.type == YAML_MAPPING_END_EVENT)
            return 0;
        toolgov__reader_check_props(r);
        if (r->ev.type == YAML_SCALAR_EVENT)
            return 1;
        if (r->ev.type == YAML_ALIAS_EVENT) {
            if (toolgov__reader_skip_value(r))
                return -1;
        } else if (bad_key(r, where)) {
            return -1;
        }
    }
}

void toolgov__reader_unknown_key(toolgov__reader *r, const char *where,
                                 const char *const *keys, size_t n)
{
    char q[SHOW_MAX], buf[SHOW_MAX];
    const char *hint;
    const char *v = toolgov__reader_text(r);
    size_t len = toolgov__reader_len(r);
    if (toolgov__diag_over_cap(r->d)) {
        toolgov__reader_error(r, toolgov__reader_mark(r), "%s", ""); /* counted: no suggestion */
        return;
    }
    show(q, v, len);
    memcpy(buf, v, len < SHOW_MAX - 1 ? len : SHOW_MAX - 1);
    buf[len < SHOW_MAX - 1 ? len : SHOW_MAX - 1] = '\0';
    hint = memchr(v, 0, len) ? NULL : toolgov__suggest(buf, keys, n);
    if (hint) {
        toolgov__reader_error(r, toolgov__reader_mark(r), "unknown key '%s' %s; did you mean "
                              "'%s'?", q, where, hint);
    } else {
        char list[256];
        size_t i, o = 0;
        for (i = 0; i < n && o < sizeof list; i++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
                                  i ? (i + 1 == n ? " or " : ", ") : "", keys[i]);
        toolgov__reader_error(r, toolgov__reader_mark(r), "unknown key '%s' %s; expected %s", q,
                              where, list);
    }
}
