/* SPDX-License-Identifier: MIT */
/*
** registry.c: the tool pool, mounting plugins, and the registration calls a
** plugin's register function makes.
**
** Mounting hands the plugin's register function an API bound to that
** plugin's manifest table, so a registration can only ever give a tool the
** spec its manifest declares. The pool is an array in registration order
** plus a hash index (see internal.h); a failed mount truncates the array back
** and rebuilds the index in place, so "left as it was" needs no allocation.
*/
#include <string.h>

#include "args_internal.h"
#include "internal.h"

/* The core's own tools. Their effects are declared here, in code, because
** they belong to the core; hosts bind their handlers. Order matters: the
** TOOLGOV__BUILTIN_* indexes point into it. */
static const toolgov_tool_spec builtins[TOOLGOV__BUILTIN_COUNT] = {
    {sizeof(toolgov_tool_spec), "memory_search", "Search what the assistant remembers about the user.",
     TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 0, 0, &toolgov__core_params[0],
     toolgov__core_schema_memory_search},
    {sizeof(toolgov_tool_spec), "ask_user", "Ask the user a question and wait for the answer.",
     TOOLGOV_EFFECT_READ, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 0, 0, &toolgov__core_params[1],
     toolgov__core_schema_ask_user},
    {sizeof(toolgov_tool_spec), "memory_correct", "Correct a remembered fact the user says is wrong.",
     TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 0, 0, &toolgov__core_params[2],
     toolgov__core_schema_memory_correct},
    {sizeof(toolgov_tool_spec), "memory_forget", "Forget a remembered fact the user asks to drop.",
     TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 0, 0, &toolgov__core_params[3],
     toolgov__core_schema_memory_forget},
    {sizeof(toolgov_tool_spec), "memory_restore", "Restore a fact that was forgotten by mistake.",
     TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 0, 0, &toolgov__core_params[4],
     toolgov__core_schema_memory_restore},
    {sizeof(toolgov_tool_spec), "record_feedback", "Record the user's feedback on an answer.",
     TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_NEVER, "", 0, 0, 0, 0, &toolgov__core_params[5],
     toolgov__core_schema_record_feedback},
    {sizeof(toolgov_tool_spec), "promote_recommendation", "Turn a recommendation into a standing item.",
     TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE, "", 0, 0, 0, 0, &toolgov__core_params[6],
     toolgov__core_schema_promote_recommendation},
    {sizeof(toolgov_tool_spec), "propose_skill_from_sandbox", "Propose a skill built in the sandbox for adoption.",
     TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE, "", 0, 0, 0, 0, &toolgov__core_params[7],
     toolgov__core_schema_propose_skill_from_sandbox},
    {sizeof(toolgov_tool_spec), "invoke_pending_action", "Carry out an action that is waiting for the user.",
     TOOLGOV_EFFECT_WRITE, TOOLGOV_CONFIRM_ONCE, "", 0, 0, 0, 0, &toolgov__core_params[8],
     toolgov__core_schema_invoke_pending_action},
};

struct toolgov_plugin_api {
    toolgov_registry *reg;
    const toolgov_plugin *plugin;
    void *ctx;
    size_t next;         /* manifest row the next registration likely names */
    unsigned char *status; /* per manifest tool: a toolgov_tool_status */
    int err;             /* sticky TOOLGOV_ENOMEM: the mount must roll back */
};

/* ---- the hash index ---- */

static void index_insert(toolgov_registry *reg, size_t idx)
{
    uint32_t h = reg->tools[idx].hash;
    size_t i = h & reg->mask;

    while (reg->slots[i].idx1)
        i = (i + 1) & reg->mask;
    reg->slots[i].hash = h;
    reg->slots[i].idx1 = (uint32_t)idx + 1;
}

static void index_rebuild(toolgov_registry *reg)
{
    size_t i;

    memset(reg->slots, 0, (reg->mask + 1) * sizeof *reg->slots);
    for (i = 0; i < reg->count; i++)
        index_insert(reg, i);
}

/* Room in the pool and its index for one more tool, keeping the index at
** most half full so probes stay short. */
static int pool_reserve(toolgov_registry *reg)
{
    size_t need = reg->count + 1;
    int rc;

    if (need >= (size_t)TOOLGOV__DECLARED_REF)
        return TOOLGOV_ENOMEM;
    rc = toolgov__reserve(&reg->alloc, (void **)&reg->tools, &reg->cap, need,
                          sizeof *reg->tools);
    if (rc < 0)
        return rc;
    if (need * 2 > reg->mask + 1) {
        size_t nslots = (reg->mask + 1) * 2;
        toolgov__slot *ns = toolgov__alloc(&reg->alloc, nslots * sizeof *ns);

        if (!ns)
            return TOOLGOV_ENOMEM;
        toolgov__free(&reg->alloc, reg->slots, (reg->mask + 1) * sizeof *reg->slots);
        reg->slots = ns;
        reg->mask = nslots - 1;
        index_rebuild(reg);
    }
    return 0;
}

/* Fill a tool entry from its spec (pooled or declared for an own loop). */
static void tool_fill(toolgov__tool *t, const toolgov_tool_spec *spec,
                      toolgov_handler_fn handler, void *ctx, const toolgov_plugin *plugin)
{
    t->spec = spec;
    t->handler = handler;
    t->ctx = ctx;
    t->plugin = plugin;
    t->name = spec->name;
    t->name_len = (uint32_t)strlen(spec->name);
    t->hash = toolgov__hash(spec->name, t->name_len);
    t->effect = (unsigned char)spec->effect;
    t->answers_directly = spec->answers_directly != 0;
    t->guidance = toolgov__spec_guidance(spec);
    t->guidance_hash = toolgov__hash(t->guidance, strlen(t->guidance));
}

/* Append a tool; pool_reserve() must have succeeded first. 0 or
** TOOLGOV_ENOMEM (nothing added). */
static int pool_add(toolgov_registry *reg, const toolgov_tool_spec *spec,
                    toolgov_handler_fn handler, void *ctx,
                    const toolgov_plugin *plugin)
{
    toolgov__args_prep *prep;

    if (toolgov__args_prep_new(&reg->alloc, toolgov__spec_params(spec), &prep) < 0)
        return TOOLGOV_ENOMEM;
    tool_fill(&reg->tools[reg->count], spec, handler, ctx, plugin);
    reg->tools[reg->count].prep = prep;
    index_insert(reg, reg->count);
    reg->count++;
    return 0;
}

/* Forget the tools added since a mount began (pool and declared), with
** what the registry made for them. */
static void tools_truncate(toolgov_registry *reg, size_t count0, size_t ndeclared0)
{
    size_t i;

    for (i = count0; i < reg->count; i++)
        toolgov__args_prep_free(&reg->alloc, reg->tools[i].prep);
    for (i = ndeclared0; i < reg->ndeclared; i++)
        toolgov__args_prep_free(&reg->alloc, reg->declared[i].prep);
    reg->count = count0;
    reg->ndeclared = ndeclared0;
}

/* Names are short: comparing them a word at a time inline beats a call to
** memcmp on the lookup path. */
static int same_name(const char *a, const char *b, size_t len)
{
    uint64_t x, y;

    while (len >= 8) {
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y)
            return 0;
        a += 8;
        b += 8;
        len -= 8;
    }
    while (len--)
        if (*a++ != *b++)
            return 0;
    return 1;
}

long toolgov__registry_index(const toolgov_registry *reg, const char *name,
                             size_t name_len)
{
    uint32_t h = toolgov__hash(name, name_len);
    size_t i = h & reg->mask;
    const toolgov__slot *s;

    for (;; i = (i + 1) & reg->mask) {
        s = &reg->slots[i];
        if (!s->idx1)
            return -1;
        if (s->hash == h) {
            const toolgov__tool *t = &reg->tools[s->idx1 - 1];

            if (t->name_len == name_len && same_name(t->name, name, name_len))
                return (long)(s->idx1 - 1);
        }
    }
}

/* ---- registry lifecycle ---- */

int toolgov_registry_new(toolgov_registry **out, const toolgov_allocator *alloc)
{
    toolgov_allocator a = {NULL, NULL};
    toolgov_registry *reg;
    size_t i;

    if (!out)
        return TOOLGOV_EINVAL;
    if (alloc)
        a = *alloc;
    reg = toolgov__alloc(&a, sizeof *reg);
    if (!reg)
        return TOOLGOV_ENOMEM;
    memset(reg, 0, sizeof *reg);
    reg->alloc = a;
    reg->mask = 31;
    reg->slots = toolgov__alloc(&a, (reg->mask + 1) * sizeof *reg->slots);
    if (!reg->slots)
        goto fail;
    memset(reg->slots, 0, (reg->mask + 1) * sizeof *reg->slots);
    for (i = 0; i < TOOLGOV__BUILTIN_COUNT; i++) {
        if (pool_reserve(reg) < 0 || pool_add(reg, &builtins[i], NULL, NULL, NULL) < 0)
            goto fail;
    }
    *out = reg;
    return 0;

fail:
    toolgov_registry_free(reg);
    return TOOLGOV_ENOMEM;
}

void toolgov_registry_free(toolgov_registry *reg)
{
    toolgov_allocator a;
    size_t i;

    if (!reg)
        return;
    a = reg->alloc;
    toolgov__rows_free(&a, &reg->rows);
    tools_truncate(reg, 0, 0);
    for (i = 0; i < reg->nmounted; i++)
        toolgov__free(&a, reg->mounted[i].status, reg->mounted[i].nstatus);
    toolgov__free(&a, reg->mounted, reg->mounted_cap * sizeof *reg->mounted);
    toolgov__free(&a, reg->declared, reg->declared_cap * sizeof *reg->declared);
    toolgov__free(&a, reg->tools, reg->cap * sizeof *reg->tools);
    toolgov__free(&a, reg->slots, (reg->mask + 1) * sizeof *reg->slots);
    toolgov__free(&a, reg, sizeof *reg);
}

/* ---- registration, as the plugin's register function sees it ---- */

/* Generated register functions register the tools in manifest order, so
** the row after the last match is tried first: mounting a plugin of n tools
** is then linear, not quadratic. */
static long manifest_index(toolgov_plugin_api *api, const char *name)
{
    const toolgov_plugin *plugin = api->plugin;
    size_t i;

    if (api->next < plugin->tool_count && strcmp(plugin->tools[api->next].name, name) == 0)
        return (long)api->next++;
    for (i = 0; i < plugin->tool_count; i++) {
        if (strcmp(plugin->tools[i].name, name) == 0) {
            api->next = i + 1;
            return (long)i;
        }
    }
    return -1;
}

void *toolgov__plugin_api_ctx(const toolgov_plugin_api *api)
{
    return api ? api->ctx : NULL;
}

/* Registration failures that are out of memory poison the whole mount. */
static int latch(toolgov_plugin_api *api, int rc)
{
    if (rc < 0)
        api->err = rc;
    return rc;
}

long toolgov__registry_holder(const toolgov_registry *reg, const char *name, size_t name_len)
{
    long k = toolgov__registry_index(reg, name, name_len);
    return k >= 0 ? k : toolgov__registry_declared(reg, name, name_len);
}

static long name_holder(const toolgov_registry *reg, const char *name)
{
    return toolgov__registry_holder(reg, name, strlen(name));
}

/* Refuse manifest tool j of the mounting plugin: `name` is held by tool k. */
static int refuse_taken(toolgov_plugin_api *api, long j, const char *name, long k)
{
    int rc = latch(api, toolgov__drift_duplicate(&api->reg->alloc, &api->reg->rows,
                                                 api->plugin, name,
                                                 toolgov__tool_at(api->reg, k)->plugin));
    if (rc == 0 && api->status[j] != TOOLGOV_TOOL_POOLED)
        api->status[j] = TOOLGOV_TOOL_DUPLICATE;
    return rc < 0 ? rc : TOOLGOV_EEXIST;
}

int toolgov_register_tool(toolgov_plugin_api *api, const char *name,
                          const char *description, toolgov_handler_fn handler)
{
    toolgov_registry *reg;
    long j, k;
    int rc;

    (void)description; /* the manifest's description is the checked one */
    if (!api || !name || !*name)
        return TOOLGOV_EINVAL;
    if (api->err)
        return api->err;
    reg = api->reg;
    j = manifest_index(api, name);
    if (j < 0) {
        rc = latch(api, toolgov__drift_undeclared(&reg->alloc, &reg->rows, api->plugin,
                                                  name, 0));
        return rc < 0 ? rc : TOOLGOV_EUNDECLARED;
    }
    /* Any pooled tool of that name, or another plugin's declared one. */
    k = name_holder(reg, name);
    if (k >= 0 && (k < TOOLGOV__DECLARED_REF ||
                   toolgov__tool_at(reg, k)->spec != &api->plugin->tools[j]))
        return refuse_taken(api, j, name, k);
    if ((rc = pool_reserve(reg)) < 0) {
        api->err = rc;
        return rc;
    }
    if ((rc = pool_add(reg, &api->plugin->tools[j], handler, api->ctx, api->plugin)) < 0) {
        api->err = rc;
        return rc;
    }
    api->status[j] = TOOLGOV_TOOL_POOLED;
    return 0;
}

/* Remember a spec declared for the plugin's own loop (once per spec). */
static int declare(toolgov_plugin_api *api, const toolgov_tool_spec *spec)
{
    toolgov_registry *reg = api->reg;
    toolgov__tool *t;
    size_t i;
    int rc;

    for (i = 0; i < reg->ndeclared; i++)
        if (reg->declared[i].spec == spec)
            return 0;
    if (reg->ndeclared + 1 >= (size_t)TOOLGOV__DECLARED_REF)
        return latch(api, TOOLGOV_ENOMEM);
    rc = toolgov__reserve(&reg->alloc, (void **)&reg->declared, &reg->declared_cap,
                          reg->ndeclared + 1, sizeof *reg->declared);
    if (rc < 0)
        return latch(api, rc);
    t = &reg->declared[reg->ndeclared];
    memset(t, 0, sizeof *t);
    rc = toolgov__args_prep_new(&reg->alloc, toolgov__spec_params(spec), &t->prep);
    if (rc < 0)
        return latch(api, rc);
    tool_fill(t, spec, NULL, api->ctx, api->plugin);
    reg->ndeclared++;
    return 0;
}

int toolgov_declare_tool(toolgov_plugin_api *api, const char *name,
                         const toolgov_tool_spec **out)
{
    long j, k;
    int rc;

    if (!api || !name || !out)
        return TOOLGOV_EINVAL;
    if (api->err)
        return api->err;
    j = manifest_index(api, name);
    if (j < 0) {
        rc = latch(api, toolgov__drift_undeclared(&api->reg->alloc, &api->reg->rows,
                                                  api->plugin, name, 1));
        return rc < 0 ? rc : TOOLGOV_EUNDECLARED;
    }
    /* A name in the pool (a built-in's, another plugin's) or declared by
    ** another plugin is refused here as at registration; the plugin's own
    ** pooled tool (loop: both) is this very spec. */
    k = name_holder(api->reg, name);
    if (k >= 0 && toolgov__tool_at(api->reg, k)->spec != &api->plugin->tools[j])
        return refuse_taken(api, j, name, k);
    /* Declared for the plugin's own loop: not "never registered", and
    ** remembered, so a child run can put it through the gate. */
    if ((rc = declare(api, &api->plugin->tools[j])) < 0)
        return rc;
    if (api->status[j] != TOOLGOV_TOOL_POOLED)
        api->status[j] = TOOLGOV_TOOL_OWN_LOOP;
    *out = &api->plugin->tools[j];
    return 0;
}

long toolgov__registry_declared(const toolgov_registry *reg, const char *name,
                                size_t name_len)
{
    size_t i;

    for (i = 0; i < reg->ndeclared; i++) {
        const toolgov__tool *t = &reg->declared[i];

        if (t->name_len == name_len && memcmp(t->name, name, name_len) == 0)
            return TOOLGOV__DECLARED_REF + (long)i;
    }
    return -1;
}

/* ---- mounting ---- */

static int provides_tool(const toolgov_plugin *plugin)
{
    size_t i;

    for (i = 0; i < plugin->provides_count; i++)
        if (plugin->provides[i] && strcmp(plugin->provides[i], "tool") == 0)
            return 1;
    return 0;
}

static int valid_plugin(const toolgov_plugin *plugin)
{
    if (!plugin->name || !plugin->register_fn)
        return 0;
    if (plugin->tool_count && !plugin->tools)
        return 0;
    if (plugin->provides_count && !plugin->provides)
        return 0;
    return 1;
}

static int valid_name(const char *s)
{
    size_t n = 0;

    if (!(*s >= 'a' && *s <= 'z'))
        return 0;
    for (; *s; s++, n++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    }
    return n <= 64;
}

/* What is wrong with a spec a descriptor hands the runtime, or NULL. The
** generator never writes such a spec, but a hand-built or corrupted table
** can, and nothing may then fall back to a weaker rule (an unknown effect
** read as `read`, a destructive tool ending a run). */
static const char *spec_problem(const toolgov_registry *reg, const toolgov_tool_spec *s,
                                char *buf, size_t size, int *rc)
{
    /* guidance may be NULL: it reads as "" (toolgov.h). */
    if (!s->name || !s->description)
        return "its name or description is NULL";
    if (s->size != 0 && s->size < offsetof(toolgov_tool_spec, schema_json) + sizeof(char *))
        return "its size is smaller than a spec row of this ABI: set size to "
               "sizeof(toolgov_tool_spec) (TOOLGOV_TOOL_SPEC_INIT does) or leave it 0";
    if (!valid_name(s->name))
        return "its name does not match [a-z][a-z0-9_]* of at most 64 bytes";
    if ((unsigned)s->effect > TOOLGOV_EFFECT_DESTRUCTIVE)
        return "its effect is not read, write or destructive";
    if ((unsigned)s->confirm > TOOLGOV_CONFIRM_NEVER)
        return "its confirm is not once or never";
    if ((unsigned)s->pinned > 1 || (unsigned)s->answers_directly > 1)
        return "pinned and answers_directly must be 0 or 1";
    if (s->answers_directly && (s->effect == TOOLGOV_EFFECT_DESTRUCTIVE ||
                                (s->effect == TOOLGOV_EFFECT_WRITE &&
                                 s->confirm == TOOLGOV_CONFIRM_ONCE)))
        return "answers_directly is allowed only where the gate never asks (a read, or a "
               "write with confirm never)";
    /* The argument tables the decoder will trust, and the text the exports
    ** will advertise (args_check.c). */
    *rc = toolgov__args_table_check(&reg->alloc, toolgov__spec_params(s), s->schema_json,
                                    buf, size);
    if (*rc == TOOLGOV_EINVAL)
        return buf;
    return NULL;
}

/* The mounted plugin of that name, or NULL. Every mount that did not fail
** as a whole is listed, also one whose every registration was refused. */
static const toolgov__mounted *find_mounted(const toolgov_registry *reg, const char *name)
{
    size_t i;

    for (i = 0; i < reg->nmounted; i++)
        if (strcmp(reg->mounted[i].plugin->name, name) == 0)
            return &reg->mounted[i];
    return NULL;
}

int toolgov_registry_mount(toolgov_registry *reg, const toolgov_plugin *plugin,
                           void *plugin_ctx)
{
    toolgov_plugin_api api;
    size_t count0, ndeclared0, nrows0, i, nstatus;
    int rc, own;

    if (!reg || !plugin)
        return TOOLGOV_EINVAL;
    if (plugin->abi_version != TOOLGOV_ABI_VERSION) {
        if (!plugin->name)
            return TOOLGOV_EINVAL;
        rc = toolgov__drift_mount_failed(&reg->alloc, &reg->rows, plugin, TOOLGOV_EABI);
        return rc < 0 ? rc : TOOLGOV_EABI;
    }
    if (!valid_plugin(plugin))
        return TOOLGOV_EINVAL;
    for (i = 0; i < plugin->tool_count; i++) {
        char buf[512];
        int trc = 0;
        const char *why = spec_problem(reg, &plugin->tools[i], buf, sizeof buf, &trc);

        if (trc == TOOLGOV_ENOMEM)
            return TOOLGOV_ENOMEM;
        if (why) {
            rc = toolgov__drift_invalid_spec(&reg->alloc, &reg->rows, plugin,
                                             &plugin->tools[i], why);
            return rc < 0 ? rc : TOOLGOV_EINVAL;
        }
    }
    if (find_mounted(reg, plugin->name)) {
        rc = toolgov__drift_mount_failed(&reg->alloc, &reg->rows, plugin, TOOLGOV_EEXIST);
        return rc < 0 ? rc : TOOLGOV_EEXIST;
    }

    /* Room to list the plugin once it is mounted, taken first so a mount
    ** that succeeded can always be listed. */
    rc = toolgov__reserve(&reg->alloc, (void **)&reg->mounted, &reg->mounted_cap,
                          reg->nmounted + 1, sizeof *reg->mounted);
    if (rc < 0)
        return rc;
    count0 = reg->count;
    ndeclared0 = reg->ndeclared;
    nrows0 = reg->rows.n;
    nstatus = plugin->tool_count ? plugin->tool_count : 1;
    memset(&api, 0, sizeof api);
    api.reg = reg;
    api.plugin = plugin;
    api.ctx = plugin_ctx;
    api.status = toolgov__alloc(&reg->alloc, nstatus);
    if (!api.status)
        return TOOLGOV_ENOMEM;
    memset(api.status, TOOLGOV_TOOL_NEVER_REGISTERED, nstatus);

    rc = plugin->register_fn(&api);
    if (api.err) {
        rc = api.err;
        goto rollback;
    }
    if (rc < 0) {
        int err = rc;

        /* The tools go, the rows that say what happened stay. */
        tools_truncate(reg, count0, ndeclared0);
        index_rebuild(reg);
        if (toolgov__drift_mount_failed(&reg->alloc, &reg->rows, plugin, err) < 0) {
            rc = TOOLGOV_ENOMEM;
            goto rollback;
        }
        goto out;
    }
    rc = 0;
    own = 0;
    for (i = 0; i < plugin->tool_count; i++) {
        own |= api.status[i] == TOOLGOV_TOOL_OWN_LOOP;
        if (api.status[i] != TOOLGOV_TOOL_NEVER_REGISTERED)
            continue;
        if (toolgov__drift_never_registered(&reg->alloc, &reg->rows, plugin,
                                            &plugin->tools[i]) < 0) {
            rc = TOOLGOV_ENOMEM;
            goto rollback;
        }
    }
    /* A plugin whose tools all run in its own loop provides them too. */
    if (reg->count == count0 && !own && provides_tool(plugin) &&
        toolgov__drift_provides_nothing(&reg->alloc, &reg->rows, plugin) < 0) {
        rc = TOOLGOV_ENOMEM;
        goto rollback;
    }
    reg->mounted[reg->nmounted].plugin = plugin;
    reg->mounted[reg->nmounted].status = api.status;
    reg->mounted[reg->nmounted].nstatus = nstatus;
    reg->nmounted++;
    api.status = NULL; /* the registry's now */
    goto out;

rollback:
    tools_truncate(reg, count0, ndeclared0);
    index_rebuild(reg);
    toolgov__rows_truncate(&reg->alloc, &reg->rows, nrows0);
out:
    if (api.status)
        toolgov__free(&reg->alloc, api.status, nstatus);
    return rc;
}

/* ---- queries ---- */

int toolgov_registry_bind_builtin(toolgov_registry *reg, const char *name,
                                  toolgov_handler_fn handler, void *ctx)
{
    long k;

    if (!reg || !name)
        return TOOLGOV_EINVAL;
    k = toolgov__registry_index(reg, name, strlen(name));
    if (k < 0 || reg->tools[k].plugin)
        return TOOLGOV_ENOENT;
    reg->tools[k].handler = handler;
    reg->tools[k].ctx = ctx;
    return 0;
}

int toolgov_registry_offers(const toolgov_registry *reg, const char *name)
{
    long k;

    if (!reg || !name)
        return 0;
    k = toolgov__registry_index(reg, name, strlen(name));
    return k >= 0 && toolgov__offered(&reg->tools[k]);
}

const toolgov_tool_spec *toolgov_registry_find(const toolgov_registry *reg,
                                               const char *name)
{
    long k;

    if (!reg || !name)
        return NULL;
    k = toolgov__registry_index(reg, name, strlen(name));
    return k < 0 ? NULL : reg->tools[k].spec;
}

const char *toolgov_registry_owner(const toolgov_registry *reg, const char *name)
{
    long k;

    if (!reg || !name)
        return NULL;
    k = toolgov__registry_index(reg, name, strlen(name));
    if (k < 0)
        return NULL;
    return reg->tools[k].plugin ? reg->tools[k].plugin->name : TOOLGOV__CORE_OWNER;
}

size_t toolgov_registry_count(const toolgov_registry *reg)
{
    return reg ? reg->count : 0;
}

const toolgov_tool_spec *toolgov_registry_at(const toolgov_registry *reg, size_t i)
{
    if (!reg || i >= reg->count)
        return NULL;
    return reg->tools[i].spec;
}

const char *toolgov_tool_status_name(toolgov_tool_status status)
{
    switch (status) {
    case TOOLGOV_TOOL_POOLED: return "pooled";
    case TOOLGOV_TOOL_OWN_LOOP: return "own_loop";
    case TOOLGOV_TOOL_DUPLICATE: return "duplicate";
    case TOOLGOV_TOOL_NEVER_REGISTERED: return "never_registered";
    }
    return "unknown";
}

size_t toolgov_registry_plugin_tool_count(const toolgov_registry *reg, const char *plugin)
{
    const toolgov__mounted *m;

    if (!reg || !plugin || !(m = find_mounted(reg, plugin)))
        return 0;
    return m->plugin->tool_count;
}

int toolgov_registry_plugin_tool_at(toolgov_plugin_tool *out, const toolgov_registry *reg,
                                    const char *plugin, size_t i)
{
    const toolgov__mounted *m;
    const toolgov_tool_spec *spec;
    long k;

    if (!out || !reg || !plugin)
        return TOOLGOV_EINVAL;
    m = find_mounted(reg, plugin);
    if (!m || i >= m->plugin->tool_count)
        return TOOLGOV_ENOENT;
    spec = &m->plugin->tools[i];
    out->spec = spec;
    out->status = (toolgov_tool_status)m->status[i];
    out->owner = NULL;
    if (out->status == TOOLGOV_TOOL_DUPLICATE) {
        k = toolgov__registry_index(reg, spec->name, strlen(spec->name));
        out->owner = k < 0 ? NULL
                     : reg->tools[k].plugin ? reg->tools[k].plugin->name
                                            : TOOLGOV__CORE_OWNER;
    }
    return 0;
}
