/* SPDX-License-Identifier: MIT */
/* Handlers for the strings plugin (golden compile test and the byte
** round-trip test): each returns its own tool name. */
#include "strings.toolgov.h"

#include <string.h>

STRINGS_TOOLGOV_HANDLER(quote_tool, call, args, out)
{
    (void)args;
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}

STRINGS_TOOLGOV_HANDLER(write_never, call, args, out)
{
    (void)args;
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}

STRINGS_TOOLGOV_HANDLER(shred, call, args, out)
{
    (void)args;
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}

STRINGS_TOOLGOV_HANDLER(long_guidance, call, args, out)
{
    (void)args;
    return toolgov_result_set(out, call->tool, strlen(call->tool));
}
