/* SPDX-License-Identifier: MIT */
/*
** system.c: the health of the assistant's services, from a built-in
** snapshot (the example never probes the real machine: the demo must print
** the same on every host).
*/
#include <stdio.h>
#include <string.h>

#include "exworld.h"
#include "system.toolgov.h"

/* One row per value of the manifest's component enum. */
static const struct {
    system_Enum_system_health_component id;
    const char *component;
    const char *status;  /* ok, degraded, down */
    const char *detail;
} components[] = {
    {system_Enum_system_health_component_mail_sync, "mail_sync", "ok",
     "last sync 4 minutes ago, 25 messages"},
    {system_Enum_system_health_component_calendar_sync, "calendar_sync", "ok",
     "last sync 2 minutes ago"},
    {system_Enum_system_health_component_storage, "storage", "ok", "62% of 20 GB used"},
    {system_Enum_system_health_component_research_index, "research_index", "degraded",
     "snapshot is 3 days old; refresh scheduled tonight"},
};

#define COMPONENT_COUNT (sizeof components / sizeof components[0])

SYSTEM_TOOLGOV_HANDLER(system_health, call, args, out)
{
    int one = args->has.component;
    size_t i, shown = 0, bad = 0;

    for (i = 0; i < COMPONENT_COUNT; i++) {
        if (one && components[i].id != args->component)
            continue;
        if (toolgov_result_printf(out, "- %s: %s (%s)\n", components[i].component,
                                  components[i].status, components[i].detail))
            return TOOLGOV_ENOMEM;
        bad += strcmp(components[i].status, "ok") != 0;
        shown++;
    }
    if (!shown)
        return exworld_refuse(out, call->tool, "unknown component %d", (int)args->component);
    if (!one && toolgov_result_printf(out, "%s\n", bad ? "Overall: degraded." : "Overall: ok."))
        return TOOLGOV_ENOMEM;
    return 0;
}
