#include "echo.toolgov.h"

TOOLGOV_HANDLER(say, call, out)
{
    return toolgov_result_printf(out, "%s", call->args);
}
