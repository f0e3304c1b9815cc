/* SPDX-License-Identifier: MIT */
/*
** drift.h: the drift panel, where a host sees how the plugins it mounted
** differ from what their manifests declare.
**
** A row is left behind by every registration the registry refused (a tool
** the manifest does not declare, a name already in the pool), by every tool
** a manifest declares but its plugin never registered, by every plugin whose
** manifest says `provides: tool` yet registered nothing, by a mount that
** failed as a whole (ABI mismatch, the register function's own error), and,
** through the policy, by every name of the TOOLGOV_CONFIRM_ONCE_TOOLS override
** that matches no tool in the pool.
**
** Registry rows are recorded during mounting; policy rows when the override
** is set. Reading the panel allocates nothing: rows are borrowed from the
** registry and the policy, and the renderers write into the caller's buffer
** and report the length they needed, like snprintf.
**
** Threads: reading the panel is safe from several threads once mounting and
** policy setup are done, like every other read of a registry.
*/
#ifndef TOOLGOV_DRIFT_H
#define TOOLGOV_DRIFT_H

#include <stddef.h>

#include "toolgov.h"

#ifdef __cplusplus
extern "C" {
#endif

struct toolgov_policy;

/* Why a row is on the panel. */
typedef enum toolgov_drift_kind {
    TOOLGOV_DRIFT_UNDECLARED = 0,       /* registered but not declared: refused */
    TOOLGOV_DRIFT_DUPLICATE = 1,        /* name already in the pool: refused */
    TOOLGOV_DRIFT_NEVER_REGISTERED = 2, /* declared but the plugin never registered it */
    TOOLGOV_DRIFT_PROVIDES_NOTHING = 3, /* provides: tool, but no tool registered
                                        ** or declared for its own loop */
    TOOLGOV_DRIFT_MOUNT_FAILED = 4,     /* the whole mount failed; nothing pooled */
    TOOLGOV_DRIFT_OVERRIDE_UNKNOWN = 5, /* override names no tool in the pool */
    TOOLGOV_DRIFT_SETTING_INVALID = 6   /* a policy setting's text is refused
                                        ** (TOOLGOV_CONFIRM_SCOPE) */
} toolgov_drift_kind;

/* One row. Every pointer is borrowed from the registry (or the policy for
** override rows) and stays valid until it is freed. Fields that do not apply
** to a kind are NULL (strings) or 0 (numbers). */
typedef struct toolgov_drift_row {
    toolgov_drift_kind kind;
    const char *plugin;        /* the plugin's manifest name; NULL for override rows */
    const char *manifest_file; /* the plugin's manifest file; NULL when unknown */
    const char *tool;          /* the tool concerned; NULL for plugin-wide rows */
    const char *owner;         /* DUPLICATE: the tool's owner ("core" for built-ins) */
    unsigned line;             /* NEVER_REGISTERED: the tool's manifest line, else 0 */
    unsigned column;
    int err;                   /* MOUNT_FAILED: the error code, else 0 */
    const char *message;       /* one sentence, lowercase, saying what is wrong */
} toolgov_drift_row;

/* Stable lowercase name of a kind ("undeclared", "duplicate",
** "never_registered", "provides_nothing", "mount_failed",
** "override_unknown", "setting_invalid"); "unknown" for a value outside the
** enum. Static. */
TOOLGOV_EXTERN const char *toolgov_drift_kind_name(toolgov_drift_kind kind);

/* Number of rows: the registry's, then the policy's (pol may be NULL). */
TOOLGOV_EXTERN size_t toolgov_drift_count(const toolgov_registry *reg,
                                          const struct toolgov_policy *pol);

/* The i-th row, in the order the problems were found (registry rows in mount
** order, then override rows in the order the override names them). NULL when
** i is out of range. Borrowed. */
TOOLGOV_EXTERN const toolgov_drift_row *toolgov_drift_at(const toolgov_registry *reg,
                                                         const struct toolgov_policy *pol,
                                                         size_t i);

/* Render the panel as text, one row a line:
**   "<plugin>: <kind>: <message>\n"  (override rows say "override" for plugin)
** and "no drift\n" when there is no row. A control byte in a name (a line
** break in a name computed at run time, say) or a byte that is not UTF-8 is
** written as \xNN, a C1 control or U+2028/U+2029 as \uXXXX and a backslash
** as two, so a row never spills onto a second line, never carries a
** terminal escape, and a literal "\x0a" never reads like an escaped byte. 
** Buffer contract: the renderer convention of toolgov.h (size 0 is a
** sizing call returning 0; TOOLGOV_ENOSPC when cut short), or
** TOOLGOV_EINVAL. Allocates nothing. */
TOOLGOV_EXTERN int toolgov_drift_render_text(char *out, size_t size, size_t *needed,
                                             const toolgov_registry *reg,
                                             const struct toolgov_policy *pol);

/* Render the panel as one JSON object:
**   {"rows":[{"kind":"undeclared","plugin":"p","manifest":"p.yaml",
**             "tool":"x","owner":null,"line":0,"column":0,"error":null,
**             "message":"..."}, ...]}
** followed by a newline. Strings are escaped per RFC 8259: well-formed
** UTF-8 passes through, a byte that is not part of a well-formed sequence
** is written as \ufffd, so the text is valid JSON whatever the names hold
** (the rows themselves keep the exact bytes). Buffer contract as
** toolgov_drift_render_text. */
TOOLGOV_EXTERN int toolgov_drift_render_json(char *out, size_t size, size_t *needed,
                                             const toolgov_registry *reg,
                                             const struct toolgov_policy *pol);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_DRIFT_H */
