/* SPDX-License-Identifier: MIT */
/*
** test_alloc.c: the decoder under allocation failure.
**
** A scenario of decodes (valid and invalid calls, defaults, nested objects,
** arrays of objects, raw values, a long message) is replayed with the
** allocator hook failing the 1st, 2nd, 3rd, ... allocation until a replay
** meets no failure. The decode that meets the failure must return
** TOOLGOV_ENOMEM with no struct (or, when the failure hit the scratch
** area's merge of its chunks, which it survives by starting empty, give the
** right answer anyway); the same decoder must then decode the call
** correctly once the hook stops failing; after the free the hook must
** hold no block and no byte (the sizes the decoder gives when freeing are
** checked against the sizes it asked for).
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_nodes.h"
#include "fixture_reminder.h"

typedef struct hook_state {
    unsigned long count, fail_at;
    int failed;
    long blocks;
    long long bytes;
} hook_state;

/* Blocks carry their size in a header, so a wrong osize is caught. */
static void *hook_fn(void *ud, void *ptr, size_t osize, size_t nsize)
{
    hook_state *h = ud;
    size_t *blk;

    if (ptr) {
        blk = (size_t *)ptr - 2;
        ck_assert_uint_eq(blk[0], osize);
    }
    if (nsize == 0) {
        if (ptr) {
            h->blocks--;
            h->bytes -= (long long)osize;
            free((size_t *)ptr - 2);
        }
        return NULL;
    }
    if (h->fail_at && ++h->count == h->fail_at) {
        h->failed = 1;
        return NULL;
    }
    blk = realloc(ptr ? (size_t *)ptr - 2 : NULL, nsize + 2 * sizeof(size_t));
    if (!blk)
        return NULL;
    if (!ptr)
        h->blocks++;
    h->bytes += (long long)nsize - (long long)(ptr ? osize : 0);
    blk[0] = nsize;
    return blk + 2;
}

static const struct {
    const toolgov_arg_schema *schema;
    const char *text;
    int rc;
} calls[] = {
    {&reminder_schema, "{\"title\":\"Dentist\",\"date\":\"2026-03-12\",\"time\":\"09:30\","
                       "\"tags\":[\"a\",\"b\",\"c\"]}", 0},
    {&reminder_schema, "{\"date\":\"12/03/2026\",\"x\":1,\"y\":2,\"z\":3,\"w\":4,\"v\":5,\"u\":6,"
                       "\"t\":7,\"s\":8}", TOOLGOV_EARGS},
    {&nodes_schema, "{\"people\":[{\"name\":\"Ann\",\"age\":40},{\"name\":\"Bo\"}],"
                    "\"where\":{\"city\":\"Oslo\"},\"due\":7,\"any\":{\"b\":[1,2,{\"c\":null}],\"a\":1},"
                    "\"n\":0.1,\"extra\":{\"k\":[true]}}", 0},
    {&nodes_schema, "{\"one\":12,\"maybe\":5}", TOOLGOV_EARGS},
    {NULL, "{}", 0},
    {&reminder_schema, "{\"title\": [", TOOLGOV_EARGS},
};

/* 1 when the scenario met no failure. */
static int scenario(hook_state *h)
{
    toolgov_allocator a = {hook_fn, h};
    toolgov_args_decoder *dec = NULL;
    toolgov_decoded_args r;
    size_t i;
    int clean = 1, round;

    if (toolgov_args_decoder_new(&dec, &a) != 0) {
        ck_assert(h->failed);
        return 0;
    }
    for (round = 0; round < 2; round++) {
        for (i = 0; i < sizeof calls / sizeof calls[0]; i++) {
            int was = h->failed;
            int rc = toolgov_args_decode(&r, dec, calls[i].schema, "t", calls[i].text,
                                         strlen(calls[i].text));

            if (!was && h->failed) {
                clean = 0;
                h->fail_at = 0;
                /* Either the decode says so, or the failure was absorbed
                ** (the scratch area's reset may fail to merge its chunks;
                ** it then starts empty) and the answer is the right one. */
                if (rc == TOOLGOV_ENOMEM) {
                    ck_assert_ptr_null(r.args);
                    /* The decoder still works once memory is back. */
                    rc = toolgov_args_decode(&r, dec, calls[i].schema, "t", calls[i].text,
                                             strlen(calls[i].text));
                }
            }
            ck_assert_int_eq(rc, calls[i].rc);
            if (rc == 0)
                ck_assert_ptr_nonnull(r.args);
            else
                ck_assert_uint_gt(r.message_len, 0);
        }
    }
    toolgov_args_decoder_free(dec);
    return clean;
}

START_TEST(every_failure_is_clean)
{
    unsigned long n;

    for (n = 1; n < 10000; n++) {
        hook_state h;

        memset(&h, 0, sizeof h);
        h.fail_at = n;
        if (scenario(&h) && !h.failed)
            break;
        ck_assert_int_eq(h.blocks, 0);
        ck_assert_int_eq(h.bytes, 0);
    }
    ck_assert_uint_gt(n, 3);
    ck_assert_uint_lt(n, 10000);
    printf("args_alloc: %lu allocations in the scenario, each failed in turn\n", n - 1);
}
END_TEST

START_TEST(warm_decoder_allocates_nothing)
{
    hook_state h;
    toolgov_allocator a = {hook_fn, &h};
    toolgov_args_decoder *dec;
    toolgov_decoded_args r;
    unsigned long before;
    size_t i;
    int k;

    memset(&h, 0, sizeof h);
    h.fail_at = (unsigned long)-1; /* count only */
    ck_assert_int_eq(toolgov_args_decoder_new(&dec, &a), 0);
    for (k = 0; k < 2; k++)
        for (i = 0; i < sizeof calls / sizeof calls[0]; i++)
            toolgov_args_decode(&r, dec, calls[i].schema, "t", calls[i].text,
                                strlen(calls[i].text));
    before = h.count;
    for (k = 0; k < 20; k++)
        for (i = 0; i < sizeof calls / sizeof calls[0]; i++)
            ck_assert_int_eq(toolgov_args_decode(&r, dec, calls[i].schema, "t", calls[i].text,
                                                 strlen(calls[i].text)),
                             calls[i].rc);
    ck_assert_uint_eq(h.count, before);
    toolgov_args_decoder_free(dec);
    ck_assert_int_eq(h.blocks, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("args_alloc");
    TCase *tc = tcase_create("alloc");
    SRunner *sr;
    int failed;

    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_failure_is_clean);
    tcase_add_test(tc, warm_decoder_allocates_nothing);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
