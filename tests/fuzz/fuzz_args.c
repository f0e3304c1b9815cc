/* SPDX-License-Identifier: MIT */
/*
** fuzz_args.c: libFuzzer target for the argument decoder, schema and
** instance together.
**
** Input: one byte n, then n bytes that build a random schema in memory
** (tests/args/schema_gen.h: every kind, flag, format, nesting, raw anyOf/
** oneOf/type lists, defaults), then the instance text. Invariants: the
** decoder returns 0, TOOLGOV_EARGS (with a message naming the tool) or
** TOOLGOV_ENOMEM, never crashes; an accepted call's canonical text decodes
** again to the same canonical text and an equal struct; the reader alone
** accepts the canonical text of anything it accepted, as a fixed point;
** the defaults a mount makes once (toolgov__args_prep) give the same code,
** message and canonical text as the walk at each call.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "args_internal.h"
#include "fuzz_check.h"
#include "json.h"
#include "../args/schema_gen.h"


static void reader_round_trip(const char *text, size_t len)
{
    toolgov__scratch a;
    toolgov__json_doc doc, doc2;
    toolgov__json_error err;
    toolgov__jbuf b, b2;

    toolgov__scratch_init(&a, NULL);
    toolgov__jbuf_init(&b, NULL);
    toolgov__jbuf_init(&b2, NULL);
    if (toolgov__json_parse(&doc, &err, &a, text, len, 64, TOOLGOV__JSON_MAX_LEN,
                            TOOLGOV__JSON_ALLOW_DUP) == 0) {
        toolgov__json_put_value(&b, &doc, 0);
        FUZZ_CHECK(toolgov__jbuf_finish(&b) == 0);
        FUZZ_CHECK(toolgov__json_parse(&doc2, &err, &a, b.ptr, b.len, 64,
                                       TOOLGOV__JSON_MAX_LEN, TOOLGOV__JSON_ALLOW_DUP) == 0);
        toolgov__json_put_value(&b2, &doc2, 0);
        FUZZ_CHECK(toolgov__jbuf_finish(&b2) == 0);
        FUZZ_CHECK(b.len == b2.len && memcmp(b.ptr, b2.ptr, b.len) == 0);
    } else {
        FUZZ_CHECK(err.msg != NULL && err.pos <= len);
    }
    toolgov__jbuf_free(&b);
    toolgov__jbuf_free(&b2);
    toolgov__scratch_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    toolgov_args_decoder *dec = NULL, *dec2 = NULL;
    toolgov_decoded_args r, r2;
    const toolgov_arg_schema *root;
    size_t n;
    const char *text;
    size_t len;
    char *canon;
    sg_gen g;
    int rc;

    if (size == 0)
        return 0;
    n = data[0];
    if (n > size - 1)
        n = size - 1;
    text = (const char *)data + 1 + n;
    len = size - 1 - n;
    sg_init(&g, data + 1, n, 0);
    root = sg_root(&g);
    FUZZ_CHECK(toolgov_args_decoder_new(&dec, NULL) == 0);
    FUZZ_CHECK(toolgov_args_decoder_new(&dec2, NULL) == 0);
    {
        static const toolgov_allocator plain = {NULL, NULL};
        toolgov__args_prep *prep;
        int rc2;

        FUZZ_CHECK(toolgov__args_prep_new(&plain, root, &prep) == 0);
        rc2 = toolgov__args_decode_prep(&r2, dec2, root, prep, "fz", text, len);
        rc = toolgov_args_decode(&r, dec, root, "fz", text, len);
        FUZZ_CHECK(rc2 == rc && r2.message_len == r.message_len &&
                   memcmp(r2.message, r.message, r.message_len) == 0 &&
                   r2.canonical_len == r.canonical_len &&
                   memcmp(r2.canonical, r.canonical, r.canonical_len) == 0);
        toolgov__args_prep_free(&plain, prep);
    }
    FUZZ_CHECK(rc == 0 || rc == TOOLGOV_EARGS);
    if (rc == 0) {
        canon = malloc(r.canonical_len + 1);
        FUZZ_CHECK(canon != NULL);
        memcpy(canon, r.canonical, r.canonical_len + 1);
        FUZZ_CHECK(toolgov_args_decode(&r2, dec2, root, "fz", canon, r.canonical_len) == 0);
        FUZZ_CHECK(r2.canonical_len == r.canonical_len &&
                   memcmp(r2.canonical, canon, r.canonical_len) == 0);
        FUZZ_CHECK(sg_same(root, r.args, r2.args));
        free(canon);
    } else {
        FUZZ_CHECK(r.args == NULL && r.message_len > 4 && memcmp(r.message, "fz: ", 4) == 0);
    }
    /* The same instance against "no parameters". */
    rc = toolgov_args_decode(&r, dec, NULL, "fz", text, len);
    FUZZ_CHECK(rc == 0 || rc == TOOLGOV_EARGS);
    reader_round_trip(text, len);
    toolgov_args_decoder_free(dec);
    toolgov_args_decoder_free(dec2);
    sg_free(&g);
    return 0;
}
