#include "demo.toolgov.h"
int demo_Handler_alpha(call, out)
    const toolgov_call *call;
    toolgov_result *out;
{
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
