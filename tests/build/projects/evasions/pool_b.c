#include "pool_b.toolgov.h"

TOOLGOV_HANDLER(own_tool, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "b own");
}

TOOLGOV_HANDLER(shared_tool, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "b");
}
