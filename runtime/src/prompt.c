/* prompt.c: see toolgov/prompt.h. */
#include "internal.h"
