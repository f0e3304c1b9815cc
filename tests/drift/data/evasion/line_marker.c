#include "demo.toolgov.h"
# 1 "/usr/include/stdio.h" 3
/* Everything below claims to be a system header. */
TOOLGOV_HANDLER(hidden, call, out)
{
    (void)call;
    return toolgov_result_set(out, "h", 1);
}

int demo_register_hidden(toolgov_plugin_api *api);
int demo_register_hidden(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "hidden_call", "d", demo_tool_hidden);
}
