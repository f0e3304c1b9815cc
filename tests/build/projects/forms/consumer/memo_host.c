/* SPDX-License-Identifier: MIT */
/* Finds memo.toolgov.h where the forms package installed it. */
#include <stdio.h>

#include "memo.toolgov.h"

int main(void)
{
    toolgov_registry *reg = NULL;
    int rc = toolgov_registry_new(&reg, NULL);

    if (rc == 0)
        rc = toolgov_registry_mount(reg, &memo_toolgov_plugin, NULL);
    if (rc == 0)
        printf("memo_forget owner=%s\n", toolgov_registry_owner(reg, "memo_forget"));
    toolgov_registry_free(reg);
    return rc == 0 ? 0 : 1;
}
