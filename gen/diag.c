/* SPDX-License-Identifier: MIT */
/*
** diag.c: GCC-style diagnostics and "did you mean" (see diag.h).
*/
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void toolgov__diag_init(toolgov__diag *d, FILE *sink, size_t max_errors)
{
    d->sink = sink;
    d->max_errors = max_errors;
    d->errors = 0;
    d->warnings = 0;
    d->suppressing = 0;
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

static void emit(toolgov__diag *d, const char *kind, const char *file,
                 unsigned line, unsigned col, const char *fmt, va_list ap)
{
    char msg[TOOLGOV_DIAG_MSG_MAX];
    if (!d->sink)
        return;
    format_msg(msg, fmt, ap);
    if (line == 0)
        fprintf(d->sink, "%s: %s: %s\n", file, kind, msg);
    else if (col == 0)
        fprintf(d->sink, "%s:%u: %s: %s\n", file, line, kind, msg);
    else
        fprintf(d->sink, "%s:%u:%u: %s: %s\n", file, line, col, kind, msg);
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

size_t toolgov__diag_finish(toolgov__diag *d)
{
    if (d->max_errors != 0 && d->errors > d->max_errors && d->sink) {
        size_t rest = d->errors - d->max_errors;
        fprintf(d->sink, "%zu more error%s not shown (raise --max-errors to see them)\n",
                rest, rest == 1 ? "" : "s");
    }
    if (d->sink)
        fflush(d->sink);
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
