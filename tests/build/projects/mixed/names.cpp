#include <optional>
#include <string>

#include "names.toolgov.h"

#ifndef MIXED_FORCED_INCLUDE
#error forced.h comes from a -include compile option
#endif

// std::optional is C++17: parsed with clang's default C++ standard (gnu++14
// for clang 14) this source would not parse.
NAMES_TOOLGOV_HANDLER(greet, call, args, out)
{
    (void)args;
    (void)call;
    std::optional<std::string> who{"world"};
    return toolgov_result_printf(out, "hello, %s", who->c_str());
}
