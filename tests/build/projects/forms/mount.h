/* SPDX-License-Identifier: MIT */
/* Mounts the given plugins into one registry and prints each tool with
** its effect and owner: "<tool> effect=<n> owner=<plugin>". */
#ifndef FORMS_MOUNT_H
#define FORMS_MOUNT_H

#include <stdio.h>

#include <toolgov/toolgov.h>

static int mount_and_print(const toolgov_plugin *const *plugins, size_t n,
                           const char *const *tools, size_t ntools)
{
    toolgov_registry *reg = NULL;
    size_t i;
    int rc = toolgov_registry_new(&reg, NULL);

    for (i = 0; rc == 0 && i < n; i++)
        rc = toolgov_registry_mount(reg, plugins[i], NULL);
    for (i = 0; rc == 0 && i < ntools; i++) {
        const toolgov_tool_spec *t = toolgov_registry_find(reg, tools[i]);
        if (!t) {
            rc = TOOLGOV_ENOENT;
            break;
        }
        printf("%s effect=%d owner=%s\n", tools[i], (int)t->effect,
               toolgov_registry_owner(reg, tools[i]));
    }
    if (rc != 0)
        fprintf(stderr, "mount: %s\n", toolgov_strerror(rc));
    toolgov_registry_free(reg);
    return rc == 0 ? 0 : 1;
}

#endif
