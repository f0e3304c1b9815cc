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

#include "emit/codegen.h"
#include "emit/generate.h"

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
    if (countdown_-- > 0)
        return 0;
    /* fail once, as a real allocator under pressure might */
    countdown_ = -1;
    failures_++;
    return 1;
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

/* Load with allocation n failing; *text gets the diagnostics. */
static toolgov__manifest *load_failing(const char *y, size_t len, size_t n, char **text,
                                       size_t *errors)
{
    size_t size = 0;
    FILE *f = open_memstream(text, &size);
    toolgov__diag d;
    toolgov__manifest *m;
    ck_assert_ptr_nonnull(f);
    toolgov__diag_init(&d, f, 0);
    failures_ = 0;
    countdown_ = (long)n;
    m = toolgov__manifest_load_mem("big.yaml", y, len, &d);
    countdown_ = -1;
    fclose(f);
    *errors = d.errors;
    return m;
}

START_TEST(test_load_oom)
{
    /* It fails the same way at every allocation. */
    size_t len, n;
    char *y = big_manifest(&len);
    for (n = 0;; n++) {
        char *buf = NULL;
        size_t errors;
        toolgov__manifest *m = load_failing(y, len, n, &buf, &errors);
        if (failures_ == 0) {
            ck_assert_ptr_nonnull(m);
            ck_assert_uint_eq(m->tool_count, 400);
            ck_assert_int_eq(toolgov__manifest_find(m, "tool_399"), 399);
            toolgov__manifest_free(m);
            free(buf);
            break;
        }
        ck_assert_msg(m == NULL, "allocation %zu failed but a manifest came back", n);
        ck_assert_uint_eq(errors, 1);
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

/* Parameters: every keyword kind the compiler keeps a copy of (names,
** descriptions, formats, bounds, enums, defaults, examples, branches), a
** second tool with the same text (shared tables in the generated C) and a
** third with other text, so that the scratch arenas are reset between
** tools. */
#define SHARED_PARAMETERS                                                                  \
    "      type: object\n      properties:\n"                                                 \
    "        title: {type: string, minLength: 1, maxLength: 200, description: What.}\n"        \
    "        when: {type: string, format: date-time}\n"                                      \
    "        minutes: {type: integer, minimum: 0, exclusiveMaximum: 1441, default: 5}\n"      \
    "        ratio: {type: number, exclusiveMinimum: 0, maximum: 1.5, examples: [0.5]}\n"     \
    "        level: {type: string, enum: [low, mid, high], default: mid}\n"                   \
    "        tags: {type: array, items: {type: string, maxLength: 9}, minItems: 1, maxItems: 4}\n" \
    "        where: {type: object, properties: {x: {type: integer}}, required: [x]}\n"        \
    "        either: {anyOf: [{type: string}, {type: integer, enum: [1, 2]}]}\n"              \
    "        one: {oneOf: [{type: boolean}, {type: 'null'}]}\n"                               \
    "      required: [title]\n      additionalProperties: false\n"

static const char params_yaml[] =
    "name: p\nprovides: [tool]\ntools:\n"
    "  a:\n    effect: write\n    description: A.\n    parameters:\n" SHARED_PARAMETERS
    "  b:\n    effect: read\n    description: B.\n    parameters:\n" SHARED_PARAMETERS
    "  c:\n    effect: destructive\n    description: C.\n    parameters:\n"
    "      type: object\n      properties:\n"
    "        id: {type: integer, minimum: 1, description: Which one.}\n"
    "        mode: {type: string, enum: [soft, hard], default: soft}\n"
    "      required: [id]\n";

/* Load params_yaml with each allocation in turn failing: complete and
** rendering as c0, or not at all with an out-of-memory error. Returns the
** number of allocations the sweep went through. */
static size_t load_sweep(const toolgov__buf *c0)
{
    size_t n;
    toolgov__diag d;
    for (n = 0;; n++) {
        char *buf = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&buf, &size);
        toolgov__manifest *m;
        ck_assert_ptr_nonnull(f);
        toolgov__diag_init(&d, f, 0);
        failures_ = 0;
        countdown_ = (long)n;
        m = toolgov__manifest_load_mem("p.yaml", params_yaml, sizeof params_yaml - 1, &d);
        countdown_ = -1;
        fclose(f);
        if (failures_ == 0 || m) {
            /* Complete, or not at all: an allocation the loader can do
            ** without may fail and still give the whole manifest, which
            ** then renders the same. */
            toolgov__buf h, c;
            ck_assert_ptr_nonnull(m);
            ck_assert_uint_eq(d.errors, 0);
            toolgov__buf_init(&h);
            toolgov__buf_init(&c);
            ck_assert_int_eq(toolgov__codegen_render(&h, &c, m), 0);
            ck_assert_uint_eq(c.len, c0->len);
            ck_assert_int_eq(memcmp(c.data, c0->data, c.len), 0);
            toolgov__buf_free(&h);
            toolgov__buf_free(&c);
            toolgov__manifest_free(m);
            free(buf);
            if (failures_ == 0)
                return n;
            continue;
        }
        ck_assert_uint_ge(d.errors, 1);
        ck_assert_msg(strstr(buf, "out of memory") != NULL, "allocation %zu: %s", n, buf);
        free(buf);
    }
}

START_TEST(test_params_oom)
{
    size_t n;
    toolgov__diag d;
    toolgov__manifest *m0;
    toolgov__buf h0, c0;
    toolgov__diag_init(&d, stderr, 0);
    m0 = toolgov__manifest_load_mem("p.yaml", params_yaml, sizeof params_yaml - 1, &d);
    ck_assert_ptr_nonnull(m0);
    toolgov__buf_init(&h0);
    toolgov__buf_init(&c0);
    ck_assert_int_eq(toolgov__codegen_render(&h0, &c0, m0), 0);
    /* Loading. */
    ck_assert_uint_ge(load_sweep(&c0), 20);
    /* Rendering: the same files, or ENOMEM (an allocation the renderer
    ** can do without, such as a cache, may fail and still give them). */
    for (n = 0;; n++) {
        toolgov__buf h, c;
        int rc;
        toolgov__buf_init(&h);
        toolgov__buf_init(&c);
        failures_ = 0;
        countdown_ = (long)n;
        rc = toolgov__codegen_render(&h, &c, m0);
        countdown_ = -1;
        if (rc == 0) {
            ck_assert_msg(h.len == h0.len && memcmp(h.data, h0.data, h.len) == 0,
                          "allocation %zu failed and the header differs", n);
            ck_assert_msg(c.len == c0.len && memcmp(c.data, c0.data, c.len) == 0,
                          "allocation %zu failed and the C file differs", n);
        } else {
            ck_assert_int_eq(rc, TOOLGOV_ENOMEM);
            ck_assert_int_eq(failures_, 1);
        }
        toolgov__buf_free(&h);
        toolgov__buf_free(&c);
        if (failures_ == 0)
            break;
    }
    ck_assert_uint_ge(n, 10);
    toolgov__buf_free(&h0);
    toolgov__buf_free(&c0);
    toolgov__manifest_free(m0);
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
    tcase_add_test(tc, test_params_oom);
    tcase_add_test(tc, test_generate_oom);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
