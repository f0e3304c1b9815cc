/*
** drift.c: the comparison of scanned sources with the manifest (drift.h).
**
** The order of reports follows the sources (handlers, then registration
** calls, as the scanner met them), then the manifest (missing handlers in
** manifest order), so a run prints the same lines in the same order every
** time and the first error is the first one in the first source.
*/
#include <stdlib.h>
#include <string.h>

#include "drift.h"

/* A handler's place for a diagnostic: the file can only be missing when
** libclang gave no location, which it does not do for a definition. */
static const char *file_or(const char *file, const char *fallback)
{
    return file ? file : fallback;
}

/* The note that tells the author how to declare `tool`: placed at the
** first declared tool (the reader's eye lands under `tools:`), or at the
** plugin name when there are none yet. */
static void note_how_to_declare(const toolgov__manifest *m, toolgov__diag *d,
                                const char *tool)
{
    toolgov__mark at = m->tool_count ? m->tools[0].at : m->name_at;
    toolgov__diag_note(d, m->path, at.line, at.col,
                       "to declare it, add '%s:' under 'tools:' with an 'effect:' "
                       "(read, write or destructive) and a 'description:'",
                       tool);
}

/* A definition without the annotation named <plugin>_tool_<tool>. */
static const toolgov__handler *find_plain(const toolgov__scan *s, const char *plugin,
                                          const char *tool)
{
    size_t lp = strlen(plugin), lt = strlen(tool);
    for (size_t h = 0; h < s->handler_count; h++) {
        const char *f = s->handlers[h].function;
        if (s->handlers[h].tool || !f || strlen(f) != lp + 6 + lt)
            continue;
        if (strncmp(f, plugin, lp) == 0 && strncmp(f + lp, "_tool_", 6) == 0 &&
            strcmp(f + lp + 6, tool) == 0)
            return &s->handlers[h];
    }
    return NULL;
}

size_t toolgov__drift_compare(const toolgov__manifest *m, const toolgov__scan *s,
                              toolgov__diag *d)
{
    size_t errors = 0;
    size_t nt = m->tool_count, nh = s->handler_count;
    /* handler_of[t]: index+1 of the first handler of declared tool t.
    ** tool_of[h]: index of h's declared tool, or -1. */
    size_t *handler_of = calloc(nt ? nt : 1, sizeof *handler_of);
    long *tool_of = calloc(nh ? nh : 1, sizeof *tool_of);
    const char **open = calloc(nt ? nt : 1, sizeof *open);
    const char **all = calloc(nt ? nt : 1, sizeof *all);
    if (!handler_of || !tool_of || !open || !all) {
        toolgov__diag_error(d, m->path, 0, 0, "out of memory comparing the manifest "
                            "with the plugin's sources");
        errors++;
        goto out;
    }

    for (size_t t = 0; t < nt; t++)
        all[t] = m->tools[t].name;
    for (size_t h = 0; h < nh; h++) {
        tool_of[h] = -1;
        if (!s->handlers[h].tool)
            continue; /* not annotated: not a handler */
        tool_of[h] = toolgov__manifest_find(m, s->handlers[h].tool);
        if (tool_of[h] >= 0 && !handler_of[tool_of[h]])
            handler_of[tool_of[h]] = h + 1;
    }
    /* Candidates for a rename: declared tools nobody implements. A pairing
    ** removes the tool from the list, so one declared tool explains at most
    ** one undeclared handler. */
    for (size_t t = 0; t < nt; t++)
        open[t] = handler_of[t] ? NULL : m->tools[t].name;

    for (size_t h = 0; h < nh; h++) {
        const toolgov__handler *hd = &s->handlers[h];
        const char *file = file_or(hd->at.file, m->path);
        if (!hd->tool)
            continue;
        /* A second handler for the same tool (declared or not): the first
        ** one is the one compared, this one is an error of its own. */
        size_t first = h;
        for (size_t k = 0; k < h; k++)
            if (s->handlers[k].tool && strcmp(s->handlers[k].tool, hd->tool) == 0) {
                first = k;
                break;
            }
        if (first != h) {
            const toolgov__handler *f = &s->handlers[first];
            toolgov__diag_error(d, file, hd->at.line, hd->at.col,
                                "second handler for tool '%s' of plugin '%s'",
                                hd->tool, m->name);
            toolgov__diag_note(d, file_or(f->at.file, m->path), f->at.line, f->at.col,
                               "the first handler for '%s' is here", f->tool);
            errors++;
            continue;
        }
        if (tool_of[h] >= 0)
            continue;
        const char *near = toolgov__suggest(hd->tool, open, nt);
        if (near) {
            long t = toolgov__manifest_find(m, near);
            toolgov__diag_error(d, file, hd->at.line, hd->at.col,
                                "handler for tool '%s' is not declared in the manifest "
                                "of plugin '%s'; did you mean '%s'?",
                                hd->tool, m->name, near);
            toolgov__diag_note(d, m->path, m->tools[t].at.line, m->tools[t].at.col,
                               "'%s' is declared here and has no handler; rename the "
                               "handler or the manifest key so they agree",
                               near);
            open[t] = NULL;
            handler_of[t] = h + 1; /* explained: no second error for it */
        } else {
            toolgov__diag_error(d, file, hd->at.line, hd->at.col,
                                "handler for tool '%s' is not declared in the manifest "
                                "of plugin '%s'",
                                hd->tool, m->name);
            note_how_to_declare(m, d, hd->tool);
        }
        errors++;
    }

    for (size_t r = 0; r < s->registration_count; r++) {
        const toolgov__registration *rg = &s->registrations[r];
        const char *file = file_or(rg->at.file, m->path);
        if (!rg->name) {
            toolgov__diag_warning(d, file, rg->at.line, rg->at.col,
                                  "%s() is called with a tool name computed at run "
                                  "time, which the drift check cannot verify; the "
                                  "runtime refuses it unless the manifest of plugin "
                                  "'%s' declares it",
                                  rg->callee, m->name);
            continue;
        }
        if (toolgov__manifest_find(m, rg->name) >= 0)
            continue;
        const char *near = toolgov__suggest(rg->name, all, nt);
        if (near) {
            long t = toolgov__manifest_find(m, near);
            toolgov__diag_error(d, file, rg->at.line, rg->at.col,
                                "%s() names tool '%s', which the manifest of plugin "
                                "'%s' does not declare; did you mean '%s'?",
                                rg->callee, rg->name, m->name, near);
            toolgov__diag_note(d, m->path, m->tools[t].at.line, m->tools[t].at.col,
                               "'%s' is declared here", near);
        } else {
            toolgov__diag_error(d, file, rg->at.line, rg->at.col,
                                "%s() names tool '%s', which the manifest of plugin "
                                "'%s' does not declare (the runtime would refuse it)",
                                rg->callee, rg->name, m->name);
            note_how_to_declare(m, d, rg->name);
        }
        errors++;
    }

    for (size_t t = 0; t < nt; t++) {
        if (handler_of[t])
            continue;
        const toolgov__tool *tl = &m->tools[t];
        toolgov__diag_error(d, m->path, tl->at.line, tl->at.col,
                            "tool '%s' is declared but no source of plugin '%s' "
                            "defines its handler; define it with "
                            "'TOOLGOV_HANDLER(%s, call, out) { ... }'",
                            tl->name, m->name, tl->name);
        /* The handler's symbol, defined without the macro: say where. */
        const toolgov__handler *plain = find_plain(s, m->name, tl->name);
        if (plain)
            toolgov__diag_note(d, file_or(plain->at.file, m->path), plain->at.line,
                               plain->at.col,
                               "'%s' is defined here without TOOLGOV_HANDLER(), so the "
                               "check cannot tell it is the handler; define it with the "
                               "macro",
                               plain->function);
        errors++;
    }

out:
    free(handler_of);
    free(tool_of);
    free(open);
    free(all);
    return errors;
}

size_t toolgov__drift_report_clang(const toolgov__scan *s, toolgov__diag *d)
{
    size_t errors = 0;
    for (size_t i = 0; i < s->diag_count; i++) {
        const toolgov__clang_diag *cd = &s->diags[i];
        const char *file = cd->at.file ? cd->at.file : cd->source;
        unsigned line = cd->at.file ? cd->at.line : 0;
        unsigned col = cd->at.file ? cd->at.col : 0;
        if (cd->severity == TOOLGOV__CLANG_ERROR) {
            toolgov__diag_error(d, file, line, col, "%s", cd->message);
            errors++;
        } else {
            toolgov__diag_note(d, file, line, col, "%s", cd->message);
        }
    }
    return errors;
}
