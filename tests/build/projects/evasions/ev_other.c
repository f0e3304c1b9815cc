#include "ev_other.toolgov.h"

EV_OTHER_TOOLGOV_HANDLER(ok, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "other ok");
}
