/* SPDX-License-Identifier: MIT */
/*
** audit.c: a run's observer, its events, their JSON form and the
** JSON-lines writer.
**
** The run holds a pointer to its audit state (NULL until the host sets an
** observer), so the run itself stays small and a run without an observer
** never reaches this file. The state is allocated once per run and holds
** everything an event needs that the run does not: the id, the next event
** number, the digest options and room for one digest, so emitting an event
** allocates nothing. The run's decision points in run.c and state.c fill
** an event with toolgov__audit_init, set the fields of its kind and hand it
** to toolgov__audit_emit, which completes it (number, time, digest, the
** run's confirmation and approvals after the event) and calls the observer.
*/
#include <errno.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "internal.h"
#include "jsonwrite.h"

#define DIGEST_PREFIX "blake2b-256:"
#define DIGEST_BYTES 32

struct toolgov__audit {
    toolgov_audit_fn fn;
    void *ud;
    unsigned flags;
    int keyed;
    unsigned char key[TOOLGOV_AUDIT_DIGEST_KEY_BYTES];
    unsigned long long seq; /* the last event's number */
    char digest[sizeof DIGEST_PREFIX - 1 + 2 * DIGEST_BYTES + 1];
};

/* ---- names ---- */

const char *toolgov_audit_kind_name(toolgov_audit_kind kind)
{
    switch (kind) {
    case TOOLGOV_AUDIT_CONFIRM_ASKED: return "confirm_asked";
    case TOOLGOV_AUDIT_CONFIRM_ANSWERED: return "confirm_answered";
    case TOOLGOV_AUDIT_APPROVAL_ASKED: return "approval_asked";
    case TOOLGOV_AUDIT_APPROVAL_GRANTED: return "approval_granted";
    case TOOLGOV_AUDIT_APPROVAL_CONSUMED: return "approval_consumed";
    case TOOLGOV_AUDIT_ALLOWED: return "allowed";
    case TOOLGOV_AUDIT_EXECUTED: return "executed";
    case TOOLGOV_AUDIT_REPLAYED: return "replayed";
    case TOOLGOV_AUDIT_REFUSED: return "refused";
    case TOOLGOV_AUDIT_ARGS_ERROR: return "args_error";
    case TOOLGOV_AUDIT_RUN_ENDED: return "run_ended";
    case TOOLGOV_AUDIT_RESTORED: return "restored";
    }
    return "unknown";
}

const char *toolgov_audit_reason_name(toolgov_audit_reason reason)
{
    switch (reason) {
    case TOOLGOV_AUDIT_REASON_NONE: return "none";
    case TOOLGOV_AUDIT_REASON_UNKNOWN_TOOL: return "unknown_tool";
    case TOOLGOV_AUDIT_REASON_DECLINED: return "declined";
    case TOOLGOV_AUDIT_REASON_NOT_APPROVED: return "not_approved";
    case TOOLGOV_AUDIT_REASON_ENDED: return "ended";
    case TOOLGOV_AUDIT_REASON_NO_HANDLER: return "no_handler";
    case TOOLGOV_AUDIT_REASON_NEVER_GRANTED: return "never_granted";
    }
    return "unknown";
}

const char *toolgov_audit_args_form_name(toolgov_audit_args_form form)
{
    switch (form) {
    case TOOLGOV_AUDIT_ARGS_NONE: return "none";
    case TOOLGOV_AUDIT_ARGS_CANONICAL: return "canonical";
    case TOOLGOV_AUDIT_ARGS_AS_SENT: return "as_sent";
    case TOOLGOV_AUDIT_ARGS_DIGEST: return "digest";
    }
    return "unknown";
}

static const char *effect_name(int effect)
{
    switch (effect) {
    case TOOLGOV_EFFECT_READ: return "read";
    case TOOLGOV_EFFECT_WRITE: return "write";
    case TOOLGOV_EFFECT_DESTRUCTIVE: return "destructive";
    default: return NULL;
    }
}

static const char *confirmation_name(toolgov_confirmation c)
{
    switch (c) {
    case TOOLGOV_CONFIRMATION_PENDING: return "pending";
    case TOOLGOV_CONFIRMATION_GIVEN: return "given";
    case TOOLGOV_CONFIRMATION_REFUSED: return "refused";
    }
    return "unknown";
}

/* ---- setting the observer ---- */

int toolgov_run_set_audit(toolgov_run *run, const toolgov_audit_options *opt)
{
    struct toolgov__audit *au;
    size_t id_len = 0;

    /* A child run reports to its parent's observer (run.h). */
    if (!run || !opt || run->busy || run->parent)
        return TOOLGOV_EINVAL;
    if (opt->run_id && (id_len = strlen(opt->run_id)) > TOOLGOV_AUDIT_RUN_ID_MAX)
        return TOOLGOV_EINVAL;
    if (!opt->observer) {
        if (run->audit) {
            run->audit->fn = NULL;
            run->audit->ud = NULL;
        }
        return 0;
    }
    if (!toolgov__crypto_ready())
        return TOOLGOV_EFAIL;
    au = run->audit;
    if (!au) {
        au = toolgov__alloc(&run->reg->alloc, sizeof *au);
        if (!au)
            return TOOLGOV_ENOMEM;
        memset(au, 0, sizeof *au);
        au->seq = run->st.audit_seq; /* a restored run goes on numbering */
        run->audit = au;
    }
    if (id_len)
        toolgov__run_id_store(run, opt->run_id, id_len); /* checked above */
    au->fn = opt->observer;
    au->ud = opt->ud;
    au->flags = opt->flags;
    au->keyed = opt->digest_key != NULL;
    if (au->keyed)
        memcpy(au->key, opt->digest_key, sizeof au->key);
    else
        sodium_memzero(au->key, sizeof au->key);
    return 0;
}

const char *toolgov_run_audit_id(const toolgov_run *run)
{
    return run && run->audit ? toolgov__run_id(run) : NULL;
}

size_t toolgov__audit_seq(const toolgov_run *run)
{
    if (run->audit && run->audit->seq > run->st.audit_seq)
        return (size_t)run->audit->seq;
    return run->st.audit_seq;
}

void toolgov__audit_seq_restored(toolgov_run *run)
{
    if (run->audit && run->audit->seq < run->st.audit_seq)
        run->audit->seq = run->st.audit_seq;
}

void toolgov__audit_free(toolgov_run *run)
{
    if (!run->audit)
        return;
    sodium_memzero(run->audit->key, sizeof run->audit->key);
    toolgov__free(&run->reg->alloc, run->audit, sizeof *run->audit);
    run->audit = NULL;
}

/* ---- events ---- */

static const char *default_decision(toolgov_audit_kind kind)
{
    switch (kind) {
    case TOOLGOV_AUDIT_CONFIRM_ASKED: return "ASK_FIRST";
    case TOOLGOV_AUDIT_APPROVAL_ASKED: return "NEEDS_APPROVAL";
    case TOOLGOV_AUDIT_APPROVAL_GRANTED: return "granted";
    case TOOLGOV_AUDIT_APPROVAL_CONSUMED:
    case TOOLGOV_AUDIT_ALLOWED:
    case TOOLGOV_AUDIT_EXECUTED: return "ALLOW";
    case TOOLGOV_AUDIT_REPLAYED: return "REPLAY";
    case TOOLGOV_AUDIT_RESTORED: return "restored";
    case TOOLGOV_AUDIT_REFUSED:
    case TOOLGOV_AUDIT_ARGS_ERROR:
    case TOOLGOV_AUDIT_CONFIRM_ANSWERED:
    case TOOLGOV_AUDIT_RUN_ENDED: break;
    }
    return "REFUSE";
}

void toolgov__audit_init(toolgov_audit_event *ev, toolgov_audit_kind kind,
                         const toolgov_run *run, long idx, const char *tool,
                         const char *args, size_t args_len,
                         toolgov_audit_args_form form)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = kind;
    ev->decision = default_decision(kind);
    ev->effect = -1;
    if (idx >= 0) {
        const toolgov__tool *t = toolgov__tool_at(run->reg, idx);

        ev->tool = t->name;
        ev->plugin = t->plugin ? t->plugin->name : TOOLGOV__CORE_OWNER;
        ev->effect = (int)t->effect;
    } else {
        ev->tool = tool;
    }
    if (ev->tool) {
        ev->args = args ? args : "{}";
        ev->args_len = args ? args_len : 2;
        ev->args_form = form;
    }
}

/* Replace the event's arguments by their digest, kept in the audit state
** until the next event. */
static void digest_args(struct toolgov__audit *au, toolgov_audit_event *ev)
{
    unsigned char h[DIGEST_BYTES];
    size_t plen = sizeof DIGEST_PREFIX - 1;

    crypto_generichash(h, sizeof h, (const unsigned char *)ev->args, ev->args_len,
                       au->keyed ? au->key : NULL, au->keyed ? sizeof au->key : 0);
    memcpy(au->digest, DIGEST_PREFIX, plen);
    sodium_bin2hex(au->digest + plen, sizeof au->digest - plen, h, sizeof h);
    ev->args = au->digest;
    ev->args_len = plen + 2 * sizeof h;
    ev->args_form = TOOLGOV_AUDIT_ARGS_DIGEST;
}

int toolgov__audit_emit(const toolgov_run *run, toolgov_audit_event *ev)
{
    struct toolgov__audit *au = run->audit;
    struct timespec ts;
    int rc;

    if (!au || !au->fn)
        return 0;
    ev->run_id = toolgov__run_id(run);
    ev->child = run->parent != NULL;
    ev->seq = ++au->seq;
    if (timespec_get(&ts, TIME_UTC) == TIME_UTC) {
        ev->time_sec = (long long)ts.tv_sec;
        ev->time_nsec = ts.tv_nsec;
    }
    if (ev->kind == TOOLGOV_AUDIT_CONFIRM_ANSWERED)
        ev->decision = ev->answer ? "yes" : "no";
    else if (ev->kind == TOOLGOV_AUDIT_RUN_ENDED)
        ev->decision = toolgov_end_reason_name(ev->end);
    if (ev->tool && (au->flags & TOOLGOV_AUDIT_DIGEST_ARGS)) {
        digest_args(au, ev);
        /* The decoder's message quotes the values it refused ("got ..."):
        ** a log that keeps only digests keeps no message either. */
        ev->message = NULL;
    }
    /* The run after the event: the two events delivered before their
    ** change is made show it made. */
    ev->confirmation = toolgov__run_confirmation(run); /* a child's: its family's */
    ev->approvals = toolgov__run_pending_approvals(run);
    if (ev->kind == TOOLGOV_AUDIT_CONFIRM_ANSWERED)
        ev->confirmation = ev->answer ? TOOLGOV_CONFIRMATION_GIVEN : TOOLGOV_CONFIRMATION_REFUSED;
    else if (ev->kind == TOOLGOV_AUDIT_APPROVAL_GRANTED)
        ev->approvals++;
    rc = au->fn(au->ud, ev);
    return rc > 0 ? TOOLGOV_EFAIL : rc;
}

/* ---- JSON form ---- */

/* v in decimal, at least `width` digits. */
static void put_padded(toolgov__out *o, unsigned long long v, int width)
{
    char d[TOOLGOV__JSON_NUMBER_MAX];
    size_t n = toolgov__u64_text(d, (uint64_t)v);

    for (; width > (int)n; width--)
        toolgov__out_put(o, "0", 1);
    toolgov__out_put(o, d, n);
}

/* Seconds since 1970 as an RFC 3339 UTC time with nanoseconds. Days to a
** civil date by H. Hinnant's algorithm (proleptic Gregorian, exact for any
** day count a 64-bit time gives); years before 1 are written as 0000. */
static void put_time(toolgov__out *o, long long sec, long nsec)
{
    long long days = sec / 86400, rem = sec % 86400, era, y;
    unsigned doe, yoe, doy, mp, d, m;

    if (rem < 0) {
        rem += 86400;
        days--;
    }
    days += 719468;
    era = (days >= 0 ? days : days - 146096) / 146097;
    doe = (unsigned)(days - era * 146097);
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y = (long long)yoe + era * 400 + (m <= 2);
    toolgov__out_put(o, "\"", 1);
    put_padded(o, y > 0 ? (unsigned long long)y : 0, 4);
    toolgov__out_put(o, "-", 1);
    put_padded(o, m, 2);
    toolgov__out_put(o, "-", 1);
    put_padded(o, d, 2);
    toolgov__out_put(o, "T", 1);
    put_padded(o, (unsigned long long)(rem / 3600), 2);
    toolgov__out_put(o, ":", 1);
    put_padded(o, (unsigned long long)(rem / 60 % 60), 2);
    toolgov__out_put(o, ":", 1);
    put_padded(o, (unsigned long long)(rem % 60), 2);
    toolgov__out_put(o, ".", 1);
    put_padded(o, nsec >= 0 && nsec < 1000000000L ? (unsigned long long)nsec : 0, 9);
    toolgov__out_put(o, "Z\"", 2);
}

static void put_key(toolgov__out *o, const char *key)
{
    toolgov__out_put(o, ",\"", 2);
    toolgov__out_str(o, key);
    toolgov__out_put(o, "\":", 2);
}

static void put_str_field(toolgov__out *o, const char *key, const char *value)
{
    put_key(o, key);
    toolgov__out_json_str(o, value);
}

static void put_num_field(toolgov__out *o, const char *key, long long v)
{
    put_key(o, key);
    if (v < 0) {
        toolgov__out_put(o, "-", 1);
        toolgov__out_u64(o, 0ull - (unsigned long long)v);
    } else {
        toolgov__out_u64(o, (unsigned long long)v);
    }
}

/* The fields that only some kinds carry. */
static void put_kind_fields(toolgov__out *o, const toolgov_audit_event *ev)
{
    switch (ev->kind) {
    case TOOLGOV_AUDIT_REFUSED:
        put_str_field(o, "reason", toolgov_audit_reason_name(ev->reason));
        put_num_field(o, "status", ev->status);
        break;
    case TOOLGOV_AUDIT_ARGS_ERROR:
        put_num_field(o, "status", ev->status);
        put_str_field(o, "message", ev->message ? ev->message : "");
        break;
    case TOOLGOV_AUDIT_EXECUTED:
        put_num_field(o, "status", ev->status);
        /* fall through */
    case TOOLGOV_AUDIT_REPLAYED:
        put_num_field(o, "output_len", (long long)ev->output_len);
        put_key(o, "ended");
        toolgov__out_str(o, ev->ended ? "true" : "false");
        break;
    case TOOLGOV_AUDIT_CONFIRM_ANSWERED:
        put_key(o, "answer");
        toolgov__out_str(o, ev->answer ? "true" : "false");
        break;
    case TOOLGOV_AUDIT_RUN_ENDED:
    case TOOLGOV_AUDIT_RESTORED:
        put_str_field(o, "end", toolgov_end_reason_name(ev->end));
        break;
    case TOOLGOV_AUDIT_CONFIRM_ASKED:
    case TOOLGOV_AUDIT_APPROVAL_ASKED:
    case TOOLGOV_AUDIT_APPROVAL_GRANTED:
    case TOOLGOV_AUDIT_APPROVAL_CONSUMED:
    case TOOLGOV_AUDIT_ALLOWED:
        break;
    }
    if (ev->batch_count) {
        put_num_field(o, "batch_index", (long long)ev->batch_index);
        put_num_field(o, "batch_count", (long long)ev->batch_count);
    }
    if (ev->grant) {
        put_key(o, "grant");
        toolgov__out_u64(o, ev->grant);
        put_str_field(o, "granted_by", ev->granted_by ? ev->granted_by : "");
    }
}

int toolgov_audit_event_render(char *out, size_t size, size_t *needed,
                               const toolgov_audit_event *ev)
{
    toolgov__out o;

    if (needed)
        *needed = 0;
    if (out && size)
        out[0] = '\0';
    if (!ev || (!out && size))
        return TOOLGOV_EINVAL;
    toolgov__out_init(&o, out, size);
    toolgov__out_str(&o, "{\"v\":1");
    put_str_field(&o, "run", ev->run_id ? ev->run_id : "");
    put_num_field(&o, "seq", (long long)ev->seq);
    put_key(&o, "time");
    put_time(&o, ev->time_sec, ev->time_nsec);
    put_str_field(&o, "event", toolgov_audit_kind_name(ev->kind));
    put_str_field(&o, "decision", ev->decision ? ev->decision : "");
    if (ev->tool) {
        put_str_field(&o, "tool", ev->tool);
        put_str_field(&o, "plugin", ev->plugin);
        put_str_field(&o, "effect", effect_name(ev->effect));
        put_str_field(&o, "args", ev->args ? ev->args : "{}");
        put_str_field(&o, "args_form", toolgov_audit_args_form_name(ev->args_form));
    }
    put_kind_fields(&o, ev);
    if (ev->child) {
        put_key(&o, "child");
        toolgov__out_str(&o, "true");
    }
    put_str_field(&o, "confirmation", confirmation_name(ev->confirmation));
    put_num_field(&o, "approvals", (long long)ev->approvals);
    toolgov__out_str(&o, "}\n");
    return toolgov__out_finish(&o, needed);
}

/* ---- the JSON-lines writer ---- */

struct toolgov_audit_jsonl {
    toolgov_allocator alloc;
    FILE *stream;
    toolgov__jbuf line; /* the line being written */
    int err;       /* the first error, sticky */
    int sys_errno;
    unsigned long long lines;
};

int toolgov_audit_jsonl_new(toolgov_audit_jsonl **out, FILE *stream,
                            const toolgov_allocator *alloc)
{
    toolgov_allocator a;
    toolgov_audit_jsonl *w;

    if (!out || !stream)
        return TOOLGOV_EINVAL;
    a.fn = alloc ? alloc->fn : NULL; /* NULL: the C library's (core.c) */
    a.ud = alloc ? alloc->ud : NULL;
    w = toolgov__alloc(&a, sizeof *w);
    if (!w)
        return TOOLGOV_ENOMEM;
    memset(w, 0, sizeof *w);
    w->alloc = a;
    w->stream = stream;
    toolgov__jbuf_init(&w->line, &w->alloc);
    *out = w;
    return 0;
}

int toolgov_audit_jsonl_observe(void *writer, const toolgov_audit_event *ev)
{
    toolgov_audit_jsonl *w = writer;
    size_t need = 0;
    int rc;

    if (!w || !ev)
        return TOOLGOV_EINVAL;
    if (w->err)
        return w->err;
    rc = toolgov_audit_event_render(w->line.ptr, w->line.cap, &need, ev);
    if (rc == TOOLGOV_ENOSPC || (rc == 0 && !w->line.ptr)) {
        if ((rc = toolgov__jbuf_grow(&w->line, need)) == 0)
            rc = toolgov_audit_event_render(w->line.ptr, w->line.cap, &need, ev);
    }
    if (rc < 0) {
        w->err = rc;
        return rc;
    }
    errno = 0;
    if (fwrite(w->line.ptr, 1, need, w->stream) != need || fflush(w->stream) != 0) {
        w->sys_errno = errno ? errno : EIO;
        w->err = TOOLGOV_EFAIL;
        return w->err;
    }
    w->lines++;
    return 0;
}

int toolgov_audit_jsonl_status(const toolgov_audit_jsonl *w, int *sys_errno)
{
    if (sys_errno)
        *sys_errno = w ? w->sys_errno : 0;
    return w ? w->err : TOOLGOV_EINVAL;
}

unsigned long long toolgov_audit_jsonl_lines(const toolgov_audit_jsonl *w)
{
    return w ? w->lines : 0;
}

void toolgov_audit_jsonl_free(toolgov_audit_jsonl *w)
{
    toolgov_allocator a;

    if (!w)
        return;
    a = w->alloc;
    toolgov__jbuf_free(&w->line);
    toolgov__free(&a, w, sizeof *w);
}
