/* SPDX-License-Identifier: MIT */
/*
** manifest.c: load and validate a toolgov manifest (see manifest.h and
** docs/manifest.md, which lists every rule and message enforced here).
**
** How it works. The whole file is read first (after a size check), then a
** byte scan rejects what a manifest must never contain (invalid UTF-8, NUL,
** control characters) with an exact location, before libyaml sees a byte.
** Then a recursive-descent walk pulls events one at a time from the YAML
** reader (reader.h, which owns libyaml, marks, skipping and the scalar and
** key moves); this file holds only what a manifest means. The format is
** three collections deep at most (root mapping > tools mapping > tool
** mapping), so the walk recurses at most three levels; a collection found
** where a scalar belongs is reported once and skipped by the reader.
**
** Every error is reported and the walk goes on wherever the event stream
** allows it (a YAML syntax error ends it, since libyaml cannot resume): a
** bad tool does not hide the next one. Only a manifest that produced no
** error at all is returned.
**
** Speed matters (SPEC section 8: at most 1.3 times a bare libyaml parse):
** strings are copied once into an arena, tool names are checked for
** duplicates through the generator's index (base/index.h), keyword checks
** are binary searches, and edit-distance suggestions run only after an
** error.
*/
#include "manifest/manifest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "base/arena.h"
#include "base/fileio.h"
#include "base/index.h"
#include "base/names.h"
#include "base/reader.h"
#include "schema/schema.h"
#include "schema/schema_c.h"
#include "base/text.h"

/* ------------------------------------------------------------------------ */
/* Names by content: the generator's index (base/index.h) over the tools   */
/* and provides arrays, read through the manifest (whose arrays move).     */

typedef struct manifest_priv {
    toolgov__arena arena;
    toolgov__index tools;
} manifest_priv;

static void tool_key(const void *m, size_t i, const char **s, size_t *len)
{
    *s = ((const toolgov__manifest *)m)->tools[i].name;
    *len = strlen(*s);
}

static void provides_key(const void *m, size_t i, const char **s, size_t *len)
{
    *s = ((const toolgov__manifest *)m)->provides[i];
    *len = strlen(*s);
}

/* ------------------------------------------------------------------------ */
/* The loader.                                                              */

typedef struct loader {
    toolgov__reader r;   /* the events; r.failed: the walk stops */
    toolgov__manifest *m;
    manifest_priv *priv;
    size_t tools_cap;
    size_t provides_cap;
    size_t tool_entries; /* tool keys seen, valid or not */
    int tools_given;
    toolgov__mark tools_at;
    toolgov__index provides_ix;
    toolgov__arena scratch;   /* one tool's parameters as a value tree, and
                              ** the temporaries of compiling it: reset
                              ** after each tool (the compiled tree keeps
                              ** nothing in it, schema.h) */
    toolgov_args_decoder *dec; /* the value checks' validator, for every tool */
} loader;

#define SHOW_MAX TOOLGOV_SHOW_MAX
#define show toolgov__text_show

/* The reader's moves under the short names the walk is written in. */
#define next(L) toolgov__reader_next(&(L)->r)
#define ev_mark(L) toolgov__reader_mark(&(L)->r)
#define ev_kind(L) toolgov__reader_kind(&(L)->r)
#define check_props(L) toolgov__reader_check_props(&(L)->r)
#define skip_node(L) toolgov__reader_skip_node(&(L)->r)
#define skip_value(L) toolgov__reader_skip_value(&(L)->r)
#define sv(L) toolgov__reader_text(&(L)->r)
#define sl(L) toolgov__reader_len(&(L)->r)
#define scalar_is_null(L) toolgov__reader_is_null(&(L)->r)
#define next_key(L, where) toolgov__reader_next_key(&(L)->r, where)
#define out_of_memory(L) toolgov__reader_oom(&(L)->r)
#define err_at(L, ...) toolgov__reader_error(&(L)->r, __VA_ARGS__)
#define note_at(L, ...) toolgov__reader_note(&(L)->r, __VA_ARGS__)

static toolgov__subject subject(const char *key, const char *tool)
{
    toolgov__subject w;
    w.key = key;
    w.owner_kind = tool ? "tool" : NULL;
    w.owner = tool;
    return w;
}

/* ---- growable arrays in the arena --------------------------------------- */

static void *grow(loader *L, void *old, size_t *cap, size_t count, size_t elem)
{
    size_t ncap = *cap ? *cap * 2 : 16;
    void *p;
    if (count < *cap)
        return old;
    if (ncap > SIZE_MAX / elem)
        return NULL;
    p = toolgov__arena_alloc(&L->priv->arena, ncap * elem);
    if (!p)
        return NULL;
    if (count)
        memcpy(p, old, count * elem);
    *cap = ncap;
    return p;
}

/* ---- the walk ----------------------------------------------------------- */

static const char *const root_keys[] = {"name", "provides", "tools"};
enum { RK_NAME, RK_PROVIDES, RK_TOOLS, RK_COUNT };

static const char *const tool_keys[] = {"effect", "confirm", "description",
                                        "guidance", "pinned", "answers_directly", "parameters",
                                        "loop", "pin", "upstream_name", "allow_nul"};
enum { TK_EFFECT, TK_CONFIRM, TK_DESCRIPTION, TK_GUIDANCE, TK_PINNED, TK_ANSWERS, TK_PARAMETERS,
       TK_LOOP, TK_PIN, TK_UPSTREAM_NAME, TK_ALLOW_NUL, TK_COUNT };

static const char *const effect_words[] = {"read", "write", "destructive"};
static const char *const confirm_words[] = {"once", "never"};
static const char *const loop_words[] = {"pool", "own", "both"};

#define key_index(L, keys, n) toolgov__reader_key_index(&(L)->r, keys, n)
#define unknown_key(L, where, keys, n) toolgov__reader_unknown_key(&(L)->r, where, keys, n)

static int scalar_value(loader *L, const char *key, const char *tool)
{
    return toolgov__reader_scalar_value(&L->r, subject(key, tool));
}

static int parse_bool(loader *L, const char *key, const char *tool, int *out)
{
    return toolgov__reader_bool(&L->r, subject(key, tool), out);
}

typedef struct tool_seen {
    int given[TK_COUNT];
    toolgov__mark at[TK_COUNT];
    int effect_ok;
    int confirm_bad;
    int answers_value;
} tool_seen;

static void parse_word(loader *L, const char *what, const char *tool,
                       const char *const *words, size_t n, int *out, const char *expected)
{
    char q[SHOW_MAX], buf[SHOW_MAX];
    const char *v = sv(L);
    size_t len = sl(L), i;
    const char *hint;

    for (i = 0; i < n; i++) {
        if (strlen(words[i]) == len && !memcmp(words[i], v, len)) {
            *out = (int)i;
            return;
        }
    }
    *out = -1;
    if (scalar_is_null(L)) {
        err_at(L, ev_mark(L), "%s of tool '%s' has no value; expected %s", what, tool, expected);
        return;
    }
    show(q, v, len);
    memcpy(buf, v, len < SHOW_MAX - 1 ? len : SHOW_MAX - 1);
    buf[len < SHOW_MAX - 1 ? len : SHOW_MAX - 1] = '\0';
    hint = memchr(v, 0, len) ? NULL : toolgov__suggest(buf, words, n);
    if (hint)
        err_at(L, ev_mark(L), "unknown %s '%s' for tool '%s'; did you mean '%s'? (expected %s)",
               what, q, tool, hint, expected);
    else
        err_at(L, ev_mark(L), "unknown %s '%s' for tool '%s' (expected %s)", what, q, tool,
               expected);
}

/* Store the current scalar as a text field with a byte limit. */
static int text_value(loader *L, const char *what, const char *tool, size_t limit,
                      int required, const char **out, size_t *out_len)
{
    size_t len = sl(L);
    if (scalar_is_null(L)) {
        if (required) {
            err_at(L, ev_mark(L), "%s of tool '%s' is empty; write what the tool does in a "
                                  "sentence or two", what, tool);
            return -1;
        }
        *out = "";
        *out_len = 0;
        return 0;
    }
    if (required && len == 0) {
        err_at(L, ev_mark(L), "%s of tool '%s' is empty; write what the tool does in a sentence "
                              "or two", what, tool);
        return -1;
    }
    if (len > limit) {
        err_at(L, ev_mark(L), "%s of tool '%s' is %zu bytes; the limit is %zu: shorten it", what,
               tool, len, limit);
        return -1;
    }
    *out = toolgov__arena_strndup(&L->priv->arena, sv(L), len);
    if (!*out) {
        out_of_memory(L);
        return -1;
    }
    *out_len = len;
    return 0;
}

/* pin: the digest of an upstream MCP server's tool definition, as
** `toolgov-mcp --import` writes it (SPEC section 13): "sha256:" and 64
** lowercase hex digits, optionally followed by the digests of the parts
** (";a=" annotations, ";d=" description, ";i=" inputSchema, ";o="
** outputSchema, 12 hex digits each) that let toolgov-mcp say which part
** changed. */
static int pin_hex(const char *v, size_t from, size_t to)
{
    size_t i;
    for (i = from; i < to; i++)
        if (!((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f')))
            return 0;
    return 1;
}

static int pin_value(loader *L, toolgov__tool_decl *t)
{
    static const char part_keys[4] = {'a', 'd', 'i', 'o'};
    size_t len = sl(L), p;
    const char *v = sv(L);
    int ok = (len == 71 || len == 71 + 4 * 15) && memcmp(v, "sha256:", 7) == 0 &&
             pin_hex(v, 7, 71);
    for (p = 0; ok && len > 71 && p < 4; p++) {
        const char *q = v + 71 + p * 15;
        ok = q[0] == ';' && q[1] == part_keys[p] && q[2] == '=' && pin_hex(q, 3, 15);
    }
    if (!ok) {
        err_at(L, ev_mark(L), "pin of tool '%s' must be \"sha256:\" and 64 lowercase hex "
                              "digits (then, optionally, \";a=\", \";d=\", \";i=\" and \";o=\" "
                              "each with 12), as toolgov-mcp --import writes it; import the "
                              "server's tools again rather than editing a pin", t->name);
        return -1;
    }
    t->pin = toolgov__arena_strndup(&L->priv->arena, v, len);
    if (!t->pin) {
        out_of_memory(L);
        return -1;
    }
    return 0;
}

/* upstream_name: the name an upstream MCP server gives the tool, when it is
** not a manifest tool name (get-sum, readFile): 1 to 128 bytes, no control
** character, no blank. */
static int upstream_name_value(loader *L, toolgov__tool_decl *t)
{
    size_t len = sl(L), i;
    const unsigned char *v = (const unsigned char *)sv(L);
    int ok = len >= 1 && len <= 128;
    for (i = 0; ok && i < len; i++)
        ok = v[i] > 0x20 && v[i] != 0x7f;
    if (!ok) {
        err_at(L, ev_mark(L), "upstream_name of tool '%s' must be the server's name for the tool: "
                              "1 to 128 bytes without blanks or control characters", t->name);
        return -1;
    }
    t->upstream_name = toolgov__arena_strndup(&L->priv->arena, sv(L), len);
    if (!t->upstream_name) {
        out_of_memory(L);
        return -1;
    }
    return 0;
}

/* The key `parameters` of tool t is current: read its value (a JSON
** Schema of the subset in schema.h) and compile it into t->params.
** Problems are reported and leave t->params NULL; -1 only when reading
** must stop. */
static int parse_parameters(loader *L, toolgov__tool_decl *t, toolgov__mark kat)
{
    toolgov__schema_ctx cx;
    toolgov__jval *v = NULL;
    toolgov__snode *n = NULL;
    int r;

    t->params_at = kat;
    if (next(L))
        return -1;
    if (!L->dec && toolgov_args_decoder_new(&L->dec, NULL) != 0) {
        out_of_memory(L);
        return -1;
    }
    /* The value tree goes to the scratch arena, the compiled tree to the
    ** manifest's; the scratch is reset once the tree is compiled. */
    toolgov__arena_reset(&L->scratch);
    memset(&cx, 0, sizeof cx);
    cx.arena = &L->scratch;
    cx.d = L->r.d;
    cx.path = L->r.path;
    cx.tool = t->name;
    r = toolgov__schema_read_yaml(&cx, &L->r, &v);
    if (r < 0 || cx.oom) {
        if (cx.oom)
            toolgov__reader_oom(&L->r);
        return -1;
    }
    if (r > 0)
        return 0;
    if (v->kind == TOOLGOV_J_NULL) {
        err_at(L, v->at, "parameters of tool '%s' is empty; give a schema such as {type: object, "
                         "properties: {...}}, or remove parameters: for a tool without arguments",
               t->name);
        return 0;
    }
    cx.arena = &L->priv->arena;
    cx.scratch = &L->scratch;
    cx.dec = L->dec;
    if (toolgov__schema_compile(&cx, v, kat, &n) == 0)
        t->params = n;
    if (cx.oom) {
        toolgov__reader_oom(&L->r);
        return -1;
    }
    return 0;
}

/* The generated C names of all tools' parameters, checked together (one
** plugin's header holds them all). */
static void check_c_names(loader *L)
{
    toolgov__manifest *m = L->m;
    toolgov__schema_ctx cx;
    const char **tools;
    const toolgov__snode **roots;
    toolgov__mark *ats;
    size_t i, with = 0;
    for (i = 0; i < m->tool_count; i++)
        with += m->tools[i].params != NULL;
    if (!with)
        return;
    tools = malloc(m->tool_count * sizeof(const char *));
    roots = malloc(m->tool_count * sizeof(const toolgov__snode *));
    ats = malloc(m->tool_count * sizeof(toolgov__mark));
    memset(&cx, 0, sizeof cx);
    cx.arena = &L->priv->arena;
    cx.d = L->r.d;
    cx.path = L->r.path;
    cx.tool = NULL;
    cx.oom = 0;
    if (!tools || !roots || !ats) {
        toolgov__mark none = {0, 0};
        err_at(L, none, "out of memory while loading the manifest");
    } else {
        for (i = 0; i < m->tool_count; i++) {
            tools[i] = m->tools[i].name;
            roots[i] = m->tools[i].params;
            ats[i] = m->tools[i].params ? m->tools[i].params_at : m->tools[i].at;
        }
        (void)toolgov__schema_c_names(&cx, m->name, m->tool_count, tools, roots, ats);
    }
    free(tools);
    free(roots);
    free(ats);
}

/* allow_nul: [name, ...]: the string properties of the tool (at the top
** of its parameters) whose values may hold a NUL character. The current
** event is the key; the names are checked once the tool is read
** (check_allow_nul), since parameters: may come after. */
static int parse_allow_nul(loader *L, toolgov__tool_decl *t)
{
    size_t cap = 0;
    char q[SHOW_MAX];

    if (next(L))
        return -1;
    check_props(L);
    if (L->r.ev.type == YAML_ALIAS_EVENT)
        return 0;
    if (L->r.ev.type != YAML_SEQUENCE_START_EVENT) {
        err_at(L, ev_mark(L), "allow_nul of tool '%s' must be a list of string property names "
                              "such as [payload], not %s", t->name, ev_kind(L));
        return skip_node(L) ? -1 : 0;
    }
    for (;;) {
        const char *v;
        size_t len, i;
        if (next(L))
            return -1;
        if (L->r.ev.type == YAML_SEQUENCE_END_EVENT)
            return 0;
        check_props(L);
        if (L->r.ev.type == YAML_ALIAS_EVENT)
            continue;
        if (L->r.ev.type != YAML_SCALAR_EVENT) {
            err_at(L, ev_mark(L), "each allow_nul entry of tool '%s' must be a property name, "
                                  "not %s", t->name, ev_kind(L));
            if (skip_node(L))
                return -1;
            continue;
        }
        if (toolgov__reader_scalar_ok(&L->r, subject("allow_nul entry", t->name)))
            continue;
        v = sv(L);
        len = sl(L);
        for (i = 0; i < t->allow_nul_count; i++)
            if (strlen(t->allow_nul[i]) == len && !memcmp(t->allow_nul[i], v, len))
                break;
        if (i < t->allow_nul_count) {
            err_at(L, ev_mark(L), "'%s' is listed twice in allow_nul of tool '%s'; keep one",
                   show(q, v, len), t->name);
            note_at(L, t->allow_nul_at[i], "first listed here");
            continue;
        }
        {
            size_t c1 = cap, c2 = cap;
            const char **nn = grow(L, (void *)t->allow_nul, &c1, t->allow_nul_count,
                                   sizeof *t->allow_nul);
            toolgov__mark *na;
            if (nn)
                t->allow_nul = nn;
            na = nn ? grow(L, t->allow_nul_at, &c2, t->allow_nul_count, sizeof *na) : NULL;
            if (!nn || !na) {
                out_of_memory(L);
                return -1;
            }
            t->allow_nul_at = na;
            cap = c1;
        }
        t->allow_nul[t->allow_nul_count] = toolgov__arena_strndup(&L->priv->arena, v, len);
        if (!t->allow_nul[t->allow_nul_count]) {
            out_of_memory(L);
            return -1;
        }
        t->allow_nul_at[t->allow_nul_count++] = ev_mark(L);
    }
}

/* Each allow_nul name must be a string property at the top of the tool's
** parameters (not an enum: its values are fixed); its node is marked. */
static void check_allow_nul(loader *L, toolgov__tool_decl *t)
{
    size_t i, j;
    char q[SHOW_MAX];
    for (i = 0; i < t->allow_nul_count; i++) {
        const char *name = t->allow_nul[i];
        const toolgov__sprop *p = NULL;
        for (j = 0; t->params && j < t->params->prop_count; j++)
            if (!strcmp(t->params->props[j].name, name))
                p = &t->params->props[j];
        if (!p) {
            err_at(L, t->allow_nul_at[i], "allow_nul names '%s', which is not a property of tool "
                                          "'%s'; list string properties of its parameters",
                   show(q, name, strlen(name)), t->name);
        } else if (p->schema->type != TOOLGOV_S_STRING || p->schema->enum_vals) {
            err_at(L, t->allow_nul_at[i], "allow_nul applies to string properties, and property "
                                          "'%s' of tool '%s' is %s; remove it from allow_nul",
                   show(q, name, strlen(name)), t->name,
                   p->schema->type == TOOLGOV_S_STRING ? "a string enum (its values are fixed)"
                   : p->schema->type == TOOLGOV_S_INTEGER ? "an integer"
                   : p->schema->type == TOOLGOV_S_NUMBER ? "a number"
                   : p->schema->type == TOOLGOV_S_BOOLEAN ? "a boolean"
                   : p->schema->type == TOOLGOV_S_ARRAY ? "an array"
                   : p->schema->type == TOOLGOV_S_OBJECT ? "an object"
                                                         : "raw JSON (several types)");
            note_at(L, p->at, "'%s' is declared here", show(q, name, strlen(name)));
        } else {
            p->schema->allow_nul = 1;
        }
    }
}

/* The current event is the MAPPING_START of tool `t`'s body. */
static int parse_tool(loader *L, toolgov__tool_decl *t)
{
    tool_seen s;
    int r;

    memset(&s, 0, sizeof s);
    for (;;) {
        int k, more = next_key(L, "a tool");
        toolgov__mark kat;
        if (more < 0)
            return -1;
        if (!more)
            break;
        kat = ev_mark(L);
        k = key_index(L, tool_keys, TK_COUNT);
        if (k < 0) {
            char where[128];
            snprintf(where, sizeof where, "in tool '%s'", t->name);
            unknown_key(L, where, tool_keys, TK_COUNT);
            if (skip_value(L))
                return -1;
            continue;
        }
        if (s.given[k]) {
            err_at(L, kat, "duplicate key '%s' in tool '%s'; keep one", tool_keys[k], t->name);
            note_at(L, s.at[k], "'%s' first given here", tool_keys[k]);
            if (skip_value(L))
                return -1;
            continue;
        }
        s.given[k] = 1;
        s.at[k] = kat;
        if (k == TK_PARAMETERS) {
            if (parse_parameters(L, t, kat))
                return -1;
            continue;
        }
        if (k == TK_ALLOW_NUL) {
            if (parse_allow_nul(L, t))
                return -1;
            continue;
        }
        r = scalar_value(L, tool_keys[k], t->name);
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        switch (k) {
        case TK_EFFECT: {
            int e;
            parse_word(L, "effect", t->name, effect_words, 3, &e, "read, write or destructive");
            t->effect_at = ev_mark(L);
            if (e >= 0) {
                t->effect = e == 0 ? TOOLGOV_EFFECT_READ
                            : e == 1 ? TOOLGOV_EFFECT_WRITE
                                     : TOOLGOV_EFFECT_DESTRUCTIVE;
                s.effect_ok = 1;
            }
            break;
        }
        case TK_CONFIRM: {
            int c;
            parse_word(L, "confirm", t->name, confirm_words, 2, &c, "once or never");
            t->confirm_given = 1;
            s.confirm_bad = c < 0;
            if (c >= 0)
                t->confirm = c == 0 ? TOOLGOV_CONFIRM_ONCE : TOOLGOV_CONFIRM_NEVER;
            break;
        }
        case TK_DESCRIPTION:
            (void)text_value(L, "description", t->name, TOOLGOV_DESCRIPTION_MAX, 1,
                             &t->description, &t->description_len);
            break;
        case TK_GUIDANCE:
            (void)text_value(L, "guidance", t->name, TOOLGOV_GUIDANCE_MAX, 0, &t->guidance,
                             &t->guidance_len);
            break;
        case TK_PINNED:
            (void)parse_bool(L, "pinned", t->name, &t->pinned);
            break;
        case TK_LOOP: {
            int w;
            parse_word(L, "loop", t->name, loop_words, 3, &w, "pool, own or both");
            if (w >= 0)
                t->loop = w == 0 ? TOOLGOV__LOOP_POOL : w == 1 ? TOOLGOV__LOOP_OWN
                                                              : TOOLGOV__LOOP_BOTH;
            break;
        }
        case TK_ANSWERS:
            if (parse_bool(L, "answers_directly", t->name, &t->answers_directly) == 0)
                s.answers_value = t->answers_directly;
            break;
        case TK_PIN:
            (void)pin_value(L, t);
            break;
        case TK_UPSTREAM_NAME:
            (void)upstream_name_value(L, t);
            break;
        default:
            break;
        }
        if (L->r.failed)
            return -1;
    }

    check_allow_nul(L, t);
    if (!s.given[TK_EFFECT])
        err_at(L, t->at, "tool '%s' has no 'effect'; add effect: read, write or destructive",
               t->name);
    if (!s.given[TK_DESCRIPTION])
        err_at(L, t->at, "tool '%s' has no 'description'; add description: with what the tool "
                         "does in a sentence or two", t->name);
    if (t->pinned && t->loop == TOOLGOV__LOOP_OWN)
        err_at(L, s.at[TK_PINNED], "pinned keeps a tool on the host's shortlist, and tool '%s' "
                                   "is not in the pool (loop: own); remove pinned: or set "
                                   "loop: both", t->name);
    if (s.effect_ok) {
        if (t->effect != TOOLGOV_EFFECT_WRITE) {
            if (s.given[TK_CONFIRM])
                err_at(L, s.at[TK_CONFIRM], "confirm applies only to write tools, and tool '%s' "
                                            "is %s; remove confirm:%s", t->name,
                       t->effect == TOOLGOV_EFFECT_READ ? "read" : "destructive",
                       t->effect == TOOLGOV_EFFECT_DESTRUCTIVE
                           ? " (a destructive tool is approved on every call)"
                           : "");
            t->confirm = TOOLGOV_CONFIRM_NEVER;
        }
        if (s.answers_value) {
            if (t->effect == TOOLGOV_EFFECT_DESTRUCTIVE)
                err_at(L, s.at[TK_ANSWERS], "answers_directly is not allowed on destructive tool "
                                            "'%s': it waits for approval on every call, so its "
                                            "output cannot be the answer; remove it", t->name);
            else if (t->effect == TOOLGOV_EFFECT_WRITE && t->confirm == TOOLGOV_CONFIRM_ONCE &&
                     !s.confirm_bad)
                err_at(L, s.at[TK_ANSWERS], "answers_directly is not allowed on tool '%s', a "
                                            "write that asks for confirmation (confirm: once%s); "
                                            "set confirm: never or remove answers_directly",
                       t->name, s.given[TK_CONFIRM] ? "" : " by default");
        }
    }
    return 0;
}

static int parse_tools(loader *L)
{
    manifest_priv *pv = L->priv;
    toolgov__manifest *m = L->m;
    char q[SHOW_MAX];

    for (;;) {
        toolgov__tool_decl *t;
        const char *name;
        size_t len;
        int name_ok, dup = 0;
        toolgov__mark kat;
        int more = next_key(L, "'tools'");

        if (more <= 0)
            return more;
        L->tool_entries++;
        kat = ev_mark(L);
        len = sl(L);
        name_ok = toolgov__reader_scalar_ok(&L->r, subject("tool name", NULL)) == 0 &&
                  toolgov__name_check(L->r.d, L->r.path, kat, sv(L), len, TOOLGOV_NAME_TOOL) == 0;
        name = toolgov__arena_strndup(&pv->arena, sv(L), len);
        if (!name) {
            out_of_memory(L);
            return -1;
        }
        if (name_ok) {
            size_t prev;
            int r = toolgov__index_add(&pv->tools, m->tool_count, name, len, &prev);
            if (r < 0) {
                out_of_memory(L);
                return -1;
            }
            if (r > 0) {
                dup = 1;
                err_at(L, kat, "duplicate tool '%s'; each tool is declared once: remove or "
                               "rename this one", show(q, name, len));
                note_at(L, m->tools[prev].at, "'%s' first declared here", q);
            }
        }
        if (m->tool_count == L->tools_cap) {
            /* The one array that grows large: realloc (which can extend in
            ** place or remap) instead of arena copies left behind. */
            size_t ncap = L->tools_cap ? L->tools_cap * 2 : 64;
            toolgov__tool_decl *nt = ncap <= SIZE_MAX / sizeof *nt
                                    ? realloc(m->tools, ncap * sizeof *nt)
                                    : NULL;
            if (!nt) {
                out_of_memory(L);
                return -1;
            }
            m->tools = nt;
            L->tools_cap = ncap;
        }
        t = &m->tools[m->tool_count];
        memset(t, 0, sizeof *t);
        t->name = name;
        t->at = kat;
        t->effect = TOOLGOV_EFFECT_READ;
        t->confirm = TOOLGOV_CONFIRM_ONCE;
        t->loop = TOOLGOV__LOOP_POOL;
        t->description = "";
        t->guidance = "";
        if (name_ok && !dup)
            m->tool_count++;
        /* A bad or duplicate tool is still checked, into a scratch row. */
        if (next(L))
            return -1;
        check_props(L);
        if (L->r.ev.type == YAML_MAPPING_START_EVENT) {
            if (parse_tool(L, t))
                return -1;
        } else if (L->r.ev.type == YAML_SCALAR_EVENT && scalar_is_null(L)) {
            err_at(L, ev_mark(L), "tool '%s' has no declaration; give it a mapping with at "
                                  "least effect: and description:", show(q, name, len));
        } else if (L->r.ev.type != YAML_ALIAS_EVENT) {
            err_at(L, ev_mark(L), "tool '%s' must be a mapping (effect:, description:, ...), "
                                  "not %s", show(q, name, len), ev_kind(L));
            if (skip_node(L))
                return -1;
        }
    }
}

static int parse_provides(loader *L)
{
    toolgov__manifest *m = L->m;
    char q[SHOW_MAX];

    for (;;) {
        size_t len;
        const char *v;
        int dup = 0;
        if (next(L))
            return -1;
        if (L->r.ev.type == YAML_SEQUENCE_END_EVENT)
            return 0;
        check_props(L);
        if (L->r.ev.type == YAML_ALIAS_EVENT)
            continue;
        if (L->r.ev.type != YAML_SCALAR_EVENT) {
            err_at(L, ev_mark(L), "each provides entry must be a single word such as 'tool', "
                                  "not %s", ev_kind(L));
            if (skip_node(L))
                return -1;
            continue;
        }
        len = sl(L);
        v = sv(L);
        if (toolgov__reader_scalar_ok(&L->r, subject("provides entry", NULL)) ||
            toolgov__name_check(L->r.d, L->r.path, ev_mark(L), v, len, TOOLGOV_NAME_PROVIDES))
            continue;
        {
            size_t prev = toolgov__index_find(&L->provides_ix, v, len);
            if (prev != SIZE_MAX) {
                err_at(L, ev_mark(L), "'%s' is listed twice in provides; keep one",
                       show(q, v, len));
                note_at(L, m->provides_at[prev], "first listed here");
                dup = 1;
            }
        }
        if (dup)
            continue;
        {
            size_t cap = L->provides_cap;
            const char **np = grow(L, (void *)m->provides, &cap, m->provides_count,
                                   sizeof *m->provides);
            size_t cap2 = L->provides_cap;
            toolgov__mark *na = grow(L, m->provides_at, &cap2, m->provides_count,
                                     sizeof *m->provides_at);
            if (!np || !na) {
                out_of_memory(L);
                return -1;
            }
            L->provides_cap = cap;
            m->provides = np;
            m->provides_at = na;
        }
        m->provides[m->provides_count] = toolgov__arena_strndup(&L->priv->arena, v, len);
        if (!m->provides[m->provides_count]) {
            out_of_memory(L);
            return -1;
        }
        m->provides_at[m->provides_count] = ev_mark(L);
        if (toolgov__index_add(&L->provides_ix, m->provides_count, m->provides[m->provides_count],
                               len, NULL) < 0) {
            out_of_memory(L);
            return -1;
        }
        m->provides_count++;
    }
}

/* The current event is the root MAPPING_START. */
static int parse_root(loader *L)
{
    toolgov__manifest *m = L->m;
    toolgov__mark root_at = ev_mark(L), at[RK_COUNT];
    int given[RK_COUNT] = {0, 0, 0};
    int provides_ok = 0;

    for (;;) {
        int k, more = next_key(L, "the manifest");
        if (more < 0)
            return -1;
        if (!more)
            break;
        k = key_index(L, root_keys, RK_COUNT);
        if (k < 0) {
            unknown_key(L, "at the top level", root_keys, RK_COUNT);
            if (skip_value(L))
                return -1;
            continue;
        }
        if (given[k]) {
            err_at(L, ev_mark(L), "duplicate key '%s'; keep one", root_keys[k]);
            note_at(L, at[k], "'%s' first given here", root_keys[k]);
            if (skip_value(L))
                return -1;
            continue;
        }
        given[k] = 1;
        at[k] = ev_mark(L);
        if (k == RK_NAME) {
            int r = scalar_value(L, "name", NULL);
            if (r < 0)
                return -1;
            if (r == 0)
                continue;
            if (scalar_is_null(L)) {
                err_at(L, ev_mark(L), "name is empty; give the plugin a name matching "
                                      "[a-z][a-z0-9_]*");
                continue;
            }
            if (toolgov__name_check(L->r.d, L->r.path, ev_mark(L), sv(L), sl(L), TOOLGOV_NAME_PLUGIN))
                continue;
            m->name = toolgov__arena_strndup(&L->priv->arena, sv(L), sl(L));
            if (!m->name) {
                out_of_memory(L);
                return -1;
            }
            m->name_at = ev_mark(L);
            continue;
        }
        if (next(L))
            return -1;
        check_props(L);
        if (L->r.ev.type == YAML_ALIAS_EVENT)
            continue;
        if (k == RK_PROVIDES) {
            if (L->r.ev.type == YAML_SEQUENCE_START_EVENT) {
                provides_ok = 1;
                if (parse_provides(L))
                    return -1;
            } else {
                err_at(L, ev_mark(L), "provides must be a sequence of kinds such as [tool], not "
                                      "%s%s", ev_kind(L),
                       L->r.ev.type == YAML_SCALAR_EVENT && scalar_is_null(L)
                           ? " (write provides: [] for none)"
                           : "");
                if (skip_node(L))
                    return -1;
            }
        } else {
            L->tools_given = 1;
            L->tools_at = at[RK_TOOLS];
            if (L->r.ev.type == YAML_MAPPING_START_EVENT) {
                if (parse_tools(L))
                    return -1;
            } else {
                err_at(L, ev_mark(L), "tools must be a mapping from tool names to their "
                                      "declarations, not %s%s", ev_kind(L),
                       L->r.ev.type == YAML_SCALAR_EVENT && scalar_is_null(L)
                           ? " (write tools: {} for none)"
                           : "");
                if (skip_node(L))
                    return -1;
            }
        }
    }

    if (!given[RK_NAME])
        err_at(L, root_at, "the manifest has no 'name'; add name: <plugin> (matching "
                           "[a-z][a-z0-9_]*)");
    if (L->tool_entries > 0) {
        size_t i;
        int has_tool = 0;
        for (i = 0; i < m->provides_count; i++)
            if (strcmp(m->provides[i], "tool") == 0)
                has_tool = 1;
        if (!has_tool && given[RK_PROVIDES] && provides_ok) {
            static const char *const tool_word[] = {"tool"};
            const char *close = NULL;
            for (i = 0; i < m->provides_count && !close; i++)
                if (toolgov__suggest(m->provides[i], tool_word, 1))
                    close = m->provides[i];
            if (close)
                err_at(L, at[RK_PROVIDES], "provides does not list 'tool', but the manifest "
                                           "declares %zu tool%s; did you mean 'tool' instead of "
                                           "'%s'?", L->tool_entries,
                       L->tool_entries == 1 ? "" : "s", close);
            else
                err_at(L, at[RK_PROVIDES], "provides does not list 'tool', but the manifest "
                                           "declares %zu tool%s; add tool to provides",
                       L->tool_entries, L->tool_entries == 1 ? "" : "s");
        }
        else if (!given[RK_PROVIDES])
            err_at(L, L->tools_at, "the manifest declares %zu tool%s but has no 'provides'; add "
                                   "provides: [tool]", L->tool_entries,
                   L->tool_entries == 1 ? "" : "s");
    }
    return 0;
}

static void parse_stream(loader *L)
{
    toolgov__mark first = {1, 1};

    if (next(L)) /* STREAM_START */
        return;
    if (next(L))
        return;
    if (L->r.ev.type == YAML_STREAM_END_EVENT) {
        err_at(L, first, "the manifest is empty; it needs at least name:, and provides: and "
                         "tools: to declare tools");
        return;
    }
    /* DOCUMENT_START */
    if (L->r.ev.data.document_start.tag_directives.start !=
        L->r.ev.data.document_start.tag_directives.end)
        err_at(L, ev_mark(L), "%%TAG directives are not allowed in a manifest (tags are "
                              "refused); remove it");
    if (next(L))
        return;
    check_props(L);
    switch (L->r.ev.type) {
    case YAML_MAPPING_START_EVENT:
        if (parse_root(L))
            return;
        break;
    case YAML_SCALAR_EVENT:
        if (scalar_is_null(L))
            err_at(L, ev_mark(L), "the manifest's document is empty; it needs at least name:");
        else
            err_at(L, ev_mark(L), "the top level of a manifest must be a mapping (name:, "
                                  "provides:, tools:), not a scalar");
        break;
    case YAML_SEQUENCE_START_EVENT:
        err_at(L, ev_mark(L), "the top level of a manifest must be a mapping (name:, provides:, "
                              "tools:), not a sequence");
        if (skip_node(L))
            return;
        break;
    default:
        break;
    }
    if (next(L)) /* DOCUMENT_END */
        return;
    if (next(L))
        return;
    if (L->r.ev.type == YAML_DOCUMENT_START_EVENT)
        err_at(L, ev_mark(L), "a manifest holds one YAML document, and this is a second one; "
                              "remove it (and the '---' before it)");
}

/* ------------------------------------------------------------------------ */

toolgov__manifest *toolgov__manifest_load_mem(const char *path, const char *data,
                                              size_t len, toolgov__diag *d)
{
    loader L;
    manifest_priv *pv;
    toolgov__manifest *m;
    size_t errors_before = d->errors;
    toolgov__mark first = {1, 1};

    memset(&L, 0, sizeof L);
    toolgov__arena_init(&L.scratch);
    /* Reports before the reader opens go through these two. */
    L.r.path = path;
    L.r.d = d;

    pv = malloc(sizeof *pv);
    if (!pv) {
        toolgov__diag_error(d, path, 0, 0, "out of memory while loading the manifest");
        return NULL;
    }
    toolgov__arena_init(&pv->arena);
    m = toolgov__arena_alloc(&pv->arena, sizeof *m);
    if (!m) {
        free(pv);
        toolgov__diag_error(d, path, 0, 0, "out of memory while loading the manifest");
        return NULL;
    }
    memset(m, 0, sizeof *m);
    m->arena_ = pv;
    m->path = toolgov__arena_strndup(&pv->arena, path, strlen(path));
    L.m = m;
    L.priv = pv;
    toolgov__index_init(&pv->tools, &pv->arena, m, tool_key);
    toolgov__index_init(&L.provides_ix, &pv->arena, m, provides_key);
    if (!m->path) {
        out_of_memory(&L);
        goto out;
    }

    if (len > TOOLGOV_MANIFEST_MAX_BYTES) {
        err_at(&L, first, "the manifest is %zu bytes; the limit is 16 MiB (%u bytes)", len,
               TOOLGOV_MANIFEST_MAX_BYTES);
        goto out;
    }
    toolgov__diag_source(d, path, data, len); /* source lines under messages */
    if (toolgov__text_check(d, path, (const unsigned char *)data, len))
        goto out;
    if (toolgov__reader_open(&L.r, path, (const unsigned char *)data, len, d))
        goto out;
    parse_stream(&L);
    toolgov__reader_close(&L.r);
    if (d->errors == errors_before)
        check_c_names(&L);

out:
    toolgov__arena_free(&L.scratch);
    toolgov_args_decoder_free(L.dec);
    if (d->errors != errors_before) {
        toolgov__manifest_free(m);
        return NULL;
    }
    return m;
}

toolgov__manifest *toolgov__manifest_load(const char *path, toolgov__diag *d)
{
    char *buf;
    size_t len;
    toolgov__manifest *m;
    if (toolgov__fileio_read_manifest(&buf, &len, path, d))
        return NULL;
    m = toolgov__manifest_load_mem(strcmp(path, "-") == 0 ? "<stdin>" : path, buf, len, d);
    free(buf);
    return m;
}

void toolgov__manifest_free(toolgov__manifest *m)
{
    manifest_priv *pv;
    if (!m)
        return;
    pv = m->arena_;
    free(m->tools); /* malloc'd; everything else is in the arena */
    toolgov__arena_free(&pv->arena); /* m itself lives in the arena */
    free(pv);
}

long toolgov__manifest_find(const toolgov__manifest *m, const char *name)
{
    const manifest_priv *pv;
    size_t at;
    if (!m || !name)
        return -1;
    pv = m->arena_;
    at = toolgov__index_find(&pv->tools, name, strlen(name));
    return at == SIZE_MAX ? -1 : (long)at;
}
