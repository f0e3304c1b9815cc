/* SPDX-License-Identifier: MIT */
/*
** test_roundtrip.c: every byte of every manifest string survives C
** escaping. The build generates tests/gen/manifests/strings.yaml with the
** freshly built toolgov-gen and compiles the result into this program; the
** strings read back from strings_toolgov_plugin.tools[i] must equal (1) the
** bytes written out here by hand and (2) what libyaml itself reads from the
** manifest, independently of the generator's loader. Mounting the plugin
** into a registry must hand out the same spec.
*/
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "strings.toolgov.h"

static char long_guidance[4097];

static void build_long_guidance(void)
{
    size_t o = 0;
    int i;
    char line[128];
    for (i = 0; o < 4096; i++) {
        int n = snprintf(line, sizeof line,
                         "Line %03d of the long guidance: quotes \" and \\ and ?\?= and */ here.\n", i);
        size_t take = (size_t)n < 4096 - o ? (size_t)n : 4096 - o;
        memcpy(long_guidance + o, line, take);
        o += take;
    }
    long_guidance[4096] = '\0';
}

static const struct {
    const char *name, *description, *guidance;
} expected[] = {
    {"quote_tool",
     "Say \"hi\" to C:\\path\\ and ?\?= ?\?/ ?\?' trigraphs, */ /* and a tab\there.",
     "Line one with a trailing backslash \\\n"
     "Line two: caf\xc3\xa9, \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e, emoji \xf0\x9f\x8e\x89, and ?\? marks?\?!\n"
     "\tindented with a tab\n"},
    {"write_never", "Single-quoted: it's \"fine\" -- 0x41\\x41 stays literal",
     "Ends with a question mark?"},
    {"shred", "Folded text over lines, with \\\\ kept\nand a paragraph break.", ""},
    {"long_guidance", "Has a guidance of exactly 4096 bytes.", NULL /* long_guidance */},
};

START_TEST(test_against_hand_written_bytes)
{
    const toolgov_plugin *p = &strings_toolgov_plugin;
    size_t i;
    build_long_guidance();
    ck_assert_uint_eq(p->abi_version, TOOLGOV_ABI_VERSION);
    ck_assert_str_eq(p->name, "strings");
    ck_assert_str_eq(p->manifest_file, "strings.yaml");
    ck_assert_uint_eq(p->provides_count, 2);
    ck_assert_str_eq(p->provides[0], "tool");
    ck_assert_str_eq(p->provides[1], "skill");
    ck_assert_uint_eq(p->tool_count, strings_ToolCount);
    ck_assert_uint_eq(p->tool_count, 4);
    for (i = 0; i < 4; i++) {
        const toolgov_tool_spec *t = &p->tools[i];
        const char *g = expected[i].guidance ? expected[i].guidance : long_guidance;
        ck_assert_str_eq(t->name, expected[i].name);
        ck_assert_str_eq(t->description, expected[i].description);
        ck_assert_uint_eq(strlen(t->guidance), strlen(g));
        ck_assert_int_eq(memcmp(t->guidance, g, strlen(g)), 0);
    }
    ck_assert_uint_eq(strlen(p->tools[strings_Tool_long_guidance].guidance), 4096);
    ck_assert_int_eq(p->tools[strings_Tool_quote_tool].effect, TOOLGOV_EFFECT_READ);
    ck_assert_int_eq(p->tools[strings_Tool_write_never].effect, TOOLGOV_EFFECT_WRITE);
    ck_assert_int_eq(p->tools[strings_Tool_write_never].confirm, TOOLGOV_CONFIRM_NEVER);
    ck_assert_int_eq(p->tools[strings_Tool_write_never].answers_directly, 1);
    ck_assert_int_eq(p->tools[strings_Tool_shred].effect, TOOLGOV_EFFECT_DESTRUCTIVE);
    ck_assert_int_eq(p->tools[strings_Tool_shred].confirm, TOOLGOV_CONFIRM_NEVER);
    ck_assert_int_eq(p->tools[strings_Tool_shred].pinned, 1);
    ck_assert_int_eq(p->tools[strings_Tool_long_guidance].confirm, TOOLGOV_CONFIRM_ONCE);
    ck_assert_uint_eq(p->tools[strings_Tool_quote_tool].manifest_line, 7);
    ck_assert_uint_eq(p->tools[strings_Tool_quote_tool].manifest_column, 3);
}
END_TEST

/* libyaml's own reading of the manifest: tools.<name>.description/guidance. */
START_TEST(test_against_libyaml)
{
    FILE *f = fopen(TOOLGOV_ROUNDTRIP_MANIFEST, "rb");
    yaml_parser_t parser;
    yaml_event_t ev;
    int depth = 0, done = 0, want_value = 0;
    char tool[128] = "", key[64] = "";
    size_t compared = 0;

    ck_assert_ptr_nonnull(f);
    ck_assert(yaml_parser_initialize(&parser));
    yaml_parser_set_input_file(&parser, f);
    while (!done) {
        ck_assert(yaml_parser_parse(&parser, &ev));
        switch (ev.type) {
        case YAML_MAPPING_START_EVENT:
            depth++;
            want_value = 0;
            break;
        case YAML_MAPPING_END_EVENT:
            depth--;
            want_value = 0;
            break;
        case YAML_SCALAR_EVENT: {
            const char *v = (const char *)ev.data.scalar.value;
            if (depth == 2 && !want_value) {
                snprintf(tool, sizeof tool, "%s", v);
                break; /* the tool's mapping follows */
            }
            if (depth == 3 && !want_value) {
                snprintf(key, sizeof key, "%s", v);
                want_value = 1;
                break;
            }
            if (depth == 3 && want_value) {
                long i = -1;
                size_t k;
                for (k = 0; k < strings_toolgov_plugin.tool_count; k++)
                    if (!strcmp(strings_toolgov_plugin.tools[k].name, tool))
                        i = (long)k;
                ck_assert_int_ge(i, 0);
                if (!strcmp(key, "description") || !strcmp(key, "guidance")) {
                    const char *got = !strcmp(key, "description")
                                          ? strings_toolgov_plugin.tools[i].description
                                          : strings_toolgov_plugin.tools[i].guidance;
                    ck_assert_uint_eq(strlen(got), ev.data.scalar.length);
                    ck_assert_int_eq(memcmp(got, v, ev.data.scalar.length), 0);
                    compared++;
                }
                want_value = 0;
            }
            break;
        }
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    ck_assert_uint_eq(compared, 7); /* 4 descriptions, 3 guidances */
}
END_TEST

START_TEST(test_mounted_spec)
{
    toolgov_registry *reg = NULL;
    const toolgov_tool_spec *t;
    size_t i;
    ck_assert_int_eq(toolgov_registry_new(&reg, NULL), 0);
    ck_assert_int_eq(toolgov_registry_mount(reg, &strings_toolgov_plugin, NULL), 0);
    for (i = 0; i < strings_toolgov_plugin.tool_count; i++) {
        const toolgov_tool_spec *want = &strings_toolgov_plugin.tools[i];
        t = toolgov_registry_find(reg, want->name);
        ck_assert_ptr_nonnull(t);
        ck_assert_str_eq(t->description, want->description);
        ck_assert_str_eq(t->guidance, want->guidance);
        ck_assert_int_eq(t->effect, want->effect);
        ck_assert_int_eq(t->confirm, want->confirm);
        ck_assert_str_eq(toolgov_registry_owner(reg, want->name), "strings");
    }
    toolgov_registry_free(reg);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("roundtrip");
    TCase *tc = tcase_create("roundtrip");
    SRunner *sr;
    int failed;
    tcase_add_test(tc, test_against_hand_written_bytes);
    tcase_add_test(tc, test_against_libyaml);
    tcase_add_test(tc, test_mounted_spec);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
