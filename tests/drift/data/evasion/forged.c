#include "demo.toolgov.h"

/* Marks written by hand on things that are not demo's handlers. */
__attribute__((annotate("toolgov:tool:alpha")))
int demo_helper(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)call;
    return toolgov_result_set(out, "a", 1);
}

__attribute__((annotate("toolgov:tool:beta"))) static const int demo_marked = 1;

/* The right name, but the linker sees another symbol. */
__attribute__((annotate("toolgov:tool:gamma")))
int demo_Handler_gamma(const toolgov_call *call, const demo_Args_gamma *args, toolgov_result *out) __asm__("demo_renamed");

DEMO_TOOLGOV_HANDLER(gamma, call, args, out)
{
    (void)args;
    (void)call;
    (void)demo_marked;
    return toolgov_result_set(out, "c", 1);
}
