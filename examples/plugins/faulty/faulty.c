/* SPDX-License-Identifier: MIT */
/*
** faulty.c: handlers and a hand-written register function with run-time
** faults that no build step can see (see faulty.h).
**
** The drift check reads literal names in toolgov_register_tool() calls; a
** name computed at run time is beyond it (it says so with a warning), which
** is exactly why the registry checks every registration against the
** manifest table again when the plugin is mounted.
*/
#include <stdio.h>

#include "faulty.h"
#include "faulty.toolgov.h"

/* faulty_echo's parameters take any object (no properties declared,
** additional ones allowed): the handler echoes the canonical text. */
FAULTY_TOOLGOV_HANDLER(faulty_echo, call, args, out)
{
    (void)args;
    return toolgov_result_printf(out, "echo: %s", call->args) ? TOOLGOV_ENOMEM : 0;
}

FAULTY_TOOLGOV_HANDLER(faulty_stale, call, args, out)
{
    (void)call;
    (void)args;
    return toolgov_result_printf(out, "stale") ? TOOLGOV_ENOMEM : 0;
}

FAULTY_TOOLGOV_HANDLER(research, call, args, out)
{
    (void)call;
    (void)args;
    return toolgov_result_printf(out, "faulty research") ? TOOLGOV_ENOMEM : 0;
}

/* Entries of the runtime's handler type, as a hand-written register
** function needs them (the generated ones are static to faulty.toolgov.c). */
static int echo_entry(const toolgov_call *call, const void *args, toolgov_result *out)
{
    return faulty_Handler_faulty_echo(call, args, out);
}

static int research_entry(const toolgov_call *call, const void *args, toolgov_result *out)
{
    return faulty_Handler_research(call, args, out);
}

static int register_by_hand(toolgov_plugin_api *api)
{
    char computed[32];
    int version = 2;

    /* A declared name: enters the pool with the manifest's spec. */
    toolgov_register_tool(api, "faulty_echo", "echo", echo_entry);
    /* A name built at run time, as a plugin that versions its tools might:
    ** the manifest does not declare it, so the registry refuses it. */
    snprintf(computed, sizeof computed, "faulty_echo_v%d", version);
    toolgov_register_tool(api, computed, "echo, second version", echo_entry);
    /* Declared here, but the research plugin owns the name already. */
    toolgov_register_tool(api, "research", "research", research_entry);
    /* faulty_stale is not registered at all. Refusals are drift rows, not
    ** mount failures, so the register function carries on and returns 0. */
    return 0;
}

void faulty_plugin_by_hand(toolgov_plugin *out)
{
    *out = faulty_toolgov_plugin;
    out->register_fn = register_by_hand;
}
