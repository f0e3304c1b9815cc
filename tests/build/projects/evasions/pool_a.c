#include "pool_a.toolgov.h"

TOOLGOV_HANDLER(shared_tool, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "a");
}
