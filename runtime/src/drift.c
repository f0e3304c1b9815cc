/* SPDX-License-Identifier: MIT */
/*
** drift.c: the drift panel: writing its rows, reading and rendering them.
**
** Every sentence the panel can show is written by one function here, named
** after its kind (toolgov__drift_undeclared, ...), so the registry and the
** policy say what went wrong by calling it and the wording lives in one
** place. A row owns one allocation holding its message and a copy of the
** tool name; the other strings point into the plugin's descriptor, which
** outlives the registry.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* ---- writing rows ---- */

/* Append a row made from `proto` with a formatted message; the tool name
** is copied. 0 or TOOLGOV_ENOMEM (nothing appended). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static int rows_add(const toolgov_allocator *a, toolgov__rows *rows,
                    const toolgov_drift_row *proto, const char *fmt, ...)
{
    va_list ap;
    int n;
    size_t tool_len = proto->tool ? strlen(proto->tool) : 0;
    size_t memsize;
    char *mem;
    toolgov__row *r;
    int rc;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return TOOLGOV_EINVAL;
    rc = toolgov__reserve(a, (void **)&rows->v, &rows->cap, rows->n + 1, sizeof *rows->v);
    if (rc < 0)
        return rc;
    memsize = (size_t)n + 1 + (proto->tool ? tool_len + 1 : 0);
    mem = toolgov__alloc(a, memsize);
    if (!mem)
        return TOOLGOV_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(mem, (size_t)n + 1, fmt, ap);
    va_end(ap);
    r = &rows->v[rows->n];
    r->row = *proto;
    r->row.message = mem;
    if (proto->tool) {
        char *t = mem + n + 1;

        memcpy(t, proto->tool, tool_len + 1);
        r->row.tool = t;
    }
    r->mem = mem;
    r->memsize = memsize;
    rows->n++;
    return 0;
}

void toolgov__rows_truncate(const toolgov_allocator *a, toolgov__rows *rows, size_t keep)
{
    while (rows->n > keep) {
        rows->n--;
        toolgov__free(a, rows->v[rows->n].mem, rows->v[rows->n].memsize);
    }
}

void toolgov__rows_free(const toolgov_allocator *a, toolgov__rows *rows)
{
    toolgov__rows_truncate(a, rows, 0);
    toolgov__free(a, rows->v, rows->cap * sizeof *rows->v);
    memset(rows, 0, sizeof *rows);
}

static void proto_init(toolgov_drift_row *p, toolgov_drift_kind kind,
                       const toolgov_plugin *plugin, const char *tool)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->plugin = plugin ? plugin->name : NULL;
    p->manifest_file = plugin ? plugin->manifest_file : NULL;
    p->tool = tool;
}

int toolgov__drift_undeclared(const toolgov_allocator *a, toolgov__rows *rows,
                              const toolgov_plugin *plugin, const char *tool,
                              int own_loop)
{
    toolgov_drift_row proto;

    proto_init(&proto, TOOLGOV_DRIFT_UNDECLARED, plugin, tool);
    if (own_loop)
        return rows_add(a, rows, &proto,
                        "tool %s is used by plugin %s in its own loop but not declared "
                        "in its manifest",
                        tool, plugin->name);
    return rows_add(a, rows, &proto,
                    "tool %s is registered by plugin %s but not declared in its manifest",
                    tool, plugin->name);
}

int toolgov__drift_duplicate(const toolgov_allocator *a, toolgov__rows *rows,
                             const toolgov_plugin *plugin, const char *tool,
                             const toolgov_plugin *owner)
{
    toolgov_drift_row proto;

    proto_init(&proto, TOOLGOV_DRIFT_DUPLICATE, plugin, tool);
    proto.owner = owner ? owner->name : TOOLGOV__CORE_OWNER;
    return rows_add(a, rows, &proto,
                    "tool %s of plugin %s is refused: the name is already in the pool, "
                    "owned by %s",
                    tool, plugin->name, owner ? owner->name : "the core");
}

int toolgov__drift_never_registered(const toolgov_allocator *a, toolgov__rows *rows,
                                    const toolgov_plugin *plugin,
                                    const toolgov_tool_spec *spec)
{
    toolgov_drift_row proto;
    char where[64];

    proto_init(&proto, TOOLGOV_DRIFT_NEVER_REGISTERED, plugin, spec->name);
    proto.line = spec->manifest_line;
    proto.column = spec->manifest_column;
    if (spec->manifest_line)
        snprintf(where, sizeof where, ":%u:%u", spec->manifest_line, spec->manifest_column);
    else
        where[0] = '\0';
    return rows_add(a, rows, &proto,
                    "tool %s is declared in %s%s but plugin %s never registered it",
                    spec->name, plugin->manifest_file ? plugin->manifest_file : "its manifest",
                    where, plugin->name);
}

int toolgov__drift_provides_nothing(const toolgov_allocator *a, toolgov__rows *rows,
                                    const toolgov_plugin *plugin)
{
    toolgov_drift_row proto;

    proto_init(&proto, TOOLGOV_DRIFT_PROVIDES_NOTHING, plugin, NULL);
    return rows_add(a, rows, &proto,
                    "plugin %s says provides: tool but no tool of it is in the pool",
                    plugin->name);
}

int toolgov__drift_mount_failed(const toolgov_allocator *a, toolgov__rows *rows,
                                const toolgov_plugin *plugin, int err)
{
    toolgov_drift_row proto;

    proto_init(&proto, TOOLGOV_DRIFT_MOUNT_FAILED, plugin, NULL);
    proto.err = err;
    if (err == TOOLGOV_EABI)
        return rows_add(a, rows, &proto,
                        "plugin %s was generated for toolgov ABI %u but this runtime "
                        "is ABI %d: regenerate it with this toolgov-gen",
                        plugin->name, plugin->abi_version, TOOLGOV_ABI_VERSION);
    if (err == TOOLGOV_EEXIST)
        return rows_add(a, rows, &proto,
                        "plugin %s is already mounted: the second mount is refused",
                        plugin->name);
    return rows_add(a, rows, &proto,
                    "plugin %s was not mounted: its register function failed: %s",
                    plugin->name, toolgov_strerror(err));
}

int toolgov__drift_invalid_spec(const toolgov_allocator *a, toolgov__rows *rows,
                                const toolgov_plugin *plugin, const toolgov_tool_spec *spec,
                                const char *why)
{
    toolgov_drift_row proto;

    proto_init(&proto, TOOLGOV_DRIFT_MOUNT_FAILED, plugin, spec->name);
    proto.err = TOOLGOV_EINVAL;
    proto.line = spec->manifest_line;
    proto.column = spec->manifest_column;
    return rows_add(a, rows, &proto,
                    "plugin %s was not mounted: the spec of tool %s is invalid: %s",
                    plugin->name, spec->name ? spec->name : "#unnamed", why);
}

int toolgov__drift_override_unknown(const toolgov_allocator *a, toolgov__rows *rows,
                                    const char *name, size_t len)
{
    toolgov_drift_row proto;
    char *copy = toolgov__memdup(a, name, len);
    int rc;

    if (!copy)
        return TOOLGOV_ENOMEM;
    proto_init(&proto, TOOLGOV_DRIFT_OVERRIDE_UNKNOWN, NULL, copy);
    rc = rows_add(a, rows, &proto,
                  TOOLGOV_CONFIRM_ONCE_ENV " names %s, which matches no tool in the pool; "
                                           "check the spelling or remove it",
                  copy);
    toolgov__free(a, copy, len + 1);
    return rc;
}

int toolgov__drift_setting_invalid(const toolgov_allocator *a, toolgov__rows *rows,
                                   const char *variable, const char *value,
                                   const char *expected)
{
    toolgov_drift_row proto;

    proto_init(&proto, TOOLGOV_DRIFT_SETTING_INVALID, NULL, NULL);
    return rows_add(a, rows, &proto, "%s is \"%s\", which it may not be: set it to %s",
                    variable, value, expected);
}

/* ---- reading and rendering ---- */

const char *toolgov_drift_kind_name(toolgov_drift_kind kind)
{
    switch (kind) {
    case TOOLGOV_DRIFT_UNDECLARED: return "undeclared";
    case TOOLGOV_DRIFT_DUPLICATE: return "duplicate";
    case TOOLGOV_DRIFT_NEVER_REGISTERED: return "never_registered";
    case TOOLGOV_DRIFT_PROVIDES_NOTHING: return "provides_nothing";
    case TOOLGOV_DRIFT_MOUNT_FAILED: return "mount_failed";
    case TOOLGOV_DRIFT_OVERRIDE_UNKNOWN: return "override_unknown";
    case TOOLGOV_DRIFT_SETTING_INVALID: return "setting_invalid";
    }
    return "unknown";
}

size_t toolgov_drift_count(const toolgov_registry *reg, const toolgov_policy *pol)
{
    return (reg ? reg->rows.n : 0) + (pol ? pol->rows.n + pol->scope_rows.n : 0);
}

const toolgov_drift_row *toolgov_drift_at(const toolgov_registry *reg,
                                          const toolgov_policy *pol, size_t i)
{
    size_t nreg = reg ? reg->rows.n : 0;

    if (i < nreg)
        return &reg->rows.v[i].row;
    i -= nreg;
    if (!pol)
        return NULL;
    if (i < pol->rows.n)
        return &pol->rows.v[i].row;
    i -= pol->rows.n;
    if (i < pol->scope_rows.n)
        return &pol->scope_rows.v[i].row;
    return NULL;
}

int toolgov_drift_render_text(char *out, size_t size, size_t *needed,
                              const toolgov_registry *reg, const toolgov_policy *pol)
{
    toolgov__out o;
    size_t i, n;

    if (needed)
        *needed = 0;
    if (out && size)
        out[0] = '\0';
    if ((!out && size) || (!reg && !pol))
        return TOOLGOV_EINVAL;
    toolgov__out_init(&o, out, size);
    n = toolgov_drift_count(reg, pol);
    if (n == 0)
        toolgov__out_str(&o, "no drift\n");
    for (i = 0; i < n; i++) {
        const toolgov_drift_row *r = toolgov_drift_at(reg, pol, i);

        toolgov__out_line_str(&o, r->plugin ? r->plugin : "override");
        toolgov__out_str(&o, ": ");
        toolgov__out_str(&o, toolgov_drift_kind_name(r->kind));
        toolgov__out_str(&o, ": ");
        toolgov__out_line_str(&o, r->message);
        toolgov__out_put(&o, "\n", 1);
    }
    return toolgov__out_finish(&o, needed);
}

int toolgov_drift_render_json(char *out, size_t size, size_t *needed,
                              const toolgov_registry *reg, const toolgov_policy *pol)
{
    toolgov__out o;
    size_t i, n;

    if (needed)
        *needed = 0;
    if (out && size)
        out[0] = '\0';
    if ((!out && size) || (!reg && !pol))
        return TOOLGOV_EINVAL;
    toolgov__out_init(&o, out, size);
    n = toolgov_drift_count(reg, pol);
    toolgov__out_str(&o, "{\"rows\":[");
    for (i = 0; i < n; i++) {
        const toolgov_drift_row *r = toolgov_drift_at(reg, pol, i);

        toolgov__out_str(&o, i ? ",{\"kind\":" : "{\"kind\":");
        toolgov__out_json_str(&o, toolgov_drift_kind_name(r->kind));
        toolgov__out_str(&o, ",\"plugin\":");
        toolgov__out_json_str(&o, r->plugin);
        toolgov__out_str(&o, ",\"manifest\":");
        toolgov__out_json_str(&o, r->manifest_file);
        toolgov__out_str(&o, ",\"tool\":");
        toolgov__out_json_str(&o, r->tool);
        toolgov__out_str(&o, ",\"owner\":");
        toolgov__out_json_str(&o, r->owner);
        toolgov__out_str(&o, ",\"line\":");
        toolgov__out_u64(&o, r->line);
        toolgov__out_str(&o, ",\"column\":");
        toolgov__out_u64(&o, r->column);
        toolgov__out_str(&o, ",\"error\":");
        toolgov__out_json_str(&o, r->err ? toolgov_strerror(r->err) : NULL);
        toolgov__out_str(&o, ",\"message\":");
        toolgov__out_json_str(&o, r->message);
        toolgov__out_put(&o, "}", 1);
    }
    toolgov__out_str(&o, "]}\n");
    return toolgov__out_finish(&o, needed);
}
