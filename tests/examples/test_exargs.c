/* SPDX-License-Identifier: MIT */
/*
** test_exargs.c: the examples' strict JSON argument reader (exargs.h):
** what it accepts, everything malformed it refuses, and the usage message
** exargs_read() writes, driven through a real runtime invocation.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/run.h>

#include "exargs.h"

START_TEST(parses_flat_object)
{
    static const char text[] =
        " { \"s\" : \"text\" , \"n\": -1.5e3, \"i\": 42, \"t\": true, \"f\": false, \"z\": null } ";
    exargs_object o;
    ck_assert_int_eq(exargs_parse(&o, text, strlen(text)), 0);
    ck_assert_uint_eq(o.count, 6);
    ck_assert_str_eq(exargs_str(&o, "s", NULL), "text");
    ck_assert(exargs_num(&o, "n", 0) == -1500.0);
    ck_assert_int_eq(exargs_int(&o, "i", 0), 42);
    ck_assert_int_eq(exargs_bool(&o, "t", 0), 1);
    ck_assert_int_eq(exargs_bool(&o, "f", 1), 0);
    /* null reads as absent: the default comes back */
    ck_assert_ptr_null(exargs_find(&o, "z"));
    ck_assert_str_eq(exargs_str(&o, "z", "dflt"), "dflt");
    ck_assert_str_eq(exargs_str(&o, "missing", "dflt"), "dflt");
    /* a value of another type is not handed out as this one */
    ck_assert_str_eq(exargs_str(&o, "n", "dflt"), "dflt");
}
END_TEST

START_TEST(parses_empty_object)
{
    exargs_object o;
    ck_assert_int_eq(exargs_parse(&o, "{}", 2), 0);
    ck_assert_uint_eq(o.count, 0);
    ck_assert_int_eq(exargs_parse(&o, "\n{ }\n", 5), 0);
}
END_TEST

START_TEST(decodes_escapes_and_utf8)
{
    static const char text[] =
        "{\"e\":\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00 \xc3\xa9\"}";
    exargs_object o;
    const exargs_field *f;
    ck_assert_int_eq(exargs_parse(&o, text, strlen(text)), 0);
    f = exargs_find(&o, "e");
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->str, "q\" b\\ s/ \b\f\n\r\t \xc3\xa9 \xf0\x9f\x98\x80 \xc3\xa9");
    ck_assert_uint_eq(f->str_len, strlen(f->str));
}
END_TEST

static const struct {
    const char *text;
    size_t len; /* 0: strlen */
} malformed[] = {
    {"", 0},
    {"   ", 0},
    {"[]", 0},
    {"\"x\"", 0},
    {"42", 0},
    {"{", 0},
    {"{\"a\"}", 0},
    {"{\"a\":}", 0},
    {"{\"a\":1,}", 0},
    {"{,}", 0},
    {"{\"a\":1 \"b\":2}", 0},
    {"{'a':1}", 0},
    {"{a:1}", 0},
    {"{\"a\":01}", 0},
    {"{\"a\":1.}", 0},
    {"{\"a\":.5}", 0},
    {"{\"a\":+1}", 0},
    {"{\"a\":-}", 0},
    {"{\"a\":1e}", 0},
    {"{\"a\":0x10}", 0},
    {"{\"a\":NaN}", 0},
    {"{\"a\":Infinity}", 0},
    {"{\"a\":1e999}", 0},
    {"{\"a\":12345678901234567890123456789012345678901}", 0},
    {"{\"a\":{}}", 0},
    {"{\"a\":[1]}", 0},
    {"{\"a\":tru}", 0},
    {"{\"a\":True}", 0},
    {"{\"a\":\"\\x\"}", 0},
    {"{\"a\":\"\\u12\"}", 0},
    {"{\"a\":\"\\u12G4\"}", 0},
    {"{\"a\":\"\\ud800\"}", 0},
    {"{\"a\":\"\\ud800\\u0041\"}", 0},
    {"{\"a\":\"\\udc00\"}", 0},
    {"{\"a\":\"\\u0000\"}", 0},
    {"{\"a\":\"raw\ttab\"}", 0},
    {"{\"a\":\"line\nbreak\"}", 0},
    {"{\"a\":\"\xff\"}", 0},
    {"{\"a\":\"\xc0\xaf\"}", 0},
    {"{\"a\":\"\xed\xa0\x80\"}", 0},
    {"{\"a\":\"\xf4\x90\x80\x80\"}", 0},
    {"{\"a\":\"\xe2\x82\"}", 0},
    {"{\"a\":\"unterminated}", 0},
    {"{\"a\":1}{", 0},
    {"{\"a\":1} x", 0},
    {"{\"a\":1,\"a\":2}", 0},
    {"\xef\xbb\xbf{}", 0},
    {"{\"a\":1}\0", 8},
    {"{\"a\0b\":1}", 9},
};

START_TEST(refuses_malformed)
{
    exargs_object o;
    size_t len = malformed[_i].len ? malformed[_i].len : strlen(malformed[_i].text);
    ck_assert_msg(exargs_parse(&o, malformed[_i].text, len) == TOOLGOV_EUSAGE,
                  "accepted malformed case %d: %s", _i, malformed[_i].text);
    ck_assert_msg(o.error[0] != '\0', "no error text for case %d", _i);
}
END_TEST

START_TEST(bounds_keys_and_length)
{
    char text[EXARGS_MAX_TEXT + 64];
    exargs_object o;
    size_t n = 0, i;

    /* exactly the limit of keys is fine, one more is refused */
    n += (size_t)sprintf(text + n, "{");
    for (i = 0; i < EXARGS_MAX_FIELDS; i++)
        n += (size_t)sprintf(text + n, "%s\"k%lu\":%lu", i ? "," : "", (unsigned long)i,
                             (unsigned long)i);
    sprintf(text + n, "}");
    ck_assert_int_eq(exargs_parse(&o, text, strlen(text)), 0);
    sprintf(text + n, ",\"extra\":1}");
    ck_assert_int_eq(exargs_parse(&o, text, strlen(text)), TOOLGOV_EUSAGE);
    ck_assert_ptr_nonnull(strstr(o.error, "too many keys"));

    /* a string that makes the text one byte too long */
    memset(text, 'x', sizeof text);
    memcpy(text, "{\"s\":\"", 6);
    memcpy(text + EXARGS_MAX_TEXT - 2, "\"}", 2);
    ck_assert_int_eq(exargs_parse(&o, text, EXARGS_MAX_TEXT), 0);
    ck_assert_uint_eq(exargs_find(&o, "s")->str_len, EXARGS_MAX_TEXT - 8);
    memcpy(text + EXARGS_MAX_TEXT - 2, "x\"}", 3);
    ck_assert_int_eq(exargs_parse(&o, text, EXARGS_MAX_TEXT + 1), TOOLGOV_EUSAGE);
    ck_assert_ptr_nonnull(strstr(o.error, "more than"));
}
END_TEST

START_TEST(error_says_where)
{
    exargs_object o;
    ck_assert_int_eq(exargs_parse(&o, "{\"a\":1,,}", 9), TOOLGOV_EUSAGE);
    ck_assert_str_eq(o.error, "expected a quoted key at byte 8");
}
END_TEST

/* ---- exargs_read through a real invocation --------------------------------
** The result buffer a handler fills belongs to the runtime, so the reader's
** usage messages are tested the way handlers meet them: a hand-built plugin
** with one tool, invoked through a run. */

static int probe_handler(const toolgov_call *call, const void *decoded,
                         toolgov_result *out)
{
    static const exargs_spec spec[] = {
        {"name", EXARGS_STRING, 1},
        {"count", EXARGS_INT, 0},
        {"ratio", EXARGS_NUMBER, 0},
        {"flag", EXARGS_BOOL, 0},
    };
    exargs_object args;
    int rc = exargs_read(&args, call, spec, 4, "{\"name\": text}", out);

    (void)decoded;
    if (rc)
        return rc;
    return toolgov_result_printf(out, "name=%s count=%ld flag=%d",
                                 exargs_str(&args, "name", "?"), exargs_int(&args, "count", -1),
                                 exargs_bool(&args, "flag", -1));
}

static const toolgov_tool_spec probe_tools[] = {
    {sizeof(toolgov_tool_spec), "probe", "A probe of the argument reader.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "",
     0, 0, 1, 1, NULL, "{}"},
};
static const char *const probe_provides[] = {"tool"};

static int probe_register(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "probe", "probe", probe_handler);
}

static const toolgov_plugin probe_plugin = {
    TOOLGOV_ABI_VERSION, "probe", "probe.yaml", probe_provides, 1, probe_tools, 1, probe_register};

static int invoke_probe(const char *args, char **out)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    toolgov_outcome oc;
    int rc;
    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &probe_plugin, NULL), 0);
    ck_assert_int_eq(toolgov_policy_new(&pol, reg), 0);
    ck_assert_int_eq(toolgov_run_new(&run, pol, NULL), 0);
    rc = toolgov_run_invoke(&oc, run, "probe", args);
    ck_assert_int_eq(oc.executed, rc != TOOLGOV_EARGS);
    *out = strdup(oc.output ? oc.output : "");
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    return rc;
}

START_TEST(read_accepts_valid)
{
    char *out;
    ck_assert_int_eq(invoke_probe("{\"name\":\"x\",\"count\":3,\"ratio\":0.5,\"flag\":true}", &out),
                     0);
    ck_assert_str_eq(out, "name=x count=3 flag=1");
    free(out);
    /* null for an optional key counts as absent */
    ck_assert_int_eq(invoke_probe("{\"name\":\"x\",\"count\":null}", &out), 0);
    ck_assert_str_eq(out, "name=x count=-1 flag=-1");
    free(out);
    /* a whole number written with an exponent is still whole */
    ck_assert_int_eq(invoke_probe("{\"name\":\"x\",\"count\":2e1}", &out), 0);
    ck_assert_str_eq(out, "name=x count=20 flag=-1");
    free(out);
}
END_TEST

static const struct {
    const char *args;
    const char *what;
} bad_args[] = {
    {"{}", "error: probe: missing required argument 'name'"},
    {"{\"name\":\"\"}", "error: probe: 'name' must not be empty"},
    /* blanks only are no more of a title or a query than nothing */
    {"{\"name\":\" \\t\\n \"}", "error: probe: 'name' must not be empty"},
    {"{\"name\":null}", "error: probe: missing required argument 'name'"},
    {"{\"name\":7}", "error: probe: 'name' must be a string, not a number"},
    {"{\"name\":\"x\",\"count\":1.5}", "error: probe: 'count' must be a whole number"},
    {"{\"name\":\"x\",\"count\":\"3\"}", "error: probe: 'count' must be a whole number"},
    {"{\"name\":\"x\",\"count\":3000000000}", "error: probe: 'count' must be a whole number"},
    {"{\"name\":\"x\",\"flag\":1}", "error: probe: 'flag' must be true or false, not a number"},
    {"{\"name\":\"x\",\"ratio\":true}", "error: probe: 'ratio' must be a number, not true or false"},
    {"{\"name\":\"x\",\"nmae\":\"y\"}", "error: probe: unknown argument 'nmae'"},
};

START_TEST(read_refuses_with_usage)
{
    char *out;
    char expected[256];
    ck_assert_int_eq(invoke_probe(bad_args[_i].args, &out), TOOLGOV_EUSAGE);
    snprintf(expected, sizeof expected, "%s\nusage: probe {\"name\": text}", bad_args[_i].what);
    ck_assert_str_eq(out, expected);
    free(out);
}
END_TEST

static Suite *exargs_suite(void)
{
    Suite *s = suite_create("exargs");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, parses_flat_object);
    tcase_add_test(tc, parses_empty_object);
    tcase_add_test(tc, decodes_escapes_and_utf8);
    tcase_add_loop_test(tc, refuses_malformed, 0, (int)(sizeof malformed / sizeof malformed[0]));
    tcase_add_test(tc, bounds_keys_and_length);
    tcase_add_test(tc, error_says_where);
    suite_add_tcase(s, tc);
    tc = tcase_create("read");
    tcase_add_test(tc, read_accepts_valid);
    tcase_add_loop_test(tc, read_refuses_with_usage, 0, (int)(sizeof bad_args / sizeof bad_args[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(exargs_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
