#include "demo.toolgov.h"
#pragma clang attribute push(__attribute__((annotate("toolgov:tool:alpha"))), apply_to = function)
int demo_helper(int x);
int demo_helper(int x) { return x; }
#pragma clang attribute pop
DEMO_TOOLGOV_HANDLER(alpha, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
