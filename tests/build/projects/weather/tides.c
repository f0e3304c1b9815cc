#include "tides.toolgov.h"

TIDES_TOOLGOV_HANDLER(tide_table, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "high 06:12, low 12:30");
}
