#include <ev_system_extra.h>

TOOLGOV_HANDLER(ok, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "ok");
}
