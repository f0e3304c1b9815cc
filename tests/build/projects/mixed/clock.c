#include "clock.toolgov.h"

#ifndef CLOCK_FROM_CFLAGS
#error CLOCK_FROM_CFLAGS comes from CMAKE_C_FLAGS
#endif
#if !defined(CLOCK_DEBUG) && !defined(CLOCK_RELEASE)
#error CLOCK_DEBUG (Debug) or CLOCK_RELEASE (CMAKE_C_FLAGS_RELEASE) must be defined
#endif

CLOCK_TOOLGOV_HANDLER(now, call, args, out)
{
    (void)args;
    (void)call;
#ifdef CLOCK_DEBUG
    return toolgov_result_printf(out, "noon (debug)");
#else
    return toolgov_result_printf(out, "noon");
#endif
}
