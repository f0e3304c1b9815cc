/* SPDX-License-Identifier: MIT */
/*
** dump_rule_cases.c: writes the generator's own rule cases (the bad_cases
** table of tests/gen/test_manifest.c, compiled in as it is) to a directory,
** one file per case, so the manifest-schema test can judge each one with
** the schema and with toolgov-gen. The table is the generator's test of
** record; including it keeps one copy of every case.
**
**   dump_rule_cases DIR      writes DIR/NNN.yaml and DIR/index.tsv
**                            (file, tab, the case's description)
*/
#define main toolgov_test_manifest_main
#include "test_manifest.c"
#undef main

int main(int argc, char **argv);

int main(int argc, char **argv)
{
    size_t i, n = sizeof bad_cases / sizeof bad_cases[0];
    char path[4096];
    FILE *index;
    if (argc != 2) {
        fputs("usage: dump_rule_cases DIR\n", stderr);
        return 2;
    }
    snprintf(path, sizeof path, "%s/index.tsv", argv[1]);
    index = fopen(path, "w");
    if (!index) {
        perror(path);
        return 1;
    }
    for (i = 0; i < n; i++) {
        const bad_case *c = &bad_cases[i];
        size_t len = c->len ? c->len : strlen(c->yaml);
        FILE *f;
        snprintf(path, sizeof path, "%s/%03zu.yaml", argv[1], i);
        f = fopen(path, "wb");
        if (!f || fwrite(c->yaml, 1, len, f) != len || fclose(f) != 0) {
            perror(path);
            return 1;
        }
        fprintf(index, "%03zu.yaml\t%s\n", i, c->what);
    }
    if (fclose(index) != 0)
        return 1;
    (void)toolgov_test_manifest_main;
    return 0;
}
