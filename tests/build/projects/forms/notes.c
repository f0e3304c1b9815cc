/* SPDX-License-Identifier: MIT */
#include "notes.toolgov.h"

NOTES_TOOLGOV_HANDLER(notes_add, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "added");
}
