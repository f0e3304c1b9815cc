/* SPDX-License-Identifier: MIT */
/*
** diag.c: GCC-style diagnostics and "did you mean" (see diag.h).
*/
#define _POSIX_C_SOURCE 200809L /* strdup, isatty */
#include "base/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct toolgov__diag_record {
    const char *kind; /* "error", "warning", "note" (static) */
    char *file;
    unsigned line, col;
    char *msg;
    long parent;      /* notes: the record they belong to, or -1 */
};

void toolgov__diag_init(toolgov__diag *d, FILE *sink, size_t max_errors)
{
    memset(d, 0, sizeof *d);
    d->sink = sink;
    d->max_errors = max_errors;
    d->format = TOOLGOV_DIAG_TEXT;
    d->tool_name = "toolgov-gen";
    d->parent_ = -1;
}

void toolgov__diag_source(toolgov__diag *d, const char *path, const char *text, size_t len)
{
    char *p, *t;
    if (!d->show_source || d->format != TOOLGOV_DIAG_TEXT)
        return;
    p = strdup(path);
    t = malloc(len ? len : 1);
    if (!p || !t) { /* no source lines then; the messages still come */
        free(p);
        free(t);
        return;
    }
    if (len)
        memcpy(t, text, len);
    free(d->src_path_);
    free(d->src_);
    d->src_path_ = p;
    d->src_ = t;
    d->src_len_ = len;
}

int toolgov__diag_parse_color(const char *value, int fd, int *out)
{
    if (strcmp(value, "always") == 0)
        *out = 1;
    else if (strcmp(value, "never") == 0)
        *out = 0;
    else if (strcmp(value, "auto") == 0) {
        const char *no = getenv("NO_COLOR");
        *out = isatty(fd) && !(no && *no);
    } else
        return -1;
    return 0;
}

int toolgov__diag_configure(toolgov__diag *d, int fd, const char *color, const char *caret,
                            const char *format, char err[256])
{
    int show = 0;
    if (toolgov__diag_parse_color(color ? color : "auto", fd, &d->color)) {
        snprintf(err, 256, "--color wants auto, always or never, not '%s'", color);
        return -1;
    }
    if (caret && strcmp(caret, "always") == 0)
        show = 1;
    else if (!caret || strcmp(caret, "auto") == 0)
        show = isatty(fd);
    else if (strcmp(caret, "never") != 0) {
        snprintf(err, 256, "--caret wants auto, always or never, not '%s'", caret);
        return -1;
    }
    d->show_source = show;
    if (toolgov__diag_parse_format(format ? format : "text", &d->format)) {
        snprintf(err, 256, "--diagnostics-format wants text, json or sarif, not '%s'", format);
        return -1;
    }
    return 0;
}

int toolgov__diag_parse_format(const char *value, enum toolgov__diag_format *out)
{
    if (strcmp(value, "text") == 0)
        *out = TOOLGOV_DIAG_TEXT;
    else if (strcmp(value, "json") == 0)
        *out = TOOLGOV_DIAG_JSON;
    else if (strcmp(value, "sarif") == 0)
        *out = TOOLGOV_DIAG_SARIF;
    else
        return -1;
    return 0;
}

/* Format fmt into out (TOOLGOV_DIAG_MSG_MAX bytes). A message longer than
** that is cut before the UTF-8 character that does not fit, so the text
** stays valid UTF-8 when the arguments were. */
static void format_msg(char *out, const char *fmt, va_list ap)
{
    int n = vsnprintf(out, TOOLGOV_DIAG_MSG_MAX, fmt, ap);
    if (n < 0) {
        out[0] = '\0';
    } else if ((unsigned)n >= TOOLGOV_DIAG_MSG_MAX) {
        size_t end = TOOLGOV_DIAG_MSG_MAX - 1;
        /* Back up over continuation bytes to the lead byte of the character
        ** that was cut, and drop it too. */
        size_t i = end;
        while (i > 0 && ((unsigned char)out[i - 1] & 0xC0) == 0x80)
            i--;
        if (i > 0 && ((unsigned char)out[i - 1] & 0x80)) {
            unsigned char lead = (unsigned char)out[i - 1];
            size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
            if (end - (i - 1) < need)
                end = i - 1;
        }
        out[end] = '\0';
    }
}

/* The line `line` of the registered source, without its end: *out_len
** bytes at the returned pointer, or NULL when there is no such line. */
static const char *source_line(const toolgov__diag *d, const char *file, unsigned line,
                               size_t *out_len)
{
    const char *p, *end;
    unsigned l = 1;
    if (!d->src_ || !file || strcmp(file, d->src_path_) != 0 || line == 0)
        return NULL;
    p = d->src_;
    end = d->src_ + d->src_len_;
    if (d->src_len_ >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    while (l < line && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return NULL;
        p = nl + 1;
        l++;
    }
    if (l != line || p >= end)
        return NULL;
    {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        size_t n = e ? (size_t)(e - p) : (size_t)(end - p);
        if (n && p[n - 1] == '\r')
            n--;
        *out_len = n;
    }
    return p;
}

/* How many terminal columns a code point takes, as wcwidth() says in a
** UTF-8 locale (without asking the locale): 0 for combining marks, zero
** width joiners and variation selectors, 2 for East Asian wide and
** fullwidth characters and emoji, else 1. */
static unsigned cp_width(unsigned long c)
{
    static const unsigned long zero[][2] = {
        {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
        {0x064B, 0x065F}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
        {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x20D0, 0x20FF},
        {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xE0100, 0xE01EF}};
    static const unsigned long wide[][2] = {
        {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},
        {0x23F0, 0x23F0},   {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},
        {0x2648, 0x2653},   {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
        {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},   {0x26CE, 0x26CE},
        {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F3},   {0x26F5, 0x26F5},
        {0x26FA, 0x26FA},   {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
        {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},   {0x2753, 0x2755},
        {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
        {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
        {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
        {0xA960, 0xA97F},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},
        {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F004, 0x1F004},
        {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A}, {0x1F200, 0x1F251},
        {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F9FF},
        {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};
    size_t i;
    for (i = 0; i < sizeof zero / sizeof *zero; i++)
        if (c >= zero[i][0] && c <= zero[i][1])
            return 0;
    for (i = 0; i < sizeof wide / sizeof *wide; i++)
        if (c >= wide[i][0] && c <= wide[i][1])
            return 2;
    return 1;
}

/* The code point of the UTF-8 sequence at p[0..n), for the caret only: a
** line need not be valid UTF-8 (a C source), so any bytes give some code
** point, never reading past n. (text.c's checking decoder sits above diag.) */
static unsigned long cp_at(const unsigned char *p, size_t n, size_t *len)
{
    unsigned long c = p[0];
    size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1, i;
    if (k > n)
        k = n;
    if (k > 1)
        c &= 0x3Fu >> (k - 1);
    for (i = 1; i < k; i++)
        c = c << 6 | (p[i] & 0x3Fu);
    *len = k;
    return c;
}

/* The source line and a caret under column `col` (columns count
** characters; a tab stays a tab, a wide character takes two spaces, so the
** caret lines up), as clang shows it. */
static void emit_source(toolgov__diag *d, const char *file, unsigned line, unsigned col)
{
    size_t n, i;
    unsigned c = 1;
    const char *p = source_line(d, file, line, &n);
    if (!p || col == 0)
        return;
    fwrite(p, 1, n, d->sink);
    fputc('\n', d->sink);
    for (i = 0; i < n && c < col; c++) {
        size_t k;
        unsigned long cp = cp_at((const unsigned char *)p + i, n - i, &k);
        unsigned w = cp == '\t' ? 1 : cp_width(cp);
        i += k;
        while (w--)
            fputc(cp == '\t' ? '\t' : ' ', d->sink);
    }
    for (; c < col; c++)
        fputc(' ', d->sink);
    fputs(d->color ? "\033[1;32m^\033[0m\n" : "^\n", d->sink);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* JSON/SARIF: keep the record for finish(). Out of memory drops it. */
static void record(toolgov__diag *d, const char *kind, const char *file, unsigned line,
                   unsigned col, const char *msg)
{
    toolgov__diag_record *r;
    if (d->nrec_ == d->caprec_) {
        size_t ncap = d->caprec_ ? d->caprec_ * 2 : 16;
        toolgov__diag_record *nr = realloc(d->recs_, ncap * sizeof *nr);
        if (!nr) {
            d->lost_ = 1;
            return;
        }
        d->recs_ = nr;
        d->caprec_ = ncap;
    }
    r = &d->recs_[d->nrec_];
    r->kind = kind;
    r->file = dup_or_null(file);
    r->msg = dup_or_null(msg);
    r->line = line;
    r->col = col;
    if (!r->file || !r->msg) {
        free(r->file);
        free(r->msg);
        d->lost_ = 1;
        return;
    }
    if (kind[0] == 'n') {
        r->parent = d->parent_;
    } else {
        r->parent = -1;
        d->parent_ = (long)d->nrec_;
    }
    d->nrec_++;
}

static void emit(toolgov__diag *d, const char *kind, const char *file,
                 unsigned line, unsigned col, const char *fmt, va_list ap)
{
    char msg[TOOLGOV_DIAG_MSG_MAX];
    const char *kc = kind[0] == 'e' ? "\033[1;31m" : kind[0] == 'w' ? "\033[1;35m" : "\033[1;36m";
    if (!d->sink && d->format == TOOLGOV_DIAG_TEXT)
        return;
    format_msg(msg, fmt, ap);
    if (d->format != TOOLGOV_DIAG_TEXT) {
        record(d, kind, file, line, col, msg);
        return;
    }
    if (d->color)
        fputs("\033[1m", d->sink);
    if (line == 0)
        fprintf(d->sink, "%s: ", file);
    else if (col == 0)
        fprintf(d->sink, "%s:%u: ", file, line);
    else
        fprintf(d->sink, "%s:%u:%u: ", file, line, col);
    if (d->color)
        fprintf(d->sink, "%s%s:\033[0m\033[1m %s\033[0m\n", kc, kind, msg);
    else
        fprintf(d->sink, "%s: %s\n", kind, msg);
    if (d->show_source)
        emit_source(d, file, line, col);
}

static void verror(toolgov__diag *d, const char *file, unsigned line, unsigned col,
                   const char *fmt, va_list ap)
{
    d->errors++;
    d->suppressing = d->max_errors != 0 && d->errors > d->max_errors;
    if (d->suppressing)
        return; /* counted; never formatted */
    emit(d, "error", file, line, col, fmt, ap);
}

static void vnote(toolgov__diag *d, const char *file, unsigned line, unsigned col,
                  const char *fmt, va_list ap)
{
    if (d->suppressing)
        return;
    emit(d, "note", file, line, col, fmt, ap);
}

void toolgov__diag_error(toolgov__diag *d, const char *file, unsigned line,
                         unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(d, file, line, col, fmt, ap);
    va_end(ap);
}

void toolgov__diag_error_at(toolgov__diag *d, const char *file, toolgov__mark at,
                            const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(d, file, at.line, at.col, fmt, ap);
    va_end(ap);
}

void toolgov__diag_warning(toolgov__diag *d, const char *file, unsigned line,
                           unsigned col, const char *fmt, ...)
{
    va_list ap;
    d->warnings++;
    if (d->suppressing)
        return;
    va_start(ap, fmt);
    emit(d, "warning", file, line, col, fmt, ap);
    va_end(ap);
}

void toolgov__diag_note(toolgov__diag *d, const char *file, unsigned line,
                        unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(d, file, line, col, fmt, ap);
    va_end(ap);
}

void toolgov__diag_note_at(toolgov__diag *d, const char *file, toolgov__mark at,
                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vnote(d, file, at.line, at.col, fmt, ap);
    va_end(ap);
}

void toolgov__diag_verror_at(toolgov__diag *d, const char *file, toolgov__mark at,
                             const char *fmt, va_list ap)
{
    verror(d, file, at.line, at.col, fmt, ap);
}

void toolgov__diag_vnote_at(toolgov__diag *d, const char *file, toolgov__mark at,
                            const char *fmt, va_list ap)
{
    vnote(d, file, at.line, at.col, fmt, ap);
}

int toolgov__diag_over_cap(const toolgov__diag *d)
{
    return d->max_errors != 0 && d->errors >= d->max_errors;
}

/* A JSON string: quote, backslash and control characters escaped; the
** text is UTF-8 already. */
static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20 || c == 0x7F)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A file name as a URI reference (RFC 3986): unreserved characters and
** '/' as they are, everything else percent-encoded. */
static void put_uri(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
    fputc('"', f);
}

static void put_json_location(FILE *f, const toolgov__diag_record *r)
{
    fputs("{\"caret\": {\"file\": ", f);
    put_json_string(f, r->file);
    if (r->line)
        fprintf(f, ", \"line\": %u", r->line);
    if (r->col)
        fprintf(f, ", \"column\": %u", r->col);
    fputs("}}", f);
}

static void put_json_record(FILE *f, const toolgov__diag_record *r)
{
    fputs("{\"kind\": ", f);
    put_json_string(f, r->kind);
    fputs(", \"message\": ", f);
    put_json_string(f, r->msg);
    fputs(", \"locations\": [", f);
    put_json_location(f, r);
    fputs("]", f);
}

/* The line that says how many errors the cap left out, into msg: 1, or 0
** when none were. */
#define MORE_ERRORS_MAX 96
static int more_errors(const toolgov__diag *d, char msg[MORE_ERRORS_MAX])
{
    size_t rest;
    if (d->max_errors == 0 || d->errors <= d->max_errors)
        return 0;
    rest = d->errors - d->max_errors;
    snprintf(msg, MORE_ERRORS_MAX, "%zu more error%s not shown (raise --max-errors to see them)",
             rest, rest == 1 ? "" : "s");
    return 1;
}

static void write_json(const toolgov__diag *d, FILE *f)
{
    size_t i, j;
    int first = 1;
    char msg[MORE_ERRORS_MAX];
    fputs("[", f);
    for (i = 0; i < d->nrec_; i++) {
        const toolgov__diag_record *r = &d->recs_[i];
        int child = 0;
        if (r->parent >= 0)
            continue; /* printed among its parent's children */
        fputs(first ? "\n  " : ",\n  ", f);
        first = 0;
        put_json_record(f, r);
        fputs(", \"children\": [", f);
        for (j = i + 1; j < d->nrec_; j++) {
            if (d->recs_[j].parent != (long)i)
                continue;
            fputs(child++ ? ", " : "", f);
            put_json_record(f, &d->recs_[j]);
            fputs("}", f);
        }
        fputs("]}", f);
    }
    if (more_errors(d, msg)) {
        /* what text mode prints last, as a note without a place */
        fputs(first ? "\n  {\"kind\": \"note\", \"message\": "
                    : ",\n  {\"kind\": \"note\", \"message\": ", f);
        put_json_string(f, msg);
        fputs(", \"locations\": [], \"children\": []}", f);
        first = 0;
    }
    fputs(first ? "]\n" : "\n]\n", f);
}

static void put_sarif_location(FILE *f, const toolgov__diag_record *r)
{
    fputs("\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", f);
    put_uri(f, r->file);
    fputs("}", f);
    if (r->line) {
        fprintf(f, ", \"region\": {\"startLine\": %u", r->line);
        if (r->col)
            fprintf(f, ", \"startColumn\": %u", r->col);
        fputs("}", f);
    }
    fputs("}", f);
}

static void write_sarif(const toolgov__diag *d, FILE *f)
{
    size_t i, j;
    int first = 1;
    char msg[MORE_ERRORS_MAX];
    fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
          "  \"version\": \"2.1.0\",\n  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": ", f);
    put_json_string(f, d->tool_name ? d->tool_name : "toolgov-gen");
    if (d->tool_version) {
        fputs(", \"version\": ", f);
        put_json_string(f, d->tool_version);
    }
    fputs("}},\n    \"columnKind\": \"unicodeCodePoints\",\n    \"results\": [", f);
    for (i = 0; i < d->nrec_; i++) {
        const toolgov__diag_record *r = &d->recs_[i];
        long id = 0;
        if (r->parent >= 0)
            continue;
        fputs(first ? "\n      " : ",\n      ", f);
        first = 0;
        fputs("{\"level\": ", f);
        put_json_string(f, r->kind);
        fputs(", \"message\": {\"text\": ", f);
        put_json_string(f, r->msg);
        fputs("}, \"locations\": [{", f);
        put_sarif_location(f, r);
        fputs("}]", f);
        for (j = i + 1; j < d->nrec_; j++) {
            if (d->recs_[j].parent != (long)i)
                continue;
            fputs(id == 0 ? ", \"relatedLocations\": [" : ", ", f);
            fprintf(f, "{\"id\": %ld, ", id++);
            put_sarif_location(f, &d->recs_[j]);
            fputs(", \"message\": {\"text\": ", f);
            put_json_string(f, d->recs_[j].msg);
            fputs("}}", f);
        }
        fputs(id ? "]}" : "}", f);
    }
    fputs(first ? "]" : "\n    ]", f);
    if (more_errors(d, msg)) {
        /* the count text mode prints last, as a notification of the run */
        fputs(",\n    \"invocations\": [{\"executionSuccessful\": false, "
              "\"toolExecutionNotifications\": [{\"level\": \"note\", \"message\": {\"text\": ", f);
        put_json_string(f, msg);
        fputs("}}]}]", f);
    }
    fputs("\n  }]\n}\n", f);
}

size_t toolgov__diag_finish(toolgov__diag *d)
{
    size_t i;
    if (d->format == TOOLGOV_DIAG_TEXT) {
        char msg[MORE_ERRORS_MAX];
        if (d->sink && more_errors(d, msg))
            fprintf(d->sink, "%s\n", msg);
    } else if (d->sink || d->machine_sink) {
        FILE *f = d->machine_sink ? d->machine_sink : d->sink;
        if (d->format == TOOLGOV_DIAG_JSON)
            write_json(d, f);
        else
            write_sarif(d, f);
        fflush(f);
    }
    if (d->sink)
        fflush(d->sink);
    for (i = 0; i < d->nrec_; i++) {
        free(d->recs_[i].file);
        free(d->recs_[i].msg);
    }
    free(d->recs_);
    d->recs_ = NULL;
    d->nrec_ = d->caprec_ = 0;
    d->parent_ = -1;
    free(d->src_path_);
    free(d->src_);
    d->src_path_ = d->src_ = NULL;
    return d->errors;
}

/* Optimal string alignment distance (Levenshtein plus adjacent
** transposition): "wirte" is one edit from "write", the most common kind of
** typo. Words longer than the row buffer are never close to our short
** vocabularies, so they get no suggestion rather than an allocation. */
#define SUGGEST_MAX_LEN 127

static size_t osa_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t rows[3][SUGGEST_MAX_LEN + 2];
    size_t *pp = rows[0], *p = rows[1], *c = rows[2];
    size_t i, j;

    for (j = 0; j <= lb; j++)
        p[j] = j;
    for (i = 1; i <= la; i++) {
        c[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = p[j] + 1;
            if (c[j - 1] + 1 < best)
                best = c[j - 1] + 1;
            if (p[j - 1] + cost < best)
                best = p[j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            c[j] = best;
        }
        {
            size_t *t = pp;
            pp = p;
            p = c;
            c = t;
        }
    }
    return p[lb];
}

const char *toolgov__suggest(const char *word, const char *const *candidates,
                             size_t n)
{
    size_t lw, limit, best_d = (size_t)-1, i;
    const char *best = NULL;

    if (!word)
        return NULL;
    lw = strlen(word);
    if (lw == 0 || lw > SUGGEST_MAX_LEN)
        return NULL;
    limit = lw / 3 > 1 ? lw / 3 : 1;
    for (i = 0; i < n; i++) {
        const char *cand = candidates[i];
        size_t lc, dist;
        if (!cand)
            continue;
        lc = strlen(cand);
        if (lc > SUGGEST_MAX_LEN)
            continue;
        if ((lc > lw ? lc - lw : lw - lc) > limit)
            continue;
        dist = osa_distance(word, lw, cand, lc);
        if (dist == 0)
            continue; /* the word itself is not a suggestion */
        if (dist <= limit && dist < best_d) {
            best_d = dist;
            best = cand;
        }
    }
    return best;
}
