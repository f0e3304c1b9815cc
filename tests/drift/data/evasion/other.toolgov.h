/* A second plugin's stand-in header ("other"), included after demo's. */
#ifndef OTHER_TOOLGOV_H
#define OTHER_TOOLGOV_H
#include <toolgov/toolgov.h>
#undef TOOLGOV_HANDLER
#if defined(__clang__)
#define TOOLGOV_HANDLER(tool, call, out) \
    __attribute__((annotate("toolgov:tool:" #tool))) \
    int other_tool_##tool(const toolgov_call *call, const void *args, toolgov_result *out)
#else
#define TOOLGOV_HANDLER(tool, call, out) \
    int other_tool_##tool(const toolgov_call *call, const void *args, toolgov_result *out)
#endif
int other_tool_alpha(const toolgov_call *call, const void *args, toolgov_result *out);
#endif
