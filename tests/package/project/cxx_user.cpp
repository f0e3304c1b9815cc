// SPDX-License-Identifier: MIT
// The generated header and the installed ones compile as C++ too.
#include "notes.toolgov.h"

extern "C" size_t notes_cxx_args_size(void);

size_t notes_cxx_args_size(void)
{
    notes_Args_notes_add a{};
    a.priority = notes_Enum_notes_add_priority_high;
    return sizeof a + static_cast<size_t>(a.priority);
}
