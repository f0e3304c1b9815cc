#include "relay.toolgov.h"

#ifndef MIXED_FORCED_INCLUDE
#error forced.h comes from a -include compile option
#endif

RELAY_TOOLGOV_HANDLER(pass_on, call, args, out)
{
    (void)args;
    return toolgov_result_printf(out, "passed on: %s", call->args);
}
