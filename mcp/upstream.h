/* SPDX-License-Identifier: MIT */
/*
** upstream.h: MCP servers toolgov did not write, governed behind toolgov-mcp
** (SPEC section 13).
**
** The operator lists the servers in a JSON file of the `mcpServers` shape MCP
** hosts already use, each entry with the manifest that declares its tools:
**
**   {"mcpServers": {"files": {"command": "npx", "args": ["-y", "..."],
**                             "env": {"K": "V"}, "cwd": "dir",
**                             "manifest": "files.yaml", "timeout": 60000},
**                  "tickets": {"url": "https://host/mcp", "headers": {"K": "V"},
**                              "manifest": "tickets.yaml"}}}
**
** An entry is started as a child over stdio ("command") or reached over
** Streamable HTTP ("url", with extra request headers; upstream_http.h).
** Relative `manifest` and `cwd` paths are read from the directory of the
** file. The manifest is the plugins' YAML format, read with toolgov-gen's
** own loader (so a manifest is checked here exactly as `toolgov-gen
** validate` checks it: the same rules, the same FILE:LINE:COL errors);
** its `name` is the plugin name the tools are served under and its tools
** must carry the server's tool names. Each declared tool becomes a tool
** spec built at run time (its parameters compiled to the runtime's
** descriptor tables in memory) and the servers are mounted into the
** registry as plugins, so their calls take the same way as a compiled
** plugin's: decode against the declared parameters, the gate, elicitation,
** the audit trail; then the call's canonical arguments are forwarded to
** the server and its result (or its error, as an isError result) comes
** back.
**
** At start each server is started (stdio: a child with the default
** environment of MCP hosts, HOME LOGNAME PATH SHELL TERM USER, plus the
** entry's `env`), initialized and its tools/list read to the last page.
** What it offers is compared with the manifest: a tool it offers that the
** manifest does not declare is never listed nor callable, a declared tool it
** does not offer is listed as unavailable to no one (not served); each is a
** drift row on stderr. A server that does not start leaves its tools
** unavailable, said so, and the others serve on.
**
** Ownership: the set owns its manifests, tool tables, connections and
** children. The registry it mounts into borrows the tables, so the set
** must outlive that registry (free the registry first).
*/
#ifndef TOOLGOV_MCP_UPSTREAM_H
#define TOOLGOV_MCP_UPSTREAM_H

#include <stddef.h>
#include <stdio.h>

#include <toolgov/toolgov.h>

/* Default bound on one call's wait for the server (the entry's "timeout",
** in milliseconds, changes it per server). */
#define TOOLGOV_MCP_UPSTREAM_TIMEOUT_MS 60000
/* Bound on the wait for initialize and each tools/list page. */
#define TOOLGOV_MCP_UPSTREAM_START_MS 30000
/* Bounds on what one server may offer: tools, and tools/list pages. */
#define TOOLGOV_MCP_UPSTREAM_MAX_TOOLS 4096
#define TOOLGOV_MCP_UPSTREAM_MAX_PAGES 256

typedef struct toolgov_mcp_upstreams toolgov_mcp_upstreams;

/* Read the upstreams file and every manifest it names. Problems are
** reported on `err` (FILE:LINE:COL: what is wrong and how to fix it, or the
** manifest loader's diagnostics) and give -1 with *out NULL: a set with an
** error is never started. max_message bounds one message from a server.
** importing: the manifests are neither required nor read (the set can
** only import, not start). */
int toolgov_mcp_upstreams_load(toolgov_mcp_upstreams **out, const char *path,
                               size_t max_message, int importing, FILE *err);

/* Import (SPEC section 13): start server `name` of a set loaded for
** importing, read its tools/list to the last page and write to `out` a
** manifest to review: each tool with its description, its inputSchema as
** parameters (compiled as toolgov-gen would; a schema outside the subset
** leaves the tool commented out with the compiler's errors, never weakened),
** an effect suggested from its annotations with MCP's defaults (an absent
** destructiveHint means destructive) marked in a comment for review, the
** server's name as upstream_name where it is not a valid tool name, and its
** pin. 0; -1 after a report on `err` (nothing written to out then). */
int toolgov_mcp_upstreams_import(toolgov_mcp_upstreams *u, const char *name, FILE *out,
                                 FILE *err);

/* Start every server, compare what it offers with its manifest (rows on
** `err`), and mount each as a plugin into `reg`. A server that fails to
** start is reported and its tools stay unavailable; that is not a failure
** of this call. -1 only when a mount failed (a manifest name already taken
** by a plugin, out of memory), reported on `err`. */
int toolgov_mcp_upstreams_start(toolgov_mcp_upstreams *u, toolgov_registry *reg, FILE *err);

/* The server hook (toolgov_mcp_options.tool_unavailable): 0 when `tool` of
** plugin `owner` can be served now (every compiled plugin's tool can),
** else 1 with the reason, one sentence, in why[0..n). */
int toolgov_mcp_upstreams_unavailable(void *u, const char *owner, const char *tool, char *why,
                                      size_t n);

/* The server hook (toolgov_mcp_options.tools_changed): handle what every
** server sent meanwhile, without waiting (a changed tools/list is read and
** judged, a server that broke is taken down, one due is started again),
** and return 1 when a declared tool became servable or stopped being so
** since the last call (each change is reported once), else 0. */
int toolgov_mcp_upstreams_changed(void *u);

/* From now on write every drift row to `audit` as it happens, after the
** rows kept so far: one JSON object a line, {"v":1,"time":...,"event":
** "upstream_drift","server","tool","drift","changed","message"}, beside the
** runs' events (docs/mcp.md). `audit` is borrowed; NULL stops it. */
void toolgov_mcp_upstreams_audit(toolgov_mcp_upstreams *u, FILE *audit);

/* The --drift report: a header line, then every drift row kept so far, one
** a line, tab-separated: server, tool ("-" for none), the kind of drift
** (undeclared, not_offered, withdrawn, pin_mismatch, changed, duplicate,
** unnamed, unavailable, more: rows over 32 in one reading of a list,
** counted), the parts that changed ("-" when none is named),
** and the row's sentence. Returns the number of rows. */
size_t toolgov_mcp_upstreams_report(const toolgov_mcp_upstreams *u, FILE *out);

/* Stop every child and free the set. NULL is a no-op. */
void toolgov_mcp_upstreams_free(toolgov_mcp_upstreams *u);

#endif /* TOOLGOV_MCP_UPSTREAM_H */
