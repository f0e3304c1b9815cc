/* SPDX-License-Identifier: MIT */
/*
** version.c: the version of the runtime library itself.
**
** Compiled from the same TOOLGOV_VERSION_STRING the public header gives
** callers, so a program can tell the header it was built with from the
** library it loaded. tests/package/version.cmake checks that this, the CMake
** package, toolgov.pc and toolgov-gen agree with project(VERSION).
*/
#include <toolgov/toolgov.h>

const char *toolgov_version(void)
{
    return TOOLGOV_VERSION_STRING;
}
