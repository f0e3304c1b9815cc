/* SPDX-License-Identifier: MIT */
/*
** exargs.c: the flat JSON object reader of exargs.h.
**
** A recursive-descent reader over a bounded input with no recursion at all:
** the grammar it accepts is one object of scalar members, so one loop over
** members does. It follows RFC 8259 strictly (no comments, no trailing
** commas, no single quotes, no leading zeros, no bare control bytes in
** strings) because a lenient reader would accept arguments whose meaning is
** a guess, and a guessed write is the failure toolgov exists to prevent.
*/
#include "exargs.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const unsigned char *p;
    const unsigned char *end;
    const unsigned char *start;
    exargs_object *obj;
} reader;

static int fail(reader *r, const char *what)
{
    snprintf(r->obj->error, sizeof r->obj->error, "%s at byte %lu", what,
             (unsigned long)(r->p - r->start) + 1u);
    return TOOLGOV_EUSAGE;
}

static void skip_ws(reader *r)
{
    while (r->p < r->end &&
           (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static int put(reader *r, unsigned char c)
{
    exargs_object *o = r->obj;
    if (o->used >= sizeof o->buf)
        return fail(r, "arguments too long");
    o->buf[o->used++] = (char)c;
    return 0;
}

static int put_utf8(reader *r, unsigned long cp)
{
    int rc = 0;
    if (cp < 0x80) {
        rc = put(r, (unsigned char)cp);
    } else if (cp < 0x800) {
        if (!(rc = put(r, (unsigned char)(0xC0 | (cp >> 6)))))
            rc = put(r, (unsigned char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        if (!(rc = put(r, (unsigned char)(0xE0 | (cp >> 12)))) &&
            !(rc = put(r, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)))))
            rc = put(r, (unsigned char)(0x80 | (cp & 0x3F)));
    } else {
        if (!(rc = put(r, (unsigned char)(0xF0 | (cp >> 18)))) &&
            !(rc = put(r, (unsigned char)(0x80 | ((cp >> 12) & 0x3F)))) &&
            !(rc = put(r, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)))))
            rc = put(r, (unsigned char)(0x80 | (cp & 0x3F)));
    }
    return rc;
}

static int hex4(reader *r, unsigned long *out)
{
    unsigned long v = 0;
    int i;
    if (r->end - r->p < 4)
        return fail(r, "truncated \\u escape");
    for (i = 0; i < 4; i++) {
        unsigned char c = r->p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned long)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned long)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned long)(c - 'A' + 10);
        else
            return fail(r, "bad hex digit in \\u escape");
    }
    r->p += 4;
    *out = v;
    return 0;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when it is not one:
** overlong forms, surrogates and code points past U+10FFFF are refused. */
static size_t utf8_len(const unsigned char *p, const unsigned char *end)
{
    unsigned char c = p[0];
    size_t n, i;
    unsigned long cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if ((size_t)(end - p) < n)
        return 0;
    for (i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* Decode the string at r->p (which points at the opening quote) into the
** object's buffer; *out gets its start, *out_len its length. */
static int read_string(reader *r, const char **out, size_t *out_len)
{
    exargs_object *o = r->obj;
    size_t begin = o->used;
    int rc;

    r->p++; /* the opening quote */
    for (;;) {
        unsigned char c;
        if (r->p >= r->end)
            return fail(r, "unterminated string");
        c = *r->p;
        if (c == '"') {
            r->p++;
            break;
        }
        if (c < 0x20)
            return fail(r, "control byte in string (escape it)");
        if (c == '\\') {
            unsigned long cp;
            r->p++;
            if (r->p >= r->end)
                return fail(r, "unterminated escape");
            c = *r->p++;
            switch (c) {
            case '"': case '\\': case '/':
                rc = put(r, c);
                break;
            case 'b': rc = put(r, '\b'); break;
            case 'f': rc = put(r, '\f'); break;
            case 'n': rc = put(r, '\n'); break;
            case 'r': rc = put(r, '\r'); break;
            case 't': rc = put(r, '\t'); break;
            case 'u':
                if ((rc = hex4(r, &cp)))
                    return rc;
                if (cp >= 0xDC00 && cp <= 0xDFFF)
                    return fail(r, "lone low surrogate in \\u escape");
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    unsigned long lo;
                    if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
                        return fail(r, "high surrogate without its low half");
                    r->p += 2;
                    if ((rc = hex4(r, &lo)))
                        return rc;
                    if (lo < 0xDC00 || lo > 0xDFFF)
                        return fail(r, "high surrogate without its low half");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                if (cp == 0)
                    return fail(r, "NUL character in string");
                rc = put_utf8(r, cp);
                break;
            default:
                r->p--;
                return fail(r, "unknown escape in string");
            }
            if (rc)
                return rc;
        } else {
            size_t n = utf8_len(r->p, r->end), i;
            if (n == 0)
                return fail(r, "invalid UTF-8 in string");
            for (i = 0; i < n; i++)
                if ((rc = put(r, r->p[i])))
                    return rc;
            r->p += n;
        }
    }
    if ((rc = put(r, '\0')))
        return rc;
    *out = o->buf + begin;
    *out_len = o->used - begin - 1u;
    return 0;
}

/* A JSON number, checked against the grammar before strtod sees it so that
** "0x10", "1.", ".5", "+1", "01", "inf" and "nan" are all refused. */
static int read_number(reader *r, double *out)
{
    const unsigned char *s = r->p, *q = r->p;
    char tmp[EXARGS_MAX_NUMBER + 1];
    size_t n;
    char *endp;

    if (q < r->end && *q == '-')
        q++;
    if (q >= r->end || !(*q >= '0' && *q <= '9'))
        return fail(r, "malformed number");
    if (*q == '0') {
        q++;
    } else {
        while (q < r->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < r->end && *q == '.') {
        q++;
        if (q >= r->end || !(*q >= '0' && *q <= '9'))
            return fail(r, "malformed number (digit expected after '.')");
        while (q < r->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < r->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < r->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= r->end || !(*q >= '0' && *q <= '9'))
            return fail(r, "malformed number (digit expected in exponent)");
        while (q < r->end && *q >= '0' && *q <= '9')
            q++;
    }
    n = (size_t)(q - s);
    if (n > EXARGS_MAX_NUMBER)
        return fail(r, "number literal too long");
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    *out = strtod(tmp, &endp);
    if (endp != tmp + n || !isfinite(*out))
        return fail(r, "number out of range");
    r->p = q;
    return 0;
}

static int literal(reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return 0;
    r->p += n;
    return 1;
}

int exargs_parse(exargs_object *out, const char *text, size_t len)
{
    reader r;
    int rc;

    if (!out)
        return TOOLGOV_EINVAL;
    out->count = 0;
    out->used = 0;
    out->error[0] = '\0';
    r.start = r.p = (const unsigned char *)(text ? text : "");
    r.end = r.p + (text ? len : 0);
    r.obj = out;
    if (len > EXARGS_MAX_TEXT) {
        snprintf(out->error, sizeof out->error,
                 "arguments are %lu bytes, more than the %u accepted",
                 (unsigned long)len, EXARGS_MAX_TEXT);
        return TOOLGOV_EUSAGE;
    }
    if (len >= 3 && r.p[0] == 0xEF && r.p[1] == 0xBB && r.p[2] == 0xBF)
        return fail(&r, "byte order mark before the object");

    skip_ws(&r);
    if (r.p >= r.end)
        return fail(&r, "empty arguments (expected a JSON object)");
    if (*r.p != '{')
        return fail(&r, "arguments must be a JSON object");
    r.p++;
    skip_ws(&r);
    if (r.p < r.end && *r.p == '}') {
        r.p++;
        goto tail;
    }
    for (;;) {
        exargs_field *f;
        size_t i;

        skip_ws(&r);
        if (r.p >= r.end || *r.p != '"')
            return fail(&r, "expected a quoted key");
        if (out->count >= EXARGS_MAX_FIELDS)
            return fail(&r, "too many keys");
        f = &out->fields[out->count];
        memset(f, 0, sizeof *f);
        {
            size_t klen;
            if ((rc = read_string(&r, &f->key, &klen)))
                return rc;
            if (klen != strlen(f->key))
                return fail(&r, "NUL character in key");
        }
        for (i = 0; i < out->count; i++)
            if (strcmp(out->fields[i].key, f->key) == 0)
                return fail(&r, "duplicate key");
        skip_ws(&r);
        if (r.p >= r.end || *r.p != ':')
            return fail(&r, "expected ':' after key");
        r.p++;
        skip_ws(&r);
        if (r.p >= r.end)
            return fail(&r, "missing value");
        switch (*r.p) {
        case '"':
            f->type = EXARGS_STRING;
            if ((rc = read_string(&r, &f->str, &f->str_len)))
                return rc;
            break;
        case '{':
        case '[':
            return fail(&r, "nested objects and arrays are not accepted");
        case 't':
        case 'f':
        case 'n':
            if (literal(&r, "true")) {
                f->type = EXARGS_BOOL;
                f->boolean = 1;
            } else if (literal(&r, "false")) {
                f->type = EXARGS_BOOL;
                f->boolean = 0;
            } else if (literal(&r, "null")) {
                f->type = EXARGS_NULL;
            } else {
                return fail(&r, "unexpected word (strings must be quoted)");
            }
            break;
        default:
            f->type = EXARGS_NUMBER;
            if ((rc = read_number(&r, &f->num)))
                return rc;
            break;
        }
        out->count++;
        skip_ws(&r);
        if (r.p >= r.end)
            return fail(&r, "unterminated object");
        if (*r.p == ',') {
            r.p++;
            continue;
        }
        if (*r.p == '}') {
            r.p++;
            break;
        }
        return fail(&r, "expected ',' or '}'");
    }
tail:
    skip_ws(&r);
    if (r.p != r.end)
        return fail(&r, "text after the object");
    return 0;
}

static const char *type_name(exargs_type t)
{
    switch (t) {
    case EXARGS_STRING: return "a string";
    case EXARGS_NUMBER: return "a number";
    case EXARGS_INT: return "a whole number";
    case EXARGS_BOOL: return "true or false";
    case EXARGS_NULL: break;
    }
    return "null";
}

static int vusage(toolgov_result *out, const char *tool, const char *usage,
                  const char *fmt, va_list ap)
{
    char what[256];
    vsnprintf(what, sizeof what, fmt, ap);
    if (toolgov_result_set(out, "", 0) ||
        toolgov_result_printf(out, "error: %s: %s\nusage: %s %s", tool, what,
                              tool, usage))
        return TOOLGOV_ENOMEM;
    return TOOLGOV_EUSAGE;
}

int exargs_usage(toolgov_result *out, const char *tool, const char *usage,
                 const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = vusage(out, tool, usage, fmt, ap);
    va_end(ap);
    return rc;
}

int exargs_read(exargs_object *obj, const toolgov_call *call,
                const exargs_spec *spec, size_t n, const char *usage,
                toolgov_result *out)
{
    const char *tool = call && call->tool ? call->tool : "tool";
    size_t i, j;

    if (!call || !call->args)
        return exargs_usage(out, tool, usage, "no arguments given");
    if (exargs_parse(obj, call->args, call->args_len))
        return exargs_usage(out, tool, usage, "arguments are not valid JSON: %s",
                            obj->error);
    for (i = 0; i < obj->count; i++) {
        const exargs_field *f = &obj->fields[i];
        const exargs_spec *s = NULL;
        for (j = 0; j < n; j++)
            if (strcmp(spec[j].key, f->key) == 0)
                s = &spec[j];
        if (!s)
            return exargs_usage(out, tool, usage, "unknown argument '%s'", f->key);
        if (f->type == EXARGS_NULL)
            continue;
        if (s->type == EXARGS_INT) {
            if (f->type != EXARGS_NUMBER || f->num != floor(f->num) ||
                fabs(f->num) > 2147483647.0)
                return exargs_usage(out, tool, usage, "'%s' must be %s",
                                    f->key, type_name(s->type));
        } else if (f->type != s->type) {
            return exargs_usage(out, tool, usage, "'%s' must be %s, not %s",
                                f->key, type_name(s->type), type_name(f->type));
        }
    }
    for (j = 0; j < n; j++) {
        const exargs_field *f;
        if (!spec[j].required)
            continue;
        f = exargs_find(obj, spec[j].key);
        if (!f)
            return exargs_usage(out, tool, usage, "missing required argument '%s'",
                                spec[j].key);
        if (f->type == EXARGS_STRING && f->str_len == strspn(f->str, " \t\r\n"))
            return exargs_usage(out, tool, usage, "'%s' must not be empty",
                                spec[j].key);
    }
    return 0;
}

const exargs_field *exargs_find(const exargs_object *obj, const char *key)
{
    size_t i;
    for (i = 0; i < obj->count; i++)
        if (obj->fields[i].type != EXARGS_NULL && strcmp(obj->fields[i].key, key) == 0)
            return &obj->fields[i];
    return NULL;
}

const char *exargs_str(const exargs_object *obj, const char *key, const char *dflt)
{
    const exargs_field *f = exargs_find(obj, key);
    return f && f->type == EXARGS_STRING ? f->str : dflt;
}

double exargs_num(const exargs_object *obj, const char *key, double dflt)
{
    const exargs_field *f = exargs_find(obj, key);
    return f && f->type == EXARGS_NUMBER ? f->num : dflt;
}

long exargs_int(const exargs_object *obj, const char *key, long dflt)
{
    const exargs_field *f = exargs_find(obj, key);
    return f && f->type == EXARGS_NUMBER ? (long)f->num : dflt;
}

int exargs_bool(const exargs_object *obj, const char *key, int dflt)
{
    const exargs_field *f = exargs_find(obj, key);
    return f && f->type == EXARGS_BOOL ? f->boolean : dflt;
}
