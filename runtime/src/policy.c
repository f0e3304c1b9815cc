/* policy.c: see toolgov/policy.h. */
#include "internal.h"
