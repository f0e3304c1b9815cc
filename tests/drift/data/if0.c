#include "demo.toolgov.h"

#if 0
TOOLGOV_HANDLER(alpha, call, out)
{
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
#endif

TOOLGOV_HANDLER(beta, call, out)
{
    (void)call;
    return toolgov_result_set(out, "b", 1);
}
