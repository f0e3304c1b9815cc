/* SPDX-License-Identifier: MIT */
/*
** plugins.c: the registry toolgov-mcp serves (see plugins.h).
*/
#include "plugins.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/drift.h>

#ifdef TOOLGOV_MCP_EXAMPLES
#include "calendar.toolgov.h"
#include "calendar_state.h"
#include "code_exec.toolgov.h"
#include "email_state.h"
#include "email_workflows.toolgov.h"
#include "finance_workflows.toolgov.h"
#include "planner.toolgov.h"
#include "planner_state.h"
#include "research.toolgov.h"
#include "system.toolgov.h"

struct toolgov_mcp_world {
    calendar_state calendar;
    email_state email;
    planner_state planner;
};

static int mount_examples(toolgov_mcp_plugins *p, FILE *err)
{
    toolgov_mcp_world *w = calloc(1, sizeof *w);
    int rc;
    if (!w) {
        fputs("toolgov-mcp: out of memory\n", err);
        return -1;
    }
    p->world = w;
    calendar_state_init(&w->calendar);
    email_state_init(&w->email);
    planner_state_init(&w->planner);
    if ((rc = toolgov_registry_mount(p->reg, &calendar_toolgov_plugin, &w->calendar)) ||
        (rc = toolgov_registry_mount(p->reg, &finance_workflows_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(p->reg, &email_workflows_toolgov_plugin, &w->email)) ||
        (rc = toolgov_registry_mount(p->reg, &planner_toolgov_plugin, &w->planner)) ||
        (rc = toolgov_registry_mount(p->reg, &system_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(p->reg, &research_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(p->reg, &code_exec_toolgov_plugin, NULL))) {
        fprintf(err, "toolgov-mcp: mounting the examples: %s\n", toolgov_strerror(rc));
        return -1;
    }
    return 0;
}
#else
struct toolgov_mcp_world {
    int unused_;
};

static int mount_examples(toolgov_mcp_plugins *p, FILE *err)
{
    (void)p;
    fputs("toolgov-mcp: this build has no example plugins; give --no-examples and --plugin\n",
          err);
    return -1;
}
#endif

typedef const toolgov_plugin *(*entry_fn)(void);

static int load_module(toolgov_mcp_plugins *p, const char *path, FILE *err)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    void *sym;
    entry_fn entry;
    const toolgov_plugin *plugin;
    int rc;

    if (!h) {
        fprintf(err, "toolgov-mcp: %s: cannot load: %s\n", path, dlerror());
        return -1;
    }
    p->handles[p->handle_count++] = h;
    sym = dlsym(h, TOOLGOV_MCP_ENTRY_SYMBOL);
    if (!sym) {
        fprintf(err, "toolgov-mcp: %s: no %s symbol; build the plugin with "
                     "toolgov_add_plugin(NAME ... MODULE)\n", path, TOOLGOV_MCP_ENTRY_SYMBOL);
        return -1;
    }
    /* POSIX guarantees a function pointer survives this round trip. */
    memcpy(&entry, &sym, sizeof entry);
    plugin = entry();
    if (!plugin) {
        fprintf(err, "toolgov-mcp: %s: %s returned no plugin\n", path, TOOLGOV_MCP_ENTRY_SYMBOL);
        return -1;
    }
    if (plugin->abi_version != TOOLGOV_ABI_VERSION) {
        fprintf(err, "toolgov-mcp: %s: plugin '%s' was generated for toolgov ABI %u, this "
                     "server has ABI %u; rebuild the plugin against this toolgov\n",
                path, plugin->name ? plugin->name : "?", plugin->abi_version,
                (unsigned)TOOLGOV_ABI_VERSION);
        return -1;
    }
    if ((rc = toolgov_registry_mount(p->reg, plugin, NULL)) != 0) {
        fprintf(err, "toolgov-mcp: %s: mounting plugin '%s': %s\n", path, plugin->name,
                toolgov_strerror(rc));
        return -1;
    }
    return 0;
}

int toolgov_mcp_plugins_open(toolgov_mcp_plugins *p, int examples, const char *const *paths,
                             size_t n, FILE *err)
{
    size_t i;
    int rc;
    memset(p, 0, sizeof *p);
    if ((rc = toolgov_registry_new(&p->reg, NULL)) != 0) {
        fprintf(err, "toolgov-mcp: %s\n", toolgov_strerror(rc));
        return -1;
    }
    if (examples && mount_examples(p, err) != 0)
        return -1;
    p->handles = calloc(n ? n : 1, sizeof *p->handles);
    if (!p->handles) {
        fputs("toolgov-mcp: out of memory\n", err);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (load_module(p, paths[i], err) != 0)
            return -1;
    return 0;
}

void toolgov_mcp_plugins_report_drift(const toolgov_mcp_plugins *p, const toolgov_policy *pol,
                                      FILE *err)
{
    size_t needed = 0;
    char *text;
    if (toolgov_drift_count(p->reg, pol) == 0)
        return;
    (void)toolgov_drift_render_text(NULL, 0, &needed, p->reg, pol);
    text = malloc(needed + 1);
    if (!text)
        return;
    if (toolgov_drift_render_text(text, needed + 1, NULL, p->reg, pol) == 0)
        fprintf(err, "toolgov-mcp: drift:\n%s", text);
    free(text);
}

void toolgov_mcp_plugins_close(toolgov_mcp_plugins *p)
{
    size_t i;
    toolgov_registry_free(p->reg);
    free(p->world);
    for (i = 0; i < p->handle_count; i++)
        dlclose(p->handles[i]);
    free(p->handles);
    memset(p, 0, sizeof *p);
}
