/* SPDX-License-Identifier: MIT */
/*
** opts.c: option matching and conversion for both programs (see opts.h).
*/
#include "base/opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int toolgov__opt_is_help(const char *a)
{
    return strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0;
}

int toolgov__opt_is_version(const char *a)
{
    return strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0;
}

static int parse_count(const char *s, size_t max, size_t *out)
{
    char *end;
    unsigned long long v;
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end != '\0' || v > (unsigned long long)(size_t)-1 || (max && v > max))
        return -1;
    *out = (size_t)v;
    return 0;
}

int toolgov__opt_take(const toolgov__opt *opts, size_t n, int argc, char **argv, int *i,
                      char err[TOOLGOV_OPT_ERR_MAX])
{
    const char *a = argv[*i], *v;
    size_t k;

    for (k = 0; k < n; k++) {
        const toolgov__opt *o = &opts[k];
        size_t len = strlen(o->name);
        if (strncmp(a, o->name, len) != 0 || (a[len] != '\0' && a[len] != '='))
            continue;
        if (a[len] == '=') {
            v = a + len + 1;
        } else {
            if (*i + 1 >= argc) {
                snprintf(err, TOOLGOV_OPT_ERR_MAX, "%s needs %s", o->name,
                         o->kind == TOOLGOV_OPT_COUNT ? "a number" : "a value");
                return -1;
            }
            v = argv[++*i];
        }
        switch (o->kind) {
        case TOOLGOV_OPT_TEXT:
            if (!*v) {
                snprintf(err, TOOLGOV_OPT_ERR_MAX, "%s needs a non-empty value", o->name);
                return -1;
            }
            *o->text = v;
            return 1;
        case TOOLGOV_OPT_TEXT_EMPTY:
            *o->text = v;
            return 1;
        case TOOLGOV_OPT_COUNT:
            if (parse_count(v, o->max, o->count)) {
                if (o->max)
                    snprintf(err, TOOLGOV_OPT_ERR_MAX, "%s wants a number from 0 to %zu, not '%s'",
                             o->name, o->max, v);
                else
                    snprintf(err, TOOLGOV_OPT_ERR_MAX, "%s wants a non-negative number, not '%s'",
                             o->name, v);
                return -1;
            }
            return 1;
        default:
            break;
        }
    }
    return 0;
}
