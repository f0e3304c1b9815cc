/* SPDX-License-Identifier: MIT */
#include "clock.toolgov.h"

TOOLGOV_HANDLER(clock_now, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "noon");
}
