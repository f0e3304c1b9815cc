/* A stand-in for a generated header: the same handler macro shape that
** toolgov-gen writes, for plugin "demo". */
#ifndef DEMO_TOOLGOV_H
#define DEMO_TOOLGOV_H

#include <toolgov/toolgov.h>

#if defined(__clang__)
#define DEMO_TOOLGOV_ANNOTATE_(tool) __attribute__((annotate("toolgov:tool:" #tool)))
#else
#define DEMO_TOOLGOV_ANNOTATE_(tool)
#endif

#define TOOLGOV_HANDLER(tool, call, out)                                       \
    DEMO_TOOLGOV_ANNOTATE_(tool)                                               \
    int demo_tool_##tool(const toolgov_call *call, const void *args, toolgov_result *out)

int demo_tool_alpha(const toolgov_call *call, const void *args, toolgov_result *out);
int demo_tool_beta(const toolgov_call *call, const void *args, toolgov_result *out);
int demo_tool_gamma(const toolgov_call *call, const void *args, toolgov_result *out);

#endif
