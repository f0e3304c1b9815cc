/* SPDX-License-Identifier: MIT */
/*
** fuzz_params.c: libFuzzer target for the parameters reader without
** libyaml (gen/params_fast.h) against libyaml's reading of the same text.
**
** The input is a parameters slice as the pool (params_pool.c) hands one to
** toolgov__params_fast_read(): one or more spaces, `parameters:`, and its
** value. An input that does not start that way gets "  parameters:" in
** front, then a newline when its first byte is a blank or a line break (a
** block value follows) and a space otherwise (a flow value, a comment, a
** scalar). An input the pool never sees (refused by toolgov__text_check,
** or with line breaks other than \n and \r\n) is skipped.
**
** The text is read both ways, as tests/gen/test_params_fast.c's compare()
** does: libyaml's (a reader over the slice, then toolgov__schema_read_yaml)
** and the reader without libyaml, each into its own arena and diag. When
** the second reads it (1), libyaml must have read it with nothing reported,
** to the same tree: kinds, texts, keys in the same order, and the same
** line:column on every node and key; the fast reader reported nothing. When
** it declines (0), *out is NULL. It returns -1 only out of memory.
*/
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "fuzz_check.h"
#include "params_fast.h"
#include "reader.h"
#include "schema.h"
#include "text.h"

#define LINE0 7u /* the `parameters:` key's line in the file */
#define PREFIX "  parameters:"

static int event_is(toolgov__reader *r, yaml_event_type_t type)
{
    return toolgov__reader_next(r) == 0 && r->ev.type == type;
}

/* libyaml's reading, as the pool's compile_text() does it: 1 when it read
** the slice as one `parameters:` key whose value is *out, with nothing
** reported. */
static int read_ref(toolgov__arena *a, toolgov__diag *d, const unsigned char *s, size_t n,
                    toolgov__jval **out)
{
    toolgov__reader r;
    toolgov__schema_ctx cx;
    int ok = 0;
    *out = NULL;
    memset(&cx, 0, sizeof cx);
    cx.arena = a;
    cx.d = d;
    cx.path = "m.yaml";
    if (toolgov__reader_open_slice(&r, "m.yaml", s, n, LINE0 - 1, d))
        return 0;
    if (event_is(&r, YAML_STREAM_START_EVENT) && event_is(&r, YAML_DOCUMENT_START_EVENT) &&
        event_is(&r, YAML_MAPPING_START_EVENT) && event_is(&r, YAML_SCALAR_EVENT) &&
        toolgov__reader_plain(&r) && toolgov__reader_len(&r) == 10 &&
        memcmp(toolgov__reader_text(&r), "parameters", 10) == 0 && toolgov__reader_next(&r) == 0 &&
        toolgov__schema_read_yaml(&cx, &r, out) == 0 && !cx.oom &&
        event_is(&r, YAML_MAPPING_END_EVENT) && event_is(&r, YAML_DOCUMENT_END_EVENT) &&
        event_is(&r, YAML_STREAM_END_EVENT))
        ok = 1;
    toolgov__reader_close(&r);
    return ok && d->errors == 0 && d->warnings == 0;
}

static int same_mark(toolgov__mark a, toolgov__mark b)
{
    return a.line == b.line && a.col == b.col;
}

/* a (libyaml's) and b (the fast reader's) are the same tree. */
static void same_tree(const toolgov__jval *a, const toolgov__jval *b)
{
    size_t i;
    FUZZ_CHECK(a != NULL && b != NULL);
    FUZZ_CHECK(a->kind == b->kind);
    FUZZ_CHECK(same_mark(a->at, b->at));
    switch (a->kind) {
    case TOOLGOV_J_BOOL:
        FUZZ_CHECK(a->boolean == b->boolean);
        break;
    case TOOLGOV_J_NUMBER:
    case TOOLGOV_J_STRING:
        FUZZ_CHECK(a->len == b->len);
        FUZZ_CHECK(a->len == 0 || memcmp(a->text, b->text, a->len) == 0);
        break;
    case TOOLGOV_J_ARRAY:
        FUZZ_CHECK(a->count == b->count);
        for (i = 0; i < a->count; i++)
            same_tree(a->items[i], b->items[i]);
        break;
    case TOOLGOV_J_OBJECT:
        FUZZ_CHECK(a->count == b->count);
        for (i = 0; i < a->count; i++) {
            const toolgov__jmember *x = &a->members[i], *y = &b->members[i];
            FUZZ_CHECK(x->key_len == y->key_len);
            FUZZ_CHECK(x->key_len == 0 || memcmp(x->key, y->key, x->key_len) == 0);
            FUZZ_CHECK(same_mark(x->at, y->at));
            same_tree(x->val, y->val);
        }
        break;
    default:
        break;
    }
}

/* Whether s[0..n) starts with one or more spaces and `parameters:`; its
** column (the number of spaces) in *kcol. */
static int has_key(const uint8_t *s, size_t n, size_t *kcol)
{
    size_t k = 0;
    while (k < n && s[k] == ' ')
        k++;
    *kcol = k;
    return k > 0 && n - k >= sizeof "parameters:" - 1 &&
           memcmp(s + k, "parameters:", sizeof "parameters:" - 1) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    toolgov__arena a1, a2;
    toolgov__diag quiet, d1, d2;
    toolgov__schema_ctx cx;
    toolgov__jval *ref = NULL, *fast = (toolgov__jval *)&cx; /* must become NULL or a tree */
    unsigned char *buf;
    size_t n, kcol, bad;
    int ref_ok, got;

    if (has_key(data, size, &kcol)) {
        n = size;
        buf = malloc(n); /* exact size: ASan sees any read past the slice */
        FUZZ_CHECK(buf != NULL);
        memcpy(buf, data, n);
    } else {
        size_t p = sizeof PREFIX - 1;
        kcol = 2;
        n = p + 1 + size;
        buf = malloc(n);
        FUZZ_CHECK(buf != NULL);
        memcpy(buf, PREFIX, p);
        buf[p] = size == 0 || data[0] == ' ' || data[0] == '\n' || data[0] == '\r' ? '\n' : ' ';
        if (size)
            memcpy(buf + p + 1, data, size);
    }

    /* The pool only reads manifests the text check accepted, without odd
    ** line breaks. */
    toolgov__diag_init(&quiet, NULL, 1);
    quiet.format = TOOLGOV_DIAG_JSON;
    bad = toolgov__text_check(&quiet, "m.yaml", buf, n);
    (void)toolgov__diag_finish(&quiet);
    if (bad || toolgov__text_odd_breaks(buf, n)) {
        free(buf);
        return 0;
    }

    toolgov__arena_init(&a1);
    toolgov__arena_init(&a2);
    toolgov__diag_init(&d1, NULL, 1);
    d1.format = TOOLGOV_DIAG_JSON;
    toolgov__diag_init(&d2, NULL, 1);
    d2.format = TOOLGOV_DIAG_JSON;

    ref_ok = read_ref(&a1, &d1, buf, n, &ref);

    memset(&cx, 0, sizeof cx);
    cx.arena = &a2;
    cx.d = &d2;
    cx.path = "m.yaml";
    got = toolgov__params_fast_read(&cx, buf, n, LINE0, kcol, &fast);
    FUZZ_CHECK(got == 0 || got == 1 || (got == -1 && cx.oom));
    if (got == 1) {
        FUZZ_CHECK(fast != NULL);
        FUZZ_CHECK(!cx.oom && d2.errors == 0 && d2.warnings == 0);
        FUZZ_CHECK(ref_ok); /* libyaml read it, nothing reported */
        same_tree(ref, fast);
    } else {
        FUZZ_CHECK(fast == NULL);
    }

    toolgov__arena_free(&a1);
    toolgov__arena_free(&a2);
    (void)toolgov__diag_finish(&d1);
    (void)toolgov__diag_finish(&d2);
    free(buf);
    return 0;
}
