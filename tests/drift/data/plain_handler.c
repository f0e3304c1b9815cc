#include "demo.toolgov.h"

/* The handler's symbol, written out by hand instead of with the macro. */
int demo_Handler_alpha(const toolgov_call *call, const demo_Args_alpha *args, toolgov_result *out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}

DEMO_TOOLGOV_HANDLER(beta, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "b", 1);
}

/* Not a handler at all. */
int demo_helper(void);
int demo_helper(void)
{
    return 0;
}
