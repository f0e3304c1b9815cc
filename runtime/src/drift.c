/*
** drift.c: reading and rendering the drift panel.
*/
#include <string.h>

#include "internal.h"

const char *toolgov_drift_kind_name(toolgov_drift_kind kind)
{
    switch (kind) {
    case TOOLGOV_DRIFT_UNDECLARED: return "undeclared";
    case TOOLGOV_DRIFT_DUPLICATE: return "duplicate";
    case TOOLGOV_DRIFT_NEVER_REGISTERED: return "never_registered";
    case TOOLGOV_DRIFT_PROVIDES_NOTHING: return "provides_nothing";
    case TOOLGOV_DRIFT_MOUNT_FAILED: return "mount_failed";
    case TOOLGOV_DRIFT_OVERRIDE_UNKNOWN: return "override_unknown";
    }
    return "unknown";
}

size_t toolgov_drift_count(const toolgov_registry *reg, const toolgov_policy *pol)
{
    return (reg ? reg->nrows : 0) + (pol ? pol->nrows : 0);
}

const toolgov_drift_row *toolgov_drift_at(const toolgov_registry *reg,
                                          const toolgov_policy *pol, size_t i)
{
    size_t nreg = reg ? reg->nrows : 0;

    if (i < nreg)
        return &reg->rows[i].row;
    i -= nreg;
    if (pol && i < pol->nrows)
        return &pol->rows[i].row;
    return NULL;
}

int toolgov_drift_render_text(char *out, size_t size, size_t *needed,
                              const toolgov_registry *reg, const toolgov_policy *pol)
{
    toolgov__out o;
    size_t i, n;

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
