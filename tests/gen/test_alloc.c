/* SPDX-License-Identifier: MIT */
/*
** test_alloc.c: out of memory at every allocation the generator makes.
** malloc/realloc/calloc are wrapped at link time (-Wl,--wrap), which reaches
** every call in toolgov-gen's own code (arena, loader, renderer) but not
** libyaml's, which lives in its shared library. For N = 1, 2, ... the N-th
** allocation fails; each run must end in a clean "out of memory" (or, once
** N is past the last allocation, in success), and the sanitizer build checks
** that nothing leaks on any of those paths.
*/
#include "gen_test_util.h"

#include "codegen.h"
#include "generate.h"

void *__real_malloc(size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_calloc(size_t k, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_calloc(size_t k, size_t n);

static long countdown_ = -1; /* allocations left before one fails; -1: never */
static long failures_;

static int should_fail(void)
{
    if (countdown_ < 0)
        return 0;
    if (countdown_-- == 0) {
        failures_++;
        countdown_ = -1; /* fail once, as a real allocator under pressure might */
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n)
{
    return should_fail() ? NULL : __real_malloc(n);
}

void *__wrap_realloc(void *p, size_t n)
{
    return should_fail() ? NULL : __real_realloc(p, n);
}

void *__wrap_calloc(size_t k, size_t n)
{
    return should_fail() ? NULL : __real_calloc(k, n);
}

/* Enough tools and strings to grow every arena chunk, the name index and
** the tool array several times. */
static char *big_manifest(size_t *out_len)
{
    size_t cap = 400 * 200 + 256, o, i;
    char *y = malloc(cap);
    ck_assert_ptr_nonnull(y);
    o = (size_t)snprintf(y, cap, "name: big\nprovides: [tool, skill]\ntools:\n");
    for (i = 0; i < 400; i++)
        o += (size_t)snprintf(y + o, cap - o,
                              "  tool_%03zu:\n    effect: write\n    confirm: never\n"
                              "    description: \"Tool %zu does \\\"one\\\" thing.\"\n"
                              "    guidance: Use it for %zu.\n", i, i, i);
    *out_len = o;
    return y;
}

START_TEST(test_load_oom)
{
    size_t len, n;
    char *y = big_manifest(&len);
    for (n = 0;; n++) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);
        toolgov__diag d;
        toolgov__manifest *m;
        ck_assert_ptr_nonnull(f);
        toolgov__diag_init(&d, f, 0);
        failures_ = 0;
        countdown_ = (long)n;
        m = toolgov__manifest_load_mem("big.yaml", y, len, &d);
        countdown_ = -1;
        fclose(f);
        if (failures_ == 0) {
            ck_assert_ptr_nonnull(m);
            ck_assert_uint_eq(m->tool_count, 400);
            ck_assert_int_eq(toolgov__manifest_find(m, "tool_399"), 399);
            toolgov__manifest_free(m);
            free(buf);
            break;
        }
        ck_assert_msg(m == NULL, "allocation %zu failed but a manifest came back", n);
        ck_assert_uint_eq(d.errors, 1);
        ck_assert_msg(strstr(buf, "big.yaml: error: out of memory while loading the manifest\n") == buf,
                      "allocation %zu: %s", n, buf);
        free(buf);
    }
    ck_assert_uint_ge(n, 5); /* the loop really went through the arena's growth */
    free(y);
}
END_TEST

START_TEST(test_render_oom)
{
    size_t len, n;
    char *y = big_manifest(&len);
    toolgov__diag d;
    toolgov__manifest *m;
    toolgov__buf h0, c0;
    toolgov__diag_init(&d, stderr, 0);
    m = toolgov__manifest_load_mem("big.yaml", y, len, &d);
    ck_assert_ptr_nonnull(m);
    toolgov__buf_init(&h0);
    toolgov__buf_init(&c0);
    ck_assert_int_eq(toolgov__codegen_render(&h0, &c0, m), 0);
    for (n = 0;; n++) {
        toolgov__buf h, c;
        int rc;
        toolgov__buf_init(&h);
        toolgov__buf_init(&c);
        failures_ = 0;
        countdown_ = (long)n;
        rc = toolgov__codegen_render(&h, &c, m);
        countdown_ = -1;
        if (failures_ == 0) {
            ck_assert_int_eq(rc, 0);
            ck_assert_uint_eq(h.len, h0.len);
            ck_assert_uint_eq(c.len, c0.len);
            ck_assert_int_eq(memcmp(c.data, c0.data, c.len), 0);
            toolgov__buf_free(&h);
            toolgov__buf_free(&c);
            break;
        }
        ck_assert_int_eq(rc, TOOLGOV_ENOMEM);
        toolgov__buf_free(&h);
        toolgov__buf_free(&c);
    }
    ck_assert_uint_ge(n, 3);
    toolgov__buf_free(&h0);
    toolgov__buf_free(&c0);
    toolgov__manifest_free(m);
    free(y);
}
END_TEST

/* generate: out of memory while rendering or writing leaves no output. */
START_TEST(test_generate_oom)
{
    size_t n;
    char *dir = tg_tmpdir(), out[4200];
    toolgov__diag d;
    toolgov__manifest *m;
    toolgov__diag_init(&d, NULL, 0);
    static const char y[] = "name: p\nprovides: [tool]\ntools:\n  t:\n"
                            "    effect: read\n    description: x\n";
    m = toolgov__manifest_load_mem("p.yaml", y, sizeof y - 1, &d);
    ck_assert_ptr_nonnull(m);
    snprintf(out, sizeof out, "%s/out", dir);
    for (n = 0;; n++) {
        int rc;
        struct stat st;
        char h[4300];
        toolgov__diag_init(&d, NULL, 0);
        failures_ = 0;
        countdown_ = (long)n;
        rc = toolgov__generate(m, out, &d);
        countdown_ = -1;
        snprintf(h, sizeof h, "%s/p.toolgov.h", out);
        if (failures_ == 0) {
            ck_assert_int_eq(rc, 0);
            ck_assert_int_eq(stat(h, &st), 0);
            break;
        }
        ck_assert_int_lt(rc, 0);
        ck_assert_uint_ge(d.errors, 1);
        ck_assert_msg(stat(h, &st) != 0, "allocation %zu failed but the header was written", n);
    }
    toolgov__manifest_free(m);
    tg_rm_rf(dir);
    free(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("alloc");
    TCase *tc = tcase_create("out of memory");
    SRunner *sr;
    int failed;
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_load_oom);
    tcase_add_test(tc, test_render_oom);
    tcase_add_test(tc, test_generate_oom);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
