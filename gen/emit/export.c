/* SPDX-License-Identifier: MIT */
/*
** export.c: `toolgov-gen export` (see export.h).
**
** The list is written compact by the runtime's one writer of tool lists
** (runtime/src/tooljson.c, compiled in), then laid out by one
** pretty-printer, so every format shares the same layout and a schema's
** canonical text is embedded as it is (never re-read as data).
*/
#define _POSIX_C_SOURCE 200809L
#include "emit/export.h"

#include "base/fileio.h"
#include "schema/schema.h"
#include "tooljson.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_MISUSE 2

static void put(toolgov__buf *b, const char *s, size_t n)
{
    toolgov__buf_put(b, s, n);
}

static void indent(toolgov__buf *b, unsigned depth)
{
    unsigned k;
    put(b, "\n", 1);
    for (k = 0; k < depth; k++)
        put(b, "  ", 2);
}

/* Lay out compact JSON text with two-space indentation. */
static void pretty(toolgov__buf *out, const char *s, size_t n)
{
    unsigned depth = 0;
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '"') {
            size_t j = i + 1;
            while (j < n && s[j] != '"')
                j += s[j] == '\\' ? 2 : 1;
            put(out, s + i, j + 1 - i);
            i = j + 1;
        } else if (c == '{' || c == '[') {
            if (i + 1 < n && (s[i + 1] == '}' || s[i + 1] == ']')) {
                put(out, s + i, 2);
                i += 2;
                continue;
            }
            put(out, &c, 1);
            indent(out, ++depth);
            i++;
        } else if (c == '}' || c == ']') {
            indent(out, --depth);
            put(out, &c, 1);
            i++;
        } else if (c == ',') {
            put(out, ",", 1);
            indent(out, depth);
            i++;
        } else if (c == ':') {
            put(out, ": ", 2);
            i++;
        } else {
            put(out, &c, 1);
            i++;
        }
    }
    put(out, "\n", 1);
}

/* The canonical JSON Schema text of tool i's parameters (the generator's
** own canonical text, as the generated spec carries it; the no-arguments
** schema for a tool without parameters), in the arena. NULL when out of
** memory. */
static const char *tool_schema(toolgov__schema_ctx *cx, const toolgov__manifest *m, size_t i)
{
    const char *text = NULL;
    size_t len = 0;
    cx->tool = m->tools[i].name;
    if (toolgov__schema_text(cx, m->tools[i].params, &text, &len) != 0)
        return NULL;
    return text;
}

int toolgov__export_format_parse(const char *name, toolgov__export_format *out)
{
    static const struct {
        const char *name;
        toolgov__export_format f;
    } names[] = {{"openai", TOOLGOV_EXPORT_OPENAI},
                 {"anthropic", TOOLGOV_EXPORT_ANTHROPIC},
                 {"mcp", TOOLGOV_EXPORT_MCP},
                 {"json-schema", TOOLGOV_EXPORT_JSON_SCHEMA},
                 {"openai-responses", TOOLGOV_EXPORT_OPENAI_RESPONSES}};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].f;
            return 0;
        }
    return -1;
}

/* The tools of the export's loop, as the runtime's list writer shows them:
** the manifest's texts, no effect mark (the export is the declaration
** itself; MCP has its annotations). */
typedef struct exported {
    const toolgov__manifest *m;
    const char *const *schemas; /* per tool; NULL: not on the loop */
} exported;

static int exported_view(void *ud, size_t i, toolgov__tool_view *out)
{
    const exported *x = ud;
    const toolgov__tool_decl *t = &x->m->tools[i];
    if (!x->schemas[i])
        return 0;
    out->name = t->name;
    out->name_len = strlen(t->name);
    out->mark = "";
    out->description = t->description;
    out->description_len = t->description_len;
    out->schema = x->schemas[i];
    out->effect = t->effect;
    return 1;
}

int toolgov__export_render(char **out, size_t *out_len, const toolgov__manifest *m,
                           toolgov__export_format f, int loop, int strict, toolgov__diag *d)
{
    /* The Responses shape and strict mode: the chat list, rewritten by the
    ** runtime's one rewriting (runtime/src/tooljson_openai.c). */
    unsigned how = (strict ? TOOLGOV__TOOLS_STRICT : 0u) |
                   (f == TOOLGOV_EXPORT_OPENAI_RESPONSES ? TOOLGOV__TOOLS_FLAT : 0u);
    toolgov_tools_format base = how ? TOOLGOV_TOOLS_OPENAI : (toolgov_tools_format)f;
    toolgov__jbuf shaped;
    toolgov__buf p;
    toolgov__arena arena;
    toolgov__schema_ctx cx;
    toolgov__out o;
    exported x;
    const char **schemas;
    char *compact = NULL;
    size_t i;
    int failed = 0;

    toolgov__buf_init(&p);
    toolgov__jbuf_init(&shaped, NULL);
    toolgov__arena_init(&arena);
    memset(&cx, 0, sizeof cx);
    cx.arena = &arena;
    cx.d = d;
    cx.path = m->path;
    schemas = calloc(m->tool_count ? m->tool_count : 1, sizeof *schemas);
    failed = !schemas;
    for (i = 0; !failed && i < m->tool_count; i++)
        if (m->tools[i].loop & loop)
            failed = !(schemas[i] = tool_schema(&cx, m, i));
    if (!failed) {
        /* The runtime's writer fills a caller's buffer: size, then write. */
        x.m = m;
        x.schemas = schemas;
        toolgov__out_init(&o, NULL, 0);
        toolgov__tools_write(&o, base, m->tool_count, exported_view, &x);
        compact = malloc(o.len + 1);
        failed = !compact;
    }
    if (!failed) {
        toolgov__out_init(&o, compact, o.len + 1);
        toolgov__tools_write(&o, base, m->tool_count, exported_view, &x);
        if (!how)
            pretty(&p, compact, o.len);
        else if (toolgov__tools_openai(&shaped, compact, o.len, how, NULL) != 0)
            failed = 1;
        else
            pretty(&p, shaped.ptr, shaped.len);
    }
    put(&p, "", 1); /* NUL-terminated for the caller, not counted */
    free(compact);
    toolgov__jbuf_free(&shaped);
    free(schemas);
    toolgov__arena_free(&arena);
    if (failed || p.oom) {
        toolgov__buf_free(&p);
        return -1;
    }
    *out = p.data;
    *out_len = p.len - 1;
    return 0;
}

static int misuse(const char *fmt, const char *arg)
{
    fputs("toolgov-gen: export: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\ntry 'toolgov-gen --help' for usage\n", stderr);
    return EXIT_MISUSE;
}

int toolgov__export_main(int argc, char **argv, toolgov__diag *d)
{
    const char *manifest = NULL, *format = NULL, *out_path = NULL, *loop_word = "pool";
    toolgov__export_format f;
    toolgov__manifest *m;
    char *text = NULL;
    size_t len = 0;
    int i, rc = 0, strict = 0;

    for (i = 0; i < argc; i++) {
        static const char *const names[] = {"--manifest", "--format", "--out", "--loop"};
        const char **slots[4];
        const char *a = argv[i];
        int k, matched = 0;
        if (strcmp(a, "--strict") == 0) {
            strict = 1;
            continue;
        }
        slots[0] = &manifest;
        slots[1] = &format;
        slots[2] = &out_path;
        slots[3] = &loop_word;
        for (k = 0; k < 4 && !matched; k++) {
            size_t n = strlen(names[k]);
            if (strncmp(a, names[k], n) != 0 || (a[n] != '\0' && a[n] != '='))
                continue;
            if (a[n] == '=')
                *slots[k] = a + n + 1;
            else if (i + 1 < argc)
                *slots[k] = argv[++i];
            else
                return misuse("%s needs an argument", names[k]);
            if (!**slots[k])
                return misuse("%s needs a non-empty argument", names[k]);
            matched = 1;
        }
        if (!matched)
            return misuse("unknown argument '%s'", a);
    }
    if (!manifest)
        return misuse("%s", "export needs --manifest FILE");
    if (!format)
        return misuse("%s", "export needs --format "
                            "openai|openai-responses|anthropic|mcp|json-schema");
    if (toolgov__export_format_parse(format, &f) != 0)
        return misuse("unknown format '%s' (expected openai, openai-responses, anthropic, mcp "
                      "or json-schema)", format);
    if (strict && f != TOOLGOV_EXPORT_OPENAI && f != TOOLGOV_EXPORT_OPENAI_RESPONSES)
        return misuse("--strict is OpenAI's strict mode: it goes with --format openai or "
                      "openai-responses, not '%s'", format);
    if (strcmp(loop_word, "pool") != 0 && strcmp(loop_word, "own") != 0)
        return misuse("unknown loop '%s' (expected pool, the host's tools, or own, the "
                      "plugin's own loop's)", loop_word);
    m = toolgov__manifest_load(manifest, d);
    if (!m) {
        toolgov__diag_finish(d);
        return 1;
    }
    if (toolgov__export_render(&text, &len, m, f,
                               loop_word[0] == 'p' ? TOOLGOV__LOOP_POOL : TOOLGOV__LOOP_OWN, strict,
                               d) != 0) {
        toolgov__diag_error(d, manifest, 0, 0, "out of memory");
        rc = 1;
    } else if (out_path) {
        /* Through fileio: staged beside the target, renamed into place, and
        ** left alone when the content is the same. */
        toolgov__out_file f;
        f.path = out_path;
        f.data = text;
        f.len = len;
        if (toolgov__fileio_replace(&f, 1, d) != 0)
            rc = 1;
    } else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
        toolgov__diag_error(d, "<stdout>", 0, 0, "cannot write the export: %s", strerror(errno));
        rc = 1;
    }
    free(text);
    toolgov__manifest_free(m);
    toolgov__diag_finish(d);
    return rc;
}
