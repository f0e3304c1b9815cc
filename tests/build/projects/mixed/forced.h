/* Included into names.cpp and relay.c by a -include option only: the drift
** check must pass that option on as the compiler gets it. */
#define MIXED_FORCED_INCLUDE 1
