/* A stand-in for a generated header: the handler declarations and macro
** shape that toolgov-gen writes, for plugin "demo" (tools alpha, beta and
** gamma, none with parameters). */
#ifndef DEMO_TOOLGOV_H
#define DEMO_TOOLGOV_H

#include <toolgov/toolgov.h>

#if defined(__clang__)
#define DEMO_TOOLGOV_ANNOTATE_(name) __attribute__((annotate("toolgov:tool:" name)))
#else
#define DEMO_TOOLGOV_ANNOTATE_(name)
#endif

typedef toolgov_no_args demo_Args_alpha;
typedef toolgov_no_args demo_Args_beta;
typedef toolgov_no_args demo_Args_gamma;

#define DEMO_TOOLGOV_HANDLER(tool, call, args, out)                            \
    DEMO_TOOLGOV_ANNOTATE_(#tool)                                              \
    int demo_Handler_##tool(const toolgov_call *call, const demo_Args_##tool *args, \
                            toolgov_result *out)

int demo_Handler_alpha(const toolgov_call *call, const demo_Args_alpha *args, toolgov_result *out);
int demo_Handler_beta(const toolgov_call *call, const demo_Args_beta *args, toolgov_result *out);
int demo_Handler_gamma(const toolgov_call *call, const demo_Args_gamma *args, toolgov_result *out);

#endif
