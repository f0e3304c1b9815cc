/* SPDX-License-Identifier: MIT */
/*
** faulty.h: the deliberately faulty example plugin's hand-built descriptor.
**
** faulty_plugin_by_hand() fills *out with the generated descriptor of the
** faulty plugin (its manifest table, so the registry still checks every
** name against the manifest) but with a hand-written register function that
** does three things wrong at run time: it registers a name it computes (not
** in the manifest: refused, an "undeclared" drift row), it registers
** `research`, which the research plugin already put in the pool (refused, a
** "duplicate" row naming the owner), and it never registers `faulty_stale`
** (a "never_registered" row). The descriptor's tables are static; *out may
** be mounted into any number of registries.
*/
#ifndef TOOLGOV_EXAMPLES_FAULTY_H
#define TOOLGOV_EXAMPLES_FAULTY_H

#include <toolgov/toolgov.h>

#ifdef __cplusplus
extern "C" {
#endif

void faulty_plugin_by_hand(toolgov_plugin *out);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_EXAMPLES_FAULTY_H */
