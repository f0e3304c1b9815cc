/* SPDX-License-Identifier: MIT */
/*
** module_probe.c: a MODULE plugin that links the static runtime, for the
** exports test. Its one entry point uses the registry, the policy and a run,
** so the linker pulls most of the runtime's objects into the module; none of
** them may be exported from it.
*/
#include <toolgov/run.h>

#if defined(__GNUC__) || defined(__clang__)
__attribute__((visibility("default")))
#endif
int module_probe_entry(void);

int module_probe_entry(void)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    toolgov_run *run = NULL;
    int rc = toolgov_registry_new(&reg, NULL);
    if (rc == 0)
        rc = toolgov_policy_new(&pol, reg);
    if (rc == 0)
        rc = toolgov_run_new(&run, pol, NULL);
    toolgov_run_free(run);
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    return rc;
}
