/* run.c: see toolgov/run.h. */
#include "internal.h"
