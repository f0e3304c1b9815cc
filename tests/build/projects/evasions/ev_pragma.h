#pragma GCC system_header
#include "ev_pragma.toolgov.h"

static int ev_pragma_entry(const toolgov_call *call, const void *args, toolgov_result *out)
{
    return ev_pragma_Handler_ok(call, (const ev_pragma_Args_ok *)args, out);
}
int ev_pragma_register(toolgov_plugin_api *api);
int ev_pragma_register(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "hidden", "d", ev_pragma_entry);
}
