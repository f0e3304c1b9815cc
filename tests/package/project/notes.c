/* SPDX-License-Identifier: MIT */
#include "notes.toolgov.h"

TOOLGOV_HANDLER(notes_find, call, out)
{
    return toolgov_result_printf(out, "found notes for %s", call->args);
}

TOOLGOV_HANDLER(notes_add, call, out)
{
    return toolgov_result_printf(out, "added %s", call->args);
}
