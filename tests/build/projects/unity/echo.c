/* SPDX-License-Identifier: MIT */
#include "echo.toolgov.h"

ECHO_TOOLGOV_HANDLER(echo_back, call, args, out)
{
    (void)args;
    return toolgov_result_set(out, call->args, call->args_len);
}
