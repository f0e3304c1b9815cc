/* SPDX-License-Identifier: MIT */
#include "notes.toolgov.h"

NOTES_TOOLGOV_HANDLER(notes_find, call, args, out)
{
    (void)args;
    return toolgov_result_printf(out, "found notes for %s", call->args);
}

NOTES_TOOLGOV_HANDLER(notes_add, call, args, out)
{
    (void)args;
    return toolgov_result_printf(out, "added %s", call->args);
}
