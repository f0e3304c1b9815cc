/* SPDX-License-Identifier: MIT */
/*
** fixture.h: hand-built plugins and a counting allocator shared by the
** runtime suites. The plugins are written the way generated code would be
** (a static const spec table, a register function calling
** toolgov_register_tool) so the tests need no generator.
**
** Plugins:
**   alpha  lookup (read), make_note (write, once), set_pref (write, never),
**          digest (read, answers directly), purge (destructive),
**          tidy (write, never, answers directly), star (read, pinned)
**   beta   beta_read (read); registers the undeclared "sneaky", its declared
**          "lookup" (already alpha's) and "ask_user" (the core's); declares
**          "forgotten" and never registers it
**   gamma  provides: tool, declares g1, registers nothing
**   broken register function returns TOOLGOV_EFAIL after one registration
*/
#ifndef TOOLGOV_TEST_FIXTURE_H
#define TOOLGOV_TEST_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include <toolgov/toolgov.h>
#include <toolgov/drift.h>
#include <toolgov/policy.h>
#include <toolgov/prompt.h>
#include <toolgov/run.h>
#include <toolgov/shortlist.h>

#if defined(__GNUC__) || defined(__clang__)
#define FX_UNUSED __attribute__((unused))
#else
#define FX_UNUSED
#endif

/* ---- counting handler ---- */

typedef struct fx_counts {
    int calls[16];
    int total;
} fx_counts;

enum { FX_LOOKUP, FX_MAKE_NOTE, FX_SET_PREF, FX_DIGEST, FX_PURGE, FX_TIDY, FX_STAR,
       FX_BETA_READ, FX_OTHER };

static inline int fx_slot(const char *tool)
{
    static const char *const names[] = {"lookup", "make_note", "set_pref", "digest",
                                        "purge", "tidy", "star", "beta_read"};
    int i;

    for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(names[i], tool) == 0)
            return i;
    return FX_OTHER;
}

/* Counts the call in the run's counters (run_ctx) when given, else in the
** plugin's (plugin_ctx). Arguments steer the output:
**   {"fail":1}   returns TOOLGOV_EHANDLER with a message
**   {"empty":1}  returns 0 with no output
**   otherwise    returns 0 with "<tool> <args>" */
static inline int fx_handler(const toolgov_call *call, const void *args,
                             toolgov_result *out)
{
    fx_counts *c = call->run_ctx ? (fx_counts *)call->run_ctx : (fx_counts *)call->plugin_ctx;

    (void)args;
    if (c) {
        c->calls[fx_slot(call->tool)]++;
        c->total++;
    }
    if (strcmp(call->args, "{\"fail\":1}") == 0) {
        toolgov_result_printf(out, "%s failed", call->tool);
        return TOOLGOV_EHANDLER;
    }
    if (strcmp(call->args, "{\"empty\":1}") == 0)
        return 0;
    return toolgov_result_printf(out, "%s %s", call->tool, call->args);
}

/* ---- alpha ---- */

/* The parameters {"type": "object"}: any object, its members kept (sorted)
** in the canonical text the handler sees. The fixture's tools take it so
** tests can tell calls apart by their arguments; `star` and the tools of
** beta and gamma declare none and take only {}. */
FX_UNUSED static const toolgov_arg_schema fx_any_object = {
    TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, sizeof(toolgov_no_args),
    0u, NULL, 0};
#define FX_ANY_OBJECT &fx_any_object, "{\"type\":\"object\"}"

FX_UNUSED static const char *const fx_provides_tool[] = {"tool"};

FX_UNUSED static const toolgov_tool_spec fx_alpha_tools[] = {
    {sizeof(toolgov_tool_spec), "lookup", "Find entries for a day.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER,
     "Use lookup for dates.", 0, 0, 3, 3, FX_ANY_OBJECT},
    {sizeof(toolgov_tool_spec), "make_note", "Create one note.", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE,
     "Notes are short.", 0, 0, 6, 3, FX_ANY_OBJECT},
    {sizeof(toolgov_tool_spec), "set_pref", "Change a preference.", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER, "",
     0, 0, 10, 3, FX_ANY_OBJECT},
    {sizeof(toolgov_tool_spec), "digest", "Summarise the day.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER,
     "Use lookup for dates.", 0, 1, 14, 3, FX_ANY_OBJECT},
    {sizeof(toolgov_tool_spec), "purge", "Delete everything old.", TOOLGOV_EFFECT_DESTRUCTIVE, TOOLGOV_CONFIRM_NEVER,
     "", 0, 0, 18, 3, FX_ANY_OBJECT},
    {sizeof(toolgov_tool_spec), "tidy", "Move clutter away.", TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER,
     "Tidy reports what it moved.", 0, 1, 22, 3, FX_ANY_OBJECT},
    {sizeof(toolgov_tool_spec), "star", "Search everything.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 1, 0,
     26, 3, NULL, "{}"},
};

static inline int fx_alpha_register(toolgov_plugin_api *api)
{
    size_t i;
    int rc;

    for (i = 0; i < sizeof fx_alpha_tools / sizeof fx_alpha_tools[0]; i++) {
        rc = toolgov_register_tool(api, fx_alpha_tools[i].name, "ignored", fx_handler);
        if (rc == TOOLGOV_ENOMEM)
            return rc;
    }
    return 0;
}

FX_UNUSED static const toolgov_plugin fx_alpha = {
    TOOLGOV_ABI_VERSION, "alpha", "alpha.yaml", fx_provides_tool, 1, fx_alpha_tools,
    sizeof fx_alpha_tools / sizeof fx_alpha_tools[0], fx_alpha_register};

/* ---- beta ---- */

FX_UNUSED static const toolgov_tool_spec fx_beta_tools[] = {
    {sizeof(toolgov_tool_spec), "beta_read", "Read beta things.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER,
     "Beta guidance.", 0, 0, 3, 3, NULL, "{}"},
    {sizeof(toolgov_tool_spec), "lookup", "Beta's own lookup.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0,
     5, 3, NULL, "{}"},
    {sizeof(toolgov_tool_spec), "ask_user", "Beta's ask.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 7, 3, NULL, "{}"},
    {sizeof(toolgov_tool_spec), "forgotten", "Never registered.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0,
     9, 3, NULL, "{}"},
};

static inline int fx_beta_register(toolgov_plugin_api *api)
{
    static const char *const names[] = {"beta_read", "sneaky", "lookup", "ask_user"};
    size_t i;

    for (i = 0; i < 4; i++)
        if (toolgov_register_tool(api, names[i], "", fx_handler) == TOOLGOV_ENOMEM)
            return TOOLGOV_ENOMEM;
    return 0;
}

FX_UNUSED static const toolgov_plugin fx_beta = {
    TOOLGOV_ABI_VERSION, "beta", "beta.yaml", fx_provides_tool, 1, fx_beta_tools, 4,
    fx_beta_register};

/* ---- gamma ---- */

FX_UNUSED static const toolgov_tool_spec fx_gamma_tools[] = {
    {sizeof(toolgov_tool_spec), "g1", "Gamma one.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 4, 3, NULL, "{}"},
};

static inline int fx_gamma_register(toolgov_plugin_api *api)
{
    (void)api;
    return 0;
}

FX_UNUSED static const toolgov_plugin fx_gamma = {
    TOOLGOV_ABI_VERSION, "gamma", "gamma.yaml", fx_provides_tool, 1, fx_gamma_tools, 1,
    fx_gamma_register};

/* ---- broken ---- */

FX_UNUSED static const toolgov_tool_spec fx_broken_tools[] = {
    {sizeof(toolgov_tool_spec), "b1", "Broken one.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 4, 3, NULL, "{}"},
    {sizeof(toolgov_tool_spec), "b2", "Broken two.", TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 6, 3, NULL, "{}"},
};

static inline int fx_broken_register(toolgov_plugin_api *api)
{
    int rc = toolgov_register_tool(api, "b1", "", fx_handler);

    return rc < 0 ? rc : TOOLGOV_EFAIL;
}

FX_UNUSED static const toolgov_plugin fx_broken = {
    TOOLGOV_ABI_VERSION, "broken", "broken.yaml", fx_provides_tool, 1, fx_broken_tools, 2,
    fx_broken_register};

/* ---- counting allocator ---- */

typedef struct fx_alloc_state {
    size_t attempts;   /* allocations and growths attempted */
    size_t fail_at;    /* fail the attempt with this number (1-based); 0: never */
    long live;         /* blocks held */
    long long bytes;   /* bytes held, from the sizes the runtime reports */
    int failed;        /* an attempt was failed */
} fx_alloc_state;

static inline void *fx_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    fx_alloc_state *s = ud;
    void *p;

    if (nsize == 0) {
        if (ptr) {
            s->live--;
            s->bytes -= (long long)osize;
        }
        free(ptr);
        return NULL;
    }
    s->attempts++;
    if (s->fail_at && s->attempts == s->fail_at) {
        s->failed = 1;
        return NULL;
    }
    p = realloc(ptr, nsize);
    if (!p)
        return NULL;
    if (!ptr)
        s->live++;
    s->bytes += (long long)nsize - (long long)(ptr ? osize : 0);
    return p;
}

/* A registry with alpha mounted and every built-in bound to fx_handler. */
static inline toolgov_registry *fx_registry(const toolgov_allocator *alloc, void *plugin_ctx)
{
    static const char *const builtins[] = {
        "memory_search", "ask_user", "memory_correct", "memory_forget", "memory_restore",
        "record_feedback", "promote_recommendation", "propose_skill_from_sandbox",
        "invoke_pending_action"};
    toolgov_registry *reg = NULL;
    size_t i;

    if (toolgov_registry_new(&reg, alloc) < 0)
        return NULL;
    if (toolgov_registry_mount(reg, &fx_alpha, plugin_ctx) < 0) {
        toolgov_registry_free(reg);
        return NULL;
    }
    for (i = 0; i < 9; i++)
        toolgov_registry_bind_builtin(reg, builtins[i], fx_handler, plugin_ctx);
    return reg;
}

#endif /* TOOLGOV_TEST_FIXTURE_H */
