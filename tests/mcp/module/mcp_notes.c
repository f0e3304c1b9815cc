/* SPDX-License-Identifier: MIT */
/*
** mcp_notes.c: the handlers of the module plugin the toolgov-mcp tests load
** with --plugin (built with toolgov_add_plugin(... MODULE)).
*/
#include "mcp_notes.toolgov.h"

TOOLGOV_HANDLER(echo_args, call, out)
{
    return toolgov_result_set(out, call->args, call->args_len);
}

TOOLGOV_HANDLER(shred_notes, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "Shredded every note.");
}
