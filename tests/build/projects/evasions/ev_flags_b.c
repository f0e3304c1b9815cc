#include "ev_flags.toolgov.h"
#include "ev_flags_b_switch.h"

#if EV_FLAGS_B && EV_FLAGS_B_FROM_INCLUDE
EV_FLAGS_TOOLGOV_HANDLER(hidden_b, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "b");
}
#endif
