#include "ev_system.toolgov.h"

EV_SYSTEM_TOOLGOV_HANDLER(hidden, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "hidden");
}
