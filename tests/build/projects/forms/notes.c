/* SPDX-License-Identifier: MIT */
#include "notes.toolgov.h"

TOOLGOV_HANDLER(notes_add, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "added");
}
