/* SPDX-License-Identifier: MIT */
/*
** state.c: saving a run's state as text and restoring it.
**
** The text is line-oriented and self-delimiting; byte strings (plugin and
** tool names, arguments, outputs) are written as <length>:<bytes>, so
** arguments and outputs travel unchanged whatever they contain. A tool is
** named by its plugin and its name (the plugin is empty for the core's
** built-ins):
**
**   toolgov-run 3
**   bound <n>:<the run's identity>   (run.h: toolgov_run_id)
**   policy <16 hex digits: the policy fingerprint>
**   confirm pending|given|refused
**   first 0|1
**   end none|answered_directly|host
**   answer -|<index of the held result the run ended on>
**   audit <n>      (only when n > 0: the number of the run's last audit event)
**   approval <n>:<plugin> <n>:<tool> <n>:<args>            (zero or more)
**   confirmed <n>:<plugin> <n>:<tool> <n>:<args>           (zero or more)
**   declined <n>:<plugin> <n>:<tool> <n>:<args>            (zero or more)
**   held <n>:<plugin> <n>:<tool> <n>:<args> <n>:<output>   (zero or more)
**
** confirmed and declined are the calls a yes or a no listed under the
** confirmation scope `listed` (policy.h; that scope is part of the policy
** fingerprint). A tool may be one a plugin declared for its own loop.
**   mac <64 lowercase hex digits>
**
** The text is sealed (seal.h): keyed BLAKE2b-256 of every byte before the
** mac line, under the host's toolgov_state_key, so only a holder of the key
** can make a text restore accepts; and bound to the run's identity, so a
** text saved from one run is refused by a run of another identity (its
** confirmation and approvals are that run's alone). Restoring checks the
** mac first, in constant time, over the whole text, before reading any
** field, then the identity; then parses the whole text into a scratch state, checks it against the
** run's policy, and only then swaps it in: a failure at any point frees the
** scratch state and leaves the run as it was.
*/
#include <string.h>

#include "seal.h"

#define STATE_MAGIC "toolgov-run 3\n"

static const char *confirm_word(toolgov_confirmation c)
{
    switch (c) {
    case TOOLGOV_CONFIRMATION_GIVEN: return "given";
    case TOOLGOV_CONFIRMATION_REFUSED: return "refused";
    case TOOLGOV_CONFIRMATION_PENDING: break;
    }
    return "pending";
}

/* A pooled tool as "<n>:<plugin> <n>:<tool>". */
static void emit_tool(toolgov__sealer *k, const toolgov_registry *reg, size_t idx)
{
    const toolgov__tool *t = toolgov__tool_at(reg, (long)idx);
    const char *plugin = t->plugin ? t->plugin->name : "";

    toolgov__seal_bytes(k, plugin, strlen(plugin));
    toolgov__seal_put(k, " ", 1);
    toolgov__seal_bytes(k, t->name, t->name_len);
}

static void emit_calls(toolgov__sealer *k, const toolgov_registry *reg, const char *word,
                       const toolgov__approval *v, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        toolgov__seal_str(k, word);
        emit_tool(k, reg, v[i].idx);
        toolgov__seal_str(k, " ");
        toolgov__seal_bytes(k, v[i].args, v[i].args_len);
        toolgov__seal_str(k, "\n");
    }
}

int toolgov_run_save(char *out, size_t size, size_t *needed, const toolgov_run *run,
                     const toolgov_state_key *key)
{
    toolgov__out o;
    toolgov__sealer k;
    size_t i;

    if (needed)
        *needed = 0;
    if (out && size)
        out[0] = '\0';
    /* A child's shared answers are its parent's: the parent is saved. */
    if (!run || !key || (!out && size) || run->parent)
        return TOOLGOV_EINVAL;
    if (!toolgov__crypto_ready())
        return TOOLGOV_EFAIL;
    toolgov__out_init(&o, out, size);
    /* Bound to the run's identity: restored only into a run of that id. */
    toolgov__seal_begin(&k, &o, key, STATE_MAGIC, run->id, run->id_len);
    toolgov__seal_str(&k, "policy ");
    toolgov__seal_hex64(&k, run->pol->fingerprint);
    toolgov__seal_str(&k, "\nconfirm ");
    toolgov__seal_str(&k, confirm_word(run->st.conf));
    toolgov__seal_str(&k, run->st.first_done ? "\nfirst 1\nend " : "\nfirst 0\nend ");
    toolgov__seal_str(&k, toolgov_end_reason_name(run->st.end));
    toolgov__seal_str(&k, "\nanswer ");
    if (run->st.answer < 0)
        toolgov__seal_str(&k, "-");
    else
        toolgov__seal_num(&k, (unsigned long long)run->st.answer);
    toolgov__seal_str(&k, "\n");
    if (toolgov__audit_seq(run)) {
        toolgov__seal_str(&k, "audit ");
        toolgov__seal_num(&k, (unsigned long long)toolgov__audit_seq(run));
        toolgov__seal_str(&k, "\n");
    }
    for (i = 0; i < run->st.napprovals; i++) {
        const toolgov__approval *p = &run->st.approvals[i];

        toolgov__seal_str(&k, "approval ");
        emit_tool(&k, run->reg, p->idx);
        toolgov__seal_str(&k, " ");
        toolgov__seal_bytes(&k, p->args, p->args_len);
        toolgov__seal_str(&k, "\n");
    }
    emit_calls(&k, run->reg, "confirmed ", run->st.confirmed, run->st.nconfirmed);
    emit_calls(&k, run->reg, "declined ", run->st.declined, run->st.ndeclined);
    for (i = 0; i < run->st.nheld; i++) {
        const toolgov__held *h = &run->st.held[i];

        toolgov__seal_str(&k, "held ");
        emit_tool(&k, run->reg, h->idx);
        toolgov__seal_str(&k, " ");
        toolgov__seal_bytes(&k, h->args, h->args_len);
        toolgov__seal_str(&k, " ");
        toolgov__seal_bytes(&k, h->out ? h->out : "", h->out_len);
        toolgov__seal_str(&k, "\n");
    }
    toolgov__seal_end(&k);
    return toolgov__out_finish(&o, needed);
}

/* ---- restoring ---- */

typedef toolgov__reader cursor;

/* The field readers of seal.h, under short names. */
static int lit(cursor *c, const char *s)
{
    return toolgov__read_lit(c, s);
}

static int bytes(cursor *c, const char **s, size_t *n)
{
    return toolgov__read_bytes(c, s, n);
}

/* A decimal number without sign or leading zeros, below 2^48. */
static int num(cursor *c, size_t *out)
{
    unsigned long long v;

    if (!toolgov__read_num(c, 1ull << 48, &v))
        return 0;
    *out = (size_t)v;
    return 1;
}

static int hex64(cursor *c, uint64_t *out)
{
    uint64_t v = 0;
    int i;

    if (c->end - c->p < 16)
        return 0;
    for (i = 0; i < 16; i++) {
        char ch = *c->p++;

        if (ch >= '0' && ch <= '9')
            v = v * 16 + (uint64_t)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            v = v * 16 + (uint64_t)(ch - 'a' + 10);
        else
            return 0;
    }
    *out = v;
    return 1;
}

/* A pooled tool named by "<n>:<plugin> <n>:<tool>"; -1 when no tool of
** that name is in the pool or it belongs to another plugin. */
static long tool_field(cursor *c, const toolgov_registry *reg)
{
    const char *p, *s;
    size_t pn, n;
    const toolgov__tool *t;
    long idx;

    if (!bytes(c, &p, &pn) || !lit(c, " ") || !bytes(c, &s, &n) || n == 0 ||
        memchr(s, '\0', n))
        return -1;
    idx = toolgov__registry_index(reg, s, n);
    if (idx < 0) {
        size_t i;

        /* A tool declared for a plugin's own loop, of that plugin. */
        for (i = 0; i < reg->ndeclared; i++) {
            t = &reg->declared[i];
            if (t->name_len == n && memcmp(t->name, s, n) == 0 &&
                strlen(t->plugin->name) == pn && memcmp(t->plugin->name, p, pn) == 0)
                return TOOLGOV__DECLARED_REF + (long)i;
        }
        return -1;
    }
    t = &reg->tools[idx];
    if (t->plugin ? strlen(t->plugin->name) != pn || memcmp(t->plugin->name, p, pn) != 0
                  : pn != 0)
        return -1;
    return idx;
}

static int word(cursor *c, const char *const *words, int count, int *out)
{
    int i;

    for (i = 0; i < count; i++) {
        size_t n = strlen(words[i]);

        if ((size_t)(c->end - c->p) > n && memcmp(c->p, words[i], n) == 0 &&
            c->p[n] == '\n') {
            c->p += n;
            *out = i;
            return 1;
        }
    }
    return 0;
}

/* Lines of calls a listed yes or no covered: only of tools that ask once,
** and only under a listed scope. */
static int parse_calls(cursor *c, const toolgov_run *run, const char *word,
                       toolgov__approval **v, size_t *n, size_t *cap)
{
    const toolgov_allocator *a = &run->reg->alloc;
    int rc;

    while (lit(c, word)) {
        const toolgov__tool *t;
        const char *s;
        size_t len;
        long idx = tool_field(c, run->reg);

        if (idx < 0 || run->pol->scope != TOOLGOV_CONFIRM_SCOPE_LISTED || !lit(c, " ") ||
            !bytes(c, &s, &len) || !lit(c, "\n"))
            return TOOLGOV_ESTATE;
        t = toolgov__tool_at(run->reg, idx);
        if (t->effect == TOOLGOV_EFFECT_DESTRUCTIVE ||
            !(idx >= TOOLGOV__DECLARED_REF ? toolgov__manifest_confirm_once(t->spec)
                                           : toolgov__policy_confirm_once(run->pol, (size_t)idx)))
            return TOOLGOV_ESTATE;
        if ((rc = toolgov__reserve(a, (void **)v, cap, *n + 1, sizeof **v)) < 0)
            return rc;
        if (!((*v)[*n].args = toolgov__memdup(a, s, len)))
            return TOOLGOV_ENOMEM;
        (*v)[*n].idx = (size_t)idx;
        (*v)[*n].args_len = len;
        (*n)++;
    }
    return 0;
}

static int parse(toolgov__run_state *st, cursor *c, const toolgov_run *run)
{
    static const char *const confirms[] = {"pending", "given", "refused"};
    static const char *const ends[] = {"none", "answered_directly", "host"};
    const toolgov_allocator *a = &run->reg->alloc;
    uint64_t fp;
    size_t answer = 0;
    int v, has_answer = 0, rc;

    if (!lit(c, "policy ") || !hex64(c, &fp) || !lit(c, "\n"))
        return TOOLGOV_ESTATE;
    if (fp != run->pol->fingerprint)
        return TOOLGOV_ESTATE;
    if (!lit(c, "confirm ") || !word(c, confirms, 3, &v) || !lit(c, "\n"))
        return TOOLGOV_ESTATE;
    st->conf = (toolgov_confirmation)v;
    if (lit(c, "first 0\n"))
        st->first_done = 0;
    else if (lit(c, "first 1\n"))
        st->first_done = 1;
    else
        return TOOLGOV_ESTATE;
    if (!lit(c, "end ") || !word(c, ends, 3, &v) || !lit(c, "\n"))
        return TOOLGOV_ESTATE;
    st->end = (toolgov_end_reason)v;
    if (!lit(c, "answer "))
        return TOOLGOV_ESTATE;
    if (!lit(c, "-")) {
        if (!num(c, &answer))
            return TOOLGOV_ESTATE;
        has_answer = 1;
    }
    if (!lit(c, "\n"))
        return TOOLGOV_ESTATE;
    if (lit(c, "audit ") && (!num(c, &st->audit_seq) || st->audit_seq == 0 || !lit(c, "\n")))
        return TOOLGOV_ESTATE;

    while (lit(c, "approval ")) {
        toolgov__approval *p;
        const char *s;
        size_t n;
        long idx = tool_field(c, run->reg);

        if (idx < 0 || toolgov__tool_at(run->reg, idx)->effect != TOOLGOV_EFFECT_DESTRUCTIVE ||
            !lit(c, " ") || !bytes(c, &s, &n) || !lit(c, "\n"))
            return TOOLGOV_ESTATE;
        if ((rc = toolgov__reserve(a, (void **)&st->approvals, &st->approvals_cap,
                                   st->napprovals + 1, sizeof *st->approvals)) < 0)
            return rc;
        p = &st->approvals[st->napprovals];
        if (!(p->args = toolgov__memdup(a, s, n)))
            return TOOLGOV_ENOMEM;
        p->idx = (size_t)idx;
        p->args_len = n;
        st->napprovals++;
    }
    if ((rc = parse_calls(c, run, "confirmed ", &st->confirmed, &st->nconfirmed,
                          &st->confirmed_cap)) < 0 ||
        (rc = parse_calls(c, run, "declined ", &st->declined, &st->ndeclined,
                          &st->declined_cap)) < 0)
        return rc;
    while (lit(c, "held ")) {
        toolgov__held *h;
        const char *s, *o;
        size_t n, on;
        long idx = tool_field(c, run->reg);

        if (idx < 0 || !toolgov__tool_at(run->reg, idx)->answers_directly || !lit(c, " ") ||
            !bytes(c, &s, &n) || !lit(c, " ") || !bytes(c, &o, &on) || !lit(c, "\n"))
            return TOOLGOV_ESTATE;
        if ((rc = toolgov__reserve(a, (void **)&st->held, &st->held_cap, st->nheld + 1,
                                   sizeof *st->held)) < 0)
            return rc;
        h = &st->held[st->nheld];
        memset(h, 0, sizeof *h);
        if (!(h->args = toolgov__memdup(a, s, n)))
            return TOOLGOV_ENOMEM;
        h->idx = (size_t)idx;
        h->args_len = n;
        st->nheld++; /* from here the entry is freed with the state */
        if (!(h->out = toolgov__memdup(a, o, on)))
            return TOOLGOV_ENOMEM;
        h->out_len = on;
        h->out_cap = on + 1;
    }
    if (c->p != c->end)
        return TOOLGOV_ESTATE;
    /* The fields must agree with each other. */
    if (has_answer != (st->end == TOOLGOV_END_ANSWERED_DIRECTLY))
        return TOOLGOV_ESTATE;
    if (has_answer && answer >= st->nheld)
        return TOOLGOV_ESTATE;
    if (st->end == TOOLGOV_END_ANSWERED_DIRECTLY && !st->first_done)
        return TOOLGOV_ESTATE;
    /* A result in hand comes from a tool that ran, so the first tool has
    ** run: otherwise a later answers-directly call would end the run. */
    if (st->nheld && !st->first_done)
        return TOOLGOV_ESTATE;
    st->answer = has_answer ? (long)answer : -1;
    return 0;
}

int toolgov_run_restore(toolgov_run *run, const char *text, size_t len,
                        const toolgov_state_key *key)
{
    const toolgov_allocator *a;
    toolgov__run_state st;
    const char *body;
    size_t body_len;
    cursor c;
    int rc;

    if (!run || !key || (!text && len) || run->busy || run->parent)
        return TOOLGOV_EINVAL;
    if (!toolgov__crypto_ready())
        return TOOLGOV_EFAIL;
    /* The mac first, then that the text is this run's. */
    rc = toolgov__seal_open(&body, &body_len, text, len, key, STATE_MAGIC, run->id,
                            run->id_len);
    if (rc < 0)
        return rc;

    a = &run->reg->alloc;
    memset(&st, 0, sizeof st);
    st.answer = -1;
    c.p = body;
    c.end = body + body_len;
    rc = parse(&st, &c, run);
    if (rc < 0) {
        toolgov__run_state_free(a, &st);
        return rc;
    }
    toolgov__run_state_free(a, &run->st);
    run->st = st;
    toolgov__audit_seq_restored(run);
    if (run->audit) {
        toolgov_audit_event ev;

        toolgov__audit_init(&ev, TOOLGOV_AUDIT_RESTORED, run, -1, NULL, NULL, 0,
                            TOOLGOV_AUDIT_ARGS_NONE);
        ev.end = run->st.end;
        (void)toolgov__audit_emit(run, &ev);
    }
    toolgov__result_clear(&run->result);
    return 0;
}
