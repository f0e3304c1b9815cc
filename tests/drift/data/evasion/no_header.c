#include <toolgov/toolgov.h>

/* The generated header is not included: TOOLGOV_HANDLER is no macro here. */
TOOLGOV_HANDLER(alpha, call, out)
{
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
