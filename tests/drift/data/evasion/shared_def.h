#include "demo.toolgov.h"

/* A handler defined in a header: every source including it defines it. */
DEMO_TOOLGOV_HANDLER(alpha, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
