/* SPDX-License-Identifier: MIT */
/*
** test_decode.c: the argument decoder, one case per rule: types, exact
** integers, finite numbers, formats, enums, bounds, lengths in characters,
** items, nested objects, raw values with anyOf/oneOf, defaults, extra
** members, the refusal message (every problem, its JSON path, the cap) and
** the canonical text (schema order, extras sorted, defaults filled,
** decode -> canonical -> decode the identity).
*/
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_reminder.h"
#include "fixture_nodes.h"
#include "args_internal.h"

static toolgov_args_decoder *dec, *dec_p;
static const toolgov_allocator plain = {NULL, NULL};

static void setup(void)
{
    ck_assert_int_eq(toolgov_args_decoder_new(&dec, NULL), 0);
    ck_assert_int_eq(toolgov_args_decoder_new(&dec_p, NULL), 0);
}

static void teardown(void)
{
    toolgov_args_decoder_free(dec);
    toolgov_args_decoder_free(dec_p);
    dec = dec_p = NULL;
}

/* Decode text against schema s; returns the code, *out filled. Every case
** is also decoded with the defaults a mount makes (toolgov__args_prep, as
** a run decodes): the same code, message and canonical text. */
static int dec_s(toolgov_decoded_args *out, const toolgov_arg_schema *s, const char *text)
{
    size_t len = text ? strlen(text) : 0;
    int rc = toolgov_args_decode(out, dec, s, "t", text, len);
    toolgov__args_prep *prep;
    toolgov_decoded_args p;

    ck_assert_int_eq(toolgov__args_prep_new(&plain, s, &prep), 0);
    ck_assert_int_eq(toolgov__args_decode_prep(&p, dec_p, s, prep, "t", text, len), rc);
    ck_assert_str_eq(p.message, out->message);
    ck_assert_uint_eq(p.canonical_len, out->canonical_len);
    ck_assert_str_eq(p.canonical, out->canonical);
    toolgov__args_prep_free(&plain, prep);
    return rc;
}

/* Expect a refusal whose message is exactly `msg`. */
static void refused(const toolgov_arg_schema *s, const char *text, const char *msg)
{
    toolgov_decoded_args r;

    ck_assert_int_eq(dec_s(&r, s, text), TOOLGOV_EARGS);
    ck_assert_ptr_null(r.args);
    ck_assert_str_eq(r.message, msg);
    ck_assert_uint_eq(r.message_len, strlen(msg));
}

/* Expect success with canonical text `canon`, and that the canonical text
** decodes to itself (identity and idempotence). */
static const void *accepted(const toolgov_arg_schema *s, const char *text, const char *canon)
{
    toolgov_decoded_args r;
    char *copy;

    ck_assert_msg(dec_s(&r, s, text) == 0, "refused %s: %s", text, r.message);
    ck_assert_str_eq(r.canonical, canon);
    copy = strdup(r.canonical);
    ck_assert_int_eq(dec_s(&r, s, copy), 0);
    ck_assert_str_eq(r.canonical, canon);
    free(copy);
    ck_assert_int_eq(dec_s(&r, s, text), 0);
    return r.args;
}

START_TEST(reminder_decodes_into_the_struct)
{
    const reminder_args *a = accepted(
        &reminder_schema,
        "{ \"time\": \"09:30\", \"title\": \"Dentist\", \"tags\": [\"health\", \"x\"],"
        " \"date\": \"2026-03-12\" }",
        "{\"title\":\"Dentist\",\"date\":\"2026-03-12\",\"time\":\"09:30\","
        "\"priority\":\"normal\",\"minutes_before\":0,\"tags\":[\"health\",\"x\"]}");

    ck_assert_str_eq(a->title.ptr, "Dentist");
    ck_assert_uint_eq(a->title.len, 7);
    ck_assert_str_eq(a->date.ptr, "2026-03-12");
    ck_assert_int_eq(a->priority, REMINDER_PRIORITY_NORMAL);
    ck_assert_int_eq(a->minutes_before, 0);
    ck_assert(a->has.tags);
    ck_assert(!a->has.note);
    ck_assert_ptr_nonnull(a->note.ptr);
    ck_assert_uint_eq(a->note.len, 0);
    ck_assert_uint_eq(a->tags.count, 2);
    ck_assert_str_eq(a->tags.items[0].ptr, "health");
    ck_assert_str_eq(a->tags.items[1].ptr, "x");
}
END_TEST

/* OpenAI's strict mode sends every property, an optional one as null: null
** for an optional typed property reads as absent (a default then fills
** it), the struct and canonical text being those of the call without it;
** null for a required one is still refused. */
START_TEST(null_optional_reads_as_absent)
{
    const reminder_args *a = accepted(
        &reminder_schema,
        "{\"title\":\"Dentist\",\"date\":\"2026-03-12\",\"time\":\"09:30\",\"note\":null,"
        "\"priority\":null,\"minutes_before\":null,\"tags\":null}",
        "{\"title\":\"Dentist\",\"date\":\"2026-03-12\",\"time\":\"09:30\","
        "\"priority\":\"normal\",\"minutes_before\":0}");

    ck_assert(!a->has.note);
    ck_assert(!a->has.tags);
    ck_assert_ptr_nonnull(a->note.ptr);
    ck_assert_int_eq(a->priority, REMINDER_PRIORITY_NORMAL);
    refused(&reminder_schema,
            "{\"title\":null,\"date\":\"2026-03-12\",\"time\":\"09:30\"}",
            "t: /title must be a string, got null");
}
END_TEST

START_TEST(every_problem_with_its_path)
{
    refused(&reminder_schema, "{\"date\":\"12/03/2026\",\"time\":\"9:30\",\"priority\":\"urgent\","
                              "\"minutes_before\":2000,\"tags\":[\"a\",3],\"x\":1}",
            "t: /title is required; /date must be a date (YYYY-MM-DD), got \"12/03/2026\"; "
            "/time must be a time (HH:MM or HH:MM:SS, optional fraction and offset), got "
            "\"9:30\"; /priority must be one of \"low\", \"normal\", \"high\", got \"urgent\"; "
            "/minutes_before must be at most 1440, got 2000; /tags/1 must be a string, got 3; "
            "/x is not allowed (allowed: title, date, time, note, priority, minutes_before, tags)");
}
END_TEST

START_TEST(message_is_capped)
{
    refused(&reminder_schema, "{\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1,\"f\":1}",
            "t: /title is required; /date is required; /time is required; "
            "/a is not allowed (allowed: title, date, time, note, priority, minutes_before, tags); "
            "/b is not allowed (allowed: title, date, time, note, priority, minutes_before, tags); "
            "/c is not allowed (allowed: title, date, time, note, priority, minutes_before, tags); "
            "/d is not allowed (allowed: title, date, time, note, priority, minutes_before, tags); "
            "/e is not allowed (allowed: title, date, time, note, priority, minutes_before, tags); "
            "and 1 more problem");
}
END_TEST

START_TEST(lengths_count_characters)
{
    /* 200 characters of two bytes each are allowed, 201 are not. */
    char text[1024];
    toolgov_decoded_args r;
    size_t o;
    int i;

    o = (size_t)snprintf(text, sizeof text, "{\"date\":\"2026-01-01\",\"time\":\"10:00\",\"title\":\"");
    for (i = 0; i < 200; i++) {
        text[o++] = (char)0xC3;
        text[o++] = (char)0xA9;
    }
    memcpy(text + o, "\"}", 3);
    ck_assert_int_eq(dec_s(&r, &reminder_schema, text), 0);
    ck_assert_uint_eq(((const reminder_args *)r.args)->title.len, 400);
    memcpy(text + o, "\xC3\xA9\"}", 5);
    ck_assert_int_eq(dec_s(&r, &reminder_schema, text), TOOLGOV_EARGS);
    ck_assert_str_eq(r.message, "t: /title must be at most 200 characters long, got 201");
    refused(&reminder_schema, "{\"title\":\"\",\"date\":\"2026-01-01\",\"time\":\"10:00\"}",
            "t: /title must be at least 1 character long, got 0");
}
END_TEST

START_TEST(not_json_is_refused_with_the_reason)
{
    refused(&reminder_schema, "{\"title\": \"a\",}",
            "t: the arguments are not valid JSON: expected a member name in double quotes at byte 14");
    refused(&reminder_schema, "{\"title\":\"a\",\"title\":\"b\"}",
            "t: the arguments are not valid JSON: duplicate key \"title\" at byte 13");
    refused(&reminder_schema, "[1]", "t: the arguments must be a JSON object, got an array");
    refused(&reminder_schema, "{\"title\":\"\xFF\"}",
            "t: the arguments are not valid JSON: invalid UTF-8 in a string at byte 10");
}
END_TEST

/* A call past a bound is told the bound, so it can be made to fit. */
START_TEST(bounds_are_named_in_the_refusal)
{
    char deep[2 * (TOOLGOV_ARGS_MAX_NESTING + 1) + 16], *big;
    char want[160];
    size_t i, n = 0;

    n += (size_t)sprintf(deep, "{\"title\":");
    for (i = 1; i < TOOLGOV_ARGS_MAX_NESTING; i++)
        deep[n++] = '[';
    deep[n] = '\0';
    /* TOOLGOV_ARGS_MAX_NESTING containers in all (the object is one) read. */
    refused(&reminder_schema, deep,
            "t: the arguments are not valid JSON: unexpected end of text (expected a value) "
            "at byte 40");
    deep[n++] = '[';
    deep[n] = '\0';
    snprintf(want, sizeof want,
             "t: the arguments are not valid JSON: nested deeper than the limit of %d levels "
             "of objects and arrays at byte %zu",
             TOOLGOV_ARGS_MAX_NESTING, n - 1);
    refused(&reminder_schema, deep, want);
    big = malloc(TOOLGOV_ARGS_MAX_LEN + 2);
    ck_assert_ptr_nonnull(big);
    memset(big, ' ', TOOLGOV_ARGS_MAX_LEN + 1);
    big[0] = '{';
    big[TOOLGOV_ARGS_MAX_LEN] = '}';
    big[TOOLGOV_ARGS_MAX_LEN + 1] = '\0';
    snprintf(want, sizeof want,
             "t: the arguments are not valid JSON: text is longer than the limit of %zu bytes "
             "at byte 0",
             (size_t)TOOLGOV_ARGS_MAX_LEN);
    refused(&reminder_schema, big, want);
    big[TOOLGOV_ARGS_MAX_LEN - 1] = '}';
    big[TOOLGOV_ARGS_MAX_LEN] = '\0';
    refused(&reminder_schema, big, "t: /title is required; /date is required; /time is required");
    free(big);
}
END_TEST

START_TEST(no_parameters)
{
    toolgov_decoded_args r;

    ck_assert_int_eq(dec_s(&r, NULL, NULL), 0);
    ck_assert_str_eq(r.canonical, "{}");
    ck_assert_ptr_nonnull(r.args);
    ck_assert_int_eq(dec_s(&r, NULL, ""), 0);
    ck_assert_int_eq(dec_s(&r, NULL, " \n"), 0);
    ck_assert_int_eq(dec_s(&r, NULL, "{ }"), 0);
    ck_assert_int_eq(dec_s(&r, NULL, "\"\""), 0);
    ck_assert_str_eq(r.canonical, "{}");
    refused(NULL, "{\"a\":1}", "t: /a is not allowed (the tool takes no arguments)");
    refused(NULL, "{\"b\":{\"c\":2},\"a\":[]}",
            "t: /a is not allowed (the tool takes no arguments); "
            "/b is not allowed (the tool takes no arguments)");
    refused(NULL, "[]", "t: the arguments must be {} (the tool takes no arguments), got an array");
    refused(NULL, "3", "t: the arguments must be {} (the tool takes no arguments), got 3");
}
END_TEST

START_TEST(integers_exact_in_int64)
{
    const nodes_args *a;

    a = accepted(&nodes_schema, "{\"i\":2.0}", "{\"i\":2}");
    ck_assert_int_eq(a->i, 2);
    a = accepted(&nodes_schema, "{\"i\":-1e1}", "{\"i\":-10}");
    ck_assert_int_eq(a->i, -10);
    refused(&nodes_schema, "{\"i\":2.5}", "t: /i must be an integer, got 2.5");
    refused(&nodes_schema, "{\"i\":1e400}", "t: /i must be an integer within the 64-bit range, got 1e400");
    refused(&nodes_schema, "{\"i\":\"2\"}", "t: /i must be an integer, got \"2\"");
    refused(&nodes_schema, "{\"i\":-11}", "t: /i must be greater than -11, got -11");
    refused(&nodes_schema, "{\"i\":100}", "t: /i must be less than 100, got 100");
    a = accepted(&nodes_schema, "{\"i\":99}", "{\"i\":99}");
    ck_assert_int_eq(a->i, 99);
}
END_TEST

START_TEST(numbers_finite_and_shortest)
{
    const nodes_args *a;

    a = accepted(&nodes_schema, "{\"n\":0.10}", "{\"n\":0.1}");
    ck_assert(a->n == 0.1);
    ck_assert(a->has.n);
    a = accepted(&nodes_schema, "{\"n\":1E2}", "{\"n\":100}");
    ck_assert(a->n == 100.0);
    /* Integer texts: up to 15 digits copied as sent (the double's own
    ** spelling), longer ones through the printer; -0 keeps its sign. */
    a = accepted(&nodes_schema, "{\"n\":74}", "{\"n\":74}");
    ck_assert(a->n == 74.0);
    a = accepted(&nodes_schema, "{\"n\":-0}", "{\"n\":-0}");
    ck_assert(a->n == 0.0 && signbit(a->n));
    a = accepted(&nodes_schema, "{\"n\":999999999999999}", "{\"n\":999999999999999}");
    ck_assert(a->n == 999999999999999.0);
    a = accepted(&nodes_schema, "{\"n\":1234567890123456789}", "{\"n\":1234567890123456800}");
    a = accepted(&nodes_schema, "{\"n\":100000000000000000000000}", "{\"n\":1e+23}");
    ck_assert(a->n == 1e23);
    refused(&nodes_schema, "{\"n\":1e400}",
            "t: /n must be a finite number (this one is beyond the double range), got 1e400");
    refused(&nodes_schema, "{\"n\":-0.6}", "t: /n must be at least -0.5, got -0.6");
    refused(&nodes_schema, "{\"n\":true}", "t: /n must be a number, got true");
}
END_TEST

/* Strings sent with escapes and without, long and short, as values and as
** keys, typed and extra: each in its one canonical spelling (only the
** escapes JSON requires; a text without escapes is copied as sent). */
START_TEST(strings_canonical_with_and_without_escapes)
{
    const nodes_args *a;

    a = accepted(&nodes_schema,
                 "{\"where\":{\"city\":\"Z\\u00fcrich \\\"old town\\\" \\/ 0123456789\"}}",
                 "{\"where\":{\"city\":\"Z\xc3\xbcrich \\\"old town\\\" / 0123456789\","
                 "\"zip\":\"0001\"}}");
    ck_assert_str_eq(a->where.city.ptr, "Z\xc3\xbcrich \"old town\" / 0123456789");
    accepted(&nodes_schema,
             "{\"x\\u0001y\":\"tab\\there 0123456789abcdefghij\","
             "\"plain key\":\"0123456789abcdefghij\\n\",\"k\":\"Z\xc3\xbcrich, no escape at all\"}",
             "{\"k\":\"Z\xc3\xbcrich, no escape at all\",\"plain key\":\"0123456789abcdefghij\\n\","
             "\"x\\u0001y\":\"tab\\there 0123456789abcdefghij\"}");
    /* A declared name sent escaped is written in its canonical form. */
    a = accepted(&nodes_schema, "{\"\\u0077here\":{\"city\":\"Oslo\"}}",
                 "{\"where\":{\"city\":\"Oslo\",\"zip\":\"0001\"}}");
    ck_assert_str_eq(a->where.city.ptr, "Oslo");
}
END_TEST

START_TEST(booleans_and_integer_enums)
{
    const nodes_args *a;

    a = accepted(&nodes_schema, "{\"b\":true,\"level\":3}", "{\"b\":true,\"level\":3}");
    ck_assert(a->b);
    ck_assert_int_eq(a->level, 3);
    refused(&nodes_schema, "{\"b\":1}", "t: /b must be a boolean (true or false), got 1");
    refused(&nodes_schema, "{\"level\":2}", "t: /level must be one of 1, 3, 5, got 2");
}
END_TEST

START_TEST(formats)
{
    static const struct { const char *text; int ok; } cases[] = {
        {"{\"day\":\"2024-02-29\"}", 1}, {"{\"day\":\"2023-02-29\"}", 0},
        {"{\"day\":\"2026-13-01\"}", 0}, {"{\"day\":\"2026-1-01\"}", 0},
        {"{\"at\":\"09:30\"}", 1}, {"{\"at\":\"09:30:15\"}", 1},
        {"{\"at\":\"09:30:15.250Z\"}", 1}, {"{\"at\":\"23:59:60+02:00\"}", 1},
        {"{\"at\":\"24:00\"}", 0}, {"{\"at\":\"09:30.5\"}", 0}, {"{\"at\":\"9:30\"}", 0},
        {"{\"at\":\"09:30+2\"}", 0},
        {"{\"when\":\"2026-03-12T09:30:00Z\"}", 1}, {"{\"when\":\"2026-03-12t09:30:00.1-05:00\"}", 1},
        {"{\"when\":\"2026-03-12T09:30Z\"}", 0}, {"{\"when\":\"2026-03-12T09:30:00\"}", 0},
        {"{\"when\":\"2026-03-12 09:30:00Z\"}", 0},
        {"{\"mail\":\"a.b+c@example.com\"}", 1}, {"{\"mail\":\"\\\"a b\\\"@x.org\"}", 1},
        {"{\"mail\":\"a@[127.0.0.1]\"}", 1}, {"{\"mail\":\"a..b@x.org\"}", 0},
        {"{\"mail\":\"@x.org\"}", 0}, {"{\"mail\":\"a@-x.org\"}", 0}, {"{\"mail\":\"a@x\"}", 1},
        {"{\"mail\":\"a b@x.org\"}", 0},
        {"{\"link\":\"https://example.com/a?b=c#d\"}", 1}, {"{\"link\":\"mailto:a@b.c\"}", 1},
        {"{\"link\":\"urn:isbn:0451450523\"}", 1}, {"{\"link\":\"/relative/path\"}", 0},
        {"{\"link\":\"https://exa mple.com\"}", 0}, {"{\"link\":\"http://x/%zz\"}", 0},
        {"{\"link\":\"1http://x\"}", 0},
        /* The parts of RFC 3986: brackets only around an IP literal, one
        ** fragment, a port of digits. */
        {"{\"link\":\"http://[::1\"}", 0}, {"{\"link\":\"http://[zz]/\"}", 0},
        {"{\"link\":\"http://a#b#c\"}", 0}, {"{\"link\":\"http://a/b[c]\"}", 0},
        {"{\"link\":\"http://a:b:c:d/\"}", 0}, {"{\"link\":\"http://[1:::2]/\"}", 0},
        {"{\"link\":\"http://[1:2:3:4:5:6:7:8:9]/\"}", 0},
        {"{\"link\":\"http://[::1]:8080/x\"}", 1}, {"{\"link\":\"http://[v1.fe]/\"}", 1},
        {"{\"link\":\"http://[::ffff:1.2.3.4]/\"}", 1},
        {"{\"link\":\"http://u:p@h.com:80/p?q=1/2?#f?/\"}", 1},
        {"{\"link\":\"file:///etc/hosts\"}", 1}, {"{\"link\":\"tel:+1-816-555-1212\"}", 1},
        /* RFC 5321's address literals. */
        {"{\"mail\":\"x@[ ]\"}", 0}, {"{\"mail\":\"x@[a]b]\"}", 0},
        {"{\"mail\":\"x@[1.2.3]\"}", 0}, {"{\"mail\":\"x@[IPv6:zz]\"}", 0},
        {"{\"mail\":\"x@[IPv6:::1]\"}", 1}, {"{\"mail\":\"x@[tag:stuff]\"}", 1},
        /* Issue 29 item 3: RFC 5321's quoted-pair is a backslash and a
        ** printable ASCII character; no control byte passes, escaped or not,
        ** and no checked format takes a control character at all. */
        {"{\"mail\":\"\\\"a\\\\\\\"b\\\\ c\\\"@x.org\"}", 1},
        {"{\"mail\":\"\\\"a\\\\\\r\\nBcc: x@evil.org\\\"@x.org\"}", 0},
        {"{\"mail\":\"\\\"a\\\\\\n\\\"@x.org\"}", 0},
        {"{\"mail\":\"\\\"a\\\\\\u0000\\\"@x.org\"}", 0},
        {"{\"mail\":\"\\\"a\\\\\\u007f\\\"@x.org\"}", 0},
        {"{\"mail\":\"\\\"a\\\\\\u0085\\\"@x.org\"}", 0},
        {"{\"mail\":\"\\\"a\\\\\\t\\\"@x.org\"}", 0},
        {"{\"mail\":\"\\\"a\\u00e9\\\"@x.org\"}", 0},
        {"{\"mail\":\"\\\"a\\\\\\u00e9\\\"@x.org\"}", 0},
        {"{\"mail\":\"\\\"a\\tb\\\"@x.org\"}", 0},
        {"{\"mail\":\"a@[tag:a\\u0000b]\"}", 0},
        {"{\"link\":\"http://x/a\\u0000b\"}", 0}, {"{\"link\":\"http://x/\\r\\n\"}", 0},
        {"{\"link\":\"http://x/\\u0085\"}", 0},
        {"{\"day\":\"2026-03-12\\u0000\"}", 0}, {"{\"at\":\"09:30\\n\"}", 0},
        {"{\"when\":\"2026-03-12T09:30:00Z\\u0000\"}", 0},
    };
    size_t k;

    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        toolgov_decoded_args r;
        int rc = dec_s(&r, &nodes_schema, cases[k].text);

        ck_assert_msg((rc == 0) == cases[k].ok, "%s: %d %s", cases[k].text, rc, r.message);
    }
    refused(&nodes_schema, "{\"when\":\"tomorrow\"}",
            "t: /when must be a date-time (RFC 3339, e.g. 2026-03-12T09:30:00Z), got \"tomorrow\"");
}
END_TEST

/* Issue 29 item 11: a raw value's refusal names the bound as the schema
** wrote it. {type: [number, "null"], exclusiveMaximum: 1,
** exclusiveMinimum: 0} is what toolgov-gen emits below (the integer bounds
** 1 and 0 decide exact integers); 1 is "less than 1", not "at most 0". */
START_TEST(raw_bounds_named_as_written)
{
    typedef struct { toolgov_str r; struct { bool r; } has; } ratio_args;
    static const toolgov_arg_schema ratio = NODES_LEAF(
        TOOLGOV_ARG_RAW, TOOLGOV_ARG_F_HAS_MIN | TOOLGOV_ARG_F_HAS_MAX | TOOLGOV_ARG_F_EXCL_MIN |
                             TOOLGOV_ARG_F_EXCL_MAX | TOOLGOV_ARG_F_INT_MIN | TOOLGOV_ARG_F_INT_MAX,
        0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 1, 0, 0.0, 1.0,
        TOOLGOV_JSON_NUMBER | TOOLGOV_JSON_NULL);
    static const toolgov_arg_field fields[] = {
        {"r", 1, &ratio, offsetof(ratio_args, r), offsetof(ratio_args, has.r), 0, NULL}};
    static const toolgov_arg_schema root = {
        TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
        NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, fields, 1, sizeof(ratio_args),
        0u, NULL, 0};

    refused(&root, "{\"r\":1}", "t: /r must be less than 1, got 1");
    refused(&root, "{\"r\":0}", "t: /r must be greater than 0, got 0");
    refused(&root, "{\"r\":7}", "t: /r must be less than 1, got 7");
    refused(&root, "{\"r\":-3}", "t: /r must be greater than 0, got -3");
    refused(&root, "{\"r\":1.0}", "t: /r must be less than 1, got 1.0");
    refused(&root, "{\"r\":1.5}", "t: /r must be less than 1, got 1.5");
    accepted(&root, "{\"r\":0.5}", "{\"r\":0.5}");
    accepted(&root, "{\"r\":null}", "{\"r\":null}");
}
END_TEST

/* Issue 29 item 5: a decoded string carries no NUL unless its node opts in,
** so a handler reading .ptr as C text sees the whole value ("\u0000zzz"
** would read as "" and match everything). */
START_TEST(strings_carry_no_nul)
{
    typedef struct { toolgov_str s; } blob_args;
    static const toolgov_arg_schema blob = NODES_LEAF(
        TOOLGOV_ARG_STRING, TOOLGOV_ARG_F_ALLOW_NUL, 0, TOOLGOV_ARG_UNBOUNDED,
        TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0, 0u);
    static const toolgov_arg_field fields[] = {
        {"s", 1, &blob, offsetof(blob_args, s), TOOLGOV_ARG_NO_HAS, 1, NULL}};
    static const toolgov_arg_schema root = {
        TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
        NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, fields, 1, sizeof(blob_args),
        0u, NULL, 0};
    const blob_args *b;

    refused(&reminder_schema,
            "{\"title\":\"\\u0000zzz\",\"date\":\"2026-12-02\",\"time\":\"08:30\"}",
            "t: /title must not contain a NUL character (\\u0000)");
    refused(&reminder_schema,
            "{\"title\":\"spam\\u0000\",\"date\":\"2026-12-02\",\"time\":\"08:30\","
            "\"tags\":[\"a\",\"b\\u0000\"]}",
            "t: /title must not contain a NUL character (\\u0000); /tags/1 must not contain "
            "a NUL character (\\u0000)");
    /* Opted in: kept, and len is the end. */
    b = accepted(&root, "{\"s\":\"a\\u0000b\"}", "{\"s\":\"a\\u0000b\"}");
    ck_assert_uint_eq(b->s.len, 3);
    ck_assert_int_eq(b->s.ptr[1], '\0');
    /* Raw values are JSON text, where a NUL stays escaped. */
    accepted(&nodes_schema, "{\"any\":\"x\\u0000\"}", "{\"any\":\"x\\u0000\"}");
}
END_TEST

START_TEST(nested_objects_and_arrays_of_objects)
{
    const nodes_args *a = accepted(
        &nodes_schema,
        "{\"people\":[{\"name\":\"Ann\",\"age\":40},{\"name\":\"Bo\"}],\"where\":{\"city\":\"Oslo\"}}",
        "{\"people\":[{\"name\":\"Ann\",\"age\":40},{\"name\":\"Bo\"}],"
        "\"where\":{\"city\":\"Oslo\",\"zip\":\"0001\"}}");

    ck_assert_uint_eq(a->people.count, 2);
    ck_assert_str_eq(a->people.items[0].name.ptr, "Ann");
    ck_assert(a->people.items[0].has.age);
    ck_assert_int_eq(a->people.items[0].age, 40);
    ck_assert(!a->people.items[1].has.age);
    ck_assert_str_eq(a->where.city.ptr, "Oslo");
    ck_assert_str_eq(a->where.zip.ptr, "0001");
    refused(&nodes_schema, "{\"people\":[{\"age\":-1}],\"where\":{\"city\":3,\"a/b~\":1}}",
            "t: /people/0/name is required; /people/0/age must be at least 0, got -1; "
            "/where/city must be a string, got 3; /where/a~1b~0 is not allowed (allowed: city, zip)");
    refused(&nodes_schema, "{\"people\":[]}", "t: /people must have at least 1 item, got 0");
}
END_TEST

START_TEST(extra_members_sorted_and_kept)
{
    accepted(&nodes_schema, "{\"zz\":{\"b\":1.50,\"a\":[true,null]},\"i\":5,\"aa\":\"x\"}",
             "{\"i\":5,\"aa\":\"x\",\"zz\":{\"a\":[true,null],\"b\":1.50}}");
}
END_TEST

START_TEST(raw_values)
{
    const nodes_args *a;

    /* anyOf [string with format date, integer]: the text, canonical. */
    a = accepted(&nodes_schema, "{\"due\":\"2026-01-02\"}", "{\"due\":\"2026-01-02\"}");
    ck_assert_str_eq(a->due.ptr, "\"2026-01-02\"");
    a = accepted(&nodes_schema, "{\"due\":7}", "{\"due\":7}");
    ck_assert_str_eq(a->due.ptr, "7");
    refused(&nodes_schema, "{\"due\":\"soon\"}",
            "t: /due must match at least one of its anyOf schemas, got \"soon\"");
    /* type list [string, null] with maxLength */
    accepted(&nodes_schema, "{\"maybe\":null}", "{\"maybe\":null}");
    refused(&nodes_schema, "{\"maybe\":5}", "t: /maybe must be a string or null, got 5");
    refused(&nodes_schema, "{\"maybe\":\"abcd\"}", "t: /maybe must be at most 3 characters long, got 4");
    /* untyped: anything, kept with sorted keys and number texts as sent */
    a = accepted(&nodes_schema, "{\"any\": {\"b\": 1.0e0, \"a\": [ 2 , \"\\u00e9\" ]}}",
                 "{\"any\":{\"a\":[2,\"\xC3\xA9\"],\"b\":1.0e0}}");
    ck_assert_str_eq(a->any.ptr, "{\"a\":[2,\"\xC3\xA9\"],\"b\":1.0e0}");
    /* oneOf [integer, number >= 10]: 5 matches one, 12 matches both */
    accepted(&nodes_schema, "{\"one\":5}", "{\"one\":5}");
    accepted(&nodes_schema, "{\"one\":10.5}", "{\"one\":10.5}");
    refused(&nodes_schema, "{\"one\":12}",
            "t: /one must match exactly one of its oneOf schemas, matched 2");
}
END_TEST

START_TEST(decoder_reuses_its_memory)
{
    toolgov_decoded_args r;
    const char *text = "{\"title\":\"Dentist\",\"date\":\"2026-03-12\",\"time\":\"09:30\"}";
    const char *first;
    int k;

    ck_assert_int_eq(dec_s(&r, &reminder_schema, text), 0);
    ck_assert_int_eq(dec_s(&r, &reminder_schema, text), 0);
    first = r.canonical;
    for (k = 0; k < 50; k++) {
        ck_assert_int_eq(dec_s(&r, &reminder_schema, text), 0);
        ck_assert_ptr_eq(r.canonical, first);
    }
}
END_TEST

START_TEST(builtins_have_parameters_in_code)
{
    static const char *const names[] = {
        "memory_search", "ask_user", "memory_correct", "memory_forget", "memory_restore",
        "record_feedback", "promote_recommendation", "propose_skill_from_sandbox",
        "invoke_pending_action"};
    toolgov_registry *reg;
    const toolgov_tool_spec *spec;
    const toolgov_core_ask_user_args *ask;
    toolgov_decoded_args r;
    size_t i;

    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        spec = toolgov_registry_find(reg, names[i]);
        ck_assert_ptr_nonnull(spec);
        ck_assert_uint_eq(spec->size, sizeof(toolgov_tool_spec));
        ck_assert_ptr_nonnull(spec->params);
        ck_assert_int_eq(spec->params->kind, TOOLGOV_ARG_OBJECT);
        ck_assert_ptr_nonnull(strstr(spec->schema_json, spec->params->fields[0].name));
        ck_assert_int_eq(dec_s(&r, spec->params, "{}"), TOOLGOV_EARGS);
        ck_assert_ptr_nonnull(strstr(r.message, " is required"));
    }
    spec = toolgov_registry_find(reg, "ask_user");
    ck_assert_str_eq(spec->schema_json,
                     "{\"type\":\"object\",\"properties\":{\"question\":{\"type\":\"string\","
                     "\"minLength\":1,\"maxLength\":2000}},\"required\":[\"question\"],"
                     "\"additionalProperties\":false}");
    ck_assert_int_eq(dec_s(&r, spec->params, "{ \"question\" : \"Ready?\" }"), 0);
    ask = r.args;
    ck_assert_str_eq(ask->question.ptr, "Ready?");
    ck_assert_str_eq(r.canonical, "{\"question\":\"Ready?\"}");
    refused(spec->params, "{\"question\":\"\",\"x\":1}",
            "t: /question must be at least 1 character long, got 0; "
            "/x is not allowed (allowed: question)");
    spec = toolgov_registry_find(reg, "memory_correct");
    ck_assert_int_eq(dec_s(&r, spec->params, "{\"correction\":\"b\",\"memory_id\":\"m1\"}"), 0);
    ck_assert_str_eq(r.canonical, "{\"memory_id\":\"m1\",\"correction\":\"b\"}");
    toolgov_registry_free(reg);
}
END_TEST

/* Defaults the decoder reads without the reader (true, false, null, [],
** {}, a short integer, a string with no escape) decode like the same text
** given in the call (value, canonical text), one that does not fit its
** schema is the same refusal, and a text outside those shapes (a leading
** zero, an escape) still goes through the reader. */
typedef struct lit_args {
    bool flag, off;
    toolgov_str any, name;
    toolgov_str list, obj, word, empty;
    int64_t n, neg;
} lit_args;

static const toolgov_arg_schema lit_bool =
    NODES_LEAF(TOOLGOV_ARG_BOOLEAN, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0,
               0.0, 0u);
static const toolgov_arg_schema lit_int =
    NODES_LEAF(TOOLGOV_ARG_INTEGER, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0,
               0.0, 0u);
static const toolgov_arg_field lit_fields[] = {
    {"flag", 4, &lit_bool, offsetof(lit_args, flag), TOOLGOV_ARG_NO_HAS, 0, "true"},
    {"off", 3, &lit_bool, offsetof(lit_args, off), TOOLGOV_ARG_NO_HAS, 0, "false"},
    {"any", 3, &nodes_any, offsetof(lit_args, any), TOOLGOV_ARG_NO_HAS, 0, "null"},
    {"list", 4, &nodes_any, offsetof(lit_args, list), TOOLGOV_ARG_NO_HAS, 0, "[]"},
    {"obj", 3, &nodes_any, offsetof(lit_args, obj), TOOLGOV_ARG_NO_HAS, 0, "{}"},
    {"word", 4, &nodes_str, offsetof(lit_args, word), TOOLGOV_ARG_NO_HAS, 0, "\"basic ~\""},
    {"empty", 5, &nodes_str, offsetof(lit_args, empty), TOOLGOV_ARG_NO_HAS, 0, "\"\""},
    {"n", 1, &lit_int, offsetof(lit_args, n), TOOLGOV_ARG_NO_HAS, 0, "5"},
    {"neg", 3, &lit_int, offsetof(lit_args, neg), TOOLGOV_ARG_NO_HAS, 0, "-120"},
};
static const toolgov_arg_schema lit_root = {
    TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, lit_fields, 9, sizeof(lit_args),
    0u, NULL, 0};
static const toolgov_arg_field lit_bad_fields[] = {
    {"name", 4, &nodes_str, offsetof(lit_args, name), TOOLGOV_ARG_NO_HAS, 0, "false"},
    {"n", 1, &lit_int, offsetof(lit_args, n), TOOLGOV_ARG_NO_HAS, 0, "\"5\""},
};
static const toolgov_arg_schema lit_bad_root = {
    TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, lit_bad_fields, 2, sizeof(lit_args),
    0u, NULL, 0};
/* Shapes left to the reader: a leading zero (not JSON), an escape. */
static const toolgov_arg_field lit_reader_fields[] = {
    {"word", 4, &nodes_str, offsetof(lit_args, word), TOOLGOV_ARG_NO_HAS, 0, "\"a\\nb\""},
    {"n", 1, &lit_int, offsetof(lit_args, n), TOOLGOV_ARG_NO_HAS, 0, "05"},
};
static const toolgov_arg_schema lit_reader_root = {
    TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, lit_reader_fields, 2,
    sizeof(lit_args), 0u, NULL, 0};

static void lit_values_are_the_defaults(const lit_args *a)
{
    ck_assert(a->flag);
    ck_assert(!a->off);
    ck_assert_str_eq(a->any.ptr, "null");
    ck_assert_str_eq(a->list.ptr, "[]");
    ck_assert_str_eq(a->obj.ptr, "{}");
    ck_assert_str_eq(a->word.ptr, "basic ~");
    ck_assert_uint_eq(a->word.len, 7);
    ck_assert_str_eq(a->empty.ptr, "");
    ck_assert_uint_eq(a->empty.len, 0);
    ck_assert_int_eq(a->n, 5);
    ck_assert_int_eq(a->neg, -120);
}

START_TEST(literal_defaults_decode_like_given_values)
{
    static const char *const canon = "{\"flag\":true,\"off\":false,\"any\":null,\"list\":[],"
                                     "\"obj\":{},\"word\":\"basic ~\",\"empty\":\"\",\"n\":5,"
                                     "\"neg\":-120}";
    const lit_args *a = accepted(&lit_root, "{}", canon);
    const lit_args *b;
    toolgov_decoded_args r;
    size_t k;

    for (k = 0; k < 2; k++) {
        lit_values_are_the_defaults(a);
        /* The same values given in the call. */
        b = accepted(&lit_root, canon, canon);
        a = b;
    }
    refused(&lit_bad_root, "{}",
            "t: /name must be a string, got false; /n must be an integer, got \"5\"");
    ck_assert_int_eq(dec_s(&r, &lit_reader_root, "{}"), TOOLGOV_EINVAL);
    ck_assert_str_eq(r.message,
                     "the argument schema cannot be used: a field's default_json is not valid "
                     "JSON");
    b = accepted(&lit_reader_root, "{\"n\":1}", "{\"word\":\"a\\nb\",\"n\":1}");
    ck_assert_str_eq(b->word.ptr, "a\nb");
}
END_TEST

/* The defaults a mount makes once (toolgov__args_prep) fill the struct as
** the walk does: the same values, strings NUL-terminated; a default that is
** not valid is still judged at each call (dec_s compares every case). */
START_TEST(defaults_made_once_fill_like_the_walk)
{
    toolgov__args_prep *prep;
    toolgov_decoded_args r;
    const lit_args *a;
    int k;

    ck_assert_int_eq(toolgov__args_prep_new(&plain, &lit_root, &prep), 0);
    ck_assert_ptr_nonnull(prep);
    for (k = 0; k < 2; k++) {
        ck_assert_int_eq(toolgov__args_decode_prep(&r, dec_p, &lit_root, prep, "t", "{}", 2), 0);
        a = r.args;
        lit_values_are_the_defaults(a);
        ck_assert_str_eq(r.canonical,
                         "{\"flag\":true,\"off\":false,\"any\":null,\"list\":[],\"obj\":{},"
                         "\"word\":\"basic ~\",\"empty\":\"\",\"n\":5,\"neg\":-120}");
    }
    toolgov__args_prep_free(&plain, prep);
    /* No default valid against its schema: nothing is made. */
    ck_assert_int_eq(toolgov__args_prep_new(&plain, &lit_bad_root, &prep), 0);
    ck_assert_ptr_null(prep);
    refused(&lit_bad_root, "{}",
            "t: /name must be a string, got false; /n must be an integer, got \"5\"");
    /* One valid (an escape, read by the reader), one not JSON. */
    ck_assert_int_eq(toolgov__args_prep_new(&plain, &lit_reader_root, &prep), 0);
    ck_assert_ptr_nonnull(prep);
    ck_assert_int_eq(toolgov__args_decode_prep(&r, dec_p, &lit_reader_root, prep, "t", "{}", 2),
                     TOOLGOV_EINVAL);
    ck_assert_int_eq(toolgov__args_decode_prep(&r, dec_p, &lit_reader_root, prep, "t",
                                               "{\"n\":1}", 7), 0);
    ck_assert_str_eq(((const lit_args *)r.args)->word.ptr, "a\nb");
    ck_assert_str_eq(r.canonical, "{\"word\":\"a\\nb\",\"n\":1}");
    toolgov__args_prep_free(&plain, prep);
}
END_TEST

START_TEST(bad_schemas_are_refused_not_walked)
{
    static const toolgov_arg_schema not_object = {
        TOOLGOV_ARG_STRING, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
        0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED,
        NULL, 0, 0, 0u, NULL, 0
    };
    toolgov_decoded_args r;

    ck_assert_int_eq(dec_s(&r, &not_object, "{}"), TOOLGOV_EINVAL);
    ck_assert_str_eq(r.message, "the argument schema cannot be used: the root node is not an OBJECT");
    ck_assert_int_eq(toolgov_args_decode(&r, NULL, NULL, "t", "{}", 2), TOOLGOV_EINVAL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("decode");
    TCase *tc = tcase_create("decode");
    SRunner *sr;
    int failed;

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, reminder_decodes_into_the_struct);
    tcase_add_test(tc, null_optional_reads_as_absent);
    tcase_add_test(tc, every_problem_with_its_path);
    tcase_add_test(tc, message_is_capped);
    tcase_add_test(tc, lengths_count_characters);
    tcase_add_test(tc, not_json_is_refused_with_the_reason);
    tcase_add_test(tc, bounds_are_named_in_the_refusal);
    tcase_add_test(tc, no_parameters);
    tcase_add_test(tc, integers_exact_in_int64);
    tcase_add_test(tc, numbers_finite_and_shortest);
    tcase_add_test(tc, strings_canonical_with_and_without_escapes);
    tcase_add_test(tc, booleans_and_integer_enums);
    tcase_add_test(tc, formats);
    tcase_add_test(tc, nested_objects_and_arrays_of_objects);
    tcase_add_test(tc, extra_members_sorted_and_kept);
    tcase_add_test(tc, raw_values);
    tcase_add_test(tc, decoder_reuses_its_memory);
    tcase_add_test(tc, builtins_have_parameters_in_code);
    tcase_add_test(tc, bad_schemas_are_refused_not_walked);
    tcase_add_test(tc, raw_bounds_named_as_written);
    tcase_add_test(tc, strings_carry_no_nul);
    tcase_add_test(tc, literal_defaults_decode_like_given_values);
    tcase_add_test(tc, defaults_made_once_fill_like_the_walk);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
