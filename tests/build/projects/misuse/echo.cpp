#include "echo.toolgov.h"

ECHO_TOOLGOV_HANDLER(say, call, args, out)
{
    (void)args;
    return toolgov_result_printf(out, "%s", call->args);
}
