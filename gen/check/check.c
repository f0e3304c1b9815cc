/* SPDX-License-Identifier: MIT */
/*
** check.c: `toolgov-gen check`, the command line of the drift check.
**
**   toolgov-gen check --manifest FILE [--depfile F --stamp F] [--max-errors N]
**                     [--jobs N] -- <compiler args> SOURCES...
**
** Loads the manifest, parses every source with libclang in this one process
** (scan.c), reports clang's errors or the drift (compare.c), writes a depfile
** of every file read and touches the stamp only when there is nothing to
** report. A stamp from an earlier success is removed on failure, so a build
** system never mistakes a failed check for a passed one.
*/
#define _XOPEN_SOURCE 700 /* strdup, getline, rename, unlink; realpath is XSI in glibc */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <toolgov/toolgov.h>

#include "check/check.h"
#include "base/diag.h"
#include "check/compare.h"
#include "base/fileio.h"
#include "manifest/manifest.h"
#include "base/opts.h"
#include "check/scan.h"

#define DEFAULT_MAX_ERRORS 50
#ifndef TOOLGOV_GEN_VERSION
#define TOOLGOV_GEN_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: toolgov-gen check --manifest FILE [--depfile FILE --stamp FILE]\n"
    "                         [--max-errors N] [--jobs N] [--color=WHEN] [--caret=WHEN]\n"
    "                         [--diagnostics-format=text|json|sarif]\n"
    "                         -- [compiler args] SOURCES...\n"
    "\n"
    "Parses the plugin's SOURCES with libclang and fails when they disagree with\n"
    "the manifest: a handler the manifest does not declare, a declared tool\n"
    "without a handler, or toolgov_register_tool() with an undeclared name.\n"
    "Compiler args are the plugin's -I, -D, -U, -include and -std flags (a -std=\n"
    "reaches only the sources of its language, C or C++); warning flags are\n"
    "dropped. --depfile writes a Makefile-syntax depfile of every file\n"
    "read, with the --stamp file as its target; the stamp is touched on success.\n"
    "--jobs N parses up to N sources at once (default: one per CPU, at most 8).\n"
    "--toolgov-source=FILE names a source whose own arguments follow (a -x c or\n"
    "-x c++ among them sets its language); @FILE reads arguments from FILE, one\n"
    "a line (the CMake step writes such response files per language).\n"
    "Exit status: 0 no drift, 1 drift or a source that did not parse, 2 usage.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("toolgov-gen: check: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n", stderr);
    fputs(usage_text, stderr);
    return 2;
}

/* Compiler options whose value is the next argument: that value is not a
** source even when it does not start with '-'. */
static int takes_value(const char *a)
{
    static const char *const opts[] = {
        "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
        "-idirafter", "-isysroot", "--sysroot", "-x", "-resource-dir", "-target",
        "-Xclang", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-arch",
        "-MF", "-MT", "-MQ", "-o",
    };
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (strcmp(a, opts[i]) == 0)
            return 1;
    return 0;
}

/* Options that make no sense for a parse (output, dependency files) or that
** clang may reject or turn into errors (gcc's warning flags, -Werror,
** -pedantic-errors): the check drops them. Returns how many arguments to
** drop (0: keep; 2: the option and its value). */
static int dropped(const char *a)
{
    if (strcmp(a, "-o") == 0 || strcmp(a, "-MF") == 0 || strcmp(a, "-MT") == 0 ||
        strcmp(a, "-MQ") == 0)
        return 2;
    if (strncmp(a, "-W", 2) == 0 || strncmp(a, "-pedantic", 9) == 0 ||
        strcmp(a, "-c") == 0 || strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0 ||
        strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0 || strcmp(a, "-MP") == 0 ||
        strcmp(a, "-w") == 0)
        return 1;
    return 0;
}

/* The depfile (fileio writes it): the stamp depends on the manifest and on
** every file the scan read. */
static int write_depfile(const char *path, const char *stamp, const char *manifest,
                         const toolgov__scan *s)
{
    const char **deps = malloc((s->file_count + 1) * sizeof *deps);
    int rc;
    if (!deps)
        return TOOLGOV_ENOMEM;
    deps[0] = manifest;
    for (size_t i = 0; i < s->file_count; i++)
        deps[i + 1] = s->files[i];
    rc = toolgov__fileio_write_depfile(path, stamp, deps, s->file_count + 1);
    free(deps);
    return rc;
}

/* libclang finds its builtin headers (stddef.h, stdarg.h) next to itself;
** when it cannot (a relocated install), the resource directory found at
** configure time is passed, unless the caller gave one. */
static int want_resource_dir(const char *const *args, size_t nargs)
{
#ifdef TOOLGOV_CLANG_RESOURCE_DIR
    struct stat st;
    for (size_t i = 0; i < nargs; i++)
        if (strncmp(args[i], "-resource-dir", 13) == 0)
            return 0;
    return stat(TOOLGOV_CLANG_RESOURCE_DIR "/include/stddef.h", &st) == 0;
#else
    (void)args;
    (void)nargs;
    return 0;
#endif
}

/* The words after "--", as the command gives them or read from response
** files, sorted into common compiler arguments, sources, and the arguments
** of one source (a "--toolgov-source=PATH" group). Every array grows as
** needed; owned[] holds the strings made here. */
typedef struct tail {
    const char **words;
    size_t nwords, wcap;
    char **owned;
    size_t nowned, ocap;
    const char **args, **sargs, **sources;
    size_t nargs, nsargs, nsources;
    size_t *sfirst, *scount; /* per source: its arguments in sargs */
} tail;

static int push(const char ***arr, size_t *n, size_t *cap, const char *v)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        const char **a = realloc((void *)*arr, ncap * sizeof *a);
        if (!a)
            return TOOLGOV_ENOMEM;
        *arr = a;
        *cap = ncap;
    }
    (*arr)[(*n)++] = v;
    return 0;
}

static char *keep(tail *t, char *w)
{
    if (!w || push((const char ***)&t->owned, &t->nowned, &t->ocap, w) < 0) {
        free(w);
        return NULL;
    }
    return w;
}

/* CMake passes an option of two words as one item "SHELL:-include cfg.h"
** (a list of two would be de-duplicated apart). Split such an item into
** words at blanks, quotes grouping as in a shell; everything else is one
** word. 0 or TOOLGOV_ENOMEM. */
static int add_item(tail *t, const char *a)
{
    if (strncmp(a, "SHELL:", 6) != 0)
        return push(&t->words, &t->nwords, &t->wcap, a);
    const char *p = a + 6;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return 0;
        char *w = keep(t, malloc(strlen(p) + 1)), *o = w;
        if (!w)
            return TOOLGOV_ENOMEM;
        char quote = 0;
        for (; *p && (quote || (*p != ' ' && *p != '\t')); p++) {
            if (quote && *p == quote)
                quote = 0;
            else if (!quote && (*p == '"' || *p == '\''))
                quote = *p;
            else
                *o++ = *p;
        }
        *o = '\0';
        if (push(&t->words, &t->nwords, &t->wcap, w) < 0)
            return TOOLGOV_ENOMEM;
    }
}

/* An item "@FILE": FILE's lines are items. A line that is only -D, -U or
** -I is a list element a generator expression left empty: dropped (it
** would take the next line as its value). Returns 0, TOOLGOV_ENOMEM, or
** TOOLGOV_EFAIL after printing why the file cannot be read. */
static int add_response_file(tail *t, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: error: cannot read this response file: %s\n", path,
                strerror(errno));
        return TOOLGOV_EFAIL;
    }
    int rc = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (n == 0 || strcmp(line, "-D") == 0 || strcmp(line, "-U") == 0 ||
            strcmp(line, "-I") == 0)
            continue;
        char *w = keep(t, strdup(line));
        rc = w ? add_item(t, w) : TOOLGOV_ENOMEM;
    }
    if (rc == 0 && ferror(f)) {
        fprintf(stderr, "%s: error: cannot read this response file: %s\n", path,
                strerror(errno));
        rc = TOOLGOV_EFAIL;
    }
    free(line);
    fclose(f);
    return rc;
}

#define SOURCE_GROUP "--toolgov-source="

/* Room for one more source's argument range. */
static int grow_ranges(tail *t, size_t *ncap)
{
    if (t->nsources < *ncap)
        return 0;
    size_t nc = *ncap ? *ncap * 2 : 16;
    size_t *f = realloc(t->sfirst, nc * sizeof *f);
    if (!f)
        return TOOLGOV_ENOMEM;
    t->sfirst = f;
    size_t *c = realloc(t->scount, nc * sizeof *c);
    if (!c)
        return TOOLGOV_ENOMEM;
    t->scount = c;
    *ncap = nc;
    return 0;
}

/* Sort the words into arguments and sources (see tail). */
static int sort_words(tail *t)
{
    size_t acap = 0, scap = 0, srccap = 0, ncap = 0;
    long group = -1; /* the source whose arguments follow, or -1 */
    for (size_t w = 0; w < t->nwords; w++) {
        const char *a = t->words[w];
        int rc = 0;
        if (strncmp(a, SOURCE_GROUP, sizeof SOURCE_GROUP - 1) == 0) {
            a += sizeof SOURCE_GROUP - 1;
            if (grow_ranges(t, &ncap) < 0)
                return TOOLGOV_ENOMEM;
            group = (long)t->nsources;
            t->sfirst[group] = t->nsargs;
            t->scount[group] = 0;
            rc = push(&t->sources, &t->nsources, &srccap, a);
            if (rc < 0)
                return rc;
            continue;
        }
        int drop = dropped(a);
        if (drop) {
            w += (size_t)drop - 1;
            continue;
        }
        if (a[0] == '-' && a[1]) {
            int two = takes_value(a) && w + 1 < t->nwords;
            for (int k = 0; k <= two && rc == 0; k++) {
                const char *v = t->words[w + (size_t)k];
                if (group >= 0) {
                    rc = push(&t->sargs, &t->nsargs, &scap, v);
                    t->scount[group]++;
                } else {
                    rc = push(&t->args, &t->nargs, &acap, v);
                }
            }
            w += (size_t)two;
            if (rc < 0)
                return rc;
            continue;
        }
        /* A plain source ends any group: its arguments are the common ones. */
        if (grow_ranges(t, &ncap) < 0)
            return TOOLGOV_ENOMEM;
        group = -1;
        t->sfirst[t->nsources] = 0;
        t->scount[t->nsources] = 0;
        if (push(&t->sources, &t->nsources, &srccap, a) < 0)
            return TOOLGOV_ENOMEM;
    }
    return 0;
}

static void tail_free(tail *t)
{
    for (size_t k = 0; k < t->nowned; k++)
        free(t->owned[k]);
    free(t->owned);
    free((void *)t->words);
    free((void *)t->args);
    free((void *)t->sargs);
    free((void *)t->sources);
    free(t->sfirst);
    free(t->scount);
}

int toolgov__check_main(int argc, char **argv)
{
    const char *manifest_path = NULL, *depfile = NULL, *stamp = NULL;
    size_t max_errors = DEFAULT_MAX_ERRORS;
    unsigned jobs = 0;
    int i = 1, status = 1;
    tail t;
    const char *const **source_args = NULL;
    toolgov__manifest *m = NULL;
    toolgov__scan *s = NULL;
    toolgov__diag d;
    size_t jobs_n = 0;
    const char *color = NULL, *caret = NULL, *format = NULL;
    char err[TOOLGOV_OPT_ERR_MAX];
    const toolgov__opt opts[] = {
        {"--manifest", TOOLGOV_OPT_TEXT_EMPTY, &manifest_path, NULL, 0},
        {"--depfile", TOOLGOV_OPT_TEXT_EMPTY, &depfile, NULL, 0},
        {"--stamp", TOOLGOV_OPT_TEXT_EMPTY, &stamp, NULL, 0},
        {"--max-errors", TOOLGOV_OPT_COUNT, NULL, &max_errors, 0},
        {"--jobs", TOOLGOV_OPT_COUNT, NULL, &jobs_n, 64},
        {"--color", TOOLGOV_OPT_TEXT, &color, NULL, 0},
        {"--caret", TOOLGOV_OPT_TEXT, &caret, NULL, 0},
        {"--diagnostics-format", TOOLGOV_OPT_TEXT, &format, NULL, 0},
    };

    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (toolgov__opt_is_help(a)) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (toolgov__opt_is_version(a)) {
            printf("toolgov-gen-check %s\n", TOOLGOV_GEN_VERSION);
            return 0;
        }
        int r = toolgov__opt_take(opts, sizeof opts / sizeof *opts, argc, argv, &i, err);
        if (r < 0)
            return usage_error("%s", err);
        if (r > 0)
            continue;
        return usage_error("unknown option '%s' (compiler arguments go after '--')", a);
    }
    jobs = (unsigned)jobs_n;
    if (!manifest_path)
        return usage_error("%s", "--manifest FILE is required");
    if (depfile && !stamp)
        return usage_error("%s", "--depfile needs --stamp (the depfile's target)");

    /* Everything after "--": compiler arguments, and the sources, which are
    ** the arguments that are neither options nor an option's value. */
    memset(&t, 0, sizeof t);
    for (; i < argc; i++) {
        int rc = argv[i][0] == '@' && argv[i][1] ? add_response_file(&t, argv[i] + 1)
                                                   : add_item(&t, argv[i]);
        if (rc == TOOLGOV_EFAIL)
            goto out;
        if (rc < 0) {
            fputs("toolgov-gen: check: out of memory\n", stderr);
            goto out;
        }
    }
    if (sort_words(&t) < 0) {
        fputs("toolgov-gen: check: out of memory\n", stderr);
        goto out;
    }
    if (t.nsources == 0) {
        status = usage_error("%s", "no SOURCES after '--'");
        goto out;
    }
    {
        size_t acap = t.nargs;
#ifdef TOOLGOV_CLANG_RESOURCE_DIR
        if (want_resource_dir(t.args, t.nargs) &&
            (push(&t.args, &t.nargs, &acap, "-resource-dir") < 0 ||
             push(&t.args, &t.nargs, &acap, TOOLGOV_CLANG_RESOURCE_DIR) < 0)) {
            fputs("toolgov-gen: check: out of memory\n", stderr);
            goto out;
        }
#else
        (void)want_resource_dir;
        (void)acap;
#endif
    }
    source_args = calloc(t.nsources, sizeof *source_args);
    if (!source_args) {
        fputs("toolgov-gen: check: out of memory\n", stderr);
        goto out;
    }
    for (size_t k = 0; k < t.nsources; k++)
        source_args[k] = t.sargs ? t.sargs + t.sfirst[k] : NULL;

    toolgov__diag_init(&d, stderr, max_errors);
    if (toolgov__diag_configure(&d, STDERR_FILENO, color, caret, format, err)) {
        status = usage_error("%s", err);
        goto out;
    }
    d.tool_name = "toolgov-gen-check";
    d.tool_version = TOOLGOV_GEN_VERSION;
    d.machine_sink = stdout;
    m = toolgov__manifest_load(manifest_path, &d);
    if (!m) {
        toolgov__diag_finish(&d);
        goto out;
    }

    toolgov__scan_opts so = { m->name, jobs, source_args, t.scount };
    int rc = toolgov__scan_run(&s, t.args, t.nargs, t.sources, t.nsources, &so);
    if (rc < 0) {
        /* toolgov-gen does not link the runtime (toolgov_strerror). */
        toolgov__diag_error(&d, manifest_path, 0, 0, "drift check failed: %s",
                            rc == TOOLGOV_ENOMEM ? "out of memory" : "invalid arguments");
        toolgov__diag_finish(&d);
        goto out;
    }

    if (s->parse_errors) {
        /* Fail closed: a source clang could not read fully may hide handlers
        ** and calls, so no comparison is made from it. */
        toolgov__compare_report_clang(s, m->name, &d);
        toolgov__diag_note_at(&d, manifest_path, m->name_at,
                              "plugin '%s' was not compared with its manifest because "
                              "a source did not parse; fix the errors above",
                              m->name);
    } else if (s->headerless_count) {
        /* Parsed, but a handler was defined as a function named after the
        ** macro: say what is missing rather than that tools are. */
        toolgov__compare_report_clang(s, m->name, &d);
    } else {
        toolgov__compare(m, s, &d);
    }

    /* The depfile lists what was read even when the check fails: with it,
    ** editing the header that broke the parse re-runs the check. */
    if (depfile && write_depfile(depfile, stamp, manifest_path, s) < 0)
        toolgov__diag_error(&d, depfile, 0, 0, "cannot write the depfile");

    if (toolgov__diag_finish(&d) == 0) {
        if (stamp && toolgov__fileio_touch(stamp) < 0) {
            fprintf(stderr, "%s: error: cannot write the stamp file\n", stamp);
            goto out;
        }
        status = 0;
    }

out:
    if (status != 0 && stamp)
        unlink(stamp);
    toolgov__scan_free(s);
    toolgov__manifest_free(m);
    free((void *)source_args);
    tail_free(&t);
    return status;
}
