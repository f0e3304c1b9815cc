/* SPDX-License-Identifier: MIT */
/*
** test_pool.c: the parameters texts compiled on a second thread
** (params_pool.h). Every manifest here is loaded every way (tg_load: the
** default, the memo alone, no reuse, and the pool whatever the size) and
** must give the same reports and the same manifest; the cases are the
** ones where reading a text alone could differ from reading it in its
** file: problems at the front, the middle and the back, equal texts,
** warnings, texts that only look like a tool's parameters, flow texts
** that run on below their key, anchors and aliases across texts. And a
** big plugin's header, rendered on a thread of its own beside the C file,
** is the same text as on one CPU. The suite also runs under
** ThreadSanitizer (./dev.sh tsan).
*/
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET: render_on() */
#include "gen_test_util.h"

#include <sched.h>

#include "buf.h"
#include "codegen.h"
#include "params_pool.h"

static void puts_(toolgov__buf *b, const char *s)
{
    toolgov__buf_put(b, s, strlen(s));
}

/* n tools, each with its own parameters text; tool `bad` (n: none) has
** `bad_line` as an extra property line of its text. */
static char *many_tools(size_t n, size_t bad, const char *bad_line, size_t *out_len)
{
    toolgov__buf b;
    size_t i;
    toolgov__buf_init(&b);
    puts_(&b, "name: pool\nprovides: [tool]\ntools:\n");
    for (i = 0; i < n; i++) {
        char line[512];
        snprintf(line, sizeof line,
                 "  tool_%03zu:\n    effect: read\n    description: Tool %zu reads.\n"
                 "    parameters:\n      type: object\n      properties:\n"
                 "        title: {type: string, maxLength: %zu, description: For tool %zu.}\n"
                 "        when: {type: string, format: date}\n"
                 "        tags: {type: array, items: {type: string}}\n",
                 i, i, 10 + i, i);
        puts_(&b, line);
        if (i == bad) {
            puts_(&b, "        ");
            puts_(&b, bad_line);
            puts_(&b, "\n");
        }
        puts_(&b, "      required: [title]\n");
    }
    ck_assert(!b.oom);
    *out_len = b.len;
    return b.data;
}

/* Loaded every way; the reports of the default. */
static char *load_all_ways(const char *y, size_t len, size_t *errors, toolgov__manifest **out)
{
    char *text = NULL;
    toolgov__manifest *m = tg_load(y, len, &text, errors);
    if (out)
        *out = m;
    else
        toolgov__manifest_free(m);
    return text;
}

START_TEST(test_clean_many)
{
    size_t len, errors, i;
    char *y = many_tools(200, 200, NULL, &len);
    toolgov__manifest *m;
    char *text = load_all_ways(y, len, &errors, &m);
    ck_assert_str_eq(text, "");
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(m->tool_count, 200);
    for (i = 0; i < 200; i++) {
        ck_assert_ptr_nonnull(m->tools[i].params);
        ck_assert_uint_eq(m->tools[i].params_shift, 0);
    }
    ck_assert_ptr_null(m->tools[199].params->parent);
    toolgov__manifest_free(m);
    free(text);
    free(y);
}
END_TEST

/* A problem in the first, a middle and the last pooled text (tool 198;
** 199's is read inline, at the end of the file): reported at its place. */
START_TEST(test_problem_anywhere)
{
    static const size_t where[] = {0, 77, 198, 199};
    size_t k;
    for (k = 0; k < sizeof where / sizeof where[0]; k++) {
        size_t len, errors;
        char *y = many_tools(200, where[k], "note: {type: strin}", &len);
        char *text = load_all_ways(y, len, &errors, NULL);
        char at[64];
        ck_assert_uint_eq(errors, 1);
        /* 3 lines before the tools, 10 per tool, the bad line 10th of its tool */
        snprintf(at, sizeof at, "m.yaml:%zu:22: error: unknown type 'strin'", 13 + 10 * where[k]);
        ck_assert_msg(strstr(text, at) == text, "%s\nnot at %s", text, at);
        ck_assert_msg(strstr(text, "did you mean 'string'") != NULL, "%s", text);
        free(text);
        free(y);
    }
}
END_TEST

START_TEST(test_syntax_error_in_text)
{
    size_t len, errors;
    char *y = many_tools(120, 60, "note: {type: string", &len);
    char *text = load_all_ways(y, len, &errors, NULL);
    ck_assert_uint_ge(errors, 1);
    ck_assert_msg(strstr(text, "m.yaml:") == text, "%s", text);
    free(text);
    free(y);
}
END_TEST

/* A text the pool compiles that reports only a warning. */
START_TEST(test_warning_in_text)
{
    size_t len, errors;
    char *y = many_tools(100, 50, "note: {type: string, examples: [a], foo_bar: 1}", &len);
    char *text = load_all_ways(y, len, &errors, NULL);
    ck_assert_msg(strstr(text, "foo_bar") != NULL, "%s", text);
    free(text);
    free(y);
}
END_TEST

/* Equal texts share one tree; their marks differ by whole lines. */
START_TEST(test_equal_texts)
{
    toolgov__buf b;
    size_t i, errors;
    toolgov__manifest *m;
    char *text;
    toolgov__buf_init(&b);
    puts_(&b, "name: pool\nprovides: [tool]\ntools:\n");
    for (i = 0; i < 90; i++) {
        char line[256];
        snprintf(line, sizeof line,
                 "  t%02zu:\n    effect: read\n    description: Reads %zu.\n"
                 "    parameters:\n      type: object\n"
                 "      properties: {q: {type: string}, n: {type: integer, minimum: %d}}\n",
                 i, i, (int)(i % 3));
        puts_(&b, line);
    }
    ck_assert(!b.oom);
    text = load_all_ways(b.data, b.len, &errors, &m);
    ck_assert_str_eq(text, "");
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_eq(m->tools[3].params, m->tools[0].params);
    ck_assert_ptr_eq(m->tools[84].params, m->tools[0].params);
    ck_assert_ptr_ne(m->tools[1].params, m->tools[0].params);
    ck_assert_uint_eq(m->tools[3].params_shift, 3 * 6);
    ck_assert_uint_eq(m->tools[0].params->at.line + m->tools[3].params_shift,
                      m->tools[3].params_at.line + 1);
    toolgov__manifest_free(m);
    free(text);
    toolgov__buf_free(&b);
}
END_TEST

/* Lines that look like a tool's parameters but are not: inside a block
** scalar, and as a property's name. */
START_TEST(test_lookalikes)
{
    static const char y[] =
        "name: pool\nprovides: [tool]\ntools:\n"
        "  a:\n    effect: read\n    description: |\n      Reads.\n"
        "      parameters:\n        type: object\n"
        "    parameters:\n      type: object\n      properties:\n"
        "        parameters:\n          type: string\n"
        "  b:\n    effect: read\n    description: Reads.\n"
        "    parameters: {type: object, properties: {x: {type: string}}}\n"
        "  c:\n    effect: read\n    description: Reads.\n";
    size_t errors;
    toolgov__manifest *m;
    char *text = load_all_ways(y, sizeof y - 1, &errors, &m);
    ck_assert_str_eq(text, "");
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->tools[0].description, "Reads.\nparameters:\n  type: object\n");
    ck_assert_uint_eq(m->tools[0].params->prop_count, 1);
    ck_assert_str_eq(m->tools[0].params->props[0].name, "parameters");
    ck_assert_uint_eq(m->tools[1].params->prop_count, 1);
    toolgov__manifest_free(m);
    free(text);
}
END_TEST

/* A flow text that runs on below its key's column (libyaml takes it), an
** anchor in one text and an alias to it in another, an alias as a text. */
START_TEST(test_texts_that_need_their_file)
{
    static const char *const ys[] = {
        "name: pool\nprovides: [tool]\ntools:\n"
        "  a:\n    effect: read\n    description: Reads.\n"
        "    parameters: {type: object,\n  properties: {x: {type: string}}}\n"
        "  b:\n    effect: read\n    description: Reads.\n",
        "name: pool\nprovides: [tool]\ntools:\n"
        "  a:\n    effect: read\n    description: Reads.\n"
        "    parameters: &p {type: object}\n"
        "  b:\n    effect: read\n    description: Reads.\n"
        "    parameters: *p\n"
        "  c:\n    effect: read\n    description: Reads.\n",
        "name: pool\nprovides: [tool]\ntools:\n"
        "  a:\n    effect: read\n    description: &d Reads.\n"
        "    parameters: {type: object, properties: {x: {type: string, description: *d}}}\n"
        "  b:\n    effect: read\n    description: Reads.\n",
        "name: pool\nprovides: [tool]\ntools:\n"
        "  a:\n    effect: read\n    description: Reads.\n"
        "    parameters:\n      type: object\n"
        "---\n"
        "  b:\n    effect: read\n    description: Reads.\n",
    };
    size_t k;
    for (k = 0; k < sizeof ys / sizeof ys[0]; k++) {
        size_t errors;
        char *text = load_all_ways(ys[k], strlen(ys[k]), &errors, NULL);
        free(text);
    }
}
END_TEST

/* The byte where the k-th line `    parameters:` of y starts. */
static size_t params_line(const char *y, int k)
{
    const char *q = y;
    for (;;) {
        q = strstr(q, "\n    parameters:");
        ck_assert_ptr_nonnull(q);
        if (k-- == 0)
            return (size_t)(q + 1 - y);
        q++;
    }
}

/* The pool itself: which lines it takes, in file order, and what a skip
** claims. */
START_TEST(test_pool_texts)
{
    static const char y[] =
        "tools:\n"
        "  a:\n    parameters:\n      type: object\n"  /* line 3 */
        "  b:\n    parameters:\n      type: object\n"  /* 6: equal to a's */
        "  c:\n    parameters: {type: object}\n"       /* 9 */
        "  d:\n    parameters:\n      type: object\n"; /* the end: not taken */
    toolgov__ppool *p = toolgov__ppool_start("m.yaml", (const unsigned char *)y, sizeof y - 1,
                                             2, 1);
    toolgov__arena keep;
    size_t colon_end, resume, tag;
    unsigned line = 0;
    const toolgov__snode *a, *b;
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(toolgov__ppool_skip(p, 0, &colon_end, &resume, &tag), 0);
    ck_assert_uint_eq(params_line(y, 0), 12);
    ck_assert_int_eq(toolgov__ppool_skip(p, 12, &colon_end, &resume, &tag), 1);
    ck_assert_uint_eq(colon_end, 12 + 4 + 11);
    ck_assert_uint_eq(tag, 1);
    ck_assert(strncmp(y + resume, "  b:", 4) == 0);
    a = toolgov__ppool_take(p, tag, &line);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(line, 3);
    ck_assert_uint_eq(a->at.line, 4);
    ck_assert_int_eq(toolgov__ppool_skip(p, params_line(y, 1), &colon_end, &resume, &tag), 1);
    ck_assert_uint_eq(tag, 2);
    b = toolgov__ppool_take(p, tag, &line);
    ck_assert_ptr_eq(a, b); /* the same text, one tree */
    ck_assert_uint_eq(line, 3);
    ck_assert_int_eq(toolgov__ppool_skip(p, params_line(y, 2), &colon_end, &resume, &tag), 1);
    ck_assert_ptr_nonnull(toolgov__ppool_take(p, tag, &line));
    ck_assert_uint_eq(line, 9);
    /* the last text ends the file: read in place */
    ck_assert_int_eq(toolgov__ppool_skip(p, params_line(y, 3), &colon_end, &resume, &tag), 0);
    toolgov__arena_init(&keep);
    ck_assert_int_eq(toolgov__ppool_finish(p, &keep), 0);
    ck_assert_str_eq(a->text, "{\"type\":\"object\"}");
    toolgov__arena_free(&keep);
    /* Fewer texts, or fewer distinct ones, than asked for: no pool. */
    ck_assert_ptr_null(
        toolgov__ppool_start("m.yaml", (const unsigned char *)y, sizeof y - 1, 4, 1));
    ck_assert_ptr_null(
        toolgov__ppool_start("m.yaml", (const unsigned char *)y, sizeof y - 1, 3, 1));
    ck_assert_int_eq(toolgov__ppool_finish(NULL, &keep), 0);
}
END_TEST

/* A text that does not compile alone is not left out (the loader reads it
** in place and reports it there); the others still are. A tag the hook
** never handed out makes the pool's result not stand. */
START_TEST(test_pool_failed_text)
{
    static const char y[] =
        "tools:\n"
        "  a:\n    parameters:\n      type: objet\n"
        "  b:\n    parameters:\n      type: object\n"
        "  c:\n";
    toolgov__ppool *p = toolgov__ppool_start("m.yaml", (const unsigned char *)y, sizeof y - 1,
                                             1, 1);
    toolgov__arena keep;
    size_t colon_end, resume, tag;
    unsigned line = 0;
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(toolgov__ppool_skip(p, params_line(y, 0), &colon_end, &resume, &tag), 0);
    ck_assert_int_eq(toolgov__ppool_skip(p, params_line(y, 1), &colon_end, &resume, &tag), 1);
    ck_assert_ptr_nonnull(toolgov__ppool_take(p, tag, &line));
    toolgov__arena_init(&keep);
    ck_assert_int_eq(toolgov__ppool_finish(p, &keep), 0);
    toolgov__arena_free(&keep);

    p = toolgov__ppool_start("m.yaml", (const unsigned char *)y, sizeof y - 1, 1, 1);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_null(toolgov__ppool_take(p, 1, &line)); /* never handed out */
    toolgov__arena_init(&keep);
    ck_assert_int_eq(toolgov__ppool_finish(p, &keep), -1);
    toolgov__arena_free(&keep);
}
END_TEST

/* Render m with this thread allowed one CPU only (no header thread), or
** as the machine allows; 0 when the affinity cannot be set here. */
static int render_on(const toolgov__manifest *m, int one_cpu, toolgov__buf *h, toolgov__buf *c)
{
#if defined(__linux__) && defined(CPU_SET)
    cpu_set_t was, one;
    int i;
    if (sched_getaffinity(0, sizeof was, &was) != 0)
        return 0;
    if (one_cpu) {
        CPU_ZERO(&one);
        for (i = 0; i < CPU_SETSIZE && !CPU_ISSET(i, &was); i++)
            ;
        CPU_SET(i, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0)
            return 0;
    }
    toolgov__buf_init(h);
    toolgov__buf_init(c);
    ck_assert_int_eq(toolgov__codegen_render(h, c, m), 0);
    if (one_cpu)
        ck_assert_int_eq(sched_setaffinity(0, sizeof was, &was), 0);
    return 1;
#else
    (void)m, (void)one_cpu, (void)h, (void)c;
    return 0;
#endif
}

/* The same where few tools have parameters: the header thread then leaves
** the C file's parts after the tables to the caller's thread. */
START_TEST(test_render_threads_same_few_params)
{
    toolgov__buf y, h1, c1, h2, c2;
    size_t i, errors;
    toolgov__manifest *m;
    char *text;
    toolgov__buf_init(&y);
    puts_(&y, "name: few\nprovides: [tool]\ntools:\n");
    for (i = 0; i < 300; i++) {
        char line[256];
        snprintf(line, sizeof line,
                 "  tool_%03zu:\n    effect: %s\n    description: Tool %zu \"acts\".\n", i,
                 i % 3 ? "read" : "write", i);
        puts_(&y, line);
        if (i % 4 == 0) {
            snprintf(line, sizeof line,
                     "    parameters: {type: object, properties: {n: {type: integer, maximum: "
                     "%zu}, e: {type: string, enum: [a, b]}}}\n", i + 1);
            puts_(&y, line);
        }
    }
    ck_assert(!y.oom);
    text = load_all_ways(y.data, y.len, &errors, &m);
    ck_assert_ptr_nonnull(m);
    if (render_on(m, 1, &h1, &c1)) {
        ck_assert(render_on(m, 0, &h2, &c2));
        ck_assert_uint_eq(h1.len, h2.len);
        ck_assert(memcmp(h1.data, h2.data, h1.len) == 0);
        ck_assert_uint_eq(c1.len, c2.len);
        ck_assert(memcmp(c1.data, c2.data, c1.len) == 0);
        toolgov__buf_free(&h2);
        toolgov__buf_free(&c2);
        toolgov__buf_free(&h1);
        toolgov__buf_free(&c1);
    }
    toolgov__manifest_free(m);
    free(text);
    toolgov__buf_free(&y);
}
END_TEST

/* On one CPU the pool starts without a worker: the loader compiles each
** text as its walk reaches it (still without libyaml where it can) and
** leaves it out of libyaml's input. Loaded every way there too (the
** worker forced, and the loader alone with libyaml), clean and with a
** problem in the middle. */
START_TEST(test_one_cpu_pool)
{
#if defined(__linux__) && defined(CPU_SET)
    static const char *const bad[] = {NULL, "note: {type: string, minLenght: 1}"};
    cpu_set_t was, one;
    size_t k;
    int i;
    ck_assert_int_eq(sched_getaffinity(0, sizeof was, &was), 0);
    CPU_ZERO(&one);
    for (i = 0; i < CPU_SETSIZE && !CPU_ISSET(i, &was); i++)
        ;
    CPU_SET(i, &one);
    ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        size_t len, errors;
        char *y = many_tools(120, bad[k] ? 60 : 120, bad[k], &len);
        toolgov__manifest *m;
        char *text = load_all_ways(y, len, &errors, &m);
        ck_assert_int_eq(m == NULL, bad[k] != NULL);
        if (bad[k])
            ck_assert_msg(strstr(text, "m.yaml:") && strstr(text, "minLength"), "%s", text);
        else
            ck_assert_str_eq(text, "");
        toolgov__manifest_free(m);
        free(text);
        free(y);
    }
    ck_assert_int_eq(sched_setaffinity(0, sizeof was, &was), 0);
#endif
}
END_TEST

/* A plugin big enough for the header to render on a thread of its own
** and its tables to be made ahead on another (codegen.c) renders to the
** same bytes as on one CPU. */
START_TEST(test_render_threads_same)
{
    size_t len, errors;
    char *y = many_tools(300, 300, NULL, &len);
    toolgov__manifest *m;
    toolgov__buf h1, c1, h2, c2;
    char *text = load_all_ways(y, len, &errors, &m);
    ck_assert_ptr_nonnull(m);
    if (render_on(m, 1, &h1, &c1)) {
        ck_assert(render_on(m, 0, &h2, &c2));
        ck_assert_uint_eq(h1.len, h2.len);
        ck_assert(memcmp(h1.data, h2.data, h1.len) == 0);
        ck_assert_uint_eq(c1.len, c2.len);
        ck_assert(memcmp(c1.data, c2.data, c1.len) == 0);
        ck_assert_uint_gt(h1.len, 300 * 100);
        toolgov__buf_free(&h2);
        toolgov__buf_free(&c2);
        toolgov__buf_free(&h1);
        toolgov__buf_free(&c1);
    }
    toolgov__manifest_free(m);
    free(text);
    free(y);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    SRunner *sr;
    int failed;
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_clean_many);
    tcase_add_test(tc, test_problem_anywhere);
    tcase_add_test(tc, test_syntax_error_in_text);
    tcase_add_test(tc, test_warning_in_text);
    tcase_add_test(tc, test_equal_texts);
    tcase_add_test(tc, test_lookalikes);
    tcase_add_test(tc, test_texts_that_need_their_file);
    tcase_add_test(tc, test_pool_texts);
    tcase_add_test(tc, test_pool_failed_text);
    tcase_add_test(tc, test_render_threads_same);
    tcase_add_test(tc, test_one_cpu_pool);
    tcase_add_test(tc, test_render_threads_same_few_params);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
