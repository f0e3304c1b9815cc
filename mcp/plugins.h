/* SPDX-License-Identifier: MIT */
/*
** plugins.h: what toolgov-mcp serves: a registry with the example plugins
** mounted over their built-in data, and plugins loaded from MODULE
** libraries.
**
** A MODULE plugin (toolgov_add_plugin(NAME ... MODULE)) exports one entry
** function under a fixed name, TOOLGOV_MCP_ENTRY_SYMBOL, that returns its
** generated descriptor; it is found with dlsym, its ABI version checked,
** and it is mounted with no plugin context. The library stays loaded until
** toolgov_mcp_plugins_close().
**
** Ownership: the struct owns the registry, the examples' state and the
** library handles; close frees all of them (a zeroed struct closes fine).
*/
#ifndef TOOLGOV_MCP_PLUGINS_H
#define TOOLGOV_MCP_PLUGINS_H

#include <stddef.h>
#include <stdio.h>

#include <toolgov/policy.h>
#include <toolgov/toolgov.h>

#ifndef TOOLGOV_MCP_ENTRY_SYMBOL
#define TOOLGOV_MCP_ENTRY_SYMBOL "toolgov_module_plugin"
#endif

typedef struct toolgov_mcp_world toolgov_mcp_world;

typedef struct toolgov_mcp_plugins {
    toolgov_registry *reg;
    toolgov_mcp_world *world; /* the examples' changing state, or NULL */
    void **handles;           /* dlopen handles */
    size_t handle_count;
} toolgov_mcp_plugins;

/* Fill *p: a registry, the examples when `examples` is non-zero, then each
** of the n module paths. Problems are reported on `err` as
** "toolgov-mcp: PATH: what went wrong"; 0, or -1 after such a report. */
int toolgov_mcp_plugins_open(toolgov_mcp_plugins *p, int examples, const char *const *paths,
                             size_t n, FILE *err);

/* Print the drift panel to `err` when it has rows. */
void toolgov_mcp_plugins_report_drift(const toolgov_mcp_plugins *p, const toolgov_policy *pol,
                                      FILE *err);

void toolgov_mcp_plugins_close(toolgov_mcp_plugins *p);

#endif /* TOOLGOV_MCP_PLUGINS_H */
