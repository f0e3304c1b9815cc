#pragma GCC system_header
#include "ev_pragma.toolgov.h"

int ev_pragma_register(toolgov_plugin_api *api);
int ev_pragma_register(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "hidden", "d", ev_pragma_tool_ok);
}
