/*
** prompt.c: rendering the tools on the loop into the caller's buffer.
**
** Three passes over the on-loop tools: their lines in the caller's order,
** the ask-once rule when one of them asks once, and their guidance in
** registration order with repeated texts dropped. The pool indexes of the
** tools are kept on the stack for a loop of up to INDEX_CACHE tools and
** looked up again beyond that, so rendering never allocates.
*/
#include <string.h>

#include "internal.h"

#define INDEX_CACHE 256

const char toolgov_prompt_confirm_rule[] =
    "Tools marked \"asks once\" change the user's things: before calling them, ask "
    "the user one question that lists everything you are about to create or "
    "change, and after the answer call the tool once for each item.\n";

typedef struct loop {
    const toolgov_registry *reg;
    const char *const *tools;
    size_t n;
    size_t cache[INDEX_CACHE];
} loop;

static size_t loop_index(const loop *l, size_t i)
{
    if (i < INDEX_CACHE)
        return l->cache[i];
    return (size_t)toolgov__registry_index(l->reg, l->tools[i], strlen(l->tools[i]));
}

/* 1 when the i-th name repeats an earlier one. */
static int repeated(const loop *l, size_t i)
{
    size_t k = loop_index(l, i), j;

    for (j = 0; j < i; j++)
        if (loop_index(l, j) == k)
            return 1;
    return 0;
}

static void tool_line(toolgov__out *o, const toolgov_tool_spec *s, int once)
{
    toolgov__out_str(o, "- ");
    toolgov__out_str(o, s->name);
    if (s->effect == TOOLGOV_EFFECT_DESTRUCTIVE)
        toolgov__out_str(o, " [destructive, needs approval]");
    else if (s->effect == TOOLGOV_EFFECT_WRITE)
        toolgov__out_str(o, once ? " [write, asks once]" : " [write]");
    else if (once)
        toolgov__out_str(o, " [asks once]");
    toolgov__out_str(o, ": ");
    toolgov__out_str(o, s->description);
    toolgov__out_put(o, "\n", 1);
}

int toolgov_prompt_render(char *out, size_t size, size_t *needed,
                          const toolgov_policy *pol, const char *const *tools, size_t n)
{
    loop l;
    toolgov__out o;
    size_t i, last = 0, lines = 0;
    int any_once = 0, started = 0;

    if (!pol || (!out && size) || (n && !tools))
        return TOOLGOV_EINVAL;
    l.reg = pol->reg;
    l.tools = tools;
    l.n = n;
    for (i = 0; i < n; i++) {
        long k;

        if (!tools[i])
            return TOOLGOV_EINVAL;
        k = toolgov__registry_index(pol->reg, tools[i], strlen(tools[i]));
        if (k < 0) {
            if (size)
                out[0] = '\0';
            if (needed)
                *needed = 0;
            return TOOLGOV_ENOENT;
        }
        if (i < INDEX_CACHE)
            l.cache[i] = (size_t)k;
    }

    toolgov__out_init(&o, out, size);
    for (i = 0; i < n; i++) {
        size_t k = loop_index(&l, i);
        int once = toolgov__policy_once(pol, k);

        if (repeated(&l, i))
            continue;
        if (lines++ == 0)
            toolgov__out_str(&o, "Tools:\n");
        tool_line(&o, pol->reg->tools[k].spec, once);
        any_once |= once && pol->reg->tools[k].spec->effect != TOOLGOV_EFFECT_DESTRUCTIVE;
    }
    if (any_once) {
        toolgov__out_put(&o, "\n", 1);
        toolgov__out_str(&o, toolgov_prompt_confirm_rule);
    }

    /* Guidance in registration order: repeatedly take the smallest pool
    ** index above the last one taken (a loop is small; no sort buffer). */
    for (;;) {
        size_t best = (size_t)-1, k;
        const char *g;
        int seen = 0;

        for (i = 0; i < n; i++) {
            k = loop_index(&l, i);
            if ((!started || k > last) && k < best)
                best = k;
        }
        if (best == (size_t)-1)
            break;
        started = 1;
        last = best;
        g = pol->reg->tools[best].spec->guidance;
        if (!*g)
            continue;
        /* Drop a text an earlier on-loop tool (in registration order) had. */
        for (i = 0; i < n && !seen; i++) {
            const char *h;

            k = loop_index(&l, i);
            h = pol->reg->tools[k].spec->guidance;
            seen = k < best && (h == g || strcmp(h, g) == 0);
        }
        if (seen)
            continue;
        toolgov__out_put(&o, "\n", 1);
        toolgov__out_str(&o, g);
        if (g[strlen(g) - 1] != '\n')
            toolgov__out_put(&o, "\n", 1);
    }
    return toolgov__out_finish(&o, needed);
}
