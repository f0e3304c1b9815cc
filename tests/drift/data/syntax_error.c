#include "demo.toolgov.h"

DEMO_TOOLGOV_HANDLER(alpha, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1)
}

DEMO_TOOLGOV_HANDLER(beta, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "b", 1);
}
