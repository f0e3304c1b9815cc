#ifndef SHARED_HANDLER_H
#define SHARED_HANDLER_H
#include "demo.toolgov.h"

static inline DEMO_TOOLGOV_HANDLER(shared, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_set(out, "s", 1);
}
#endif
