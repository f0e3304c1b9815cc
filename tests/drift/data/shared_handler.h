#ifndef SHARED_HANDLER_H
#define SHARED_HANDLER_H
#include "demo.toolgov.h"

static inline TOOLGOV_HANDLER(shared, call, out)
{
    (void)call;
    return toolgov_result_set(out, "s", 1);
}
#endif
