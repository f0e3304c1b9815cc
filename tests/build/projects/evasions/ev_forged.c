#include "ev_forged.toolgov.h"

EV_FORGED_TOOLGOV_HANDLER(ok, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "ok");
}

#if defined(__clang__)
__attribute__((annotate("toolgov:tool:ok")))
#endif
int ev_forged_helper(const toolgov_call *call, toolgov_result *out);
int ev_forged_helper(const toolgov_call *call, toolgov_result *out)
{
    (void)call;
    return toolgov_result_printf(out, "helper");
}
