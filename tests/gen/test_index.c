/* SPDX-License-Identifier: MIT */
/*
** test_index.c: the generator's one hash table (base/index.h) and the
** string set built on it (base/strset.h): the first of equal keys wins,
** keys that differ only late or only in length stay apart, growth keeps
** every entry, arena and malloc slots, a set of all zeroes is empty.
*/
#include "gen_test_util.h"

#include "base/index.h"
#include "base/strset.h"

#define N 20000

typedef struct keys {
    char (*text)[32];
    size_t *len;
} keys;

static void key_of(const void *arr, size_t i, const char **s, size_t *len)
{
    const keys *k = arr;
    *s = k->text[i];
    *len = k->len[i];
}

/* N keys sharing a long beginning, numbered at the end; every tenth the
** one just before it again. */
static void make_keys(keys *k)
{
    size_t i;
    k->text = malloc(N * sizeof *k->text);
    k->len = malloc(N * sizeof *k->len);
    ck_assert_ptr_nonnull(k->text);
    ck_assert_ptr_nonnull(k->len);
    for (i = 0; i < N; i++)
        k->len[i] = (size_t)snprintf(k->text[i], sizeof k->text[i], "cal_Args_tool_%zu",
                                     i % 10 == 9 ? i - 1 : i);
}

static void check_index(toolgov__arena *arena)
{
    keys k;
    toolgov__index ix;
    size_t i, prev;
    make_keys(&k);
    toolgov__index_init(&ix, arena, &k, key_of);
    ck_assert_uint_eq(toolgov__index_find(&ix, "x", 1), SIZE_MAX); /* empty: no slots */
    for (i = 0; i < N; i++) {
        int r = toolgov__index_add(&ix, i, k.text[i], k.len[i], &prev);
        if (i % 10 == 9) {
            ck_assert_int_eq(r, 1);
            ck_assert_uint_eq(prev, i - 1);
        } else {
            ck_assert_int_eq(r, 0);
        }
    }
    ck_assert_uint_eq(ix.count, N - N / 10);
    ck_assert_uint_ge(ix.cap, 2 * ix.count);
    for (i = 0; i < N; i++)
        ck_assert_uint_eq(toolgov__index_find(&ix, k.text[i], k.len[i]),
                          i % 10 == 9 ? i - 1 : i);
    /* A prefix of a key, and a key one byte longer, are other keys. */
    ck_assert_uint_eq(toolgov__index_find(&ix, "cal_Args_tool_1", 14), SIZE_MAX);
    ck_assert_uint_eq(toolgov__index_find(&ix, "cal_Args_tool_10x", 17), SIZE_MAX);
    toolgov__index_free(&ix);
    ck_assert_uint_eq(toolgov__index_find(&ix, k.text[0], k.len[0]), SIZE_MAX);
    free(k.text);
    free(k.len);
}

START_TEST(test_index_malloc)
{
    check_index(NULL);
}
END_TEST

START_TEST(test_index_arena)
{
    toolgov__arena a;
    toolgov__arena_init(&a);
    check_index(&a);
    toolgov__arena_free(&a);
}
END_TEST

START_TEST(test_index_reserve)
{
    keys k;
    toolgov__index ix;
    toolgov__index_slot *slots;
    size_t i;
    make_keys(&k);
    toolgov__index_init(&ix, NULL, &k, key_of);
    ck_assert_int_eq(toolgov__index_reserve(&ix, 100), 0);
    slots = ix.slots;
    for (i = 0; i < 100; i++)
        (void)toolgov__index_add(&ix, i, k.text[i], k.len[i], NULL);
    ck_assert_ptr_eq(ix.slots, slots); /* no growth within the reservation */
    toolgov__index_free(&ix);
    free(k.text);
    free(k.len);
}
END_TEST

START_TEST(test_strset)
{
    static const char *const words[] = {"alpha", "beta", "alpha", "", "gamma", ""};
    toolgov__strset set;
    char copy[8];
    size_t i;
    memset(&set, 0, sizeof set); /* all zeroes: empty, as the scanner keeps its sets */
    ck_assert_ptr_null(toolgov__strset_find(&set, "alpha"));
    ck_assert_int_eq(toolgov__strset_add(&set, words[0]), 1);
    toolgov__strset_free(&set);
    toolgov__strset_init(&set);
    for (i = 0; i < sizeof words / sizeof *words; i++)
        ck_assert_int_eq(toolgov__strset_add(&set, words[i]), i == 2 || i == 5 ? 0 : 1);
    ck_assert_uint_eq(set.count, 4);
    strcpy(copy, "beta");
    ck_assert_ptr_eq(toolgov__strset_find(&set, copy), words[1]); /* by content */
    ck_assert_ptr_eq(toolgov__strset_find(&set, ""), words[3]);
    ck_assert_ptr_null(toolgov__strset_find(&set, "bet"));
    toolgov__strset_free(&set);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("index");
    TCase *tc = tcase_create("index");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, test_index_malloc);
    tcase_add_test(tc, test_index_arena);
    tcase_add_test(tc, test_index_reserve);
    tcase_add_test(tc, test_strset);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
