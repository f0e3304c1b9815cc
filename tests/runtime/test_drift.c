/* SPDX-License-Identifier: MIT */
/* test_drift.c: the drift panel as rows, text and JSON. */
#include <check.h>
#include <stdio.h>

#include "fixture.h"

static toolgov_registry *reg;
static toolgov_policy *pol;

static void setup(void)
{
    toolgov_plugin old = fx_gamma;

    old.abi_version = 99;
    reg = fx_registry(NULL, NULL);
    ck_assert_ptr_nonnull(reg);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_beta, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &fx_gamma, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &old, NULL), TOOLGOV_EABI);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    ck_assert_int_eq(toolgov_policy_set_override(pol, "make_note, \"quoted\\name\""), 0);
}

static void teardown(void)
{
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
}

static const char golden_text[] =
    "beta: undeclared: tool sneaky is registered by plugin beta but not declared in its manifest\n"
    "beta: duplicate: tool lookup of plugin beta is refused: the name is already in the pool, "
    "owned by alpha\n"
    "beta: duplicate: tool ask_user of plugin beta is refused: the name is already in the pool, "
    "owned by the core\n"
    "beta: never_registered: tool forgotten is declared in beta.yaml:9:3 but plugin beta never "
    "registered it\n"
    "gamma: never_registered: tool g1 is declared in gamma.yaml:4:3 but plugin gamma never "
    "registered it\n"
    "gamma: provides_nothing: plugin gamma says provides: tool but no tool of it is in the pool\n"
    "gamma: mount_failed: plugin gamma was generated for toolgov ABI 99 but this runtime is ABI 2: "
    "regenerate it with this toolgov-gen\n"
    "override: override_unknown: TOOLGOV_CONFIRM_ONCE_TOOLS names \"quoted\\\\name\", which matches "
    "no tool in the pool; check the spelling or remove it\n";

static const char golden_json[] =
    "{\"rows\":["
    "{\"kind\":\"undeclared\",\"plugin\":\"beta\",\"manifest\":\"beta.yaml\",\"tool\":\"sneaky\","
    "\"owner\":null,\"line\":0,\"column\":0,\"error\":null,\"message\":\"tool sneaky is registered "
    "by plugin beta but not declared in its manifest\"},"
    "{\"kind\":\"duplicate\",\"plugin\":\"beta\",\"manifest\":\"beta.yaml\",\"tool\":\"lookup\","
    "\"owner\":\"alpha\",\"line\":0,\"column\":0,\"error\":null,\"message\":\"tool lookup of "
    "plugin beta is refused: the name is already in the pool, owned by alpha\"},"
    "{\"kind\":\"duplicate\",\"plugin\":\"beta\",\"manifest\":\"beta.yaml\",\"tool\":\"ask_user\","
    "\"owner\":\"core\",\"line\":0,\"column\":0,\"error\":null,\"message\":\"tool ask_user of "
    "plugin beta is refused: the name is already in the pool, owned by the core\"},"
    "{\"kind\":\"never_registered\",\"plugin\":\"beta\",\"manifest\":\"beta.yaml\",\"tool\":"
    "\"forgotten\",\"owner\":null,\"line\":9,\"column\":3,\"error\":null,\"message\":\"tool "
    "forgotten is declared in beta.yaml:9:3 but plugin beta never registered it\"},"
    "{\"kind\":\"never_registered\",\"plugin\":\"gamma\",\"manifest\":\"gamma.yaml\",\"tool\":"
    "\"g1\",\"owner\":null,\"line\":4,\"column\":3,\"error\":null,\"message\":\"tool g1 is "
    "declared in gamma.yaml:4:3 but plugin gamma never registered it\"},"
    "{\"kind\":\"provides_nothing\",\"plugin\":\"gamma\",\"manifest\":\"gamma.yaml\",\"tool\":null,"
    "\"owner\":null,\"line\":0,\"column\":0,\"error\":null,\"message\":\"plugin gamma says "
    "provides: tool but no tool of it is in the pool\"},"
    "{\"kind\":\"mount_failed\",\"plugin\":\"gamma\",\"manifest\":\"gamma.yaml\",\"tool\":null,"
    "\"owner\":null,\"line\":0,\"column\":0,\"error\":\"plugin was generated for another toolgov "
    "ABI version\",\"message\":\"plugin gamma was generated for toolgov ABI 99 but this runtime "
    "is ABI 2: regenerate it with this toolgov-gen\"},"
    "{\"kind\":\"override_unknown\",\"plugin\":null,\"manifest\":null,\"tool\":"
    "\"\\\"quoted\\\\name\\\"\",\"owner\":null,\"line\":0,\"column\":0,\"error\":null,\"message\":"
    "\"TOOLGOV_CONFIRM_ONCE_TOOLS names \\\"quoted\\\\name\\\", which matches no tool in the pool; "
    "check the spelling or remove it\"}"
    "]}\n";

START_TEST(text_golden)
{
    char buf[4096];
    size_t need = 0;

    ck_assert_uint_eq(toolgov_drift_count(reg, pol), 8);
    ck_assert_int_eq(toolgov_drift_render_text(buf, sizeof buf, &need, reg, pol), 0);
    ck_assert_str_eq(buf, golden_text);
    ck_assert_uint_eq(need, strlen(golden_text));
}
END_TEST

START_TEST(json_golden)
{
    char buf[8192];
    size_t need = 0;

    ck_assert_int_eq(toolgov_drift_render_json(buf, sizeof buf, &need, reg, pol), 0);
    ck_assert_str_eq(buf, golden_json);
    ck_assert_uint_eq(need, strlen(golden_json));
}
END_TEST

START_TEST(empty_panel_and_registry_only)
{
    toolgov_registry *clean = fx_registry(NULL, NULL);
    char buf[256];

    ck_assert_int_eq(toolgov_drift_render_text(buf, sizeof buf, NULL, clean, NULL), 0);
    ck_assert_str_eq(buf, "no drift\n");
    ck_assert_int_eq(toolgov_drift_render_json(buf, sizeof buf, NULL, clean, NULL), 0);
    ck_assert_str_eq(buf, "{\"rows\":[]}\n");
    ck_assert_uint_eq(toolgov_drift_count(reg, NULL), 7);
    ck_assert_ptr_null(toolgov_drift_at(reg, pol, 8));
    ck_assert_int_eq(toolgov_drift_at(reg, pol, 7)->kind, TOOLGOV_DRIFT_OVERRIDE_UNKNOWN);
    ck_assert_int_eq(toolgov_drift_render_text(buf, sizeof buf, NULL, NULL, NULL), TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov_drift_render_json(NULL, 3, NULL, clean, NULL), TOOLGOV_EINVAL);
    ck_assert_str_eq(toolgov_drift_kind_name(TOOLGOV_DRIFT_PROVIDES_NOTHING), "provides_nothing");
    ck_assert_str_eq(toolgov_drift_kind_name((toolgov_drift_kind)77), "unknown");
    toolgov_registry_free(clean);
}
END_TEST

START_TEST(every_cut_is_clean)
{
    char buf[8192];
    size_t i, n = strlen(golden_json), need = 0;

    ck_assert_int_eq(toolgov_drift_render_json(NULL, 0, &need, reg, pol), 0);
    ck_assert_uint_eq(need, n);
    for (i = 1; i <= n + 1; i++) {
        ck_assert_int_eq(toolgov_drift_render_json(buf, i, NULL, reg, pol),
                         i == n + 1 ? 0 : TOOLGOV_ENOSPC);
        ck_assert_uint_eq(strlen(buf), i - 1);
        ck_assert_int_eq(strncmp(buf, golden_json, i - 1), 0);
    }
}
END_TEST

/* The renderer convention (toolgov.h): size 0 asks for the size, returns 0
** and writes nothing, for both panels. */
START_TEST(sizing_call)
{
    char buf[8] = "#######";
    size_t need = 1;

    ck_assert_int_eq(toolgov_drift_render_text(NULL, 0, &need, reg, pol), 0);
    ck_assert_uint_eq(need, strlen(golden_text));
    ck_assert_int_eq(toolgov_drift_render_text(buf, 0, &need, reg, pol), 0);
    ck_assert_str_eq(buf, "#######");
    need = 1;
    ck_assert_int_eq(toolgov_drift_render_json(NULL, 0, &need, reg, pol), 0);
    ck_assert_uint_eq(need, strlen(golden_json));
    ck_assert_int_eq(toolgov_drift_render_json(buf, 0, &need, reg, pol), 0);
    ck_assert_str_eq(buf, "#######");
    ck_assert_int_eq(toolgov_drift_render_json(buf, sizeof buf, &need, NULL, NULL), TOOLGOV_EINVAL);
    ck_assert_str_eq(buf, "");
    ck_assert_uint_eq(need, 0);
}
END_TEST

START_TEST(json_escapes_control_bytes)
{
    char buf[4096];

    ck_assert_int_eq(toolgov_policy_set_override(pol, "a\x01" "b\x1f" "\bc/\xc3\xa9"), 0);
    ck_assert_int_eq(toolgov_drift_render_json(buf, sizeof buf, NULL, NULL, pol), 0);
    ck_assert_ptr_nonnull(strstr(buf, "\"tool\":\"a\\u0001b\\u001f\\bc/\xc3\xa9\""));
    ck_assert_int_eq(toolgov_drift_render_text(buf, sizeof buf, NULL, NULL, pol), 0);
    ck_assert_int_eq(strncmp(buf, "override: override_unknown: ", 28), 0);
}
END_TEST

/* A strict UTF-8 check (RFC 3629): no overlong forms, no surrogates, nothing
** above U+10FFFF. */
static int valid_utf8(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;

    while (*s) {
        unsigned c = *s, n, cp, i;

        if (c < 0x80) {
            s++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf)
            n = 1, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef)
            n = 2, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4)
            n = 3, cp = c & 0x07;
        else
            return 0;
        for (i = 1; i <= n; i++) {
            if ((s[i] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i] & 0x3fu);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        s += n + 1;
    }
    return 1;
}

/* A name computed at run time can hold any bytes. The JSON panel must still
** be UTF-8 (RFC 8259), so a byte that is not part of a valid sequence comes
** out as U+FFFD; valid sequences pass through unchanged. */
START_TEST(json_is_utf8_whatever_the_names)
{
    char buf[4096];

    ck_assert_int_eq(toolgov_policy_set_override(pol, "a\xff" "b,\xc3,\xe0\x80\x80,"
                                                      "\xed\xa0\x80,\xf4\x90\x80\x80,"
                                                      "ok\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
                     0);
    ck_assert_int_eq(toolgov_drift_render_json(buf, sizeof buf, NULL, NULL, pol), 0);
    ck_assert_msg(valid_utf8(buf), "drift JSON is not UTF-8: %s", buf);
    ck_assert_ptr_nonnull(strstr(buf, "\"tool\":\"a\\ufffdb\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"tool\":\"\\ufffd\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"tool\":\"\\ufffd\\ufffd\\ufffd\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"tool\":\"\\ufffd\\ufffd\\ufffd\\ufffd\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"tool\":\"ok\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""));
    /* The row itself keeps the exact bytes. */
    ck_assert_str_eq(toolgov_drift_at(NULL, pol, 0)->tool, "a\xff" "b");
}
END_TEST

/* The text panel is one row a line: a name with a line break in it must not
** start a line of its own (it would read as a row of another plugin). */
START_TEST(text_rows_stay_one_line)
{
    char buf[4096];
    const char *p;
    size_t lines = 0;

    ck_assert_int_eq(toolgov_policy_set_override(pol, "x\nbeta: undeclared: fa\rke,y\x7f"), 0);
    ck_assert_uint_eq(toolgov_drift_count(NULL, pol), 2);
    ck_assert_int_eq(toolgov_drift_render_text(buf, sizeof buf, NULL, NULL, pol), 0);
    for (p = buf; *p; p++) {
        lines += *p == '\n';
        ck_assert_msg(*p == '\n' || ((unsigned char)*p >= 0x20 && *p != 0x7f),
                      "control byte 0x%02x in the text panel", (unsigned char)*p);
    }
    ck_assert_uint_eq(lines, 2);
    ck_assert_ptr_nonnull(strstr(buf, "names x\\x0abeta: undeclared: fa\\x0dke, which"));
    ck_assert_ptr_nonnull(strstr(buf, "names y\\x7f, which"));
}
END_TEST

/* Beyond C0: C1 controls (8-bit CSI among them), U+0085, U+2028 and U+2029
** would break or restyle a line on some terminals, and a literal backslash
** must not read like an escape. */
START_TEST(text_escapes_c1_separators_and_backslash)
{
    char buf[4096];

    ck_assert_int_eq(toolgov_policy_set_override(
                         pol, "a\xc2\x9b" "31m,b\xe2\x80\xa8" "c,d\xe2\x80\xa9,e\\x0a,f\xc2\x85"),
                     0);
    ck_assert_int_eq(toolgov_drift_render_text(buf, sizeof buf, NULL, NULL, pol), 0);
    ck_assert_ptr_nonnull(strstr(buf, "names a\\u009b31m, which"));
    ck_assert_ptr_nonnull(strstr(buf, "names b\\u2028c, which"));
    ck_assert_ptr_nonnull(strstr(buf, "names d\\u2029, which"));
    ck_assert_ptr_nonnull(strstr(buf, "names e\\\\x0a, which"));
    ck_assert_ptr_nonnull(strstr(buf, "names f\\u0085, which"));
    ck_assert_ptr_null(strstr(buf, "\xc2\x9b"));
    ck_assert_ptr_null(strstr(buf, "\xe2\x80\xa8"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("drift");
    TCase *tc = tcase_create("panel");
    SRunner *sr;
    int failed;

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, text_golden);
    tcase_add_test(tc, json_golden);
    tcase_add_test(tc, empty_panel_and_registry_only);
    tcase_add_test(tc, every_cut_is_clean);
    tcase_add_test(tc, sizing_call);
    tcase_add_test(tc, json_escapes_control_bytes);
    tcase_add_test(tc, json_is_utf8_whatever_the_names);
    tcase_add_test(tc, text_rows_stay_one_line);
    tcase_add_test(tc, text_escapes_c1_separators_and_backslash);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
