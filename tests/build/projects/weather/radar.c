#include "weather.toolgov.h"

WEATHER_TOOLGOV_HANDLER(radar, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "no rain in sight");
}
