#include "demo.toolgov.h"

/* demo's handler symbol and mark, but not the type the header declares:
** the registry would call it through a wrapper that passes the decoded
** arguments as demo_Args_alpha. */
__attribute__((annotate("toolgov:tool:alpha")))
int demo_Handler_alpha(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
