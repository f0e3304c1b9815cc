/*
** scan.c: find handlers, registration calls, clang errors and the files read,
** in every source of one plugin (see scan.h for the contract).
**
** The traps this code steers around were measured on libclang 14 and are
** written down in docs/drift-check.md: a macro-made function is not "from
** the main file", so places are expansion locations; the annotation is a
** child cursor of the FunctionDecl and a definition inherits it from an
** annotated prototype, so only definitions count and USRs de-duplicate; a
** parenthesised callee has no referenced cursor on the call itself.
*/
#define _POSIX_C_SOURCE 200809L /* getcwd, strdup */

#include <clang-c/Index.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <toolgov/toolgov.h>

#include "scan.h"

/* Strings live in chunks freed together; a scan holds a few hundred of
** them at most (file names dominate). */
typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    char data[];
} chunk;

/* Open-addressing set of strings, for file names (hundreds, from every
** translation unit) and handler/registration identities. */
typedef struct strset {
    const char **slots;
    size_t cap, count;
} strset;

typedef struct priv {
    chunk *chunks;
    strset files;  /* interned file names (locations and inputs) */
    strset listed; /* the subset already in scan->files */
    strset seen; /* identity keys of handlers and registrations */
    size_t handler_cap, registration_cap, diag_cap, file_cap;
    char *cwd; /* for making relative file names absolute */
} priv;

typedef struct ctx {
    toolgov__scan *s;
    priv *p;
    const char *source; /* the source being parsed */
    int oom;
} ctx;

static char *arena_alloc(priv *p, size_t n)
{
    chunk *c = p->chunks;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 16384 ? n : 16384;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = p->chunks;
        c->used = 0;
        c->cap = cap;
        p->chunks = c;
    }
    char *r = c->data + c->used;
    c->used += n;
    return r;
}

static char *arena_strdup2(priv *p, const char *a, const char *b)
{
    size_t la = strlen(a), lb = b ? strlen(b) : 0;
    char *r = arena_alloc(p, la + lb + 1);
    if (!r)
        return NULL;
    memcpy(r, a, la);
    if (lb)
        memcpy(r + la, b, lb);
    r[la + lb] = '\0';
    return r;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* Returns the slot for `key` (empty or holding an equal string). */
static const char **strset_slot(strset *set, const char *key)
{
    size_t mask = set->cap - 1, i = (size_t)hash_str(key) & mask;
    while (set->slots[i] && strcmp(set->slots[i], key) != 0)
        i = (i + 1) & mask;
    return &set->slots[i];
}

/* Find `key`; NULL when absent. */
static const char *strset_find(strset *set, const char *key)
{
    if (!set->cap)
        return NULL;
    return *strset_slot(set, key);
}

/* Insert an arena-owned string. 0, or TOOLGOV_ENOMEM. */
static int strset_add(strset *set, const char *key)
{
    if ((set->count + 1) * 2 > set->cap) {
        size_t ncap = set->cap ? set->cap * 2 : 64;
        const char **old = set->slots;
        size_t ocap = set->cap;
        set->slots = calloc(ncap, sizeof *set->slots);
        if (!set->slots) {
            set->slots = old;
            return TOOLGOV_ENOMEM;
        }
        set->cap = ncap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i])
                *strset_slot(set, old[i]) = old[i];
        free(old);
    }
    const char **slot = strset_slot(set, key);
    if (!*slot) {
        *slot = key;
        set->count++;
    }
    return 0;
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
        found = strset_find(&c->p->files, name);
        if (found)
            return found;
        full = arena_strdup2(c->p, name, NULL);
    } else {
        const char *rel = name;
        while (rel[0] == '.' && rel[1] == '/')
            rel += 2;
        char *tmp = arena_strdup2(c->p, c->p->cwd, "/");
        if (!tmp)
            return NULL;
        full = arena_strdup2(c->p, tmp, rel);
        if (full && (found = strset_find(&c->p->files, full)) != NULL)
            return found;
    }
    if (!full || strset_add(&c->p->files, full) < 0)
        return NULL;
    return full;
}

/* Append an interned name to the list of files read, once. */
static int list_file(ctx *c, const char *f)
{
    if (strset_find(&c->p->listed, f))
        return 0;
    if (strset_add(&c->p->listed, f) < 0 ||
        grow((void **)&c->s->files, c->s->file_count, &c->p->file_cap,
             sizeof *c->s->files) < 0)
        return TOOLGOV_ENOMEM;
    c->s->files[c->s->file_count++] = f;
    return 0;
}

/* Record that a translation unit read `file` (depfile input). */
static void add_file(ctx *c, CXFile file)
{
    CXString n = clang_getFileName(file);
    const char *name = clang_getCString(n);
    if (name && name[0]) {
        const char *f = intern_file(c, name);
        if (!f || list_file(c, f) < 0)
            c->oom = 1;
    }
    clang_disposeString(n);
}

/* Expansion location of `loc`: where the user wrote it, macros unwound. */
static int expansion_loc(ctx *c, CXSourceLocation loc, toolgov__loc *out)
{
    CXFile file = NULL;
    unsigned line = 0, col = 0;
    clang_getExpansionLocation(loc, &file, &line, &col, NULL);
    out->file = NULL;
    out->line = line;
    out->col = col;
    if (file) {
        CXString n = clang_getFileName(file);
        const char *name = clang_getCString(n);
        if (name && name[0]) {
            out->file = intern_file(c, name);
            if (!out->file)
                c->oom = 1;
        }
        clang_disposeString(n);
    }
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
    char *key = arena_alloc(c->p, n);
    if (!key)
        return TOOLGOV_ENOMEM;
    snprintf(key, n, "%s\x1f%s\x1f%s\x1f%s\x1f%u:%u", kind, file, a, b, at->line,
             at->col);
    if (strset_find(&c->p->seen, key))
        return 1;
    return strset_add(&c->p->seen, key) < 0 ? TOOLGOV_ENOMEM : 0;
}

/* --- handlers ------------------------------------------------------------ */

typedef struct annot {
    ctx *c;
    char *tool; /* malloc'd; the first toolgov annotation found */
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
        a->tool = malloc(strlen(text + plen) + 1);
        if (a->tool)
            strcpy(a->tool, text + plen);
        else
            a->c->oom = 1;
    }
    clang_disposeString(sp);
    return CXChildVisit_Continue;
}

static void handle_function(ctx *c, CXCursor fn)
{
    if (!clang_isCursorDefinition(fn))
        return; /* a prototype: its definition, if any, is counted */
    annot a = { c, NULL };
    clang_visitChildren(fn, find_annotation, &a);

    toolgov__scan *s = c->s;
    toolgov__handler h;
    CXString usr = clang_getCursorUSR(fn);
    CXString name = clang_getCursorSpelling(fn);
    /* A definition without the annotation matters only when it looks like
    ** a handler written without the macro: it lets the report say so. */
    if (!a.tool && (c->oom || !strstr(clang_getCString(name), "_tool_")))
        goto out;
    if (expansion_loc(c, clang_getCursorLocation(fn), &h.at) < 0)
        goto out;
    /* One function (USR) defined at one place is one handler, however many
    ** translation units include it. */
    int dup = seen_before(c, "h", a.tool, clang_getCString(usr), &h.at);
    if (dup != 0) {
        if (dup < 0)
            c->oom = 1;
        goto out;
    }
    h.tool = a.tool ? arena_strdup2(c->p, a.tool, NULL) : NULL;
    h.function = arena_strdup2(c->p, clang_getCString(name), NULL);
    if ((a.tool && !h.tool) || !h.function ||
        grow((void **)&s->handlers, s->handler_count, &c->p->handler_cap,
             sizeof *s->handlers) < 0) {
        c->oom = 1;
        goto out;
    }
    s->handlers[s->handler_count++] = h;
out:
    clang_disposeString(usr);
    clang_disposeString(name);
    free(a.tool);
}

/* --- registration calls --------------------------------------------------- */

static const char *const registration_fns[] = {
    "toolgov_register_tool",
    "toolgov_declare_tool",
};

/* The callee's DeclRefExpr, found through implicit casts and parentheses:
** `(toolgov_register_tool)(...)` gives the call itself no referenced
** cursor. */
typedef struct callee_find {
    CXCursor found;
    int have;
} callee_find;

static enum CXChildVisitResult first_declref(CXCursor cur, CXCursor parent,
                                             CXClientData data)
{
    callee_find *f = data;
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_DeclRefExpr) {
        f->found = cur;
        f->have = 1;
        return CXChildVisit_Break;
    }
    if (k == CXCursor_UnexposedExpr || k == CXCursor_ParenExpr)
        return CXChildVisit_Recurse;
    return CXChildVisit_Break; /* the callee is the first child: stop there */
}

/* Which of registration_fns[] a call calls, or -1 for any other call. */
static int registration_kind(CXCursor call)
{
    CXCursor ref = clang_getCursorReferenced(call);
    if (clang_Cursor_isNull(ref) || clang_getCursorKind(ref) != CXCursor_FunctionDecl) {
        callee_find f = { clang_getNullCursor(), 0 };
        clang_visitChildren(call, first_declref, &f);
        if (!f.have)
            return -1;
        ref = clang_getCursorReferenced(f.found);
        if (clang_Cursor_isNull(ref) || clang_getCursorKind(ref) != CXCursor_FunctionDecl)
            return -1;
    }
    CXString sp = clang_getCursorSpelling(ref);
    const char *name = clang_getCString(sp);
    int kind = -1;
    for (size_t i = 0; name && i < sizeof registration_fns / sizeof *registration_fns; i++)
        if (strcmp(name, registration_fns[i]) == 0)
            kind = (int)i;
    clang_disposeString(sp);
    return kind;
}

static void handle_call(ctx *c, CXCursor call)
{
    int kind = registration_kind(call);
    if (kind < 0)
        return;
    toolgov__scan *s = c->s;
    toolgov__registration r;
    r.callee = registration_fns[kind];
    r.name = NULL;
    char *value = NULL;
    CXCursor arg = clang_getNullCursor();
    if (clang_Cursor_getNumArguments(call) >= 2)
        arg = clang_Cursor_getArgument(call, 1);
    CXSourceLocation where =
        clang_Cursor_isNull(arg) ? clang_getCursorLocation(call) : clang_getCursorLocation(arg);
    if (expansion_loc(c, where, &r.at) < 0)
        return;
    if (!clang_Cursor_isNull(arg)) {
        /* clang folds "a" "b" and #name; anything it cannot fold to a
        ** string is a name computed at run time. */
        CXEvalResult ev = clang_Cursor_Evaluate(arg);
        if (ev) {
            if (clang_EvalResult_getKind(ev) == CXEval_StrLiteral) {
                const char *str = clang_EvalResult_getAsStr(ev);
                if (str) {
                    value = arena_strdup2(c->p, str, NULL);
                    if (!value)
                        c->oom = 1;
                }
            }
            clang_EvalResult_dispose(ev);
        }
    }
    if (c->oom)
        return;
    int dup = seen_before(c, "r", r.callee, value ? value : "\x1e", &r.at);
    if (dup != 0) {
        if (dup < 0)
            c->oom = 1;
        return;
    }
    r.name = value;
    if (grow((void **)&s->registrations, s->registration_count,
             &c->p->registration_cap, sizeof *s->registrations) < 0) {
        c->oom = 1;
        return;
    }
    s->registrations[s->registration_count++] = r;
}

static enum CXChildVisitResult visit_body(CXCursor cur, CXCursor parent,
                                          CXClientData data)
{
    ctx *c = data;
    (void)parent;
    if (c->oom)
        return CXChildVisit_Break;
    if (clang_getCursorKind(cur) == CXCursor_CallExpr)
        handle_call(c, cur);
    return CXChildVisit_Recurse;
}

static enum CXChildVisitResult visit_top(CXCursor cur, CXCursor parent,
                                         CXClientData data)
{
    ctx *c = data;
    (void)parent;
    if (c->oom)
        return CXChildVisit_Break;
    /* libc and friends declare thousands of functions and define none of
    ** ours: skipping them is most of the speed of the walk. */
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(cur)))
        return CXChildVisit_Continue;
    switch (clang_getCursorKind(cur)) {
    case CXCursor_FunctionDecl:
        handle_function(c, cur);
        if (clang_isCursorDefinition(cur))
            clang_visitChildren(cur, visit_body, c);
        return CXChildVisit_Continue;
    case CXCursor_LinkageSpec:   /* extern "C" { ... } in C++ */
    case CXCursor_Namespace:
    case CXCursor_UnexposedDecl:
        return CXChildVisit_Recurse;
    case CXCursor_VarDecl:       /* a C++ initializer may call anything */
        clang_visitChildren(cur, visit_body, c);
        return CXChildVisit_Continue;
    default:
        return CXChildVisit_Continue;
    }
}

/* --- diagnostics and inclusions ------------------------------------------ */

static int add_diag(ctx *c, CXDiagnostic dg, toolgov__clang_severity sev)
{
    toolgov__scan *s = c->s;
    toolgov__clang_diag d;
    d.severity = sev;
    d.source = c->source;
    if (expansion_loc(c, clang_getDiagnosticLocation(dg), &d.at) < 0)
        return TOOLGOV_ENOMEM;
    CXString msg = clang_getDiagnosticSpelling(dg);
    const char *m = clang_getCString(msg);
    d.message = arena_strdup2(c->p, m ? m : "", NULL);
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

static void visit_inclusion(CXFile included, CXSourceLocation *stack,
                            unsigned len, CXClientData data)
{
    (void)stack;
    (void)len;
    ctx *c = data;
    if (!c->oom)
        add_file(c, included);
}

/* A parse that produced no translation unit at all (unreadable file, bad
** arguments): an error at the source, so the check still fails closed. */
static int add_parse_failure(ctx *c, const char *source, enum CXErrorCode ec)
{
    toolgov__scan *s = c->s;
    toolgov__clang_diag d;
    d.severity = TOOLGOV__CLANG_ERROR;
    d.source = c->source;
    d.at.file = intern_file(c, source);
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
        d.message = arena_strdup2(c->p, "cannot read this source: ", strerror(errno));
    }
    if (!d.at.file || !d.message ||
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

static enum CXErrorCode parse_one(CXIndex index, const argset *as, const char *source,
                                  CXTranslationUnit *tu)
{
    int cxx = is_cxx_source(source);
    return clang_parseTranslationUnit2(index, source, cxx ? as->cxx : as->c,
                                       cxx ? as->ncxx : as->nc, NULL, 0, PARSE_OPTIONS, tu);
}

/* Parsing is nearly all of the cost, so with several sources it runs on
** worker threads, each with its own CXIndex (libclang is safe across
** threads when no two use the same index or translation unit at once).
** Everything else (diagnostics, inclusions, the walk, every write to the
** scan) stays on the calling thread, which takes the parsed units in source
** order: the result is the same as a sequential run, byte for byte. */
typedef struct parsed {
    CXTranslationUnit tu;
    enum CXErrorCode ec;
    int done;
} parsed;

typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    parsed *units;
    size_t next;     /* next source to hand to a worker */
    size_t finished; /* sources parsed so far */
    int stop;        /* the caller gave up (out of memory): parse no more */
    int release;     /* every unit is disposed: workers may drop their index */
    const char *const *sources;
    size_t nsources;
    const argset *args;
} pool;

static void *parse_worker(void *arg)
{
    pool *pl = arg;
    CXIndex index = clang_createIndex(0, 0);
    for (;;) {
        size_t i = pl->nsources;
        pthread_mutex_lock(&pl->mu);
        if (!pl->stop && pl->next < pl->nsources)
            i = pl->next++;
        pthread_mutex_unlock(&pl->mu);
        if (i >= pl->nsources)
            break;
        CXTranslationUnit tu = NULL;
        enum CXErrorCode ec = index ? parse_one(index, pl->args, pl->sources[i], &tu)
                                    : CXError_Failure;
        pthread_mutex_lock(&pl->mu);
        pl->units[i].tu = tu;
        pl->units[i].ec = ec;
        pl->units[i].done = 1;
        pl->finished++;
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
    }
    /* An index must outlive every unit made with it: wait until the caller
    ** has disposed of them all. */
    pthread_mutex_lock(&pl->mu);
    while (!pl->release)
        pthread_cond_wait(&pl->cv, &pl->mu);
    pthread_mutex_unlock(&pl->mu);
    if (index)
        clang_disposeIndex(index);
    return NULL;
}

/* Take one parsed unit into the scan and dispose of it. */
static int take_unit(toolgov__scan *s, priv *p, const char *source, CXTranslationUnit tu,
                     enum CXErrorCode ec)
{
    ctx c = { s, p, NULL, 0 };
    int rc = 0;
    c.source = intern_file(&c, source);
    if (!c.source || list_file(&c, c.source) < 0) {
        rc = TOOLGOV_ENOMEM;
    } else if (ec != CXError_Success || !tu) {
        rc = add_parse_failure(&c, source, ec);
    } else {
        rc = collect_diags(&c, tu);
        if (rc == 0)
            clang_getInclusions(tu, visit_inclusion, &c);
        if (rc == 0 && !c.oom)
            clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, &c);
        if (rc == 0 && c.oom)
            rc = TOOLGOV_ENOMEM;
    }
    if (tu)
        clang_disposeTranslationUnit(tu);
    return rc;
}

static int run_sequential(toolgov__scan *s, priv *p, const argset *args,
                          const char *const *sources, size_t nsources)
{
    int rc = 0;
    CXIndex index = clang_createIndex(0, 0);
    if (!index)
        return TOOLGOV_ENOMEM;
    for (size_t i = 0; i < nsources && rc == 0; i++) {
        CXTranslationUnit tu = NULL;
        enum CXErrorCode ec = parse_one(index, args, sources[i], &tu);
        rc = take_unit(s, p, sources[i], tu, ec);
    }
    clang_disposeIndex(index);
    return rc;
}

static int run_parallel(toolgov__scan *s, priv *p, const argset *args,
                        const char *const *sources, size_t nsources, unsigned jobs)
{
    pool pl;
    pthread_t *threads = calloc(jobs, sizeof *threads);
    unsigned started = 0;
    int rc = 0;
    memset(&pl, 0, sizeof pl);
    pl.units = calloc(nsources, sizeof *pl.units);
    pl.sources = sources;
    pl.nsources = nsources;
    pl.args = args;
    if (!threads || !pl.units) {
        free(threads);
        free(pl.units);
        return run_sequential(s, p, args, sources, nsources);
    }
    /* libclang sets up process-wide state lazily on its first parse, not
    ** safely from several threads at once (ThreadSanitizer shows the race):
    ** the first source is parsed here, before any worker starts. */
    {
        CXIndex index = clang_createIndex(0, 0);
        CXTranslationUnit tu = NULL;
        enum CXErrorCode ec = index ? parse_one(index, args, sources[0], &tu)
                                    : CXError_Failure;
        rc = take_unit(s, p, sources[0], tu, ec);
        if (index)
            clang_disposeIndex(index);
        pl.units[0].done = 1;
        pl.next = pl.finished = 1;
        if (rc < 0 || nsources == 1) {
            free(threads);
            free(pl.units);
            return rc;
        }
    }
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    for (unsigned t = 0; t < jobs; t++)
        if (pthread_create(&threads[started], NULL, parse_worker, &pl) == 0)
            started++;
    if (started == 0) {
        rc = 1; /* no thread: parse here instead */
    } else {
        for (size_t i = 1; i < nsources && rc == 0; i++) {
            pthread_mutex_lock(&pl.mu);
            while (!pl.units[i].done)
                pthread_cond_wait(&pl.cv, &pl.mu);
            pthread_mutex_unlock(&pl.mu);
            rc = take_unit(s, p, sources[i], pl.units[i].tu, pl.units[i].ec);
            pl.units[i].tu = NULL; /* disposed by take_unit */
        }
        /* On failure, hand out nothing more and let running parses end. */
        pthread_mutex_lock(&pl.mu);
        pl.stop = 1;
        while (pl.finished < pl.next)
            pthread_cond_wait(&pl.cv, &pl.mu);
        pthread_mutex_unlock(&pl.mu);
        for (size_t i = 0; i < nsources; i++)
            if (pl.units[i].tu)
                clang_disposeTranslationUnit(pl.units[i].tu);
        pthread_mutex_lock(&pl.mu);
        pl.release = 1;
        pthread_cond_broadcast(&pl.cv);
        pthread_mutex_unlock(&pl.mu);
        for (unsigned t = 0; t < started; t++)
            pthread_join(threads[t], NULL);
    }
    pthread_cond_destroy(&pl.cv);
    pthread_mutex_destroy(&pl.mu);
    free(threads);
    free(pl.units);
    if (rc == 1)
        rc = run_sequential(s, p, args, sources + 1, nsources - 1);
    return rc;
}

int toolgov__scan_run(toolgov__scan **out, const char *const *args, size_t nargs,
                      const char *const *sources, size_t nsources, unsigned jobs)
{
    if (!out || !sources || nsources == 0 || (nargs && !args) || nargs > INT_MAX)
        return TOOLGOV_EINVAL;
    int rc = 0;
    toolgov__scan *s = calloc(1, sizeof *s);
    priv *p = calloc(1, sizeof *p);
    if (!s || !p) {
        free(s);
        free(p);
        return TOOLGOV_ENOMEM;
    }
    s->priv_ = p;
    {
        char buf[4096];
        if (getcwd(buf, sizeof buf)) {
            p->cwd = strdup(buf);
            if (!p->cwd) {
                rc = TOOLGOV_ENOMEM;
                goto out;
            }
        }
    }
    if (jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
    }
    if (jobs > nsources)
        jobs = (unsigned)nsources;
    {
        argset as;
        rc = argset_init(&as, args, (int)nargs);
        if (rc < 0)
            goto out;
        if (jobs <= 1)
            rc = run_sequential(s, p, &as, sources, nsources);
        else
            rc = run_parallel(s, p, &as, sources, nsources, jobs);
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
        chunk *c = p->chunks;
        while (c) {
            chunk *next = c->next;
            free(c);
            c = next;
        }
        free(p->files.slots);
        free(p->listed.slots);
        free(p->seen.slots);
        free(p->cwd);
        free(p);
    }
    free(s->handlers);
    free(s->registrations);
    free(s->diags);
    free(s->files);
    free(s);
}
