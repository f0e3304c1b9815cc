/* SPDX-License-Identifier: MIT */
/*
** loop_state.c: a turn stopped at a question, saved as one sealed text and
** restored, possibly in another process (loop.h, SPEC §12).
**
** The text, one field a line, strings as <length>:<bytes>:
**   toolgov-loop 1
**   bound <the run's identity (toolgov_run_id)>
**   api <n>
**   at <state> <steps> <cursor> <question kind>
**   user <text>
**   tools <count>           then `tool <name>` per tool
**   asked <count> <call index>...
**   question <text>
**   steps <count>           then `step <first> <n> <assistant text>`
**   calls <count>           then `call <status> <outcome> <why> <is_error>
**                           <asked> <id> <name> <raw> <args> <result>`
**   runstate <the run's own saved text (run.h), sealed itself>
**   mac <64 lowercase hex digits>
** Sealed by seal.c as the run's own state is (§11): keyed BLAKE2b-256
** under the host's state key, bound to the run's identity, so a text opens
** only for the run it was saved from (the host gives the new run the same
** identity, toolgov_run_set_id). Restoring checks the seal first, then
** reads the whole text without changing anything, then restores the run
** (which checks its own seal and policy), and only then the loop.
*/
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop_internal.h"
#include "seal.h"

#define MAGIC "toolgov-loop 1\n"

static void put_num(toolgov__jbuf *b, long v)
{
    char t[32];
    int n = snprintf(t, sizeof t, "%ld", v);
    toolgov__jbuf_put(b, t, (size_t)n);
}

static void put_field(toolgov__jbuf *b, const char *s, size_t len)
{
    put_num(b, (long)len);
    toolgov__jbuf_putc(b, ':');
    toolgov__jbuf_put(b, s, len);
}

static void put_sp_num(toolgov__jbuf *b, long v)
{
    toolgov__jbuf_putc(b, ' ');
    put_num(b, v);
}

static void put_sp_field(toolgov__jbuf *b, const char *s, size_t len)
{
    toolgov__jbuf_putc(b, ' ');
    put_field(b, s, len);
}

int toolgov_loop_save(char *out, size_t size, size_t *needed, const toolgov_loop *lpc,
                      const toolgov_state_key *key)
{
    toolgov_loop *lp = (toolgov_loop *)lpc; /* only read: S() needs no const */
    toolgov__jbuf b;
    toolgov__out o;
    toolgov__sealer k;
    const char *run_id;
    size_t i, rlen = 0;
    int rc;

    if (needed)
        *needed = 0;
    if (!out && size)
        return TOOLGOV_EINVAL;
    if (size)
        out[0] = '\0';
    if (!lp || !key || (lp->state != ST_WAIT_CONFIRM && lp->state != ST_WAIT_APPROVAL))
        return TOOLGOV_EINVAL;
    if (sodium_init() < 0)
        return TOOLGOV_EFAIL;
    run_id = toolgov_run_id(lp->run);
    toolgov__jbuf_init(&b, &lp->alloc);
    toolgov__jbuf_puts(&b, "api");
    put_sp_num(&b, (long)lp->opt.api);
    toolgov__jbuf_puts(&b, "\nat");
    put_sp_num(&b, lp->state);
    put_sp_num(&b, (long)lp->steps);
    put_sp_num(&b, (long)lp->cursor);
    put_sp_num(&b, lp->question_kind);
    toolgov__jbuf_puts(&b, "\nuser ");
    put_field(&b, S(lp, lp->user), lp->user_len);
    toolgov__jbuf_puts(&b, "\ntools");
    put_sp_num(&b, (long)lp->n_tools);
    for (i = 0; i < lp->n_tools; i++) {
        toolgov__jbuf_puts(&b, "\ntool ");
        put_field(&b, lp->tools[i], strlen(lp->tools[i]));
    }
    toolgov__jbuf_puts(&b, "\nasked");
    put_sp_num(&b, (long)lp->n_asked);
    for (i = 0; i < lp->n_asked; i++)
        put_sp_num(&b, (long)lp->asked_call[i]);
    toolgov__jbuf_puts(&b, "\nquestion ");
    put_field(&b, lp->question.ptr, lp->question.len);
    toolgov__jbuf_puts(&b, "\nsteps");
    put_sp_num(&b, (long)lp->n_steps);
    for (i = 0; i < lp->n_steps; i++) {
        const lstep *st = &lp->stepv[i];
        toolgov__jbuf_puts(&b, "\nstep");
        put_sp_num(&b, (long)st->first);
        put_sp_num(&b, (long)st->n);
        put_sp_field(&b, S(lp, st->text), st->text_len);
    }
    toolgov__jbuf_puts(&b, "\ncalls");
    put_sp_num(&b, (long)lp->n_calls);
    for (i = 0; i < lp->n_calls; i++) {
        const lcall *c = &lp->calls[i];
        toolgov__jbuf_puts(&b, "\ncall");
        put_sp_num(&b, c->status);
        put_sp_num(&b, c->outcome);
        put_sp_num(&b, c->why);
        put_sp_num(&b, c->is_error);
        put_sp_num(&b, c->asked);
        put_sp_field(&b, S(lp, c->id), c->id_len);
        put_sp_field(&b, S(lp, c->name), c->name_len);
        put_sp_field(&b, S(lp, c->raw), c->raw_len);
        put_sp_field(&b, S(lp, c->args), c->args_len);
        put_sp_field(&b, S(lp, c->result), c->result_len);
    }
    toolgov__jbuf_puts(&b, "\nrunstate ");
    rc = toolgov_run_save(NULL, 0, &rlen, lp->run, key);
    if (rc == 0) {
        char *tmp;
        put_num(&b, (long)rlen);
        toolgov__jbuf_putc(&b, ':');
        tmp = toolgov__alloc(&lp->alloc, rlen + 1);
        if (!tmp) {
            rc = TOOLGOV_ENOMEM;
        } else {
            rc = toolgov_run_save(tmp, rlen + 1, NULL, lp->run, key);
            toolgov__jbuf_put(&b, tmp, rlen);
            toolgov__free(&lp->alloc, tmp, rlen + 1);
        }
    }
    toolgov__jbuf_putc(&b, '\n');
    if (rc == 0 && toolgov__jbuf_finish(&b))
        rc = TOOLGOV_ENOMEM;
    if (rc) {
        toolgov__jbuf_free(&b);
        return rc;
    }
    toolgov__out_init(&o, out, size);
    toolgov__seal_begin(&k, &o, key, MAGIC, run_id, strlen(run_id));
    toolgov__seal_put(&k, b.ptr, b.len);
    toolgov__seal_end(&k);
    toolgov__jbuf_free(&b);
    return toolgov__out_finish(&o, needed);
}

/* ---- reading ---- */

typedef struct cur {
    const char *p, *end;
} cur;

static int lit(cur *c, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
        return 0;
    c->p += n;
    return 1;
}

static int num(cur *c, long lo, long hi, long *out)
{
    long v = 0;
    int neg = 0, digits = 0;
    if (c->p < c->end && *c->p == '-') {
        neg = 1;
        c->p++;
    }
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && digits < 12) {
        v = v * 10 + (*c->p++ - '0');
        digits++;
    }
    if (!digits || (c->p < c->end && *c->p >= '0' && *c->p <= '9'))
        return 0;
    v = neg ? -v : v;
    if (v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static int sp_num(cur *c, long lo, long hi, long *out)
{
    return lit(c, " ") && num(c, lo, hi, out);
}

static int field(cur *c, const char **s, size_t *n)
{
    long len;
    if (!num(c, 0, (long)(c->end - c->p), &len) || !lit(c, ":") || (c->end - c->p) < len)
        return 0;
    *s = c->p;
    *n = (size_t)len;
    c->p += len;
    return 1;
}

static int sp_field(cur *c, const char **s, size_t *n)
{
    return lit(c, " ") && field(c, s, n);
}

/* Read the body; with apply, fill the loop (its turn reset first). */
static int parse(toolgov_loop *lp, cur c, int apply, const char **runstate,
                 size_t *runstate_len)
{
    const char *s, *user;
    size_t n, user_len, i;
    long state, steps, cursor, qkind, api, ntools, nasked, nsteps, ncalls, v;
    long asked[TOOLGOV__WIRE_MAX_CALLS], last_first = 0, last_cnt = 0;
    void *tmp;

    if (!lit(&c, "api") || !sp_num(&c, 0, 2, &api) ||
        api != (long)lp->opt.api || !lit(&c, "\nat") ||
        !sp_num(&c, ST_WAIT_CONFIRM, ST_WAIT_APPROVAL, &state) ||
        (state != ST_WAIT_CONFIRM && state != ST_WAIT_APPROVAL) ||
        !sp_num(&c, 1, 100000, &steps) || !sp_num(&c, 0, 1L << 30, &cursor) ||
        !sp_num(&c, 1, 2, &qkind) || !lit(&c, "\nuser ") || !field(&c, &user, &user_len) ||
        !lit(&c, "\ntools") || !sp_num(&c, 0, 100000, &ntools))
        return TOOLGOV_ESTATE;
    if (apply) {
        lp->state = ST_IDLE;
        lp->n_calls = lp->n_steps = lp->n_asked = 0;
        lp->end = TOOLGOV_LOOP_END_NONE;
        lp->error[0] = '\0';
        toolgov__jbuf_clear(&lp->store);
        toolgov__jbuf_clear(&lp->names);
        toolgov__jbuf_clear(&lp->answer);
        lp->user = toolgov__loop_keep(lp, user, user_len);
        lp->user_len = user_len;
        lp->steps = (unsigned)steps;
        lp->cursor = (size_t)cursor;
        lp->question_kind = (int)qkind;
    }
    for (i = 0; i < (size_t)ntools; i++) {
        char name[256];
        if (!lit(&c, "\ntool ") || !field(&c, &s, &n) || n == 0 || n >= sizeof name ||
            memchr(s, '\0', n))
            return TOOLGOV_ESTATE;
        memcpy(name, s, n);
        name[n] = '\0';
        if (!toolgov_registry_find(lp->reg, name))
            return TOOLGOV_ESTATE;
        if (apply) {
            toolgov__jbuf_put(&lp->names, s, n);
            toolgov__jbuf_putc(&lp->names, '\0');
        }
    }
    if (!lit(&c, "\nasked") || !sp_num(&c, 1, TOOLGOV__WIRE_MAX_CALLS, &nasked))
        return TOOLGOV_ESTATE;
    for (i = 0; i < (size_t)nasked; i++)
        if (!sp_num(&c, 0, 1L << 30, &asked[i]))
            return TOOLGOV_ESTATE;
    if (!lit(&c, "\nquestion ") || !field(&c, &s, &n))
        return TOOLGOV_ESTATE;
    if (apply) {
        toolgov__jbuf_clear(&lp->question);
        toolgov__jbuf_put(&lp->question, s, n);
    }
    if (!lit(&c, "\nsteps") || !sp_num(&c, 1, 100000, &nsteps))
        return TOOLGOV_ESTATE;
    if (apply) {
        tmp = lp->stepv;
        if (toolgov__reserve(&lp->alloc, &tmp, &lp->steps_cap, (size_t)nsteps, sizeof *lp->stepv))
            return TOOLGOV_ENOMEM;
        lp->stepv = tmp;
    }
    for (i = 0; i < (size_t)nsteps; i++) {
        long first, cnt;
        if (!lit(&c, "\nstep") || !sp_num(&c, 0, 1L << 30, &first) ||
            !sp_num(&c, 0, 1L << 30, &cnt) || !sp_field(&c, &s, &n) || first != last_first + last_cnt)
            return TOOLGOV_ESTATE;
        last_first = first;
        last_cnt = cnt;
        if (apply) {
            lstep *st = &lp->stepv[i];
            st->first = (size_t)first;
            st->n = (size_t)cnt;
            st->text = toolgov__loop_keep(lp, s, n);
            st->text_len = n;
            lp->n_steps = i + 1;
        }
    }
    if (!lit(&c, "\ncalls") || !sp_num(&c, 1, 1L << 20, &ncalls))
        return TOOLGOV_ESTATE;
    if (apply) {
        tmp = lp->calls;
        if (toolgov__reserve(&lp->alloc, &tmp, &lp->calls_cap, (size_t)ncalls, sizeof *lp->calls))
            return TOOLGOV_ENOMEM;
        lp->calls = tmp;
    }
    for (i = 0; i < (size_t)ncalls; i++) {
        long status, outcome, why, is_error, was_asked;
        const char *f[5];
        size_t fl[5];
        if (!lit(&c, "\ncall") || !sp_num(&c, -100, 0, &status) ||
            !sp_num(&c, OC_PENDING, OC_NOT_RUN, &outcome) || !sp_num(&c, -1, 100, &why) ||
            !sp_num(&c, 0, 1, &is_error) || !sp_num(&c, 0, 1, &was_asked) ||
            !sp_field(&c, &f[0], &fl[0]) || !sp_field(&c, &f[1], &fl[1]) ||
            !sp_field(&c, &f[2], &fl[2]) || !sp_field(&c, &f[3], &fl[3]) ||
            !sp_field(&c, &f[4], &fl[4]))
            return TOOLGOV_ESTATE;
        /* Every call before the last step's has its result; the calls
        ** asked about wait, well formed. */
        if ((long)i < last_first && outcome == OC_PENDING)
            return TOOLGOV_ESTATE;
        for (v = 0; v < nasked; v++)
            if (asked[v] == (long)i && (outcome != OC_PENDING || status != 0))
                return TOOLGOV_ESTATE;
        if (apply) {
            lcall *k = &lp->calls[i];
            memset(k, 0, sizeof *k);
            k->status = (int)status;
            k->outcome = (int)outcome;
            k->why = (int)why;
            k->is_error = (int)is_error;
            k->asked = (int)was_asked;
            k->id = toolgov__loop_keep(lp, f[0], fl[0]);
            k->id_len = fl[0];
            k->name = toolgov__loop_keep(lp, f[1], fl[1]);
            k->name_len = fl[1];
            k->raw = toolgov__loop_keep(lp, f[2], fl[2]);
            k->raw_len = fl[2];
            k->args = toolgov__loop_keep(lp, f[3], fl[3]);
            k->args_len = fl[3];
            k->result = toolgov__loop_keep(lp, f[4], fl[4]);
            k->result_len = fl[4];
            toolgov__loop_keep_sent(lp, k);
            lp->n_calls = i + 1;
        }
    }
    if (!lit(&c, "\nrunstate ") || !field(&c, runstate, runstate_len) || !lit(&c, "\n") ||
        c.p != c.end)
        return TOOLGOV_ESTATE;
    if (last_first + last_cnt != ncalls || cursor < last_first || cursor >= ncalls)
        return TOOLGOV_ESTATE;
    for (v = 0; v < nasked; v++)
        if (asked[v] < last_first || asked[v] >= ncalls)
            return TOOLGOV_ESTATE;
    if (state == ST_WAIT_APPROVAL && (nasked != 1 || asked[0] != cursor || qkind != 2))
        return TOOLGOV_ESTATE;
    if (state == ST_WAIT_CONFIRM && qkind != 1)
        return TOOLGOV_ESTATE;
    if (!apply)
        return 0;
    {
        tmp = lp->props;
        if (toolgov__reserve(&lp->alloc, &tmp, &lp->props_cap, (size_t)nasked + 1,
                             sizeof *lp->props))
            return TOOLGOV_ENOMEM;
        lp->props = tmp;
        tmp = lp->asked_call;
        if (toolgov__reserve(&lp->alloc, &tmp, &lp->asked_cap, (size_t)nasked + 1,
                             sizeof *lp->asked_call))
            return TOOLGOV_ENOMEM;
        lp->asked_call = tmp;
        lp->n_asked = (size_t)nasked;
        for (i = 0; i < (size_t)nasked; i++)
            lp->asked_call[i] = (size_t)asked[i];
        lp->state = (int)state;
    }
    return 0;
}

int toolgov_loop_restore(toolgov_loop *lp, toolgov_run *run, const char *text, size_t len,
                         const toolgov_state_key *key)
{
    const char *runstate = NULL, *body, *run_id;
    size_t runstate_len = 0, body_len, i, at;
    cur c;
    int rc;

    if (!lp || !run || !key || (!text && len))
        return TOOLGOV_EINVAL;
    if (sodium_init() < 0)
        return TOOLGOV_EFAIL;
    run_id = toolgov_run_id(run);
    if (toolgov__seal_open(&body, &body_len, text ? text : "", len, key, MAGIC, run_id,
                           strlen(run_id)))
        return TOOLGOV_ESTATE;
    c.p = body;
    c.end = body + body_len;
    /* Read it all once without changing anything. */
    if ((rc = parse(lp, c, 0, &runstate, &runstate_len)))
        return rc;
    if ((rc = toolgov_run_restore(run, runstate, runstate_len, key)))
        return rc == TOOLGOV_ENOMEM ? rc : TOOLGOV_ESTATE;
    lp->run = run;
    rc = parse(lp, c, 1, &runstate, &runstate_len);
    if (rc == 0 && (toolgov__jbuf_finish(&lp->store) || toolgov__jbuf_finish(&lp->names) ||
                    toolgov__jbuf_finish(&lp->question)))
        rc = TOOLGOV_ENOMEM;
    if (rc == 0) {
        void *tmp = lp->tools;
        size_t n = 0;
        for (i = 0; i < lp->names.len; i++)
            n += lp->names.ptr[i] == '\0';
        if (toolgov__reserve(&lp->alloc, &tmp, &lp->tools_cap, n + 1, sizeof *lp->tools))
            rc = TOOLGOV_ENOMEM;
        else {
            lp->tools = tmp;
            for (i = 0, at = 0; i < n; i++) {
                lp->tools[i] = lp->names.ptr + at;
                at += strlen(lp->tools[i]) + 1;
            }
            lp->n_tools = n;
            rc = toolgov__loop_prepare(lp);
        }
    }
    if (rc) {
        lp->state = ST_IDLE;
        return rc == TOOLGOV_ENOMEM ? rc : TOOLGOV_ESTATE;
    }
    for (i = 0; i < lp->n_asked; i++) {
        lp->props[i].tool = S(lp, lp->calls[lp->asked_call[i]].name);
        lp->props[i].args = S(lp, lp->calls[lp->asked_call[i]].args);
    }
    return 0;
}
