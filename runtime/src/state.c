/* state.c: see toolgov/state.h. */
#include "internal.h"
