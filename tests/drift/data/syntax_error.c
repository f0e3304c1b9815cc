#include "demo.toolgov.h"

TOOLGOV_HANDLER(alpha, call, out)
{
    (void)call;
    return toolgov_result_set(out, "a", 1)
}

TOOLGOV_HANDLER(beta, call, out)
{
    (void)call;
    return toolgov_result_set(out, "b", 1);
}
