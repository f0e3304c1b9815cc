/* SPDX-License-Identifier: MIT */
/*
** check_main.c: toolgov-gen-check, the drift check as its own executable.
**
** `toolgov-gen check ...` runs this program (it sits beside toolgov-gen) so
** that only the check loads libclang and LLVM: linking them into
** toolgov-gen made every `validate` and `generate` pay their start-up (about
** 35 ms of CPU, more than parsing a 10,000-tool manifest). The arguments
** are those after `check`; argv[0] is replaced by "check", as
** toolgov__check_main() expects.
*/
#include "check/check.h"

int main(int argc, char **argv)
{
    static char check_name[] = "check";
    if (argc < 1)
        return 2;
    argv[0] = check_name;
    return toolgov__check_main(argc, argv);
}
