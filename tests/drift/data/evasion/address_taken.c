#include "demo.toolgov.h"

typedef int (*register_fn)(toolgov_plugin_api *, const char *, const char *, toolgov_handler_fn);

int demo_register_indirect(toolgov_plugin_api *api);
int demo_register_indirect(toolgov_plugin_api *api)
{
    register_fn reg = toolgov_register_tool;
    return reg(api, "never_declared", "d", demo_tool_alpha);
}
