#include "demo.toolgov.h"
# 1 "/usr/include/stdio.h" 3
/* Everything below claims to be a system header. */
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

int demo_register_hidden(toolgov_plugin_api *api);
int demo_register_hidden(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "hidden_call", "d", demo_entry);
}
