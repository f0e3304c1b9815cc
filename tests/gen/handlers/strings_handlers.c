/* SPDX-License-Identifier: MIT */
/* Handlers for the strings plugin (golden compile test and the byte
** round-trip test): each returns its own tool name. */
#include "strings.toolgov.h"

#include <string.h>

TOOLGOV_HANDLER(quote_tool, call, out)
{
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}

TOOLGOV_HANDLER(write_never, call, out)
{
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}

TOOLGOV_HANDLER(shred, call, out)
{
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}

TOOLGOV_HANDLER(long_guidance, call, out)
{
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}
