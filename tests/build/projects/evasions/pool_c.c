#include "pool_c.toolgov.h"

TOOLGOV_HANDLER(other_tool, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "c");
}
