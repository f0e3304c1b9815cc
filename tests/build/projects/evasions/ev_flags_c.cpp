#include "ev_flags.toolgov.h"

#if defined(EV_FLAGS_CXX) && defined(EV_FLAGS_FROM_CXXFLAGS)
TOOLGOV_HANDLER(hidden_c, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "c");
}
#endif
