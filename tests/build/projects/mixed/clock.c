#include "clock.toolgov.h"

TOOLGOV_HANDLER(now, call, out)
{
    (void)call;
#ifdef CLOCK_DEBUG
    return toolgov_result_printf(out, "noon (debug)");
#else
    return toolgov_result_printf(out, "noon");
#endif
}
