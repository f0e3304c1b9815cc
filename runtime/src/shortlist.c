/* SPDX-License-Identifier: MIT */
/*
** shortlist.c: the tools offered for one turn, and skill names.
**
** The selection array is sized when the shortlist is made (the limit plus
** every always-kept tool): a selection never holds more than that, so
** selecting allocates nothing. Duplicate ranked names are found by a linear scan of
** the selection, which stays small (it is what the model sees).
*/
#include <string.h>

#include "internal.h"

typedef struct skill {
    char *name;
    size_t len;
} skill;

struct toolgov_shortlist {
    const toolgov_registry *reg;
    size_t limit;
    const char **names; /* the selection; names_cap entries */
    unsigned char *is_skill;
    size_t count, names_cap;
    skill *skills;
    size_t nskills, skills_cap;
};

/* Room for what may be always kept: memory_search and ask_user whether or
** not they are bound yet (a host may bind them after making the
** shortlist), and the pinned tools. */
static int may_be_kept(const toolgov_registry *reg, size_t k)
{
    return k == TOOLGOV__BUILTIN_MEMORY_SEARCH || k == TOOLGOV__BUILTIN_ASK_USER ||
           reg->tools[k].spec->pinned;
}

/* memory_search, ask_user and pinned tools, when they are offered (a
** built-in the host never bound is not: toolgov__offered). */
static int always_kept(const toolgov_registry *reg, size_t k)
{
    return toolgov__offered(&reg->tools[k]) && may_be_kept(reg, k);
}

int toolgov_shortlist_new(toolgov_shortlist **out, const toolgov_registry *reg,
                          size_t limit)
{
    toolgov_shortlist *sl;
    size_t kept = 0, k;

    if (!out || !reg)
        return TOOLGOV_EINVAL;
    for (k = 0; k < reg->count; k++)
        kept += may_be_kept(reg, k) != 0;
    if (limit > ((size_t)-1) / 4 - kept)
        return TOOLGOV_EINVAL;
    sl = toolgov__alloc(&reg->alloc, sizeof *sl);
    if (!sl)
        return TOOLGOV_ENOMEM;
    memset(sl, 0, sizeof *sl);
    sl->reg = reg;
    sl->limit = limit;
    sl->names = toolgov__alloc(&reg->alloc, (limit + kept) * sizeof *sl->names);
    sl->is_skill = toolgov__alloc(&reg->alloc, limit + kept);
    if (!sl->names || !sl->is_skill) {
        toolgov__free(&reg->alloc, (void *)sl->names, (limit + kept) * sizeof *sl->names);
        toolgov__free(&reg->alloc, sl->is_skill, limit + kept);
        toolgov__free(&reg->alloc, sl, sizeof *sl);
        return TOOLGOV_ENOMEM;
    }
    sl->names_cap = limit + kept;
    *out = sl;
    return 0;
}

void toolgov_shortlist_free(toolgov_shortlist *sl)
{
    const toolgov_allocator *a;
    size_t i;

    if (!sl)
        return;
    a = &sl->reg->alloc;
    for (i = 0; i < sl->nskills; i++)
        toolgov__free(a, sl->skills[i].name, sl->skills[i].len + 1);
    toolgov__free(a, sl->skills, sl->skills_cap * sizeof *sl->skills);
    toolgov__free(a, (void *)sl->names, sl->names_cap * sizeof *sl->names);
    toolgov__free(a, sl->is_skill, sl->names_cap);
    toolgov__free(a, sl, sizeof *sl);
}

static long find_skill(const toolgov_shortlist *sl, const char *name, size_t len)
{
    size_t i;

    for (i = 0; i < sl->nskills; i++)
        if (sl->skills[i].len == len && memcmp(sl->skills[i].name, name, len) == 0)
            return (long)i;
    return -1;
}

int toolgov_shortlist_add_skill(toolgov_shortlist *sl, const char *name)
{
    const toolgov_allocator *a;
    size_t len;
    char *copy;
    int rc;

    if (!sl || !name || !*name)
        return TOOLGOV_EINVAL;
    len = strlen(name);
    if (toolgov__registry_index(sl->reg, name, len) >= 0 || find_skill(sl, name, len) >= 0)
        return TOOLGOV_EEXIST;
    a = &sl->reg->alloc;
    rc = toolgov__reserve(a, (void **)&sl->skills, &sl->skills_cap, sl->nskills + 1,
                          sizeof *sl->skills);
    if (rc < 0)
        return rc;
    copy = toolgov__memdup(a, name, len);
    if (!copy)
        return TOOLGOV_ENOMEM;
    sl->skills[sl->nskills].name = copy;
    sl->skills[sl->nskills].len = len;
    sl->nskills++;
    return 0;
}

static int selected(const toolgov_shortlist *sl, const char *name)
{
    size_t i;

    for (i = 0; i < sl->count; i++)
        if (sl->names[i] == name)
            return 1;
    return 0;
}

int toolgov_shortlist_select(toolgov_shortlist *sl, const char *const *ranking, size_t n)
{
    const toolgov_registry *reg;
    size_t k, i;

    if (!sl || (n && !ranking))
        return TOOLGOV_EINVAL;
    reg = sl->reg;
    /* Pinned tools mounted after the shortlist was made may outnumber the
    ** room it was given: refuse rather than leave one of them out. */
    for (k = 0, i = 0; k < reg->count; k++)
        i += always_kept(reg, k) != 0;
    if (i > sl->names_cap)
        return TOOLGOV_ENOSPC;
    sl->count = 0;
    for (k = 0; k < reg->count; k++) {
        if (always_kept(reg, k)) {
            sl->is_skill[sl->count] = 0;
            sl->names[sl->count++] = reg->tools[k].spec->name;
        }
    }
    for (i = 0; i < n && sl->count < sl->limit; i++) {
        const char *name;
        size_t len;
        long j;
        int skill_flag = 0;

        if (!ranking[i])
            continue;
        len = strlen(ranking[i]);
        j = toolgov__registry_index(reg, ranking[i], len);
        if (j >= 0) {
            if (!toolgov__offered(&reg->tools[j]))
                continue; /* pooled, but nothing runs it */
            name = reg->tools[j].spec->name;
        } else if ((j = find_skill(sl, ranking[i], len)) >= 0) {
            name = sl->skills[j].name;
            skill_flag = 1;
        } else {
            continue; /* neither pooled nor a skill: nothing to offer */
        }
        /* Names are canonical pointers, so a repeat is a pointer match. */
        if (selected(sl, name))
            continue;
        sl->is_skill[sl->count] = (unsigned char)skill_flag;
        sl->names[sl->count++] = name;
    }
    return 0;
}

size_t toolgov_shortlist_count(const toolgov_shortlist *sl)
{
    return sl ? sl->count : 0;
}

const char *toolgov_shortlist_at(const toolgov_shortlist *sl, size_t i)
{
    return sl && i < sl->count ? sl->names[i] : NULL;
}

int toolgov_shortlist_is_skill(const toolgov_shortlist *sl, size_t i)
{
    return sl && i < sl->count ? sl->is_skill[i] : 0;
}

const char *const *toolgov_shortlist_names(const toolgov_shortlist *sl)
{
    return sl ? sl->names : NULL;
}
