#include "tides.toolgov.h"

TOOLGOV_HANDLER(tide_table, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "high 06:12, low 12:30");
}
