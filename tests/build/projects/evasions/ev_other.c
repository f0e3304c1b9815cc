#include "ev_other.toolgov.h"

TOOLGOV_HANDLER(ok, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "other ok");
}
