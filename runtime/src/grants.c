/* SPDX-License-Identifier: MIT */
/*
** grants.c: standing grants (grants.h): the set, its sealed text, and the
** one question the gate asks of it (toolgov__grants_decide).
**
** A set is an array of grants in the order they were added; a run's gate
** walks it for the tool of a call (sets are small: what one user answered
** ahead of time). Every grant owns its strings. The text is sealed with
** the runtime's one sealing (seal.h), bound to the set's user, so a text
** of another user, another key or another kind never opens here; its body
** is read whole into a scratch array and swapped in only when every line
** is good, so a refused text leaves the set as it was.
*/
#include <string.h>
#include <time.h>

#include "internal.h"
#include "seal.h"
#include "sort.h"

#define GRANTS_MAGIC "toolgov-grants 1\n"
/* Times and ids in the text: decimal, below 2^62. */
#define NUM_LIMIT (1ull << 62)

typedef struct grant {
    unsigned long long id;
    toolgov_grant_verdict verdict;
    long long expires, created;
    char *plugin, *tool, *args, *by; /* args NULL: the whole tool */
    size_t plugin_len, tool_len, args_len, by_len;
} grant;

struct toolgov_grants {
    toolgov_allocator alloc;
    toolgov_clock_fn clock;
    void *clock_ud;
    unsigned long long next_id;
    grant *v;
    size_t n, cap;
    /* v's positions ordered by tool, then plugin, then position (rebuilt on
    ** every change of v), so the gate finds a tool's grants by a binary
    ** search; its second half is the sort's scratch. */
    size_t *by_tool, by_tool_cap;
    size_t user_len;
    char user[TOOLGOV_GRANTS_NAME_MAX + 1];
};

const char *toolgov_grant_verdict_name(toolgov_grant_verdict verdict)
{
    switch (verdict) {
    case TOOLGOV_GRANT_ALLOW: return "allow";
    case TOOLGOV_GRANT_NEVER: return "never";
    }
    return "unknown";
}

/* ---- the set ---- */

static long long system_clock(void *ud)
{
    struct timespec ts;

    (void)ud;
    if (timespec_get(&ts, TIME_UTC) != TIME_UTC)
        return 0;
    return (long long)ts.tv_sec;
}

static long long now(const toolgov_grants *g)
{
    return g->clock ? g->clock(g->clock_ud) : system_clock(NULL);
}

/* Is a grant past its expiry at time t? */
static int expired(const grant *gr, long long t)
{
    return gr->expires != TOOLGOV_GRANT_NO_EXPIRY && t >= gr->expires;
}

int toolgov_grants_new(toolgov_grants **out, const char *user, const toolgov_allocator *alloc)
{
    toolgov_allocator a;
    toolgov_grants *g;
    size_t n;

    if (!out || !user || (n = strlen(user)) == 0 || n > TOOLGOV_GRANTS_NAME_MAX)
        return TOOLGOV_EINVAL;
    a.fn = alloc ? alloc->fn : NULL; /* NULL: the C library's (core.c) */
    a.ud = alloc ? alloc->ud : NULL;
    g = toolgov__alloc(&a, sizeof *g);
    if (!g)
        return TOOLGOV_ENOMEM;
    memset(g, 0, sizeof *g);
    g->alloc = a;
    g->next_id = 1;
    memcpy(g->user, user, n + 1);
    g->user_len = n;
    *out = g;
    return 0;
}

static void grant_free(const toolgov_allocator *a, grant *gr)
{
    toolgov__free(a, gr->plugin, gr->plugin_len + 1);
    toolgov__free(a, gr->tool, gr->tool_len + 1);
    if (gr->args)
        toolgov__free(a, gr->args, gr->args_len + 1);
    toolgov__free(a, gr->by, gr->by_len + 1);
    memset(gr, 0, sizeof *gr);
}

static void grants_clear(const toolgov_allocator *a, grant *v, size_t n, size_t cap)
{
    size_t i;

    for (i = 0; i < n; i++)
        grant_free(a, &v[i]);
    toolgov__free(a, v, cap * sizeof *v);
}

void toolgov_grants_free(toolgov_grants *g)
{
    toolgov_allocator a;

    if (!g)
        return;
    a = g->alloc;
    grants_clear(&a, g->v, g->n, g->cap);
    toolgov__free(&a, g->by_tool, g->by_tool_cap * sizeof *g->by_tool);
    toolgov__free(&a, g, sizeof *g);
}

const char *toolgov_grants_user(const toolgov_grants *g)
{
    return g ? g->user : NULL;
}

void toolgov_grants_set_clock(toolgov_grants *g, toolgov_clock_fn fn, void *ud)
{
    if (!g)
        return;
    g->clock = fn;
    g->clock_ud = fn ? ud : NULL;
}

size_t toolgov_grants_count(const toolgov_grants *g)
{
    return g ? g->n : 0;
}

int toolgov_grants_at(toolgov_grant *out, const toolgov_grants *g, size_t i)
{
    const grant *gr;

    if (!out || !g)
        return TOOLGOV_EINVAL;
    if (i >= g->n)
        return TOOLGOV_ENOENT;
    gr = &g->v[i];
    out->id = gr->id;
    out->plugin = gr->plugin;
    out->tool = gr->tool;
    out->args = gr->args;
    out->verdict = gr->verdict;
    out->expires = gr->expires;
    out->created = gr->created;
    out->granted_by = gr->by;
    return 0;
}

/* ---- the index by tool ---- */

/* Grant gr's tool and plugin against (tool, plugin): negative when gr's
** sort before, 0 when they are the same, positive after. Lengths first: a
** cheap order, and the only one the search needs. */
static int key_cmp(const grant *gr, const char *tool, size_t tool_len, const char *plugin,
                   size_t plugin_len)
{
    int c;

    if (gr->tool_len != tool_len)
        return gr->tool_len < tool_len ? -1 : 1;
    if ((c = memcmp(gr->tool, tool, tool_len)) != 0)
        return c;
    if (gr->plugin_len != plugin_len)
        return gr->plugin_len < plugin_len ? -1 : 1;
    return memcmp(gr->plugin, plugin, plugin_len);
}

static int by_tool_cmp(const void *a, const void *b, const void *ctx)
{
    const grant *v = ctx, *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];

    return key_cmp(x, y->tool, y->tool_len, y->plugin, y->plugin_len);
}

/* The whole scope order: tool and plugin as key_cmp, then the tool-wide
** grant (no arguments) before the call grants, these by their canonical
** arguments. Two grants compare 0 exactly when same_scope holds. */
static int scope_cmp(const void *a, const void *b, const void *ctx)
{
    const grant *v = ctx, *x = &v[*(const size_t *)a], *y = &v[*(const size_t *)b];
    int c = key_cmp(x, y->tool, y->tool_len, y->plugin, y->plugin_len);

    if (c != 0)
        return c;
    if (!x->args || !y->args)
        return (x->args != NULL) - (y->args != NULL);
    if (x->args_len != y->args_len)
        return x->args_len < y->args_len ? -1 : 1;
    return memcmp(x->args, y->args, x->args_len);
}

/* Do two of v's n grants have the same scope? 1 or 0, TOOLGOV_ENOMEM.
** Sorted by scope, such a pair is adjacent: O(n log n) where comparing
** every pair took n^2 / 2 for a file of TOOLGOV_GRANTS_MAX grants. */
static int scope_repeated(const toolgov_allocator *a, const grant *v, size_t n)
{
    size_t *ix = NULL, cap = 0, i;
    int rc;

    if (n < 2)
        return 0;
    if ((rc = toolgov__reserve(a, (void **)&ix, &cap, 2 * n, sizeof *ix)) < 0)
        return rc;
    for (i = 0; i < n; i++)
        ix[i] = i;
    toolgov__merge_sort(ix, ix + n, n, sizeof *ix, scope_cmp, v);
    rc = 0;
    for (i = 1; i < n && !rc; i++)
        rc = scope_cmp(&ix[i - 1], &ix[i], v) == 0;
    toolgov__free(a, ix, cap * sizeof *ix);
    return rc;
}

/* Room for an index of n grants (and the sort's scratch). */
static int by_tool_reserve(toolgov_grants *g, size_t n)
{
    return toolgov__reserve(&g->alloc, (void **)&g->by_tool, &g->by_tool_cap, 2 * n,
                            sizeof *g->by_tool);
}

/* Rebuild the index after v changed; its room was reserved before. The
** sort is stable, so a tool's grants stay in the order of v. */
static void reindex(toolgov_grants *g)
{
    size_t i;

    for (i = 0; i < g->n; i++)
        g->by_tool[i] = i;
    if (g->n > 1)
        toolgov__merge_sort(g->by_tool, g->by_tool + g->n, g->n, sizeof *g->by_tool,
                            by_tool_cmp, g->v);
}

/* The index range [*lo, *hi) of tool t's grants (empty when it has none). */
static void tool_range(const toolgov_grants *g, const toolgov__tool *t, size_t *lo,
                       size_t *hi)
{
    const char *plugin = t->plugin ? t->plugin->name : "";
    size_t plugin_len = strlen(plugin), l = 0, h = g->n;

    while (l < h) {
        size_t m = l + (h - l) / 2;

        if (key_cmp(&g->v[g->by_tool[m]], t->name, t->name_len, plugin, plugin_len) < 0)
            l = m + 1;
        else
            h = m;
    }
    *lo = l;
    while (h < g->n &&
           key_cmp(&g->v[g->by_tool[h]], t->name, t->name_len, plugin, plugin_len) == 0)
        h++;
    *hi = h;
}

static void remove_at(toolgov_grants *g, size_t i)
{
    grant_free(&g->alloc, &g->v[i]);
    memmove(&g->v[i], &g->v[i + 1], (g->n - i - 1) * sizeof *g->v);
    g->n--;
    reindex(g);
}

int toolgov_grants_revoke(toolgov_grants *g, unsigned long long id)
{
    size_t i;

    if (!g)
        return TOOLGOV_EINVAL;
    for (i = 0; i < g->n; i++)
        if (g->v[i].id == id) {
            remove_at(g, i);
            return 0;
        }
    return TOOLGOV_ENOENT;
}

/* A name a person reads in a list or a log: no control bytes. */
static int printable(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 0;
    return 1;
}

/* Is this grant about exactly that tool and scope (both the whole tool, or
** the same call)? */
static int same_scope(const grant *gr, const char *plugin, size_t plugin_len, const char *tool,
                      size_t tool_len, const char *args, size_t args_len)
{
    if (gr->plugin_len != plugin_len || memcmp(gr->plugin, plugin, plugin_len) != 0 ||
        gr->tool_len != tool_len || memcmp(gr->tool, tool, tool_len) != 0)
        return 0;
    if (!gr->args || !args)
        return !gr->args && !args;
    return gr->args_len == args_len && memcmp(gr->args, args, args_len) == 0;
}

/* Fill a new grant's strings (copies); 0 or TOOLGOV_ENOMEM (then freed). */
static int grant_fill(const toolgov_allocator *a, grant *gr, const char *plugin,
                      size_t plugin_len, const char *tool, size_t tool_len, const char *args,
                      size_t args_len, const char *by, size_t by_len)
{
    memset(gr, 0, sizeof *gr);
    gr->plugin = toolgov__memdup(a, plugin, plugin_len);
    gr->tool = toolgov__memdup(a, tool, tool_len);
    gr->args = args ? toolgov__memdup(a, args, args_len) : NULL;
    gr->by = toolgov__memdup(a, by, by_len);
    gr->plugin_len = plugin_len;
    gr->tool_len = tool_len;
    gr->args_len = args ? args_len : 0;
    gr->by_len = by_len;
    if (!gr->plugin || !gr->tool || (args && !gr->args) || !gr->by) {
        toolgov__free(a, gr->plugin, plugin_len + 1);
        toolgov__free(a, gr->tool, tool_len + 1);
        toolgov__free(a, gr->args, args_len + 1);
        toolgov__free(a, gr->by, by_len + 1);
        memset(gr, 0, sizeof *gr);
        return TOOLGOV_ENOMEM;
    }
    return 0;
}

int toolgov_grants_add(unsigned long long *id_out, toolgov_grants *g,
                       const toolgov_registry *reg, const toolgov_grant *in)
{
    const toolgov__tool *t;
    const char *plugin, *by;
    toolgov_args_decoder *dec = NULL;
    toolgov_decoded_args d;
    const char *args = NULL;
    size_t args_len = 0, by_len, i;
    long long t_now;
    long ref;
    grant gr;
    int rc;

    if (!g || !reg || !in || !in->tool ||
        (in->verdict != TOOLGOV_GRANT_ALLOW && in->verdict != TOOLGOV_GRANT_NEVER))
        return TOOLGOV_EINVAL;
    by = in->granted_by && *in->granted_by ? in->granted_by : g->user;
    by_len = strlen(by);
    if (by_len > TOOLGOV_GRANTS_NAME_MAX || !printable(by, by_len))
        return TOOLGOV_EINVAL;
    ref = toolgov__registry_holder(reg, in->tool, strlen(in->tool));
    if (ref < 0)
        return TOOLGOV_ENOENT;
    t = toolgov__tool_at(reg, ref);
    plugin = t->plugin ? t->plugin->name : "";
    if (in->plugin && strcmp(in->plugin, plugin) != 0)
        return TOOLGOV_ENOENT;
    /* Reads never ask: there is nothing to allow. A destructive tool is
    ** answered call by call, so its grants name one call. */
    if ((in->verdict == TOOLGOV_GRANT_ALLOW && t->effect == TOOLGOV_EFFECT_READ) ||
        (t->effect == TOOLGOV_EFFECT_DESTRUCTIVE && !in->args))
        return TOOLGOV_EINVAL;
    t_now = now(g);
    if (in->expires != TOOLGOV_GRANT_NO_EXPIRY &&
        (in->expires <= t_now || (unsigned long long)in->expires >= NUM_LIMIT))
        return TOOLGOV_EINVAL;
    if (t_now < 0 || (unsigned long long)t_now >= NUM_LIMIT)
        return TOOLGOV_EINVAL;
    if (in->args) {
        if ((rc = toolgov_args_decoder_new(&dec, &reg->alloc)) < 0)
            return rc;
        rc = toolgov_args_decode(&d, dec, toolgov__spec_params(t->spec), t->name, in->args,
                                 strlen(in->args));
        if (rc < 0)
            goto out;
        args = d.canonical;
        args_len = d.canonical_len;
    }
    for (i = 0; i < g->n; i++)
        if (same_scope(&g->v[i], plugin, strlen(plugin), t->name, t->name_len, args, args_len))
            break;
    if (i == g->n && g->n >= TOOLGOV_GRANTS_MAX) {
        rc = TOOLGOV_ENOSPC;
        goto out;
    }
    if ((rc = toolgov__reserve(&g->alloc, (void **)&g->v, &g->cap, g->n + 1, sizeof *g->v)) <
            0 ||
        (rc = by_tool_reserve(g, g->n + 1)) < 0 ||
        (rc = grant_fill(&g->alloc, &gr, plugin, strlen(plugin), t->name, t->name_len, args,
                         args_len, by, by_len)) < 0)
        goto out;
    gr.id = g->next_id++;
    gr.verdict = in->verdict;
    gr.expires = in->expires;
    gr.created = t_now;
    if (i < g->n)
        remove_at(g, i); /* the newer answer replaces the older */
    g->v[g->n++] = gr;
    reindex(g);
    if (id_out)
        *id_out = gr.id;
out:
    toolgov_args_decoder_free(dec);
    return rc;
}

/* ---- the gate's question ---- */

int toolgov__grants_any(const toolgov_grants *g, const toolgov__tool *t, int *exact)
{
    size_t lo, hi, j;

    *exact = 0;
    tool_range(g, t, &lo, &hi);
    for (j = lo; j < hi; j++)
        *exact |= g->v[g->by_tool[j]].args != NULL;
    return hi > lo;
}

long toolgov__grants_decide(const toolgov_grants *g, const toolgov__tool *t, const char *args,
                            size_t args_len, toolgov_grant_verdict *verdict)
{
    long never = -1, exact = -1, whole = -1;
    long long t_now = 0;
    int have_now = 0;
    size_t lo, hi;

    /* The tool's grants in the order of v, as a walk of the whole set
    ** would meet them. */
    tool_range(g, t, &lo, &hi);
    for (; lo < hi; lo++) {
        size_t i = g->by_tool[lo];
        const grant *gr = &g->v[i];

        if (gr->args && (!args || gr->args_len != args_len ||
                         memcmp(gr->args, args, args_len) != 0))
            continue;
        if (gr->expires != TOOLGOV_GRANT_NO_EXPIRY) {
            if (!have_now) {
                t_now = now(g);
                have_now = 1;
            }
            if (expired(gr, t_now))
                continue;
        }
        if (gr->verdict == TOOLGOV_GRANT_NEVER) {
            if (never < 0)
                never = (long)i;
        } else if (gr->args) {
            exact = (long)i;
        } else {
            whole = (long)i;
        }
    }
    if (never >= 0) {
        *verdict = TOOLGOV_GRANT_NEVER;
        return never;
    }
    *verdict = TOOLGOV_GRANT_ALLOW;
    /* A destructive tool is allowed only call by call. */
    if (exact >= 0)
        return exact;
    return t->effect == TOOLGOV_EFFECT_DESTRUCTIVE ? -1 : whole;
}

void toolgov__grants_name(const toolgov_grants *g, long i, unsigned long long *id,
                          const char **by)
{
    *id = g->v[i].id;
    *by = g->v[i].by;
}

int toolgov_run_set_grants(toolgov_run *run, const toolgov_grants *g)
{
    if (!run || run->parent)
        return TOOLGOV_EINVAL;
    run->grants = g;
    return 0;
}

/* ---- the sealed text ---- */

int toolgov_grants_save(char *out, size_t size, size_t *needed, const toolgov_grants *g,
                        const toolgov_state_key *key)
{
    toolgov__sealer k;
    toolgov__out o;
    long long t_now;
    size_t i;

    if (needed)
        *needed = 0;
    if (out && size)
        out[0] = '\0';
    if (!g || !key || (!out && size))
        return TOOLGOV_EINVAL;
    if (!toolgov__crypto_ready())
        return TOOLGOV_EFAIL;
    t_now = now(g);
    toolgov__out_init(&o, out, size);
    toolgov__seal_begin(&k, &o, key, GRANTS_MAGIC, g->user, g->user_len);
    toolgov__seal_str(&k, "next ");
    toolgov__seal_num(&k, g->next_id);
    toolgov__seal_str(&k, "\n");
    for (i = 0; i < g->n; i++) {
        const grant *gr = &g->v[i];

        if (expired(gr, t_now))
            continue;
        toolgov__seal_str(&k, "grant ");
        toolgov__seal_num(&k, gr->id);
        toolgov__seal_str(&k, gr->verdict == TOOLGOV_GRANT_NEVER ? " never " : " allow ");
        toolgov__seal_num(&k, (unsigned long long)gr->created);
        toolgov__seal_str(&k, " ");
        toolgov__seal_num(&k, (unsigned long long)gr->expires);
        toolgov__seal_str(&k, " ");
        toolgov__seal_bytes(&k, gr->plugin, gr->plugin_len);
        toolgov__seal_str(&k, " ");
        toolgov__seal_bytes(&k, gr->tool, gr->tool_len);
        toolgov__seal_str(&k, " ");
        if (gr->args)
            toolgov__seal_bytes(&k, gr->args, gr->args_len);
        else
            toolgov__seal_str(&k, "-");
        toolgov__seal_str(&k, " ");
        toolgov__seal_bytes(&k, gr->by, gr->by_len);
        toolgov__seal_str(&k, "\n");
    }
    toolgov__seal_end(&k);
    return toolgov__out_finish(&o, needed);
}

typedef toolgov__reader cursor;

/* The field readers of seal.h, under short names. */
static int lit(cursor *c, const char *s)
{
    return toolgov__read_lit(c, s);
}

static int bytes(cursor *c, const char **s, size_t *n)
{
    return toolgov__read_bytes(c, s, n);
}

/* A decimal number without sign or leading zeros, below NUM_LIMIT. */
static int num(cursor *c, unsigned long long *out)
{
    return toolgov__read_num(c, NUM_LIMIT, out);
}

/* One "grant ..." line after its word; fills gr (owned strings). */
static int parse_grant(cursor *c, const toolgov_allocator *a, grant *gr)
{
    const char *plugin, *tool, *args = NULL, *by;
    size_t plugin_len, tool_len, args_len = 0, by_len;
    unsigned long long id, created, expires;
    int never;

    if (!num(c, &id) || id == 0)
        return TOOLGOV_ESTATE;
    if (lit(c, " never "))
        never = 1;
    else if (lit(c, " allow "))
        never = 0;
    else
        return TOOLGOV_ESTATE;
    if (!num(c, &created) || !lit(c, " ") || !num(c, &expires) || !lit(c, " ") ||
        !bytes(c, &plugin, &plugin_len) || !lit(c, " ") || !bytes(c, &tool, &tool_len) ||
        tool_len == 0 || !lit(c, " "))
        return TOOLGOV_ESTATE;
    if (!lit(c, "-") && !bytes(c, &args, &args_len))
        return TOOLGOV_ESTATE;
    if (!lit(c, " ") || !bytes(c, &by, &by_len) || by_len == 0 ||
        by_len > TOOLGOV_GRANTS_NAME_MAX || !lit(c, "\n"))
        return TOOLGOV_ESTATE;
    /* Names are C strings everywhere else; a person reads who granted. */
    if (memchr(plugin, '\0', plugin_len) || memchr(tool, '\0', tool_len) ||
        (args && memchr(args, '\0', args_len)) || !printable(by, by_len))
        return TOOLGOV_ESTATE;
    if (expires != (unsigned long long)TOOLGOV_GRANT_NO_EXPIRY && expires <= created)
        return TOOLGOV_ESTATE;
    if (grant_fill(a, gr, plugin, plugin_len, tool, tool_len, args, args_len, by, by_len) < 0)
        return TOOLGOV_ENOMEM;
    gr->id = id;
    gr->verdict = never ? TOOLGOV_GRANT_NEVER : TOOLGOV_GRANT_ALLOW;
    gr->created = (long long)created;
    gr->expires = (long long)expires;
    return 0;
}

int toolgov_grants_load(toolgov_grants *g, const char *text, size_t len,
                        const toolgov_state_key *key)
{
    const toolgov_allocator *a;
    grant *v = NULL;
    size_t n = 0, cap = 0, body_len;
    unsigned long long next;
    long long t_now;
    const char *body;
    cursor c;
    int rc;

    if (!g || !key || (!text && len))
        return TOOLGOV_EINVAL;
    if (!toolgov__crypto_ready())
        return TOOLGOV_EFAIL;
    if (toolgov__seal_open(&body, &body_len, text, len, key, GRANTS_MAGIC, g->user,
                           g->user_len) != 0)
        return TOOLGOV_ESTATE;
    a = &g->alloc;
    t_now = now(g);
    c.p = body;
    c.end = body + body_len;
    rc = TOOLGOV_ESTATE;
    if (!lit(&c, "next ") || !num(&c, &next) || next == 0 || !lit(&c, "\n"))
        goto fail;
    while (lit(&c, "grant ")) {
        grant gr;

        if (n >= TOOLGOV_GRANTS_MAX) {
            rc = TOOLGOV_ESTATE;
            goto fail;
        }
        if ((rc = toolgov__reserve(a, (void **)&v, &cap, n + 1, sizeof *v)) < 0 ||
            (rc = parse_grant(&c, a, &gr)) < 0)
            goto fail;
        /* Ids rise line by line, below the next one to give. */
        if (gr.id >= next || (n && gr.id <= v[n - 1].id)) {
            grant_free(a, &gr);
            rc = TOOLGOV_ESTATE;
            goto fail;
        }
        if (expired(&gr, t_now)) {
            grant_free(a, &gr);
            continue;
        }
        v[n++] = gr;
    }
    rc = TOOLGOV_ESTATE;
    if (c.p != c.end)
        goto fail;
    /* One grant per tool and scope, as add keeps it. */
    if ((rc = scope_repeated(a, v, n)) != 0) {
        if (rc > 0)
            rc = TOOLGOV_ESTATE;
        goto fail;
    }
    if ((rc = by_tool_reserve(g, n)) < 0)
        goto fail;
    grants_clear(a, g->v, g->n, g->cap);
    g->v = v;
    g->n = n;
    g->cap = cap;
    g->next_id = next;
    reindex(g);
    return 0;
fail:
    grants_clear(a, v, n, cap);
    return rc;
}
