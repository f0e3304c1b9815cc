#include "ev_flags.toolgov.h"

EV_FLAGS_TOOLGOV_HANDLER(hidden_d, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "d");
}
