/* SPDX-License-Identifier: MIT */
#include "memo.toolgov.h"

TOOLGOV_HANDLER(memo_forget, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "forgotten");
}
