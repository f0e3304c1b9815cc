/* SPDX-License-Identifier: MIT */
/*
** test_params_decode.c: the generated code of declared parameters at run
** time. The golden planner manifest is generated at build time with the
** toolgov-gen just built; this test decodes calls with the runtime's decoder
** through the generated descriptor tables into the generated argument
** struct, and checks that the generated tables equal the ones the schema
** compiler builds in memory from the same manifest (toolgov__schema_tables),
** member by member, so tests and fuzzers that use the in-memory tables test
** what plugins run.
*/
#include "gen_test_util.h"

#include "nulsafe.toolgov.h"
#include "planner.toolgov.h"
#include "schema/schema.h"

static void same_node(const toolgov_arg_schema *g, const toolgov_arg_schema *m, int typed);

static void same_fields(const toolgov_arg_schema *g, const toolgov_arg_schema *m, int typed)
{
    size_t i;
    ck_assert_uint_eq(g->field_count, m->field_count);
    for (i = 0; i < g->field_count; i++) {
        const toolgov_arg_field *x = &g->fields[i], *y = &m->fields[i];
        ck_assert_str_eq(x->name, y->name);
        ck_assert_uint_eq(x->name_len, y->name_len);
        ck_assert_msg(x->offset == y->offset, "%s: offset %zu vs %zu", x->name, x->offset,
                      y->offset);
        ck_assert_msg(x->has_offset == y->has_offset, "%s: has %zu vs %zu", x->name,
                      x->has_offset, y->has_offset);
        ck_assert_int_eq(x->required, y->required);
        ck_assert_int_eq(x->default_json == NULL, y->default_json == NULL);
        if (x->default_json)
            ck_assert_str_eq(x->default_json, y->default_json);
        same_node(x->schema, y->schema, typed);
    }
}

static void same_node(const toolgov_arg_schema *g, const toolgov_arg_schema *m, int typed)
{
    size_t i;
    ck_assert_int_eq(g->kind, m->kind);
    ck_assert_uint_eq(g->flags, m->flags);
    ck_assert_uint_eq(g->min_len, m->min_len);
    ck_assert_uint_eq(g->max_len, m->max_len);
    ck_assert_int_eq(g->format, m->format);
    ck_assert_int_eq(g->int_min, m->int_min);
    ck_assert_int_eq(g->int_max, m->int_max);
    ck_assert(g->num_min == m->num_min);
    ck_assert(g->num_max == m->num_max);
    ck_assert_uint_eq(g->str_enum_count, m->str_enum_count);
    for (i = 0; i < g->str_enum_count; i++)
        ck_assert_str_eq(g->str_enum[i], m->str_enum[i]);
    ck_assert_uint_eq(g->int_enum_count, m->int_enum_count);
    for (i = 0; i < g->int_enum_count; i++)
        ck_assert_int_eq(g->int_enum[i], m->int_enum[i]);
    ck_assert_uint_eq(g->item_size, m->item_size);
    ck_assert_uint_eq(g->min_items, m->min_items);
    ck_assert_uint_eq(g->max_items, m->max_items);
    ck_assert_int_eq(g->items == NULL, m->items == NULL);
    if (g->items)
        same_node(g->items, m->items, typed);
    ck_assert_uint_eq(g->struct_size, m->struct_size);
    ck_assert_uint_eq(g->types, m->types);
    ck_assert_uint_eq(g->alt_count, m->alt_count);
    for (i = 0; i < g->alt_count; i++)
        same_node(&g->alts[i], &m->alts[i], 0);
    same_fields(g, m, typed);
}

START_TEST(test_tables_equal_in_memory)
{
    toolgov__diag d;
    toolgov__manifest *m;
    toolgov__arena a;
    toolgov__schema_ctx cx;
    const toolgov_arg_schema *mem;
    toolgov__diag_init(&d, stderr, 0);
    m = toolgov__manifest_load(TOOLGOV_PARAMS_MANIFEST, &d);
    ck_assert_ptr_nonnull(m);
    toolgov__arena_init(&a);
    cx.arena = &a;
    cx.d = &d;
    cx.path = m->path;
    cx.tool = NULL;
    cx.oom = 0;
    ck_assert_int_eq(toolgov__schema_tables(&cx, m->tools[0].params, &mem), 0);
    same_node(planner_toolgov_plugin.tools[0].params, mem, 1);
    ck_assert_ptr_null(planner_toolgov_plugin.tools[1].params);
    /* A tool whose tables are partly shared: still equal to its own
    ** in-memory tables, node for node. */
    ck_assert_int_eq(toolgov__schema_tables(&cx, m->tools[2].params, &mem), 0);
    same_node(planner_toolgov_plugin.tools[2].params, mem, 1);
    ck_assert_uint_eq(planner_toolgov_plugin.tools[0].size, sizeof(toolgov_tool_spec));
    toolgov__arena_free(&a);
    toolgov__manifest_free(m);
}
END_TEST

START_TEST(test_decode_into_generated_struct)
{
    static const char call_text[] =
        "{\"title\":\"Dentist\",\"date\":\"2026-03-12\",\"time\":\"09:30\",\"tags\":[\"a\",\"bc\"],"
        "\"stops\":[{\"at\":\"2026-03-12T09:00:00Z\",\"mode\":\"on-foot\"},{\"at\":\"2026-03-12T10:00:00Z\"}],"
        "\"grid\":[[1,2],[3]],\"where\":{\"lat\":45.5,\"class\":true},\"extra\":{\"k\":[1, 2]},"
        "\"start-date\":\"2026-01-02\",\"default\":\"a@b.co\",\"level\":2,\"ratio\":0.25}";
    toolgov_args_decoder *dec;
    toolgov_decoded_args out;
    const planner_Args_create_reminder *a;
    const toolgov_tool_spec *spec = &planner_toolgov_plugin.tools[0];
    ck_assert_int_eq(toolgov_args_decoder_new(&dec, NULL), 0);
    ck_assert_int_eq(toolgov_args_decode(&out, dec, spec->params, spec->name, call_text,
                                         strlen(call_text)), 0);
    a = out.args;
    ck_assert_uint_eq(a->title.len, 7);
    ck_assert_int_eq(memcmp(a->title.ptr, "Dentist", 7), 0);
    ck_assert_int_eq(a->priority, planner_Enum_create_reminder_priority_normal); /* default */
    ck_assert_int_eq(a->minutes_before, 0);
    ck_assert_int_eq(a->level, 2);
    ck_assert(a->ratio == 0.25);
    ck_assert_int_eq(a->urgent, 0);
    ck_assert_uint_eq(a->tags.count, 2);
    ck_assert_uint_eq(a->tags.items[1].len, 2);
    ck_assert_uint_eq(a->stops.count, 2);
    ck_assert_int_eq(a->stops.items[0].has.mode, 1);
    ck_assert_int_eq(a->stops.items[0].mode, planner_Enum_create_reminder_stops_item_mode_on_foot);
    ck_assert_int_eq(a->stops.items[1].has.mode, 0);
    ck_assert_uint_eq(a->grid.count, 2);
    ck_assert_uint_eq(a->grid.items[0].count, 2);
    ck_assert(((const double *)a->grid.items[0].items)[1] == 2.0);
    ck_assert_int_eq(a->has.where, 1);
    ck_assert(a->where.lat == 45.5);
    ck_assert_int_eq(a->where.has.class_, 1);
    ck_assert_int_eq(a->where.class_, 1);
    ck_assert_int_eq(a->has.extra, 1);
    ck_assert_str_eq(a->extra.ptr, "{\"k\":[1,2]}");
    ck_assert_int_eq(a->has.start_date, 1);
    ck_assert_int_eq(a->has.default_, 1);
    ck_assert_str_eq(a->default_.ptr, "a@b.co");
    ck_assert_int_eq(a->has.anything, 0);
    /* A bad call names every problem with its JSON path. */
    ck_assert_int_eq(toolgov_args_decode(&out, dec, spec->params, spec->name,
                                         "{\"date\":\"12/03/2026\",\"time\":\"9am\"}", 34),
                     TOOLGOV_EARGS);
    ck_assert_ptr_nonnull(strstr(out.message, "/date"));
    ck_assert_ptr_nonnull(strstr(out.message, "/title"));
    /* The tool without parameters takes {} only. */
    ck_assert_int_eq(toolgov_args_decode(&out, dec, NULL, "list_reminders", "{}", 2), 0);
    ck_assert_int_eq(toolgov_args_decode(&out, dec, NULL, "list_reminders", "{\"x\":1}", 7),
                     TOOLGOV_EARGS);
    toolgov_args_decoder_free(dec);
}
END_TEST

/* Tables shared across tools: postpone_reminder has snooze_reminder's
** parameters (one root), and both share the stops items' field array with
** create_reminder, whose struct gave its offsets; every call still lands in
** the tool's own struct, member for member. */
START_TEST(test_decode_through_shared_tables)
{
    static const char call_text[] =
        "{\"title\":\"Dentist\",\"stops\":[{\"at\":\"2026-03-12T09:00:00Z\",\"mode\":\"drive\"},"
        "{\"at\":\"2026-03-12T10:00:00Z\"}],\"minutes\":15}";
    const toolgov_tool_spec *snooze = &planner_toolgov_plugin.tools[2];
    const toolgov_tool_spec *postpone = &planner_toolgov_plugin.tools[3];
    const toolgov_tool_spec *create = &planner_toolgov_plugin.tools[0];
    toolgov_args_decoder *dec;
    toolgov_decoded_args out;
    const planner_Args_postpone_reminder *a;
    size_t i;
    ck_assert_str_eq(postpone->name, "postpone_reminder");
    ck_assert_ptr_eq(postpone->params, snooze->params);
    ck_assert_ptr_eq(postpone->schema_json, snooze->schema_json);
    ck_assert_ptr_ne(snooze->params, create->params);
    /* The stops array node is create_reminder's. */
    for (i = 0; i < create->params->field_count; i++)
        if (strcmp(create->params->fields[i].name, "stops") == 0)
            break;
    ck_assert_uint_lt(i, create->params->field_count);
    ck_assert_ptr_eq(snooze->params->fields[2].schema, create->params->fields[i].schema);
    ck_assert_int_eq(toolgov_args_decoder_new(&dec, NULL), 0);
    ck_assert_int_eq(toolgov_args_decode(&out, dec, postpone->params, postpone->name, call_text,
                                         strlen(call_text)), 0);
    a = out.args;
    ck_assert_uint_eq(a->title.len, 7);
    ck_assert_int_eq(memcmp(a->title.ptr, "Dentist", 7), 0);
    ck_assert_int_eq(a->priority, planner_Enum_postpone_reminder_priority_normal);
    ck_assert_int_eq(a->has.minutes, 1);
    ck_assert_int_eq(a->minutes, 15);
    ck_assert_int_eq(a->has.stops, 1);
    ck_assert_uint_eq(a->stops.count, 2);
    ck_assert_uint_eq(a->stops.items[0].at.len, 20);
    ck_assert_int_eq(a->stops.items[0].has.mode, 1);
    ck_assert_int_eq(a->stops.items[0].mode, planner_Enum_postpone_reminder_stops_item_mode_drive);
    ck_assert_int_eq(a->stops.items[1].has.mode, 0);
    ck_assert_int_eq(memcmp(a->stops.items[1].at.ptr, "2026-03-12T10:00:00Z", 20), 0);
    toolgov_args_decoder_free(dec);
}
END_TEST

/* The nulsafe plugin's handlers: lengths, never ptr as C text. */
NULSAFE_TOOLGOV_HANDLER(store_blob, call, args, out)
{
    (void)call;
    return toolgov_result_printf(out, "%.*s: %lu bytes", (int)args->label.len, args->label.ptr,
                                 (unsigned long)args->payload.len);
}

NULSAFE_TOOLGOV_HANDLER(find_blob, call, args, out)
{
    (void)call;
    return toolgov_result_printf(out, "%.*s", (int)args->label.len, args->label.ptr);
}

/* allow_nul: [payload]: that string takes a NUL and keeps every byte; the
** tool's other string, and the other tool's, still refuse one; the
** generated tables equal the in-memory ones (the flag included). */
START_TEST(test_allow_nul_opt_in)
{
    static const char ok[] = "{\"label\":\"a\",\"payload\":\"x\\u0000spam\"}";
    static const char bad_label[] = "{\"label\":\"\\u0000spam\",\"payload\":\"x\"}";
    static const char bad_find[] = "{\"label\":\"\\u0000spam\"}";
    const toolgov_tool_spec *store = &nulsafe_toolgov_plugin.tools[0];
    const toolgov_tool_spec *find = &nulsafe_toolgov_plugin.tools[1];
    const nulsafe_Args_store_blob *a;
    toolgov_args_decoder *dec;
    toolgov_decoded_args out;
    toolgov__diag d;
    toolgov__manifest *m;
    toolgov__arena ar;
    toolgov__schema_ctx cx;
    const toolgov_arg_schema *mem;
    char path[4096];

    ck_assert_str_eq(store->name, "store_blob");
    ck_assert_str_eq(store->params->fields[1].name, "payload");
    ck_assert_uint_ne(store->params->fields[1].schema->flags & TOOLGOV_ARG_F_ALLOW_NUL, 0);
    ck_assert_uint_eq(store->params->fields[0].schema->flags & TOOLGOV_ARG_F_ALLOW_NUL, 0);
    ck_assert_uint_eq(find->params->fields[0].schema->flags & TOOLGOV_ARG_F_ALLOW_NUL, 0);
    /* the schema text the model sees does not carry the opt-in */
    ck_assert_ptr_null(strstr(store->schema_json, "nul"));

    ck_assert_int_eq(toolgov_args_decoder_new(&dec, NULL), 0);
    ck_assert_int_eq(toolgov_args_decode(&out, dec, store->params, store->name, ok, strlen(ok)),
                     0);
    a = out.args;
    ck_assert_uint_eq(a->payload.len, 6);
    ck_assert_int_eq(memcmp(a->payload.ptr, "x\0spam", 6), 0);
    ck_assert_int_eq(toolgov_args_decode(&out, dec, store->params, store->name, bad_label,
                                         strlen(bad_label)),
                     TOOLGOV_EARGS);
    ck_assert_ptr_nonnull(strstr(out.message, "/label"));
    ck_assert_ptr_nonnull(strstr(out.message, "NUL"));
    ck_assert_int_eq(toolgov_args_decode(&out, dec, find->params, find->name, bad_find,
                                         strlen(bad_find)),
                     TOOLGOV_EARGS);
    ck_assert_ptr_nonnull(strstr(out.message, "NUL"));
    toolgov_args_decoder_free(dec);

    snprintf(path, sizeof path, "%s/tests/gen/manifests/nulsafe.yaml", TOOLGOV_SOURCE_DIR);
    toolgov__diag_init(&d, stderr, 0);
    m = toolgov__manifest_load(path, &d);
    ck_assert_ptr_nonnull(m);
    toolgov__arena_init(&ar);
    memset(&cx, 0, sizeof cx);
    cx.arena = &ar;
    cx.d = &d;
    cx.path = m->path;
    ck_assert_int_eq(toolgov__schema_tables(&cx, m->tools[0].params, &mem), 0);
    same_node(store->params, mem, 1);
    toolgov__arena_free(&ar);
    toolgov__manifest_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("params_decode");
    TCase *tc = tcase_create("generated");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, test_tables_equal_in_memory);
    tcase_add_test(tc, test_decode_into_generated_struct);
    tcase_add_test(tc, test_decode_through_shared_tables);
    tcase_add_test(tc, test_allow_nul_opt_in);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
