/* SPDX-License-Identifier: MIT */
/*
** params_pool.c: parameters texts compiled on a worker thread while the
** loader reads the rest (params_pool.h has the contract).
**
** One mutex guards the texts' states; a text is compiled by whichever
** thread takes it first, the worker from the back of the list, the
** loader when its reader reaches a text the worker has not taken yet. Each
** thread compiles into arenas and a decoder of its own (an executor), so
** compiling shares nothing but the read-only buffer.
*/
#include "params_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/args.h>

#include "buf.h"
#include "cpus.h"
#include "params_fast.h"
#include "reader.h"
#include "schema_c.h"
#include "text.h"

enum { TEXT_WAITING, TEXT_TAKEN, TEXT_DONE };

typedef struct ptext {
    size_t ls, colon_end, resume; /* its line, the byte after the colon, the
                                  ** line reading goes on at */
    unsigned line;                /* of ls, 1-based */
    size_t same;                  /* index + 1 of an earlier text equal to
                                  ** this one (which is compiled instead); 0 */
    int state;                    /* under mu */
    const toolgov__snode *params; /* TEXT_DONE: NULL when it reported */
} ptext;

typedef struct executor {
    toolgov__arena arena;   /* the trees */
    toolgov__arena scratch; /* one text's value tree, reset per text */
    toolgov__diag d;        /* counts what a text reports; never printed */
    toolgov_args_decoder *dec;
} executor;

struct toolgov__ppool {
    const char *path;
    const unsigned char *buf;
    size_t len;
    ptext *v;
    size_t n;
    size_t distinct; /* texts with no equal earlier one */
    size_t cursor;   /* the skip hook's next text (loader thread only) */
    size_t next;     /* under mu: the worker takes texts from the back,
                     ** v[next - 1] first, while the loader takes them
                     ** from the front as its walk needs them; they meet
                     ** where the work is shared evenly */
    int stop;        /* under mu: the loader is done, take no more */
    int failed;      /* the loader took a tag it was not given (loader
                     ** thread only; cannot happen) */
    int libyaml_only; /* every text read with libyaml (the tests' other way) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t worker;
    int have_worker;
    executor ex[2];  /* 0: the loader's, 1: the worker's */
};

static int push(toolgov__ppool *p, size_t *cap, const ptext *t)
{
    if (!p->v || p->n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 256;
        ptext *nv = ncap <= SIZE_MAX / sizeof *nv ? realloc(p->v, ncap * sizeof *nv) : NULL;
        if (!nv)
            return -1;
        p->v = nv;
        *cap = ncap;
    }
    p->v[p->n++] = *t;
    return 0;
}

/* Every text the pool can take, in file order, found in one walk over the
** lines: a line of spaces and `parameters:` opens a text; the first later
** line indented as much or less that starts a token closes it, as
** toolgov__text_value_end() would (lines that open texts inside an open
** one are left to the reader: it never asks about them while it skips the
** outer one). A text the end of the file closes is read inline. 0; 1 when
** the first 4 * min_texts texts change fewer than min_texts times from one
** to the next (a manifest of runs of one text: the memo's work); -1 when
** out of memory. */
static int find_texts(toolgov__ppool *p, size_t min_texts)
{
    static const char key[] = "parameters:";
    const unsigned char *b = p->buf;
    size_t n = p->len, cap = 0, changes = 0, i = 0, open_ls = 0, open_kcol = 0;
    unsigned line = 1, open_line = 0;
    int open = 0;
    while (i < n) {
        const unsigned char *nl;
        size_t col = 0, j = i;
        while (j < n && b[j] == ' ')
            j++, col++;
        if (open && toolgov__text_ends_value(b, n, j, col, open_kcol)) {
            /* closes the open text, when a token starts at j */
            size_t rs = i;
            open = 0;
            if (toolgov__text_token_at(b, n, j)) {
                ptext t;
                const ptext *last = p->n ? &p->v[p->n - 1] : NULL;
                t.ls = open_ls;
                t.colon_end = open_ls + open_kcol + sizeof key - 1;
                t.resume = rs;
                t.line = open_line;
                t.same = 0;
                t.state = TEXT_WAITING;
                t.params = NULL;
                if (last && last->resume - last->ls == rs - open_ls &&
                    memcmp(b + last->ls, b + open_ls, rs - open_ls) == 0) {
                    /* a run of one text: the first of the run is compiled */
                    t.same = last->same ? last->same : p->n;
                    t.state = TEXT_DONE;
                } else {
                    changes++;
                }
                if (push(p, &cap, &t))
                    return -1;
                if (p->n == 4 * min_texts && changes < min_texts)
                    return 1;
            }
        }
        if (!open && col > 0 && i > 0 && n - j >= sizeof key - 1 &&
            memcmp(b + j, key, sizeof key - 1) == 0) {
            open = 1;
            open_ls = i;
            open_kcol = col;
            open_line = line;
        }
        nl = memchr(b + j, '\n', n - j);
        if (!nl)
            break;
        i = (size_t)(nl - b) + 1;
        line++;
    }
    return 0;
}

/* Mark every text equal to an earlier one (those equal to the one before
** them are marked already). */
static int find_same(toolgov__ppool *p)
{
    size_t cap = 64, mask, i;
    uint32_t *slots;
    uint64_t *hashes;
    while (cap < p->n * 2)
        cap *= 2;
    slots = calloc(cap, sizeof *slots);
    hashes = malloc(p->n * sizeof *hashes);
    if (!slots || !hashes) {
        free(slots);
        free(hashes);
        return -1;
    }
    mask = cap - 1;
    p->distinct = 0;
    for (i = 0; i < p->n; i++) {
        ptext *t = &p->v[i];
        size_t len = t->resume - t->ls, k;
        if (t->same)
            continue; /* in a run of one text (find_texts): no hash */
        hashes[i] = toolgov__hash_bytes(p->buf + t->ls, len);
        for (k = toolgov__hash_slot(hashes[i], mask); slots[k]; k = (k + 1) & mask) {
            const ptext *e = &p->v[slots[k] - 1];
            if (hashes[slots[k] - 1] == hashes[i] && e->resume - e->ls == len &&
                memcmp(p->buf + e->ls, p->buf + t->ls, len) == 0)
                break;
        }
        if (slots[k]) {
            t->same = slots[k];
            t->state = TEXT_DONE; /* nothing to compile: its tree is the other's */
        } else {
            slots[k] = (uint32_t)(i + 1);
            p->distinct++;
        }
    }
    free(slots);
    free(hashes);
    return 0;
}

static int event_is(toolgov__reader *r, yaml_event_type_t type)
{
    return toolgov__reader_next(r) == 0 && r->ev.type == type;
}

/* Read text t alone and compile it with ex: the tree, or NULL when anything
** was reported or the text did not read as one `parameters:` key. */
static const toolgov__snode *compile_text(const toolgov__ppool *p, executor *ex,
                                          const ptext *t)
{
    toolgov__reader r;
    toolgov__schema_ctx cx;
    toolgov__jval *v = NULL;
    toolgov__snode *n = NULL;
    size_t errors = ex->d.errors, warnings = ex->d.warnings;
    toolgov__mark kat;
    int ok = 0;

    kat.line = t->line;
    kat.col = (unsigned)(t->colon_end - t->ls - (sizeof "parameters:" - 1)) + 1;
    if (!p->libyaml_only) {
        /* Most texts are in the subset the reader without libyaml knows. */
        int got;
        toolgov__arena_reset(&ex->scratch);
        memset(&cx, 0, sizeof cx);
        cx.arena = &ex->scratch;
        cx.d = &ex->d;
        cx.path = p->path;
        got = toolgov__params_fast_read(&cx, p->buf + t->ls, t->resume - t->ls, t->line,
                                        kat.col - 1, &v);
        if (got < 0)
            return NULL;
        if (got > 0) {
            cx.arena = &ex->arena;
            cx.scratch = &ex->scratch;
            cx.dec = ex->dec;
            if (v->kind != TOOLGOV_J_NULL && toolgov__schema_compile(&cx, v, kat, &n) == 0 &&
                !cx.oom && n && ex->d.errors == errors && ex->d.warnings == warnings) {
                /* the loader's C-name check need not walk this tree again */
                n->names_distinct = toolgov__schema_c_tree_distinct(n) == 1;
                return n;
            }
            return NULL;
        }
        if (ex->d.errors != errors || ex->d.warnings != warnings)
            return NULL;
        v = NULL;
    }
    if (toolgov__reader_open_slice(&r, p->path, p->buf + t->ls, t->resume - t->ls, t->line - 1,
                                   &ex->d))
        return NULL;
    if (event_is(&r, YAML_STREAM_START_EVENT) && event_is(&r, YAML_DOCUMENT_START_EVENT) &&
        event_is(&r, YAML_MAPPING_START_EVENT) && event_is(&r, YAML_SCALAR_EVENT) &&
        toolgov__reader_plain(&r) && toolgov__reader_len(&r) == 10 &&
        memcmp(toolgov__reader_text(&r), "parameters", 10) == 0 &&
        toolgov__reader_next(&r) == 0) {
        toolgov__arena_reset(&ex->scratch);
        memset(&cx, 0, sizeof cx);
        cx.arena = &ex->scratch;
        cx.d = &ex->d;
        cx.path = p->path;
        if (toolgov__schema_read_yaml(&cx, &r, &v) == 0 && !cx.oom &&
            v->kind != TOOLGOV_J_NULL) {
            cx.arena = &ex->arena;
            cx.scratch = &ex->scratch;
            cx.dec = ex->dec;
            if (toolgov__schema_compile(&cx, v, kat, &n) == 0 && !cx.oom &&
                event_is(&r, YAML_MAPPING_END_EVENT) && event_is(&r, YAML_DOCUMENT_END_EVENT) &&
                event_is(&r, YAML_STREAM_END_EVENT))
                ok = 1;
        }
    }
    toolgov__reader_close(&r);
    if (!ok || !n || ex->d.errors != errors || ex->d.warnings != warnings)
        return NULL;
    n->names_distinct = toolgov__schema_c_tree_distinct(n) == 1;
    return n;
}

static void *work(void *arg)
{
    toolgov__ppool *p = arg;
    executor *ex = &p->ex[1];
    for (;;) {
        size_t i;
        pthread_mutex_lock(&p->mu);
        while (!p->stop && p->next > 0 && p->v[p->next - 1].state != TEXT_WAITING)
            p->next--;
        if (p->stop || p->next == 0) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        i = --p->next;
        p->v[i].state = TEXT_TAKEN;
        pthread_mutex_unlock(&p->mu);
        {
            const toolgov__snode *n = compile_text(p, ex, &p->v[i]);
            pthread_mutex_lock(&p->mu);
            p->v[i].params = n;
            p->v[i].state = TEXT_DONE;
            pthread_cond_broadcast(&p->cv);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

static void executor_free(executor *ex)
{
    toolgov__arena_free(&ex->arena);
    toolgov__arena_free(&ex->scratch);
    toolgov_args_decoder_free(ex->dec);
    (void)toolgov__diag_finish(&ex->d);
}

static void pool_free(toolgov__ppool *p)
{
    executor_free(&p->ex[0]);
    executor_free(&p->ex[1]);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p->v);
    free(p);
}

toolgov__ppool *toolgov__ppool_start(const char *path, const unsigned char *buf, size_t len,
                                     size_t min_texts, int flags)
{
    toolgov__ppool *p;
    size_t ls, seen = 0;
    int e, worker = (flags & TOOLGOV__PPOOL_FORCE) ||
                    (!(flags & TOOLGOV__PPOOL_ALONE) && toolgov__usable_cpus() >= 2);
    /* Too few texts: leave before allocating anything. */
    if (!min_texts)
        min_texts = 1;
    for (ls = toolgov__text_params_line(buf, len, 0); ls < len && seen < min_texts;
         ls = toolgov__text_params_line(buf, len, ls + 1))
        seen++;
    if (seen < min_texts)
        return NULL;
    p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->path = path;
    p->buf = buf;
    p->len = len;
    p->libyaml_only = (flags & TOOLGOV__PPOOL_LIBYAML) != 0;
    for (e = 0; e < 2; e++) {
        toolgov__arena_init(&p->ex[e].arena);
        toolgov__arena_init(&p->ex[e].scratch);
        toolgov__diag_init(&p->ex[e].d, NULL, 1);
        p->ex[e].d.format = TOOLGOV_DIAG_JSON; /* records, no sink */
    }
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->cv, NULL) != 0) {
        pthread_mutex_destroy(&p->mu);
        free(p);
        return NULL;
    }
    /* A manifest of one text repeated is the memo's work (manifest.c),
    ** which leaves libyaml nothing to read; with min_texts distinct texts
    ** or more the pool pays, repeats among them included (they cost it a
    ** hash each, the memo a guess and a hash). */
    if (find_texts(p, min_texts) || p->n < min_texts || find_same(p) ||
        p->distinct < min_texts ||
        (p->next = p->n, 0) ||
        toolgov_args_decoder_new(&p->ex[0].dec, NULL) != 0 ||
        toolgov_args_decoder_new(&p->ex[1].dec, NULL) != 0 ||
        (worker && pthread_create(&p->worker, NULL, work, p) != 0)) {
        pool_free(p);
        return NULL;
    }
    /* Without a worker (one CPU) the loader compiles every text itself,
    ** as its walk reaches it: still without libyaml where params_fast can,
    ** and left out of libyaml's input. */
    p->have_worker = worker;
    return p;
}

/* Text t compiled, by the worker (waiting for it) or on this thread. */
static const toolgov__snode *compiled(toolgov__ppool *p, ptext *t)
{
    int mine = 0;
    pthread_mutex_lock(&p->mu);
    if (t->state == TEXT_WAITING) {
        t->state = TEXT_TAKEN;
        mine = 1;
    } else {
        while (t->state != TEXT_DONE)
            pthread_cond_wait(&p->cv, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    if (mine) {
        const toolgov__snode *n = compile_text(p, &p->ex[0], t);
        pthread_mutex_lock(&p->mu);
        t->params = n;
        t->state = TEXT_DONE;
        pthread_mutex_unlock(&p->mu);
    }
    return t->params; /* a text once done is never written again */
}

int toolgov__ppool_skip(void *ctx, size_t ls, size_t *colon_end, size_t *resume, size_t *tag)
{
    toolgov__ppool *p = ctx;
    ptext *t;
    while (p->cursor < p->n && p->v[p->cursor].ls < ls)
        p->cursor++;
    if (p->cursor >= p->n || p->v[p->cursor].ls != ls)
        return 0;
    t = &p->v[p->cursor];
    /* A text that reported read alone is read in place, the plain way:
    ** there it reports at its own place, or turns out not to be a tool's
    ** parameters at all (a line of a block scalar, say). */
    if (!compiled(p, t->same ? &p->v[t->same - 1] : t))
        return 0;
    *colon_end = t->colon_end;
    *resume = t->resume;
    *tag = p->cursor + 1;
    return 1;
}

const toolgov__snode *toolgov__ppool_take(toolgov__ppool *p, size_t tag, unsigned *line)
{
    const ptext *t;
    int ok;
    if (!tag || tag > p->n) {
        p->failed = 1;
        return NULL;
    }
    t = &p->v[tag - 1];
    if (t->same)
        t = &p->v[t->same - 1];
    /* The skip hook saw it compiled cleanly on this thread; a tag it did
    ** not hand out may name a text the worker is on: looked at under mu. */
    pthread_mutex_lock(&p->mu);
    ok = t->state == TEXT_DONE && t->params;
    pthread_mutex_unlock(&p->mu);
    if (!ok) {
        p->failed = 1;
        return NULL;
    }
    *line = t->line;
    return t->params;
}

void toolgov__ppool_stop(toolgov__ppool *p)
{
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_mutex_unlock(&p->mu);
}

int toolgov__ppool_finish(toolgov__ppool *p, toolgov__arena *keep)
{
    int failed;
    if (!p)
        return 0;
    toolgov__ppool_stop(p);
    if (p->have_worker)
        pthread_join(p->worker, NULL);
    failed = p->failed;
    toolgov__arena_adopt(keep, &p->ex[0].arena);
    toolgov__arena_adopt(keep, &p->ex[1].arena);
    pool_free(p);
    return failed ? -1 : 0;
}
