#include "ev_flags.toolgov.h"

/* Defined only where the per-source definition is set: the check must see
** the handler the compiler builds. */
#if EV_FLAGS_A
EV_FLAGS_TOOLGOV_HANDLER(ok, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "ok");
}
#endif
