/* SPDX-License-Identifier: MIT */
/*
** print_version.c: prints the runtime's version three ways (the library's
** toolgov_version(), the header's string and its number macros), one per
** line, for tests/package/version.cmake to compare.
*/
#include <stdio.h>

#include <toolgov/toolgov.h>

int main(void)
{
    printf("%s\n%s\n%d.%d.%d\n", toolgov_version(), TOOLGOV_VERSION_STRING,
           TOOLGOV_VERSION_MAJOR, TOOLGOV_VERSION_MINOR, TOOLGOV_VERSION_PATCH);
    return 0;
}
