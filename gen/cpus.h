/* SPDX-License-Identifier: MIT */
/*
** cpus.h: how many CPUs this process may run on, for the generator's
** choice between one thread and two (the parameters pool, the header
** rendered beside the C file).
**
** Ownership: nothing to own.
*/
#ifndef TOOLGOV_GEN_CPUS_H
#define TOOLGOV_GEN_CPUS_H

/* The CPUs of this process's affinity mask (taskset, cgroup cpusets) where
** the system tells, else the CPUs online; at least 1. */
long toolgov__usable_cpus(void);

#endif /* TOOLGOV_GEN_CPUS_H */
