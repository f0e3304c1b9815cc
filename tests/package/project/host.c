/* SPDX-License-Identifier: MIT */
/* Mounts the notes plugin and prints what the registry knows of it. */
#include <stdio.h>

#include "notes.toolgov.h"

int main(void)
{
    toolgov_registry *reg = NULL;
    const toolgov_tool_spec *find, *add;
    int rc = toolgov_registry_new(&reg, NULL);

    if (rc == 0)
        rc = toolgov_registry_mount(reg, &notes_toolgov_plugin, NULL);
    if (rc != 0) {
        fprintf(stderr, "notes_host: %s\n", toolgov_strerror(rc));
        toolgov_registry_free(reg);
        return 1;
    }
    find = toolgov_registry_find(reg, "notes_find");
    add = toolgov_registry_find(reg, "notes_add");
    if (!find || !add) {
        toolgov_registry_free(reg);
        return 1;
    }
    printf("notes_find effect=%d notes_add effect=%d confirm=%d owner=%s\n",
           (int)find->effect, (int)add->effect, (int)add->confirm,
           toolgov_registry_owner(reg, "notes_add"));
    toolgov_registry_free(reg);
    return 0;
}
