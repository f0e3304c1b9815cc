/* SPDX-License-Identifier: MIT */
#include "memo.toolgov.h"

MEMO_TOOLGOV_HANDLER(memo_forget, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "forgotten");
}
