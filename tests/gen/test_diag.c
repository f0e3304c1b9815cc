/* SPDX-License-Identifier: MIT */
/*
** test_diag.c: the diagnostic printer (format, cap, notes of suppressed
** errors) and toolgov__suggest().
*/
#include "gen_test_util.h"

static char *capture_begin(FILE **f, char **buf, size_t *size)
{
    *f = open_memstream(buf, size);
    ck_assert_ptr_nonnull(*f);
    return NULL;
}

START_TEST(test_format)
{
    char *buf;
    size_t size;
    FILE *f;
    toolgov__diag d;
    capture_begin(&f, &buf, &size);
    toolgov__diag_init(&d, f, 0);
    toolgov__diag_error(&d, "a.yaml", 7, 13, "unknown effect '%s'", "wirte");
    toolgov__diag_note(&d, "a.yaml", 3, 1, "first here");
    toolgov__diag_warning(&d, "a.yaml", 2, 0, "no column");
    toolgov__diag_error(&d, "a.yaml", 0, 0, "no line");
    ck_assert_uint_eq(toolgov__diag_finish(&d), 2);
    fclose(f);
    ck_assert_str_eq(buf, "a.yaml:7:13: error: unknown effect 'wirte'\n"
                          "a.yaml:3:1: note: first here\n"
                          "a.yaml:2: warning: no column\n"
                          "a.yaml: error: no line\n");
    ck_assert_uint_eq(d.warnings, 1);
    free(buf);
}
END_TEST

START_TEST(test_cap)
{
    char *buf;
    size_t size;
    FILE *f;
    toolgov__diag d;
    int i;
    capture_begin(&f, &buf, &size);
    toolgov__diag_init(&d, f, 2);
    for (i = 1; i <= 5; i++) {
        toolgov__diag_error(&d, "m.yaml", (unsigned)i, 1, "error %d", i);
        toolgov__diag_note(&d, "m.yaml", (unsigned)i, 2, "note %d", i);
    }
    ck_assert_uint_eq(toolgov__diag_finish(&d), 5);
    fclose(f);
    ck_assert_str_eq(buf, "m.yaml:1:1: error: error 1\n"
                          "m.yaml:1:2: note: note 1\n"
                          "m.yaml:2:1: error: error 2\n"
                          "m.yaml:2:2: note: note 2\n"
                          "3 more errors not shown (raise --max-errors to see them)\n");
    free(buf);

    capture_begin(&f, &buf, &size);
    toolgov__diag_init(&d, f, 1);
    toolgov__diag_error(&d, "m.yaml", 1, 1, "a");
    toolgov__diag_error(&d, "m.yaml", 2, 1, "b");
    toolgov__diag_finish(&d);
    fclose(f);
    ck_assert_str_eq(buf, "m.yaml:1:1: error: a\n1 more error not shown (raise --max-errors to see them)\n");
    free(buf);
}
END_TEST

START_TEST(test_no_cap_and_null_sink)
{
    toolgov__diag d;
    int i;
    toolgov__diag_init(&d, NULL, 0);
    for (i = 0; i < 1000; i++)
        toolgov__diag_error(&d, "m.yaml", 1, 1, "x");
    ck_assert_uint_eq(toolgov__diag_finish(&d), 1000);
}
END_TEST

/* One formatter for every module: a message longer than the cap is cut at
** the same length wherever it comes from, before a whole UTF-8 character. */
START_TEST(test_message_cap)
{
    char *buf, *msg;
    size_t size, i, n = TOOLGOV_DIAG_MSG_MAX + 100;
    FILE *f;
    toolgov__diag d;
    toolgov__mark at = {3, 4};
    const char *text;
    msg = malloc(n + 1);
    ck_assert_ptr_nonnull(msg);
    /* "a" then two-byte characters, so the cut falls inside one. */
    msg[0] = 'a';
    for (i = 1; i + 1 < n; i += 2) {
        msg[i] = (char)0xC3;
        msg[i + 1] = (char)0xA9;
    }
    msg[i] = '\0';
    capture_begin(&f, &buf, &size);
    toolgov__diag_init(&d, f, 0);
    toolgov__diag_error_at(&d, "m.yaml", at, "%s", msg);
    toolgov__diag_note_at(&d, "m.yaml", at, "%s", "short");
    fclose(f);
    ck_assert(strncmp(buf, "m.yaml:3:4: error: a\xc3\xa9", 22) == 0);
    text = buf + strlen("m.yaml:3:4: error: ");
    /* The message is at most TOOLGOV_DIAG_MSG_MAX - 1 bytes and ends on a
    ** whole character. */
    ck_assert_uint_le((size_t)(strchr(text, '\n') - text), TOOLGOV_DIAG_MSG_MAX - 1);
    ck_assert_uint_eq((size_t)(strchr(text, '\n') - text) % 2, 1);
    ck_assert_ptr_nonnull(strstr(buf, "\nm.yaml:3:4: note: short\n"));
    free(buf);
    free(msg);
}
END_TEST

/* The machine forms escape what JSON and URIs need escaped, and keep a
** note with the error before it. */
START_TEST(test_json_and_sarif)
{
    char *buf;
    size_t size;
    FILE *f;
    toolgov__diag d;
    toolgov__mark at = {2, 3}, no_col = {4, 0};
    capture_begin(&f, &buf, &size);
    toolgov__diag_init(&d, f, 0);
    d.format = TOOLGOV_DIAG_JSON;
    toolgov__diag_error_at(&d, "a b.yaml", at, "say \"%s\"\\\n\x01", "x");
    toolgov__diag_note_at(&d, "a b.yaml", no_col, "here");
    ck_assert_uint_eq(toolgov__diag_finish(&d), 1);
    fclose(f);
    ck_assert_str_eq(buf, "[\n  {\"kind\": \"error\", \"message\": \"say \\\"x\\\"\\\\\\n\\u0001\", "
                          "\"locations\": [{\"caret\": {\"file\": \"a b.yaml\", \"line\": 2, "
                          "\"column\": 3}}], \"children\": [{\"kind\": \"note\", \"message\": "
                          "\"here\", \"locations\": [{\"caret\": {\"file\": \"a b.yaml\", "
                          "\"line\": 4}}]}]}\n]\n");
    free(buf);

    capture_begin(&f, &buf, &size);
    toolgov__diag_init(&d, f, 0);
    d.format = TOOLGOV_DIAG_SARIF;
    toolgov__diag_error(&d, "dir/a b#.yaml", 0, 0, "whole file");
    toolgov__diag_finish(&d);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"uri\": \"dir/a%20b%23.yaml\"}}}]}"));
    ck_assert_ptr_null(strstr(buf, "region"));
    free(buf);
}
END_TEST

/* Text with a registered source shows the line and a caret under the
** column (characters, not bytes; a tab stays a tab). */
START_TEST(test_caret)
{
    char *buf;
    size_t size;
    FILE *f;
    toolgov__diag d;
    toolgov__mark at = {2, 6};
    const char src[] = "name: x\n\t\xc3\xa9 ab: wirte\r\n";
    capture_begin(&f, &buf, &size);
    toolgov__diag_init(&d, f, 0);
    d.show_source = 1;
    toolgov__diag_source(&d, "m.yaml", src, sizeof src - 1);
    toolgov__diag_error_at(&d, "m.yaml", at, "bad");
    toolgov__diag_error_at(&d, "other.yaml", at, "no source");
    toolgov__diag_finish(&d);
    fclose(f);
    ck_assert_str_eq(buf, "m.yaml:2:6: error: bad\n\t\xc3\xa9 ab: wirte\n\t    ^\n"
                          "other.yaml:2:6: error: no source\n");
    free(buf);

    /* Wide characters (CJK, emoji) take two columns on a terminal, a
    ** combining mark none: column 8 is the 'r' of raed, 9 spaces in. */
    {
        toolgov__mark at2 = {1, 8};
        const char src2[] = "\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x8e\xaf" "e\xcc\x81: raed\n";
        capture_begin(&f, &buf, &size);
        toolgov__diag_init(&d, f, 0);
        d.show_source = 1;
        toolgov__diag_source(&d, "w.yaml", src2, sizeof src2 - 1);
        toolgov__diag_error_at(&d, "w.yaml", at2, "bad");
        toolgov__diag_finish(&d);
        fclose(f);
        ck_assert_str_eq(buf, "w.yaml:1:8: error: bad\n"
                              "\xe6\x97\xa5\xe6\x9c\xac\xf0\x9f\x8e\xaf" "e\xcc\x81: raed\n"
                              "         ^\n");
        free(buf);
    }
}
END_TEST

START_TEST(test_suggest)
{
    static const char *const effects[] = {"read", "write", "destructive"};
    static const char *const keys[] = {"effect", "confirm", "description", "guidance", "pinned",
                                       "answers_directly"};
    ck_assert_str_eq(toolgov__suggest("wirte", effects, 3), "write");   /* transposition */
    ck_assert_str_eq(toolgov__suggest("raed", effects, 3), "read");
    ck_assert_str_eq(toolgov__suggest("Read", effects, 3), "read");
    ck_assert_str_eq(toolgov__suggest("destrutive", effects, 3), "destructive");
    ck_assert_str_eq(toolgov__suggest("destroy", effects, 3) ? "x" : "none", "none");
    ck_assert_ptr_null(toolgov__suggest("maybe", effects, 3));
    ck_assert_ptr_null(toolgov__suggest("", effects, 3));
    ck_assert_ptr_null(toolgov__suggest(NULL, effects, 3));
    ck_assert_ptr_null(toolgov__suggest("read", effects, 3)); /* itself is no suggestion */
    ck_assert_str_eq(toolgov__suggest("descripton", keys, 6), "description");
    ck_assert_str_eq(toolgov__suggest("answer_directly", keys, 6), "answers_directly");
    ck_assert_str_eq(toolgov__suggest("pined", keys, 6), "pinned");
    ck_assert_ptr_null(toolgov__suggest("timeout", keys, 6));
    ck_assert_ptr_null(toolgov__suggest("x", keys, 0));
}
END_TEST

START_TEST(test_suggest_long_word)
{
    static const char *const c[] = {"tool"};
    char w[400];
    memset(w, 'a', sizeof w - 1);
    w[sizeof w - 1] = '\0';
    ck_assert_ptr_null(toolgov__suggest(w, c, 1));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("diag");
    TCase *tc = tcase_create("diag");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, test_format);
    tcase_add_test(tc, test_cap);
    tcase_add_test(tc, test_no_cap_and_null_sink);
    tcase_add_test(tc, test_message_cap);
    tcase_add_test(tc, test_json_and_sarif);
    tcase_add_test(tc, test_caret);
    tcase_add_test(tc, test_suggest);
    tcase_add_test(tc, test_suggest_long_word);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
