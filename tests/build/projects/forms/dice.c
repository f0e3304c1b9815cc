/* SPDX-License-Identifier: MIT */
#include "dice.toolgov.h"

/* Defined by target_compile_definitions(agent ...) after the plugin call. */
#ifdef DICE_SIDES
DICE_TOOLGOV_HANDLER(dice_roll, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "%d", DICE_SIDES);
}
#endif
