#include "ev_marker.toolgov.h"

TOOLGOV_HANDLER(ok, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "ok");
}
# 1 "/usr/include/stdio.h" 3
TOOLGOV_HANDLER(hidden, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "hidden");
}
