/* SPDX-License-Identifier: MIT */
/*
** cpus.c: the CPUs this process may run on (see cpus.h).
*/
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "cpus.h"

#include <sched.h>
#include <unistd.h>

long toolgov__usable_cpus(void)
{
    long n;
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n;
}
