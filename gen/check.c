/* Placeholder until the libclang drift check lands (issue 3). */
#include <stdio.h>

#include "check.h"

int toolgov__check_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("toolgov-gen: check: not built yet\n", stderr);
    return 2;
}
