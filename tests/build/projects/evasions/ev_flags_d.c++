#include "ev_flags.toolgov.h"

TOOLGOV_HANDLER(hidden_d, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "d");
}
