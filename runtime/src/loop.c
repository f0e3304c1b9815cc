/* SPDX-License-Identifier: MIT */
/*
** loop.c: the agent loop of one turn, sans I/O (loop.h, SPEC §12).
**
** A turn is a state machine: SEND (build the request) -> WAIT_RESPONSE ->
** GATE (the batch's one confirmation) -> WAIT_CONFIRM -> EXEC (each call
** in order; a destructive one stops at WAIT_APPROVAL) -> SEND ... -> DONE.
** Everything of the turn (the user's words, the tools, every call's id,
** name, arguments and result) is kept in one growable text, `store`, and
** named by offsets, since the text moves as it grows; the requests are
** written from it afresh at each step, so the restated question and the
** scratchpad are always current and never pile up in the history.
*/
#include <stdio.h>
#include <string.h>

#include "loop_internal.h"
#include "tooljson.h"
#include "utf8.h"
#include "toolgov/toolcalls.h"

/* ---- small helpers -------------------------------------------------------- */

size_t toolgov__loop_keep(toolgov_loop *lp, const char *s, size_t n)
{
    size_t at = lp->store.len;
    toolgov__jbuf_put(&lp->store, s, n);
    toolgov__jbuf_putc(&lp->store, '\0');
    return at;
}

/* The result as the request's JSON writer spells it, decoded: each byte
** that starts no well-formed UTF-8 sequence is U+FFFD (jsonwrite.c). A
** copy only when there is such a byte. Each piece goes through a local
** copy: the store may move as it grows. */
void toolgov__loop_keep_sent(toolgov_loop *lp, lcall *c)
{
    const unsigned char *r = (const unsigned char *)S(lp, c->result);
    size_t i, k, at;

    c->sent = c->result;
    c->sent_len = c->result_len;
    for (i = 0; i < c->result_len; i += k)
        if ((k = toolgov__utf8_len(r + i, r + c->result_len)) == 0)
            break;
    if (i == c->result_len)
        return;
    at = lp->store.len;
    for (i = 0; i < c->result_len; i += k ? k : 1) {
        char piece[4];
        r = (const unsigned char *)S(lp, c->result);
        k = toolgov__utf8_len(r + i, r + c->result_len);
        if (k)
            memcpy(piece, r + i, k);
        else
            memcpy(piece, "\xEF\xBF\xBD", 3);
        toolgov__jbuf_put(&lp->store, piece, k ? k : 3);
    }
    toolgov__jbuf_putc(&lp->store, '\0');
    if (lp->store.failed)
        return;
    c->sent = at;
    c->sent_len = lp->store.len - 1 - at;
}

/* Grow an array (through a void * temporary: no type punning). */
#define GROW(lp, arr, cap, need)                                                          \
    grow_array(lp, (void *)(arr), &tmp_, &(cap), (need), sizeof *(arr)) ||               \
        ((arr) = tmp_, 0)

#define keep toolgov__loop_keep

static int grow_array(toolgov_loop *lp, void *arr, void **tmp, size_t *cap, size_t need,
                      size_t elem)
{
    *tmp = arr;
    return toolgov__reserve(&lp->alloc, tmp, cap, need, elem);
}

static void put_lit(toolgov__jbuf *b, const char *s)
{
    toolgov__jbuf_puts(b, s);
}

static void put_str(toolgov__jbuf *b, const char *s, size_t len)
{
    toolgov__wire_put_text(b, s, len);
}

static void put_uint(toolgov__jbuf *b, unsigned long v)
{
    char t[24];
    int n = snprintf(t, sizeof t, "%lu", v);
    toolgov__jbuf_put(b, t, (size_t)n);
}

/* Render with a sizing call into the end of b. */
typedef int (*render_fn)(char *out, size_t size, size_t *needed, const void *ctx);

static int put_rendered(toolgov_loop *lp, toolgov__jbuf *b, render_fn fn, const void *ctx)
{
    size_t need = 0;
    void *tmp_;
    int rc = fn(NULL, 0, &need, ctx);
    if (rc)
        return rc;
    if (GROW(lp, b->ptr, b->cap, b->len + need + 1))
        return TOOLGOV_ENOMEM;
    if ((rc = fn(b->ptr + b->len, need + 1, NULL, ctx)))
        return rc;
    b->len += need;
    return 0;
}

typedef struct prompt_ctx {
    const toolgov_loop *lp;
    int tools_fmt;
} prompt_ctx;

static int render_prompt(char *out, size_t size, size_t *needed, const void *ctx)
{
    const toolgov_loop *lp = ((const prompt_ctx *)ctx)->lp;
    toolgov_prompt_options po;
    po.omit_schemas = !lp->opt.schemas_in_prompt;
    po.rule = lp->opt.model_asks ? TOOLGOV_PROMPT_RULE_MODEL_ASKS : TOOLGOV_PROMPT_RULE_LOOP_ASKS;
    return toolgov_prompt_render_with(out, size, needed, lp->pol, lp->tools, lp->n_tools, &po);
}

static int render_tools(char *out, size_t size, size_t *needed, const void *ctx)
{
    const prompt_ctx *c = ctx;
    return toolgov_tools_render(out, size, needed, c->lp->pol, (toolgov_tools_format)c->tools_fmt,
                                c->lp->tools, c->lp->n_tools);
}

/* ---- ending --------------------------------------------------------------- */

static void finish(toolgov_loop *lp, toolgov_loop_end end, const char *answer, size_t len,
                   const char *error)
{
    lp->end = end;
    lp->state = ST_DONE;
    toolgov__jbuf_clear(&lp->answer);
    toolgov__jbuf_put(&lp->answer, answer ? answer : "", answer ? len : 0);
    toolgov__jbuf_finish(&lp->answer);
    if (error && error != lp->error)
        snprintf(lp->error, sizeof lp->error, "%s", error);
    if (lp->run && toolgov_run_end_reason(lp->run) == TOOLGOV_END_NONE)
        toolgov_run_end(lp->run);
}

/* ---- creating ------------------------------------------------------------- */

int toolgov_loop_new(toolgov_loop **out, const toolgov_policy *pol, const toolgov_loop_options *opt)
{
    toolgov_loop *lp;
    const toolgov_allocator *a;
    size_t model_at = 0, pre_at = 0;

    if (!out || !pol || (opt && (unsigned)opt->api > TOOLGOV_LOOP_ANTHROPIC))
        return TOOLGOV_EINVAL;
    a = &pol->reg->alloc;
    lp = toolgov__alloc(a, sizeof *lp);
    if (!lp)
        return TOOLGOV_ENOMEM;
    memset(lp, 0, sizeof *lp);
    lp->pol = pol;
    lp->reg = pol->reg;
    lp->alloc = *a;
    if (opt)
        lp->opt = *opt;
    if (!lp->opt.max_steps)
        lp->opt.max_steps = DEFAULT_STEPS;
    if (!lp->opt.max_request)
        lp->opt.max_request = DEFAULT_REQUEST;
    if (!lp->opt.max_response)
        lp->opt.max_response = DEFAULT_RESPONSE;
    if (!lp->opt.max_calls)
        lp->opt.max_calls = DEFAULT_CALLS;
    if (!lp->opt.max_tokens && lp->opt.api == TOOLGOV_LOOP_ANTHROPIC)
        lp->opt.max_tokens = ANTHROPIC_TOKENS;
    toolgov__jbuf_init(&lp->settings, &lp->alloc);
    toolgov__jbuf_init(&lp->store, &lp->alloc);
    toolgov__jbuf_init(&lp->names, &lp->alloc);
    toolgov__jbuf_init(&lp->system, &lp->alloc);
    toolgov__jbuf_init(&lp->tools_json, &lp->alloc);
    toolgov__jbuf_init(&lp->req, &lp->alloc);
    toolgov__jbuf_init(&lp->pad, &lp->alloc);
    toolgov__jbuf_init(&lp->question, &lp->alloc);
    toolgov__jbuf_init(&lp->answer, &lp->alloc);
    toolgov__wire_init(&lp->wire, &lp->alloc);
    if (lp->opt.model) {
        model_at = lp->settings.len;
        toolgov__jbuf_puts(&lp->settings, lp->opt.model);
        toolgov__jbuf_putc(&lp->settings, '\0');
    }
    if (lp->opt.preamble) {
        pre_at = lp->settings.len;
        toolgov__jbuf_puts(&lp->settings, lp->opt.preamble);
        toolgov__jbuf_putc(&lp->settings, '\0');
    }
    if (toolgov__jbuf_finish(&lp->settings)) {
        toolgov_loop_free(lp);
        return TOOLGOV_ENOMEM;
    }
    if (lp->opt.model)
        lp->opt.model = lp->settings.ptr + model_at;
    if (lp->opt.preamble)
        lp->opt.preamble = lp->settings.ptr + pre_at;
    *out = lp;
    return 0;
}

void toolgov_loop_free(toolgov_loop *lp)
{
    toolgov_allocator a;
    if (!lp)
        return;
    a = lp->alloc;
    toolgov__jbuf_free(&lp->settings);
    toolgov__jbuf_free(&lp->store);
    toolgov__jbuf_free(&lp->names);
    toolgov__jbuf_free(&lp->system);
    toolgov__jbuf_free(&lp->tools_json);
    toolgov__jbuf_free(&lp->req);
    toolgov__jbuf_free(&lp->pad);
    toolgov__jbuf_free(&lp->question);
    toolgov__jbuf_free(&lp->answer);
    toolgov__wire_free(&lp->wire);
    toolgov__free(&a, lp->tools, lp->tools_cap * sizeof *lp->tools);
    toolgov__free(&a, lp->calls, lp->calls_cap * sizeof *lp->calls);
    toolgov__free(&a, lp->stepv, lp->steps_cap * sizeof *lp->stepv);
    toolgov__free(&a, lp->props, lp->props_cap * sizeof *lp->props);
    toolgov__free(&a, lp->asked_call, lp->asked_cap * sizeof *lp->asked_call);
    toolgov__free(&a, lp->per_call, lp->per_call_cap * sizeof *lp->per_call);
    toolgov__free(&a, lp->confirm_idx, lp->confirm_cap * sizeof *lp->confirm_idx);
    toolgov__free(&a, lp->prop_call, lp->prop_call_cap * sizeof *lp->prop_call);
    toolgov__free(&a, lp, sizeof *lp);
}

int toolgov_loop_start(toolgov_loop *lp, toolgov_run *run, const char *user,
                       const char *const *tools, size_t n)
{
    size_t i, at;
    void *tmp_;
    int rc;

    if (!lp || !run || !user || (n && !tools))
        return TOOLGOV_EINVAL;
    for (i = 0; i < n; i++) {
        if (!tools[i])
            return TOOLGOV_EINVAL;
        if (!toolgov_registry_find(lp->reg, tools[i]))
            return TOOLGOV_ENOENT;
    }
    lp->run = run;
    lp->state = ST_IDLE;
    lp->steps = 0;
    lp->end = TOOLGOV_LOOP_END_NONE;
    lp->error[0] = '\0';
    lp->n_calls = lp->n_steps = lp->cursor = lp->n_asked = 0;
    toolgov__jbuf_clear(&lp->store);
    toolgov__jbuf_clear(&lp->names);
    toolgov__jbuf_clear(&lp->answer);
    lp->user = keep(lp, user, strlen(user));
    lp->user_len = strlen(user);
    for (i = 0; i < n; i++) {
        toolgov__jbuf_puts(&lp->names, tools[i]);
        toolgov__jbuf_putc(&lp->names, '\0');
    }
    if (toolgov__jbuf_finish(&lp->names) || toolgov__jbuf_finish(&lp->store) ||
        GROW(lp, lp->tools, lp->tools_cap, n + 1))
        return TOOLGOV_ENOMEM;
    for (i = 0, at = 0; i < n; i++) {
        lp->tools[i] = lp->names.ptr + at;
        at += strlen(lp->tools[i]) + 1;
    }
    lp->n_tools = n;
    if ((rc = toolgov__loop_prepare(lp)))
        return rc;
    lp->state = ST_SEND;
    return 0;
}

int toolgov__loop_prepare(toolgov_loop *lp)
{
    prompt_ctx pc;
    size_t n = lp->n_tools;
    int rc;

    /* The system text and the tools, once per turn. */
    pc.lp = lp;
    pc.tools_fmt = lp->opt.api == TOOLGOV_LOOP_ANTHROPIC ? TOOLGOV_TOOLS_ANTHROPIC
                                                         : TOOLGOV_TOOLS_OPENAI;
    toolgov__jbuf_clear(&lp->system);
    if (lp->opt.preamble && lp->opt.preamble[0]) {
        toolgov__jbuf_puts(&lp->system, lp->opt.preamble);
        if (n)
            toolgov__jbuf_puts(&lp->system, "\n\n");
    }
    if (n && (rc = put_rendered(lp, &lp->system, render_prompt, &pc)))
        return rc;
    toolgov__jbuf_clear(&lp->tools_json);
    if (n && (rc = put_rendered(lp, &lp->tools_json, render_tools, &pc)))
        return rc;
    if (toolgov__jbuf_finish(&lp->system) || toolgov__jbuf_finish(&lp->tools_json))
        return TOOLGOV_ENOMEM;
    if (n && lp->opt.api != TOOLGOV_LOOP_ANTHROPIC &&
        (lp->opt.strict || lp->opt.api == TOOLGOV_LOOP_OPENAI_RESPONSES)) {
        /* OpenAI's other shapes: the list rewritten (tooljson.h). */
        unsigned how = (lp->opt.strict ? TOOLGOV__TOOLS_STRICT : 0u) |
                       (lp->opt.api == TOOLGOV_LOOP_OPENAI_RESPONSES ? TOOLGOV__TOOLS_FLAT : 0u);
        if ((rc = toolgov__tools_openai(&lp->pad, lp->tools_json.ptr, lp->tools_json.len, how,
                                        &lp->alloc)))
            return rc;
        toolgov__jbuf_clear(&lp->tools_json);
        toolgov__jbuf_put(&lp->tools_json, lp->pad.ptr, lp->pad.len);
        if (toolgov__jbuf_finish(&lp->tools_json))
            return TOOLGOV_ENOMEM;
    }
    return 0;
}

/* ---- the scratchpad ----------------------------------------------------- */

static const char *state_words(const lcall *c)
{
    switch (c->outcome) {
    case OC_RAN: return "ran";
    case OC_FAILED: return "ran and failed (its result says why)";
    case OC_REPLAYED: return "replayed (it had run already: its result was given again, nothing ran)";
    case OC_NOT_RUN: break;
    default: return "waits";
    }
    switch (c->why) {
    case TOOLGOV_NOT_RUN_WAITS_CONFIRM: return "not run: waits for the user's confirmation";
    case TOOLGOV_NOT_RUN_DECLINED: return "not run: the user said no";
    case TOOLGOV_NOT_RUN_WAITS_APPROVAL: return "not run: waits for the user's approval";
    case TOOLGOV_NOT_RUN_NOT_APPROVED: return "not run: the user did not approve it";
    case TOOLGOV_NOT_RUN_UNKNOWN_TOOL: return "not run: no such tool";
    case TOOLGOV_NOT_RUN_BAD_ARGS: return "not run: arguments refused (its result says why)";
    case TOOLGOV_NOT_RUN_ENDED: return "not run: the run had ended";
    case TOOLGOV_NOT_RUN_NO_HANDLER: return "not run: not available here";
    case TOOLGOV_NOT_RUN_TOO_MANY: return "not run: too many calls in one reply";
    default: return "not run: not a well-formed call";
    }
}

static void build_pad(toolgov_loop *lp)
{
    size_t i;
    toolgov__jbuf *b = &lp->pad;

    toolgov__jbuf_clear(b);
    put_lit(b, "The user's request, restated: ");
    toolgov__jbuf_put(b, S(lp, lp->user), lp->user_len);
    put_lit(b, "\n\nWhat this turn has done so far, in order:\n");
    for (i = 0; i < lp->n_calls; i++) {
        const lcall *c = &lp->calls[i];
        size_t alen = c->args_len > 300 ? 300 : c->args_len;
        put_uint(b, (unsigned long)i + 1);
        put_lit(b, ". ");
        toolgov__jbuf_put(b, S(lp, c->name), c->name_len > 100 ? 100 : c->name_len);
        toolgov__jbuf_putc(b, ' ');
        toolgov__jbuf_put(b, S(lp, c->args), alen);
        if (alen < c->args_len)
            put_lit(b, "...");
        put_lit(b, ": ");
        put_lit(b, state_words(c));
        toolgov__jbuf_putc(b, '\n');
    }
    put_lit(b, "\nDo not repeat a call that ran or was replayed: its result is above. Make "
               "the calls that are still needed, or answer the user if nothing is left.");
}

/* ---- requests ------------------------------------------------------------- */

static void put_key(toolgov__jbuf *b, const char *k)
{
    toolgov__jbuf_putc(b, '"');
    toolgov__jbuf_puts(b, k);
    put_lit(b, "\":");
}

static void put_result(toolgov_loop *lp, toolgov__jbuf *b, const lcall *c)
{
    if (c->result_len)
        put_str(b, S(lp, c->result), c->result_len);
    else
        put_lit(b, "\"(no output)\"");
}

/* The end of an OpenAI request (both APIs): the restated question and the
** scratchpad as the last user message, the tools, the output limit under
** the API's own key, and the stream flag. */
static void put_tail(toolgov_loop *lp, toolgov__jbuf *b, const char *tokens_key)
{
    if (lp->n_steps) {
        put_lit(b, ",{\"role\":\"user\",\"content\":");
        put_str(b, lp->pad.ptr, lp->pad.len);
        toolgov__jbuf_putc(b, '}');
    }
    toolgov__jbuf_putc(b, ']');
    if (lp->n_tools) {
        put_lit(b, ",\"tools\":");
        toolgov__jbuf_put(b, lp->tools_json.ptr, lp->tools_json.len);
    }
    if (lp->opt.max_tokens) {
        put_lit(b, tokens_key);
        put_uint(b, lp->opt.max_tokens);
    }
}

static void build_chat(toolgov_loop *lp, toolgov__jbuf *b)
{
    size_t s, i;

    put_lit(b, "\"messages\":[");
    if (lp->system.len) {
        put_lit(b, "{\"role\":\"system\",\"content\":");
        put_str(b, lp->system.ptr, lp->system.len);
        put_lit(b, "},");
    }
    put_lit(b, "{\"role\":\"user\",\"content\":");
    put_str(b, S(lp, lp->user), lp->user_len);
    toolgov__jbuf_putc(b, '}');
    for (s = 0; s < lp->n_steps; s++) {
        const lstep *st = &lp->stepv[s];
        put_lit(b, ",{\"role\":\"assistant\",\"content\":");
        if (st->text_len)
            put_str(b, S(lp, st->text), st->text_len);
        else
            put_lit(b, "null");
        put_lit(b, ",\"tool_calls\":[");
        for (i = st->first; i < st->first + st->n; i++) {
            const lcall *c = &lp->calls[i];
            if (i != st->first)
                toolgov__jbuf_putc(b, ',');
            put_lit(b, "{\"id\":");
            put_str(b, S(lp, c->id), c->id_len);
            put_lit(b, ",\"type\":\"function\",\"function\":{\"name\":");
            put_str(b, S(lp, c->name), c->name_len);
            put_lit(b, ",\"arguments\":");
            put_str(b, S(lp, c->raw), c->raw_len);
            put_lit(b, "}}");
        }
        put_lit(b, "]}");
        for (i = st->first; i < st->first + st->n; i++) {
            const lcall *c = &lp->calls[i];
            put_lit(b, ",{\"role\":\"tool\",\"tool_call_id\":");
            put_str(b, S(lp, c->id), c->id_len);
            put_lit(b, ",\"content\":");
            put_result(lp, b, c);
            toolgov__jbuf_putc(b, '}');
        }
    }
    put_tail(lp, b, ",\"max_completion_tokens\":");
}

static void build_responses(toolgov_loop *lp, toolgov__jbuf *b)
{
    size_t s, i;

    if (lp->system.len) {
        put_lit(b, "\"instructions\":");
        put_str(b, lp->system.ptr, lp->system.len);
        toolgov__jbuf_putc(b, ',');
    }
    put_lit(b, "\"input\":[{\"role\":\"user\",\"content\":");
    put_str(b, S(lp, lp->user), lp->user_len);
    toolgov__jbuf_putc(b, '}');
    for (s = 0; s < lp->n_steps; s++) {
        const lstep *st = &lp->stepv[s];
        if (st->text_len) {
            put_lit(b, ",{\"role\":\"assistant\",\"content\":");
            put_str(b, S(lp, st->text), st->text_len);
            toolgov__jbuf_putc(b, '}');
        }
        for (i = st->first; i < st->first + st->n; i++) {
            const lcall *c = &lp->calls[i];
            put_lit(b, ",{\"type\":\"function_call\",\"call_id\":");
            put_str(b, S(lp, c->id), c->id_len);
            put_lit(b, ",\"name\":");
            put_str(b, S(lp, c->name), c->name_len);
            put_lit(b, ",\"arguments\":");
            put_str(b, S(lp, c->raw), c->raw_len);
            toolgov__jbuf_putc(b, '}');
        }
        for (i = st->first; i < st->first + st->n; i++) {
            const lcall *c = &lp->calls[i];
            put_lit(b, ",{\"type\":\"function_call_output\",\"call_id\":");
            put_str(b, S(lp, c->id), c->id_len);
            put_lit(b, ",\"output\":");
            put_result(lp, b, c);
            toolgov__jbuf_putc(b, '}');
        }
    }
    put_tail(lp, b, ",\"max_output_tokens\":");
}

static void build_anthropic(toolgov_loop *lp, toolgov__jbuf *b)
{
    size_t s, i;

    put_key(b, "max_tokens");
    put_uint(b, lp->opt.max_tokens);
    toolgov__jbuf_putc(b, ',');
    if (lp->system.len) {
        put_lit(b, "\"system\":");
        put_str(b, lp->system.ptr, lp->system.len);
        toolgov__jbuf_putc(b, ',');
    }
    put_lit(b, "\"messages\":[{\"role\":\"user\",\"content\":");
    put_str(b, S(lp, lp->user), lp->user_len);
    toolgov__jbuf_putc(b, '}');
    for (s = 0; s < lp->n_steps; s++) {
        const lstep *st = &lp->stepv[s];
        int first = 1;
        put_lit(b, ",{\"role\":\"assistant\",\"content\":[");
        if (st->text_len) {
            put_lit(b, "{\"type\":\"text\",\"text\":");
            put_str(b, S(lp, st->text), st->text_len);
            toolgov__jbuf_putc(b, '}');
            first = 0;
        }
        for (i = st->first; i < st->first + st->n; i++) {
            const lcall *c = &lp->calls[i];
            if (!first)
                toolgov__jbuf_putc(b, ',');
            first = 0;
            put_lit(b, "{\"type\":\"tool_use\",\"id\":");
            put_str(b, S(lp, c->id), c->id_len);
            put_lit(b, ",\"name\":");
            put_str(b, S(lp, c->name), c->name_len);
            put_lit(b, ",\"input\":");
            /* raw is the canonical text of the input object the model
            ** sent, or {} when it sent none. */
            toolgov__jbuf_put(b, S(lp, c->raw), c->raw_len);
            toolgov__jbuf_putc(b, '}');
        }
        put_lit(b, "]},{\"role\":\"user\",\"content\":[");
        for (i = st->first; i < st->first + st->n; i++) {
            const lcall *c = &lp->calls[i];
            if (i != st->first)
                toolgov__jbuf_putc(b, ',');
            put_lit(b, "{\"type\":\"tool_result\",\"tool_use_id\":");
            put_str(b, S(lp, c->id), c->id_len);
            put_lit(b, ",\"content\":");
            put_result(lp, b, c);
            if (c->is_error)
                put_lit(b, ",\"is_error\":true");
            toolgov__jbuf_putc(b, '}');
        }
        if (s + 1 == lp->n_steps) {
            put_lit(b, ",{\"type\":\"text\",\"text\":");
            put_str(b, lp->pad.ptr, lp->pad.len);
            toolgov__jbuf_putc(b, '}');
        }
        put_lit(b, "]}");
    }
    toolgov__jbuf_putc(b, ']');
    if (lp->n_tools) {
        put_lit(b, ",\"tools\":");
        toolgov__jbuf_put(b, lp->tools_json.ptr, lp->tools_json.len);
    }
}

static int build_request(toolgov_loop *lp)
{
    toolgov__jbuf *b = &lp->req;

    if (lp->n_steps)
        build_pad(lp);
    toolgov__jbuf_clear(b);
    toolgov__jbuf_putc(b, '{');
    if (lp->opt.model) {
        put_lit(b, "\"model\":");
        put_str(b, lp->opt.model, strlen(lp->opt.model));
        toolgov__jbuf_putc(b, ',');
    }
    switch (lp->opt.api) {
    case TOOLGOV_LOOP_OPENAI_CHAT: build_chat(lp, b); break;
    case TOOLGOV_LOOP_OPENAI_RESPONSES: build_responses(lp, b); break;
    case TOOLGOV_LOOP_ANTHROPIC: build_anthropic(lp, b); break;
    }
    if (lp->opt.stream)
        put_lit(b, ",\"stream\":true");
    toolgov__jbuf_putc(b, '}');
    if (lp->pad.failed)
        return TOOLGOV_ENOMEM;
    return toolgov__jbuf_finish(b);
}

/* ---- reading a response --------------------------------------------------- */

static int offered(const toolgov_loop *lp, const char *name, size_t len)
{
    size_t i;
    if (strlen(name) != len)
        return 0; /* a NUL inside never names a tool */
    for (i = 0; i < lp->n_tools; i++)
        if (strcmp(lp->tools[i], name) == 0)
            return 1;
    return 0;
}

static int id_taken(const toolgov_loop *lp, const char *id, size_t len, size_t upto)
{
    size_t i;
    for (i = 0; i < upto; i++)
        if (lp->calls[i].id_len == len && memcmp(S(lp, lp->calls[i].id), id, len) == 0)
            return 1;
    return 0;
}

/* A fresh id for call k: the model gave none, or one already used. */
static size_t fresh_id(toolgov_loop *lp, size_t k, size_t *len)
{
    char t[64];
    unsigned long salt = 0;
    int n = snprintf(t, sizeof t, "toolgov_call_%lu", (unsigned long)k + 1);
    /* A model may have used that very id: add a suffix until it is new. */
    while (id_taken(lp, t, (size_t)n, k))
        n = snprintf(t, sizeof t, "toolgov_call_%lu_%lu", (unsigned long)k + 1, ++salt);
    *len = (size_t)n;
    return keep(lp, t, (size_t)n);
}

static void set_result(toolgov_loop *lp, lcall *c, int outcome, int why, const char *text,
                       size_t len, const char *more, size_t more_len)
{
    size_t at = lp->store.len;
    toolgov__jbuf_put(&lp->store, text, len);
    if (more && more_len) {
        toolgov__jbuf_put(&lp->store, " (", 2);
        toolgov__jbuf_put(&lp->store, more, more_len);
        toolgov__jbuf_putc(&lp->store, ')');
    }
    c->result = at;
    c->result_len = lp->store.len - at;
    toolgov__jbuf_putc(&lp->store, '\0');
    toolgov__loop_keep_sent(lp, c);
    c->outcome = outcome;
    c->why = why;
    c->is_error = outcome == OC_NOT_RUN || outcome == OC_FAILED;
}

static void not_run(toolgov_loop *lp, lcall *c, int why, const char *more, size_t more_len)
{
    const char *t = toolgov_not_run_text((toolgov_not_run)why);
    set_result(lp, c, OC_NOT_RUN, why, t, strlen(t), more, more_len);
}

static int take_call(toolgov_loop *lp, const toolgov__wire_call *w, size_t k_in_batch)
{
    lcall *c = &lp->calls[lp->n_calls];
    size_t k = lp->n_calls;
    char msg[400];
    toolgov_decoded_call dc;
    int rc;

    memset(c, 0, sizeof *c);
    if (w->id && w->id_len && memchr(w->id, '\0', w->id_len) == NULL &&
        !id_taken(lp, w->id, w->id_len, k)) {
        c->id = keep(lp, w->id, w->id_len);
        c->id_len = w->id_len;
    } else {
        c->id = fresh_id(lp, k, &c->id_len);
    }
    c->name = keep(lp, w->name ? w->name : "", w->name ? w->name_len : 0);
    c->name_len = w->name ? w->name_len : 0;
    if (w->args) {
        c->raw = keep(lp, w->args, w->args_len);
        c->raw_len = w->args_len;
    } else {
        /* Nothing usable was sent: the history echoes an empty call. */
        c->raw = keep(lp, "{}", 2);
        c->raw_len = 2;
    }
    c->args = c->raw;
    c->args_len = c->raw_len;
    c->outcome = OC_PENDING;
    lp->n_calls++;
    if (lp->store.failed)
        return TOOLGOV_ENOMEM;

    if (k_in_batch >= lp->opt.max_calls) {
        c->status = TOOLGOV_EINVAL;
        not_run(lp, c, TOOLGOV_NOT_RUN_TOO_MANY, NULL, 0);
        return 0;
    }
    if (w->malformed || !w->name || !w->name_len) {
        c->status = TOOLGOV_EINVAL;
        snprintf(msg, sizeof msg, "not run: %s",
                 w->malformed ? w->malformed : "a tool call without a tool name; name the tool");
        set_result(lp, c, OC_NOT_RUN, WHY_MALFORMED, msg, strlen(msg), NULL, 0);
        return 0;
    }
    if (!offered(lp, S(lp, c->name), c->name_len)) {
        toolgov__jbuf *q = &lp->question;
        c->status = TOOLGOV_ENOENT;
        toolgov__jbuf_clear(q);
        put_lit(q, "there is no tool '");
        toolgov__wire_put_shown(q, S(lp, c->name), c->name_len > 100 ? 100 : c->name_len);
        put_lit(q, "' here");
        if (lp->question.failed)
            return TOOLGOV_ENOMEM;
        not_run(lp, c, TOOLGOV_NOT_RUN_UNKNOWN_TOOL, q->ptr, q->len);
        return 0;
    }
    rc = toolgov_run_decode(&dc, lp->run, S(lp, c->name), S(lp, c->raw), c->raw_len);
    if (rc == 0) {
        c->args = keep(lp, dc.args, dc.args_len);
        c->args_len = dc.args_len;
        return lp->store.failed ? TOOLGOV_ENOMEM : 0;
    }
    if (rc == TOOLGOV_EARGS) {
        toolgov_outcome oc;
        toolgov__jbuf *q = &lp->question;
        c->status = TOOLGOV_EARGS;
        toolgov__jbuf_clear(q);
        toolgov__jbuf_put(q, dc.message, dc.message_len);
        if (toolgov__jbuf_finish(q))
            return TOOLGOV_ENOMEM;
        /* Through invoke too, so the audit trail has the argument error. */
        memset(&oc, 0, sizeof oc);
        (void)toolgov_run_invoke(&oc, lp->run, S(lp, c->name), S(lp, c->raw));
        not_run(lp, c, TOOLGOV_NOT_RUN_BAD_ARGS, q->ptr, q->len);
        return 0;
    }
    if (rc == TOOLGOV_ENOENT) {
        c->status = TOOLGOV_ENOENT;
        not_run(lp, c, TOOLGOV_NOT_RUN_UNKNOWN_TOOL, NULL, 0);
        return 0;
    }
    return rc == TOOLGOV_ENOMEM ? rc : TOOLGOV_EINVAL;
}

/* The response the reader read (rc its result), taken into the turn. */
static int take_response(toolgov_loop *lp, int rc)
{
    toolgov__wire *w = &lp->wire;
    size_t i;
    lstep *st;
    void *tmp_;

    lp->streaming = 0;
    if (rc == TOOLGOV_ENOMEM) {
        finish(lp, TOOLGOV_LOOP_END_ABORTED, NULL, 0, "out of memory reading the response");
        return rc;
    }
    if (rc) {
        finish(lp, w->api_error ? TOOLGOV_LOOP_END_API_ERROR : TOOLGOV_LOOP_END_BAD_RESPONSE,
               NULL, 0, w->error);
        return TOOLGOV_EINVAL;
    }
    if (w->n_calls == 0) {
        if (w->refusal.len || w->finish == TOOLGOV__WIRE_REFUSAL)
            finish(lp, TOOLGOV_LOOP_END_REFUSAL, w->refusal.len ? w->refusal.ptr : w->text.ptr,
                   w->refusal.len ? w->refusal.len : w->text.len, "");
        else if (w->finish == TOOLGOV__WIRE_LENGTH)
            finish(lp, TOOLGOV_LOOP_END_TRUNCATED, w->text.ptr, w->text.len,
                   "the model stopped at its output limit");
        else
            finish(lp, TOOLGOV_LOOP_END_ANSWERED, w->text.ptr, w->text.len, "");
        return 0;
    }
    if (GROW(lp, lp->stepv, lp->steps_cap, lp->n_steps + 1) ||
        GROW(lp, lp->calls, lp->calls_cap, lp->n_calls + w->n_calls)) {
        finish(lp, TOOLGOV_LOOP_END_ABORTED, NULL, 0, "out of memory");
        return TOOLGOV_ENOMEM;
    }
    st = &lp->stepv[lp->n_steps++];
    st->text = keep(lp, w->text.ptr, w->text.len);
    st->text_len = w->text.len;
    st->first = lp->n_calls;
    st->n = w->n_calls;
    for (i = 0; i < w->n_calls; i++) {
        if ((rc = take_call(lp, &w->calls[i], i))) {
            finish(lp, TOOLGOV_LOOP_END_ABORTED, NULL, 0, toolgov_strerror(rc));
            return rc;
        }
    }
    if (toolgov__jbuf_finish(&lp->store)) {
        finish(lp, TOOLGOV_LOOP_END_ABORTED, NULL, 0, "out of memory");
        return TOOLGOV_ENOMEM;
    }
    lp->cursor = st->first;
    lp->state = ST_GATE;
    return 0;
}

int toolgov_loop_response(toolgov_loop *lp, const char *body, size_t len)
{
    if (!lp || lp->state != ST_WAIT_RESPONSE || (!body && len))
        return TOOLGOV_EINVAL;
    return take_response(lp, toolgov__wire_read(&lp->wire, lp->opt.api, body, len,
                                                lp->opt.max_response));
}

int toolgov_loop_response_chunk(toolgov_loop *lp, const char *chunk, size_t len,
                                const char **delta, size_t *delta_len)
{
    toolgov__wire *w;
    int rc;

    if (delta)
        *delta = "";
    if (delta_len)
        *delta_len = 0;
    if (!lp || lp->state != ST_WAIT_RESPONSE || (!chunk && len))
        return TOOLGOV_EINVAL;
    w = &lp->wire;
    if (!lp->streaming) {
        toolgov__wire_stream_begin(w);
        lp->streaming = 1;
    }
    rc = toolgov__wire_stream_feed(w, lp->opt.api, chunk ? chunk : "", len, lp->opt.max_response);
    if (rc)
        return take_response(lp, rc); /* the turn ends: nothing of it runs */
    if (delta && w->st.delta.len)
        *delta = w->st.delta.ptr;
    if (delta_len)
        *delta_len = w->st.delta.len;
    return 0;
}

int toolgov_loop_response_end(toolgov_loop *lp)
{
    if (!lp || lp->state != ST_WAIT_RESPONSE)
        return TOOLGOV_EINVAL;
    if (!lp->streaming)
        toolgov__wire_stream_begin(&lp->wire);
    return take_response(lp, toolgov__wire_stream_end(&lp->wire, lp->opt.api,
                                                      lp->opt.max_response));
}

/* ---- questions ------------------------------------------------------------ */

static void put_shown_call(toolgov_loop *lp, toolgov__jbuf *b, const lcall *c)
{
    toolgov__wire_put_shown(b, S(lp, c->name), c->name_len);
    toolgov__jbuf_putc(b, ' ');
    toolgov__wire_put_shown(b, S(lp, c->args), c->args_len);
}

static int confirm_question(toolgov_loop *lp, size_t n)
{
    toolgov__jbuf *b = &lp->question;
    size_t i, writes = 0;
    char head[64];

    for (i = 0; i < n; i++) {
        const toolgov_tool_spec *s = toolgov_registry_find(lp->reg, lp->props[lp->confirm_idx[i]].tool);
        writes += s && s->effect != TOOLGOV_EFFECT_READ;
    }
    if (writes == n)
        snprintf(head, sizeof head, n == 1 ? "Make this change?" : "Make these %lu changes?",
                 (unsigned long)n);
    else
        snprintf(head, sizeof head, n == 1 ? "Run this call?" : "Run these %lu calls?",
                 (unsigned long)n);
    toolgov__jbuf_clear(b);
    put_lit(b, head);
    for (i = 0; i < n; i++) {
        put_lit(b, "\n  ");
        put_uint(b, (unsigned long)i + 1);
        put_lit(b, ". ");
        put_shown_call(lp, b, &lp->calls[lp->prop_call[lp->confirm_idx[i]]]);
    }
    return toolgov__jbuf_finish(b);
}

/* ---- running the batch ---------------------------------------------------- */

static int gate_batch(toolgov_loop *lp, toolgov_loop_action *a)
{
    const lstep *st = &lp->stepv[lp->n_steps - 1];
    size_t i, m = 0, cc = 0;
    toolgov_gate g;
    void *tmp_;

    if (GROW(lp, lp->props, lp->props_cap, st->n + 1) ||
        GROW(lp, lp->per_call, lp->per_call_cap, st->n + 1) ||
        GROW(lp, lp->confirm_idx, lp->confirm_cap, st->n + 1) ||
        GROW(lp, lp->prop_call, lp->prop_call_cap, st->n + 1) ||
        GROW(lp, lp->asked_call, lp->asked_cap, st->n + 1))
        return TOOLGOV_ENOMEM;
    for (i = st->first; i < st->first + st->n; i++) {
        const lcall *c = &lp->calls[i];
        if (c->outcome != OC_PENDING)
            continue;
        lp->props[m].tool = S(lp, c->name);
        lp->props[m].args = S(lp, c->args);
        lp->prop_call[m] = i;
        m++;
    }
    if (toolgov_run_gate_batch(&g, lp->per_call, lp->confirm_idx, &cc, lp->run, lp->props, m))
        return TOOLGOV_EINVAL;
    if (g == TOOLGOV_GATE_ASK_FIRST && cc > 0) {
        if (confirm_question(lp, cc))
            return TOOLGOV_ENOMEM;
        /* The calls the question lists, in order, for the answer. */
        for (i = 0; i < cc; i++) {
            lp->asked_call[i] = lp->prop_call[lp->confirm_idx[i]];
            lp->props[i] = lp->props[lp->confirm_idx[i]];
        }
        lp->n_asked = cc;
        lp->question_kind = TOOLGOV_LOOP_CONFIRM;
        lp->state = ST_WAIT_CONFIRM;
        (void)a;
        return 1;
    }
    lp->state = ST_EXEC;
    return 0;
}

static void end_rest(toolgov_loop *lp, size_t from)
{
    const lstep *st = &lp->stepv[lp->n_steps - 1];
    size_t i;
    for (i = from; i < st->first + st->n; i++)
        if (lp->calls[i].outcome == OC_PENDING)
            not_run(lp, &lp->calls[i], TOOLGOV_NOT_RUN_ENDED, NULL, 0);
}

/* Run calls from the cursor on. 1: a question waits; 0: the batch is done
** or the turn ended; negative: failure. */
static int exec_batch(toolgov_loop *lp)
{
    const lstep *st = &lp->stepv[lp->n_steps - 1];

    for (; lp->cursor < st->first + st->n; lp->cursor++) {
        lcall *c = &lp->calls[lp->cursor];
        toolgov_outcome oc;
        toolgov_gate g;
        int rc;

        if (c->outcome != OC_PENDING)
            continue;
        g = toolgov_run_gate(lp->run, S(lp, c->name), S(lp, c->args));
        if (g == TOOLGOV_GATE_NEEDS_APPROVAL && !c->asked) {
            toolgov__jbuf *b = &lp->question;
            c->asked = 1;
            toolgov__jbuf_clear(b);
            put_lit(b, "Approve this call? It cannot be undone.\n  ");
            put_shown_call(lp, b, c);
            if (toolgov__jbuf_finish(b))
                return TOOLGOV_ENOMEM;
            lp->props[0].tool = S(lp, c->name);
            lp->props[0].args = S(lp, c->args);
            lp->asked_call[0] = lp->cursor;
            lp->n_asked = 1;
            lp->question_kind = TOOLGOV_LOOP_APPROVAL;
            lp->state = ST_WAIT_APPROVAL;
            return 1;
        }
        memset(&oc, 0, sizeof oc);
        rc = toolgov_run_invoke(&oc, lp->run, S(lp, c->name), S(lp, c->args));
        if (rc == TOOLGOV_ENOMEM || rc == TOOLGOV_EINVAL)
            return rc;
        c = &lp->calls[lp->cursor];
        switch (rc) {
        case 0:
            set_result(lp, c, oc.gate == TOOLGOV_GATE_REPLAY ? OC_REPLAYED : OC_RAN, 0,
                       oc.output ? oc.output : "", oc.output ? oc.output_len : 0, NULL, 0);
            break;
        case TOOLGOV_ECONFIRM: not_run(lp, c, TOOLGOV_NOT_RUN_WAITS_CONFIRM, NULL, 0); break;
        case TOOLGOV_EAPPROVAL:
            not_run(lp, c, c->asked ? TOOLGOV_NOT_RUN_NOT_APPROVED : TOOLGOV_NOT_RUN_WAITS_APPROVAL,
                    NULL, 0);
            break;
        case TOOLGOV_EREFUSED:
        case TOOLGOV_ENEVER: /* the user's no, given ahead of time (grants.h) */
            not_run(lp, c, TOOLGOV_NOT_RUN_DECLINED, NULL, 0);
            break;
        case TOOLGOV_EENDED: not_run(lp, c, TOOLGOV_NOT_RUN_ENDED, NULL, 0); break;
        case TOOLGOV_ENOHANDLER: not_run(lp, c, TOOLGOV_NOT_RUN_NO_HANDLER, NULL, 0); break;
        case TOOLGOV_ENOENT: not_run(lp, c, TOOLGOV_NOT_RUN_UNKNOWN_TOOL, NULL, 0); break;
        case TOOLGOV_EARGS:
            not_run(lp, c, TOOLGOV_NOT_RUN_BAD_ARGS, oc.output, oc.output ? oc.output_len : 0);
            break;
        default:
            /* The handler failed: its message is the result. */
            if (oc.output && oc.output_len)
                set_result(lp, c, OC_FAILED, 0, oc.output, oc.output_len, NULL, 0);
            else
                set_result(lp, c, OC_FAILED, 0, toolgov_strerror(rc), strlen(toolgov_strerror(rc)),
                           NULL, 0);
            break;
        }
        if (toolgov__jbuf_finish(&lp->store))
            return TOOLGOV_ENOMEM;
        if (oc.ended) {
            size_t alen = 0;
            const char *ans = toolgov_run_answer(lp->run, &alen);
            end_rest(lp, lp->cursor + 1);
            finish(lp, TOOLGOV_LOOP_END_ANSWERED_DIRECTLY, ans, ans ? alen : 0, "");
            return 0;
        }
    }
    if (lp->steps >= lp->opt.max_steps) {
        finish(lp, TOOLGOV_LOOP_END_STEP_LIMIT, S(lp, st->text), st->text_len,
               "the model was still calling tools at the step limit");
        return 0;
    }
    lp->state = ST_SEND;
    return 0;
}

/* ---- driving -------------------------------------------------------------- */

static void action_of(toolgov_loop *lp, toolgov_loop_action *a)
{
    memset(a, 0, sizeof *a);
    a->error = "";
    a->step = lp->steps;
    switch (lp->state) {
    case ST_WAIT_RESPONSE:
        a->what = TOOLGOV_LOOP_SEND;
        a->text = lp->req.ptr;
        a->len = lp->req.len;
        break;
    case ST_WAIT_CONFIRM:
    case ST_WAIT_APPROVAL:
        a->what = TOOLGOV_LOOP_ASK;
        a->text = lp->question.ptr;
        a->len = lp->question.len;
        a->question = (toolgov_loop_question)lp->question_kind;
        a->calls = lp->props;
        a->n_calls = lp->n_asked;
        break;
    default:
        a->what = TOOLGOV_LOOP_DONE;
        a->text = lp->answer.ptr ? lp->answer.ptr : "";
        a->len = lp->answer.ptr ? lp->answer.len : 0;
        a->end = lp->end;
        a->error = lp->error;
        break;
    }
}

int toolgov_loop_next(toolgov_loop *lp, toolgov_loop_action *out)
{
    int rc;

    if (!lp || !out || lp->state == ST_IDLE)
        return TOOLGOV_EINVAL;
    for (;;) {
        switch (lp->state) {
        case ST_SEND:
            if (lp->steps >= lp->opt.max_steps) {
                finish(lp, TOOLGOV_LOOP_END_STEP_LIMIT, NULL, 0, "the step limit was reached");
                break;
            }
            if ((rc = build_request(lp))) {
                finish(lp, TOOLGOV_LOOP_END_ABORTED, NULL, 0, "out of memory");
                action_of(lp, out);
                return rc;
            }
            if (lp->req.len > lp->opt.max_request) {
                char m[160];
                snprintf(m, sizeof m, "the next request would be %lu bytes, over the limit of %lu",
                         (unsigned long)lp->req.len, (unsigned long)lp->opt.max_request);
                finish(lp, TOOLGOV_LOOP_END_SIZE_LIMIT, NULL, 0, m);
                break;
            }
            lp->steps++;
            lp->streaming = 0;
            lp->state = ST_WAIT_RESPONSE;
            break;
        case ST_GATE:
            rc = gate_batch(lp, out);
            if (rc < 0) {
                finish(lp, TOOLGOV_LOOP_END_ABORTED, NULL, 0, toolgov_strerror(rc));
                action_of(lp, out);
                return rc;
            }
            continue;
        case ST_EXEC:
            rc = exec_batch(lp);
            if (rc < 0) {
                finish(lp, TOOLGOV_LOOP_END_ABORTED, NULL, 0, toolgov_strerror(rc));
                action_of(lp, out);
                return rc;
            }
            continue;
        default:
            break;
        }
        if (lp->state == ST_GATE || lp->state == ST_EXEC || lp->state == ST_SEND)
            continue;
        action_of(lp, out);
        return 0;
    }
}

int toolgov_loop_answer(toolgov_loop *lp, int yes)
{
    int rc;

    if (!lp)
        return TOOLGOV_EINVAL;
    if (lp->state == ST_WAIT_CONFIRM) {
        rc = toolgov_run_confirm_listed(lp->run, yes, lp->props, lp->n_asked);
        if (rc == TOOLGOV_ENOMEM)
            return rc;
        /* Any other refusal (a no given before, the run ended) leaves the
        ** calls to the gate, which says what became of each. */
        lp->state = ST_EXEC;
        return 0;
    }
    if (lp->state == ST_WAIT_APPROVAL) {
        if (yes) {
            rc = toolgov_run_approve(lp->run, lp->props[0].tool, lp->props[0].args);
            if (rc == TOOLGOV_ENOMEM)
                return rc;
        }
        lp->state = ST_EXEC;
        return 0;
    }
    return TOOLGOV_EINVAL;
}

int toolgov_loop_abort(toolgov_loop *lp, const char *why)
{
    if (!lp || lp->state == ST_IDLE)
        return TOOLGOV_EINVAL;
    if (lp->state != ST_DONE)
        finish(lp, TOOLGOV_LOOP_END_ABORTED, NULL, 0, why ? why : "");
    return 0;
}

const char *toolgov_loop_error(const toolgov_loop *lp)
{
    return lp ? lp->error : "invalid argument";
}

int toolgov_loop_drive(toolgov_loop *lp, const toolgov_loop_io *io, toolgov_loop_action *done)
{
    toolgov_loop_action a;
    int rc;

    if (!lp || !io || !io->send || !io->ask || !done)
        return TOOLGOV_EINVAL;
    for (;;) {
        if ((rc = toolgov_loop_next(lp, &a)))
            return rc;
        if (a.what == TOOLGOV_LOOP_DONE) {
            *done = a;
            return 0;
        }
        if (a.what == TOOLGOV_LOOP_SEND) {
            rc = io->send(io->ud, lp, a.text, a.len);
            if (rc < 0)
                toolgov_loop_abort(lp, lp->error[0] ? lp->error
                                                    : "the host's transport failed");
            else if (lp->state == ST_WAIT_RESPONSE)
                toolgov_loop_abort(lp, "the host's transport returned without a response");
        } else {
            rc = io->ask(io->ud, &a);
            if (rc < 0)
                toolgov_loop_abort(lp, "the user was not there to answer");
            else if ((rc = toolgov_loop_answer(lp, rc > 0)))
                return rc;
        }
    }
}

/* ---- the calls of the turn ------------------------------------------------ */

size_t toolgov_loop_calls_count(const toolgov_loop *lp)
{
    return lp ? lp->n_calls : 0;
}

int toolgov_loop_call_at(const toolgov_loop *lp, size_t i, toolgov_loop_call_info *out)
{
    const lcall *c;
    size_t s;

    if (!lp || !out || i >= lp->n_calls)
        return TOOLGOV_EINVAL;
    c = &lp->calls[i];
    memset(out, 0, sizeof *out);
    out->id = S(lp, c->id);
    out->id_len = c->id_len;
    out->tool = S(lp, c->name);
    out->tool_len = c->name_len;
    out->args = S(lp, c->args);
    out->args_len = c->args_len;
    if (c->outcome == OC_PENDING) {
        out->result = "";
    } else {
        out->result = S(lp, c->sent);
        out->result_len = c->sent_len;
    }
    out->outcome = (toolgov_loop_outcome)c->outcome;
    out->why = c->outcome == OC_NOT_RUN ? c->why : 0;
    out->status = c->status;
    out->is_error = c->is_error;
    for (s = 0; s < lp->n_steps; s++)
        if (i >= lp->stepv[s].first && i < lp->stepv[s].first + lp->stepv[s].n)
            out->step = (unsigned)s + 1u;
    return 0;
}
