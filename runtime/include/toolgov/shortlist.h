/* SPDX-License-Identifier: MIT */
/*
** shortlist.h: choosing the tools offered to the model for one turn.
**
** A shortlist always keeps the core's memory_search and ask_user and every
** tool whose manifest says `pinned: true` (in registration order); it then
** fills up to its limit from the caller's ranking (best first), skipping
** names already kept and names neither pooled nor added as skills. Only
** offered tools are ever selected (toolgov_registry_offers): a built-in the
** host did not bind, memory_search and ask_user included, is left out.
**
** Skills are tools a host creates at run time outside any manifest. A skill
** may not take a name already in the pool (built-ins and mounted plugins'
** tools) nor one already added as a skill: the add is refused at that moment
** with TOOLGOV_EEXIST, so a skill can never shadow a governed tool.
**
** A shortlist borrows its registry (which must outlive it) and is used by one
** thread at a time. toolgov_shortlist_new and _add_skill allocate through the
** registry's allocator hook; selecting allocates nothing.
*/
#ifndef TOOLGOV_SHORTLIST_H
#define TOOLGOV_SHORTLIST_H

#include <stddef.h>

#include "toolgov.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct toolgov_shortlist toolgov_shortlist;

/* Create an empty shortlist with room for `limit` tools (the always-kept
** tools are kept even beyond it). *out is owned by the caller (free with
** toolgov_shortlist_free). TOOLGOV_EINVAL, TOOLGOV_ENOMEM, *out untouched. */
TOOLGOV_EXTERN int toolgov_shortlist_new(toolgov_shortlist **out, const toolgov_registry *reg,
                                         size_t limit);
/* Free it. NULL is a no-op. */
TOOLGOV_EXTERN void toolgov_shortlist_free(toolgov_shortlist *sl);

/* Add a skill tool by name (copied). TOOLGOV_EEXIST when the name is in the
** pool or already a skill here; TOOLGOV_EINVAL for an empty name;
** TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_shortlist_add_skill(toolgov_shortlist *sl, const char *name);

/* Select the tools for this turn from `ranking` (n names, best first):
** always-kept tools first, then ranked names until the limit. Replaces the
** previous selection. Returns 0, TOOLGOV_EINVAL, or TOOLGOV_ENOSPC when
** pinned tools mounted after the shortlist was made no longer fit in the
** room it was created with (the previous selection is kept; make a new
** shortlist). Allocates nothing. */
TOOLGOV_EXTERN int toolgov_shortlist_select(toolgov_shortlist *sl,
                                            const char *const *ranking, size_t n);

/* The current selection: its size, the i-th name (NULL out of range;
** borrowed from the registry or the shortlist, valid until the shortlist is
** freed) and whether it is a skill (1) or a pooled tool (0). The names array
** can be passed as is to toolgov_prompt_render when it holds no skill. */
TOOLGOV_EXTERN size_t toolgov_shortlist_count(const toolgov_shortlist *sl);
TOOLGOV_EXTERN const char *toolgov_shortlist_at(const toolgov_shortlist *sl, size_t i);
TOOLGOV_EXTERN int toolgov_shortlist_is_skill(const toolgov_shortlist *sl, size_t i);
/* The selection as an array of toolgov_shortlist_count() names. Borrowed. */
TOOLGOV_EXTERN const char *const *toolgov_shortlist_names(const toolgov_shortlist *sl);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_SHORTLIST_H */
