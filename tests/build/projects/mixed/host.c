#include <stdio.h>

#include <toolgov/toolgov.h>

#include "clock.toolgov.h"
#include "names.toolgov.h"
#include "relay.toolgov.h"

int main(void)
{
    const toolgov_plugin *plugins[] = { &clock_toolgov_plugin, &names_toolgov_plugin,
                                        &relay_toolgov_plugin };
    toolgov_registry *reg = NULL;
    int rc = toolgov_registry_new(&reg, NULL);
    for (size_t i = 0; rc == 0 && i < sizeof plugins / sizeof *plugins; i++)
        rc = toolgov_registry_mount(reg, plugins[i], NULL);
    printf("mounted: %d\n", rc);
    toolgov_registry_free(reg);
    return rc == 0 ? 0 : 1;
}
