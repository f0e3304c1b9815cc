/* SPDX-License-Identifier: MIT */
/*
** mcp_notes.c: the handlers of the module plugin the toolgov-mcp tests load
** with --plugin (built with toolgov_add_plugin(... MODULE)).
*/
#include "mcp_notes.toolgov.h"

MCP_NOTES_TOOLGOV_HANDLER(echo_args, call, args, out)
{
    (void)args;
    return toolgov_result_set(out, call->args, call->args_len);
}

MCP_NOTES_TOOLGOV_HANDLER(shred_notes, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "Shredded every note.");
}
