#include "demo.toolgov.h"

/* Exists only with this source's own definition. */
#if PER_SOURCE_ON
TOOLGOV_HANDLER(alpha, call, out)
{
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
#endif
