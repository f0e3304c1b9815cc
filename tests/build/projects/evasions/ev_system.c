#include <ev_system_extra.h>

EV_SYSTEM_TOOLGOV_HANDLER(ok, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "ok");
}
