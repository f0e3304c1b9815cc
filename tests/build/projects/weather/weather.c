#include <string.h>

#include "weather.toolgov.h"
#include "weather_units.h"

TOOLGOV_HANDLER(forecast, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "sunny, 21 %s", WEATHER_UNIT);
}

TOOLGOV_HANDLER(set_units, call, out)
{
    if (strstr(call->args, "imperial"))
        return toolgov_result_printf(out, "units: imperial");
    return toolgov_result_printf(out, "units: metric");
}
