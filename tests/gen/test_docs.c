/* SPDX-License-Identifier: MIT */
/*
** test_docs.c: docs/manifest.md cannot drift from the generator. Every
** ```yaml block of the page is loaded as "manifest.yaml"; when a ```console
** block follows it, the diagnostics must be exactly that block, otherwise
** the manifest must be valid.
*/
#include "gen_test_util.h"

static char *doc_;

static const char *next_line(const char *p)
{
    const char *e = strchr(p, '\n');
    return e ? e + 1 : p + strlen(p);
}

/* The block body starting at p (just after its fence line), up to the
** closing ``` line; *after is set past that line. malloc'd. */
static char *block(const char *p, const char **after)
{
    const char *q = p;
    char *out;
    while (*q && strncmp(q, "```\n", 4) != 0)
        q = next_line(q);
    ck_assert_msg(*q, "unterminated code block in docs/manifest.md");
    out = strndup(p, (size_t)(q - p));
    *after = q + 4;
    return out;
}

START_TEST(test_examples)
{
    const char *p;
    size_t examples = 0, with_errors = 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/manifest.md", TOOLGOV_SOURCE_DIR);
    doc_ = tg_read_file(path, NULL);
    ck_assert_msg(doc_ != NULL, "cannot read %s", path);
    for (p = doc_; *p; ) {
        if (strncmp(p, "```yaml\n", 8) == 0) {
            const char *after;
            char *yaml = block(p + 8, &after), *text, *want = NULL;
            size_t errors, line = 1;
            const char *c;
            toolgov__manifest *m;
            for (c = doc_; c < p; c++)
                line += *c == '\n';
            p = after;
            while (*p == '\n')
                p++;
            if (strncmp(p, "```console\n", 11) == 0) {
                want = block(p + 11, &after);
                p = after;
            }
            {
                char *b = NULL;
                size_t size = 0;
                FILE *f = open_memstream(&b, &size);
                toolgov__diag d;
                toolgov__diag_init(&d, f, 0);
                m = toolgov__manifest_load_mem("manifest.yaml", yaml, strlen(yaml), &d);
                fclose(f);
                text = b;
                errors = d.errors;
            }
            if (want) {
                ck_assert_msg(m == NULL, "docs/manifest.md:%zu: example accepted", line);
                ck_assert_msg(strcmp(text, want) == 0,
                              "docs/manifest.md:%zu: diagnostics differ\n--- got\n%s--- doc\n%s",
                              line, text, want);
                with_errors++;
            } else {
                ck_assert_msg(m != NULL && errors == 0,
                              "docs/manifest.md:%zu: example refused:\n%s", line, text);
            }
            toolgov__manifest_free(m);
            free(text);
            free(want);
            free(yaml);
            examples++;
            continue;
        }
        p = next_line(p);
    }
    ck_assert_uint_ge(examples, 60);
    ck_assert_uint_ge(with_errors, 55);
    free(doc_);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("manifest.md");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, test_examples);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
