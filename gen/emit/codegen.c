/* SPDX-License-Identifier: MIT */
/*
** codegen.c: the generated header and C file (see codegen.h and
** docs/generated-code.md).
**
** Strings. Every manifest string is written as a C string literal in which
** only printable ASCII stands for itself: quote, backslash, newline, tab and
** CR use their short escapes, '?' becomes \? (so no "??=" trigraph forms in
** a C99 compiler), and every other byte (controls, and all bytes of a
** multi-byte UTF-8 character) is a three-digit octal escape, which can never
** swallow the character after it the way a \x escape can. A string of more
** than 4095 bytes (C99's minimum limit, which gcc -Wpedantic enforces with
** -Woverlength-strings) is written as a brace-initialized char array
** instead. No manifest string is ever put inside a comment.
**
** Names are identifiers the loader has checked, so they are written as is.
*/
#include "emit/codegen.h"

#include "base/contract.h"
#include "schema/schema_c.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/toolgov.h>

/* Longest string literal C99 guarantees (5.2.4.1), after concatenation. */
#define GENERATION_ZERO "00000000"
#define LITERAL_MAX 4095u

/* Short names for the buffer's calls (buf.h), made every few bytes here. */
#define put toolgov__buf_put
#define reserve toolgov__buf_reserve

static void puts_(toolgov__buf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* Append a string literal without a strlen at run time. */
#define PUTL(b, lit) put((b), "" lit, sizeof(lit) - 1)

/* Decimal without printf: the table has a few numbers per tool. */
static void put_size(toolgov__buf *b, size_t v)
{
    char tmp[24];
    size_t n = 0;
    if (v < 10) {
        char c = (char)('0' + v);
        put(b, &c, 1);
        return;
    }
    do {
        tmp[sizeof tmp - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(b, tmp + sizeof tmp - n, n);
}

static void putf(toolgov__buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void putf(toolgov__buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    toolgov__buf_vprintf(b, fmt, ap);
    va_end(ap);
}

/* The spelling of each byte inside a string literal; built once. */
static char lit_esc[256][5];
static unsigned char lit_len[256];
static int lit_ready;

static void init_lit(void)
{
    int c;
    for (c = 0; c < 256; c++) {
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\' && c != '?') {
            lit_esc[c][0] = (char)c;
            lit_len[c] = 1;
            continue;
        }
        switch (c) {
        case '"': memcpy(lit_esc[c], "\\\"", 2); lit_len[c] = 2; break;
        case '\\': memcpy(lit_esc[c], "\\\\", 2); lit_len[c] = 2; break;
        case '?': memcpy(lit_esc[c], "\\?", 2); lit_len[c] = 2; break;
        case '\n': memcpy(lit_esc[c], "\\n", 2); lit_len[c] = 2; break;
        case '\t': memcpy(lit_esc[c], "\\t", 2); lit_len[c] = 2; break;
        case '\r': memcpy(lit_esc[c], "\\r", 2); lit_len[c] = 2; break;
        default:
            lit_esc[c][0] = '\\';
            lit_esc[c][1] = (char)('0' + ((c >> 6) & 7));
            lit_esc[c][2] = (char)('0' + ((c >> 3) & 7));
            lit_esc[c][3] = (char)('0' + (c & 7));
            lit_len[c] = 4;
            break;
        }
    }
    lit_ready = 1;
}

/* A string literal for s[0..n). After each newline that is not the last
** byte the literal is closed and reopened on a new line with `indent`, so
** multi-line guidance reads as lines; adjacent literals concatenate. */
static void put_literal(toolgov__buf *b, const char *s, size_t n, const char *indent)
{
    size_t i, ind = strlen(indent);
    char *o;
    if (!lit_ready)
        init_lit();
    /* Worst case: 4 bytes per input byte, plus a line break per newline. */
    if (n > ((size_t)-1 - 2) / (8 + ind) || reserve(b, n * (8 + ind) + 2))
        return;
    o = b->data + b->len;
    *o++ = '"';
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (lit_len[c] == 1) {
            /* A run of bytes that stand for themselves: one copy. */
            size_t j = i + 1;
            while (j < n && lit_len[(unsigned char)s[j]] == 1)
                j++;
            memcpy(o, s + i, j - i);
            o += j - i;
            i = j - 1;
        } else {
            memcpy(o, lit_esc[c], lit_len[c]);
            o += lit_len[c];
            if (c == '\n' && i + 1 < n) {
                *o++ = '"';
                *o++ = '\n';
                memcpy(o, indent, ind);
                o += ind;
                *o++ = '"';
            }
        }
    }
    *o++ = '"';
    b->len = (size_t)(o - b->data);
}

/* A char array initializer for a string too long for one literal. */
static void put_char_array(toolgov__buf *b, const char *s, size_t n)
{
    size_t i;
    if (!lit_ready)
        init_lit();
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        puts_(b, i % 12 == 0 ? "\n    " : " ");
        if (c == '\'')
            puts_(b, "'\\''");
        else if (c == '"')
            puts_(b, "'\"'");
        else if (c == '?')
            puts_(b, "'?'");
        else {
            put(b, "'", 1);
            put(b, lit_esc[c], lit_len[c]);
            put(b, "'", 1);
        }
        put(b, ",", 1);
    }
    puts_(b, "\n    0\n};\n");
}

void toolgov__buf_literal(toolgov__buf *b, const char *s, size_t n, const char *indent)
{
    put_literal(b, s, n, indent);
}

void toolgov__buf_char_array(toolgov__buf *b, const char *s, size_t n)
{
    put_char_array(b, s, n);
}

static void put_upper(toolgov__buf *b, const char *s)
{
    size_t n = strlen(s), i;
    char *o;
    if (b->cap - b->len < n && reserve(b, n))
        return;
    o = b->data + b->len;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        o[i] = (char)(c - (((unsigned)(c - 'a') < 26u) << 5));
    }
    b->len += n;
}

/* The manifest's file name without directories: the only part of the path
** that goes into the output, so builds in different trees agree. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
#ifdef _WIN32
    const char *bs = strrchr(path, '\\');
    if (bs && (!slash || bs > slash))
        slash = bs;
#endif
    return slash ? slash + 1 : path;
}

/* The file name for the banner comment: anything but a few safe ASCII
** characters becomes '_', so no file name can end the comment early, form a
** trigraph or carry a control character into the source. */
static void put_banner_name(toolgov__buf *b, const char *name)
{
    for (; *name; name++) {
        char c = *name;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '-' || c == '+';
        put(b, ok ? &c : "_", 1);
    }
}

static void put_banner(toolgov__buf *b, const toolgov__manifest *m, const char *ext)
{
    putf(b, "/* %s.toolgov.%s: generated by toolgov-gen from ", m->name, ext);
    put_banner_name(b, base_name(m->path));
    puts_(b, ". Do not edit. */\n");
}

/* Per-tool text used more than once, worked out once per render: the
** length of each tool's name. */
typedef struct names {
    size_t *len; /* strlen of each tool name */
} names;

static int names_build(names *nm, const toolgov__manifest *m)
{
    size_t i, n = m->tool_count ? m->tool_count : 1;
    nm->len = malloc(n * sizeof *nm->len);
    if (!nm->len)
        return -1;
    for (i = 0; i < m->tool_count; i++)
        nm->len[i] = strlen(m->tools[i].name);
    return 0;
}

static void names_free(names *nm)
{
    free(nm->len);
}

/* 1 when some tool runs in the plugin's own loop (loop: own or both). */
static int has_own_loop(const toolgov__manifest *m)
{
    size_t i;
    for (i = 0; i < m->tool_count; i++)
        if (m->tools[i].loop & TOOLGOV__LOOP_OWN)
            return 1;
    return 0;
}

/* 1 when some tool is outside the pool or outside the own loop, so the
** register function needs each tool's loop bits. */
static int loops_vary(const toolgov__manifest *m)
{
    size_t i;
    for (i = 0; i < m->tool_count; i++)
        if (m->tools[i].loop != TOOLGOV__LOOP_POOL)
            return 1;
    return 0;
}

static void render_header(toolgov__buf *b, const toolgov__manifest *m, const names *nm,
                          size_t *mark_at, toolgov__schema_share *sh)
{
    const char *n = m->name;
    size_t i;

    put_banner(b, m, "h");
    puts_(b, "#ifndef ");
    put_upper(b, n);
    puts_(b, "_TOOLGOV_H\n#define ");
    put_upper(b, n);
    puts_(b, "_TOOLGOV_H\n\n#include <toolgov/toolgov.h>\n");
    if (has_own_loop(m))
        puts_(b, "#include <toolgov/run.h>\n");
    puts_(b, "\n");
    putf(b,
         "#if !defined(TOOLGOV_ABI_VERSION) || TOOLGOV_ABI_VERSION != %d\n"
         "#error \"%s.toolgov.h was generated for toolgov ABI version %d; regenerate it with the "
         "toolgov-gen of the toolgov you build against\"\n"
         "#endif\n\n",
         TOOLGOV_ABI_VERSION, n, TOOLGOV_ABI_VERSION);
    puts_(b, "/* The C file of the same generation checks this mark. */\n#define ");
    put_upper(b, n);
    puts_(b, "_TOOLGOV_GENERATION 0x");
    *mark_at = b->len;
    puts_(b, GENERATION_ZERO "UL\n\n");
    puts_(b, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");

    putf(b, "/* The plugin's tools, in manifest order. */\ntypedef enum %s_ToolId {\n", n);
    for (i = 0; i < m->tool_count; i++) {
        PUTL(b, "    ");
        puts_(b, n);
        PUTL(b, "_Tool_");
        put(b, m->tools[i].name, nm->len[i]);
        PUTL(b, " = ");
        put_size(b, i);
        PUTL(b, ",\n");
    }
    putf(b, "    %s_ToolCount = %zu\n} %s_ToolId;\n\n", n, m->tool_count, n);

    if (m->tool_count) {
        size_t nl = strlen(n);
        puts_(b, "/* Each tool's decoded arguments: the tool's parameters as C (a tool\n"
                 "** without parameters takes a toolgov_no_args). */\n");
        for (i = 0; i < m->tool_count; i++)
            if (toolgov__schema_c_types(b, sh, n, m->tools[i].name, m->tools[i].params))
                b->oom = 1;
        puts_(b, "/* One handler per declared tool; define each with ");
        put_upper(b, n);
        puts_(b, "_TOOLGOV_HANDLER(). */\n");
        for (i = 0; i < m->tool_count; i++) {
            PUTL(b, "int ");
            put(b, n, nl);
            PUTL(b, TOOLGOV_HANDLER_INFIX);
            put(b, m->tools[i].name, nm->len[i]);
            PUTL(b, "(const toolgov_call *call, const ");
            put(b, n, nl);
            PUTL(b, TOOLGOV_ARGS_INFIX);
            put(b, m->tools[i].name, nm->len[i]);
            PUTL(b, " *args,\n    toolgov_result *out);\n");
        }
        puts_(b, "\n");
    }
    if (has_own_loop(m))
        putf(b, "/* The plugin's own loop (its tools with loop: own or both). Run `tool`\n"
                "** through `run`, a child run the loop made (toolgov_run_child_new), as\n"
                "** toolgov_run_invoke_declared() does, with its return codes;\n"
                "** TOOLGOV_EINVAL for a tool outside the own loop. */\n"
                "int %s_Invoke(toolgov_outcome *out, toolgov_run *run, %s_ToolId tool,\n"
                "    const char *args);\n"
                "/* The id of the own-loop tool named `name`, or %s_ToolCount when the\n"
                "** own loop has none of that name (a model names the tools it calls). */\n"
                "%s_ToolId %s_ToolFind(const char *name);\n\n",
             n, n, n, n, n);
    /* A host links or dlsym()s the descriptor by name, so it stays visible
    ** from a shared plugin built with -fvisibility=hidden; the definition in
    ** the .c, which includes this header, takes the attribute from here. */
    putf(b, "/* The plugin descriptor to pass to toolgov_registry_mount(); visible\n"
            "** from a shared plugin even under -fvisibility=hidden. */\n"
            "#if defined(__GNUC__) || defined(__clang__)\n"
            "__attribute__((visibility(\"default\")))\n"
            "#endif\n"
            "extern const toolgov_plugin %s_toolgov_plugin;\n\n", n);
    puts_(b, "#ifdef __cplusplus\n}\n#endif\n\n");

    puts_(b, "/* ");
    put_upper(b, n);
    puts_(b, "_TOOLGOV_HANDLER(tool, call, args, out) { ... } defines the handler of\n"
             "** `tool`, a tool of this plugin's manifest, exactly as declared above: a\n"
             "** function returning 0 when `out` holds a usable result, or a negative\n"
             "** TOOLGOV_E* code, whose parameters are named as given: the call, its\n"
             "** decoded and validated arguments (");
    putf(b, "const %s" TOOLGOV_ARGS_INFIX "<tool> *), and the\n"
            "** result to fill. Under clang the definition carries an annotation the\n"
            "** drift check (toolgov-gen check) reads; the TOOLGOV_HANDLER_*_ helpers\n"
            "** are the same in every generated header. */\n", n);
    puts_(b, "#undef TOOLGOV_HANDLER_LINKAGE_\n"
             "#undef TOOLGOV_HANDLER_ANNOTATE_\n"
             "#if defined(__cplusplus)\n"
             "#define TOOLGOV_HANDLER_LINKAGE_ extern \"C\"\n"
             "#else\n"
             "#define TOOLGOV_HANDLER_LINKAGE_\n"
             "#endif\n"
             "#if defined(__clang__)\n"
             "#define TOOLGOV_HANDLER_ANNOTATE_(name) __attribute__((annotate(\""
             TOOLGOV_ANNOTATION_PREFIX "\" name)))\n"
             "#else\n"
             "#define TOOLGOV_HANDLER_ANNOTATE_(name)\n"
             "#endif\n"
             "#define ");
    put_upper(b, n);
    putf(b, TOOLGOV_HANDLER_MACRO_SUFFIX "(tool, call, args, out) \\\n"
            "    TOOLGOV_HANDLER_LINKAGE_ TOOLGOV_HANDLER_ANNOTATE_(#tool) \\\n"
            "    int %s" TOOLGOV_HANDLER_INFIX "##tool(const toolgov_call *call, \\\n"
            "        const %s" TOOLGOV_ARGS_INFIX "##tool *args, toolgov_result *out)\n\n",
         n, n);
    puts_(b, "#endif /* ");
    put_upper(b, n);
    puts_(b, "_TOOLGOV_H */\n");
}

static const char *effect_enum(toolgov_effect e)
{
    switch (e) {
    case TOOLGOV_EFFECT_WRITE:
        return "TOOLGOV_EFFECT_WRITE";
    case TOOLGOV_EFFECT_DESTRUCTIVE:
        return "TOOLGOV_EFFECT_DESTRUCTIVE";
    default:
        return "TOOLGOV_EFFECT_READ";
    }
}

/* The C file up to its tables (each tool's argument descriptors and
** schema text, whose names go in params[i] and schema[i]). */
static void render_source(toolgov__buf *b, const toolgov__manifest *m, size_t *mark_at,
                          toolgov__schema_ctx *cx, toolgov__schema_share *sh,
                          const char **params, const char **schema)
{
    const char *n = m->name;
    size_t i;

    put_banner(b, m, "c");
    putf(b, "#include \"%s.toolgov.h\"\n\n", n);
    if (has_own_loop(m))
        puts_(b, "#include <string.h>\n\n");
    /* A header left from another generation (an interrupted run replaced
    ** one file of the pair) must not compile with this table. */
    puts_(b, "#if !defined(");
    put_upper(b, n);
    puts_(b, "_TOOLGOV_GENERATION) || ");
    put_upper(b, n);
    puts_(b, "_TOOLGOV_GENERATION != 0x");
    *mark_at = b->len;
    puts_(b, GENERATION_ZERO "UL\n");
    putf(b,
         "#error \"%s.toolgov.h and %s.toolgov.c come from different runs of toolgov-gen; "
         "generate them again (building the plugin's target does)\"\n#endif\n\n",
         n, n);

    if (m->provides_count) {
        putf(b, "static const char *const %s_Provides[] = {\n", n);
        for (i = 0; i < m->provides_count; i++) {
            puts_(b, "    ");
            put_literal(b, m->provides[i], strlen(m->provides[i]), "    ");
            puts_(b, i + 1 < m->provides_count ? ",\n" : "\n");
        }
        puts_(b, "};\n\n");
    }

    /* Strings too long for one literal, as arrays the table points to. */
    for (i = 0; i < m->tool_count; i++) {
        const toolgov__tool_decl *t = &m->tools[i];
        if (t->description_len > LITERAL_MAX) {
            putf(b, "static const char %s_Description_%s[] = {", n, t->name);
            put_char_array(b, t->description, t->description_len);
            puts_(b, "\n");
        }
        if (t->guidance_len > LITERAL_MAX) {
            putf(b, "static const char %s_Guidance_%s[] = {", n, t->name);
            put_char_array(b, t->guidance, t->guidance_len);
            puts_(b, "\n");
        }
    }

    /* Each tool's argument descriptors and its schema text, every
    ** distinct table and text written once (schema_c.c, "Sharing"). */
    for (i = 0; i < m->tool_count; i++) {
        const toolgov__tool_decl *t = &m->tools[i];
        if (toolgov__schema_c_tables(b, sh, cx, n, t->name, t->params, &params[i], &schema[i])) {
            b->oom = 1;
            return;
        }
    }
}

/* Every generated string enum is int-sized (one line per enum): the part
** of the C file after the tables; sh is any share table of this render
** (the text is the same with any). */
static void render_enum_checks(toolgov__buf *b, const toolgov__manifest *m,
                               toolgov__schema_share *sh)
{
    size_t before = b->len, i;
    for (i = 0; i < m->tool_count; i++)
        if (toolgov__schema_c_enum_checks(b, sh, m->name, m->tools[i].name, m->tools[i].params)) {
            b->oom = 1;
            return;
        }
    if (b->len != before)
        puts_(b, "\n");
}

/* A tool's description or guidance in its ToolSpec entry: a literal, or
** the name of the array render_source wrote for a text too long for one. */
static void put_text(toolgov__buf *b, const char *plugin, const char *what, const char *tool,
                     const char *s, size_t len)
{
    if (len > LITERAL_MAX)
        putf(b, "%s_%s_%s", plugin, what, tool);
    else
        put_literal(b, s, len, "      ");
}

/* The ToolSpec table. Each entry up to its tables (the tool's name, its
** description and guidance as literals, its effect and flags, its place)
** is a head; the head and then the names of its tables, which the tables'
** render gave, make the entry. */
static void render_spec_head(toolgov__buf *b, const toolgov__manifest *m, const names *nm,
                             size_t i)
{
    const char *n = m->name;
    const toolgov__tool_decl *t = &m->tools[i];
    PUTL(b, "    { sizeof(toolgov_tool_spec),\n      \"");
    put(b, t->name, nm->len[i]); /* an identifier: nothing to escape */
    PUTL(b, "\",\n      ");
    put_text(b, n, "Description", t->name, t->description, t->description_len);
    PUTL(b, ",\n      ");
    puts_(b, effect_enum(t->effect));
    if (t->effect == TOOLGOV_EFFECT_WRITE && t->confirm == TOOLGOV_CONFIRM_ONCE)
        PUTL(b, ", TOOLGOV_CONFIRM_ONCE,\n      ");
    else
        PUTL(b, ", TOOLGOV_CONFIRM_NEVER,\n      ");
    put_text(b, n, "Guidance", t->name, t->guidance, t->guidance_len);
    PUTL(b, ",\n      ");
    put(b, t->pinned ? "1, " : "0, ", 3);
    put(b, t->answers_directly ? "1, " : "0, ", 3);
    put_size(b, t->at.line);
    PUTL(b, ", ");
    put_size(b, t->at.col);
}

/* The table. */
static void render_specs(toolgov__buf *b, const toolgov__manifest *m, const names *nm,
                         const char *const *params, const char *const *schema)
{
    const char *n = m->name;
    size_t i;
    if (m->tool_count) {
        putf(b, "static const toolgov_tool_spec %s_Tools[%s_ToolCount] = {\n", n, n);
        for (i = 0; i < m->tool_count; i++) {
            render_spec_head(b, m, nm, i);
            if (params[i]) {
                PUTL(b, ",\n      &");
                puts_(b, params[i]);
                PUTL(b, ",\n      ");
            } else {
                PUTL(b, ",\n      NULL,\n      ");
            }
            puts_(b, schema[i]);
            if (i + 1 < m->tool_count)
                PUTL(b, " },\n");
            else
                PUTL(b, " }\n");
        }
        puts_(b, "};\n\n");
    }
}

/* Everything after the ToolSpec table: it depends on the tools' names and
** loops alone. */
static void render_tail(toolgov__buf *b, const toolgov__manifest *m, const names *nm)
{
    const char *n = m->name;
    size_t i;

    /* The wrappers the registry calls: of the runtime's handler type, each
    ** hands the decoded arguments to its handler with their declared type,
    ** so no function pointer is cast. */
    for (i = 0; i < m->tool_count; i++) {
        const char *tn = m->tools[i].name;
        size_t tl = nm->len[i], nl = strlen(n);
        PUTL(b, "static int ");
        put(b, n, nl);
        PUTL(b, TOOLGOV_CALL_INFIX);
        put(b, tn, tl);
        PUTL(b, "(const toolgov_call *call, const void *args,\n"
                "    toolgov_result *out)\n{\n    return ");
        put(b, n, nl);
        PUTL(b, TOOLGOV_HANDLER_INFIX);
        put(b, tn, tl);
        PUTL(b, "(call, (const ");
        put(b, n, nl);
        PUTL(b, TOOLGOV_ARGS_INFIX);
        put(b, tn, tl);
        PUTL(b, " *)args, out);\n}\n\n");
    }

    /* The handlers, in tool order, and where each tool runs. */
    if (m->tool_count) {
        size_t nl = strlen(n);
        putf(b, "static const toolgov_handler_fn %s_Calls[%s_ToolCount] = {\n", n, n);
        for (i = 0; i < m->tool_count; i++) {
            PUTL(b, "    ");
            put(b, n, nl);
            PUTL(b, TOOLGOV_CALL_INFIX);
            put(b, m->tools[i].name, nm->len[i]);
            puts_(b, i + 1 < m->tool_count ? ",\n" : "\n");
        }
        puts_(b, "};\n\n");
        if (loops_vary(m)) {
            putf(b, "/* Where each tool runs: 1 the host's pool, 2 the plugin's own loop\n"
                    "** (declared, not pooled), 3 both. */\n"
                    "static const unsigned char %s_Loops[%s_ToolCount] = {", n, n);
            for (i = 0; i < m->tool_count; i++) {
                puts_(b, i % 16 ? " " : "\n    ");
                put_size(b, (size_t)m->tools[i].loop);
                if (i + 1 < m->tool_count)
                    puts_(b, ",");
            }
            puts_(b, "\n};\n\n");
        }
    }

    /* A refusal (the name is taken, or undeclared) leaves a drift row and
    ** must not hide the plugin's other tools; anything else (no memory)
    ** fails the mount. A tool of both loops whose name is taken is refused
    ** once, not again for its own loop. */
    putf(b, "static int %s_Register(toolgov_plugin_api *api)\n{\n", n);
    if (m->tool_count && loops_vary(m)) {
        putf(b, "    size_t i;\n\n"
                "    for (i = 0; i < %s_ToolCount; i++) {\n"
                "        const toolgov_tool_spec *spec;\n"
                "        int rc = 0;\n\n"
                "        if (%s_Loops[i] & 1)\n"
                "            rc = toolgov_register_tool(api, %s_Tools[i].name,\n"
                "                                       %s_Tools[i].description, %s_Calls[i]);\n"
                "        if (rc < 0 && rc != TOOLGOV_EEXIST && rc != TOOLGOV_EUNDECLARED)\n"
                "            return rc;\n"
                "        if ((%s_Loops[i] & 2) && rc != TOOLGOV_EEXIST) {\n"
                "            rc = toolgov_declare_tool(api, %s_Tools[i].name, &spec);\n"
                "            if (rc < 0 && rc != TOOLGOV_EEXIST && rc != TOOLGOV_EUNDECLARED)\n"
                "                return rc;\n"
                "        }\n"
                "    }\n",
             n, n, n, n, n, n, n);
    } else if (m->tool_count) {
        putf(b, "    size_t i;\n\n"
                "    for (i = 0; i < %s_ToolCount; i++) {\n"
                "        int rc = toolgov_register_tool(api, %s_Tools[i].name,\n"
                "                                       %s_Tools[i].description, %s_Calls[i]);\n"
                "        if (rc < 0 && rc != TOOLGOV_EEXIST && rc != TOOLGOV_EUNDECLARED)\n"
                "            return rc;\n"
                "    }\n",
             n, n, n, n);
    } else {
        puts_(b, "    (void)api;\n");
    }
    puts_(b, "    return 0;\n}\n\n");

    if (has_own_loop(m)) {
        putf(b, "int %s_Invoke(toolgov_outcome *out, toolgov_run *run, %s_ToolId tool,\n"
                "    const char *args)\n{\n"
                "    if ((unsigned)tool >= (unsigned)%s_ToolCount || !(%s_Loops[tool] & 2))\n"
                "        return TOOLGOV_EINVAL;\n"
                "    return toolgov_run_invoke_declared(out, run, &%s_Tools[tool], %s_Calls[tool],\n"
                "                                       args);\n}\n\n",
             n, n, n, n, n, n);
        putf(b, "%s_ToolId %s_ToolFind(const char *name)\n{\n"
                "    size_t i;\n\n"
                "    for (i = 0; name && i < %s_ToolCount; i++)\n"
                "        if ((%s_Loops[i] & 2) && strcmp(%s_Tools[i].name, name) == 0)\n"
                "            return (%s_ToolId)i;\n"
                "    return %s_ToolCount;\n}\n\n",
             n, n, n, n, n, n, n);
    }

    putf(b, "const toolgov_plugin %s_toolgov_plugin = {\n    TOOLGOV_ABI_VERSION,\n    ", n);
    put_literal(b, n, strlen(n), "    ");
    puts_(b, ",\n    ");
    {
        const char *bn = base_name(m->path);
        put_literal(b, bn, strlen(bn), "    ");
    }
    if (m->provides_count)
        putf(b, ",\n    %s_Provides,\n    %zu,\n", n, m->provides_count);
    else
        puts_(b, ",\n    NULL,\n    0,\n");
    if (m->tool_count) {
        putf(b, "    %s_Tools,\n    %s_ToolCount,\n", n, n);
    } else {
        puts_(b, "    NULL,\n    0,\n");
    }
    putf(b, "    %s_Register\n};\n", n);
}

/* The generation mark: a 32-bit hash (so the #if stays within unsigned
** long even for C++98) over the header as rendered with the mark zeroed.
** Only the header counts: the C file must match the header it was made
** with, and a change that leaves the header as it was (a description, an
** effect) must not touch it, or every handler source would recompile. The
** header is replaced first, so an interrupted run leaves either a pair
** that matches or a new header beside an old C file, which the old C
** file's mark refuses.
**
** The hash is toolgov__hash_bytes() (buf.h, eight bytes a step) with the
** high half folded into the low at the end: a header of 10,000 tools is
** megabytes, which a byte-at-a-time hash reads at a few cycles a byte. It
** detects change; it is not a checksum against an adversary. */
static unsigned long generation_hash(const unsigned char *p, size_t n)
{
    const uint64_t k = 0x9e3779b97f4a7c15u;
    uint64_t v = toolgov__hash_bytes(p, n);
    v ^= v >> 32;
    v *= k;
    return (unsigned long)(v >> 32) & 0xffffffffUL;
}

static void stamp_generation(toolgov__buf *h, size_t h0, size_t h_mark, toolgov__buf *c,
                             size_t c_mark)
{
    static const char hex[] = "0123456789abcdef";
    unsigned long v = generation_hash((const unsigned char *)h->data + h0, h->len - h0);
    int k;
    for (k = 7; k >= 0; k--, v >>= 4) {
        h->data[h_mark + (size_t)k] = hex[v & 15];
        c->data[c_mark + (size_t)k] = hex[v & 15];
    }
}

int toolgov__codegen_render(toolgov__buf *h, toolgov__buf *c, const toolgov__manifest *m)
{
    /* Size both buffers once from the manifest: growing a multi-megabyte
    ** buffer by doubling costs more than rendering into it. Escapes may
    ** still outgrow the estimate; reserve() then doubles as usual. */
    size_t nl = strlen(m->name), hs = 4096, cs = 4096, i;
    for (i = 0; i < m->tool_count; i++) {
        const toolgov__tool_decl *t = &m->tools[i];
        size_t tl = strlen(t->name);
        hs += 4 * tl + 4 * nl + 160;
        cs += 8 * tl + 10 * nl + 160 + t->description_len + t->description_len / 4 + t->guidance_len +
              t->guidance_len / 4 + 256;
        if (t->params) {
            /* The argument struct and enums, the descriptor tables and the
            ** schema text each grow with the schema text; an estimate too
            ** big costs only address space (untouched pages). */
            hs += 2 * t->params->text_len + 8 * tl;
            cs += 3 * t->params->text_len + 8 * tl;
        }
    }
    if (h->cap - h->len < hs)
        (void)reserve(h, hs);
    if (c->cap - c->len < cs)
        (void)reserve(c, cs);
    {
        names nm;
        size_t h0 = h->len, h_mark = 0, c_mark = 0, n = m->tool_count ? m->tool_count : 1;
        /* Schema texts and in-memory tables live in an arena of their own
        ** for the render; the manifest stays read-only. */
        toolgov__arena arena;
        toolgov__diag d;
        toolgov__schema_ctx cx;
        toolgov__schema_share sh, sh_h;
        const char **schema = malloc(n * sizeof(const char *));
        const char **params = malloc(n * sizeof(const char *));
        int bad = names_build(&nm, m) || !schema || !params;
        toolgov__arena_init(&arena);
        toolgov__diag_init(&d, stderr, 0);
        toolgov__schema_share_init(&sh);
        toolgov__schema_share_init(&sh_h);
        cx.arena = &arena;
        cx.d = &d;
        cx.path = m->path;
        cx.tool = NULL;
        cx.oom = 0;
        if (!bad) {
            if (!lit_ready)
                init_lit();
            /* The header and the C file each with a share table of their
            ** own: each file names its shared tables in its own order. */
            render_header(h, m, &nm, &h_mark, &sh_h);
            render_source(c, m, &c_mark, &cx, &sh, params, schema);
            /* After a failed render the tables' names are not all there. */
            if (!c->oom) {
                render_enum_checks(c, m, &sh);
                render_specs(c, m, &nm, params, schema);
                render_tail(c, m, &nm);
            }
            if (!h->oom && !c->oom)
                stamp_generation(h, h0, h_mark, c, c_mark);
        }
        toolgov__schema_share_free(&sh);
        toolgov__schema_share_free(&sh_h);
        names_free(&nm);
        free(schema);
        free(params);
        toolgov__arena_free(&arena);
        if (bad)
            return TOOLGOV_ENOMEM;
    }
    return (h->oom || c->oom) ? TOOLGOV_ENOMEM : 0;
}
