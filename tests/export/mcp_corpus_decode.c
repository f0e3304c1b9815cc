/* SPDX-License-Identifier: MIT */
/*
** mcp_corpus_decode.c: decodes calls of a generated plugin's tools through
** its generated descriptor tables with the runtime's decoder, for
** check_mcp_corpus.py. Built with -DPLUGIN_HEADER="NAME.toolgov.h" and
** -DPLUGIN=NAME_toolgov_plugin. Reads lines "INDEX<TAB>ARGUMENTS" on stdin
** (INDEX: the tool's index in the manifest) and prints one line per call,
** "RC<TAB>TEXT": 0 and the canonical arguments, EARGS and the message
** (TOOLGOV_EARGS), or another status and nothing.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include PLUGIN_HEADER

int main(void)
{
    static char line[1 << 20];
    toolgov_args_decoder *dec;

    if (toolgov_args_decoder_new(&dec, NULL) != 0)
        return 1;
    while (fgets(line, sizeof line, stdin)) {
        char *tab = strchr(line, '\t'), *end;
        unsigned long i = strtoul(line, &end, 10);
        size_t len;
        const toolgov_tool_spec *spec;
        toolgov_decoded_args out;
        int rc;

        if (!tab || end != tab || i >= PLUGIN.tool_count) {
            fprintf(stderr, "bad input line: %s", line);
            return 1;
        }
        len = strlen(tab + 1);
        if (len && tab[len] == '\n')
            len--;
        spec = &PLUGIN.tools[i];
        rc = toolgov_args_decode(&out, dec, spec->params, spec->name, tab + 1, len);
        if (rc == TOOLGOV_EARGS)
            printf("EARGS\t%s\n", out.message);
        else
            printf("%d\t%s\n", rc, rc == 0 ? out.canonical : "");
    }
    toolgov_args_decoder_free(dec);
    return 0;
}
