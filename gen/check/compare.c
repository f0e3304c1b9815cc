/* SPDX-License-Identifier: MIT */
/*
** compare.c: the comparison of scanned sources with the manifest (compare.h).
**
** The order of reports follows the sources (handlers, then registration
** calls, as the scanner met them), then the manifest (missing handlers in
** manifest order), so a run prints the same lines in the same order every
** time and the first error is the first one in the first source.
*/
#include <stdlib.h>
#include <string.h>

#include "check/compare.h"

#include "base/contract.h"
#include "base/fileio.h"
#include "base/names.h"
#include "emit/stubs.h"

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

/* The linker symbol of the handler of `tool` in `plugin` (the name the
** generated header declares and the generated C file calls); malloc'd,
** NULL when out of memory. */
static char *handler_symbol(const char *plugin, const char *tool)
{
    size_t n = toolgov__handler_symbol(NULL, 0, plugin, tool) + 1;
    char *r = malloc(n);
    if (r)
        toolgov__handler_symbol(r, n, plugin, tool);
    return r;
}

/* A definition without the annotation named like a handler (`want`). */
static const toolgov__handler *find_plain(const toolgov__scan *s, const char *want)
{
    for (size_t h = 0; h < s->handler_count; h++) {
        const char *f = s->handlers[h].function;
        if (!s->handlers[h].tool && f && strcmp(f, want) == 0)
            return &s->handlers[h];
    }
    return NULL;
}

static int same_place(const toolgov__loc *a, const toolgov__loc *b)
{
    return a->line == b->line && a->col == b->col &&
           (a->file == b->file || (a->file && b->file && strcmp(a->file, b->file) == 0));
}

/* A declaration that can be a handler at all: a plain function definition. */
static int is_function_definition(const toolgov__handler *h)
{
    unsigned want = TOOLGOV__HANDLER_DEFINITION | TOOLGOV__HANDLER_FUNCTION;
    return (h->flags & want) == want;
}

/* The handler at `first` is defined in a header that several sources
** include: unless every copy is an inline C++ function, each source emits
** the symbol and the link fails. One error at the definition, a note at
** each source's #include. */
static size_t report_copies(const toolgov__manifest *m, const toolgov__scan *s, size_t first,
                            toolgov__diag *d)
{
    const toolgov__handler *h = &s->handlers[first];
    size_t sources = 0;
    int all_inline = 1;
    for (size_t k = first; k < s->handler_count; k++) {
        const toolgov__handler *o = &s->handlers[k];
        if (!o->tool || strcmp(o->tool, h->tool) != 0 || !same_place(&o->at, &h->at))
            continue;
        sources++;
        all_inline &= (o->flags & TOOLGOV__HANDLER_CXX_INLINE) != 0;
    }
    if (sources < 2 || all_inline)
        return 0;
    const char *file = h->at.file ? h->at.file : m->path;
    toolgov__diag_error(d, file, h->at.line, h->at.col,
                        "the handler for tool '%s' is defined in a header that %zu sources "
                        "of plugin '%s' include, so each defines '%s' and the link fails "
                        "with a multiple definition; define it in one source",
                        h->tool, sources, m->name, h->function);
    for (size_t k = first; k < s->handler_count; k++) {
        const toolgov__handler *o = &s->handlers[k];
        if (!o->tool || strcmp(o->tool, h->tool) != 0 || !same_place(&o->at, &h->at))
            continue;
        if (o->via.file)
            toolgov__diag_note(d, o->via.file, o->via.line, o->via.col,
                               "'%s' includes it here", o->source);
        else
            toolgov__diag_note(d, o->source, 0, 0, "this source defines it too");
    }
    return 1;
}

size_t toolgov__compare(const toolgov__manifest *m, const toolgov__scan *s,
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
    /* symbol[t]: the handler symbol of declared tool t. */
    char **symbol = calloc(nt ? nt : 1, sizeof *symbol);
    int oom = !handler_of || !tool_of || !open || !all || !symbol;
    for (size_t t = 0; !oom && t < nt; t++)
        oom = (symbol[t] = handler_symbol(m->name, m->tools[t].name)) == NULL;
    if (oom) {
        toolgov__diag_error(d, m->path, 0, 0, "out of memory comparing the manifest "
                            "with the plugin's sources");
        errors++;
        goto out;
    }

    for (size_t t = 0; t < nt; t++)
        all[t] = m->tools[t].name;
    /* tool_of[h]: the declared tool h is the valid handler of, or -1. An
    ** entry is compared only at its first sighting: the same definition
    ** reached from another source is a copy (report_copies()). */
    for (size_t h = 0; h < nh; h++) {
        tool_of[h] = -1;
        const toolgov__handler *hd = &s->handlers[h];
        if (!hd->tool || !is_function_definition(hd))
            continue;
        long t = toolgov__manifest_find(m, hd->tool);
        if (t < 0 || !hd->symbol || !(hd->flags & TOOLGOV__HANDLER_PROTOTYPED))
            continue;
        if (strcmp(symbol[t], hd->symbol) == 0) {
            tool_of[h] = t;
            if (!handler_of[t])
                handler_of[t] = h + 1;
        }
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
        int copy = 0;
        for (size_t k = 0; k < h && !copy; k++)
            copy = s->handlers[k].tool && strcmp(s->handlers[k].tool, hd->tool) == 0 &&
                   same_place(&s->handlers[k].at, &hd->at);
        if (copy)
            continue;
        if (!is_function_definition(hd)) {
            /* A hand-written annotation on something the runtime can never
            ** call as a handler. */
            toolgov__diag_error(d, file, hd->at.line, hd->at.col,
                                "'%s' carries the handler mark of tool '%s' but is not a "
                                "function definition at file scope; only the handler "
                                "macro of plugin '%s' may put that mark, on the handler "
                                "it defines",
                                hd->function, hd->tool, m->name);
            errors++;
            continue;
        }
        long declared = toolgov__manifest_find(m, hd->tool);
        if (declared >= 0 && tool_of[h] < 0) {
            /* Declared, but this is not the plugin's handler: the symbol of
            ** another plugin (its header was included last), a hand-made
            ** mark, an asm label, or a type the header does not declare. */
            const char *want = symbol[declared];
            if (hd->symbol && strcmp(want, hd->symbol) != 0)
                toolgov__diag_error(d, file, hd->at.line, hd->at.col,
                                    "'%s' carries the handler mark of tool '%s', but the "
                                    "handler of '%s' in plugin '%s' is '%s' (is it defined "
                                    "with another plugin's handler macro, or the mark "
                                    "written by hand?)",
                                    hd->symbol, hd->tool, hd->tool, m->name, want);
            else
                toolgov__diag_error(d, file, hd->at.line, hd->at.col,
                                    "handler '%s' of tool '%s' is not declared with this "
                                    "type by %s.toolgov.h in %s; include the generated "
                                    "header and define the handler with its macro",
                                    hd->function, hd->tool, m->name, hd->source);
            errors++;
            continue;
        }
        /* A second handler for the same tool: the first one is the one
        ** compared, this one is an error of its own. */
        size_t first = h;
        if (declared >= 0) {
            first = handler_of[declared] - 1;
        } else {
            for (size_t k = 0; k < h && first == h; k++)
                if (s->handlers[k].tool && strcmp(s->handlers[k].tool, hd->tool) == 0 &&
                    is_function_definition(&s->handlers[k]))
                    first = k;
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
        if (declared >= 0) {
            errors += report_copies(m, s, h, d);
            continue;
        }
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
        if (rg->indirect) {
            toolgov__diag_warning(d, file, rg->at.line, rg->at.col,
                                  "%s is used here other than by a direct call, so the "
                                  "drift check cannot see the tool names it is given; the "
                                  "runtime refuses any name the manifest of plugin '%s' "
                                  "does not declare",
                                  rg->callee, m->name);
            continue;
        }
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
        const toolgov__tool_decl *tl = &m->tools[t];
        char macro[TOOLGOV_NAME_MAX + sizeof TOOLGOV_HANDLER_MACRO_SUFFIX];
        (void)toolgov__handler_macro(macro, sizeof macro, m->name);
        toolgov__diag_error(d, m->path, tl->at.line, tl->at.col,
                            "tool '%s' is declared but no source of plugin '%s' "
                            "defines its handler; define it with "
                            "'%s(%s, " TOOLGOV_HANDLER_PARAMS ") { ... }'",
                            tl->name, m->name, macro, tl->name);
        /* The handler's symbol, defined without the macro: say where. */
        const toolgov__handler *plain = find_plain(s, symbol[t]);
        if (plain)
            toolgov__diag_note(d, file_or(plain->at.file, m->path), plain->at.line,
                               plain->at.col,
                               "'%s' is defined here without %s(), so the check cannot "
                               "tell it is the handler; define it with the macro",
                               plain->function, macro);
        /* The skeleton `toolgov-gen stubs` prints, ready to paste. */
        char stub[1024];
        size_t sn = toolgov__handler_stub(stub, sizeof stub, m, tl);
        if (sn > 2 && sn < sizeof stub) {
            stub[sn - 1] = '\0'; /* the diagnostic ends the last line */
            toolgov__diag_note(d, m->path, tl->at.line, tl->at.col,
                               "a handler to paste into a source that includes "
                               "\"%s.toolgov.h\":%s",
                               m->name, stub); /* it starts with its own line break */
        }
        errors++;
    }

out:
    free(handler_of);
    free(tool_of);
    free(open);
    free(all);
    for (size_t t = 0; symbol && t < nt; t++)
        free(symbol[t]);
    free(symbol);
    return errors;
}

/* The headerless entry of `source`, or NULL. */
static const toolgov__headerless *headerless_of(const toolgov__scan *s, const char *source)
{
    for (size_t i = 0; i < s->headerless_count; i++)
        if (s->headerless[i].source == source ||
            (source && strcmp(s->headerless[i].source, source) == 0))
            return &s->headerless[i];
    return NULL;
}

/* The largest source whose lines a clang diagnostic shows (larger ones get
** the message alone). */
#define SOURCE_SHOWN_MAX (64u * 1024u * 1024u)

/* Register `file`'s text with `d` (when it shows source lines and does not
** hold that file already), so a clang diagnostic in it shows its line and a
** caret as the compiler would. A file that cannot be read shows none. */
static void show_source_of(toolgov__diag *d, const char *file)
{
    char *text;
    size_t len;
    if (!d->show_source || d->format != TOOLGOV_DIAG_TEXT ||
        (d->src_path_ && strcmp(d->src_path_, file) == 0))
        return;
    if (toolgov__fileio_read_quiet(&text, &len, file, SOURCE_SHOWN_MAX) != 0)
        return;
    toolgov__diag_source(d, file, text, len);
    free(text);
}

size_t toolgov__compare_report_clang(const toolgov__scan *s, const char *plugin,
                                     toolgov__diag *d)
{
    size_t errors = 0;
    for (size_t i = 0; plugin && i < s->headerless_count; i++) {
        const toolgov__headerless *h = &s->headerless[i];
        toolgov__diag_error(d, h->at.file ? h->at.file : h->source, h->at.line, h->at.col,
                            "this source defines a handler but does not include the "
                            "generated header of plugin '%s'; add #include \"%s.toolgov.h\" "
                            "before it",
                            plugin, plugin);
        errors++;
    }
    for (size_t i = 0; i < s->diag_count; i++) {
        const toolgov__clang_diag *cd = &s->diags[i];
        if (plugin && headerless_of(s, cd->source))
            continue; /* explained above */
        const char *file = cd->at.file ? cd->at.file : cd->source;
        unsigned line = cd->at.file ? cd->at.line : 0;
        unsigned col = cd->at.file ? cd->at.col : 0;
        if (line)
            show_source_of(d, file);
        if (cd->severity == TOOLGOV__CLANG_ERROR) {
            toolgov__diag_error(d, file, line, col, "%s", cd->message);
            errors++;
        } else {
            toolgov__diag_note(d, file, line, col, "%s", cd->message);
        }
    }
    return errors;
}
