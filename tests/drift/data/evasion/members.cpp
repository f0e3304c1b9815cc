#include "demo.toolgov.h"

/* A registration in every kind of C++ body the check must read. */
static toolgov_plugin_api *api;
static int demo_entry(const toolgov_call *, const void *, toolgov_result *out)
{
    return toolgov_result_set(out, "e", 1);
}

struct Reg {
    Reg() { toolgov_register_tool(api, "in_ctor", "d", demo_entry); }
    ~Reg() { toolgov_register_tool(api, "in_dtor", "d", demo_entry); }
    void member() { toolgov_register_tool(api, "in_member", "d", demo_entry); }
    static int at_class_scope;
    int field = toolgov_register_tool(api, "in_field_init", "d", demo_entry);
    operator int() { return toolgov_register_tool(api, "in_conversion", "d", demo_entry); }
};
int Reg::at_class_scope = toolgov_register_tool(api, "in_static_member", "d", demo_entry);

template <typename T> int in_template(T)
{
    return toolgov_register_tool(api, "in_function_template", "d", demo_entry);
}
template int in_template<int>(int);

template <typename T> struct Box {
    int put() { return toolgov_register_tool(api, "in_class_template", "d", demo_entry); }
    static int reg(T t) { return toolgov_register_tool(api, t.name(), "d", demo_entry); }
};
struct Named {
    const char *name() const { return "named"; }
};
template struct Box<Named>;

namespace ns {
inline int lambda()
{
    auto f = [] { return toolgov_register_tool(api, "in_lambda", "d", demo_entry); };
    return f();
}
} // namespace ns

/* The API itself a template argument: the call is dependent, its name a
** literal all the same. */
template <typename Api> int sneaky(Api *a)
{
    return toolgov_register_tool(a, "sneaky_template", "d", demo_entry);
}
template int sneaky<toolgov_plugin_api>(toolgov_plugin_api *);
template <typename Api> int sneaky_joined(Api *a)
{
    return toolgov_register_tool(a, "sneaky_" "joined", "d", demo_entry);
}
template <typename Api> int sneaky_paren(Api *a)
{
    return (toolgov_register_tool)(a, ("sneaky_paren"), "d", demo_entry);
}
