#include "ev_shared.toolgov.h"

TOOLGOV_HANDLER(ok, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "ok");
}
