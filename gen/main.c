/* SPDX-License-Identifier: MIT */
/*
** main.c: the toolgov-gen command line.
**
**   toolgov-gen [--max-errors N] validate FILE...
**   toolgov-gen [--max-errors N] generate --manifest FILE --out-dir DIR
**               [--expect-name NAME] [--stamp FILE]
**   toolgov-gen check ...            (the drift check, gen/check.c)
**   toolgov-gen export --manifest FILE --format F [--out FILE]  (gen/export.c)
**
** `check` runs toolgov-gen-check, installed beside this program, which
** links libclang; this program links libyaml only, so `validate` and
** `generate` start in a millisecond instead of loading LLVM.
**
** Exit status: 0 success, 1 errors in the input, 2 misuse of the command
** line. Everything the run allocates is freed before exit (the manifest's
** arena), so leak checkers see a clean run.
*/
#define _POSIX_C_SOURCE 200809L /* futimens */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit/codegen.h"
#include "base/diag.h"
#include "emit/export.h"
#include "base/fileio.h"
#include "emit/generate.h"
#include "manifest/manifest.h"
#include "check/link.h"
#include "base/opts.h"
#include "emit/stubs.h"

#ifndef TOOLGOV_GEN_VERSION
#define TOOLGOV_GEN_VERSION "unknown"
#endif

#define EXIT_MISUSE 2
#define DEFAULT_MAX_ERRORS 50
#define CHECK_PROGRAM "toolgov-gen-check"

static const char usage_text[] =
    "usage: toolgov-gen [--max-errors N] <command> [options]\n"
    "\n"
    "commands:\n"
    "  validate FILE...              check manifests ('-': standard input), write nothing\n"
    "  generate --manifest FILE --out-dir DIR [--expect-name NAME] [--stamp FILE]\n"
    "                                write DIR/<name>.toolgov.h and DIR/<name>.toolgov.c\n"
    "  check --manifest FILE ... -- <compiler args> SOURCES...\n"
    "                                the drift check between handlers and manifest\n"
    "  export --manifest FILE --format openai|openai-responses|anthropic|mcp|json-schema\n"
    "         [--strict] [--loop pool|own] [--out FILE]\n"
    "                                the tools in a model API's shape (JSON)\n"
    "  stubs --manifest FILE         print a handler skeleton for every declared tool\n"
    "\n"
    "options:\n"
    "  --max-errors N   print at most N errors, then how many more (default 50, 0: all)\n"
    "  --color=auto|always|never\n"
    "                   colour diagnostics (auto: on a terminal, unless NO_COLOR is set)\n"
    "  --caret=auto|always|never\n"
    "                   show the source line with a caret under the column (auto: on a terminal)\n"
    "  --diagnostics-format=text|json|sarif\n"
    "                   json and sarif (SARIF 2.1.0) go to standard output at the end\n"
    "  --expect-name NAME\n"
    "                   fail unless the manifest's name: is NAME (toolgov_add_plugin)\n"
    "  --stamp FILE     touch FILE after every successful generate\n"
    "  --help           show this help\n"
    "  --version        show the version\n"
    "\n"
    "Diagnostics are FILE:LINE:COL: error: ...; exit status 0 ok, 1 errors, 2 misuse.\n"
    "Manuals: man toolgov-gen (this program), man 5 toolgov-manifest (the manifest format).\n";

static int misuse(const char *fmt, const char *arg)
{
    fputs("toolgov-gen: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\ntry 'toolgov-gen --help' for usage\n", stderr);
    return EXIT_MISUSE;
}

/* Replace this process with toolgov-gen-check: first the one beside this
** executable (/proc/self/exe, else argv[0]'s directory), else one on PATH.
** Returns only when none could be run. */
static int exec_check(char **av, const char *argv0)
{
    char self[4096], path[4096 + sizeof CHECK_PROGRAM + 1];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    int have_dir = 0, err;

    if (n > 0) {
        self[n] = '\0';
        have_dir = 1;
    } else if (strchr(argv0, '/') && strlen(argv0) < sizeof self) {
        memcpy(self, argv0, strlen(argv0) + 1);
        have_dir = 1;
    }
    if (have_dir) {
        char *slash = strrchr(self, '/');
        size_t dl = slash ? (size_t)(slash - self) : 0;
        memcpy(path, self, dl);
        snprintf(path + dl, sizeof path - dl, "/%s", CHECK_PROGRAM);
        execv(path, av);
    }
    execvp(CHECK_PROGRAM, av);
    err = errno;
    fprintf(stderr, "toolgov-gen: check: cannot run %s (%s); it is installed beside "
                    "toolgov-gen: reinstall toolgov or build the toolgov-gen-check target\n",
            have_dir ? path : CHECK_PROGRAM, strerror(err));
    return 1; /* fail closed: a check that could not run never passes */
}

/* Validate each manifest, then all of them as one pool (check/link.h). */
static int cmd_validate(char **files, int nfiles, toolgov__diag *d)
{
    int i;
    toolgov__manifest **ms = calloc((size_t)nfiles, sizeof(toolgov__manifest *));
    if (!ms) {
        toolgov__diag_error(d, files[0], 0, 0, "out of memory");
        return toolgov__diag_finish(d) ? 1 : 0;
    }
    for (i = 0; i < nfiles; i++)
        ms[i] = toolgov__manifest_load(files[i], d);
    toolgov__link_check((const toolgov__manifest *const *)ms, (size_t)nfiles, d);
    for (i = 0; i < nfiles; i++)
        toolgov__manifest_free(ms[i]);
    free(ms);
    return toolgov__diag_finish(d) ? 1 : 0;
}

static int cmd_generate(const char *manifest, const char *out_dir, const char *expect,
                        const char *stamp, toolgov__diag *d)
{
    toolgov__manifest *m = toolgov__manifest_load(manifest, d);
    int failed = m == NULL;

    if (m && expect && strcmp(expect, m->name) != 0) {
        toolgov__diag_error(d, manifest, m->name_at.line, m->name_at.col,
                            "manifest declares plugin '%s' but toolgov_add_plugin() names it "
                            "'%s'; make them equal", m->name, expect);
        failed = 1;
    }
    if (m && toolgov__link_check((const toolgov__manifest *const *)&m, 1, d) != 0)
        failed = 1; /* a built-in's name: the runtime would refuse the tool */
    if (!failed && toolgov__generate_consume(&m, out_dir, d) != 0)
        failed = 1;
    if (!failed && stamp && toolgov__fileio_touch(stamp) != 0) {
        toolgov__diag_error(d, stamp, 0, 0, "cannot update the stamp file: %s", strerror(errno));
        failed = 1;
    }
    toolgov__manifest_free(m);
    toolgov__diag_finish(d);
    return failed ? 1 : 0;
}

/* Print a handler skeleton for every declared tool, in the form the
** generated header defines, for pasting into a plugin's source. */
static int cmd_stubs(const char *manifest, toolgov__diag *d)
{
    toolgov__manifest *m = toolgov__manifest_load(manifest, d);
    size_t i;
    if (!m) {
        toolgov__diag_finish(d);
        return 1;
    }
    printf("/* Handlers of plugin '%s' (from %s); each goes in a source that\n"
           "** includes \"%s.toolgov.h\". */\n", m->name, manifest, m->name);
    for (i = 0; i < m->tool_count; i++) {
        char buf[4096];
        if (toolgov__handler_stub(buf, sizeof buf, m, &m->tools[i]) < sizeof buf)
            fputs(buf, stdout);
    }
    toolgov__manifest_free(m);
    return toolgov__diag_finish(d) ? 1 : 0;
}

int main(int argc, char **argv)
{
    size_t max_errors = DEFAULT_MAX_ERRORS;
    const char *cmd = NULL, *manifest = NULL, *out_dir = NULL, *expect = NULL, *stamp = NULL;
    const char *max_arg = NULL;
    char **files;
    char err[TOOLGOV_OPT_ERR_MAX], max_buf[48];
    int nfiles = 0, i, r, rc, end_of_opts = 0;
    toolgov__diag d;
    /* Options of every command, and those of generate. */
    const char *color = NULL, *caret = NULL, *format = NULL;
    const toolgov__opt common[] = {
        {"--max-errors", TOOLGOV_OPT_COUNT, NULL, &max_errors, 0},
        {"--color", TOOLGOV_OPT_TEXT, &color, NULL, 0},
        {"--caret", TOOLGOV_OPT_TEXT, &caret, NULL, 0},
        {"--diagnostics-format", TOOLGOV_OPT_TEXT, &format, NULL, 0},
    };
    const size_t ncommon = sizeof common / sizeof *common;
    const toolgov__opt gen_opts[] = {
        {"--manifest", TOOLGOV_OPT_TEXT, &manifest, NULL, 0},
        {"--out-dir", TOOLGOV_OPT_TEXT, &out_dir, NULL, 0},
        {"--expect-name", TOOLGOV_OPT_TEXT, &expect, NULL, 0},
        {"--stamp", TOOLGOV_OPT_TEXT, &stamp, NULL, 0},
    };

    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (toolgov__opt_is_help(a)) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (toolgov__opt_is_version(a)) {
            printf("toolgov-gen %s\n", TOOLGOV_GEN_VERSION);
            return 0;
        }
        r = toolgov__opt_take(common, ncommon, argc, argv, &i, err);
        if (r < 0)
            return misuse("%s", err);
        if (r > 0) {
            /* Passed on to the drift check. */
            snprintf(max_buf, sizeof max_buf, "--max-errors=%zu", max_errors);
            max_arg = max_buf;
            continue;
        }
        if (a[0] == '-')
            return misuse("unknown option '%s' (give the command first)", a);
        cmd = a;
        i++;
        break;
    }
    if (!cmd)
        return misuse("%s", "no command given (validate, generate or check)");

    if (!strcmp(cmd, "check")) {
        /* The drift check parses its own options; pass those given before
        ** the command on to it. */
        static char check_name[] = CHECK_PROGRAM;
        char **av, fwd[3][300];
        const char *const fwd_name[3] = {"--color", "--caret", "--diagnostics-format"};
        const char *const fwd_val[3] = {color, caret, format};
        int n = 0, j, k, status;
        av = malloc(sizeof *av * (size_t)(argc + 6));
        if (!av) {
            fputs("toolgov-gen: out of memory\n", stderr);
            return 1;
        }
        av[n++] = check_name;
        if (max_arg)
            av[n++] = max_buf;
        for (k = 0; k < 3; k++) {
            if (!fwd_val[k])
                continue;
            snprintf(fwd[k], sizeof fwd[k], "%s=%s", fwd_name[k], fwd_val[k]);
            av[n++] = fwd[k];
        }
        for (j = i; j < argc; j++)
            av[n++] = argv[j];
        av[n] = NULL;
        fflush(stdout);
        status = exec_check(av, argv[0]);
        free(av);
        return status;
    }
    if (!strcmp(cmd, "export")) {
        toolgov__diag_init(&d, stderr, max_errors);
        if (toolgov__diag_configure(&d, STDERR_FILENO, color, caret, format, err))
            return misuse("%s", err);
        d.tool_version = TOOLGOV_GEN_VERSION;
        return toolgov__export_main(argc - i, argv + i, &d);
    }
    if (strcmp(cmd, "validate") != 0 && strcmp(cmd, "generate") != 0 &&
        strcmp(cmd, "stubs") != 0)
        return misuse("unknown command '%s' (expected validate, generate, check, export or "
                      "stubs)", cmd);

    files = malloc(sizeof *files * (size_t)(argc + 1));
    if (!files) {
        fputs("toolgov-gen: out of memory\n", stderr);
        return 1;
    }
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (end_of_opts || a[0] != '-' || a[1] == '\0') {
            if (strcmp(cmd, "validate") != 0) {
                rc = misuse("this command takes no file operands ('%s'); use --manifest FILE", a);
                goto out;
            }
            files[nfiles++] = argv[i];
            continue;
        }
        if (!strcmp(a, "--")) {
            end_of_opts = 1;
            continue;
        }
        if (toolgov__opt_is_help(a)) {
            fputs(usage_text, stdout);
            rc = 0;
            goto out;
        }
        if (toolgov__opt_is_version(a)) {
            printf("toolgov-gen %s\n", TOOLGOV_GEN_VERSION);
            rc = 0;
            goto out;
        }
        r = toolgov__opt_take(common, ncommon, argc, argv, &i, err);
        if (r == 0 && !strcmp(cmd, "generate"))
            r = toolgov__opt_take(gen_opts, sizeof gen_opts / sizeof *gen_opts, argc, argv, &i,
                                  err);
        if (r == 0 && !strcmp(cmd, "stubs"))
            r = toolgov__opt_take(gen_opts, 1, argc, argv, &i, err); /* --manifest */
        if (r < 0) {
            rc = misuse("%s", err);
            goto out;
        }
        if (r > 0)
            continue;
        rc = misuse("unknown option '%s'", a);
        goto out;
    }

    toolgov__diag_init(&d, stderr, max_errors);
    if (toolgov__diag_configure(&d, STDERR_FILENO, color, caret, format, err)) {
        rc = misuse("%s", err);
        goto out;
    }
    d.tool_version = TOOLGOV_GEN_VERSION;
    d.machine_sink = stdout;
    if (!strcmp(cmd, "stubs")) {
        if (!manifest) {
            rc = misuse("%s", "stubs needs --manifest FILE");
            goto out;
        }
        rc = cmd_stubs(manifest, &d);
    } else if (!strcmp(cmd, "validate")) {
        if (nfiles == 0) {
            rc = misuse("%s", "validate needs at least one manifest file");
            goto out;
        }
        rc = cmd_validate(files, nfiles, &d);
    } else {
        if (!manifest || !out_dir) {
            rc = misuse("generate needs %s", !manifest ? "--manifest FILE" : "--out-dir DIR");
            goto out;
        }
        rc = cmd_generate(manifest, out_dir, expect, stamp, &d);
    }
out:
    free(files);
    return rc;
}
