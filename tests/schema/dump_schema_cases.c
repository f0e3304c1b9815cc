/* SPDX-License-Identifier: MIT */
/*
** dump_schema_cases.c: writes the parameters rule cases of the generator's
** own suite (the bad_cases table of tests/gen/test_schema.c, compiled in as
** it is) as manifests, one file per case, each case's schema being the
** `parameters:` of one tool, so the manifest-schema test can judge them with
** the schema and with toolgov-gen.
**
**   dump_schema_cases DIR    writes DIR/schema-NNN.yaml and DIR/schema-index.tsv
*/
#define main toolgov_test_schema_main
#include "test_schema.c"
#undef main

int main(int argc, char **argv);

int main(int argc, char **argv)
{
    size_t i, n = sizeof bad_cases / sizeof bad_cases[0];
    char path[4096];
    FILE *index;
    if (argc != 2) {
        fputs("usage: dump_schema_cases DIR\n", stderr);
        return 2;
    }
    snprintf(path, sizeof path, "%s/schema-index.tsv", argv[1]);
    index = fopen(path, "w");
    if (!index) {
        perror(path);
        return 1;
    }
    for (i = 0; i < n; i++) {
        const bad_case *c = &bad_cases[i];
        const char *p;
        FILE *f;
        snprintf(path, sizeof path, "%s/schema-%03zu.yaml", argv[1], i);
        f = fopen(path, "wb");
        if (!f) {
            perror(path);
            return 1;
        }
        /* JSON is YAML's flow syntax: the schema goes in as written, on one
        ** line (a line break inside a flow mapping would need indenting). */
        fputs("name: p\nprovides: [tool]\ntools:\n  t:\n    effect: read\n"
              "    description: x\n    parameters: ", f);
        for (p = c->json; *p; p++)
            fputc(*p == '\n' ? ' ' : *p, f);
        fputc('\n', f);
        if (fclose(f) != 0)
            return 1;
        fprintf(index, "schema-%03zu.yaml\t%s\n", i, c->what);
    }
    if (fclose(index) != 0)
        return 1;
    (void)toolgov_test_schema_main;
    return 0;
}
