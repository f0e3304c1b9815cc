/* shortlist.c: see toolgov/shortlist.h. */
#include "internal.h"
