/* SPDX-License-Identifier: MIT */
/* Handlers for the golden calendar plugin: compiled with gcc, clang, g++ and
** clang++ at -Wall -Wextra -Wpedantic -Werror to prove TOOLGOV_HANDLER
** expands to a definition that matches the generated prototypes in C and
** C++ (where it must keep C linkage). */
#include "calendar.toolgov.h"

CALENDAR_TOOLGOV_HANDLER(calendar_lookup, call, args, out)
{
    (void)args;
    return toolgov_result_set(out, call->args, call->args_len);
}

CALENDAR_TOOLGOV_HANDLER(create_reminder, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "created", 7);
}

CALENDAR_TOOLGOV_HANDLER(daily_plan, c, args, o)
{
    (void)args;
    (void)c;
    (void)o;
    return 0;
}
