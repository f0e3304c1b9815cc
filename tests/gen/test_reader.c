/* SPDX-License-Identifier: MIT */
/*
** test_reader.c: the YAML event reader that the manifest walk and the
** parameters walk are written against: marks, the walk convention (a
** sub-walker starts on its node's first event and ends on its last), key by
** key reading, scalars, booleans, skipping, and errors at marks.
*/
#include "gen_test_util.h"

#include "base/reader.h"

typedef struct walk {
    toolgov__reader r;
    char log[1024];
    size_t n;
} walk;

static void logf_(walk *w, const char *s, toolgov__mark at)
{
    int k = snprintf(w->log + w->n, sizeof w->log - w->n, "%s@%u:%u ", s, at.line, at.col);
    ck_assert_int_gt(k, 0);
    w->n += (size_t)k;
}

/* A sub-walker in the form a schema walk takes: called with the node's
** first event current, returns with its last event current. */
static int walk_node(walk *w, int depth)
{
    toolgov__reader *r = &w->r;
    toolgov__reader_check_props(r);
    if (r->ev.type == YAML_SCALAR_EVENT) {
        char s[64];
        snprintf(s, sizeof s, "%.*s", (int)toolgov__reader_len(r), toolgov__reader_text(r));
        logf_(w, s, toolgov__reader_mark(r));
        return 0;
    }
    if (r->ev.type == YAML_SEQUENCE_START_EVENT) {
        logf_(w, "[", toolgov__reader_mark(r));
        for (;;) {
            if (toolgov__reader_next(r))
                return -1;
            if (r->ev.type == YAML_SEQUENCE_END_EVENT)
                break;
            if (walk_node(w, depth + 1))
                return -1;
        }
        logf_(w, "]", toolgov__reader_mark(r));
        return 0;
    }
    if (r->ev.type == YAML_MAPPING_START_EVENT) {
        int more;
        logf_(w, "{", toolgov__reader_mark(r));
        while ((more = toolgov__reader_next_key(r, "a schema")) > 0) {
            static const char *const skip[] = {"skipme"};
            if (toolgov__reader_key_index(r, skip, 1) == 0) {
                if (toolgov__reader_skip_value(r))
                    return -1;
                continue;
            }
            if (walk_node(w, depth + 1) || toolgov__reader_next(r) || walk_node(w, depth + 1))
                return -1;
        }
        if (more < 0)
            return -1;
        logf_(w, "}", toolgov__reader_mark(r));
        return 0;
    }
    return 0;
}

static void walk_text(walk *w, const char *yaml, FILE *sink, toolgov__diag *d)
{
    memset(w, 0, sizeof *w);
    toolgov__diag_init(d, sink, 0);
    ck_assert_int_eq(toolgov__reader_open(&w->r, "p.yaml", (const unsigned char *)yaml,
                                          strlen(yaml), d), 0);
    /* STREAM_START, DOCUMENT_START, the root node */
    ck_assert_int_eq(toolgov__reader_next(&w->r), 0);
    ck_assert_int_eq(toolgov__reader_next(&w->r), 0);
    ck_assert_int_eq(toolgov__reader_next(&w->r), 0);
}

START_TEST(test_nested_walk)
{
    walk w;
    toolgov__diag d;
    walk_text(&w, "type: object\n"
                  "properties:\n"
                  "  title: {type: string, minLength: 1}\n"
                  "  skipme: {a: [1, {b: 2}]}\n"
                  "  tags:\n"
                  "    - x\n"
                  "required: [title]\n", NULL, &d);
    ck_assert_int_eq(walk_node(&w, 0), 0);
    ck_assert_int_eq(w.r.ev.type, YAML_MAPPING_END_EVENT);
    ck_assert_str_eq(w.log, "{@1:1 type@1:1 object@1:7 properties@2:1 {@3:3 title@3:3 {@3:10 "
                            "type@3:11 string@3:17 minLength@3:25 1@3:36 }@3:37 tags@5:3 [@6:5 "
                            "x@6:7 ]@7:1 }@7:1 required@7:1 [@7:11 title@7:12 ]@7:17 }@8:1 ");
    ck_assert_uint_eq(d.errors, 0);
    toolgov__reader_close(&w.r);
}
END_TEST

START_TEST(test_scalars_and_errors)
{
    walk w;
    toolgov__diag d;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    toolgov__subject what = {"additionalProperties", "property", "tags"};
    int b = -1;
    ck_assert_ptr_nonnull(f);
    walk_text(&w, "a: true\nb: \"false\"\nc: ~\nd: [x]\ne: &x 1\n{k: 1}: 2\n", f, &d);
    ck_assert_int_eq(toolgov__reader_next_key(&w.r, "a schema"), 1);
    ck_assert_int_eq(toolgov__reader_scalar_value(&w.r, what), 1);
    ck_assert_int_eq(toolgov__reader_bool(&w.r, what, &b), 0);
    ck_assert_int_eq(b, 1);
    ck_assert_int_eq(toolgov__reader_next_key(&w.r, "a schema"), 1);
    ck_assert_int_eq(toolgov__reader_scalar_value(&w.r, what), 1);
    ck_assert_int_eq(toolgov__reader_bool(&w.r, what, &b), -1); /* quoted */
    ck_assert_int_eq(toolgov__reader_next_key(&w.r, "a schema"), 1);
    ck_assert_int_eq(toolgov__reader_scalar_value(&w.r, what), 1);
    ck_assert_int_eq(toolgov__reader_is_null(&w.r), 1);
    ck_assert_int_eq(toolgov__reader_next_key(&w.r, "a schema"), 1);
    ck_assert_int_eq(toolgov__reader_scalar_value(&w.r, what), 0); /* a sequence, skipped */
    ck_assert_int_eq(w.r.ev.type, YAML_SEQUENCE_END_EVENT);
    ck_assert_int_eq(toolgov__reader_next_key(&w.r, "a schema"), 1);
    ck_assert_int_eq(toolgov__reader_scalar_value(&w.r, what), 1); /* anchor reported */
    /* The mapping key is skipped with its value; then the end. */
    ck_assert_int_eq(toolgov__reader_next_key(&w.r, "a schema"), 0);
    toolgov__reader_close(&w.r);
    fclose(f);
    ck_assert_str_eq(buf,
        "p.yaml:2:4: error: 'additionalProperties' of property 'tags' must be a YAML boolean, "
        "not the string \"false\"; remove the quotes and write true or false\n"
        "p.yaml:4:4: error: 'additionalProperties' of property 'tags' must be a single value, "
        "not a sequence\n"
        "p.yaml:5:4: error: YAML anchor '&x' is not allowed in a manifest; remove it\n"
        "p.yaml:6:1: error: a key in a schema is a mapping; keys must be plain words such as "
        "'effect'\n");
    ck_assert_uint_eq(d.errors, 4);
    free(buf);
}
END_TEST

START_TEST(test_syntax_error_stops)
{
    walk w;
    toolgov__diag d;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    walk_text(&w, "a:\n  - [1, 2\nb: 3\n", f, &d);
    ck_assert_int_eq(walk_node(&w, 0), -1);
    ck_assert_int_eq(w.r.failed, 1);
    ck_assert_int_eq(toolgov__reader_next(&w.r), -1); /* stays stopped */
    toolgov__reader_close(&w.r);
    fclose(f);
    ck_assert(strncmp(buf, "p.yaml:3:2: error: YAML syntax: ", 32) == 0);
    free(buf);
}
END_TEST

/* libyaml's mark indexes count characters; toolgov__reader_offset turns
** them into byte offsets. Checked against libyaml itself: every plain
** scalar's bytes start at the offset of its mark, in texts with two-,
** three- and four-byte characters, long ASCII runs, CRLF line ends and a
** BOM, asked in file order and then backwards. */
START_TEST(test_mark_offsets)
{
    static const char *const texts[] = {
        "a: \xc3\xa9t\xc3\xa9\nb: [x\xe2\x82\xacy, \xf0\x9f\x8e\xafz]\nlong_ascii_key_of_many_bytes: "
        "w\n\xe4\xb8\xad\xe6\x96\x87: \xe4\xb8\xad\n",
        "\xef\xbb\xbf" "a: \xc3\xa9\r\nbb: \xf0\x9f\x8e\xaf\r\n\xc3\xa9\xc3\xa9\xc3\xa9: ok\r\n",
        "k: 'quoted \xc3\xa9'\nn: plain\n",
        "a: one \xc3\xa9\r\n  two\r\n\r\n  three\r\nb: \"x\r\n  \xc3\xa9\"\r\nc: |\r\n  l\xc3\xa9\r\n  m\r\nd: y\r\n",
    };
    size_t t;
    for (t = 0; t < sizeof texts / sizeof *texts; t++) {
        toolgov__reader r;
        toolgov__diag d;
        size_t idx[32], off[32], n = 0, i;
        toolgov__diag_init(&d, NULL, 0);
        ck_assert_int_eq(toolgov__reader_open(&r, "p.yaml", (const unsigned char *)texts[t],
                                              strlen(texts[t]), &d), 0);
        while (toolgov__reader_next(&r) == 0 && r.ev.type != YAML_STREAM_END_EVENT) {
            size_t o;
            if (r.ev.type != YAML_SCALAR_EVENT)
                continue;
            o = toolgov__reader_offset(&r, r.ev.start_mark.index);
            if (r.ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
                /* its first word, as written (later lines are folded) */
                size_t w = strcspn((const char *)r.ev.data.scalar.value, " \n");
                ck_assert_uint_le(o + w, strlen(texts[t]));
                ck_assert_msg(memcmp(texts[t] + o, r.ev.data.scalar.value, w) == 0,
                              "text %zu: '%s' at byte %zu", t, (const char *)r.ev.data.scalar.value, o);
            } else {
                ck_assert_int_eq(texts[t][o],
                                 r.ev.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE   ? '\''
                                 : r.ev.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE ? '"'
                                                                                            : '|');
            }
            ck_assert_uint_lt(n, 32);
            idx[n] = r.ev.start_mark.index;
            off[n++] = o;
        }
        ck_assert_uint_eq(d.errors, 0);
        ck_assert_uint_ge(n, 4);
        for (i = n; i-- > 0;)
            ck_assert_uint_eq(toolgov__reader_offset(&r, idx[i]), off[i]);
        ck_assert_uint_eq(toolgov__reader_offset(&r, (size_t)-1), strlen(texts[t]));
        toolgov__reader_close(&r);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reader");
    TCase *tc = tcase_create("reader");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, test_nested_walk);
    tcase_add_test(tc, test_scalars_and_errors);
    tcase_add_test(tc, test_syntax_error_stops);
    tcase_add_test(tc, test_mark_offsets);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
