#pragma GCC system_header
#include "demo.toolgov.h"

DEMO_TOOLGOV_HANDLER(hidden, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "h", 1);
}

/* An entry of the runtime's handler type, for registering by hand. */
static int demo_entry(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "e", 1);
}

static inline int demo_register_hidden(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "hidden_call", "d", demo_entry);
}
