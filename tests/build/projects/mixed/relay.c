#include "relay.toolgov.h"

#ifndef MIXED_FORCED_INCLUDE
#error forced.h comes from a -include compile option
#endif

TOOLGOV_HANDLER(pass_on, call, out)
{
    return toolgov_result_printf(out, "passed on: %s", call->args);
}
