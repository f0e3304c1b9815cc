#include "demo.toolgov.h"

/* Exists only with this source's own definition. */
#if PER_SOURCE_ON
DEMO_TOOLGOV_HANDLER(alpha, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
#endif
