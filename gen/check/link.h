/* SPDX-License-Identifier: MIT */
/*
** check/link.h: the link check: manifests checked together as the tools one host mounts
** (`toolgov-gen validate a.yaml b.yaml ...`, and the build step of
** toolgov_link_plugins()).
**
** The runtime refuses, at mount, a tool whose name is already in the pool
** (the first owner keeps it) and a plugin tool that takes the name of one of
** the core's built-in tools. Checked here, the same refusals fail the build
** instead: each is an error at the second place with a note at the first
** (for a built-in, the error alone, since its first place is the core).
** A plugin name used by two manifests is an error too (their generated
** symbols would collide).
**
** Ownership: everything is borrowed for the call.
*/
#ifndef TOOLGOV_GEN_CHECK_LINK_H
#define TOOLGOV_GEN_CHECK_LINK_H

#include <stddef.h>

#include "base/diag.h"
#include "manifest/manifest.h"

/* The core's built-in tool names, as the runtime registers them. */
extern const char *const toolgov__builtin_tools[];
extern const size_t toolgov__builtin_tool_count;

/* Report every clash among `ms[0..n)` (NULL entries, manifests that did not
** load, are skipped) to `d`, in manifest order. A single manifest is checked
** against the built-ins. Returns the number of errors reported, or
** (size_t)-1 after reporting that memory ran out. */
size_t toolgov__link_check(const toolgov__manifest *const *ms, size_t n, toolgov__diag *d);

#endif /* TOOLGOV_GEN_CHECK_LINK_H */
