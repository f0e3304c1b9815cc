#include <stdio.h>

#include <toolgov/toolgov.h>

#include "weather.toolgov.h"

int main(void)
{
    toolgov_registry *reg = NULL;
    int rc = toolgov_registry_new(&reg, NULL);
    if (rc == 0)
        rc = toolgov_registry_mount(reg, &weather_toolgov_plugin, NULL);
    printf("mounted weather: %d, %zu tools in the pool\n", rc,
           reg ? toolgov_registry_count(reg) : (size_t)0);
    toolgov_registry_free(reg);
    return rc == 0 ? 0 : 1;
}
