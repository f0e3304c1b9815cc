#include "demo.toolgov.h"

/* An annotated prototype, then the definition: one handler. */
__attribute__((annotate("toolgov:tool:alpha")))
int demo_Handler_alpha(const toolgov_call *call, const demo_Args_alpha *args, toolgov_result *out);

DEMO_TOOLGOV_HANDLER(alpha, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}

/* An annotated prototype with no definition anywhere: not a handler. */
__attribute__((annotate("toolgov:tool:ghost")))
int demo_Handler_ghost(const toolgov_call *call, const void *args, toolgov_result *out);
