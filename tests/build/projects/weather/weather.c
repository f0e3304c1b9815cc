#include <string.h>

#include "weather.toolgov.h"
#include "weather_units.h"

WEATHER_TOOLGOV_HANDLER(forecast, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "sunny, 21 %s", WEATHER_UNIT);
}

WEATHER_TOOLGOV_HANDLER(set_units, call, args, out)
{
    (void)args;
    if (strstr(call->args, "imperial"))
        return toolgov_result_printf(out, "units: imperial");
    return toolgov_result_printf(out, "units: metric");
}
