/* SPDX-License-Identifier: MIT */
/*
** system.c: the health of the assistant's services, from a built-in
** snapshot (the example never probes the real machine: the demo must print
** the same on every host).
*/
#include <stdio.h>
#include <string.h>

#include "exargs.h"
#include "exworld.h"
#include "system.toolgov.h"

static const struct {
    const char *component;
    const char *status;  /* ok, degraded, down */
    const char *detail;
} components[] = {
    {"mail_sync", "ok", "last sync 4 minutes ago, 25 messages"},
    {"calendar_sync", "ok", "last sync 2 minutes ago"},
    {"storage", "ok", "62% of 20 GB used"},
    {"research_index", "degraded", "snapshot is 3 days old; refresh scheduled tonight"},
};

#define COMPONENT_COUNT (sizeof components / sizeof components[0])

TOOLGOV_HANDLER(system_health, call, out)
{
    static const exargs_spec spec[] = {{"component", EXARGS_STRING, 0}};
    const char *usage =
        "optional {\"component\": \"mail_sync\" | \"calendar_sync\" | \"storage\" | \"research_index\"}";
    exargs_object args;
    const char *want;
    size_t i, shown = 0, bad = 0;
    int rc;

    if ((rc = exargs_read(&args, call, spec, 1, usage, out)))
        return rc;
    want = exargs_str(&args, "component", NULL);
    for (i = 0; i < COMPONENT_COUNT; i++) {
        if (want && strcmp(want, components[i].component))
            continue;
        if (toolgov_result_printf(out, "- %s: %s (%s)\n", components[i].component,
                                  components[i].status, components[i].detail))
            return TOOLGOV_ENOMEM;
        bad += strcmp(components[i].status, "ok") != 0;
        shown++;
    }
    if (!shown)
        return exargs_usage(out, call->tool, usage, "unknown component '%s'", want);
    if (!want && toolgov_result_printf(out, "%s\n", bad ? "Overall: degraded." : "Overall: ok."))
        return TOOLGOV_ENOMEM;
    return 0;
}
