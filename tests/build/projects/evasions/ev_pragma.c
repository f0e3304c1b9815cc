#include "ev_pragma.h"

EV_PRAGMA_TOOLGOV_HANDLER(ok, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "ok");
}
