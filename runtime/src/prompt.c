/* SPDX-License-Identifier: MIT */
/*
** prompt.c: rendering the tools on the loop into the caller's buffer.
**
** Three parts: the tools' lines in the caller's order, the confirm-once rule
** when one of them is confirm-once, and their guidance in registration order with
** repeated texts dropped. Rendering never allocates: for a loop of up to
** STACK_TOOLS tools the pool indexes live in stack arrays (merge-sorted for
** the registration order and to find repeated names; guidance compared by
** the hash the registry computed at mount, strcmp only when hashes agree);
** a longer loop takes a slower path that looks names up again instead of
** storing them. A pooled tool that is not offered (no handler bound,
** toolgov__offered) is left out of all three parts.
*/
#include <string.h>

#include "internal.h"
#include "sort.h"
#include "tooljson.h"

#define STACK_TOOLS 128

const char toolgov_prompt_confirm_rule[] =
    "Tools marked \"asks once\" change the user's things: before calling them, ask "
    "the user one question that lists everything you are about to create or "
    "change, and after the answer call the tool once for each item.\n";

static size_t index_of(const toolgov_registry *reg, const char *name)
{
    return (size_t)toolgov__registry_index(reg, name, strlen(name));
}

static void tool_line(toolgov__out *o, const toolgov_tool_spec *s, int once, int schemas)
{
    const char *mark = toolgov__effect_mark(s->effect, once);

    toolgov__out_put(o, "- ", 2);
    toolgov__out_str(o, s->name);
    if (*mark) {
        toolgov__out_put(o, " ", 1);
        toolgov__out_str(o, mark);
    }
    toolgov__out_put(o, ": ", 2);
    toolgov__out_str(o, s->description);
    /* The arguments, as the manifest declares them: descriptions carry no
    ** argument prose, so a model reading only this text learns them here. */
    if (schemas && toolgov__spec_params(s) && s->schema_json && s->schema_json[0]) {
        toolgov__out_str(o, " Arguments (JSON Schema): ");
        toolgov__out_str(o, s->schema_json);
    }
    toolgov__out_put(o, "\n", 1);
}

static void guidance_para(toolgov__out *o, const char *g)
{
    size_t len = strlen(g);

    toolgov__out_put(o, "\n", 1);
    toolgov__out_put(o, g, len);
    if (g[len - 1] != '\n')
        toolgov__out_put(o, "\n", 1);
}

static int same_guidance(const toolgov__tool *a, const toolgov__tool *b)
{
    const char *x = a->guidance, *y = b->guidance;

    return x == y || (a->guidance_hash == b->guidance_hash && strcmp(x, y) == 0);
}

static int cmp_u64(const void *a, const void *b, const void *ctx)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    (void)ctx;
    return x < y ? -1 : x > y;
}

/* Sort keys ascending: the runtime's merge sort (sort.h) through a scratch
** array of the same size (both on the caller's stack). */
static void sort_keys(uint64_t *v, uint64_t *tmp, size_t n)
{
    toolgov__merge_sort(v, tmp, n, sizeof *v, cmp_u64, NULL);
}

/* Guidance of a short loop: idx holds its n distinct pool indexes in
** registration order. */
static void guidance_fast(toolgov__out *o, const toolgov_registry *reg, const size_t *idx,
                          size_t n)
{
    const toolgov__tool *shown[STACK_TOOLS];
    size_t nshown = 0, i, j;

    for (i = 0; i < n; i++) {
        const toolgov__tool *t = &reg->tools[idx[i]];
        int seen = 0;

        if (!t->guidance[0])
            continue;
        for (j = 0; j < nshown && !seen; j++)
            seen = same_guidance(shown[j], t);
        if (seen)
            continue;
        shown[nshown++] = t;
        guidance_para(o, t->guidance);
    }
}

/* Guidance of a long loop, with no storage: repeatedly take the smallest
** pool index above the last one taken. Quadratic, but only for loops far
** longer than a model is ever shown. */
static void guidance_slow(toolgov__out *o, const toolgov_registry *reg,
                          const char *const *tools, size_t n)
{
    size_t last = 0, i, k;
    int started = 0;

    for (;;) {
        size_t best = (size_t)-1;
        const toolgov__tool *t;
        int seen = 0;

        for (i = 0; i < n; i++) {
            k = index_of(reg, tools[i]);
            if ((!started || k > last) && k < best && toolgov__offered(&reg->tools[k]))
                best = k;
        }
        if (best == (size_t)-1)
            return;
        started = 1;
        last = best;
        t = &reg->tools[best];
        if (!t->guidance[0])
            continue;
        for (i = 0; i < n && !seen; i++) {
            k = index_of(reg, tools[i]);
            seen = k < best && toolgov__offered(&reg->tools[k]) &&
                   same_guidance(&reg->tools[k], t);
        }
        if (!seen)
            guidance_para(o, t->guidance);
    }
}

static const char loop_rule[] =
    "Tools marked \"asks once\" change the user's things: propose every such call your "
    "plan needs together, as tool calls in one reply, and do not ask the user about them "
    "in your own words; the user is asked once, for the whole list, before any of them "
    "runs.\n";

const char *toolgov_prompt_rule_text(toolgov_prompt_rule rule)
{
    return rule == TOOLGOV_PROMPT_RULE_MODEL_ASKS  ? toolgov_prompt_confirm_rule
           : rule == TOOLGOV_PROMPT_RULE_LOOP_ASKS ? loop_rule
                                                   : "";
}

int toolgov_prompt_render(char *out, size_t size, size_t *needed,
                          const toolgov_policy *pol, const char *const *tools, size_t n)
{
    return toolgov_prompt_render_with(out, size, needed, pol, tools, n, NULL);
}

int toolgov_prompt_render_with(char *out, size_t size, size_t *needed,
                               const toolgov_policy *pol, const char *const *tools, size_t n,
                               const toolgov_prompt_options *opt)
{
    int schemas = opt ? !opt->omit_schemas : 1;
    toolgov_prompt_rule rule = opt ? opt->rule : TOOLGOV_PROMPT_RULE_MODEL_ASKS;
    const toolgov_registry *reg;
    /* Short loops: key = pool index << 8 | position, sorted, gives both the
    ** registration order and the repeated names; pos/dup by position. */
    uint64_t key[STACK_TOOLS], tmp[STACK_TOOLS];
    size_t pos[STACK_TOOLS], idx[STACK_TOOLS];
    unsigned char dup[STACK_TOOLS];
    size_t i, j, distinct = 0, offered = 0;
    int fast = n <= STACK_TOOLS;
    toolgov__out o;
    int any_once = 0, first = 1;

    if (needed)
        *needed = 0;
    if (!out && size)
        return TOOLGOV_EINVAL;
    /* Every failure leaves an empty string, never the caller's old bytes. */
    if (size)
        out[0] = '\0';
    if (!pol || (n && !tools) || (unsigned)rule > TOOLGOV_PROMPT_RULE_NONE)
        return TOOLGOV_EINVAL;
    reg = pol->reg;
    for (i = 0; i < n; i++) {
        long k;

        if (!tools[i])
            return TOOLGOV_EINVAL;
        k = toolgov__registry_index(reg, tools[i], strlen(tools[i]));
        if (k < 0)
            return TOOLGOV_ENOENT;
        if (fast) {
            /* A tool not offered is skipped like a repeated name. */
            pos[i] = (size_t)k;
            dup[i] = !toolgov__offered(&reg->tools[k]);
            if (!dup[i])
                key[offered++] = (uint64_t)k << 8 | i;
        }
    }
    if (fast) {
        sort_keys(key, tmp, offered);
        for (i = 0; i < offered; i++) {
            size_t k = (size_t)(key[i] >> 8);

            if (distinct && idx[distinct - 1] == k)
                dup[key[i] & 0xff] = 1;
            else
                idx[distinct++] = k;
        }
    }

    toolgov__out_init(&o, out, size);
    for (i = 0; i < n; i++) {
        size_t k;
        const toolgov__tool *t;
        int once, repeat = 0;

        if (fast) {
            k = pos[i];
            repeat = dup[i];
        } else {
            k = index_of(reg, tools[i]);
            for (j = 0; j < i && !repeat; j++)
                repeat = index_of(reg, tools[j]) == k;
        }
        t = &reg->tools[k];
        if (repeat || !toolgov__offered(t))
            continue; /* a name given twice is rendered once; one not offered, never */
        once = toolgov__policy_confirm_once(pol, k);
        if (first)
            toolgov__out_str(&o, "Tools:\n");
        first = 0;
        tool_line(&o, t->spec, once, schemas);
        any_once |= once && t->effect != TOOLGOV_EFFECT_DESTRUCTIVE;
    }
    if (any_once && rule != TOOLGOV_PROMPT_RULE_NONE) {
        toolgov__out_put(&o, "\n", 1);
        if (rule == TOOLGOV_PROMPT_RULE_LOOP_ASKS)
            toolgov__out_put(&o, loop_rule, sizeof loop_rule - 1);
        else
            toolgov__out_put(&o, toolgov_prompt_confirm_rule,
                             sizeof toolgov_prompt_confirm_rule - 1);
    }
    if (fast)
        guidance_fast(&o, reg, idx, distinct);
    else
        guidance_slow(&o, reg, tools, n);
    return toolgov__out_finish(&o, needed);
}
