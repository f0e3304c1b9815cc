/* SPDX-License-Identifier: MIT */
/*
** prompt.h: the part of the system prompt that describes the tools on the
** loop.
**
** The text has three parts:
**   1. one line per on-loop tool, in the order given:
**        "- name: description"                         (read)
**        "- name [write]: description"                 (write, never asks)
**        "- name [write, asks once]: description"      (in the confirm-once set)
**        "- name [destructive, needs approval]: description"
**      (a read tool the override put in the confirm-once set is marked
**      "[asks once]"); a tool with declared parameters has
**      " Arguments (JSON Schema): <its schema_json>" after its description;
**   2. when any on-loop tool is in the confirm-once set, one generic rule:
**      ask the user once, listing everything that will be created or
**      changed, then call the tool once per item;
**   3. each on-loop tool's guidance, in registration order, each distinct
**      text once.
** The runtime writes no plugin tool's name of its own: everything
** tool-specific comes from the manifests.
**
** Rendering writes into the caller's buffer and allocates nothing.
*/
#ifndef TOOLGOV_PROMPT_H
#define TOOLGOV_PROMPT_H

#include <stddef.h>

#include "toolgov.h"
#include "policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The generic ask-once rule, exactly as the prompt writes it (one line, with
** its newline). Static. */
extern const char toolgov_prompt_confirm_rule[];

/* Render the prompt section for the `n` on-loop tools named in `tools`
** (pooled names; a name given twice is rendered once). Buffer contract: the
** renderer convention of toolgov.h (size 0 is a sizing call returning 0;
** TOOLGOV_ENOSPC when cut short). TOOLGOV_ENOENT when a name is not in the
** pool (then out, when size > 0, holds "" and *needed is 0: never a partial
** prompt); TOOLGOV_EINVAL. */
TOOLGOV_EXTERN int toolgov_prompt_render(char *out, size_t size, size_t *needed,
                                         const toolgov_policy *pol,
                                         const char *const *tools, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_PROMPT_H */
