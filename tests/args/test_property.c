/* SPDX-License-Identifier: MIT */
/*
** test_property.c: random schemas of the whole node model, built in memory
** (schema_gen.h), with random valid instances and one-point mutations.
**
** For each seed: a random root schema; valid instances (random member
** order, whitespace, number spellings, extras where allowed) must decode,
** their canonical text must decode to the same canonical text and to a
** struct equal field by field (decode -> canonical -> decode is the
** identity; canonical is idempotent). Then instances broken at one place
** (wrong type, missing required, out of range, too long, bad format, extra
** member of a closed object, disallowed raw type, bad UTF-8, too deep) must
** be refused with a message that names that place's JSON path.
*/
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_gen.h"

#define SEEDS 400
#define INSTANCES 8

static void check_valid(toolgov_args_decoder *dec, toolgov_args_decoder *dec2,
                        const toolgov_arg_schema *root, const char *text, unsigned seed)
{
    toolgov_decoded_args a, b;
    char *canon;

    ck_assert_msg(toolgov_args_decode(&a, dec, root, "p", text, strlen(text)) == 0,
                  "seed %u: valid instance refused: %s\n%s", seed, a.message, text);
    canon = strdup(a.canonical);
    ck_assert_ptr_nonnull(canon);
    ck_assert_msg(toolgov_args_decode(&b, dec2, root, "p", canon, strlen(canon)) == 0,
                  "seed %u: canonical refused: %s\n%s", seed, b.message, canon);
    ck_assert_msg(strcmp(b.canonical, canon) == 0, "seed %u: not idempotent:\n%s\n%s", seed,
                  canon, b.canonical);
    ck_assert_msg(sg_same(root, a.args, b.args), "seed %u: structs differ for\n%s\n%s", seed,
                  text, canon);
    free(canon);
}

/* ---- mutations ---- */

typedef struct expect {
    char path[256];
    const char *fragment; /* what follows "<path> " in the message */
} expect;

static void path_add(char *path, const char *name)
{
    size_t o = strlen(path);

    if (o + 2 * strlen(name) + 2 >= 256)
        return;
    path[o++] = '/';
    for (; *name; name++) {
        if (*name == '~' || *name == '/') {
            path[o++] = '~';
            path[o++] = *name == '~' ? '0' : '1';
        } else {
            path[o++] = *name;
        }
    }
    path[o] = '\0';
}

/* A wrong value for node s; 0 when none is certain to be wrong. */
static int bad_leaf(sg_gen *g, const toolgov_arg_schema *s, sg_text *t, expect *e)
{
    static const struct { const char *text; unsigned bits; } raw_vals[] = {
        {"null", TOOLGOV_JSON_NULL}, {"true", TOOLGOV_JSON_BOOLEAN},
        {"7", TOOLGOV_JSON_INTEGER | TOOLGOV_JSON_NUMBER}, {"7.5", TOOLGOV_JSON_NUMBER},
        {"\"s\"", TOOLGOV_JSON_STRING}, {"[]", TOOLGOV_JSON_ARRAY}, {"{}", TOOLGOV_JSON_OBJECT},
    };
    char num[64];
    size_t i;

    switch (s->kind) {
    case TOOLGOV_ARG_STRING:
        if (s->format && sg_below(g, 2)) {
            sg_puts(t, "\"not right\"");
            e->fragment = "must be ";
        } else if (s->max_len != TOOLGOV_ARG_UNBOUNDED && sg_below(g, 2)) {
            sg_puts(t, "\"");
            for (i = 0; i <= s->max_len; i++)
                sg_puts(t, "\xC3\xA9");
            sg_puts(t, "\"");
            e->fragment = "must be at most ";
        } else {
            sg_puts(t, "12");
            e->fragment = "must be a string";
        }
        return 1;
    case TOOLGOV_ARG_INTEGER:
        if ((s->flags & TOOLGOV_ARG_F_HAS_MAX) && sg_below(g, 2)) {
            snprintf(num, sizeof num, "%lld", (long long)s->int_max +
                     ((s->flags & TOOLGOV_ARG_F_EXCL_MAX) ? 0 : 1));
            sg_puts(t, num);
            e->fragment = (s->flags & TOOLGOV_ARG_F_EXCL_MAX) ? "must be less than "
                                                               : "must be at most ";
        } else {
            sg_puts(t, sg_below(g, 2) ? "2.5" : "\"7\"");
            e->fragment = "must be an integer";
        }
        return 1;
    case TOOLGOV_ARG_NUMBER:
        sg_puts(t, "\"1\"");
        e->fragment = "must be a number";
        return 1;
    case TOOLGOV_ARG_BOOLEAN:
        sg_puts(t, "1");
        e->fragment = "must be a boolean";
        return 1;
    case TOOLGOV_ARG_STRING_ENUM:
        sg_puts(t, "\"nope\"");
        e->fragment = "must be one of ";
        return 1;
    case TOOLGOV_ARG_INTEGER_ENUM:
        sg_puts(t, "999");
        e->fragment = "must be one of ";
        return 1;
    case TOOLGOV_ARG_ARRAY:
        sg_puts(t, "{}");
        e->fragment = "must be an array";
        return 1;
    case TOOLGOV_ARG_OBJECT:
        sg_puts(t, "[]");
        e->fragment = "must be an object";
        return 1;
    case TOOLGOV_ARG_RAW:
        if (s->alt_count) {
            sg_puts(t, "\"soon\"");
            e->fragment = "must match ";
            return 1;
        }
        for (i = 0; i < sizeof raw_vals / sizeof raw_vals[0]; i++)
            if (s->types && !(s->types & raw_vals[i].bits)) {
                sg_puts(t, raw_vals[i].text);
                e->fragment = "must be ";
                return 1;
            }
        return 0;
    default:
        return 0;
    }
}

/* An instance of object s broken at one place below it, which *e names. */
static int bad_object(sg_gen *g, const toolgov_arg_schema *s, sg_text *t, expect *e,
                      unsigned depth)
{
    size_t target, i, plen = strlen(e->path);
    unsigned how = sg_below(g, 4);
    int first = 1, done = 0;

    if ((s->field_count == 0 || how == 0) && (s->flags & TOOLGOV_ARG_F_CLOSED)) {
        sg_puts(t, "{\"zz bad\": 1");
        for (i = 0; i < s->field_count; i++) {
            if (!s->fields[i].required)
                continue;
            sg_puts(t, ",");
            sg_json_str(t, s->fields[i].name);
            sg_puts(t, ":");
            sg_value_text(g, s->fields[i].schema, t, depth + 1);
        }
        sg_puts(t, "}");
        path_add(e->path, "zz bad");
        e->fragment = "is not allowed";
        return 1;
    }
    if (s->field_count == 0) {
        sg_puts(t, "{}");
        return 0;
    }
    target = sg_below(g, (unsigned)s->field_count);
    sg_puts(t, "{");
    for (i = 0; i < s->field_count; i++) {
        const toolgov_arg_field *f = &s->fields[i];

        if (i == target && how == 1 && f->required) {
            path_add(e->path, f->name);
            e->fragment = "is required";
            done = 1;
            continue; /* left out */
        }
        if (i != target && !f->required)
            continue;
        if (!first)
            sg_puts(t, ",");
        first = 0;
        sg_json_str(t, f->name);
        sg_puts(t, ":");
        if (i != target || done) {
            sg_value_text(g, f->schema, t, depth + 1);
            continue;
        }
        path_add(e->path, f->name);
        if (f->schema->kind == TOOLGOV_ARG_OBJECT && how == 2) {
            /* writes a whole object, broken or not */
            done = bad_object(g, f->schema, t, e, depth + 1);
            if (!done)
                e->path[plen] = '\0';
            continue;
        }
        if (f->schema->kind == TOOLGOV_ARG_ARRAY && how == 2 && f->schema->max_items > 0 &&
            f->schema->items->kind != TOOLGOV_ARG_OBJECT &&
            f->schema->items->kind != TOOLGOV_ARG_RAW) {
            sg_puts(t, "[");
            path_add(e->path, "0");
            done = bad_leaf(g, f->schema->items, t, e);
            sg_puts(t, "]");
            continue;
        }
        done = bad_leaf(g, f->schema, t, e);
        if (!done) {
            e->path[plen] = '\0';
            sg_value_text(g, f->schema, t, depth + 1);
        }
    }
    sg_puts(t, "}");
    return done;
}

static void check_refused(toolgov_args_decoder *dec, const toolgov_arg_schema *root,
                          const char *text, const char *want, unsigned seed)
{
    toolgov_decoded_args r;
    int rc = toolgov_args_decode(&r, dec, root, "p", text, strlen(text));

    ck_assert_msg(rc == TOOLGOV_EARGS, "seed %u: broken instance accepted (rc %d):\n%s\nwant %s",
                  seed, rc, text, want);
    ck_assert_msg(strstr(r.message, want) != NULL, "seed %u: message\n%s\ndoes not name\n%s\nfor\n%s",
                  seed, r.message, want, text);
    ck_assert_ptr_null(r.args);
}

START_TEST(random_schemas_round_trip_and_refuse_at_the_right_path)
{
    toolgov_args_decoder *dec, *dec2;
    unsigned seed, mutated = 0;

    ck_assert_int_eq(toolgov_args_decoder_new(&dec, NULL), 0);
    ck_assert_int_eq(toolgov_args_decoder_new(&dec2, NULL), 0);
    for (seed = 1; seed <= SEEDS; seed++) {
        sg_gen g;
        const toolgov_arg_schema *root;
        int k;

        sg_init(&g, NULL, 0, (uint64_t)seed * 0x2545F4914F6CDD1Dull);
        root = sg_root(&g);
        for (k = 0; k < INSTANCES; k++) {
            sg_text t = {0};
            expect e;

            sg_value_text(&g, root, &t, 0);
            check_valid(dec, dec2, root, t.p, seed);
            sg_text_free(&t);

            memset(&e, 0, sizeof e);
            if (bad_object(&g, root, &t, &e, 0)) {
                char want[300];

                snprintf(want, sizeof want, "%s %s", e.path, e.fragment);
                check_refused(dec, root, t.p, want, seed);
                mutated++;
            }
            sg_text_free(&t);
        }
        /* Bad UTF-8 and excessive nesting fail at the JSON level. */
        check_refused(dec, root, "{\"a\":\"\xC0\xAF\"}", "invalid UTF-8", seed);
        {
            sg_text t = {0};
            int d;

            sg_puts(&t, "{\"zz\":");
            for (d = 0; d < 40; d++)
                sg_puts(&t, "[");
            for (d = 0; d < 40; d++)
                sg_puts(&t, "]");
            sg_puts(&t, "}");
            check_refused(dec, root, t.p, "nested deeper than the limit", seed);
            sg_text_free(&t);
        }
        sg_free(&g);
    }
    ck_assert_uint_gt(mutated, SEEDS);
    printf("args_property: %u schemas, %u valid instances round-tripped, %u mutations refused "
           "at their path\n", SEEDS, SEEDS * INSTANCES, mutated);
    toolgov_args_decoder_free(dec);
    toolgov_args_decoder_free(dec2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("property");
    TCase *tc = tcase_create("property");
    SRunner *sr;
    int failed;

    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, random_schemas_round_trip_and_refuse_at_the_right_path);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
