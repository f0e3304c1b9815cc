// SPDX-License-Identifier: MIT
// header_cxx.cpp: args.h and a table in the generated shape compile as C++.
#include "fixture_reminder.h"

extern "C" int toolgov_args_header_cxx_probe(void);
int toolgov_args_header_cxx_probe(void)
{
    return static_cast<int>(reminder_schema.field_count);
}
