/* SPDX-License-Identifier: MIT */
/*
** scan.c: find handlers, registration calls, clang errors and the files read,
** in every source of one plugin (see scan.h for the contract).
**
** The traps this code steers around were measured on libclang 14 and are
** written down in docs/drift-check.md: a macro-made function is not "from
** the main file", so places are expansion locations; the annotation is a
** child cursor of the declaration and a definition inherits it from an
** annotated prototype, so only definitions count; a parenthesised callee
** has no referenced cursor on the call itself, and a call in a template
** whose arguments depend on a template parameter names its callee through
** an overload set.
**
** One translation unit is walked in two passes. The first looks only at
** the top level of headers that may be skipped (the compiler's own system
** headers) for annotated function definitions: a file holding one is never
** skipped. The second visits every cursor of every other file, recursively,
** so no function body, member, template or initialiser is left out.
*/
#define _XOPEN_SOURCE 700 /* getcwd; realpath is XSI in glibc */

#include <clang-c/Index.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <toolgov/toolgov.h>

#include "base/arena.h"
#include "check/parse_parallel.h"
#include "check/scan.h"
#include "base/strset.h"

/* State of one scan, shared by every translation unit. */
typedef struct priv {
    toolgov__arena arena;    /* every string of the scan */
    toolgov__strset files;   /* interned file names (locations and inputs) */
    toolgov__strset listed;  /* the subset already in scan->files */
    toolgov__strset seen;    /* identity keys of handlers and registrations */
    size_t handler_cap, registration_cap, diag_cap, file_cap, headerless_cap;
    const char *cwd;         /* for making relative file names absolute */
    const char *header;      /* "<plugin>.toolgov.h", or NULL */
    const char *args_prefix; /* "<plugin>_Args_", or NULL */
    const char **sysdirs;    /* the compiler's own directories, '/'-terminated */
    size_t nsysdirs;
} priv;

/* A file a translation unit read: how the source reached it, and whether
** its declarations are skipped (-1: not decided yet). */
typedef struct unit_file {
    CXFile file;
    const char *name;   /* interned */
    toolgov__loc via;   /* the #include in the source; file NULL for the source */
    int skip;
    int must;           /* includes the generated header, is it, or defines a handler */
} unit_file;

/* A function declared by the plugin's generated header in this unit. */
typedef struct proto {
    const char *symbol, *type;
} proto;

/* The longest tool name read from a literal's tokens (names are at most 64
** bytes; a longer literal is still read, to be reported as undeclared). */
#define TOOLGOV_SCAN_LITERAL_MAX 1024

typedef struct ctx {
    toolgov__scan *s;
    priv *p;
    const char *source; /* the source being parsed (interned) */
    int oom;
    int cxx;            /* the unit is C++ */
    unit_file *ufiles;
    size_t nufiles, ufile_cap;
    size_t last_ufile;  /* cache: the file of the previous lookup */
    proto *protos;
    size_t nprotos, proto_cap;
    const char **types; /* canonical type of each handler this unit added */
    size_t first_handler, type_cap;
    int has_header;     /* the unit includes the generated header */
    toolgov__loc macro_use; /* first function named like the handler macro */
    CXSourceLocation callee[4]; /* callees of the last registration calls */
    unsigned ncallee;
} ctx;

static char *sdup(priv *p, const char *a, const char *b)
{
    size_t la = strlen(a), lb = b ? strlen(b) : 0;
    char *r = toolgov__arena_alloc(&p->arena, la + lb + 1);
    if (!r)
        return NULL;
    memcpy(r, a, la);
    if (lb)
        memcpy(r + la, b, lb);
    r[la + lb] = '\0';
    return r;
}

/* Grow *arr (elements of size `elem`) so one more fits. */
static int grow(void **arr, size_t count, size_t *cap, size_t elem)
{
    if (count < *cap && *arr)
        return 0;
    size_t ncap = *cap > count ? *cap : count ? count * 2 : 16;
    void *n = realloc(*arr, ncap * elem);
    if (!n)
        return TOOLGOV_ENOMEM;
    *arr = n;
    *cap = ncap;
    return 0;
}

/* A file name as it goes into the scan: absolute, arena-owned, interned. */
static const char *intern_file(ctx *c, const char *name)
{
    const char *found;
    char *full;
    if (name[0] == '/' || !c->p->cwd) {
        found = toolgov__strset_find(&c->p->files, name);
        if (found)
            return found;
        full = sdup(c->p, name, NULL);
    } else {
        const char *rel = name;
        while (rel[0] == '.' && rel[1] == '/')
            rel += 2;
        char *tmp = sdup(c->p, c->p->cwd, "/");
        if (!tmp)
            return NULL;
        full = sdup(c->p, tmp, rel);
        if (full && (found = toolgov__strset_find(&c->p->files, full)) != NULL)
            return found;
    }
    if (!full || toolgov__strset_add(&c->p->files, full) < 0)
        return NULL;
    return full;
}

/* The interned name of a CXFile; NULL without a name (c->oom on failure). */
static const char *file_name(ctx *c, CXFile file)
{
    const char *r = NULL;
    if (!file)
        return NULL;
    CXString n = clang_getFileName(file);
    const char *name = clang_getCString(n);
    if (name && name[0]) {
        r = intern_file(c, name);
        if (!r)
            c->oom = 1;
    }
    clang_disposeString(n);
    return r;
}

/* Append an interned name to the list of files read, once. */
static int list_file(ctx *c, const char *f)
{
    if (toolgov__strset_find(&c->p->listed, f))
        return 0;
    if (toolgov__strset_add(&c->p->listed, f) < 0 ||
        grow((void **)&c->s->files, c->s->file_count, &c->p->file_cap,
             sizeof *c->s->files) < 0)
        return TOOLGOV_ENOMEM;
    c->s->files[c->s->file_count++] = f;
    return 0;
}

/* Expansion location of `loc`: where the user wrote it, macros unwound,
** line markers (#line, # 4 "x.c" 3) ignored: the file is the real one. */
static int expansion_loc(ctx *c, CXSourceLocation loc, toolgov__loc *out, CXFile *file_out)
{
    CXFile file = NULL;
    unsigned line = 0, col = 0;
    clang_getExpansionLocation(loc, &file, &line, &col, NULL);
    out->file = file_name(c, file);
    out->line = line;
    out->col = col;
    if (file_out)
        *file_out = file;
    return c->oom ? TOOLGOV_ENOMEM : 0;
}

/* Identity key "kind file a b line:col"; returns 1 when already seen,
** 0 when new (and remembers it), negative on OOM. */
static int seen_before(ctx *c, const char *kind, const char *a, const char *b,
                       const toolgov__loc *at)
{
    const char *file = at->file ? at->file : "";
    a = a ? a : "";
    b = b ? b : "";
    size_t n = strlen(kind) + strlen(file) + strlen(a) + strlen(b) + 48;
    char *key = toolgov__arena_alloc(&c->p->arena, n);
    if (!key)
        return TOOLGOV_ENOMEM;
    snprintf(key, n, "%s\x1f%s\x1f%s\x1f%s\x1f%u:%u", kind, file, a, b, at->line,
             at->col);
    if (toolgov__strset_find(&c->p->seen, key))
        return 1;
    return toolgov__strset_add(&c->p->seen, key) < 0 ? TOOLGOV_ENOMEM : 0;
}

/* --- which files are read, and which may be skipped ---------------------- */

static unit_file *find_ufile(ctx *c, CXFile file)
{
    if (c->last_ufile < c->nufiles && clang_File_isEqual(c->ufiles[c->last_ufile].file, file))
        return &c->ufiles[c->last_ufile];
    for (size_t i = 0; i < c->nufiles; i++)
        if (clang_File_isEqual(c->ufiles[i].file, file)) {
            c->last_ufile = i;
            return &c->ufiles[i];
        }
    return NULL;
}

static unit_file *add_ufile(ctx *c, CXFile file)
{
    unit_file *u = find_ufile(c, file);
    if (u)
        return u;
    const char *name = file_name(c, file);
    if (!name || grow((void **)&c->ufiles, c->nufiles, &c->ufile_cap, sizeof *c->ufiles) < 0) {
        c->oom = 1;
        return NULL;
    }
    u = &c->ufiles[c->nufiles++];
    memset(u, 0, sizeof *u);
    u->file = file;
    u->name = name;
    u->skip = -1;
    if (list_file(c, name) < 0) {
        c->oom = 1;
        return NULL;
    }
    return u;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int is_generated_header(const ctx *c, const char *name)
{
    return c->p->header && strcmp(base_name(name), c->p->header) == 0;
}

static void visit_inclusion(CXFile included, CXSourceLocation *stack, unsigned len,
                            CXClientData data)
{
    ctx *c = data;
    if (c->oom)
        return;
    unit_file *u = add_ufile(c, included);
    if (!u)
        return;
    if (len > 0 && !u->via.file && !u->via.line &&
        expansion_loc(c, stack[len - 1], &u->via, NULL) < 0)
        return;
    if (is_generated_header(c, u->name)) {
        u->must = 1;
        c->has_header = 1;
        /* The file whose #include brought the generated header in. */
        if (len > 0) {
            CXFile inc = NULL;
            clang_getExpansionLocation(stack[0], &inc, NULL, NULL, NULL);
            unit_file *by = inc ? add_ufile(c, inc) : NULL;
            if (by)
                by->must = 1;
        }
    }
}

/* Is `path` (resolved) under one of the compiler's own directories? */
static int in_sysdir(const priv *p, const char *path)
{
    char *real = realpath(path, NULL);
    const char *q = real ? real : path;
    int r = 0;
    for (size_t i = 0; i < p->nsysdirs && !r; i++)
        r = strncmp(q, p->sysdirs[i], strlen(p->sysdirs[i])) == 0;
    free(real);
    return r;
}

/* Are the declarations at `loc` skipped? Only in a header clang calls a
** system header that lies in the compiler's own directories and is not
** one that must be read. */
static int skipped_at(ctx *c, CXSourceLocation loc)
{
    if (!clang_Location_isInSystemHeader(loc))
        return 0;
    CXFile file = NULL;
    clang_getExpansionLocation(loc, &file, NULL, NULL, NULL);
    if (!file)
        return 0;
    unit_file *u = add_ufile(c, file);
    if (!u)
        return 0;
    if (u->must)
        return 0;
    if (u->skip < 0)
        u->skip = in_sysdir(c->p, u->name);
    return u->skip;
}

/* --- handlers ------------------------------------------------------------ */

static int is_function_kind(enum CXCursorKind k)
{
    return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod ||
           k == CXCursor_Constructor || k == CXCursor_Destructor ||
           k == CXCursor_ConversionFunction || k == CXCursor_FunctionTemplate;
}

/* The tool named by a toolgov annotation on `cur`, or NULL when `cur` has
** none; arena-owned. */
typedef struct annot {
    ctx *c;
    const char *tool;
} annot;

static enum CXChildVisitResult find_annotation(CXCursor cur, CXCursor parent,
                                               CXClientData data)
{
    annot *a = data;
    (void)parent;
    if (clang_getCursorKind(cur) != CXCursor_AnnotateAttr)
        return CXChildVisit_Continue;
    CXString sp = clang_getCursorSpelling(cur);
    const char *text = clang_getCString(sp);
    size_t plen = sizeof TOOLGOV_SCAN_ANNOTATION - 1;
    if (text && strncmp(text, TOOLGOV_SCAN_ANNOTATION, plen) == 0 && !a->tool) {
        a->tool = sdup(a->c->p, text + plen, NULL);
        if (!a->tool)
            a->c->oom = 1;
    }
    clang_disposeString(sp);
    return CXChildVisit_Continue;
}

static const char *annotation_of(ctx *c, CXCursor cur)
{
    annot a = { c, NULL };
    clang_visitChildren(cur, find_annotation, &a);
    return a.tool;
}

/* The linker symbol of a function: asm label or C++ mangling applied (a
** leading \1, clang's mark for "no prefix", dropped); arena-owned. */
static const char *symbol_of(ctx *c, CXCursor fn)
{
    CXString m = clang_Cursor_getMangling(fn);
    const char *text = clang_getCString(m);
    const char *r = NULL;
    if (text && text[0]) {
        if (text[0] == '\x01')
            text++;
        r = sdup(c->p, text, NULL);
        if (!r)
            c->oom = 1;
    }
    clang_disposeString(m);
    return r;
}

static const char *canonical_type(ctx *c, CXCursor cur)
{
    CXString t = clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(cur)));
    const char *r = sdup(c->p, clang_getCString(t) ? clang_getCString(t) : "", NULL);
    clang_disposeString(t);
    if (!r)
        c->oom = 1;
    return r;
}

/* Record one handler entry; `type` is its canonical type (functions). */
static void add_handler(ctx *c, CXCursor cur, const char *tool, const char *name,
                        const char *symbol, unsigned flags, const char *type)
{
    toolgov__scan *s = c->s;
    toolgov__handler h;
    CXFile file = NULL;
    memset(&h, 0, sizeof h);
    if (expansion_loc(c, clang_getCursorLocation(cur), &h.at, &file) < 0)
        return;
    CXString usr = clang_getCursorUSR(cur);
    /* A definition at one place counts once per translation unit. */
    int dup = seen_before(c, c->source, tool, clang_getCString(usr), &h.at);
    clang_disposeString(usr);
    if (dup != 0) {
        if (dup < 0)
            c->oom = 1;
        return;
    }
    h.tool = tool;
    h.function = sdup(c->p, name, NULL);
    h.symbol = symbol;
    h.source = c->source;
    h.flags = flags;
    if (file && h.at.file != c->source) {
        unit_file *u = add_ufile(c, file);
        if (u)
            h.via = u->via;
    }
    if (!h.function ||
        grow((void **)&s->handlers, s->handler_count, &c->p->handler_cap,
             sizeof *s->handlers) < 0 ||
        grow((void **)&c->types, s->handler_count - c->first_handler, &c->type_cap,
             sizeof *c->types) < 0) {
        c->oom = 1;
        return;
    }
    c->types[s->handler_count - c->first_handler] = type;
    s->handlers[s->handler_count++] = h;
}

/* A plain function: a FunctionDecl at file or namespace scope, not a
** template specialisation, inside no template (a friend in a class template
** is a FunctionDecl too). */
static int is_plain_function(CXCursor fn, enum CXCursorKind kind)
{
    if (kind != CXCursor_FunctionDecl ||
        !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(fn)))
        return 0;
    for (CXCursor p = clang_getCursorSemanticParent(fn); !clang_Cursor_isNull(p);
         p = clang_getCursorSemanticParent(p)) {
        enum CXCursorKind k = clang_getCursorKind(p);
        if (k == CXCursor_TranslationUnit)
            return 1;
        if (k != CXCursor_Namespace && k != CXCursor_LinkageSpec && k != CXCursor_UnexposedDecl)
            return 0;
    }
    return 1;
}

/* A name that is a handler macro: TOOLGOV_HANDLER or <PLUGIN>_TOOLGOV_HANDLER.
** A function of that name exists only where the macro was not defined. */
static int is_handler_macro(const char *name)
{
    const char *macro = &TOOLGOV_HANDLER_MACRO_SUFFIX[1]; /* "TOOLGOV_HANDLER" */
    size_t n = strlen(name), m = sizeof TOOLGOV_HANDLER_MACRO_SUFFIX - 2;
    return n >= m && strcmp(name + n - m, macro) == 0 &&
           (n == m || name[n - m - 1] == '_');
}

static void handle_function(ctx *c, CXCursor fn, enum CXCursorKind kind)
{
    int def = clang_isCursorDefinition(fn);
    CXString name = clang_getCursorSpelling(fn);
    const char *spelling = clang_getCString(name) ? clang_getCString(name) : "";

    /* A prototype in the plugin's generated header: what a handler of
    ** this translation unit must match. */
    if (!def && kind == CXCursor_FunctionDecl) {
        CXFile file = NULL;
        clang_getExpansionLocation(clang_getCursorLocation(fn), &file, NULL, NULL, NULL);
        unit_file *u = file ? add_ufile(c, file) : NULL;
        if (u && is_generated_header(c, u->name) && is_plain_function(fn, kind)) {
            const char *sym = symbol_of(c, fn), *type = canonical_type(c, fn);
            if (sym && type &&
                grow((void **)&c->protos, c->nprotos, &c->proto_cap, sizeof *c->protos) == 0) {
                c->protos[c->nprotos].symbol = sym;
                c->protos[c->nprotos++].type = type;
            } else {
                c->oom = 1;
            }
        }
        goto out;
    }
    if (!def)
        goto out; /* an annotated prototype: its definition, if any, counts */
    if (!c->macro_use.line && kind == CXCursor_FunctionDecl && is_handler_macro(spelling) &&
        expansion_loc(c, clang_getCursorLocation(fn), &c->macro_use, NULL) < 0)
        goto out;

    const char *tool = annotation_of(c, fn);
    /* A definition without the annotation matters only when it looks like
    ** a handler written without the macro: it lets the report say so. */
    if (c->oom || (!tool && (kind != CXCursor_FunctionDecl || !strstr(spelling, TOOLGOV_HANDLER_INFIX))))
        goto out;
    unsigned flags = TOOLGOV__HANDLER_DEFINITION;
    if (is_plain_function(fn, kind))
        flags |= TOOLGOV__HANDLER_FUNCTION;
    if (c->cxx && clang_Cursor_isFunctionInlined(fn))
        flags |= TOOLGOV__HANDLER_CXX_INLINE;
    /* Only a plain function has a symbol worth asking for (libclang 14
    ** crashes mangling some declarations inside templates). */
    const char *symbol = (flags & TOOLGOV__HANDLER_FUNCTION) ? symbol_of(c, fn) : NULL;
    const char *type = (flags & TOOLGOV__HANDLER_FUNCTION) ? canonical_type(c, fn) : NULL;
    if (!c->oom)
        add_handler(c, fn, tool, spelling, symbol, flags, type);
out:
    clang_disposeString(name);
}

/* A toolgov annotation on anything but a function (a variable, a type, a
** field): never a handler, recorded so the comparison reports it. */
static void handle_other_annotation(ctx *c, CXCursor attr, CXCursor decl)
{
    CXString sp = clang_getCursorSpelling(attr);
    const char *text = clang_getCString(sp);
    size_t plen = sizeof TOOLGOV_SCAN_ANNOTATION - 1;
    if (text && strncmp(text, TOOLGOV_SCAN_ANNOTATION, plen) == 0) {
        const char *tool = sdup(c->p, text + plen, NULL);
        CXString name = clang_getCursorSpelling(decl);
        if (!tool)
            c->oom = 1;
        else
            add_handler(c, decl, tool,
                        clang_getCString(name) ? clang_getCString(name) : "", NULL, 0, NULL);
        clang_disposeString(name);
    }
    clang_disposeString(sp);
}

/* After the walk: which handlers of this unit the generated header declares
** with the same symbol and type. */
static void mark_prototyped(ctx *c)
{
    toolgov__scan *s = c->s;
    for (size_t h = c->first_handler; h < s->handler_count; h++) {
        toolgov__handler *hd = &s->handlers[h];
        const char *type = c->types[h - c->first_handler];
        if (!hd->symbol || !type)
            continue;
        for (size_t k = 0; k < c->nprotos; k++)
            if (strcmp(c->protos[k].symbol, hd->symbol) == 0 &&
                strcmp(c->protos[k].type, type) == 0) {
                hd->flags |= TOOLGOV__HANDLER_PROTOTYPED;
                break;
            }
    }
}

/* --- registration calls --------------------------------------------------- */

static const char *const registration_fns[] = {
    "toolgov_register_tool",
    "toolgov_declare_tool",
};

static int registration_index(CXCursor decl)
{
    if (clang_Cursor_isNull(decl) || clang_getCursorKind(decl) != CXCursor_FunctionDecl)
        return -1;
    CXString sp = clang_getCursorSpelling(decl);
    const char *name = clang_getCString(sp);
    int kind = -1;
    for (size_t i = 0; name && i < sizeof registration_fns / sizeof *registration_fns; i++)
        if (strcmp(name, registration_fns[i]) == 0)
            kind = (int)i;
    clang_disposeString(sp);
    return kind;
}

/* The callee's reference, found through implicit casts and parentheses:
** `(toolgov_register_tool)(...)` gives the call itself no referenced
** cursor, and in a template a dependent call names an overload set. */
typedef struct callee_find {
    CXCursor found;
    int have;
} callee_find;

static enum CXChildVisitResult first_ref(CXCursor cur, CXCursor parent, CXClientData data)
{
    callee_find *f = data;
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef) {
        f->found = cur;
        f->have = 1;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr)
        return CXChildVisit_Recurse;
    return CXChildVisit_Break; /* the callee is the first child: stop there */
}

/* Which of registration_fns[] a reference names, or -1. */
static int ref_kind(CXCursor ref)
{
    if (clang_getCursorKind(ref) == CXCursor_DeclRefExpr) {
        CXCursor to = clang_getCursorReferenced(ref);
        if (clang_getCursorKind(to) == CXCursor_OverloadedDeclRef)
            ref = to; /* an unresolved name in a template */
    }
    if (clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef) {
        unsigned n = clang_getNumOverloadedDecls(ref);
        for (unsigned i = 0; i < n; i++) {
            int k = registration_index(clang_getOverloadedDecl(ref, i));
            if (k >= 0)
                return k;
        }
        return -1;
    }
    return registration_index(clang_getCursorReferenced(ref));
}

static void add_registration(ctx *c, const toolgov__registration *r)
{
    toolgov__scan *s = c->s;
    int dup = seen_before(c, r->indirect ? "i" : "r", r->callee, r->name ? r->name : "\x1e",
                          &r->at);
    if (dup != 0) {
        if (dup < 0)
            c->oom = 1;
        return;
    }
    if (grow((void **)&s->registrations, s->registration_count, &c->p->registration_cap,
             sizeof *s->registrations) < 0) {
        c->oom = 1;
        return;
    }
    s->registrations[s->registration_count++] = *r;
}

/* The string literal an argument is, under parentheses and implicit
** conversions; a null cursor when it is anything else. */
static enum CXChildVisitResult inner_literal(CXCursor cur, CXCursor parent, CXClientData data)
{
    CXCursor *out = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    (void)parent;
    if (k == CXCursor_StringLiteral)
        *out = cur;
    else if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr)
        return CXChildVisit_Recurse;
    return CXChildVisit_Break;
}

/* The value of a string literal clang will not evaluate: in a call that
** depends on a template argument (the API itself one, say) the literal is
** not decayed to a pointer and clang evaluates no array, yet the name is
** as literal as anywhere. Read from its tokens: one or more adjacent plain
** "..." literals with the simple escapes. NULL when the argument is not
** such a literal (then the name is computed at run time, as before); *oom
** on allocation failure. */
static char *literal_from_tokens(ctx *c, CXCursor arg, int *oom)
{
    CXCursor lit = clang_getNullCursor();
    CXTranslationUnit tu = clang_Cursor_getTranslationUnit(arg);
    CXToken *toks = NULL;
    unsigned n = 0, i;
    char buf[TOOLGOV_SCAN_LITERAL_MAX];
    size_t len = 0;
    int ok = 1;

    if (clang_getCursorKind(arg) == CXCursor_StringLiteral)
        lit = arg;
    else if (clang_getCursorKind(arg) == CXCursor_UnexposedExpr ||
             clang_getCursorKind(arg) == CXCursor_ParenExpr)
        clang_visitChildren(arg, inner_literal, &lit);
    if (clang_Cursor_isNull(lit) || !tu)
        return NULL;
    {
        /* Where the literal is spelt: in a macro's definition when it came
        ** from one. */
        CXSourceRange ext = clang_getCursorExtent(lit);
        CXFile f0, f1;
        unsigned o0, o1;
        clang_getSpellingLocation(clang_getRangeStart(ext), &f0, NULL, NULL, &o0);
        clang_getSpellingLocation(clang_getRangeEnd(ext), &f1, NULL, NULL, &o1);
        if (!f0 || !clang_File_isEqual(f0, f1) || o1 < o0)
            return NULL;
        clang_tokenize(tu, clang_getRange(clang_getLocationForOffset(tu, f0, o0),
                                          clang_getLocationForOffset(tu, f1, o1)),
                       &toks, &n);
    }
    for (i = 0; i < n && ok; i++) {
        CXString sp = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(sp);
        size_t tl = t ? strlen(t) : 0, j;
        if (clang_getTokenKind(toks[i]) != CXToken_Literal || tl < 2 || t[0] != '"' ||
            t[tl - 1] != '"')
            ok = 0;
        for (j = 1; ok && j + 1 < tl; j++) {
            char ch = t[j];
            if (ch == '\\') {
                static const char from[] = "ntr\\\"'?abfv", to[] = "\n\t\r\\\"'?\a\b\f\v";
                const char *e = j + 2 < tl ? strchr(from, t[j + 1]) : NULL;
                if (!e || !*e) {
                    ok = 0; /* a numeric or universal escape: not read here */
                    break;
                }
                ch = to[e - from];
                j++;
            }
            if (len + 1 >= sizeof buf)
                ok = 0;
            else
                buf[len++] = ch;
        }
        clang_disposeString(sp);
    }
    clang_disposeTokens(tu, toks, n);
    if (!ok || n == 0)
        return NULL;
    buf[len] = '\0';
    {
        char *r = sdup(c->p, buf, NULL);
        if (!r)
            *oom = 1;
        return r;
    }
}

static void handle_call(ctx *c, CXCursor call)
{
    callee_find f = { clang_getNullCursor(), 0 };
    int kind = -1;
    clang_visitChildren(call, first_ref, &f);
    if (f.have)
        kind = ref_kind(f.found);
    if (kind < 0)
        kind = registration_index(clang_getCursorReferenced(call));
    if (kind < 0)
        return;
    if (f.have) /* the reference is the call's, not a use of its own */
        c->callee[c->ncallee++ % (sizeof c->callee / sizeof *c->callee)] =
            clang_getCursorLocation(f.found);
    toolgov__registration r;
    memset(&r, 0, sizeof r);
    r.callee = registration_fns[kind];
    CXCursor arg = clang_getNullCursor();
    if (clang_Cursor_getNumArguments(call) >= 2)
        arg = clang_Cursor_getArgument(call, 1);
    CXSourceLocation where =
        clang_Cursor_isNull(arg) ? clang_getCursorLocation(call) : clang_getCursorLocation(arg);
    if (expansion_loc(c, where, &r.at, NULL) < 0)
        return;
    if (!clang_Cursor_isNull(arg)) {
        /* clang folds "a" "b" and #name; anything it cannot fold to a
        ** string is a name computed at run time. */
        CXEvalResult ev = clang_Cursor_Evaluate(arg);
        if (ev) {
            if (clang_EvalResult_getKind(ev) == CXEval_StrLiteral) {
                const char *str = clang_EvalResult_getAsStr(ev);
                if (str) {
                    r.name = sdup(c->p, str, NULL);
                    if (!r.name)
                        c->oom = 1;
                }
            }
            clang_EvalResult_dispose(ev);
        }
        if (!r.name && !c->oom)
            r.name = literal_from_tokens(c, arg, &c->oom);
    }
    if (!c->oom)
        add_registration(c, &r);
}

/* A reference to a registration function that is not a call's callee: its
** address is taken, and the calls made through it cannot be read. */
static void handle_ref(ctx *c, CXCursor ref)
{
    int kind = ref_kind(ref);
    if (kind < 0)
        return;
    for (unsigned i = 0; i < sizeof c->callee / sizeof *c->callee && i < c->ncallee; i++)
        if (clang_equalLocations(c->callee[i], clang_getCursorLocation(ref)))
            return;
    toolgov__registration r;
    memset(&r, 0, sizeof r);
    r.callee = registration_fns[kind];
    r.indirect = 1;
    if (expansion_loc(c, clang_getCursorLocation(ref), &r.at, NULL) == 0)
        add_registration(c, &r);
}

/* --- the walk ------------------------------------------------------------- */

/* Pass one: annotated function definitions at the top level (and in
** namespaces and linkage specifications) of the headers that may be
** skipped; their files are then read like any other. */
static enum CXChildVisitResult mark_handler_files(CXCursor cur, CXCursor parent,
                                                  CXClientData data)
{
    ctx *c = data;
    (void)parent;
    if (c->oom)
        return CXChildVisit_Break;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    if (!is_function_kind(k) || !clang_isCursorDefinition(cur))
        return CXChildVisit_Continue;
    CXSourceLocation loc = clang_getCursorLocation(cur);
    if (!skipped_at(c, loc) || !annotation_of(c, cur))
        return CXChildVisit_Continue;
    CXFile file = NULL;
    clang_getExpansionLocation(loc, &file, NULL, NULL, NULL);
    unit_file *u = file ? add_ufile(c, file) : NULL;
    if (u) {
        u->must = 1;
        u->skip = 0;
    }
    return CXChildVisit_Continue;
}

/* Pass two: every cursor outside the skipped headers. */
static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    ctx *c = data;
    if (c->oom)
        return CXChildVisit_Break;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (clang_isDeclaration(k) && skipped_at(c, clang_getCursorLocation(cur)))
        return CXChildVisit_Continue;
    if (k == CXCursor_CallExpr)
        handle_call(c, cur);
    else if (k == CXCursor_DeclRefExpr || k == CXCursor_OverloadedDeclRef)
        handle_ref(c, cur);
    else if (is_function_kind(k))
        handle_function(c, cur, k);
    else if (k == CXCursor_AnnotateAttr && !is_function_kind(clang_getCursorKind(parent)))
        handle_other_annotation(c, cur, parent);
    return CXChildVisit_Recurse;
}

/* --- diagnostics ---------------------------------------------------------- */

static int add_diag(ctx *c, CXDiagnostic dg, toolgov__clang_severity sev)
{
    toolgov__scan *s = c->s;
    toolgov__clang_diag d;
    d.severity = sev;
    d.source = c->source;
    if (expansion_loc(c, clang_getDiagnosticLocation(dg), &d.at, NULL) < 0)
        return TOOLGOV_ENOMEM;
    CXString msg = clang_getDiagnosticSpelling(dg);
    const char *m = clang_getCString(msg);
    d.message = sdup(c->p, m ? m : "", NULL);
    clang_disposeString(msg);
    if (!d.message ||
        grow((void **)&s->diags, s->diag_count, &c->p->diag_cap, sizeof *s->diags) < 0)
        return TOOLGOV_ENOMEM;
    s->diags[s->diag_count++] = d;
    if (sev == TOOLGOV__CLANG_ERROR)
        s->parse_errors++;
    return 0;
}

static int collect_diags(ctx *c, CXTranslationUnit tu)
{
    unsigned n = clang_getNumDiagnostics(tu);
    int rc = 0;
    for (unsigned i = 0; i < n && rc == 0; i++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
        if (sev == CXDiagnostic_Error || sev == CXDiagnostic_Fatal) {
            rc = add_diag(c, dg, TOOLGOV__CLANG_ERROR);
            CXDiagnosticSet kids = clang_getChildDiagnostics(dg);
            unsigned nk = kids ? clang_getNumDiagnosticsInSet(kids) : 0;
            for (unsigned k = 0; k < nk && rc == 0; k++) {
                CXDiagnostic kd = clang_getDiagnosticInSet(kids, k);
                rc = add_diag(c, kd, TOOLGOV__CLANG_NOTE);
                clang_disposeDiagnostic(kd);
            }
        }
        clang_disposeDiagnostic(dg);
    }
    return rc;
}

/* A parse that produced no translation unit at all (unreadable file, bad
** arguments): an error at the source, so the check still fails closed. */
static int add_parse_failure(ctx *c, const char *source, enum CXErrorCode ec)
{
    toolgov__scan *s = c->s;
    toolgov__clang_diag d;
    d.severity = TOOLGOV__CLANG_ERROR;
    d.source = c->source;
    d.at.file = c->source;
    d.at.line = 0;
    d.at.col = 0;
    /* libclang says nothing more: tell an unreadable file from arguments
    ** the driver refused without a diagnostic (a -std= or -x that does not
    ** suit the source's language). */
    FILE *f = fopen(source, "r");
    if (f) {
        fclose(f);
        d.message = ec == CXError_InvalidArguments
                        ? "libclang refused the arguments for this source"
                        : "libclang could not parse this source with the arguments given "
                          "(is a -std= or -x for another language among them?)";
    } else {
        d.message = sdup(c->p, "cannot read this source: ", strerror(errno));
    }
    if (!d.message ||
        grow((void **)&s->diags, s->diag_count, &c->p->diag_cap, sizeof *s->diags) < 0)
        return TOOLGOV_ENOMEM;
    s->diags[s->diag_count++] = d;
    s->parse_errors++;
    return 0;
}

/* --- the run ---------------------------------------------------------------- */

/* KeepGoing: after a fatal error (missing header) clang would otherwise hide
** later diagnostics and part of the file. No SkipFunctionBodies: it drops
** every call inside bodies, and registrations live there. */
#define PARSE_OPTIONS ((unsigned)CXTranslationUnit_KeepGoing)

/* The compiler arguments for one source. CMake hands the check one list for
** the whole plugin, holding the C standard and, when the plugin has C++
** sources, the C++ one; clang refuses a C -std= for a C++ source and the
** other way round, so each source gets the list without the other
** language's -std=. */
typedef struct argset {
    const char **c, **cxx; /* owned arrays; the strings are borrowed */
    int nc, ncxx;
} argset;

static int is_cxx_source(const char *path)
{
    static const char *const exts[] = { ".cc", ".cp", ".cpp", ".cxx", ".c++",
                                        ".C", ".CC", ".CPP", ".CXX", ".mm" };
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return 0;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (strcmp(dot, exts[i]) == 0)
            return 1;
    return 0;
}

/* 1 for a C -std=, 2 for a C++ one, 0 for any other argument. */
static int std_language(const char *a)
{
    if (strncmp(a, "-std=", 5) != 0 && strncmp(a, "--std=", 6) != 0)
        return 0;
    return strstr(a, "++") ? 2 : 1;
}

static int argset_init(argset *as, const char *const *args, int nargs)
{
    memset(as, 0, sizeof *as);
    as->c = malloc(((size_t)nargs + 1) * sizeof *as->c);
    as->cxx = malloc(((size_t)nargs + 1) * sizeof *as->cxx);
    if (!as->c || !as->cxx) {
        free(as->c);
        free(as->cxx);
        return TOOLGOV_ENOMEM;
    }
    for (int i = 0; i < nargs; i++) {
        int lang = std_language(args[i]);
        if (lang != 2)
            as->c[as->nc++] = args[i];
        if (lang != 1)
            as->cxx[as->ncxx++] = args[i];
    }
    return 0;
}

static void argset_free(argset *as)
{
    free(as->c);
    free(as->cxx);
}

/* The compiler's own directories, where declarations of system headers are
** skipped: the standard places on this kind of system, clang's resource
** directory, and the same under a sysroot. */
static int find_sysdirs(priv *p, const char *const *args, size_t nargs)
{
    static const char *const base[] = {
        "/usr/include/", "/usr/local/include/", "/usr/lib/gcc/", "/usr/lib64/gcc/",
        "/usr/lib/llvm-", "/usr/lib/clang/", "/usr/lib64/clang/",
    };
    const size_t nbase = sizeof base / sizeof *base;
    const char *roots[8];
    size_t nroots = 0;
    const char *resource = NULL;
    for (size_t i = 0; i < nargs; i++) {
        const char *a = args[i], *v = NULL;
        if ((strcmp(a, "--sysroot") == 0 || strcmp(a, "-isysroot") == 0) && i + 1 < nargs)
            v = args[++i];
        else if (strncmp(a, "--sysroot=", 10) == 0)
            v = a + 10;
        else if (strncmp(a, "-isysroot", 9) == 0 && a[9])
            v = a + 9;
        else if (strcmp(a, "-resource-dir") == 0 && i + 1 < nargs)
            resource = args[++i];
        else if (strncmp(a, "-resource-dir=", 14) == 0)
            resource = a + 14;
        if (v && nroots < sizeof roots / sizeof *roots)
            roots[nroots++] = v;
    }
    p->sysdirs = toolgov__arena_alloc(&p->arena, (nbase * (nroots + 1) + 1) * sizeof *p->sysdirs);
    if (!p->sysdirs)
        return TOOLGOV_ENOMEM;
    for (size_t i = 0; i < nbase; i++)
        p->sysdirs[p->nsysdirs++] = base[i];
    for (size_t r = 0; r < nroots; r++) {
        char *real = realpath(roots[r], NULL);
        const char *root = real ? real : roots[r];
        for (size_t i = 0; i < nbase; i++) {
            const char *d = sdup(p, strcmp(root, "/") == 0 ? "" : root, base[i]);
            if (!d) {
                free(real);
                return TOOLGOV_ENOMEM;
            }
            p->sysdirs[p->nsysdirs++] = d;
        }
        free(real);
    }
    if (resource) {
        char *real = realpath(resource, NULL);
        const char *d = sdup(p, real ? real : resource, "/");
        free(real);
        if (!d)
            return TOOLGOV_ENOMEM;
        p->sysdirs[p->nsysdirs++] = d;
    }
    return 0;
}

typedef struct run {
    toolgov__scan *s;
    priv *p;
    const argset *as;
    const char *const *sources;
    const toolgov__scan_opts *opts;
} run;

/* The language a source's own "-x" names: 1 C, 2 C++, 0 none given. */
static int own_language(const char *const *args, size_t n)
{
    int lang = 0;
    for (size_t i = 0; i < n; i++) {
        const char *v = NULL;
        if (strcmp(args[i], "-x") == 0 && i + 1 < n)
            v = args[++i];
        else if (strncmp(args[i], "-x", 2) == 0)
            v = args[i] + 2;
        if (v)
            lang = strncmp(v, "c++", 3) == 0 ? 2 : strcmp(v, "c") == 0 ? 1 : lang;
    }
    return lang;
}

/* Source i's own arguments (none when the caller gave none). */
static const char *const *own_args(const run *r, size_t i, size_t *n)
{
    *n = 0;
    if (!r->opts || !r->opts->source_args || !r->opts->source_nargs || !r->opts->source_args[i])
        return NULL;
    *n = r->opts->source_nargs[i];
    return r->opts->source_args[i];
}

/* Is source i parsed as C++: its own -x, else its extension. */
static int source_is_cxx(const run *r, size_t i)
{
    size_t nown;
    const char *const *own = own_args(r, i, &nown);
    int lang = own_language(own, nown);
    return lang ? lang == 2 : is_cxx_source(r->sources[i]);
}

static enum CXErrorCode parse_one(void *ud, CXIndex index, size_t i, CXTranslationUnit *tu)
{
    run *r = ud;
    const char *source = r->sources[i];
    size_t nown;
    const char *const *own = own_args(r, i, &nown);
    int cxx = source_is_cxx(r, i);
    const char **common = cxx ? r->as->cxx : r->as->c;
    size_t ncommon = (size_t)(cxx ? r->as->ncxx : r->as->nc);
    if (nown == 0)
        return clang_parseTranslationUnit2(index, source, common, (int)ncommon, NULL, 0,
                                           PARSE_OPTIONS, tu);
    if (nown > (size_t)INT_MAX - ncommon)
        return CXError_InvalidArguments;
    const char **all = malloc((ncommon + nown) * sizeof *all);
    if (!all)
        return CXError_Failure;
    if (ncommon)
        memcpy((void *)all, (const void *)common, ncommon * sizeof *all);
    memcpy((void *)(all + ncommon), (const void *)own, nown * sizeof *all);
    enum CXErrorCode ec = clang_parseTranslationUnit2(
        index, source, all, (int)(ncommon + nown), NULL, 0, PARSE_OPTIONS, tu);
    free((void *)all);
    return ec;
}

/* The one clang error a handler of an undeclared tool causes: its macro
** names the argument type <plugin>_Args_<tool>, which the generated header
** declares only for declared tools. When every error of the unit is such
** a one, at a handler of that tool that the walk found (clang keeps the
** definition, marked invalid, with its annotation), the errors are dropped:
** the comparison then reports each handler at its place ("not declared",
** with "did you mean"), which is always an error, so the check still fails.
** Any other error keeps all of them. */
static void explain_undeclared(ctx *c, size_t first_diag)
{
    toolgov__scan *s = c->s;
    static const char head[] = "unknown type name '";
    const char *pre = c->p->args_prefix;
    size_t lp = pre ? strlen(pre) : 0, errs = 0, i;
    if (!pre || s->diag_count == first_diag)
        return;
    for (i = first_diag; i < s->diag_count; i++) {
        const toolgov__clang_diag *d = &s->diags[i];
        if (d->severity != TOOLGOV__CLANG_ERROR)
            continue;
        const char *m = d->message;
        size_t lm = strlen(m), h;
        if (strncmp(m, head, sizeof head - 1) != 0 || strncmp(m + sizeof head - 1, pre, lp) != 0 ||
            lm < sizeof head + lp || m[lm - 1] != '\'')
            return;
        const char *tool = m + sizeof head - 1 + lp;
        size_t lt = lm - (sizeof head - 1 + lp) - 1;
        /* Any unit's entry: a definition seen before is not added again. */
        for (h = 0; h < s->handler_count; h++) {
            const toolgov__handler *hd = &s->handlers[h];
            if (hd->tool && strlen(hd->tool) == lt && strncmp(hd->tool, tool, lt) == 0 &&
                (hd->flags & TOOLGOV__HANDLER_DEFINITION) && hd->at.line == d->at.line &&
                hd->at.file && d->at.file && strcmp(hd->at.file, d->at.file) == 0)
                break;
        }
        if (h == s->handler_count)
            return;
        errs++;
    }
    /* Every error of the unit is explained; the rest are their notes. */
    s->diag_count = first_diag;
    s->parse_errors -= errs;
}

/* Take one parsed unit into the scan and dispose of it. */
static int take_unit(void *ud, size_t i, CXTranslationUnit tu, enum CXErrorCode ec)
{
    run *r = ud;
    ctx c;
    int rc = 0;
    memset(&c, 0, sizeof c);
    c.s = r->s;
    c.p = r->p;
    c.first_handler = r->s->handler_count;
    c.source = intern_file(&c, r->sources[i]);
    if (!c.source || list_file(&c, c.source) < 0) {
        rc = TOOLGOV_ENOMEM;
    } else if (ec != CXError_Success || !tu) {
        rc = add_parse_failure(&c, r->sources[i], ec);
    } else {
        CXCursor root = clang_getTranslationUnitCursor(tu);
        size_t first_diag = r->s->diag_count;
        c.cxx = source_is_cxx(r, i);
        rc = collect_diags(&c, tu);
        if (rc == 0)
            clang_getInclusions(tu, visit_inclusion, &c);
        if (rc == 0 && !c.oom)
            clang_visitChildren(root, mark_handler_files, &c);
        if (rc == 0 && !c.oom)
            clang_visitChildren(root, visit, &c);
        if (rc == 0 && !c.oom)
            mark_prototyped(&c);
        if (rc == 0 && !c.oom)
            explain_undeclared(&c, first_diag);
        if (rc == 0 && !c.oom && r->p->header && !c.has_header && c.macro_use.line) {
            toolgov__scan *s = r->s;
            if (grow((void **)&s->headerless, s->headerless_count, &r->p->headerless_cap,
                     sizeof *s->headerless) < 0) {
                rc = TOOLGOV_ENOMEM;
            } else {
                s->headerless[s->headerless_count].source = c.source;
                s->headerless[s->headerless_count++].at = c.macro_use;
            }
        }
        if (rc == 0 && c.oom)
            rc = TOOLGOV_ENOMEM;
    }
    if (tu)
        clang_disposeTranslationUnit(tu);
    free(c.ufiles);
    free(c.protos);
    free(c.types);
    return rc;
}

int toolgov__scan_run(toolgov__scan **out, const char *const *args, size_t nargs,
                      const char *const *sources, size_t nsources,
                      const toolgov__scan_opts *opts)
{
    if (!out || !sources || nsources == 0 || (nargs && !args) || nargs > INT_MAX)
        return TOOLGOV_EINVAL;
    int rc = 0;
    unsigned jobs = opts ? opts->jobs : 0;
    toolgov__scan *s = calloc(1, sizeof *s);
    priv *p = calloc(1, sizeof *p);
    if (!s || !p) {
        free(s);
        free(p);
        return TOOLGOV_ENOMEM;
    }
    s->priv_ = p;
    toolgov__arena_init(&p->arena);
    {
        char buf[4096];
        if (getcwd(buf, sizeof buf)) {
            p->cwd = sdup(p, buf, NULL);
            if (!p->cwd) {
                rc = TOOLGOV_ENOMEM;
                goto out;
            }
        }
    }
    if (opts && opts->plugin) {
        p->header = sdup(p, opts->plugin, ".toolgov.h");
        p->args_prefix = sdup(p, opts->plugin, TOOLGOV_ARGS_INFIX);
        if (!p->header || !p->args_prefix) {
            rc = TOOLGOV_ENOMEM;
            goto out;
        }
    }
    rc = find_sysdirs(p, args, nargs);
    if (rc < 0)
        goto out;
    if (jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
    }
    {
        argset as;
        rc = argset_init(&as, args, (int)nargs);
        if (rc < 0)
            goto out;
        run r = { s, p, &as, sources, opts };
        rc = toolgov__parse_parallel_run(nsources, jobs, parse_one, take_unit, &r);
        argset_free(&as);
    }
out:
    if (rc < 0) {
        toolgov__scan_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void toolgov__scan_free(toolgov__scan *s)
{
    if (!s)
        return;
    priv *p = s->priv_;
    if (p) {
        toolgov__arena_free(&p->arena);
        toolgov__strset_free(&p->files);
        toolgov__strset_free(&p->listed);
        toolgov__strset_free(&p->seen);
        free(p);
    }
    free(s->handlers);
    free(s->registrations);
    free(s->diags);
    free(s->files);
    free(s->headerless);
    free(s);
}
