#include "ev_system.toolgov.h"

TOOLGOV_HANDLER(hidden, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "hidden");
}
