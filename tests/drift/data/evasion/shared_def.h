#include "demo.toolgov.h"

/* A handler defined in a header: every source including it defines it. */
TOOLGOV_HANDLER(alpha, call, out)
{
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
