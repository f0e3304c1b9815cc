#include "relay.toolgov.h"

TOOLGOV_HANDLER(pass_on, call, out)
{
    return toolgov_result_printf(out, "passed on: %s", call->args);
}
