#include <toolgov/toolgov.h>

#define NAME_OF(x) #x
#define REGISTER(api, tool, fn) toolgov_register_tool(api, #tool, "d", fn)

int demo_h(const toolgov_call *call, const void *args, toolgov_result *out);
const char *demo_pick(int i);

int demo_register(toolgov_plugin_api *api, int i)
{
    int rc = 0;
    rc |= toolgov_register_tool(api, "plain", "d", demo_h);
    rc |= toolgov_register_tool(api, "con" "cat", "d", demo_h);
    rc |= toolgov_register_tool(api, NAME_OF(stringized), "d", demo_h);
    rc |= (toolgov_register_tool)(api, "parenthesised", "d", demo_h);
    rc |= REGISTER(api, from_macro, demo_h);
    rc |= toolgov_register_tool(api, demo_pick(i), "d", demo_h);
    const toolgov_tool_spec *spec;
    rc |= toolgov_declare_tool(api, "declared_here", &spec);
    return rc;
}
