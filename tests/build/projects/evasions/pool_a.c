#include "pool_a.toolgov.h"

POOL_A_TOOLGOV_HANDLER(shared_tool, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "a");
}
