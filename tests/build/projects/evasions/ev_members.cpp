#include "ev_members.toolgov.h"

TOOLGOV_HANDLER(ok, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "ok");
}

namespace {
struct Registrar {
    explicit Registrar(toolgov_plugin_api *api)
    {
        toolgov_register_tool(api, "in_ctor", "d", ev_members_tool_ok);
    }
    template <typename T> int again(toolgov_plugin_api *api, T)
    {
        return toolgov_register_tool(api, "in_template", "d", ev_members_tool_ok);
    }
};
} // namespace

int ev_members_register(toolgov_plugin_api *api);
int ev_members_register(toolgov_plugin_api *api)
{
    Registrar r(api);
    return r.again(api, 1);
}
