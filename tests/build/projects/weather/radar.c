#include "weather.toolgov.h"

TOOLGOV_HANDLER(radar, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "no rain in sight");
}
