#include "demo.toolgov.h"
#include "other.toolgov.h"

/* Meant as demo's alpha, but the macro is the other plugin's now. */
OTHER_TOOLGOV_HANDLER(alpha, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "a", 1);
}
