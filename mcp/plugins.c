/* SPDX-License-Identifier: MIT */
/*
** plugins.c: the registry toolgov-mcp serves (see plugins.h).
*/
#include "plugins.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/drift.h>


/* One message on `err`, "PROG: " first (the program that loaded the plugins). */
static void report(FILE *err, const char *prog, const char *fmt, ...)
{
    va_list ap;

    fprintf(err, "%s: ", prog ? prog : "toolgov-mcp");
    va_start(ap, fmt);
    vfprintf(err, fmt, ap);
    va_end(ap);
}

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
    const char *prog = p->prog;
    toolgov_mcp_world *w = calloc(1, sizeof *w);
    int rc;
    if (!w) {
        report(err, prog, "out of memory\n");
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
        report(err, prog, "mounting the examples: %s\n", toolgov_strerror(rc));
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
    report(err, p->prog, "this build has no example plugins; give --no-examples and --plugin\n");
    return -1;
}
#endif

/* The message buffer a module's start entry writes into. */
#define START_MSG_MAX 512

/* Look up `name` in the module; NULL when it is not there. POSIX guarantees
** that a function pointer survives the round trip through void *. */
static void *module_symbol(void *h, const char *name)
{
    (void)dlerror();
    return dlsym(h, name);
}

/* Start the module through its TOOLGOV_MODULE_INIT (when it has one), with
** the operator's configuration: l->ctx gets the context to mount it with,
** l->fini its TOOLGOV_MODULE_FINI (when it has one) for close. */
static int start_module(toolgov_mcp_loaded *l, const toolgov_mcp_module *m,
                        const toolgov_plugin *plugin, const char *prog, FILE *err)
{
    void *sym;
    toolgov_module_init_fn *init;
    char msg[START_MSG_MAX];
    size_t i;
    int rc;

    sym = module_symbol(l->handle, TOOLGOV_MODULE_FINI_SYMBOL);
    memcpy(&l->fini, &sym, sizeof l->fini);
    sym = module_symbol(l->handle, TOOLGOV_MODULE_INIT_SYMBOL);
    if (!sym) {
        if (m->config) {
            l->fini = NULL;
            report(err, prog, "%s: a configuration was given, but plugin '%s' has no "
                         "start entry to take it; define TOOLGOV_MODULE_INIT "
                         "(<toolgov/module.h>) in the plugin, or drop the configuration\n",
                    m->path, plugin->name);
            return -1;
        }
        return 0;
    }
    memcpy(&init, &sym, sizeof init);
    msg[0] = '\0';
    rc = init(&l->ctx, m->config, m->config ? m->config_len : 0, msg, sizeof msg);
    if (rc != 0) {
        /* It did not start: no context to stop. */
        l->fini = NULL;
        l->ctx = NULL;
        msg[sizeof msg - 1] = '\0';
        for (i = 0; msg[i]; i++)
            if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
                msg[i] = ' '; /* one line on the operator's terminal */
        if (msg[0])
            report(err, prog, "%s: plugin '%s' did not start: %s\n", m->path,
                    plugin->name, msg);
        else
            report(err, prog, "%s: plugin '%s' did not start (its %s returned %d)\n",
                    m->path, plugin->name, TOOLGOV_MODULE_INIT_SYMBOL, rc);
        return -1;
    }
    return 0;
}

/* Stop a started module (its TOOLGOV_MODULE_FINI), once. */
static void stop_module(toolgov_mcp_loaded *l)
{
    toolgov_module_fini_fn *fini = l->fini;
    l->fini = NULL;
    if (fini)
        fini(l->ctx);
    l->ctx = NULL;
}

static int load_module(toolgov_mcp_plugins *p, const toolgov_mcp_module *m, FILE *err)
{
    const char *prog = p->prog;
    void *h = dlopen(m->path, RTLD_NOW | RTLD_LOCAL);
    void *sym;
    toolgov_module_entry_fn *entry;
    const toolgov_plugin *plugin;
    toolgov_mcp_loaded *l;
    int rc;

    if (!h) {
        report(err, prog, "%s: cannot load: %s\n", m->path, dlerror());
        return -1;
    }
    l = &p->loaded[p->loaded_count++];
    l->handle = h;
    sym = module_symbol(h, TOOLGOV_MODULE_ENTRY_SYMBOL);
    if (!sym) {
        report(err, prog, "%s: no %s symbol; build the plugin with "
                     "toolgov_add_plugin(NAME ... MODULE)\n", m->path, TOOLGOV_MODULE_ENTRY_SYMBOL);
        return -1;
    }
    memcpy(&entry, &sym, sizeof entry);
    plugin = entry();
    if (!plugin) {
        report(err, prog, "%s: %s returned no plugin\n", m->path,
                TOOLGOV_MODULE_ENTRY_SYMBOL);
        return -1;
    }
    if (plugin->abi_version != TOOLGOV_ABI_VERSION) {
        report(err, prog, "%s: plugin '%s' was generated for toolgov ABI %u, this "
                     "server has ABI %u; rebuild the plugin against this toolgov\n",
                m->path, plugin->name ? plugin->name : "?", plugin->abi_version,
                (unsigned)TOOLGOV_ABI_VERSION);
        return -1;
    }
    if (start_module(l, m, plugin, p->prog, err) != 0)
        return -1;
    if ((rc = toolgov_registry_mount(p->reg, plugin, l->ctx)) != 0) {
        report(err, prog, "%s: mounting plugin '%s': %s\n", m->path, plugin->name,
                toolgov_strerror(rc));
        /* A failed mount leaves the pool as it was: nothing holds the
        ** context any more. */
        stop_module(l);
        return -1;
    }
    return 0;
}

char *toolgov_mcp_read_file(const char *path, size_t max, const char *what, size_t *len,
                            const char *prog, FILE *err)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;
    if (!f) {
        report(err, prog, "%s: cannot read %s: %s\n", path, what, strerror(errno));
        return NULL;
    }
    buf = malloc(max + 1);
    if (!buf) {
        report(err, prog, "out of memory\n");
        fclose(f);
        return NULL;
    }
    n = fread(buf, 1, max + 1, f);
    if (ferror(f) || n > max) {
        if (ferror(f))
            report(err, prog, "%s: cannot read %s\n", path, what);
        else if (max % ((size_t)1 << 20) == 0)
            report(err, prog, "%s: %s is larger than %zu MiB\n", path, what, max >> 20);
        else
            report(err, prog, "%s: %s is larger than %zu bytes\n", path, what, max);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *toolgov_mcp_read_config(const char *path, size_t *len, const char *prog, FILE *err)
{
    return toolgov_mcp_read_file(path, TOOLGOV_MCP_CONFIG_MAX, "the plugin configuration", len,
                                 prog, err);
}

int toolgov_mcp_plugins_open(toolgov_mcp_plugins *p, int examples,
                             const toolgov_mcp_module *modules, size_t n, const char *prog,
                             FILE *err)
{
    size_t i;
    int rc;
    memset(p, 0, sizeof *p);
    p->prog = prog ? prog : "toolgov-mcp";
    if ((rc = toolgov_registry_new(&p->reg, NULL)) != 0) {
        report(err, prog, "%s\n", toolgov_strerror(rc));
        return -1;
    }
    if (examples && mount_examples(p, err) != 0)
        return -1;
    p->loaded = calloc(n ? n : 1, sizeof *p->loaded);
    if (!p->loaded) {
        report(err, prog, "out of memory\n");
        return -1;
    }
    for (i = 0; i < n; i++)
        if (load_module(p, &modules[i], err) != 0)
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
        report(err, p->prog, "drift:\n%s", text);
    free(text);
}

void toolgov_mcp_plugins_close(toolgov_mcp_plugins *p)
{
    size_t i;
    /* No handler can run once the registry is gone: then the modules stop,
    ** the last started first, and only then are they unloaded. */
    toolgov_registry_free(p->reg);
    free(p->world);
    for (i = p->loaded_count; i-- > 0;)
        stop_module(&p->loaded[i]);
    for (i = p->loaded_count; i-- > 0;)
        dlclose(p->loaded[i].handle);
    free(p->loaded);
    memset(p, 0, sizeof *p);
}
