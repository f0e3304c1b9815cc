#include "demo.toolgov.h"

DEMO_TOOLGOV_HANDLER(alpha, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}

/* A project macro on top of the toolgov one. */
#define SIMPLE_TOOL(name, text)                                                \
    DEMO_TOOLGOV_HANDLER(name, call, args, out)                                \
    {                                                                          \
        (void)args;                                                            \
        (void)call;                                                            \
        return toolgov_result_set(out, text, sizeof text - 1);                 \
    }

SIMPLE_TOOL(beta, "b")
SIMPLE_TOOL(gamma, "c")
