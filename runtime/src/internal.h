/* SPDX-License-Identifier: MIT */
/*
** internal.h: the runtime's private types, shared by its modules only.
**
** The registry keeps its tools in an array in registration order (built-ins
** first) and indexes them with an open-addressing hash table of (hash, index)
** slots, linear probing, at most half full. Lookup hashes the name once,
** probes a few adjacent slots and compares one name: no allocation, and the
** same few cache lines whatever the pool's size. The table is rebuilt in
** place (no allocation) when a failed mount rolls the pool back.
*/
#ifndef TOOLGOV_INTERNAL_H
#define TOOLGOV_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "toolgov/toolgov.h"
#include "toolgov/audit.h"
#include "toolgov/drift.h"
#include "toolgov/grants.h"
#include "toolgov/policy.h"
#include "toolgov/run.h"
#include "toolgov/prompt.h"
#include "toolgov/shortlist.h"

#include "jbuf.h"
#include "out.h"

/* Indexes of the built-ins in every registry (registration order). */
enum {
    TOOLGOV__BUILTIN_MEMORY_SEARCH = 0,
    TOOLGOV__BUILTIN_ASK_USER = 1,
    TOOLGOV__BUILTIN_COUNT = 9
};

/* The built-ins' parameters (core_args.c), in the order of the rows. */
extern const toolgov_arg_schema toolgov__core_params[TOOLGOV__BUILTIN_COUNT];
extern const char toolgov__core_schema_memory_search[];
extern const char toolgov__core_schema_ask_user[];
extern const char toolgov__core_schema_memory_correct[];
extern const char toolgov__core_schema_memory_forget[];
extern const char toolgov__core_schema_memory_restore[];
extern const char toolgov__core_schema_record_feedback[];
extern const char toolgov__core_schema_promote_recommendation[];
extern const char toolgov__core_schema_propose_skill_from_sandbox[];
extern const char toolgov__core_schema_invoke_pending_action[];

/* Code a run reaches only in rare cases (an observer set, say): out of
** line and laid out away from the hot path. */
#if defined(__GNUC__) || defined(__clang__)
#define TOOLGOV__COLD __attribute__((cold, noinline))
#else
#define TOOLGOV__COLD
#endif

/* Name of the owner of built-in tools in drift rows and owner queries. */
#define TOOLGOV__CORE_OWNER "core"

/* ---- allocation (core.c) ---- */
void *toolgov__alloc(const toolgov_allocator *a, size_t n);
void *toolgov__realloc(const toolgov_allocator *a, void *p, size_t osize, size_t nsize);
void toolgov__free(const toolgov_allocator *a, void *p, size_t osize);
/* Copy len bytes plus a NUL; NULL on failure. Free with size len + 1. */
char *toolgov__memdup(const toolgov_allocator *a, const char *s, size_t len);
/* Grow *arr (of *cap elements of elem bytes) to hold at least need. */
int toolgov__reserve(const toolgov_allocator *a, void **arr, size_t *cap,
                     size_t need, size_t elem);

/* ---- hashing ---- */

/* Tool names are short; hashing them eight bytes at a time in two
** independent lanes keeps the multiply chain short, which is most of a
** lookup's latency (byte-wise FNV would take the gate's whole budget). The
** final folds bring every input bit into the low bits the index masks with. */
static inline uint32_t toolgov__hash(const char *s, size_t len)
{
    uint64_t a = (uint64_t)len * 0x9e3779b97f4a7c15ull, b = 0x632be59bd9b4e019ull;
    uint64_t w, v;

    while (len >= 16) {
        memcpy(&w, s, 8);
        memcpy(&v, s + 8, 8);
        a = (a ^ w) * 0x9e3779b97f4a7c15ull;
        b = (b ^ v) * 0xc2b2ae3d27d4eb4full;
        s += 16;
        len -= 16;
    }
    if (len >= 8) {
        memcpy(&w, s, 8);
        a = (a ^ w) * 0x9e3779b97f4a7c15ull;
        s += 8;
        len -= 8;
    }
    if (len) {
        unsigned char tail[8] = {0};

        memcpy(tail, s, len);
        memcpy(&v, tail, 8);
        b = (b ^ v) * 0xc2b2ae3d27d4eb4full;
    }
    a ^= (b << 32 | b >> 32) ^ (a >> 31);
    a *= 0xd6e8feb86659fd93ull;
    a ^= a >> 32;
    return (uint32_t)a;
}

/* FNV-1a 64 (core.c): checksums and fingerprints, not the hot path. */
uint64_t toolgov__fnv64(uint64_t h, const void *p, size_t len);
#define TOOLGOV__FNV64_INIT 0xcbf29ce484222325ull

/* ---- result buffers (core.c) ---- */
/* A handler's output: the one growable buffer (jbuf.h), NUL-terminated
** after every write; ptr is NULL until the first. */
struct toolgov_result {
    toolgov__jbuf b;
};
void toolgov__result_init(toolgov_result *r, const toolgov_allocator *a);
void toolgov__result_clear(toolgov_result *r); /* len 0, keeps the buffer */
void toolgov__result_free(toolgov_result *r);

/* ---- the snprintf-style writer: out.h (out.c) ---- */

/* ---- crypto (seal.c; seal.h has the sealed texts) ---- */
/* libsodium's own initialisation (idempotent, thread-safe): 1 when ready. */
int toolgov__crypto_ready(void);
/* A random identity: 16 bytes from the system's secure source as 32 hex
** digits and a NUL into id (at least 33 bytes); *len = 32. Only after
** toolgov__crypto_ready(). */
void toolgov__random_id(char *id, size_t *len);

/* ---- registry (registry.c) ---- */
/* A pooled tool. The fields the gate and lookup read (name, length, hash,
** effect bits) sit together here so a decision touches this entry and the
** name's bytes, not the spec row as well. */
typedef struct toolgov__tool {
    const char *name;             /* spec->name */
    uint32_t name_len;
    uint32_t hash;
    unsigned char effect;         /* spec->effect */
    unsigned char answers_directly;
    uint32_t guidance_hash;       /* prompt dedup: strcmp only on equal hashes */
    const char *guidance;         /* spec->guidance, "" for NULL */
    const toolgov_tool_spec *spec;
    toolgov_handler_fn handler;
    void *ctx;
    const toolgov_plugin *plugin; /* NULL for built-ins */
    struct toolgov__args_prep *prep; /* its defaults made once (args.c), owned
                                     ** by the registry; NULL: none */
} toolgov__tool;

typedef struct toolgov__slot {
    uint32_t hash;
    uint32_t idx1; /* index + 1; 0 marks an empty slot */
} toolgov__slot;

/* A list of drift rows: the registry's (mount problems) or a policy's
** (override problems). Every row and its strings are owned by the list. */
typedef struct toolgov__row {
    toolgov_drift_row row;
    char *mem;      /* owned strings the row points into */
    size_t memsize;
} toolgov__row;

typedef struct toolgov__rows {
    toolgov__row *v;
    size_t n, cap;
} toolgov__rows;

/* A mounted plugin and what became of each tool its manifest declares
** (a toolgov_tool_status per manifest row), kept for
** toolgov_registry_plugin_tool_at() and to refuse a second mount. */
typedef struct toolgov__mounted {
    const toolgov_plugin *plugin;
    unsigned char *status; /* nstatus bytes: plugin->tool_count, at least one */
    size_t nstatus;
} toolgov__mounted;

struct toolgov_registry {
    toolgov_allocator alloc;
    toolgov__tool *tools;
    size_t count, cap;
    toolgov__slot *slots;
    size_t mask; /* slot count - 1; slot count is a power of two */
    toolgov__rows rows;
    /* Tools declared for a plugin's own loop (toolgov_declare_tool): not in
    ** the pool, found by name or spec with a short linear search. handler
    ** is NULL: the plugin gives it when its child run invokes one. */
    toolgov__tool *declared;
    size_t ndeclared, declared_cap;
    toolgov__mounted *mounted;
    size_t nmounted, mounted_cap;
};

/* A reference to a tool a run can name: a pool index, or a tool declared
** for a plugin's own loop at TOOLGOV__DECLARED_REF + its index in
** reg->declared. The pool never grows that large (pool_reserve). -1: none. */
#define TOOLGOV__DECLARED_REF (1L << 30)

static inline const toolgov__tool *toolgov__tool_at(const toolgov_registry *reg, long ref)
{
    return ref >= TOOLGOV__DECLARED_REF ? &reg->declared[ref - TOOLGOV__DECLARED_REF]
                                        : &reg->tools[ref];
}

/* The rule "a tool is offered only when something can run it": a pooled
** tool with no handler (a core built-in the host never bound, or a tool
** registered with a NULL handler) keeps its name in the pool but is left out
** of every list a model sees (shortlist, prompt, rendered tool lists, MCP's
** tools/list), since calling it could only end in TOOLGOV_ENOHANDLER. */
static inline int toolgov__offered(const toolgov__tool *t)
{
    return t->handler != NULL;
}

/* A tool declared for an own loop by name (the first plugin that declared
** it), or -1. */
/* One name, one tool across the pool and the plugins' own loops (approvals,
** confirmations and the audit trail name tools): the reference of the tool
** holding the name, pooled first, else declared for an own loop; -1. */
/* The context pointer given to toolgov_registry_mount(), for a register
** function whose table is built at run time and needs its owner (toolgov-mcp's
** upstream servers: one register function for every server). Borrowed. */
void *toolgov__plugin_api_ctx(const toolgov_plugin_api *api);

long toolgov__registry_holder(const toolgov_registry *reg, const char *name, size_t name_len);
long toolgov__registry_declared(const toolgov_registry *reg, const char *name,
                                size_t name_len);

/* Index of a pooled tool, or -1. name_len is strlen(name). */
long toolgov__registry_index(const toolgov_registry *reg, const char *name,
                             size_t name_len);

/* ---- drift rows (drift.c) ----
** Every sentence of the drift panel is written by one of these. Each
** appends one row (copying the tool name) and returns 0 or TOOLGOV_ENOMEM
** with nothing appended. */
int toolgov__drift_undeclared(const toolgov_allocator *a, toolgov__rows *rows,
                              const toolgov_plugin *plugin, const char *tool,
                              int own_loop);
int toolgov__drift_duplicate(const toolgov_allocator *a, toolgov__rows *rows,
                             const toolgov_plugin *plugin, const char *tool,
                             const toolgov_plugin *owner);
int toolgov__drift_never_registered(const toolgov_allocator *a, toolgov__rows *rows,
                                    const toolgov_plugin *plugin,
                                    const toolgov_tool_spec *spec);
int toolgov__drift_provides_nothing(const toolgov_allocator *a, toolgov__rows *rows,
                                    const toolgov_plugin *plugin);
int toolgov__drift_mount_failed(const toolgov_allocator *a, toolgov__rows *rows,
                                const toolgov_plugin *plugin, int err);
/* A mount refused for a tool spec the runtime will not trust. */
int toolgov__drift_invalid_spec(const toolgov_allocator *a, toolgov__rows *rows,
                                const toolgov_plugin *plugin, const toolgov_tool_spec *spec,
                                const char *why);
/* A setting's text the policy refuses: variable, value, what it may be. */
int toolgov__drift_setting_invalid(const toolgov_allocator *a, toolgov__rows *rows,
                                   const char *variable, const char *value,
                                   const char *expected);
/* `name` is len bytes, not NUL-terminated. */
int toolgov__drift_override_unknown(const toolgov_allocator *a, toolgov__rows *rows,
                                    const char *name, size_t len);
/* Drop rows from the end until `keep` remain; keep 0 and then
** toolgov__rows_free() frees the list. */
void toolgov__rows_truncate(const toolgov_allocator *a, toolgov__rows *rows, size_t keep);
void toolgov__rows_free(const toolgov_allocator *a, toolgov__rows *rows);

/* ---- policy (policy.c) ---- */
struct toolgov_policy {
    const toolgov_registry *reg;
    size_t ntools;          /* registry count when the policy was made */
    unsigned char *once;    /* ntools flags: in the confirm-once set */
    size_t once_count;
    toolgov__rows rows;     /* override rows */
    toolgov__rows scope_rows; /* a bad scope text's row (at most one) */
    toolgov_confirm_scope scope;
    uint64_t fingerprint;
};

/* The manifest's own answer to "is this tool confirm-once?": a write whose
** confirm is once. The policy starts from it and the override adds to it;
** this is the only place the rule is written. */
static inline int toolgov__manifest_confirm_once(const toolgov_tool_spec *s)
{
    return s->effect == TOOLGOV_EFFECT_WRITE && s->confirm == TOOLGOV_CONFIRM_ONCE;
}

/* Is pooled tool idx in the policy's confirm-once set? A tool mounted after
** the policy was made is not in its flags; it then asks once exactly when
** its own manifest says so, so a late mount can never let a confirm-once
** write through unasked. */
static inline int toolgov__policy_confirm_once(const toolgov_policy *pol, size_t idx)
{
    if (idx < pol->ntools)
        return pol->once[idx];
    return toolgov__manifest_confirm_once(pol->reg->tools[idx].spec);
}

/* ---- runs (run.c, state.c) ---- */
/* One call a run remembers by tool and canonical arguments: an approval,
** or (listed scope) a call the user's yes covered or a no refused. idx is
** a tool reference (toolgov__tool_at). */
typedef struct toolgov__approval {
    size_t idx;
    char *args;
    size_t args_len;
} toolgov__approval;

typedef struct toolgov__held {
    size_t idx;
    char *args;
    size_t args_len;
    char *out;      /* allocated out_cap bytes (may be 0 with out NULL) */
    size_t out_len;
    size_t out_cap;
} toolgov__held;

/* Why the gate refused a call (toolgov__verdict.refusal). */
typedef enum toolgov__refusal {
    TOOLGOV__REFUSAL_NONE = 0,
    TOOLGOV__REFUSAL_ENDED = 1,    /* the run is over */
    TOOLGOV__REFUSAL_UNKNOWN = 2,  /* no tool of that name in the pool */
    TOOLGOV__REFUSAL_DECLINED = 3, /* a confirm-once write after the user's no */
    TOOLGOV__REFUSAL_NEVER = 4     /* a standing grant says never (grants.h) */
} toolgov__refusal;

/* What the gate decided about one call, together with what it found on the
** way, so acting on the decision never searches again. */
typedef struct toolgov__verdict {
    toolgov_gate gate;
    toolgov__refusal refusal; /* REFUSE: why; otherwise TOOLGOV__REFUSAL_NONE */
    long idx;                 /* the pooled tool; -1 when unknown */
    long approval;            /* destructive ALLOW: the approval the call uses up; else -1 */
    long held;                /* REPLAY: the result in hand to return; else -1 */
    long confirmed;           /* listed scope ALLOW: the confirmed call it uses up; else -1 */
    long grant;               /* the standing grant that decided (an ALLOW it
                              ** answered, a REFUSE it said never to): its index
                              ** in the run's grants; else -1 */
} toolgov__verdict;

/* The part of a run that is saved and restored. A child run (a plugin's
** own loop) keeps first_done, end, answer and held in its own state and
** uses its root run's conf, approvals, confirmed and declined. */
typedef struct toolgov__run_state {
    toolgov_confirmation conf;
    int first_done;
    toolgov_end_reason end;
    long answer;             /* index into held of the answer, or -1 */
    toolgov__approval *approvals;
    size_t napprovals, approvals_cap;
    toolgov__held *held;
    size_t nheld, held_cap;
    toolgov__approval *confirmed; /* listed scope: calls a yes covered, each once */
    size_t nconfirmed, confirmed_cap;
    toolgov__approval *declined;  /* listed scope: calls a no refused */
    size_t ndeclined, declined_cap;
    size_t audit_seq;        /* audit events numbered before the state was
                             ** saved: numbering goes on from here (audit.c) */
} toolgov__run_state;

struct toolgov_run {
    const toolgov_policy *pol;
    const toolgov_registry *reg;
    void *run_ctx;
    int busy;               /* a handler or the evaluator of this run is running */
    toolgov_evaluator_fn eval;
    void *eval_ud;
    toolgov_result result;
    toolgov__run_state st;
    /* Argument decoding (args.c): the run's scratch area, and the call it
    ** last decoded (cur_args NULL once a decode, approval or invoke has
    ** moved on), which toolgov_run_*_decoded() check they are given. */
    toolgov_args_decoder *dec;
    long cur_idx;
    const char *cur_args;
    unsigned long seq;      /* decodes so far; the current call's number */
    struct toolgov__audit *audit; /* the observer (audit.c); NULL: none */
    /* The gate's own decoder: it canonicalises argument text a host hands
    ** the gate, so the run's current decoded call is never disturbed. */
    toolgov_args_decoder *qdec;
    toolgov_run *parent;    /* a child run's parent; NULL for a run of the host */
    toolgov_handler_fn bound; /* the handler of the declared tool being invoked */
    size_t nchildren;       /* children not yet freed */
    /* The run's identity (toolgov_run_id): the host's, or 32 random hex
    ** digits made with the run. A child's is its root's, not this one. */
    size_t id_len;
    char id[TOOLGOV_RUN_ID_MAX + 1];
    const toolgov_grants *grants; /* the host's standing grants (borrowed), or
                            ** NULL; a child consults its root's */
};

/* The root of a run's family (itself for a run of the host). */
static inline const toolgov_run *toolgov__root(const toolgov_run *run)
{
    while (run->parent)
        run = run->parent;
    return run;
}

/* The state a run shares with its whole family: its root's. */
static inline toolgov__run_state *toolgov__shared(toolgov_run *run)
{
    while (run->parent)
        run = run->parent;
    return &run->st;
}

static inline const toolgov__run_state *toolgov__shared_const(const toolgov_run *run)
{
    return &toolgov__root(run)->st;
}

/* What a run's readers (run.c's public getters, the audit trail) see of
** the run, read here so audit.c never calls back up into run.c. */
static inline const char *toolgov__run_id(const toolgov_run *run)
{
    return toolgov__root(run)->id;
}

static inline toolgov_confirmation toolgov__run_confirmation(const toolgov_run *run)
{
    return toolgov__shared_const(run)->conf;
}

static inline size_t toolgov__run_pending_approvals(const toolgov_run *run)
{
    return toolgov__shared_const(run)->napprovals;
}

/* Store a run's identity: n bytes (1..TOOLGOV_RUN_ID_MAX, checked by the
** caller) of a root run. */
static inline void toolgov__run_id_store(toolgov_run *run, const char *id, size_t n)
{
    memcpy(run->id, id, n);
    run->id[n] = '\0';
    run->id_len = n;
}

/* The argument descriptors of a spec row, or NULL when the row has none.
** A row's size is sizeof(toolgov_tool_spec) where it was compiled, or 0
** for a row built by hand without it (read as a row of this header: the ABI
** version, checked at mount, says every member is there); a size between
** is refused at mount (registry.c), so parameters are never dropped. */
static inline const toolgov_arg_schema *toolgov__spec_params(const toolgov_tool_spec *s)
{
    return s->size == 0 || s->size >= offsetof(toolgov_tool_spec, schema_json) ? s->params
                                                                                : NULL;
}

/* A spec's guidance: "" for NULL (a hand-built row may leave it out). */
static inline const char *toolgov__spec_guidance(const toolgov_tool_spec *s)
{
    return s->guidance ? s->guidance : "";
}

void toolgov__run_state_free(const toolgov_allocator *a, toolgov__run_state *st);

/* ---- standing grants (grants.c) ---- */
/* Does the set hold any grant for tool t? *exact: one of them names a call
** (the gate then needs the call's canonical arguments). */
int toolgov__grants_any(const toolgov_grants *g, const toolgov__tool *t, int *exact);
/* The grant that decides a call of tool t with canonical arguments args
** (NULL: none to compare, so exact grants match nothing), now: a never
** before an allow, an exact allow before the whole tool's, none for a
** destructive tool as a whole. Its index and *verdict, or -1. Reads the
** set's clock only when a candidate has an expiry. */
long toolgov__grants_decide(const toolgov_grants *g, const toolgov__tool *t, const char *args,
                            size_t args_len, toolgov_grant_verdict *verdict);
/* The id and granter of grant i, for the audit trail (borrowed). */
void toolgov__grants_name(const toolgov_grants *g, long i, unsigned long long *id,
                          const char **by);

/* ---- audit (audit.c) ----
** A run with an observer has run->audit set; every emission point tests
** that first, so a run without one pays a branch and nothing else. The
** event is filled in two steps: _init names the call (idx of the pooled
** tool, or -1 with the name as sent; tool NULL for a run event) and its
** argument bytes, the caller sets the fields of its kind, then _emit
** numbers, stamps and digests it, snapshots the run and calls the
** observer, returning its code (0, or negative: TOOLGOV_EFAIL for a
** positive return). */
void toolgov__audit_init(toolgov_audit_event *ev, toolgov_audit_kind kind,
                         const toolgov_run *run, long idx, const char *tool,
                         const char *args, size_t args_len,
                         toolgov_audit_args_form form);
int toolgov__audit_emit(const toolgov_run *run, toolgov_audit_event *ev);
void toolgov__audit_free(toolgov_run *run);
/* The number of the run's last audit event: its observer's count, else the
** count a restore brought (run->st.audit_seq). Saved with the state, so
** numbering goes on after a restore in another process. */
size_t toolgov__audit_seq(const toolgov_run *run);
/* After a restore: the observer's numbering goes on from the restored count. */
void toolgov__audit_seq_restored(toolgov_run *run);

#endif /* TOOLGOV_INTERNAL_H */
