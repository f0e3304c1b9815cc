/* SPDX-License-Identifier: MIT */
/* A module without toolgov's entry symbol: --plugin must refuse it. */
int not_a_plugin_value(void);
int not_a_plugin_value(void)
{
    return 42;
}
