/* SPDX-License-Identifier: MIT */
/*
** mcp_greeter.c: a module plugin whose handler keeps its state behind the
** plugin context, as examples/README.md recommends; toolgov-mcp starts it
** through TOOLGOV_MODULE_INIT with the --plugin-config text and stops it
** through TOOLGOV_MODULE_FINI. Configurations the tests use:
**   (none)        greeting "hello"
**   "fail"        refuses to start, saying why
**   "fail-quiet"  refuses to start without a message (returns 7)
**   anything else the greeting
** TOOLGOV_TEST_FINI_LOG names a file the stop entry appends one line to.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/module.h>

#include "mcp_greeter.toolgov.h"

typedef struct greeter {
    char *greeting;
    int calls;
} greeter;

TOOLGOV_MODULE_INIT(ctx, config, config_len, msg, msg_size)
{
    greeter *g;
    if (config && strcmp(config, "fail") == 0) {
        snprintf(msg, msg_size, "the greeting 'fail' is not a greeting");
        return -1;
    }
    if (config && strcmp(config, "fail-quiet") == 0)
        return 7;
    g = calloc(1, sizeof *g);
    if (!g || !(g->greeting = malloc(config ? config_len + 1 : 6))) {
        free(g);
        snprintf(msg, msg_size, "out of memory");
        return -1;
    }
    if (config)
        memcpy(g->greeting, config, config_len + 1);
    else
        memcpy(g->greeting, "hello", 6);
    *ctx = g;
    return 0;
}

TOOLGOV_MODULE_FINI(ctx)
{
    greeter *g = ctx;
    const char *log = getenv("TOOLGOV_TEST_FINI_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "stopped %s after %d calls\n", g ? g->greeting : "(no context)",
                g ? g->calls : 0);
        fclose(f);
    }
    if (g)
        free(g->greeting);
    free(g);
}

MCP_GREETER_TOOLGOV_HANDLER(greet, call, args, out)
{
    greeter *g = call->plugin_ctx;
    (void)args;
    g->calls++;
    return toolgov_result_printf(out, "%s (call %d)", g->greeting, g->calls);
}
