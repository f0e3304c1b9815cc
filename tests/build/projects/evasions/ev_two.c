#include "ev_two.toolgov.h"
#include "ev_other.toolgov.h"

/* Meant as ev_two's handler of ok, written with ev_other's macro. */
EV_OTHER_TOOLGOV_HANDLER(ok, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "two ok");
}
