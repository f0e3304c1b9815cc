/* SPDX-License-Identifier: MIT */
/*
** check/link.c: the link check, clashes of names across the manifests of
** one pool (link.h).
**
** Names go into one string set in manifest order, so the first manifest to
** use a name owns it and every later use is the error, as at mount.
*/
#include <stdlib.h>
#include <string.h>

#include "check/link.h"
#include "base/strset.h"

const char *const toolgov__builtin_tools[] = {
    "memory_search",          "ask_user",
    "memory_correct",         "memory_forget",
    "memory_restore",         "record_feedback",
    "promote_recommendation", "propose_skill_from_sandbox",
    "invoke_pending_action",
};
const size_t toolgov__builtin_tool_count =
    sizeof toolgov__builtin_tools / sizeof *toolgov__builtin_tools;

static int is_builtin(const char *name)
{
    for (size_t i = 0; i < toolgov__builtin_tool_count; i++)
        if (toolgov__builtin_tools[i][0] == name[0] && strcmp(toolgov__builtin_tools[i], name) == 0)
            return 1;
    return 0;
}

/* Where a name was first used: manifest index and tool index (tool -1:
** the plugin's own name). Found by a linear walk of the earlier manifests,
** which runs only when there is an error to report. */
static void first_use(const toolgov__manifest *const *ms, size_t upto, const char *name,
                      int plugin_name, size_t *mi, long *ti)
{
    for (size_t i = 0; i < upto; i++) {
        if (!ms[i])
            continue;
        if (plugin_name && strcmp(ms[i]->name, name) == 0) {
            *mi = i;
            *ti = -1;
            return;
        }
        long t = plugin_name ? -1 : toolgov__manifest_find(ms[i], name);
        if (t >= 0) {
            *mi = i;
            *ti = t;
            return;
        }
    }
}

size_t toolgov__link_check(const toolgov__manifest *const *ms, size_t n, toolgov__diag *d)
{
    toolgov__strset tools, plugins;
    size_t errors = 0;
    toolgov__strset_init(&tools);
    toolgov__strset_init(&plugins);
    for (size_t i = 0; i < n; i++) {
        const toolgov__manifest *m = ms[i];
        if (!m)
            continue;
        int added = toolgov__strset_add(&plugins, m->name);
        if (added < 0)
            goto oom;
        if (added == 0) {
            size_t fm = 0;
            long ft = -1;
            first_use(ms, i, m->name, 1, &fm, &ft);
            toolgov__diag_error_at(d, m->path, m->name_at,
                                   "plugin name '%s' is used by another manifest of this "
                                   "pool; the generated names of the two would collide",
                                   m->name);
            if (ms[fm]) /* first_use() only lands on a loaded manifest */
                toolgov__diag_note_at(d, ms[fm]->path, ms[fm]->name_at,
                                      "plugin '%s' is named here first", m->name);
            errors++;
        }
        for (size_t t = 0; t < m->tool_count; t++) {
            const toolgov__tool_decl *tl = &m->tools[t];
            if (is_builtin(tl->name)) {
                toolgov__diag_error_at(d, m->path, tl->at,
                                       "tool '%s' of plugin '%s' takes the name of a core "
                                       "built-in tool, which the runtime refuses at mount; "
                                       "rename it",
                                       tl->name, m->name);
                errors++;
                continue;
            }
            /* The last manifest's names are only looked up: no later one
            ** can clash with them, and its own duplicates are its loader's
            ** errors (so generate, a pool of one, builds no set at all). */
            if (i + 1 == n)
                added = toolgov__strset_find(&tools, tl->name) == NULL;
            else
                added = toolgov__strset_add(&tools, tl->name);
            if (added < 0)
                goto oom;
            if (added == 0) {
                size_t fm = 0;
                long ft = -1;
                first_use(ms, i, tl->name, 0, &fm, &ft);
                if (ft < 0) /* a second use within one manifest: its loader's error */
                    continue;
                toolgov__diag_error_at(d, m->path, tl->at,
                                       "tool '%s' of plugin '%s' is declared by plugin '%s' "
                                       "too; in one pool a tool name has one owner (the "
                                       "runtime keeps the first and refuses this one)",
                                       tl->name, m->name, ms[fm]->name);
                toolgov__diag_note_at(d, ms[fm]->path, ms[fm]->tools[ft].at,
                                      "'%s' is declared here first", tl->name);
                errors++;
            }
        }
    }
    toolgov__strset_free(&tools);
    toolgov__strset_free(&plugins);
    return errors;
oom:
    toolgov__strset_free(&tools);
    toolgov__strset_free(&plugins);
    toolgov__diag_error(d, ms[0] ? ms[0]->path : "toolgov-gen", 0, 0,
                        "out of memory checking the pool of manifests");
    return (size_t)-1;
}
