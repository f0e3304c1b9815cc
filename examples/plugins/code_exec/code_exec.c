/* SPDX-License-Identifier: MIT */
/*
** code_exec.c: a sandboxed toy evaluator. It evaluates one arithmetic
** expression and nothing else: no variables, no loops, no I/O, no shell.
** The manifest declares it `read` because nothing of the user's changes;
** the sandbox is the grammar itself, bounded in length and nesting depth so
** hostile input costs at most a few thousand steps and never the stack.
**
**   expr    := term (('+' | '-') term)*
**   term    := unary (('*' | '/' | '%') unary)*
**   unary   := ('-' | '+') unary | power
**   power   := primary ('^' unary)?          right-associative
**   primary := number | '(' expr ')' | name '(' expr (',' expr)* ')'
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_exec.toolgov.h"
#include "exworld.h"

#define MAX_CODE 512
#define MAX_DEPTH 48

typedef struct parser {
    const char *src;
    const char *p;
    int depth;
    int err;           /* 0, TOOLGOV_EUSAGE (bad expression), TOOLGOV_EHANDLER (bad value) */
    char msg[128];
} parser;

static double expr(parser *ps);

static double fail(parser *ps, int err, const char *what)
{
    if (!ps->err) {
        ps->err = err;
        snprintf(ps->msg, sizeof ps->msg, "%s at column %lu", what,
                 (unsigned long)(ps->p - ps->src) + 1u);
    }
    return 0.0;
}

static void skip(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static int accept(parser *ps, char c)
{
    skip(ps);
    if (*ps->p != c)
        return 0;
    ps->p++;
    return 1;
}

static double number(parser *ps)
{
    const char *s = ps->p;
    char tmp[64];
    size_t n;
    while ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '.')
        ps->p++;
    if (*ps->p == 'e' || *ps->p == 'E') {
        const char *q = ps->p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (*q >= '0' && *q <= '9') {
            while (*q >= '0' && *q <= '9')
                q++;
            ps->p = q;
        }
    }
    n = (size_t)(ps->p - s);
    if (n == 0 || n >= sizeof tmp) {
        ps->p = s;
        return fail(ps, TOOLGOV_EUSAGE, "malformed number");
    }
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    {
        char *end;
        double v = strtod(tmp, &end);
        if (end != tmp + n || strchr(tmp, '.') != strrchr(tmp, '.')) {
            ps->p = s;
            return fail(ps, TOOLGOV_EUSAGE, "malformed number");
        }
        return v;
    }
}

static double call_function(parser *ps, const char *name, size_t len)
{
    double a[8];
    int n = 0, i;
    double v;

#define IS(word) (len == sizeof word - 1 && !memcmp(name, word, len))
    if (!IS("sqrt") && !IS("abs") && !IS("round") && !IS("min") && !IS("max")) {
        ps->p = name;
        return fail(ps, TOOLGOV_EUSAGE, "unknown function (known: sqrt, abs, round, min, max)");
    }
    if (!accept(ps, '('))
        return fail(ps, TOOLGOV_EUSAGE, "'(' expected after the function name");
    do {
        if (n == 8)
            return fail(ps, TOOLGOV_EUSAGE, "too many arguments");
        a[n++] = expr(ps);
        if (ps->err)
            return 0.0;
    } while (accept(ps, ','));
    if (!accept(ps, ')'))
        return fail(ps, TOOLGOV_EUSAGE, "')' expected");

    if (IS("sqrt") || IS("abs") || IS("round")) {
        if (n != 1)
            return fail(ps, TOOLGOV_EUSAGE, "this function takes one argument");
        if (IS("sqrt")) {
            if (a[0] < 0)
                return fail(ps, TOOLGOV_EHANDLER, "square root of a negative number");
            return sqrt(a[0]);
        }
        return IS("abs") ? fabs(a[0]) : floor(a[0] + 0.5);
    }
    /* min or max */
    v = a[0];
    for (i = 1; i < n; i++)
        v = IS("min") ? (a[i] < v ? a[i] : v) : (a[i] > v ? a[i] : v);
    return v;
#undef IS
}


static double primary(parser *ps)
{
    double v;
    skip(ps);
    if (*ps->p == '(') {
        ps->p++;
        v = expr(ps);
        if (!ps->err && !accept(ps, ')'))
            return fail(ps, TOOLGOV_EUSAGE, "')' expected");
        return v;
    }
    if ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '.')
        return number(ps);
    if (*ps->p >= 'a' && *ps->p <= 'z') {
        const char *s = ps->p;
        while (*ps->p >= 'a' && *ps->p <= 'z')
            ps->p++;
        return call_function(ps, s, (size_t)(ps->p - s));
    }
    if (*ps->p == '\0')
        return fail(ps, TOOLGOV_EUSAGE, "unexpected end of expression");
    return fail(ps, TOOLGOV_EUSAGE, "unexpected character");
}

static double unary(parser *ps);

static double power(parser *ps)
{
    double base = primary(ps);
    if (ps->err)
        return 0.0;
    if (accept(ps, '^')) {
        double e = unary(ps);
        if (ps->err)
            return 0.0;
        return pow(base, e);
    }
    return base;
}

static double unary(parser *ps)
{
    double v;
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, TOOLGOV_EUSAGE, "expression nested too deeply");
    if (accept(ps, '-'))
        v = -unary(ps);
    else if (accept(ps, '+'))
        v = unary(ps);
    else
        v = power(ps);
    ps->depth--;
    return v;
}

static double term(parser *ps)
{
    double v = unary(ps);
    while (!ps->err) {
        double r;
        char op;
        skip(ps);
        op = *ps->p;
        if (op != '*' && op != '/' && op != '%')
            break;
        ps->p++;
        r = unary(ps);
        if (ps->err)
            break;
        if ((op == '/' || op == '%') && r == 0.0)
            return fail(ps, TOOLGOV_EHANDLER, "division by zero");
        v = op == '*' ? v * r : op == '/' ? v / r : fmod(v, r);
    }
    return v;
}

static double expr(parser *ps)
{
    double v;
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, TOOLGOV_EUSAGE, "expression nested too deeply");
    v = term(ps);
    while (!ps->err) {
        double r;
        if (accept(ps, '+')) {
            r = term(ps);
            v += r;
        } else if (accept(ps, '-')) {
            r = term(ps);
            v -= r;
        } else {
            break;
        }
    }
    ps->depth--;
    return v;
}

/* The manifest bounds the expression at 512 characters; the bytes are
** bounded again here, since the grammar walks bytes. */
CODE_EXEC_TOOLGOV_HANDLER(code_exec, call, args, out)
{
    const toolgov_str *code = &args->code;
    parser ps;
    double v;

    if (code->len > MAX_CODE)
        return exworld_refuse(out, call->tool, "'code' is longer than %d bytes", MAX_CODE);
    if (strlen(code->ptr) != code->len)
        return exworld_refuse(out, call->tool, "'code' contains a NUL character");
    memset(&ps, 0, sizeof ps);
    ps.src = ps.p = code->ptr;
    v = expr(&ps);
    skip(&ps);
    if (!ps.err && *ps.p)
        fail(&ps, TOOLGOV_EUSAGE, "unexpected text after the expression");
    if (!ps.err && !isfinite(v))
        fail(&ps, TOOLGOV_EHANDLER, "the result is not a finite number");
    if (ps.err == TOOLGOV_EUSAGE)
        return exworld_refuse(out, call->tool, "%s", ps.msg);
    if (ps.err) {
        toolgov_result_set(out, "", 0);
        toolgov_result_printf(out, "error: %s: %s", call->tool, ps.msg);
        return ps.err;
    }
    if (v == 0.0)
        v = 0.0; /* print -0 as 0 */
    return toolgov_result_printf(out, "%s = %.12g", code->ptr, v) ? TOOLGOV_ENOMEM : 0;
}
