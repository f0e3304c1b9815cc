/* A second plugin's stand-in header ("other", with a tool alpha too),
** included after demo's. */
#ifndef OTHER_TOOLGOV_H
#define OTHER_TOOLGOV_H
#include <toolgov/toolgov.h>
typedef toolgov_no_args other_Args_alpha;
#if defined(__clang__)
#define OTHER_TOOLGOV_HANDLER(tool, call, args, out) \
    __attribute__((annotate("toolgov:tool:" #tool))) \
    int other_Handler_##tool(const toolgov_call *call, const other_Args_##tool *args, \
                             toolgov_result *out)
#else
#define OTHER_TOOLGOV_HANDLER(tool, call, args, out) \
    int other_Handler_##tool(const toolgov_call *call, const other_Args_##tool *args, \
                             toolgov_result *out)
#endif
int other_Handler_alpha(const toolgov_call *call, const other_Args_alpha *args,
                        toolgov_result *out);
#endif
