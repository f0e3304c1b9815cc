/* SPDX-License-Identifier: MIT */
/*
** test_mcp_stdio.c: the toolgov-mcp program itself over real pipes: the
** stdio framing (CRLF, a last line without its newline, empty lines, lines
** over the bound, megabytes without a newline), end of input, a client that
** is gone, and the command line (misuse, a plugin that cannot be loaded);
** module plugins, started with their configuration and stopped.
*/
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TOOLGOV_MCP_EXE
#error "TOOLGOV_MCP_EXE must name the toolgov-mcp under test"
#endif

typedef struct run_result {
    int status;  /* exit code, or 128 + signal */
    char *out;   /* stdout, NUL-terminated */
    char *err;   /* stderr */
} run_result;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Run toolgov-mcp with `args` (NULL-terminated), `in` (len bytes) on stdin.
** close_stdout: stdout is a pipe whose reader is already gone. */
static run_result run_mcp(const char *const *args, const char *in, size_t len, int close_stdout)
{
    char dir[] = "/tmp/toolgov-mcp-stdio-XXXXXX", inp[64], outp[64], errp[64];
    const char *argv[16];
    run_result r;
    pid_t pid;
    int st, k = 0, fd, pipefd[2] = {-1, -1};
    FILE *f;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(inp, sizeof inp, "%s/in", dir);
    snprintf(outp, sizeof outp, "%s/out", dir);
    snprintf(errp, sizeof errp, "%s/err", dir);
    f = fopen(inp, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(in, 1, len, f), len);
    fclose(f);
    argv[k++] = TOOLGOV_MCP_EXE;
    while (args && *args && k < 15)
        argv[k++] = *args++;
    argv[k] = NULL;
    if (close_stdout) {
        ck_assert_int_eq(pipe(pipefd), 0);
        close(pipefd[0]);
    }
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        fd = open(inp, O_RDONLY);
        dup2(fd, 0);
        fd = close_stdout ? pipefd[1] : open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        fd = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    if (close_stdout)
        close(pipefd[1]);
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (close_stdout) {
        r.out = strdup("");
    } else {
        r.out = slurp(outp);
        unlink(outp);
    }
    r.err = slurp(errp);
    unlink(inp);
    unlink(errp);
    rmdir(dir);
    return r;
}

static void run_free(run_result *r)
{
    free(r->out);
    free(r->err);
}

#define INIT "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}}"
#define PING(n) "{\"jsonrpc\":\"2.0\",\"id\":" #n ",\"method\":\"ping\"}"

static size_t count_lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

START_TEST(test_framing)
{
    static const char *const args[] = {"--max-message", "256", NULL};
    char in[4096];
    size_t o = 0;
    run_result r;
    o += (size_t)snprintf(in + o, sizeof in - o, "%s\r\n\n%s\n", INIT, PING(2));
    memset(in + o, 'x', 300); /* over the bound */
    o += 300;
    o += (size_t)snprintf(in + o, sizeof in - o, "\n%s\n%s", PING(3), PING(4)); /* no final newline */
    r = run_mcp(args, in, o, 0);
    ck_assert_int_eq(r.status, 0);
    ck_assert_uint_eq(count_lines(r.out), 5);
    ck_assert_ptr_nonnull(strstr(r.out, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\""));
    ck_assert_ptr_nonnull(strstr(r.out, "\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n"
                                        "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,"
                                        "\"message\":\"invalid request: the message is 300 bytes or more; "
                                        "the limit is 256 bytes\"}}\n"
                                        "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n"
                                        "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}\n"));
    ck_assert_str_eq(r.err, "");
    run_free(&r);
}
END_TEST

/* Megabytes without a newline are skipped, not kept, and the session goes on. */
START_TEST(test_huge_line)
{
    size_t big = 10u << 20, o;
    char *in = malloc(big + 256);
    run_result r;
    ck_assert_ptr_nonnull(in);
    memset(in, '[', big);
    o = big + (size_t)snprintf(in + big, 256, "\n%s\n", PING(5));
    r = run_mcp(NULL, in, o, 0);
    ck_assert_int_eq(r.status, 0);
    ck_assert_uint_eq(count_lines(r.out), 2);
    ck_assert_ptr_nonnull(strstr(r.out, "the limit is 4194304 bytes"));
    ck_assert_ptr_nonnull(strstr(r.out, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n"));
    run_free(&r);
    /* And the same at the end of input, with no newline at all. */
    r = run_mcp(NULL, in, big, 0);
    ck_assert_int_eq(r.status, 0);
    ck_assert_uint_eq(count_lines(r.out), 1);
    ck_assert_ptr_nonnull(strstr(r.out, "\"code\":-32600"));
    run_free(&r);
    free(in);
}
END_TEST

START_TEST(test_end_of_input)
{
    run_result r = run_mcp(NULL, "", 0, 0);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "");
    run_free(&r);
}
END_TEST

START_TEST(test_client_gone)
{
    static const char in[] = INIT "\n" PING(2) "\n";
    run_result r = run_mcp(NULL, in, sizeof in - 1, 1);
    ck_assert_int_eq(r.status, 1); /* a clean exit, not SIGPIPE */
    run_free(&r);
}
END_TEST

START_TEST(test_command_line)
{
    static const char *const bad[][3] = {
        {"--bogus", NULL, NULL},
        {"--plugin", NULL, NULL},
        {"--max-message", "12", NULL},
        {"--no-examples", NULL, NULL},
    };
    static const char *const missing[] = {"--plugin", "/nonexistent/libnothing.so", NULL};
    static const char *const help[] = {"--help", NULL};
    size_t i;
    run_result r;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run_mcp(bad[i], "", 0, 0);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.err, "toolgov-mcp: ") == r.err, "%s", r.err);
        ck_assert_ptr_nonnull(strstr(r.err, "try 'toolgov-mcp --help'"));
        run_free(&r);
    }
    r = run_mcp(missing, "", 0, 0);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "toolgov-mcp: /nonexistent/libnothing.so: cannot load: "));
    run_free(&r);
    r = run_mcp(help, "", 0, 0);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "usage: toolgov-mcp"));
    run_free(&r);
}
END_TEST

/* A MODULE plugin through --plugin: listed, called, and gated. */
START_TEST(test_module_plugin)
{
    static const char *const args[] = {"--no-examples", "--plugin", TOOLGOV_MCP_MODULE, NULL};
    static const char *const not_plugin[] = {"--plugin", TOOLGOV_MCP_NOT_A_PLUGIN, NULL};
    static const char in[] =
        INIT "\n"
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n"
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo_args\","
        "\"arguments\":{\"b\": [1, 2], \"a\": \"x\"}}}\n"
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"shred_notes\"}}\n"
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"calendar_lookup\"}}\n";
    run_result r = run_mcp(args, in, sizeof in - 1, 0);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\"result\":{\"tools\":[{\"name\":\"echo_args\",\"description\":"
                                "\"Say back the arguments it was called with.\"") != NULL, "%s", r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "{\"name\":\"shred_notes\""));
    ck_assert_ptr_nonnull(strstr(r.out, "\"destructiveHint\":true"));
    ck_assert_ptr_nonnull(strstr(r.out, "\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"));
    ck_assert_ptr_nonnull(strstr(r.out, "Destructive tools cannot run for this client"));
    ck_assert_ptr_nonnull(strstr(r.out, "\"id\":5,\"error\":{\"code\":-32602,\"message\":\"unknown tool 'calendar_lookup'"));
    run_free(&r);

    r = run_mcp(not_plugin, "", 0, 0);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ": no toolgov_module_plugin symbol; build the plugin with "
                                "toolgov_add_plugin(NAME ... MODULE)") != NULL, "%s", r.err);
    run_free(&r);
}
END_TEST

#define GREET(n) "{\"jsonrpc\":\"2.0\",\"id\":" #n ",\"method\":\"tools/call\",\"params\":{\"name\":\"greet\"}}\n"

/* Run the greeter module with `args`; its stop entry's lines in *fini. */
static run_result run_greeter(const char *const *args, char **fini)
{
    static const char in[] = INIT "\n" GREET(2) GREET(3);
    char log[] = "/tmp/toolgov-mcp-fini-XXXXXX";
    int fd = mkstemp(log);
    run_result r;
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(setenv("TOOLGOV_TEST_FINI_LOG", log, 1), 0);
    r = run_mcp(args, in, sizeof in - 1, 0);
    *fini = slurp(log);
    unlink(log);
    return r;
}

/* A session of the greeter started with `args`: it succeeds, its output
** has `want`, and its stop entry wrote `fini`. */
static void expect_greeting(const char *const *args, const char *want, const char *fini)
{
    char *log;
    run_result r = run_greeter(args, &log);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, want) != NULL, "%s", r.out);
    ck_assert_str_eq(log, fini);
    run_free(&r);
    free(log);
}

/* A MODULE plugin whose handler keeps its state behind the plugin context:
** started (TOOLGOV_MODULE_INIT) with the configuration of the command line
** or of a file, mounted with the context it made, stopped
** (TOOLGOV_MODULE_FINI) at the end of the session. Before module.h it was
** mounted with no context and its first call crashed the server. */
START_TEST(test_module_start)
{
    static const char *const given[] = {"--no-examples", "--plugin", TOOLGOV_MCP_GREETER,
                                        "--plugin-config", "good evening", NULL};
    static const char *const none[] = {"--no-examples", "--plugin", TOOLGOV_MCP_GREETER, NULL};
    char path[] = "/tmp/toolgov-mcp-config-XXXXXX";
    const char *from_file[] = {"--no-examples", "--plugin", TOOLGOV_MCP_GREETER,
                               "--plugin-config-file", path, NULL};
    int fd;
    expect_greeting(given, "\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
                           "\"good evening (call 1)\"",
                    "stopped good evening after 2 calls\n");
    expect_greeting(given, "good evening (call 2)", "stopped good evening after 2 calls\n");
    expect_greeting(none, "hello (call 1)", "stopped hello after 2 calls\n");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "from a file", 11), 11);
    close(fd);
    expect_greeting(from_file, "from a file (call 2)", "stopped from a file after 2 calls\n");
    unlink(path);
}
END_TEST

/* A module that does not start is a message and exit status 2, not a
** crash; a configuration with no plugin to take it is refused. */
START_TEST(test_module_start_fails)
{
    static const char *const fails[] = {"--no-examples", "--plugin", TOOLGOV_MCP_GREETER,
                                        "--plugin-config", "fail", NULL};
    static const char *const quiet[] = {"--no-examples", "--plugin", TOOLGOV_MCP_GREETER,
                                        "--plugin-config=fail-quiet", NULL};
    static const char *const no_init[] = {"--no-examples", "--plugin", TOOLGOV_MCP_MODULE,
                                          "--plugin-config", "x", NULL};
    static const char *const misuse[][7] = {
        {"--plugin-config", "x", NULL},
        {"--plugin", TOOLGOV_MCP_GREETER, "--plugin-config", "a", "--plugin-config", "b", NULL},
        {"--plugin", TOOLGOV_MCP_GREETER, "--plugin-config", NULL},
        {"--plugin", TOOLGOV_MCP_GREETER, "--plugin-config-file", "", NULL},
        {"--plugin", TOOLGOV_MCP_GREETER, "--plugin-config-file", "/nonexistent/greeting", NULL},
    };
    char *fini;
    size_t i;
    run_result r = run_greeter(fails, &fini);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strstr(r.err, "toolgov-mcp: " TOOLGOV_MCP_GREETER ": plugin 'mcp_greeter' did "
                                "not start: the greeting 'fail' is not a greeting\n") == r.err,
                  "%s", r.err);
    ck_assert_str_eq(fini, ""); /* nothing started, nothing to stop */
    run_free(&r);
    free(fini);

    r = run_greeter(quiet, &fini);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ": plugin 'mcp_greeter' did not start (its toolgov_module_init "
                                "returned 7)\n") != NULL, "%s", r.err);
    run_free(&r);
    free(fini);

    r = run_mcp(no_init, "", 0, 0);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ": a configuration was given, but plugin 'mcp_notes' has no start "
                                "entry to take it; define TOOLGOV_MODULE_INIT") != NULL, "%s", r.err);
    run_free(&r);

    for (i = 0; i < sizeof misuse / sizeof misuse[0]; i++) {
        r = run_mcp(misuse[i], "", 0, 0);
        ck_assert_msg(r.status == 2, "case %zu: status %d", i, r.status);
        ck_assert_msg(strstr(r.err, "toolgov-mcp: ") == r.err, "case %zu: %s", i, r.err);
        run_free(&r);
    }
}
END_TEST

/* The override as man toolgov-mcp states it: empty is no override (the
** manifests decide: create_reminder still asks, and this client cannot),
** "none" alone lets every write run without asking. */
START_TEST(test_override_empty_and_none)
{
    static const char in[] =
        INIT "\n"
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":"
        "\"create_reminder\",\"arguments\":{\"title\":\"milk\",\"date\":\"2026-12-02\","
        "\"time\":\"09:00\"}}}\n";
    run_result r;

    ck_assert_int_eq(setenv("TOOLGOV_CONFIRM_ONCE_TOOLS", "", 1), 0);
    r = run_mcp(NULL, in, sizeof in - 1, 0);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "create_reminder was not run: it is a write that needs the "
                                "user's confirmation") != NULL, "%s", r.out);
    run_free(&r);

    ck_assert_int_eq(setenv("TOOLGOV_CONFIRM_ONCE_TOOLS", "none", 1), 0);
    r = run_mcp(NULL, in, sizeof in - 1, 0);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "Created reminder \\\"milk\\\"") != NULL &&
                      strstr(r.out, "\"isError\":false") != NULL,
                  "%s", r.out);
    run_free(&r);

    ck_assert_int_eq(setenv("TOOLGOV_CONFIRM_SCOPE", "everything", 1), 0);
    r = run_mcp(NULL, in, sizeof in - 1, 0);
    ck_assert_int_ne(r.status, 0);
    ck_assert_msg(strstr(r.err, "toolgov-mcp: ") == r.err, "%s", r.err);
    run_free(&r);
}
END_TEST

static Suite *stdio_suite(void)
{
    Suite *su = suite_create("mcp_stdio");
    TCase *tc = tcase_create("stdio");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_framing);
    tcase_add_test(tc, test_huge_line);
    tcase_add_test(tc, test_end_of_input);
    tcase_add_test(tc, test_client_gone);
    tcase_add_test(tc, test_command_line);
    tcase_add_test(tc, test_module_plugin);
    tcase_add_test(tc, test_module_start);
    tcase_add_test(tc, test_module_start_fails);
    tcase_add_test(tc, test_override_empty_and_none);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    SRunner *sr = srunner_create(stdio_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
