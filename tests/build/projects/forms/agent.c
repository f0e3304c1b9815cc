/* SPDX-License-Identifier: MIT */
/* The host with two plugins attached to it (TARGET agent). */
#include "clock.toolgov.h"
#include "dice.toolgov.h"
#include "mount.h"

int main(void)
{
    const toolgov_plugin *plugins[] = {&clock_toolgov_plugin, &dice_toolgov_plugin};
    const char *tools[] = {"clock_now", "dice_roll"};
    return mount_and_print(plugins, 2, tools, 2);
}
