/* SPDX-License-Identifier: MIT */
/* The handlers read their typed arguments (notes.toolgov.h's structs). */
#include "notes.toolgov.h"

NOTES_TOOLGOV_HANDLER(notes_find, call, args, out)
{
    (void)call;
    return toolgov_result_printf(out, "found notes for %.*s (at most %lld)", (int)args->word.len,
                                 args->word.ptr, (long long)args->limit);
}

NOTES_TOOLGOV_HANDLER(notes_add, call, args, out)
{
    (void)call;
    return toolgov_result_printf(out, "added %s (priority %d, %zu tags)", args->title.ptr,
                                 (int)args->priority, args->has.tags ? args->tags.count : 0);
}
