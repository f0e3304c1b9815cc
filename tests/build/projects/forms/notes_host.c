/* SPDX-License-Identifier: MIT */
/* A host linking the OBJECT plugin notes. */
#include "notes.toolgov.h"
#include "mount.h"

int main(void)
{
    const toolgov_plugin *plugins[] = {&notes_toolgov_plugin};
    const char *tools[] = {"notes_add"};
    return mount_and_print(plugins, 1, tools, 1);
}
