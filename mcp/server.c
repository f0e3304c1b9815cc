/* SPDX-License-Identifier: MIT */
/*
** server.c: toolgov-mcp's protocol engine (see server.h for the contract).
**
** One message in, zero or more messages out. A tools/call either finishes
** at once (its response goes out before handle() returns) or waits for the
** user: it then becomes a `pending` entry tied to one of our own
** elicitation/create requests, and finishes when the client answers that
** request (or cancels the call). The state machine of a pending call:
**
**   ASK_CONFIRM   waits on a confirmation question. Under the confirmation
**                 scope `run`, the run's one question: several writes may
**                 wait on it (its yes covers the session's writes, and says
**                 so). Under scope `listed`, a question lists exactly one
**                 call and only that call waits on it: a write that arrives
**                 while a question is open gets a question of its own, so a
**                 yes never covers a call the user was not shown. accept:
**                 confirm the calls the question listed, run each; decline:
**                 refuse them (scope run: the run's writes); cancel or an
**                 error answer: each gets "not answered" and the question
**                 is closed (the next write asks anew).
**   ASK_APPROVAL  waits on the approval of exactly this call. accept:
**                 approve and run it; anything else: refused.
** A notifications/cancelled for the client's request drops its entry with
** no response (as the protocol says); when no call waits on a question any
** more, the question is withdrawn with our own notifications/cancelled.
** Every entry remembers the generation of the run it was asked in; an
** answer that arrives after that run ended runs nothing.
*/
#include "server.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/run.h>

#include "json.h"
#include "tooljson.h"

#define ERR_PARSE (-32700)
#define ERR_INVALID_REQUEST (-32600)
#define ERR_METHOD_NOT_FOUND (-32601)
#define ERR_INVALID_PARAMS (-32602)
#define ERR_INTERNAL (-32603)

/* The most calls that may wait for the user at once; more are refused, so a
** client cannot make the server hold unbounded state. */
#define MAX_PENDING 256

/* The protocol revisions this server speaks, newest first. */
static const char *const protocol_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                "2024-11-05"};

enum ask_kind { ASK_CONFIRM = 1, ASK_APPROVAL = 2 };

typedef struct pending {
    char *id;          /* the client's request id, as JSON text (owned) */
    char *tool;        /* owned */
    char *args;        /* owned, NUL-terminated argument text */
    char *progress;    /* owned: its _meta.progressToken as JSON text, or NULL */
    long elicit;       /* id of our elicitation/create it waits on */
    unsigned run_gen;  /* the run it was asked in */
    int kind;          /* ask_kind */
    int live;          /* 0 once cancelled or finished */
} pending;

struct toolgov_mcp_server {
    const toolgov_registry *reg;
    const toolgov_policy *pol;
    toolgov_mcp_write_fn write;
    void *write_ud;
    size_t max_message;
    toolgov_audit_fn audit;  /* every run's observer, or NULL */
    void *audit_ud;
    int (*tool_unavailable)(void *, const char *, const char *, char *, size_t);
    int (*tools_changed)(void *);
    void *tool_ud;
    toolgov_grants *grants;  /* the runs' standing grants (owned when own_grants) */
    int own_grants;
    toolgov_mcp_grant_store_fn grant_store;
    void *grant_store_ud;
    const char *name;

    toolgov_allocator alloc;
    toolgov__scratch arena;   /* the parsed message, reset per message */
    toolgov__jbuf out;       /* the message being written */
    toolgov__jbuf scratch;   /* texts built before they are written */

    int initialized;        /* initialize answered */
    int elicit_form;        /* the client can answer form elicitation */
    char protocol[16];

    toolgov_run *run;
    unsigned run_gen;
    long next_elicit;       /* our request ids: 1, 2, ... */
    long confirm_elicit;    /* the open confirmation question, 0 when none */

    pending *pend;
    size_t pend_count, pend_cap;

    toolgov_mcp_call_ctx call_ctx; /* the runs' run_ctx: the call's progress token */
};

/* ---- allocation -------------------------------------------------------- */

static char *dup_bytes(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static void pending_free(pending *p)
{
    free(p->id);
    free(p->tool);
    free(p->args);
    free(p->progress);
    memset(p, 0, sizeof *p);
}

/* ---- writing ----------------------------------------------------------- */

/* A JSON string of any bytes: the runtime's one string writer, which
** writes a byte that is not well-formed UTF-8 as U+FFFD, so a handler's
** output can never make the message invalid JSON. */
static void put_text(toolgov__jbuf *b, const char *s, size_t n)
{
    toolgov__json_put_str(b, s, n);
}

static void put_cstr(toolgov__jbuf *b, const char *s)
{
    put_text(b, s, strlen(s));
}

static int send_out(toolgov_mcp_server *s)
{
    if (toolgov__jbuf_finish(&s->out))
        return TOOLGOV_ENOMEM;
    return s->write(s->write_ud, s->out.ptr, s->out.len) ? TOOLGOV_EFAIL : 0;
}

/* The handlers' progress reporter (toolgov_mcp_call_ctx): a message of its
** own, so a response being built is untouched. */
#define MAX_PROGRESS_PER_CALL 1024
static int send_progress(toolgov_mcp_call_ctx *ctx, const char *members, size_t len)
{
    toolgov_mcp_server *s = ctx->server_;
    toolgov__jbuf b;
    int rc;
    if (!ctx->progress_token || ctx->sent_ >= MAX_PROGRESS_PER_CALL)
        return -1;
    ctx->sent_++;
    toolgov__jbuf_init(&b, &s->alloc);
    toolgov__jbuf_puts(&b, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                           "\"params\":{\"progressToken\":");
    toolgov__jbuf_puts(&b, ctx->progress_token);
    toolgov__jbuf_put(&b, members, len);
    toolgov__jbuf_puts(&b, "}}");
    rc = toolgov__jbuf_finish(&b) ? -1 : s->write(s->write_ud, b.ptr, b.len);
    toolgov__jbuf_free(&b);
    return rc ? -1 : 0;
}

/* {"jsonrpc":"2.0","id":ID,"error":{"code":C,"message":M}}. When the id
** could not be read (`id` NULL) it is left out, as MCP's schema has it
** (JSON-RPC 2.0 writes null there; MCP's RequestId cannot be null). */
static int send_error(toolgov_mcp_server *s, const char *id, int code, const char *msg)
{
    char num[16];
    toolgov__jbuf_clear(&s->out);
    toolgov__jbuf_puts(&s->out, "{\"jsonrpc\":\"2.0\",");
    if (id) {
        toolgov__jbuf_puts(&s->out, "\"id\":");
        toolgov__jbuf_puts(&s->out, id);
        toolgov__jbuf_putc(&s->out, ',');
    }
    snprintf(num, sizeof num, "%d", code);
    toolgov__jbuf_puts(&s->out, "\"error\":{\"code\":");
    toolgov__jbuf_puts(&s->out, num);
    toolgov__jbuf_puts(&s->out, ",\"message\":");
    put_cstr(&s->out, msg);
    toolgov__jbuf_puts(&s->out, "}}");
    return send_out(s);
}

/* Start {"jsonrpc":"2.0","id":ID,"result": in s->out. */
static void begin_result(toolgov_mcp_server *s, const char *id)
{
    toolgov__jbuf_clear(&s->out);
    toolgov__jbuf_puts(&s->out, "{\"jsonrpc\":\"2.0\",\"id\":");
    toolgov__jbuf_puts(&s->out, id);
    toolgov__jbuf_puts(&s->out, ",\"result\":");
}

static int end_result(toolgov_mcp_server *s)
{
    toolgov__jbuf_putc(&s->out, '}');
    return send_out(s);
}

/* A tools/call result: one text block, isError as given. */
static int send_tool_result(toolgov_mcp_server *s, const char *id, const char *text, size_t len,
                            int is_error)
{
    begin_result(s, id);
    toolgov__jbuf_puts(&s->out, "{\"content\":[{\"type\":\"text\",\"text\":");
    put_text(&s->out, text, len);
    toolgov__jbuf_puts(&s->out, is_error ? "}],\"isError\":true}" : "}],\"isError\":false}");
    return end_result(s);
}

static int send_tool_error(toolgov_mcp_server *s, const char *id, const char *text)
{
    return send_tool_result(s, id, text, strlen(text), 1);
}

/* ---- reading ----------------------------------------------------------- */

typedef struct msg {
    toolgov__json_doc doc;
} msg;

static const toolgov__json *node(const msg *m, long i)
{
    return i >= 0 ? &m->doc.nodes[i] : NULL;
}

static long member(const msg *m, long obj, const char *key)
{
    return toolgov__json_member(&m->doc, obj, key);
}

static int is_type(const msg *m, long i, int type)
{
    return toolgov__json_is(&m->doc, i, type);
}

static int str_is(const msg *m, long i, const char *s)
{
    return is_type(m, i, TOOLGOV__JSON_STRING) &&
           toolgov__json_str_eq(&m->doc.nodes[i], s, strlen(s));
}

/* 1 when object `obj` has two members with the same key. */
static int has_duplicate_key(const msg *m, long obj)
{
    const toolgov__json *o = node(m, obj);
    uint32_t k;
    if (!o || o->type != TOOLGOV__JSON_OBJECT || o->len < 2)
        return 0;
    for (k = 1; k < o->len; k++) {
        const toolgov__json *a = &m->doc.nodes[o->u.sorted[k - 1]];
        const toolgov__json *b = &m->doc.nodes[o->u.sorted[k]];
        if (toolgov__json_keycmp(a->u.str, a->len, b->u.str, b->len) == 0)
            return 1;
    }
    return 0;
}

/* 1 when any object of the message has a key twice, except inside the
** value `skip` (-1: none): the reader keeps duplicates for us so that a
** tool's arguments, which are `skip`, are judged by the runtime's decoder
** (which refuses them with a message for the model). Every other object
** the server reads (the envelope, params, _meta, capabilities, an answer's
** result) is read strictly, as it is by the runtime. */
static int doc_has_duplicate_key(const msg *m, long skip)
{
    size_t i = 0;
    while (i < m->doc.count) {
        if (skip >= 0 && i == (size_t)skip) {
            i = m->doc.nodes[i].end;
            continue;
        }
        if (has_duplicate_key(m, (long)i))
            return 1;
        i++;
    }
    return 0;
}

/* The byte just past the value that starts at text[pos] (the text is one
** valid JSON text, checked by the reader). */
static size_t value_end(const char *text, size_t len, size_t pos)
{
    size_t i = pos, depth = 0;
    do {
        char c = text[i];
        if (c == '"') {
            for (i++; i < len && text[i] != '"'; i++)
                if (text[i] == '\\')
                    i++;
            i++;
        } else if (c == '{' || c == '[') {
            depth++;
            i++;
        } else if (c == '}' || c == ']') {
            depth--;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':') {
            i++;
        } else {
            while (i < len && !strchr(" \t\r\n,:]}", text[i]))
                i++;
        }
    } while (depth > 0 && i < len);
    return i;
}

/* The canonical text of node i, NUL-terminated and malloc'd. */
static char *value_text(toolgov_mcp_server *s, const msg *m, long i)
{
    toolgov__jbuf_clear(&s->scratch);
    toolgov__json_put_value(&s->scratch, &m->doc, (size_t)i);
    if (toolgov__jbuf_finish(&s->scratch))
        return NULL;
    return dup_bytes(s->scratch.ptr, s->scratch.len);
}

/* ---- the run ----------------------------------------------------------- */

static int new_run(toolgov_mcp_server *s)
{
    toolgov_run *run = NULL;
    int rc = toolgov_run_new(&run, s->pol, &s->call_ctx);
    if (rc)
        return rc;
    if (s->audit) {
        /* Each run of the session is audited under its own random id; a
        ** run that cannot be audited is not started. */
        toolgov_audit_options ao;
        memset(&ao, 0, sizeof ao);
        ao.observer = s->audit;
        ao.ud = s->audit_ud;
        if ((rc = toolgov_run_set_audit(run, &ao))) {
            toolgov_run_free(run);
            return rc;
        }
    }
    (void)toolgov_run_set_grants(run, s->grants);
    toolgov_run_free(s->run);
    s->run = run;
    s->run_gen++;
    s->confirm_elicit = 0;
    return 0;
}

/* A tool this server serves: one the registry offers (a handler is bound:
** every plugin tool; a core built-in only if the host bound it, which this
** server does not). NULL otherwise. */
static const toolgov_tool_spec *served_tool(const toolgov_mcp_server *s, const char *name)
{
    return toolgov_registry_offers(s->reg, name) ? toolgov_registry_find(s->reg, name) : NULL;
}

/* 1 when the host's hook says the tool cannot be served now (why[0..n)
** then says why); 0 for every tool without a hook. */
static int unavailable(const toolgov_mcp_server *s, const char *tool, char *why, size_t n)
{
    char none[8];
    if (!s->tool_unavailable)
        return 0;
    return s->tool_unavailable(s->tool_ud, toolgov_registry_owner(s->reg, tool), tool,
                               why ? why : none, why ? n : sizeof none) != 0;
}

/* ---- tools/list -------------------------------------------------------- */

/* The served tools in registration order, as the runtime's list writer
** shows them: their manifests' texts, no effect mark in the description
** (MCP carries the effect in the annotations). */
static int served_view(void *ud, size_t i, toolgov__tool_view *out)
{
    const toolgov_mcp_server *s = ud;
    const toolgov_tool_spec *spec = toolgov_registry_at(s->reg, i);
    if (!spec || !served_tool(s, spec->name) || unavailable(s, spec->name, NULL, 0))
        return 0;
    out->name = spec->name;
    out->name_len = strlen(spec->name);
    out->mark = "";
    out->description = spec->description;
    out->description_len = strlen(spec->description);
    out->schema = spec->schema_json;
    out->effect = spec->effect;
    return 1;
}

static int tools_list(toolgov_mcp_server *s, const char *id)
{
    size_t n = toolgov_registry_count(s->reg), need;
    toolgov__out o;
    begin_result(s, id);
    /* The writer fills a caller's buffer: size, then write in place. */
    toolgov__out_init(&o, NULL, 0);
    toolgov__tools_write(&o, TOOLGOV_TOOLS_MCP, n, served_view, s);
    need = o.len;
    if (toolgov__jbuf_room(&s->out, need)) {
        toolgov__out_init(&o, s->out.ptr + s->out.len, need + 1);
        toolgov__tools_write(&o, TOOLGOV_TOOLS_MCP, n, served_view, s);
        if (o.len == need)
            s->out.len += need;
        else /* the host's hook changed its answer between the passes */
            s->out.failed = 1;
    }
    return end_result(s);
}

/* ---- tools/call -------------------------------------------------------- */

static const char *owner_of(const toolgov_mcp_server *s, const char *tool)
{
    const char *o = toolgov_registry_owner(s->reg, tool);
    return o ? o : "core";
}

/* Under the confirmation scope `listed` a yes covers exactly the calls its
** question listed (policy.h). */
static int scope_listed(const toolgov_mcp_server *s)
{
    return toolgov_policy_confirm_scope(s->pol) == TOOLGOV_CONFIRM_SCOPE_LISTED;
}

/* Run the call through the gate and answer it: the run's current decoded
** call `dc` at once, or (dc NULL) `args` when the user's answer arrives, which
** toolgov_run_invoke() decodes again (the earlier decoded call did not
** outlive the question). ECONFIRM / EAPPROVAL are returned to the caller
** (nothing sent) so it can ask. */
static int invoke_and_answer(toolgov_mcp_server *s, const char *id, const char *tool,
                             const toolgov_decoded_call *dc, const char *args)
{
    toolgov_outcome oc;
    char msg[512];
    int rc = dc ? toolgov_run_invoke_decoded(&oc, s->run, dc)
                : toolgov_run_invoke(&oc, s->run, tool, args);

    if (rc == TOOLGOV_ECONFIRM || rc == TOOLGOV_EAPPROVAL)
        return rc;
    if (rc == TOOLGOV_ENEVER) {
        snprintf(msg, sizeof msg,
                 "%s was not run: the user said never to this call, in a standing grant. "
                 "Do not call it again; tell the user what you meant to do instead.", tool);
        return send_tool_error(s, id, msg);
    }
    if (rc == TOOLGOV_EREFUSED || rc == TOOLGOV_EENDED) {
        if (toolgov_run_confirmation(s->run) == TOOLGOV_CONFIRMATION_REFUSED)
            snprintf(msg, sizeof msg,
                     "%s was not run: the user declined the writes of this run. Writes stay "
                     "refused until a new run starts (a new session, or _meta "
                     "{\"toolgov/new_run\": true} on a call).", tool);
        else if (rc == TOOLGOV_EREFUSED && scope_listed(s))
            snprintf(msg, sizeof msg,
                     "%s was not run: the user declined this call in this run (a call with "
                     "other arguments asks on its own).", tool);
        else
            snprintf(msg, sizeof msg, "%s was not run: %s.", tool, toolgov_strerror(rc));
        return send_tool_error(s, id, msg);
    }
    if (rc == TOOLGOV_ENOMEM)
        return send_error(s, id, ERR_INTERNAL, "out of memory");
    if (rc < 0) {
        if (oc.output_len)
            rc = send_tool_result(s, id, oc.output, oc.output_len, 1);
        else {
            snprintf(msg, sizeof msg, "%s failed: %s", tool, toolgov_strerror(rc));
            rc = send_tool_error(s, id, msg);
        }
        return rc;
    }
    rc = send_tool_result(s, id, oc.output, oc.output_len, 0);
    /* An answers-directly end closes the run: the next call is a new one. */
    if (oc.ended && rc == 0)
        rc = new_run(s);
    return rc;
}

/* Text of a call as the user is shown it (toolgov_text_shown): nothing
** invisible or reordering reaches the question. */
static void put_shown(toolgov__jbuf *b, const char *text)
{
    size_t need = 0, len = strlen(text);
    char *tmp;

    if (toolgov_text_shown(NULL, 0, &need, text, len) != 0 || !(tmp = malloc(need + 1))) {
        b->failed = 1;
        return;
    }
    if (toolgov_text_shown(tmp, need + 1, NULL, text, len) == 0)
        toolgov__jbuf_put(b, tmp, need);
    else
        b->failed = 1;
    free(tmp);
}

/* Line "- plugin.tool ARGS" of a question. */
static void put_call_line(toolgov__jbuf *b, const toolgov_mcp_server *s, const char *tool,
                          const char *args)
{
    toolgov__jbuf_puts(b, "\n- ");
    put_shown(b, owner_of(s, tool));
    toolgov__jbuf_putc(b, '.');
    put_shown(b, tool);
    toolgov__jbuf_putc(b, ' ');
    put_shown(b, args);
}

/* The form of a question: one field, `remember`, whose choices say how
** long the answer stands ("always" only with a grant store). Titled
** choices (oneOf/const) from revision 2025-11-25 on, enumNames before. */
static void put_remember_schema(toolgov__jbuf *b, const toolgov_mcp_server *s)
{
    static const char *const values[] = {"once", "session", "always"};
    static const char *const titles[] = {"Only this time", "Allow for this session",
                                         "Always allow (kept by the operator)"};
    size_t i, n = s->grant_store ? 3 : 2;
    int titled = strcmp(s->protocol, "2025-11-25") >= 0;

    toolgov__jbuf_puts(b, "{\"type\":\"object\",\"properties\":{\"remember\":{\"type\":\"string\","
                          "\"title\":\"Remember this answer\",");
    toolgov__jbuf_puts(b, titled ? "\"oneOf\":[" : "\"enum\":[");
    for (i = 0; i < n; i++) {
        if (i)
            toolgov__jbuf_putc(b, ',');
        if (titled) {
            toolgov__jbuf_puts(b, "{\"const\":");
            put_cstr(b, values[i]);
            toolgov__jbuf_puts(b, ",\"title\":");
            put_cstr(b, titles[i]);
            toolgov__jbuf_putc(b, '}');
        } else {
            put_cstr(b, values[i]);
        }
    }
    if (!titled) {
        toolgov__jbuf_puts(b, "],\"enumNames\":[");
        for (i = 0; i < n; i++) {
            if (i)
                toolgov__jbuf_putc(b, ',');
            put_cstr(b, titles[i]);
        }
    }
    toolgov__jbuf_puts(b, "],\"default\":\"once\"}}}");
}

/* Send elicitation/create with the message in s->scratch. */
static int send_question(toolgov_mcp_server *s, long eid)
{
    char num[24];
    if (toolgov__jbuf_finish(&s->scratch))
        return TOOLGOV_ENOMEM;
    snprintf(num, sizeof num, "%ld", eid);
    toolgov__jbuf_clear(&s->out);
    toolgov__jbuf_puts(&s->out, "{\"jsonrpc\":\"2.0\",\"id\":");
    toolgov__jbuf_puts(&s->out, num);
    toolgov__jbuf_puts(&s->out, ",\"method\":\"elicitation/create\",\"params\":{");
    if (strcmp(s->protocol, "2025-11-25") >= 0)
        toolgov__jbuf_puts(&s->out, "\"mode\":\"form\",");
    toolgov__jbuf_puts(&s->out, "\"message\":");
    put_text(&s->out, s->scratch.ptr, s->scratch.len);
    toolgov__jbuf_puts(&s->out, ",\"requestedSchema\":");
    put_remember_schema(&s->out, s);
    toolgov__jbuf_puts(&s->out, "}}");
    return send_out(s);
}

/* The question's last sentence: what remembering an accept would cover. */
static void put_remember_note(toolgov__jbuf *b, const toolgov_mcp_server *s, const char *what)
{
    toolgov__jbuf_puts(b, "\nRemember this answer to let ");
    toolgov__jbuf_puts(b, what);
    toolgov__jbuf_puts(b, s->grant_store ? " run without asking for the rest of this session, "
                                           "or always."
                                         : " run without asking for the rest of this session.");
}

static int add_pending(toolgov_mcp_server *s, const char *id, const char *tool,
                       const char *args, long eid, int kind)
{
    pending *p;
    if (s->pend_count >= MAX_PENDING)
        return TOOLGOV_ENOSPC;
    if (s->pend_count == s->pend_cap) {
        size_t cap = s->pend_cap ? 2 * s->pend_cap : 8;
        pending *np = realloc(s->pend, cap * sizeof *np);
        if (!np)
            return TOOLGOV_ENOMEM;
        s->pend = np;
        s->pend_cap = cap;
    }
    p = &s->pend[s->pend_count];
    memset(p, 0, sizeof *p);
    p->id = dup_bytes(id, strlen(id));
    p->tool = dup_bytes(tool, strlen(tool));
    p->args = dup_bytes(args, strlen(args));
    p->progress = s->call_ctx.progress_token
                      ? dup_bytes(s->call_ctx.progress_token, strlen(s->call_ctx.progress_token))
                      : NULL;
    if (!p->id || !p->tool || !p->args || (s->call_ctx.progress_token && !p->progress)) {
        pending_free(p);
        return TOOLGOV_ENOMEM;
    }
    p->elicit = eid;
    p->run_gen = s->run_gen;
    p->kind = kind;
    p->live = 1;
    s->pend_count++;
    return 0;
}

/* The refusal for a client that cannot ask its user. */
static int refuse_no_elicitation(toolgov_mcp_server *s, const char *id, const char *tool,
                                 int kind)
{
    char msg[1024];
    if (kind == ASK_CONFIRM)
        snprintf(msg, sizeof msg,
                 "%s was not run: it is a write that needs the user's confirmation once per run, "
                 "and this MCP client cannot ask the user (it did not declare the elicitation "
                 "capability). The operator can let such writes run without asking by starting "
                 "toolgov-mcp with TOOLGOV_CONFIRM_ONCE_TOOLS set to a list of tools that leaves "
                 "%s out (TOOLGOV_CONFIRM_ONCE_TOOLS=none: no write asks), or connect a client "
                 "that supports elicitation.", tool, tool);
    else
        snprintf(msg, sizeof msg,
                 "%s was not run: it is destructive, so every call needs the user's own approval, "
                 "and this MCP client cannot ask the user (it did not declare the elicitation "
                 "capability). Destructive tools cannot run for this client; no setting changes "
                 "that. Use a client that supports elicitation.", tool);
    return send_tool_error(s, id, msg);
}

static int refuse_busy(toolgov_mcp_server *s, const char *id, const char *tool)
{
    char msg[256];
    snprintf(msg, sizeof msg, "%s was not run: %d calls already wait for the user's answer; "
                              "call it again once they are answered", tool, MAX_PENDING);
    return send_tool_error(s, id, msg);
}

static int ask_confirm(toolgov_mcp_server *s, const char *id, const char *tool, const char *args)
{
    long eid;
    int rc;
    if (!s->elicit_form)
        return refuse_no_elicitation(s, id, tool, ASK_CONFIRM);
    if (s->pend_count >= MAX_PENDING)
        return refuse_busy(s, id, tool);
    toolgov__jbuf_clear(&s->scratch);
    if (scope_listed(s)) {
        /* A yes covers exactly what the question shows: this one call. */
        toolgov__jbuf_puts(&s->scratch, "Allow this change? The assistant wants to run:");
        put_call_line(&s->scratch, s, tool, args);
        toolgov__jbuf_puts(&s->scratch, "\nAccept runs exactly this call, once; any other write "
                                       "asks on its own. Decline refuses this call.");
        put_remember_note(&s->scratch, s, "this tool's writes");
    } else {
        /* Under scope run the yes is the run's: a write that arrives while
        ** the question is open waits on it, as the question says. */
        if (s->confirm_elicit)
            return add_pending(s, id, tool, args, s->confirm_elicit, ASK_CONFIRM);
        toolgov__jbuf_puts(&s->scratch, "Allow the changes of this session? The assistant wants "
                                       "to run:");
        put_call_line(&s->scratch, s, tool, args);
        toolgov__jbuf_puts(&s->scratch, "\nAccept lets these writes and the session's later "
                                       "writes run without asking again; Decline refuses every "
                                       "write of this run.");
        put_remember_note(&s->scratch, s, "these tools' writes");
    }
    eid = s->next_elicit++;
    rc = add_pending(s, id, tool, args, eid, ASK_CONFIRM);
    if (rc)
        return rc;
    if (!scope_listed(s))
        s->confirm_elicit = eid;
    return send_question(s, eid);
}

static int ask_approval(toolgov_mcp_server *s, const char *id, const char *tool, const char *args)
{
    long eid;
    int rc;
    if (!s->elicit_form)
        return refuse_no_elicitation(s, id, tool, ASK_APPROVAL);
    if (s->pend_count >= MAX_PENDING)
        return refuse_busy(s, id, tool);
    toolgov__jbuf_clear(&s->scratch);
    toolgov__jbuf_puts(&s->scratch, "Approve this destructive call? It cannot be undone:");
    put_call_line(&s->scratch, s, tool, args);
    toolgov__jbuf_puts(&s->scratch, "\nAccept runs this one call; any other destructive call asks "
                                   "again.");
    put_remember_note(&s->scratch, s, "exactly this call");
    eid = s->next_elicit++;
    rc = add_pending(s, id, tool, args, eid, ASK_APPROVAL);
    return rc ? rc : send_question(s, eid);
}

static int call_tool(toolgov_mcp_server *s, const msg *m, const char *id, long params)
{
    long name = member(m, params, "name"), args = member(m, params, "arguments");
    long meta = member(m, params, "_meta");
    const toolgov_tool_spec *spec;
    toolgov_decoded_call dc;
    char *tool = NULL, *text = NULL, *progress = NULL, emsg[512];
    int rc;

    if (!is_type(m, name, TOOLGOV__JSON_STRING))
        return send_error(s, id, ERR_INVALID_PARAMS, "tools/call needs params.name, a string");
    tool = dup_bytes(node(m, name)->u.str, node(m, name)->len);
    if (!tool)
        return TOOLGOV_ENOMEM;
    spec = strlen(tool) == node(m, name)->len ? served_tool(s, tool) : NULL;
    if (!spec) {
        snprintf(emsg, sizeof emsg, "unknown tool '%.200s'; tools/list names the tools served",
                 tool);
        rc = send_error(s, id, ERR_INVALID_PARAMS, emsg);
        goto out;
    }
    if (unavailable(s, tool, emsg, sizeof emsg)) {
        rc = send_tool_error(s, id, emsg);
        goto out;
    }
    if (args >= 0 && !is_type(m, args, TOOLGOV__JSON_OBJECT)) {
        snprintf(emsg, sizeof emsg, "%s: arguments must be a JSON object", tool);
        rc = send_tool_error(s, id, emsg);
        goto out;
    }
    if (args >= 0) {
        size_t pos = node(m, args)->pos;
        text = dup_bytes(m->doc.text + pos, value_end(m->doc.text, m->doc.len, pos) - pos);
    } else {
        text = dup_bytes("{}", 2);
    }
    if (!text) {
        rc = TOOLGOV_ENOMEM;
        goto out;
    }
    if (is_type(m, member(m, meta, "toolgov/new_run"), TOOLGOV__JSON_TRUE) &&
        (rc = new_run(s)))
        goto out;
    /* Decode once, before the gate: arguments the parameters refuse never
    ** reach the gate or the handler, and the model gets the decoder's
    ** message. The call goes on as the run's decoded call; its canonical
    ** text is kept for a question it may need. */
    rc = toolgov_run_decode(&dc, s->run, tool, text, strlen(text));
    if (rc == TOOLGOV_EARGS) {
        rc = send_tool_result(s, id, dc.message, dc.message_len, 1);
        goto out;
    }
    if (rc == TOOLGOV_ENOMEM)
        goto out;
    if (rc) {
        snprintf(emsg, sizeof emsg, "%s: the arguments cannot be decoded (%s)", tool,
                 toolgov_strerror(rc));
        rc = send_tool_error(s, id, emsg);
        goto out;
    }
    free(text);
    text = dup_bytes(dc.args, dc.args_len);
    if (!text) {
        rc = TOOLGOV_ENOMEM;
        goto out;
    }
    /* The client's progress token, for a handler that reports progress
    ** (and for the pending call, when the gate asks first). */
    {
        long tok = member(m, meta, "progressToken");
        if (is_type(m, tok, TOOLGOV__JSON_STRING) || is_type(m, tok, TOOLGOV__JSON_NUMBER)) {
            toolgov__jbuf_clear(&s->scratch);
            toolgov__json_put_value(&s->scratch, &m->doc, (size_t)tok);
            if (toolgov__jbuf_finish(&s->scratch) ||
                !(progress = dup_bytes(s->scratch.ptr, s->scratch.len))) {
                rc = TOOLGOV_ENOMEM;
                goto out;
            }
        }
    }
    s->call_ctx.progress_token = progress;
    s->call_ctx.sent_ = 0;
    rc = invoke_and_answer(s, id, tool, &dc, NULL);
    if (rc == TOOLGOV_ECONFIRM)
        rc = ask_confirm(s, id, tool, text);
    else if (rc == TOOLGOV_EAPPROVAL)
        rc = ask_approval(s, id, tool, text);
out:
    s->call_ctx.progress_token = NULL;
    free(progress);
    free(tool);
    free(text);
    return rc;
}

/* ---- answers to our questions and cancellations ------------------------ */

static void drop_dead(toolgov_mcp_server *s)
{
    size_t i, j = 0;
    for (i = 0; i < s->pend_count; i++) {
        if (s->pend[i].live)
            s->pend[j++] = s->pend[i];
        else
            pending_free(&s->pend[i]);
    }
    s->pend_count = j;
}

static int answer_pending(toolgov_mcp_server *s, pending *p, const char *action)
{
    char msg[512];
    int rc = 0;
    p->live = 0;
    if (p->run_gen != s->run_gen) {
        snprintf(msg, sizeof msg, "%s was not run: its run ended before the user answered. "
                                  "Call it again to ask again.", p->tool);
        return send_tool_error(s, p->id, msg);
    }
    if (strcmp(action, "accept") == 0) {
        if (p->kind == ASK_APPROVAL &&
            (rc = toolgov_run_approve(s->run, p->tool, p->args)) != 0)
            return send_error(s, p->id, ERR_INTERNAL, toolgov_strerror(rc));
        s->call_ctx.progress_token = p->progress;
        s->call_ctx.sent_ = 0;
        rc = invoke_and_answer(s, p->id, p->tool, NULL, p->args);
        s->call_ctx.progress_token = NULL;
        if (rc == TOOLGOV_ECONFIRM || rc == TOOLGOV_EAPPROVAL) /* cannot happen after a yes */
            rc = send_tool_error(s, p->id, "the call still waits for the user; call it again");
        return rc;
    }
    if (strcmp(action, "decline") == 0) {
        if (p->kind == ASK_CONFIRM && scope_listed(s))
            snprintf(msg, sizeof msg, "%s was not run: the user declined this call.", p->tool);
        else if (p->kind == ASK_CONFIRM)
            snprintf(msg, sizeof msg, "%s was not run: the user declined the writes of this run. "
                                      "Writes stay refused until a new run starts.", p->tool);
        else
            snprintf(msg, sizeof msg, "%s was not run: the user did not approve this call.",
                     p->tool);
        return send_tool_error(s, p->id, msg);
    }
    snprintf(msg, sizeof msg, "%s was not run: the user closed the question without answering. "
                              "Call it again to ask again.", p->tool);
    return send_tool_error(s, p->id, msg);
}

/* ---- remembered answers (standing grants) ----------------------------- */

enum { REMEMBER_ONCE, REMEMBER_SESSION, REMEMBER_ALWAYS };

/* How long an accept stands: the form's `remember` (read strictly: a key
** given twice, a value not offered, anything else is "once"). */
static int remember_choice(const toolgov_mcp_server *s, const msg *m, long result)
{
    long content = member(m, result, "content");
    long r = member(m, content, "remember");

    if (r < 0 || has_duplicate_key(m, content))
        return REMEMBER_ONCE;
    if (str_is(m, r, "session"))
        return REMEMBER_SESSION;
    if (str_is(m, r, "always") && s->grant_store)
        return REMEMBER_ALWAYS;
    return REMEMBER_ONCE;
}

/* Keep an accept as a standing allow: of the whole tool (args NULL: a
** confirm-once write), or of exactly one destructive call. For the
** session it joins the runs' set; "always" also goes to the store, whose
** failure the host reports (the grant still holds for the session). */
static void remember_grant(toolgov_mcp_server *s, const char *tool, const char *args, int how)
{
    toolgov_grant g;

    if (how == REMEMBER_ONCE)
        return;
    memset(&g, 0, sizeof g);
    g.tool = tool;
    g.args = args;
    g.verdict = TOOLGOV_GRANT_ALLOW;
    if (how == REMEMBER_ALWAYS)
        (void)s->grant_store(s->grant_store_ud, &g);
    (void)toolgov_grants_add(NULL, s->grants, s->reg, &g);
}

/* An accepted question to remember: each tool the confirmation listed
** (once), or the approved call. */
static void remember_answer(toolgov_mcp_server *s, long eid, int how)
{
    size_t i, j;

    for (i = 0; i < s->pend_count && how != REMEMBER_ONCE; i++) {
        const pending *p = &s->pend[i];
        int seen = 0;

        if (!p->live || p->elicit != eid || p->run_gen != s->run_gen)
            continue;
        if (p->kind == ASK_APPROVAL) {
            remember_grant(s, p->tool, p->args, how);
            continue;
        }
        for (j = 0; j < i; j++)
            seen |= s->pend[j].live && s->pend[j].elicit == eid &&
                    s->pend[j].run_gen == s->run_gen && strcmp(s->pend[j].tool, p->tool) == 0;
        if (!seen)
            remember_grant(s, p->tool, NULL, how);
    }
}

/* The client's answer to our elicitation/create `eid`: result.action, or an
** error (treated as no answer). */
static int on_answer(toolgov_mcp_server *s, const msg *m, long eid, long result)
{
    long act = member(m, result, "action");
    const char *action = str_is(m, act, "accept")    ? "accept"
                         : str_is(m, act, "decline") ? "decline"
                                                     : "cancel";
    size_t i, n;
    int rc = 0, is_confirm = 0;

    /* A confirmation question is one that calls waiting to be confirmed
    ** wait on (under scope listed there may be several open at once). */
    for (i = 0; i < s->pend_count; i++)
        if (s->pend[i].live && s->pend[i].elicit == eid)
            is_confirm |= s->pend[i].kind == ASK_CONFIRM;
    if (eid == s->confirm_elicit)
        s->confirm_elicit = 0;
    if (is_confirm) {
        if (strcmp(action, "accept") == 0 || strcmp(action, "decline") == 0) {
            /* The first answer holds; a contradicting one is reported.
            ** The answer is given with the calls the question listed, so
            ** under the confirmation scope `listed` it covers exactly them. */
            toolgov_proposed_call listed[MAX_PENDING];
            int yes = action[0] == 'a';
            size_t k = 0;
            for (i = 0; i < s->pend_count && k < MAX_PENDING; i++)
                if (s->pend[i].live && s->pend[i].elicit == eid &&
                    s->pend[i].run_gen == s->run_gen) {
                    listed[k].tool = s->pend[i].tool;
                    listed[k++].args = s->pend[i].args;
                }
            if (k && toolgov_run_confirm_listed(s->run, yes, listed, k) != 0)
                action = "cancel";
        }
    }
    if (strcmp(action, "accept") == 0)
        remember_answer(s, eid, remember_choice(s, m, result));
    /* Entries may be added while answering (a call the answer did not
    ** cover may ask again under the confirmation scope `listed`), so walk
    ** the count taken now. */
    n = s->pend_count;
    for (i = 0; i < n && rc == 0; i++)
        if (s->pend[i].live && s->pend[i].elicit == eid)
            rc = answer_pending(s, &s->pend[i], action);
    drop_dead(s);
    return rc;
}

static int on_cancelled(toolgov_mcp_server *s, const msg *m, long params)
{
    long rid = member(m, params, "requestId");
    char *id;
    size_t i, j;
    int rc = 0;
    if (!is_type(m, rid, TOOLGOV__JSON_STRING) && !is_type(m, rid, TOOLGOV__JSON_NUMBER))
        return 0;
    id = value_text(s, m, rid);
    if (!id)
        return TOOLGOV_ENOMEM;
    for (i = 0; i < s->pend_count; i++) {
        pending *p = &s->pend[i];
        int waiting = 0;
        if (!p->live || strcmp(p->id, id) != 0)
            continue;
        p->live = 0;
        for (j = 0; j < s->pend_count; j++)
            waiting |= s->pend[j].live && s->pend[j].elicit == p->elicit;
        if (!waiting) {
            char num[24];
            /* Withdraw the question nobody waits on. */
            if (p->elicit == s->confirm_elicit)
                s->confirm_elicit = 0;
            snprintf(num, sizeof num, "%ld", p->elicit);
            toolgov__jbuf_clear(&s->out);
            toolgov__jbuf_puts(&s->out, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                                       "\"params\":{\"requestId\":");
            toolgov__jbuf_puts(&s->out, num);
            toolgov__jbuf_puts(&s->out, ",\"reason\":\"the tool call that asked was cancelled\"}}");
            rc = send_out(s);
        }
    }
    free(id);
    drop_dead(s);
    return rc;
}

/* ---- initialize -------------------------------------------------------- */

static int initialize(toolgov_mcp_server *s, const msg *m, const char *id, long params)
{
    long ver = member(m, params, "protocolVersion");
    long caps = member(m, params, "capabilities");
    long eli = member(m, caps, "elicitation");
    const char *chosen = protocol_versions[0];
    size_t i;

    if (!is_type(m, ver, TOOLGOV__JSON_STRING))
        return send_error(s, id, ERR_INVALID_PARAMS,
                          "initialize needs params.protocolVersion, a string");
    for (i = 0; i < sizeof protocol_versions / sizeof protocol_versions[0]; i++)
        if (str_is(m, ver, protocol_versions[i]))
            chosen = protocol_versions[i];
    snprintf(s->protocol, sizeof s->protocol, "%s", chosen);
    /* Form elicitation: an empty elicitation object (the revisions before
    ** modes) or one with "form". */
    s->elicit_form = is_type(m, eli, TOOLGOV__JSON_OBJECT) &&
                     (node(m, eli)->len == 0 || member(m, eli, "form") >= 0);
    s->initialized = 1;
    begin_result(s, id);
    toolgov__jbuf_puts(&s->out, "{\"protocolVersion\":");
    put_cstr(&s->out, chosen);
    toolgov__jbuf_puts(&s->out, s->tools_changed
                                    ? ",\"capabilities\":{\"tools\":{\"listChanged\":true}},"
                                      "\"serverInfo\":{\"name\":"
                                    : ",\"capabilities\":{\"tools\":{\"listChanged\":false}},"
                                      "\"serverInfo\":{\"name\":");
    put_cstr(&s->out, s->name);
    toolgov__jbuf_puts(&s->out, ",\"version\":");
    put_cstr(&s->out, TOOLGOV_VERSION_STRING);
    toolgov__jbuf_puts(&s->out, "},\"instructions\":");
    put_cstr(&s->out, "Tools marked readOnlyHint read only. Writes ask the user once per "
                      "session and destructive tools ask for every call: the server enforces "
                      "this, so call the tool and let it ask.");
    toolgov__jbuf_putc(&s->out, '}');
    return end_result(s);
}

/* ---- dispatch ---------------------------------------------------------- */

static int request(toolgov_mcp_server *s, const msg *m, const char *id, const char *method,
                   long params)
{
    char emsg[256];
    if (strcmp(method, "initialize") == 0)
        return initialize(s, m, id, params);
    if (strcmp(method, "ping") == 0) {
        begin_result(s, id);
        toolgov__jbuf_puts(&s->out, "{}");
        return end_result(s);
    }
    if (strcmp(method, "tools/list") == 0 || strcmp(method, "tools/call") == 0) {
        if (!s->initialized)
            return send_error(s, id, ERR_INVALID_REQUEST,
                              "the session is not initialized: send initialize first");
        return method[6] == 'l' ? tools_list(s, id) : call_tool(s, m, id, params);
    }
    snprintf(emsg, sizeof emsg, "method not found: '%.120s'", method);
    return send_error(s, id, ERR_METHOD_NOT_FOUND, emsg);
}

static int handle_one(toolgov_mcp_server *s, const char *text, size_t len);

int toolgov_mcp_server_handle(toolgov_mcp_server *s, const char *text, size_t len)
{
    int rc = handle_one(s, text, len);
    return rc ? rc : toolgov_mcp_server_idle(s);
}

int toolgov_mcp_server_idle(toolgov_mcp_server *s)
{
    if (!s->tools_changed || !s->initialized || !s->tools_changed(s->tool_ud))
        return 0;
    toolgov__jbuf_clear(&s->out);
    toolgov__jbuf_puts(&s->out,
                       "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}");
    return send_out(s);
}

static int handle_one(toolgov_mcp_server *s, const char *text, size_t len)
{
    msg m;
    toolgov__json_error jerr;
    long id_i, method_i, params_i;
    char *id = NULL, *method = NULL, emsg[256];
    int rc;

    toolgov__scratch_reset(&s->arena);
    if (len > s->max_message)
        return toolgov_mcp_server_oversized(s, len);
    rc = toolgov__json_parse(&m.doc, &jerr, &s->arena, text, len, TOOLGOV__JSON_MAX_DEPTH,
                             s->max_message, TOOLGOV__JSON_ALLOW_DUP);
    if (rc == TOOLGOV_ENOMEM)
        return send_error(s, NULL, ERR_INTERNAL, "out of memory");
    if (rc) {
        snprintf(emsg, sizeof emsg, "parse error: %s at byte %zu", jerr.msg, jerr.pos);
        return send_error(s, NULL, ERR_PARSE, emsg);
    }
    if (m.doc.nodes[0].type != TOOLGOV__JSON_OBJECT)
        return send_error(s, NULL, ERR_INVALID_REQUEST,
                          m.doc.nodes[0].type == TOOLGOV__JSON_ARRAY
                              ? "invalid request: batches are not supported; send one message "
                                "per line"
                              : "invalid request: a message is a JSON object");
    id_i = member(&m, 0, "id");
    method_i = member(&m, 0, "method");
    params_i = member(&m, 0, "params");
    /* A usable id: a string or an integer. */
    if (id_i >= 0) {
        int64_t v;
        if (is_type(&m, id_i, TOOLGOV__JSON_STRING) ||
            (is_type(&m, id_i, TOOLGOV__JSON_NUMBER) &&
             toolgov__json_int64(node(&m, id_i), &v) == 0 && node(&m, id_i)->is_int))
            id = value_text(s, &m, id_i);
        else
            return send_error(s, NULL, ERR_INVALID_REQUEST,
                              "invalid request: id must be a string or an integer");
        if (!id)
            return TOOLGOV_ENOMEM;
    }
    if (doc_has_duplicate_key(&m, member(&m, params_i, "arguments"))) {
        int64_t eid = 0;
        /* An answer to one of our questions is not answered back: one that
        ** cannot be read is no answer (the question closes, nothing runs). */
        if (method_i < 0 && is_type(&m, id_i, TOOLGOV__JSON_NUMBER) &&
            toolgov__json_int64(node(&m, id_i), &eid) == 0 && eid > 0)
            rc = on_answer(s, &m, (long)eid, -1);
        else
            rc = send_error(s, id, ERR_INVALID_REQUEST, "invalid request: a key appears twice");
        goto out;
    }
    if (!str_is(&m, member(&m, 0, "jsonrpc"), "2.0")) {
        rc = send_error(s, id, ERR_INVALID_REQUEST, "invalid request: jsonrpc must be \"2.0\"");
        goto out;
    }
    if (method_i < 0) {
        /* A response to one of our requests. */
        long result = member(&m, 0, "result");
        int64_t eid = 0;
        rc = 0;
        if (is_type(&m, id_i, TOOLGOV__JSON_NUMBER) &&
            toolgov__json_int64(node(&m, id_i), &eid) == 0 && eid > 0 &&
            (result >= 0 || member(&m, 0, "error") >= 0))
            rc = on_answer(s, &m, (long)eid, result);
        else if (result < 0 && member(&m, 0, "error") < 0)
            rc = send_error(s, id, ERR_INVALID_REQUEST, "invalid request: no method");
        goto out;
    }
    if (!is_type(&m, method_i, TOOLGOV__JSON_STRING)) {
        rc = send_error(s, id, ERR_INVALID_REQUEST, "invalid request: method must be a string");
        goto out;
    }
    method = dup_bytes(node(&m, method_i)->u.str, node(&m, method_i)->len);
    if (!method) {
        rc = TOOLGOV_ENOMEM;
        goto out;
    }
    if (params_i >= 0 && !is_type(&m, params_i, TOOLGOV__JSON_OBJECT)) {
        rc = id ? send_error(s, id, ERR_INVALID_PARAMS, "params must be an object") : 0;
        goto out;
    }
    if (!id) {
        /* Notifications: never answered. */
        rc = 0;
        if (strcmp(method, "notifications/cancelled") == 0)
            rc = on_cancelled(s, &m, params_i);
        goto out;
    }
    rc = request(s, &m, id, method, params_i);
out:
    free(id);
    free(method);
    if (rc == TOOLGOV_ENOMEM)
        rc = send_error(s, NULL, ERR_INTERNAL, "out of memory");
    return rc;
}

int toolgov_mcp_server_oversized(toolgov_mcp_server *s, size_t len)
{
    char emsg[160];
    snprintf(emsg, sizeof emsg,
             "invalid request: the message is %zu bytes or more; the limit is %zu bytes", len,
             s->max_message);
    return send_error(s, NULL, ERR_INVALID_REQUEST, emsg);
}

size_t toolgov_mcp_server_max_message(const toolgov_mcp_server *s)
{
    return s->max_message;
}

int toolgov_mcp_server_new(toolgov_mcp_server **out, const toolgov_registry *reg,
                           const toolgov_policy *pol, const toolgov_mcp_options *opt,
                           toolgov_mcp_write_fn write, void *write_ud)
{
    toolgov_mcp_server *s;
    int rc;
    if (!out || !reg || !pol || !write)
        return TOOLGOV_EINVAL;
    s = calloc(1, sizeof *s);
    if (!s)
        return TOOLGOV_ENOMEM;
    s->reg = reg;
    s->pol = pol;
    s->write = write;
    s->write_ud = write_ud;
    s->max_message = opt && opt->max_message ? opt->max_message : TOOLGOV_MCP_MAX_MESSAGE;
    if (s->max_message > TOOLGOV__JSON_MAX_LEN)
        s->max_message = TOOLGOV__JSON_MAX_LEN;
    s->name = opt && opt->server_name ? opt->server_name : "toolgov-mcp";
    s->audit = opt ? opt->audit : NULL;
    s->audit_ud = opt ? opt->audit_ud : NULL;
    s->tool_unavailable = opt ? opt->tool_unavailable : NULL;
    s->tools_changed = opt ? opt->tools_changed : NULL;
    s->tool_ud = opt ? opt->tool_ud : NULL;
    s->grants = opt ? opt->grants : NULL;
    s->grant_store = opt ? opt->grant_store : NULL;
    s->grant_store_ud = opt ? opt->grant_store_ud : NULL;
    if (!s->grants) {
        if (toolgov_grants_new(&s->grants, "session", NULL) != 0) {
            free(s);
            return TOOLGOV_ENOMEM;
        }
        s->own_grants = 1;
    }
    s->alloc.fn = NULL; /* the runtime's default allocator (the C library's) */
    s->alloc.ud = NULL;
    toolgov__scratch_init(&s->arena, &s->alloc);
    toolgov__jbuf_init(&s->out, &s->alloc);
    toolgov__jbuf_init(&s->scratch, &s->alloc);
    snprintf(s->protocol, sizeof s->protocol, "%s", TOOLGOV_MCP_PROTOCOL_LATEST);
    s->next_elicit = 1;
    s->call_ctx.progress = send_progress;
    s->call_ctx.server_ = s;
    if ((rc = new_run(s)) != 0) {
        toolgov_mcp_server_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void toolgov_mcp_server_free(toolgov_mcp_server *s)
{
    size_t i;
    if (!s)
        return;
    for (i = 0; i < s->pend_count; i++)
        pending_free(&s->pend[i]);
    free(s->pend);
    toolgov_run_free(s->run);
    if (s->own_grants)
        toolgov_grants_free(s->grants);
    toolgov__scratch_free(&s->arena);
    toolgov__jbuf_free(&s->out);
    toolgov__jbuf_free(&s->scratch);
    free(s);
}
