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
**   2. when any on-loop tool is in the confirm-once set, one generic rule
**      that says who asks the user: by default the model asks once in its
**      own words, listing everything that will be created or changed, then
**      calls the tool once per item (toolgov_prompt_confirm_rule); for a
**      host whose loop asks the gate's question itself (loop.h), the model
**      proposes every write of its plan in one batch of calls and does not
**      ask in chat, since the user is asked once for the list
**      (toolgov_prompt_rule_text; toolgov_prompt_render_with);
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

/* The generic confirm-once rule, exactly as the prompt writes it (one line, with
** its newline). Static. */
TOOLGOV_EXTERN extern const char toolgov_prompt_confirm_rule[];

/* Which rule the prompt carries when an on-loop tool asks once. */
typedef enum toolgov_prompt_rule {
    TOOLGOV_PROMPT_RULE_MODEL_ASKS = 0, /* toolgov_prompt_confirm_rule */
    TOOLGOV_PROMPT_RULE_LOOP_ASKS = 1,  /* toolgov_prompt_loop_rule */
    TOOLGOV_PROMPT_RULE_NONE = 2        /* no rule */
} toolgov_prompt_rule;

/* The text of a rule, exactly as the prompt writes it (one line with its
** newline; "" for NONE or a value outside the enum). MODEL_ASKS is
** toolgov_prompt_confirm_rule; LOOP_ASKS, for a loop that asks the user
** itself (loop.h), says to propose every write of the plan as calls in one
** reply and not to ask in chat. Static. */
TOOLGOV_EXTERN const char *toolgov_prompt_rule_text(toolgov_prompt_rule rule);

/* Options of toolgov_prompt_render_with(); all zero is what
** toolgov_prompt_render() writes. */
typedef struct toolgov_prompt_options {
    /* 1: leave each tool's " Arguments (JSON Schema): ..." out, for a host
    ** that sends the tools natively in the request (toolcalls.h), so the
    ** schemas do not go twice. */
    int omit_schemas;
    toolgov_prompt_rule rule;
} toolgov_prompt_options;

/* Render the prompt section for the `n` on-loop tools named in `tools`
** (pooled names; a name given twice is rendered once; a pooled tool that is
** not offered, such as a built-in with no handler bound, is left out: see
** toolgov_registry_offers). Buffer contract: the
** renderer convention of toolgov.h (size 0 is a sizing call returning 0;
** TOOLGOV_ENOSPC when cut short). TOOLGOV_ENOENT when a name is not in the
** pool (then out, when size > 0, holds "" and *needed is 0: never a partial
** prompt); TOOLGOV_EINVAL. */
TOOLGOV_EXTERN int toolgov_prompt_render(char *out, size_t size, size_t *needed,
                                         const toolgov_policy *pol,
                                         const char *const *tools, size_t n);

/* toolgov_prompt_render() with options (NULL: none). The same contract;
** TOOLGOV_EINVAL also for a rule outside the enum. */
TOOLGOV_EXTERN int toolgov_prompt_render_with(char *out, size_t size, size_t *needed,
                                              const toolgov_policy *pol,
                                              const char *const *tools, size_t n,
                                              const toolgov_prompt_options *opt);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_PROMPT_H */
