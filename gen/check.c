/*
** check.c: `toolgov-gen check`, the command line of the drift check.
**
**   toolgov-gen check --manifest FILE [--depfile F --stamp F] [--max-errors N]
**                     [--jobs N] -- <compiler args> SOURCES...
**
** Loads the manifest, parses every source with libclang in this one process
** (scan.c), reports clang's errors or the drift (drift.c), writes a depfile
** of every file read and touches the stamp only when there is nothing to
** report. A stamp from an earlier success is removed on failure, so a build
** system never mistakes a failed check for a passed one.
*/
#define _XOPEN_SOURCE 700 /* strdup, rename, unlink; realpath is XSI in glibc */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <toolgov/toolgov.h>

#include "check_cmd.h"
#include "diag.h"
#include "drift.h"
#include "fileio.h"
#include "manifest.h"
#include "scan.h"

#define DEFAULT_MAX_ERRORS 50

static const char usage_text[] =
    "usage: toolgov-gen check --manifest FILE [--depfile FILE --stamp FILE]\n"
    "                         [--max-errors N] [--jobs N] -- [compiler args] SOURCES...\n"
    "\n"
    "Parses the plugin's SOURCES with libclang and fails when they disagree with\n"
    "the manifest: a handler the manifest does not declare, a declared tool\n"
    "without a handler, or toolgov_register_tool() with an undeclared name.\n"
    "Compiler args are the plugin's -I, -D, -U, -include and -std flags (a -std=\n"
    "reaches only the sources of its language, C or C++); warning flags are\n"
    "dropped. --depfile writes a Makefile-syntax depfile of every file\n"
    "read, with the --stamp file as its target; the stamp is touched on success.\n"
    "--jobs N parses up to N sources at once (default: one per CPU, at most 8).\n"
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
static int want_resource_dir(char **args, size_t nargs)
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

/* CMake passes an option of two words as one item "SHELL:-include cfg.h"
** (a list of two would be de-duplicated apart). Split such an item into
** words at blanks, quotes grouping as in a shell; everything else is one
** word. The words are malloc'd into *owned (freed by the caller) and
** appended to words. 0 or TOOLGOV_ENOMEM. */
static int split_item(const char *a, char **words, size_t *nwords, char **owned,
                      size_t *nowned)
{
    if (strncmp(a, "SHELL:", 6) != 0) {
        words[(*nwords)++] = (char *)a;
        return 0;
    }
    const char *p = a + 6;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return 0;
        char *w = malloc(strlen(p) + 1), *o = w;
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
        owned[(*nowned)++] = w;
        words[(*nwords)++] = w;
    }
}

int toolgov__check_main(int argc, char **argv)
{
    const char *manifest_path = NULL, *depfile = NULL, *stamp = NULL;
    size_t max_errors = DEFAULT_MAX_ERRORS;
    unsigned jobs = 0;
    int i = 1, status = 1;
    char **args = NULL, **sources = NULL, **words = NULL, **owned = NULL;
    size_t nargs = 0, nsources = 0, nwords = 0, nowned = 0;
    toolgov__manifest *m = NULL;
    toolgov__scan *s = NULL;
    toolgov__diag d;

    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        const char **slot = strcmp(a, "--manifest") == 0  ? &manifest_path
                            : strcmp(a, "--depfile") == 0 ? &depfile
                            : strcmp(a, "--stamp") == 0   ? &stamp
                                                          : NULL;
        int is_max = strcmp(a, "--max-errors") == 0, is_jobs = strcmp(a, "--jobs") == 0;
        if (slot || is_max || is_jobs) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", a);
            const char *v = argv[++i];
            if (slot) {
                *slot = v;
            } else {
                char *end;
                unsigned long long n = strtoull(v, &end, 10);
                if (!*v || *end || v[0] == '-' || (is_jobs && n > 64))
                    return usage_error(is_jobs ? "--jobs wants a number from 0 to 64, not '%s'"
                                               : "--max-errors wants a number, not '%s'",
                                       v);
                if (is_jobs)
                    jobs = (unsigned)n;
                else
                    max_errors = (size_t)n;
            }
            continue;
        }
        return usage_error("unknown option '%s' (compiler arguments go after '--')", a);
    }
    if (!manifest_path)
        return usage_error("%s", "--manifest FILE is required");
    if (depfile && !stamp)
        return usage_error("%s", "--depfile needs --stamp (the depfile's target)");

    /* Everything after "--": compiler arguments, and the sources, which are
    ** the arguments that are neither options nor an option's value. */
    {
        /* A SHELL: item has at most one word per two bytes. */
        size_t cap = 0;
        for (int k = i; k < argc; k++)
            cap += strncmp(argv[k], "SHELL:", 6) == 0 ? strlen(argv[k]) / 2 + 1 : 1;
        words = calloc(cap + 1, sizeof *words);
        owned = calloc(cap + 1, sizeof *owned);
        args = calloc(cap + 3, sizeof *args);
        sources = calloc(cap + 1, sizeof *sources);
        if (!words || !owned || !args || !sources) {
            fputs("toolgov-gen: check: out of memory\n", stderr);
            goto out;
        }
        for (; i < argc; i++) {
            if (split_item(argv[i], words, &nwords, owned, &nowned) < 0) {
                fputs("toolgov-gen: check: out of memory\n", stderr);
                goto out;
            }
        }
    }
    for (size_t w = 0; w < nwords; w++) {
        const char *a = words[w];
        int drop = dropped(a);
        if (drop) {
            w += (size_t)drop - 1;
            continue;
        }
        if (a[0] == '-' && a[1]) {
            args[nargs++] = words[w];
            if (takes_value(a) && w + 1 < nwords)
                args[nargs++] = words[++w];
            continue;
        }
        sources[nsources++] = words[w];
    }
    if (nsources == 0) {
        status = usage_error("%s", "no SOURCES after '--'");
        goto out;
    }
#ifdef TOOLGOV_CLANG_RESOURCE_DIR
    if (want_resource_dir(args, nargs)) {
        args[nargs++] = "-resource-dir";
        args[nargs++] = TOOLGOV_CLANG_RESOURCE_DIR;
    }
#else
    (void)want_resource_dir;
#endif

    toolgov__diag_init(&d, stderr, max_errors);
    m = toolgov__manifest_load(manifest_path, &d);
    if (!m) {
        toolgov__diag_finish(&d);
        goto out;
    }

    toolgov__scan_opts so = { m->name, jobs };
    int rc = toolgov__scan_run(&s, (const char *const *)args, nargs,
                               (const char *const *)sources, nsources, &so);
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
        toolgov__drift_report_clang(s, &d);
        toolgov__diag_note(&d, manifest_path, 0, 0,
                           "plugin '%s' was not compared with its manifest because "
                           "a source did not parse; fix the errors above",
                           m->name);
    } else {
        toolgov__drift_compare(m, s, &d);
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
    free(args);
    free(sources);
    for (size_t k = 0; k < nowned; k++)
        free(owned[k]);
    free(owned);
    free(words);
    return status;
}
