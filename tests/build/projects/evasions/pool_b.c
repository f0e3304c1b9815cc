#include "pool_b.toolgov.h"

POOL_B_TOOLGOV_HANDLER(own_tool, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "b own");
}

POOL_B_TOOLGOV_HANDLER(shared_tool, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "b");
}
