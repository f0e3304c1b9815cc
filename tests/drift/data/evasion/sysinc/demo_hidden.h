#include "demo.toolgov.h"

TOOLGOV_HANDLER(hidden, call, out)
{
    (void)call;
    return toolgov_result_set(out, "h", 1);
}

static inline int demo_register_hidden(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "hidden_call", "d", demo_tool_hidden);
}
