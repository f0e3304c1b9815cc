/* SPDX-License-Identifier: MIT */
/* A source of the host that comes before the handlers in a unity batch and
** leaves a macro behind: the generated header's include guard. */
#define ECHO_TOOLGOV_H 1
int prelude_value(void);
int prelude_value(void)
{
    return 1;
}
