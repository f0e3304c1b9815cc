#include "ev_flags.toolgov.h"

#if defined(EV_FLAGS_CXX) && defined(EV_FLAGS_FROM_CXXFLAGS)
EV_FLAGS_TOOLGOV_HANDLER(hidden_c, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "c");
}
#endif
