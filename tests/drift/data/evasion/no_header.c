#include <toolgov/toolgov.h>

/* The generated header is not included: DEMO_TOOLGOV_HANDLER is no macro here. */
DEMO_TOOLGOV_HANDLER(alpha, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
