#include "ev_flags.toolgov.h"

/* A .c source compiled as C++ (LANGUAGE CXX): parsed as C++ too. */
#ifdef __cplusplus
EV_FLAGS_TOOLGOV_HANDLER(hidden_e, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "e");
}
#endif
