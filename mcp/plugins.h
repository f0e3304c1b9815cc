/* SPDX-License-Identifier: MIT */
/*
** plugins.h: what toolgov-mcp serves: a registry with the example plugins
** mounted over their built-in data, and plugins loaded from MODULE
** libraries.
**
** A MODULE plugin (toolgov_add_plugin(NAME ... MODULE)) exports one entry
** function under a fixed name, TOOLGOV_MODULE_ENTRY_SYMBOL, that returns its
** generated descriptor; it is found with dlsym and its ABI version checked.
** A module that defines the optional start entry (TOOLGOV_MODULE_INIT of
** <toolgov/module.h>) is started with its configuration text and mounted
** with the context the start gave; one that fails to start is reported and
** not mounted. Its stop entry (TOOLGOV_MODULE_FINI) runs at close, after the
** registry is freed. The library stays loaded until
** toolgov_mcp_plugins_close().
**
** Ownership: the struct owns the registry, the examples' state and the
** library handles; close frees all of them (a zeroed struct closes fine).
*/
#ifndef TOOLGOV_MCP_PLUGINS_H
#define TOOLGOV_MCP_PLUGINS_H

#include <stddef.h>
#include <stdio.h>

#include <toolgov/module.h>
#include <toolgov/policy.h>
#include <toolgov/toolgov.h>

typedef struct toolgov_mcp_world toolgov_mcp_world;

/* One --plugin: its path and the configuration its start entry gets
** (config NULL when none was given; borrowed for the open call). */
typedef struct toolgov_mcp_module {
    const char *path;
    const char *config;
    size_t config_len;
} toolgov_mcp_module;

/* A loaded module: its dlopen handle, and the stop entry and context to
** call at close (fini NULL when the module defines none or did not start). */
typedef struct toolgov_mcp_loaded {
    void *handle;
    toolgov_module_fini_fn *fini;
    void *ctx;
} toolgov_mcp_loaded;

typedef struct toolgov_mcp_plugins {
    toolgov_registry *reg;
    toolgov_mcp_world *world;   /* the examples' changing state, or NULL */
    toolgov_mcp_loaded *loaded; /* in load order */
    size_t loaded_count;
    const char *prog;           /* the name messages start with (borrowed) */
} toolgov_mcp_plugins;

/* Fill *p: a registry, the examples when `examples` is non-zero, then each
** of the n modules (loaded, started, mounted, in order). Problems are
** reported on `err` as "PROG: PATH: what went wrong", PROG being `prog`
** (the program's name, borrowed for the struct's life; NULL: "toolgov-mcp");
** 0, or -1 after such a report. */
int toolgov_mcp_plugins_open(toolgov_mcp_plugins *p, int examples,
                             const toolgov_mcp_module *modules, size_t n, const char *prog,
                             FILE *err);

/* The largest plugin configuration file: 1 MiB. */
#define TOOLGOV_MCP_CONFIG_MAX (1u << 20)

/* Read a file whole, at most `max` bytes, NUL-terminated after *len bytes:
** the text is the caller's (free()). NULL after a message on `err` that
** names the file as `what` ("the upstreams file"). */
char *toolgov_mcp_read_file(const char *path, size_t max, const char *what, size_t *len,
                            const char *prog, FILE *err);

/* Read a plugin's configuration file whole (--plugin-config-file), at most
** TOOLGOV_MCP_CONFIG_MAX bytes, NUL-terminated after *len bytes. The text is
** the caller's (free()); NULL after a message on `err` that starts with
** `prog` (NULL: "toolgov-mcp"). */
char *toolgov_mcp_read_config(const char *path, size_t *len, const char *prog, FILE *err);

/* Print the drift panel to `err` when it has rows. */
void toolgov_mcp_plugins_report_drift(const toolgov_mcp_plugins *p, const toolgov_policy *pol,
                                      FILE *err);

void toolgov_mcp_plugins_close(toolgov_mcp_plugins *p);

#endif /* TOOLGOV_MCP_PLUGINS_H */
