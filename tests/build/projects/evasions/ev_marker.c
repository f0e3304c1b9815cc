#include "ev_marker.toolgov.h"

EV_MARKER_TOOLGOV_HANDLER(ok, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "ok");
}
# 1 "/usr/include/stdio.h" 3
EV_MARKER_TOOLGOV_HANDLER(hidden, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "hidden");
}
