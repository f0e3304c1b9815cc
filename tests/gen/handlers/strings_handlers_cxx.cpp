/* SPDX-License-Identifier: MIT */
// The strings plugin's handlers compiled as C++: TOOLGOV_HANDLER must give
// them C linkage, or test_gen_cxx_linkage does not link.
#include "strings_handlers.c"
