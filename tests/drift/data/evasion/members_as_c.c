#include "demo.toolgov.h"

/* A registration in every kind of C++ body the check must read. */
static toolgov_plugin_api *api;

struct Reg {
    Reg() { toolgov_register_tool(api, "in_ctor", "d", demo_tool_alpha); }
    ~Reg() { toolgov_register_tool(api, "in_dtor", "d", demo_tool_alpha); }
    void member() { toolgov_register_tool(api, "in_member", "d", demo_tool_alpha); }
    static int at_class_scope;
    int field = toolgov_register_tool(api, "in_field_init", "d", demo_tool_alpha);
    operator int() { return toolgov_register_tool(api, "in_conversion", "d", demo_tool_alpha); }
};
int Reg::at_class_scope = toolgov_register_tool(api, "in_static_member", "d", demo_tool_alpha);

template <typename T> int in_template(T)
{
    return toolgov_register_tool(api, "in_function_template", "d", demo_tool_alpha);
}
template int in_template<int>(int);

template <typename T> struct Box {
    int put() { return toolgov_register_tool(api, "in_class_template", "d", demo_tool_alpha); }
    static int reg(T t) { return toolgov_register_tool(api, t.name(), "d", demo_tool_alpha); }
};
struct Named {
    const char *name() const { return "named"; }
};
template struct Box<Named>;

namespace ns {
inline int lambda()
{
    auto f = [] { return toolgov_register_tool(api, "in_lambda", "d", demo_tool_alpha); };
    return f();
}
} // namespace ns
