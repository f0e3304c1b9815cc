/* SPDX-License-Identifier: MIT */
/*
** test_hostile.c: toolgov-gen against inputs built to hurt it.
**
** Every case runs the real `toolgov-gen generate` on a manifest built at test
** time (nothing big is committed) into an empty output directory, and checks
** four things: the exit status, the located diagnostic (FILE:LINE:COL of the
** offending place), that it finished within the time bound (spawn.h: far
** above a normal run, so only a hang fails), and that a rejected manifest
** left the output directory empty, while an accepted one left exactly the
** two generated files. Each case prints how long it took, so the slowest
** hostile input can be read off the test log.
*/
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

#define MIB (1024u * 1024u)

typedef struct gen_run {
    char *dir;      /* temp dir holding the manifest and out/ */
    char *manifest; /* path of the manifest, as passed to toolgov-gen */
    char *out_dir;
    spawn_result res;
} gen_run;

static void report_time(const char *name, const gen_run *g)
{
    printf("hostile: %-28s exit %d in %8.1f ms, %zu bytes of diagnostics\n",
           name, g->res.exit_code, g->res.seconds * 1000.0, g->res.output_len);
    if (getenv("TOOLGOV_HOSTILE_VERBOSE") != NULL)
        printf("%.600s\n", g->res.output);
    fflush(stdout);
}

/* Write `data` as <tmp>/<file_name> and run generate on it. */
static void gen_run_start(gen_run *g, const char *name, const char *file_name,
                          const char *data, size_t len, const char *extra_arg1,
                          const char *extra_arg2)
{
    char *argv[10];
    int i = 0;
    memset(g, 0, sizeof *g);
    g->dir = tmpdir_make(name);
    g->manifest = file_write(g->dir, file_name, data, len);
    g->out_dir = path_join(g->dir, "out");
    ck_assert_int_eq(mkdir(g->out_dir, 0700), 0);
    argv[i++] = (char *)spawn_gen_path();
    argv[i++] = "generate";
    argv[i++] = "--manifest";
    argv[i++] = g->manifest;
    argv[i++] = "--out-dir";
    argv[i++] = g->out_dir;
    if (extra_arg1 != NULL)
        argv[i++] = (char *)extra_arg1;
    if (extra_arg2 != NULL)
        argv[i++] = (char *)extra_arg2;
    argv[i] = NULL;
    ck_assert_int_eq(spawn_run(&g->res, argv, NULL, spawn_timeout()), 0);
    report_time(name, g);
    ck_assert_msg(!g->res.timed_out, "%s: toolgov-gen did not finish within %.0f s",
                  name, spawn_timeout());
}

static void gen_run_end(gen_run *g)
{
    spawn_result_free(&g->res);
    tmpdir_remove(g->dir);
    free(g->dir);
    free(g->manifest);
    free(g->out_dir);
}

/* The diagnostic "<manifest>:<line>:<col>: error:" must be in the output. */
static void expect_error_at(const gen_run *g, unsigned line, unsigned col)
{
    char want[4096];
    snprintf(want, sizeof want, "%s:%u:%u: error: ", g->manifest, line, col);
    ck_assert_msg(strstr(g->res.output, want) != NULL,
                  "expected a diagnostic starting '%s' in:\n%.4000s", want,
                  g->res.output);
}

/* Some diagnostic about the whole file or a line of it. */
static void expect_error_in_file(const gen_run *g)
{
    char want[4096];
    snprintf(want, sizeof want, "%s:", g->manifest);
    ck_assert_msg(strstr(g->res.output, want) != NULL && strstr(g->res.output, "error: ") != NULL,
                  "expected an error naming %s in:\n%.4000s", g->manifest, g->res.output);
}

static void expect_rejected(const gen_run *g)
{
    ck_assert_msg(g->res.exit_code == 1, "exit %d, expected 1; output:\n%.4000s",
                  g->res.exit_code, g->res.output);
    ck_assert_msg(dir_count(g->out_dir) == 0,
                  "a rejected manifest left %ld entries in the output directory",
                  dir_count(g->out_dir));
}

static void expect_accepted(const gen_run *g, const char *plugin)
{
    char h[256], c[256];
    char *hp, *cp;
    struct stat st;
    ck_assert_msg(g->res.exit_code == 0, "exit %d, expected 0; output:\n%.4000s",
                  g->res.exit_code, g->res.output);
    ck_assert_int_eq(dir_count(g->out_dir), 2);
    snprintf(h, sizeof h, "%s.toolgov.h", plugin);
    snprintf(c, sizeof c, "%s.toolgov.c", plugin);
    hp = path_join(g->out_dir, h);
    cp = path_join(g->out_dir, c);
    ck_assert_msg(stat(hp, &st) == 0 && st.st_size > 0, "%s missing", hp);
    ck_assert_msg(stat(cp, &st) == 0 && st.st_size > 0, "%s missing", cp);
    free(hp);
    free(cp);
}

/* A valid manifest head; tools follow at two-space indentation. */
static const char valid_small[] =
    "name: hostile\n"
    "provides: [tool]\n"
    "tools:\n"
    "  lookup:\n"
    "    effect: read\n"
    "    description: Find things.\n";

/* ---- aliases and anchors --------------------------------------------- */

START_TEST(test_alias_bomb)
{
    /* The classic billion laughs: ten levels of ten aliases each. A loader
    ** that expanded aliases would build 10^9 nodes; toolgov refuses the first
    ** anchor outright. */
    sbuf b = {0};
    gen_run g;
    int level, i;
    sbuf_puts(&b, "name: bomb\nprovides: [tool]\n");
    sbuf_puts(&b, "l0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", "
                  "\"lol\", \"lol\", \"lol\"]\n");
    for (level = 1; level < 10; level++) {
        sbuf_printf(&b, "l%d: &a%d [", level, level);
        for (i = 0; i < 10; i++)
            sbuf_printf(&b, "%s*a%d", i ? ", " : "", level - 1);
        sbuf_puts(&b, "]\n");
    }
    sbuf_puts(&b, "tools:\n  t:\n    effect: read\n    description: *a9\n");
    gen_run_start(&g, "alias_bomb", "bomb.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    /* l0..l9 are unknown keys, whose values are skipped unread; the alias
    ** where a description belongs is refused, never expanded. */
    expect_error_at(&g, 3, 1);
    expect_error_at(&g, 16, 18);
    ck_assert_msg(g.res.output_len < 64 * 1024, "diagnostics not bounded: %zu bytes",
                  g.res.output_len);
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_alias_in_value)
{
    static const char m[] =
        "name: alias\n"
        "provides: [tool]\n"
        "tools:\n"
        "  a:\n"
        "    effect: read\n"
        "    description: &d Shared text.\n"
        "  b:\n"
        "    effect: read\n"
        "    description: *d\n";
    gen_run g;
    gen_run_start(&g, "alias_in_value", "alias.yaml", m, sizeof m - 1, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 6, 18);
    expect_error_at(&g, 9, 18);
    gen_run_end(&g);
}
END_TEST

/* ---- nesting ---------------------------------------------------------- */

/* deep_col: where the 65th collection opens, past the loader's cap. */
static void deep(const char *name, const char *open, const char *close,
                 size_t depth, unsigned deep_col)
{
    sbuf b = {0};
    gen_run g;
    sbuf_puts(&b, valid_small);
    sbuf_puts(&b, "    guidance: ");
    sbuf_repeat(&b, open, depth);
    if (close != NULL)
        sbuf_repeat(&b, close, depth);
    sbuf_puts(&b, "\n");
    gen_run_start(&g, name, "deep.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    /* guidance must be a string: the error is where its value starts; the
    ** skipped value then hits the nesting cap. */
    expect_error_at(&g, 7, 15);
    expect_error_at(&g, 7, deep_col);
    gen_run_end(&g);
    sbuf_free(&b);
}

START_TEST(test_deep_flow_sequences)
{
    deep("deep_flow_sequences", "[", "]", 100000, 15 + 64);
}
END_TEST

START_TEST(test_deep_flow_mappings)
{
    deep("deep_flow_mappings", "{a: ", "}", 100000, 15 + 4 * 64);
}
END_TEST

START_TEST(test_deep_unterminated)
{
    /* 100,000 opened and never closed: truncated and deep at once. */
    sbuf b = {0};
    gen_run g;
    sbuf_puts(&b, valid_small);
    sbuf_puts(&b, "    guidance: ");
    sbuf_repeat(&b, "[", 100000);
    gen_run_start(&g, "deep_unterminated", "deep.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 7, 15);
    expect_error_at(&g, 7, 15 + 64);
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_deep_block_nesting)
{
    /* Block mappings nested 2,000 deep under a tool: the indentation makes
    ** the file quadratic, so this is as deep as block style gets cheaply. */
    sbuf b = {0};
    gen_run g;
    size_t i;
    sbuf_puts(&b, valid_small);
    sbuf_puts(&b, "    guidance:\n");
    for (i = 0; i < 2000; i++) {
        sbuf_repeat(&b, " ", 6 + i);
        sbuf_puts(&b, "k:\n");
    }
    gen_run_start(&g, "deep_block_nesting", "deep.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 8, 7);
    expect_error_at(&g, 8 + 64, 7 + 64);
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

/* ---- size ------------------------------------------------------------- */

/* valid_small padded with comment lines to exactly `total` bytes. */
static void padded(sbuf *b, size_t total)
{
    static const char line[] = "# padding padding padding padding padding padding padding\n";
    sbuf_puts(b, valid_small);
    while (b->len + sizeof line - 1 <= total)
        sbuf_add(b, line, sizeof line - 1);
    while (b->len + 1 < total)
        sbuf_add(b, "#", 1);
    if (b->len < total)
        sbuf_add(b, "\n", 1);
}

START_TEST(test_size_limit_exact)
{
    sbuf b = {0};
    gen_run g;
    padded(&b, 16u * MIB);
    ck_assert_uint_eq(b.len, 16u * MIB);
    gen_run_start(&g, "size_limit_exact", "big.yaml", b.data, b.len, NULL, NULL);
    expect_accepted(&g, "hostile");
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_size_over_limit)
{
    sbuf b = {0};
    gen_run g;
    padded(&b, 16u * MIB + 1);
    ck_assert_uint_eq(b.len, 16u * MIB + 1);
    gen_run_start(&g, "size_over_limit", "big.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 1, 1);
    ck_assert_msg(strstr(g.res.output, "16 MiB") != NULL, "no size in:\n%s", g.res.output);
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_one_mib_line)
{
    /* A 1 MiB description on one line: over the 1024-byte limit. */
    sbuf b = {0};
    gen_run g;
    sbuf_puts(&b, "name: hostile\nprovides: [tool]\ntools:\n  lookup:\n"
                  "    effect: read\n    description: ");
    sbuf_repeat(&b, "x", MIB);
    sbuf_puts(&b, "\n");
    gen_run_start(&g, "one_mib_line", "long.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 6, 18);
    ck_assert_msg(g.res.output_len < 16 * 1024, "the 1 MiB value was echoed back");
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_one_mib_comment)
{
    sbuf b = {0};
    gen_run g;
    sbuf_puts(&b, valid_small);
    sbuf_puts(&b, "# ");
    sbuf_repeat(&b, "c", MIB);
    sbuf_puts(&b, "\n");
    gen_run_start(&g, "one_mib_comment", "long.yaml", b.data, b.len, NULL, NULL);
    expect_accepted(&g, "hostile");
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_huge_key)
{
    /* A 1 MiB tool name. libyaml caps simple keys at 1024 characters, so
    ** this is a YAML error; either way the file is refused at the key. */
    sbuf b = {0};
    gen_run g;
    sbuf_puts(&b, "name: hostile\nprovides: [tool]\ntools:\n  ");
    sbuf_repeat(&b, "k", MIB);
    sbuf_puts(&b, ":\n    effect: read\n    description: Huge.\n");
    gen_run_start(&g, "huge_key", "key.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 4, 3);
    expect_error_at(&g, 4, 3 + MIB); /* the ':' libyaml could not pair */
    ck_assert_msg(g.res.output_len < 16 * 1024, "the 1 MiB key was echoed back");
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_long_tool_name)
{
    /* 65 bytes: one over the limit, a quoted key so libyaml has no say. */
    sbuf b = {0};
    gen_run g;
    sbuf_puts(&b, "name: hostile\nprovides: [tool]\ntools:\n  ");
    sbuf_repeat(&b, "n", 65);
    sbuf_puts(&b, ":\n    effect: read\n    description: Long.\n");
    gen_run_start(&g, "long_tool_name", "key.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 4, 3);
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

/* ---- YAML features the format refuses --------------------------------- */

START_TEST(test_complex_key)
{
    static const char m[] =
        "name: hostile\n"
        "provides: [tool]\n"
        "tools:\n"
        "  ? [a, b]\n"
        "  : effect: read\n"
        "    description: Complex.\n";
    gen_run g;
    gen_run_start(&g, "complex_key", "ck.yaml", m, sizeof m - 1, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 4, 5);
    gen_run_end(&g);
}
END_TEST

START_TEST(test_complex_key_mapping)
{
    static const char m[] =
        "name: hostile\n"
        "{a: 1}: 2\n"
        "provides: [tool]\n";
    gen_run g;
    gen_run_start(&g, "complex_key_mapping", "ck.yaml", m, sizeof m - 1, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 2, 1);
    gen_run_end(&g);
}
END_TEST

START_TEST(test_several_documents)
{
    static const char m[] =
        "name: one\n"
        "provides: [tool]\n"
        "tools:\n"
        "  lookup:\n"
        "    effect: read\n"
        "    description: First.\n"
        "---\n"
        "name: two\n";
    gen_run g;
    gen_run_start(&g, "several_documents", "docs.yaml", m, sizeof m - 1, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 7, 1);
    gen_run_end(&g);
}
END_TEST

START_TEST(test_tags)
{
    static const char m[] =
        "name: !!str hostile\n"
        "provides: [tool]\n"
        "tools:\n"
        "  lookup:\n"
        "    effect: !effect read\n"
        "    description: !<tag:example.com,2000:x> Tagged.\n";
    gen_run g;
    gen_run_start(&g, "tags", "tags.yaml", m, sizeof m - 1, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 1, 7);
    expect_error_at(&g, 5, 13);
    expect_error_at(&g, 6, 18);
    gen_run_end(&g);
}
END_TEST

/* ---- broken bytes ------------------------------------------------------- */

START_TEST(test_truncated_quoted)
{
    static const char m[] =
        "name: hostile\n"
        "provides: [tool]\n"
        "tools:\n"
        "  lookup:\n"
        "    effect: read\n"
        "    description: \"Find";
    gen_run g;
    gen_run_start(&g, "truncated_quoted", "trunc.yaml", m, sizeof m - 1, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 6, 23); /* the end of the stream, inside the quotes */
    gen_run_end(&g);
}
END_TEST

START_TEST(test_every_prefix)
{
    /* Every prefix of a valid manifest is either a valid manifest itself
    ** (exit 0, two files) or refused with a located error and no files. */
    static const char m[] =
        "name: prefix\n"
        "provides: [tool]\n"
        "tools:\n"
        "  lookup:\n"
        "    effect: read\n"
        "    description: \"Find things.\"\n"
        "  create:\n"
        "    effect: write\n"
        "    confirm: never\n"
        "    answers_directly: true\n"
        "    description: Create a thing.\n";
    size_t n;
    double longest = 0.0;
    for (n = 0; n <= sizeof m - 1; n++) {
        gen_run g;
        char tag[32];
        snprintf(tag, sizeof tag, "prefix_%zu", n);
        gen_run_start(&g, tag, "prefix.yaml", m, n, NULL, NULL);
        if (g.res.seconds > longest)
            longest = g.res.seconds;
        ck_assert_msg(g.res.exit_code == 0 || g.res.exit_code == 1,
                      "prefix %zu: exit %d:\n%s", n, g.res.exit_code, g.res.output);
        if (g.res.exit_code == 0) {
            ck_assert_int_eq(dir_count(g.out_dir), 2);
        } else {
            expect_rejected(&g);
            expect_error_in_file(&g);
        }
        gen_run_end(&g);
    }
    printf("hostile: every prefix: longest %.1f ms\n", longest * 1000.0);
}
END_TEST

static void control_byte(const char *name, const char *bytes, size_t nbytes,
                         unsigned col)
{
    sbuf b = {0};
    gen_run g;
    sbuf_puts(&b, "name: hostile\nprovides: [tool]\ntools:\n  lookup:\n"
                  "    effect: read\n    description: ab");
    sbuf_add(&b, bytes, nbytes);
    sbuf_puts(&b, "cd\n");
    gen_run_start(&g, name, "ctl.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 6, col);
    gen_run_end(&g);
    sbuf_free(&b);
}

START_TEST(test_control_byte_soh)
{
    control_byte("control_soh", "\x01", 1, 20);
}
END_TEST

START_TEST(test_control_byte_nul)
{
    control_byte("control_nul", "\0", 1, 20);
}
END_TEST

START_TEST(test_control_byte_del)
{
    control_byte("control_del", "\x7f", 1, 20);
}
END_TEST

START_TEST(test_control_byte_escape)
{
    control_byte("control_esc", "\x1b[31m", 5, 20);
}
END_TEST

START_TEST(test_invalid_utf8)
{
    control_byte("invalid_utf8", "\xff\xfe", 2, 20);
}
END_TEST

START_TEST(test_overlong_utf8)
{
    /* C0 AF: an overlong '/', the classic path-traversal disguise. */
    control_byte("overlong_utf8", "\xc0\xaf", 2, 20);
}
END_TEST

START_TEST(test_empty_file)
{
    gen_run g;
    gen_run_start(&g, "empty_file", "empty.yaml", "", 0, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 1, 1);
    gen_run_end(&g);
}
END_TEST

/* ---- what --manifest names ---------------------------------------------- */

static void run_on_path(gen_run *g, const char *name, const char *manifest)
{
    char *argv[7];
    memset(g, 0, sizeof *g);
    g->dir = tmpdir_make(name);
    g->manifest = strdup(manifest);
    g->out_dir = path_join(g->dir, "out");
    ck_assert_int_eq(mkdir(g->out_dir, 0700), 0);
    argv[0] = (char *)spawn_gen_path();
    argv[1] = "generate";
    argv[2] = "--manifest";
    argv[3] = g->manifest;
    argv[4] = "--out-dir";
    argv[5] = g->out_dir;
    argv[6] = NULL;
    ck_assert_int_eq(spawn_run(&g->res, argv, NULL, spawn_timeout()), 0);
    report_time(name, g);
    ck_assert_msg(!g->res.timed_out, "%s: toolgov-gen did not finish", name);
}

START_TEST(test_manifest_is_a_directory)
{
    gen_run g;
    char *dir = tmpdir_make("manifest_dir");
    run_on_path(&g, "manifest_is_a_directory", dir);
    expect_rejected(&g);
    expect_error_in_file(&g);
    gen_run_end(&g);
    tmpdir_remove(dir);
    free(dir);
}
END_TEST

START_TEST(test_manifest_missing)
{
    gen_run g;
    run_on_path(&g, "manifest_missing", "/nonexistent/toolgov/none.yaml");
    expect_rejected(&g);
    expect_error_in_file(&g);
    gen_run_end(&g);
}
END_TEST

START_TEST(test_manifest_endless_pipe)
{
    /* A FIFO that delivers 17 MiB: no size up front, so the limit must be
    ** enforced while reading, and the reader must stop (not hang, not
    ** read it all into memory first). */
    gen_run g;
    char *dir = tmpdir_make("fifo");
    char *fifo = path_join(dir, "pipe.yaml");
    pid_t writer;
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    writer = fork();
    ck_assert_int_ge(writer, 0);
    if (writer == 0) {
        static const char line[] = "# endless comment line, endless comment line\n";
        size_t sent = 0;
        int fd;
        signal(SIGPIPE, SIG_IGN);
        fd = open(fifo, O_WRONLY);
        if (fd < 0)
            _exit(1);
        if (write(fd, valid_small, sizeof valid_small - 1) < 0)
            _exit(0);
        while (sent < 17u * MIB) {
            if (write(fd, line, sizeof line - 1) < 0)
                _exit(0);
            sent += sizeof line - 1;
        }
        _exit(0);
    }
    run_on_path(&g, "manifest_endless_pipe", fifo);
    kill(writer, SIGKILL);
    waitpid(writer, NULL, 0);
    expect_rejected(&g);
    expect_error_in_file(&g);
    ck_assert_msg(strstr(g.res.output, "16 MiB") != NULL, "no size limit in:\n%s",
                  g.res.output);
    gen_run_end(&g);
    free(fifo);
    tmpdir_remove(dir);
    free(dir);
}
END_TEST

static void bad_out_dir(const char *name, const char *sub)
{
    /* --out-dir names a regular file, or a directory below one. */
    char *dir = tmpdir_make(name);
    char *manifest = file_write(dir, "m.yaml", valid_small, sizeof valid_small - 1);
    char *file = file_write(dir, "plain", "keep", 4);
    char *out = sub ? path_join(file, sub) : strdup(file);
    char *argv[] = {(char *)spawn_gen_path(), "generate", "--manifest", manifest,
                    "--out-dir", out, NULL};
    spawn_result r;
    size_t len;
    char *kept;
    ck_assert_int_eq(spawn_run(&r, argv, NULL, spawn_timeout()), 0);
    ck_assert_msg(!r.timed_out, "%s: hung", name);
    ck_assert_msg(r.exit_code == 1, "%s: exit %d:\n%s", name, r.exit_code, r.output);
    ck_assert_msg(strstr(r.output, "error: ") != NULL, "%s: no error:\n%s", name, r.output);
    kept = file_read(file, &len);
    ck_assert_msg(kept != NULL && len == 4 && memcmp(kept, "keep", 4) == 0,
                  "%s: the file in the way was changed", name);
    ck_assert_int_eq(dir_count(dir), 2);
    free(kept);
    spawn_result_free(&r);
    free(out);
    free(file);
    free(manifest);
    tmpdir_remove(dir);
    free(dir);
}

START_TEST(test_out_dir_is_a_file)
{
    bad_out_dir("out_dir_is_a_file", NULL);
}
END_TEST

START_TEST(test_out_dir_below_a_file)
{
    bad_out_dir("out_dir_below_a_file", "sub/dir");
}
END_TEST

/* ---- valid but unusual --------------------------------------------------- */

static char *generated(const gen_run *g, const char *file, size_t *len)
{
    char *p = path_join(g->out_dir, file);
    char *data = file_read(p, len);
    ck_assert_msg(data != NULL, "cannot read %s", p);
    free(p);
    return data;
}

START_TEST(test_crlf_and_bom)
{
    /* The same manifest with LF, with CRLF, and with a BOM and CRLF: all
    ** accepted, and every output byte-identical (same file name, so the
    ** descriptor's manifest_file matches too). */
    static const char *variants[] = {"lf", "crlf", "bom_crlf", "bom_lf"};
    sbuf base = {0};
    char *ref_h = NULL, *ref_c = NULL;
    size_t ref_h_len = 0, ref_c_len = 0, v;
    sbuf_puts(&base, valid_small);
    sbuf_puts(&base, "  create:\n    effect: write\n    guidance: |\n      Line one.\n"
                     "      Line two.\n    description: Create.\n");
    for (v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        sbuf b = {0};
        gen_run g;
        size_t i, h_len, c_len;
        char *h, *c;
        if (strncmp(variants[v], "bom", 3) == 0)
            sbuf_puts(&b, "\xef\xbb\xbf");
        for (i = 0; i < base.len; i++) {
            if (base.data[i] == '\n' && strstr(variants[v], "crlf") != NULL)
                sbuf_add(&b, "\r", 1);
            sbuf_add(&b, base.data + i, 1);
        }
        gen_run_start(&g, variants[v], "eol.yaml", b.data, b.len, NULL, NULL);
        expect_accepted(&g, "hostile");
        h = generated(&g, "hostile.toolgov.h", &h_len);
        c = generated(&g, "hostile.toolgov.c", &c_len);
        ck_assert_msg(strchr(c, '\r') == NULL, "%s: a CR reached the generated C", variants[v]);
        if (ref_h == NULL) {
            ref_h = h;
            ref_c = c;
            ref_h_len = h_len;
            ref_c_len = c_len;
        } else {
            ck_assert_msg(h_len == ref_h_len && memcmp(h, ref_h, h_len) == 0,
                          "%s: header differs from the LF one", variants[v]);
            ck_assert_msg(c_len == ref_c_len && memcmp(c, ref_c, c_len) == 0,
                          "%s: C file differs from the LF one", variants[v]);
            free(h);
            free(c);
        }
        gen_run_end(&g);
        sbuf_free(&b);
    }
    free(ref_h);
    free(ref_c);
    sbuf_free(&base);
}
END_TEST

START_TEST(test_ten_thousand_tools)
{
    sbuf b = {0};
    gen_run g;
    size_t i, h_len;
    char *h;
    sbuf_puts(&b, "name: many\nprovides: [tool]\ntools:\n");
    for (i = 0; i < 10000; i++)
        sbuf_printf(&b, "  tool_%05zu:\n    effect: %s\n    description: Tool number %zu.\n",
                    i, i % 3 == 0 ? "read" : i % 3 == 1 ? "write" : "destructive", i);
    gen_run_start(&g, "ten_thousand_tools", "many.yaml", b.data, b.len, NULL, NULL);
    expect_accepted(&g, "many");
    h = generated(&g, "many.toolgov.h", &h_len);
    ck_assert_ptr_nonnull(strstr(h, "tool_00000"));
    ck_assert_ptr_nonnull(strstr(h, "tool_09999"));
    free(h);
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

/* One schema with lists 100,000 long: properties (an object of 100,000
** keys), required names, enum values, C names that clash. Every duplicate and clash
** check among them is a hash lookup; checked pairwise they took from 10 s
** to minutes here, so a return to that fails the time bound. */
#define LONG_LIST 100000u

static void params_head(sbuf *b)
{
    sbuf_puts(b, "name: wide\nprovides: [tool]\ntools:\n  t:\n    effect: read\n"
                 "    description: Wide.\n    parameters:\n      type: object\n"
                 "      properties:\n");
}

/* A flow list of n items, item i written as prefix, i % mod, suffix. */
static void flow_list(sbuf *b, const char *prefix, const char *suffix, size_t n, size_t mod)
{
    size_t i;
    sbuf_puts(b, "[");
    for (i = 0; i < n; i++)
        sbuf_printf(b, "%s%s%zu%s", i ? ", " : "", prefix, i % mod, suffix);
    sbuf_puts(b, "]");
}

/* Run generate on b (freed), with --max-errors 0 when `all`. */
static void run_wide(const char *name, sbuf *b, int all, gen_run *g)
{
    gen_run_start(g, name, "wide.yaml", b->data, b->len, all ? "--max-errors" : NULL,
                  all ? "0" : NULL);
    sbuf_free(b);
}

START_TEST(test_long_lists)
{
    sbuf b = {0};
    gen_run g;
    size_t i;
    params_head(&b);
    for (i = 0; i < LONG_LIST; i++)
        sbuf_printf(&b, "        p%zu: {type: string}\n", i);
    sbuf_puts(&b, "        s: {type: string, enum: ");
    flow_list(&b, "v", "", LONG_LIST, LONG_LIST);
    sbuf_puts(&b, "}\n        n: {type: integer, enum: ");
    flow_list(&b, "", "", LONG_LIST, LONG_LIST);
    sbuf_puts(&b, "}\n      required: ");
    flow_list(&b, "p", "", LONG_LIST, LONG_LIST);
    sbuf_puts(&b, "\n");
    run_wide("long_lists", &b, 0, &g);
    expect_accepted(&g, "wide");
    gen_run_end(&g);
}
END_TEST

/* n occurrences of needle in hay[0..len). A scan, not strstr in a loop:
** ASan's strstr measures the whole 25 MB text on every call. */
static size_t count_of(const char *hay, size_t len, const char *needle)
{
    size_t n = 0, k = strlen(needle), i;
    for (i = 0; i + k <= len; i++)
        if (hay[i] == needle[0] && memcmp(hay + i, needle, k) == 0)
            n++;
    return n;
}

START_TEST(test_long_lists_all_wrong)
{
    /* Every required name unknown, every property's C name taken by the
    ** one before it, every enum value twice: all reported (--max-errors 0),
    ** "did you mean" only for the first required names of the list. */
    sbuf b = {0};
    gen_run g;
    size_t i;
    params_head(&b);
    for (i = 0; i < LONG_LIST / 2; i++)
        sbuf_printf(&b, "        \"p-%zu\": {type: string}\n        \"p_%zu\": {type: string}\n",
                    i, i);
    sbuf_puts(&b, "        e: {type: string, enum: ");
    flow_list(&b, "v", "", LONG_LIST, LONG_LIST / 2);
    sbuf_puts(&b, "}\n      required: ");
    flow_list(&b, "p_", "q", LONG_LIST / 5, LONG_LIST);
    sbuf_puts(&b, "\n");
    run_wide("long_lists_all_wrong", &b, 1, &g);
    expect_rejected(&g);
    expect_error_at(&g, 11, 9); /* "p_0" after "p-0" */
    ck_assert_uint_eq(count_of(g.res.output, g.res.output_len, ": error: "),
                      LONG_LIST / 2 + LONG_LIST / 2 + LONG_LIST / 5);
    ck_assert_uint_eq(count_of(g.res.output, g.res.output_len, "did you mean"), 64);
    gen_run_end(&g);
}
END_TEST

START_TEST(test_ten_thousand_errors)
{
    /* Every tool misspells its effect: 10,000 errors, of which the default
    ** cap prints 50 and then a count of the rest. */
    sbuf b = {0};
    gen_run g;
    size_t i, lines = 0;
    const char *p;
    sbuf_puts(&b, "name: errors\nprovides: [tool]\ntools:\n");
    for (i = 0; i < 10000; i++)
        sbuf_printf(&b, "  tool_%05zu:\n    effect: raed\n    description: Tool.\n", i);
    gen_run_start(&g, "ten_thousand_errors", "errors.yaml", b.data, b.len, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 5, 13);
    for (p = g.res.output; (p = strstr(p, ": error: ")) != NULL; p++)
        lines++;
    ck_assert_uint_eq(lines, 50);
    ck_assert_msg(strstr(g.res.output, "9950") != NULL, "no count of the rest in:\n%s",
                  g.res.output + (g.res.output_len > 2000 ? g.res.output_len - 2000 : 0));
    ck_assert_msg(g.res.output_len < 64 * 1024, "report not bounded: %zu bytes",
                  g.res.output_len);
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_ten_thousand_errors_capped_low)
{
    sbuf b = {0};
    gen_run g;
    size_t i, lines = 0;
    const char *p;
    sbuf_puts(&b, "name: errors\nprovides: [tool]\ntools:\n");
    for (i = 0; i < 10000; i++)
        sbuf_printf(&b, "  tool_%05zu:\n    effect: raed\n    description: Tool.\n", i);
    gen_run_start(&g, "ten_thousand_errors_cap3", "errors.yaml", b.data, b.len,
                  "--max-errors", "3");
    expect_rejected(&g);
    for (p = g.res.output; (p = strstr(p, ": error: ")) != NULL; p++)
        lines++;
    ck_assert_uint_eq(lines, 3);
    ck_assert_ptr_nonnull(strstr(g.res.output, "9997"));
    gen_run_end(&g);
    sbuf_free(&b);
}
END_TEST

START_TEST(test_c_keyword_tool_name)
{
    static const char m[] =
        "name: hostile\n"
        "provides: [tool]\n"
        "tools:\n"
        "  register:\n"
        "    effect: read\n"
        "    description: A C keyword.\n"
        "  _Bool:\n"
        "    effect: read\n"
        "    description: Not an identifier of the format.\n";
    gen_run g;
    gen_run_start(&g, "c_keyword_tool_name", "kw.yaml", m, sizeof m - 1, NULL, NULL);
    expect_rejected(&g);
    expect_error_at(&g, 4, 3);
    expect_error_at(&g, 7, 3);
    gen_run_end(&g);
}
END_TEST

/* Strings that break naive C escaping, each paired with the exact bytes the
** generated table must hold. YAML double-quoted escapes put the awkward
** bytes in; the C compiler (with trigraphs on) must give them back. */
static const struct {
    const char *yaml;  /* the double-quoted YAML scalar, quotes included */
    const char *bytes; /* what the description must be in C */
} hostile_strings[] = {
    {"\"quote \\\" and backslash \\\\ end\"", "quote \" and backslash \\ end"},
    {"\"trigraphs ?\?= ?\?/ ?\?' ?\?( ?\?) ?\?! ?\?< ?\?> ?\?- ?\?\?=\"",
     "trigraphs ?\?= ?\?/ ?\?' ?\?( ?\?) ?\?! ?\?< ?\?> ?\?- ?\?\?="},
    {"\"comment */ and /* and // too\"", "comment */ and /* and // too"},
    {"\"newline\\nand\\ttab\"", "newline\nand\ttab"},
    {"\"printf %s %n %% %d\"", "printf %s %n %% %d"},
    {"\"utf-8 \xc3\xa9" "f00d \xe6\x97\xa5" "abc \xf0\x9f\x98\x80 end\"",
     "utf-8 \xc3\xa9" "f00d \xe6\x97\xa5" "abc \xf0\x9f\x98\x80 end"},
    {"\"backslash at end \\\\\"", "backslash at end \\"},
    {"\"#include <stdio.h>\"", "#include <stdio.h>"},
    {"\"\\u00e9 escaped \\U0001F600 escaped\"", "\xc3\xa9 escaped \xf0\x9f\x98\x80 escaped"},
};
#define N_HOSTILE (sizeof hostile_strings / sizeof hostile_strings[0])

START_TEST(test_c_hostile_strings)
{
    /* Generate, compile the output with every warning as an error and
    ** trigraphs on, link it with a main that prints each description and
    ** guidance, and compare byte for byte. */
    sbuf m = {0}, prog = {0}, want = {0};
    gen_run g;
    size_t i;
    const char *cc = getenv("TOOLGOV_CC");
    char *main_c, *exe, *gen_c;
    spawn_result comp, run;
    static const char guidance[] =
        "    guidance: |\n"
        "      Line with a trailing backslash \\\n"
        "      #define X \"*/\" ?\?=\n"
        "      \ttab-indented after the block indent\n";
    static const char guidance_bytes[] =
        "Line with a trailing backslash \\\n"
        "#define X \"*/\" ?\?=\n"
        "\ttab-indented after the block indent\n";

    if (cc == NULL || *cc == '\0')
        cc = "cc";
    sbuf_puts(&m, "name: cstr\nprovides: [tool]\ntools:\n");
    for (i = 0; i < N_HOSTILE; i++) {
        sbuf_printf(&m, "  t%zu:\n    effect: read\n    description: %s\n", i,
                    hostile_strings[i].yaml);
        sbuf_puts(&m, guidance);
    }
    gen_run_start(&g, "c_hostile_strings", "cstr.yaml", m.data, m.len, NULL, NULL);
    expect_accepted(&g, "cstr");

    sbuf_puts(&prog, "#include <stdio.h>\n#include <string.h>\n#include \"cstr.toolgov.h\"\n");
    for (i = 0; i < N_HOSTILE; i++)
        sbuf_printf(&prog, "CSTR_TOOLGOV_HANDLER(t%zu, call, args, out)\n"
                           "{\n    (void)call;\n    (void)args;\n    (void)out;\n    return 0;\n}\n",
                    i);
    /* The runtime is not linked: the register function is never called. */
    sbuf_puts(&prog,
              "int toolgov_register_tool(toolgov_plugin_api *api, const char *name,\n"
              "                          const char *description, toolgov_handler_fn h)\n"
              "{\n    (void)api; (void)name; (void)description; (void)h;\n    return 0;\n}\n"
              "int toolgov_declare_tool(toolgov_plugin_api *api, const char *name,\n"
              "                         const toolgov_tool_spec **out)\n"
              "{\n    (void)api; (void)name; (void)out;\n    return 0;\n}\n"
              "int main(void)\n{\n    size_t i;\n"
              "    const toolgov_plugin *p = &cstr_toolgov_plugin;\n"
              "    for (i = 0; i < p->tool_count; i++) {\n"
              "        fwrite(p->tools[i].description, 1, "
              "strlen(p->tools[i].description) + 1, stdout);\n"
              "        fwrite(p->tools[i].guidance, 1, "
              "strlen(p->tools[i].guidance) + 1, stdout);\n"
              "    }\n    return 0;\n}\n");
    main_c = file_write(g.out_dir, "main.c", prog.data, prog.len);
    exe = path_join(g.dir, "roundtrip");
    gen_c = path_join(g.out_dir, "cstr.toolgov.c");
    {
        char *argv[] = {(char *)cc, "-std=c99", "-trigraphs", "-Wall", "-Wextra",
                        "-Wpedantic", "-Werror", "-I", g.out_dir,
                        "-I", TOOLGOV_SOURCE_DIR "/runtime/include",
                        "-o", exe, main_c, gen_c, NULL};
        ck_assert_int_eq(spawn_run(&comp, argv, NULL, 120.0), 0);
        ck_assert_msg(comp.exit_code == 0, "generated code did not compile:\n%s",
                      comp.output);
        spawn_result_free(&comp);
    }
    {
        char *argv[] = {exe, NULL};
        ck_assert_int_eq(spawn_run(&run, argv, NULL, spawn_timeout()), 0);
        ck_assert_int_eq(run.exit_code, 0);
    }
    for (i = 0; i < N_HOSTILE; i++) {
        sbuf_add(&want, hostile_strings[i].bytes, strlen(hostile_strings[i].bytes) + 1);
        sbuf_add(&want, guidance_bytes, sizeof guidance_bytes);
    }
    ck_assert_uint_eq(run.output_len, want.len);
    for (i = 0; i < want.len; i++) {
        ck_assert_msg(run.output[i] == want.data[i],
                      "byte %zu differs: got 0x%02x, want 0x%02x (around \"%.40s\")", i,
                      (unsigned char)run.output[i], (unsigned char)want.data[i],
                      want.data + (i > 20 ? i - 20 : 0));
    }
    spawn_result_free(&run);
    free(main_c);
    free(exe);
    free(gen_c);
    gen_run_end(&g);
    sbuf_free(&m);
    sbuf_free(&prog);
    sbuf_free(&want);
}
END_TEST

static Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *tc = tcase_create("hostile");
    /* The per-case bound is spawn_timeout(); this one only stops Check
    ** from killing a long but healthy run (every prefix, 16 MiB). */
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_alias_bomb);
    tcase_add_test(tc, test_alias_in_value);
    tcase_add_test(tc, test_deep_flow_sequences);
    tcase_add_test(tc, test_deep_flow_mappings);
    tcase_add_test(tc, test_deep_unterminated);
    tcase_add_test(tc, test_deep_block_nesting);
    tcase_add_test(tc, test_size_limit_exact);
    tcase_add_test(tc, test_size_over_limit);
    tcase_add_test(tc, test_one_mib_line);
    tcase_add_test(tc, test_one_mib_comment);
    tcase_add_test(tc, test_huge_key);
    tcase_add_test(tc, test_long_tool_name);
    tcase_add_test(tc, test_complex_key);
    tcase_add_test(tc, test_complex_key_mapping);
    tcase_add_test(tc, test_several_documents);
    tcase_add_test(tc, test_tags);
    tcase_add_test(tc, test_truncated_quoted);
    tcase_add_test(tc, test_every_prefix);
    tcase_add_test(tc, test_control_byte_soh);
    tcase_add_test(tc, test_control_byte_nul);
    tcase_add_test(tc, test_control_byte_del);
    tcase_add_test(tc, test_control_byte_escape);
    tcase_add_test(tc, test_invalid_utf8);
    tcase_add_test(tc, test_overlong_utf8);
    tcase_add_test(tc, test_empty_file);
    tcase_add_test(tc, test_manifest_is_a_directory);
    tcase_add_test(tc, test_manifest_missing);
    tcase_add_test(tc, test_manifest_endless_pipe);
    tcase_add_test(tc, test_out_dir_is_a_file);
    tcase_add_test(tc, test_out_dir_below_a_file);
    tcase_add_test(tc, test_crlf_and_bom);
    tcase_add_test(tc, test_ten_thousand_tools);
    tcase_add_test(tc, test_long_lists);
    tcase_add_test(tc, test_long_lists_all_wrong);
    tcase_add_test(tc, test_ten_thousand_errors);
    tcase_add_test(tc, test_ten_thousand_errors_capped_low);
    tcase_add_test(tc, test_c_keyword_tool_name);
    tcase_add_test(tc, test_c_hostile_strings);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(hostile_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
