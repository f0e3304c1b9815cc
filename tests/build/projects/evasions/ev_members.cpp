#include "ev_members.toolgov.h"

EV_MEMBERS_TOOLGOV_HANDLER(ok, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "ok");
}

static int ok_entry(const toolgov_call *call, const void *args, toolgov_result *out)
{
    return ev_members_Handler_ok(call, static_cast<const ev_members_Args_ok *>(args), out);
}

namespace {
struct Registrar {
    explicit Registrar(toolgov_plugin_api *api)
    {
        toolgov_register_tool(api, "in_ctor", "d", ok_entry);
    }
    template <typename T> int again(toolgov_plugin_api *api, T)
    {
        return toolgov_register_tool(api, "in_template", "d", ok_entry);
    }
};
} // namespace

int ev_members_register(toolgov_plugin_api *api);
int ev_members_register(toolgov_plugin_api *api)
{
    Registrar r(api);
    return r.again(api, 1);
}
