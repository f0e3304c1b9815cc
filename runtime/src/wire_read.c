/* SPDX-License-Identifier: MIT */
/*
** wire_read.c: one whole response body of a model API, read (wire.h).
**
** The shapes, from each vendor's API reference:
**   OpenAI Chat Completions (platform.openai.com/docs/api-reference/chat/
**     object): {"id", "object": "chat.completion", "choices": [{"index",
**     "message": {"role": "assistant", "content": string|null, "refusal":
**     string|null, "tool_calls": [{"id", "type": "function", "function":
**     {"name", "arguments": string}}]}, "finish_reason"}], "usage"}; an
**     error is {"error": {"message", "type", "param", "code"}} (servers
**     that speak the API also send {"error": "message"}).
**   OpenAI Responses (platform.openai.com/docs/api-reference/responses/
**     object): {"id", "object": "response", "status", "error",
**     "incomplete_details", "output": [{"type": "message", "content":
**     [{"type": "output_text", "text"} | {"type": "refusal", "refusal"}]} |
**     {"type": "function_call", "call_id", "name", "arguments": string}]};
**     errors as above, or "status": "failed" with "error": {"code",
**     "message"}.
**   Anthropic Messages (docs.anthropic.com/en/api/messages): {"id",
**     "type": "message", "role": "assistant", "content": [{"type": "text",
**     "text"} | {"type": "tool_use", "id", "name", "input": object}],
**     "stop_reason", "usage"}; an error is {"type": "error", "error":
**     {"type", "message"}} (docs.anthropic.com/en/api/errors).
*/
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "wire.h"

void toolgov__wire_init(toolgov__wire *w, const toolgov_allocator *alloc)
{
    memset(w, 0, sizeof *w);
    w->alloc = *alloc;
    toolgov__scratch_init(&w->arena, &w->alloc);
    toolgov__jbuf_init(&w->text, &w->alloc);
    toolgov__jbuf_init(&w->refusal, &w->alloc);
    toolgov__jbuf_init(&w->objs, &w->alloc);
    toolgov__jbuf_init(&w->st.line, &w->alloc);
    toolgov__jbuf_init(&w->st.data, &w->alloc);
    toolgov__jbuf_init(&w->st.delta, &w->alloc);
    toolgov__jbuf_init(&w->st.strs, &w->alloc);
    toolgov__jbuf_init(&w->st.body, &w->alloc);
}

void toolgov__wire_free(toolgov__wire *w)
{
    toolgov__scratch_free(&w->arena);
    toolgov__jbuf_free(&w->text);
    toolgov__jbuf_free(&w->refusal);
    toolgov__jbuf_free(&w->objs);
    toolgov__free(&w->alloc, w->calls, w->cap * sizeof *w->calls);
    toolgov__free(&w->alloc, w->obj_at, w->obj_cap * sizeof *w->obj_at);
    toolgov__jbuf_free(&w->st.line);
    toolgov__jbuf_free(&w->st.data);
    toolgov__jbuf_free(&w->st.delta);
    toolgov__jbuf_free(&w->st.strs);
    toolgov__jbuf_free(&w->st.body);
    while (w->st.args_init)
        toolgov__jbuf_free(&w->st.args[--w->st.args_init]);
    toolgov__free(&w->alloc, w->st.args, w->st.args_cap * sizeof *w->st.args);
    toolgov__free(&w->alloc, w->st.sc, w->st.sc_cap * sizeof *w->st.sc);
    w->st.args = NULL;
    w->st.sc = NULL;
    w->calls = NULL;
    w->obj_at = NULL;
    w->cap = w->obj_cap = w->n_calls = 0;
}

/* The message an error object (or string) carries. */
void toolgov__wire_api_error(toolgov__wire *w, const toolgov__json_doc *d, long err,
                             const char *api)
{
    const char *msg = toolgov__json_str_at(d, err, NULL);
    const char *type = NULL;

    if (!msg) {
        msg = toolgov__json_str_at(d, toolgov__json_member(d, err, "message"), NULL);
        type = toolgov__json_str_at(d, toolgov__json_member(d, err, "type"), NULL);
        if (!type)
            type = toolgov__json_str_at(d, toolgov__json_member(d, err, "code"), NULL);
    }
    w->api_error = 1;
    if (type && msg)
        snprintf(w->error, sizeof w->error, "%s error (%.100s): %.400s", api, type, msg);
    else
        snprintf(w->error, sizeof w->error, "%s error: %.400s", api,
                 msg ? msg : "(the error body has no message)");
}

int toolgov__wire_call_room(toolgov__wire *w, size_t n, const char *what, void **a,
                            size_t *a_cap, size_t a_size, void **b, size_t *b_cap,
                            size_t b_size)
{
    if (n >= TOOLGOV__WIRE_MAX_CALLS) {
        snprintf(w->error, sizeof w->error,
                 "the %s holds more than %u tool calls; the loop reads at most %u", what,
                 TOOLGOV__WIRE_MAX_CALLS, TOOLGOV__WIRE_MAX_CALLS);
        return TOOLGOV_EINVAL;
    }
    if (toolgov__reserve(&w->alloc, a, a_cap, n + 1, a_size) ||
        toolgov__reserve(&w->alloc, b, b_cap, n + 1, b_size))
        return TOOLGOV_ENOMEM;
    return 0;
}

int toolgov__wire_add_call(toolgov__wire *w, const char *id, size_t id_len, const char *name,
                           size_t name_len)
{
    void *calls = w->calls, *obj_at = w->obj_at;
    toolgov__wire_call *c;
    int rc = toolgov__wire_call_room(w, w->n_calls, "response", &calls, &w->cap,
                                     sizeof *w->calls, &obj_at, &w->obj_cap, sizeof *w->obj_at);

    w->calls = calls;
    w->obj_at = obj_at;
    if (rc)
        return rc;
    c = &w->calls[w->n_calls];
    memset(c, 0, sizeof *c);
    w->obj_at[w->n_calls] = (size_t)-1;
    c->id = id;
    c->id_len = id ? id_len : 0;
    c->name = name;
    c->name_len = name ? name_len : 0;
    w->n_calls++;
    return 0;
}

static int add_call(toolgov__wire *w, long id, long name, const toolgov__json_doc *d)
{
    int sid = toolgov__json_is(d, id, TOOLGOV__JSON_STRING),
        sname = toolgov__json_is(d, name, TOOLGOV__JSON_STRING);
    return toolgov__wire_add_call(w, sid ? d->nodes[id].u.str : NULL, sid ? d->nodes[id].len : 0,
                                  sname ? d->nodes[name].u.str : NULL,
                                  sname ? d->nodes[name].len : 0);
}

/* A call whose arguments are a JSON string (both OpenAI APIs). */
static int string_args_call(toolgov__wire *w, const toolgov__json_doc *d, long id, long name,
                            long args)
{
    int rc = add_call(w, id, name, d);
    toolgov__wire_call *c;

    if (rc)
        return rc;
    c = &w->calls[w->n_calls - 1];
    if (toolgov__json_is(d, args, TOOLGOV__JSON_STRING)) {
        c->args = d->nodes[args].u.str;
        c->args_len = d->nodes[args].len;
    } else {
        c->malformed = "\"arguments\" must be a JSON string holding the arguments object";
    }
    return 0;
}

/* Text parts: a string, or an array of {"type": "text"|"output_text",
** "text"} parts (refusal parts go to the refusal). */
static void text_of(toolgov__wire *w, const toolgov__json_doc *d, long content)
{
    size_t i, k;

    if (toolgov__json_is(d, content, TOOLGOV__JSON_STRING)) {
        toolgov__jbuf_put(&w->text, d->nodes[content].u.str, d->nodes[content].len);
        return;
    }
    if (!toolgov__json_is(d, content, TOOLGOV__JSON_ARRAY))
        return;
    for (k = 0, i = (size_t)content + 1; k < d->nodes[content].len; k++, i = d->nodes[i].end) {
        long type = toolgov__json_member(d, (long)i, "type");
        long t = toolgov__json_member(d, (long)i, "text");
        if ((toolgov__json_str_is(d, type, "text") ||
             toolgov__json_str_is(d, type, "output_text")) &&
            toolgov__json_is(d, t, TOOLGOV__JSON_STRING))
            toolgov__jbuf_put(&w->text, d->nodes[t].u.str, d->nodes[t].len);
        else if (toolgov__json_str_is(d, type, "refusal") &&
                 toolgov__json_is(d, toolgov__json_member(d, (long)i, "refusal"),
                                  TOOLGOV__JSON_STRING)) {
            long r = toolgov__json_member(d, (long)i, "refusal");
            toolgov__jbuf_put(&w->refusal, d->nodes[r].u.str, d->nodes[r].len);
        }
    }
}

static int not_this_api(toolgov__wire *w, const toolgov__json_doc *d, toolgov_loop_api api)
{
    const char *what = "not";
    static const char *const names[] = {"an OpenAI chat completion", "an OpenAI Responses API response",
                                        "an Anthropic Messages response"};

    if (toolgov__json_is(d, toolgov__json_member(d, 0, "choices"), TOOLGOV__JSON_ARRAY))
        what = "an OpenAI chat completion (--api openai), not";
    else if (toolgov__json_str_is(d, toolgov__json_member(d, 0, "object"), "response") ||
             toolgov__json_is(d, toolgov__json_member(d, 0, "output"), TOOLGOV__JSON_ARRAY))
        what = "an OpenAI Responses API response (--api openai-responses), not";
    else if (toolgov__json_str_is(d, toolgov__json_member(d, 0, "type"), "message"))
        what = "an Anthropic Messages response (--api anthropic), not";
    if (d->nodes[0].type != TOOLGOV__JSON_OBJECT)
        snprintf(w->error, sizeof w->error, "the model's response is not a JSON object, so not %s",
                 names[api]);
    else if (!strcmp(what, "not") && d->nodes[0].len == 0)
        snprintf(w->error, sizeof w->error, "the model's response is an empty object, not %s",
                 names[api]);
    else
        snprintf(w->error, sizeof w->error, "the model's response is %s %s", what, names[api]);
    return TOOLGOV_EINVAL;
}

static int read_chat(toolgov__wire *w, const toolgov__json_doc *d)
{
    long choices = toolgov__json_member(d, 0, "choices"), msg, calls, fin, refusal;
    size_t i, k;
    int rc;

    if (toolgov__json_member(d, 0, "error") >= 0 &&
        !toolgov__json_is(d, toolgov__json_member(d, 0, "error"), TOOLGOV__JSON_NULL)) {
        toolgov__wire_api_error(w, d, toolgov__json_member(d, 0, "error"), "OpenAI API");
        return TOOLGOV_EINVAL;
    }
    if (!toolgov__json_is(d, choices, TOOLGOV__JSON_ARRAY))
        return not_this_api(w, d, TOOLGOV_LOOP_OPENAI_CHAT);
    if (d->nodes[choices].len == 0 ||
        !toolgov__json_is(d, (msg = toolgov__json_member(d, choices + 1, "message")),
                          TOOLGOV__JSON_OBJECT)) {
        snprintf(w->error, sizeof w->error,
                 "the chat completion has no message in choices[0]");
        return TOOLGOV_EINVAL;
    }
    fin = toolgov__json_member(d, choices + 1, "finish_reason");
    if (toolgov__json_str_is(d, fin, "tool_calls") ||
        toolgov__json_str_is(d, fin, "function_call"))
        w->finish = TOOLGOV__WIRE_TOOLS;
    else if (toolgov__json_str_is(d, fin, "length"))
        w->finish = TOOLGOV__WIRE_LENGTH;
    else if (toolgov__json_str_is(d, fin, "content_filter"))
        w->finish = TOOLGOV__WIRE_REFUSAL;
    text_of(w, d, toolgov__json_member(d, msg, "content"));
    refusal = toolgov__json_member(d, msg, "refusal");
    if (toolgov__json_is(d, refusal, TOOLGOV__JSON_STRING) && d->nodes[refusal].len)
        toolgov__jbuf_put(&w->refusal, d->nodes[refusal].u.str, d->nodes[refusal].len);
    calls = toolgov__json_member(d, msg, "tool_calls");
    if (calls < 0 || toolgov__json_is(d, calls, TOOLGOV__JSON_NULL))
        return 0;
    if (!toolgov__json_is(d, calls, TOOLGOV__JSON_ARRAY)) {
        snprintf(w->error, sizeof w->error, "the message's \"tool_calls\" is not an array");
        return TOOLGOV_EINVAL;
    }
    for (k = 0, i = (size_t)calls + 1; k < d->nodes[calls].len; k++, i = d->nodes[i].end) {
        long c = (long)i, fn = toolgov__json_member(d, c, "function"),
             type = toolgov__json_member(d, c, "type");
        rc = string_args_call(w, d, toolgov__json_member(d, c, "id"),
                              toolgov__json_member(d, fn, "name"),
                              toolgov__json_member(d, fn, "arguments"));
        if (rc)
            return rc;
        if (!toolgov__json_is(d, c, TOOLGOV__JSON_OBJECT))
            w->calls[w->n_calls - 1].malformed = "a tool call must be an object";
        else if (type >= 0 && !toolgov__json_str_is(d, type, "function"))
            w->calls[w->n_calls - 1].malformed = "a tool call of a type other than \"function\"";
        else if (!toolgov__json_is(d, fn, TOOLGOV__JSON_OBJECT))
            w->calls[w->n_calls - 1].malformed = "a tool call without its \"function\" object";
    }
    return 0;
}

static int read_responses(toolgov__wire *w, const toolgov__json_doc *d)
{
    long err = toolgov__json_member(d, 0, "error"),
         out = toolgov__json_member(d, 0, "output"),
         st = toolgov__json_member(d, 0, "status");
    size_t i, k;
    int rc;

    if ((err >= 0 && !toolgov__json_is(d, err, TOOLGOV__JSON_NULL)) ||
        toolgov__json_str_is(d, st, "failed")) {
        toolgov__wire_api_error(w, d, err, "OpenAI API");
        return TOOLGOV_EINVAL;
    }
    if (!toolgov__json_is(d, out, TOOLGOV__JSON_ARRAY) ||
        toolgov__json_is(d, toolgov__json_member(d, 0, "choices"), TOOLGOV__JSON_ARRAY))
        return not_this_api(w, d, TOOLGOV_LOOP_OPENAI_RESPONSES);
    if (toolgov__json_str_is(d, st, "incomplete")) {
        long why = toolgov__json_member(d, toolgov__json_member(d, 0, "incomplete_details"),
                                        "reason");
        w->finish = toolgov__json_str_is(d, why, "content_filter") ? TOOLGOV__WIRE_REFUSAL
                                                                   : TOOLGOV__WIRE_LENGTH;
    }
    for (k = 0, i = (size_t)out + 1; k < d->nodes[out].len; k++, i = d->nodes[i].end) {
        long it = (long)i, type = toolgov__json_member(d, it, "type");
        if (toolgov__json_str_is(d, type, "message")) {
            text_of(w, d, toolgov__json_member(d, it, "content"));
        } else if (toolgov__json_str_is(d, type, "function_call")) {
            rc = string_args_call(w, d, toolgov__json_member(d, it, "call_id"),
                                  toolgov__json_member(d, it, "name"),
                                  toolgov__json_member(d, it, "arguments"));
            if (rc)
                return rc;
            if (w->finish == TOOLGOV__WIRE_STOP)
                w->finish = TOOLGOV__WIRE_TOOLS;
        }
    }
    return 0;
}

static int read_anthropic(toolgov__wire *w, const toolgov__json_doc *d)
{
    long type = toolgov__json_member(d, 0, "type"),
         content = toolgov__json_member(d, 0, "content"), stop;
    size_t i, k;
    int rc;

    if (toolgov__json_str_is(d, type, "error")) {
        toolgov__wire_api_error(w, d, toolgov__json_member(d, 0, "error"), "Anthropic API");
        return TOOLGOV_EINVAL;
    }
    if (!toolgov__json_is(d, content, TOOLGOV__JSON_ARRAY) ||
        toolgov__json_is(d, toolgov__json_member(d, 0, "choices"), TOOLGOV__JSON_ARRAY) ||
        (type >= 0 && !toolgov__json_str_is(d, type, "message")))
        return not_this_api(w, d, TOOLGOV_LOOP_ANTHROPIC);
    stop = toolgov__json_member(d, 0, "stop_reason");
    if (toolgov__json_str_is(d, stop, "tool_use"))
        w->finish = TOOLGOV__WIRE_TOOLS;
    else if (toolgov__json_str_is(d, stop, "max_tokens") ||
             toolgov__json_str_is(d, stop, "model_context_window_exceeded"))
        w->finish = TOOLGOV__WIRE_LENGTH;
    else if (toolgov__json_str_is(d, stop, "refusal"))
        w->finish = TOOLGOV__WIRE_REFUSAL;
    for (k = 0, i = (size_t)content + 1; k < d->nodes[content].len; k++, i = d->nodes[i].end) {
        long b = (long)i, bt = toolgov__json_member(d, b, "type"), input;
        if (toolgov__json_str_is(d, bt, "text") &&
            toolgov__json_is(d, toolgov__json_member(d, b, "text"), TOOLGOV__JSON_STRING)) {
            long t = toolgov__json_member(d, b, "text");
            toolgov__jbuf_put(&w->text, d->nodes[t].u.str, d->nodes[t].len);
            continue;
        }
        if (!toolgov__json_str_is(d, bt, "tool_use"))
            continue;
        if ((rc = add_call(w, toolgov__json_member(d, b, "id"),
                           toolgov__json_member(d, b, "name"), d)))
            return rc;
        input = toolgov__json_member(d, b, "input");
        if (!toolgov__json_is(d, input, TOOLGOV__JSON_OBJECT)) {
            w->calls[w->n_calls - 1].malformed = "\"input\" must be an object holding the arguments";
            continue;
        }
        /* The input object as text for the decoder and the history: the
        ** canonical writer keeps every value (numbers as sent). */
        w->obj_at[w->n_calls - 1] = w->objs.len;
        toolgov__json_put_value(&w->objs, d, (size_t)input);
        w->calls[w->n_calls - 1].args_len = w->objs.len - w->obj_at[w->n_calls - 1];
        toolgov__jbuf_putc(&w->objs, '\0');
    }
    if (w->objs.failed)
        return TOOLGOV_ENOMEM;
    for (k = 0; k < w->n_calls; k++)
        if (w->obj_at[k] != (size_t)-1)
            w->calls[k].args = w->objs.ptr + w->obj_at[k];
    return 0;
}

int toolgov__wire_read(toolgov__wire *w, toolgov_loop_api api, const char *body, size_t len,
                       size_t max_len)
{
    toolgov__json_doc d;
    toolgov__json_error jerr;
    int rc;

    w->n_calls = 0;
    w->finish = TOOLGOV__WIRE_STOP;
    w->api_error = 0;
    w->error[0] = '\0';
    toolgov__jbuf_clear(&w->text);
    toolgov__jbuf_clear(&w->refusal);
    toolgov__jbuf_clear(&w->objs);
    toolgov__scratch_reset(&w->arena);
    if (max_len > TOOLGOV__JSON_MAX_LEN)
        max_len = TOOLGOV__JSON_MAX_LEN;
    if (!body)
        body = "";
    rc = toolgov__json_parse(&d, &jerr, &w->arena, body, len, TOOLGOV__JSON_MAX_DEPTH, max_len, 0);
    if (rc == TOOLGOV_ENOMEM)
        return rc;
    if (rc) {
        if (jerr.limit_unit)
            snprintf(w->error, sizeof w->error,
                     "the model's response is not JSON the loop reads: %s (the limit is %zu %s)",
                     jerr.msg, jerr.limit, jerr.limit_unit);
        else
            snprintf(w->error, sizeof w->error,
                     "the model's response is not JSON: %s at byte %zu", jerr.msg, jerr.pos);
        return TOOLGOV_EINVAL;
    }
    if (d.nodes[0].type != TOOLGOV__JSON_OBJECT)
        return not_this_api(w, &d, api);
    switch (api) {
    case TOOLGOV_LOOP_OPENAI_CHAT: rc = read_chat(w, &d); break;
    case TOOLGOV_LOOP_OPENAI_RESPONSES: rc = read_responses(w, &d); break;
    case TOOLGOV_LOOP_ANTHROPIC: rc = read_anthropic(w, &d); break;
    default: rc = TOOLGOV_EINVAL; break;
    }
    if (rc == 0 && (toolgov__jbuf_finish(&w->text) || toolgov__jbuf_finish(&w->refusal)))
        rc = TOOLGOV_ENOMEM;
    if (rc)
        w->n_calls = 0;
    return rc;
}
