#include "ev_two.toolgov.h"
#include "ev_other.toolgov.h"

/* Meant as ev_two's handler of ok; the macro is ev_other's by now. */
TOOLGOV_HANDLER(ok, call, out)
{
    (void)call;
    return toolgov_result_printf(out, "two ok");
}
