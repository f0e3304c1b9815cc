#include "demo.toolgov.h"

typedef int (*register_fn)(toolgov_plugin_api *, const char *, const char *, toolgov_handler_fn);

/* An entry of the runtime's handler type, for registering by hand. */
static int demo_entry(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "e", 1);
}

int demo_register_indirect(toolgov_plugin_api *api);
int demo_register_indirect(toolgov_plugin_api *api)
{
    register_fn reg = toolgov_register_tool;
    return reg(api, "never_declared", "d", demo_entry);
}
