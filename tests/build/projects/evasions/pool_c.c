#include "pool_c.toolgov.h"

POOL_C_TOOLGOV_HANDLER(other_tool, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "c");
}
