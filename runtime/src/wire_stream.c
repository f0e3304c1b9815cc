/* SPDX-License-Identifier: MIT */
/*
** wire_stream.c: a model's response read as it arrives, from the API's
** server-sent events (wire.h, "streams"). Sans I/O: the bytes are fed in.
**
** The events, from each vendor's API reference:
**   OpenAI Chat Completions (platform.openai.com/docs/api-reference/chat-
**     streaming): `data: {"object": "chat.completion.chunk", "choices":
**     [{"index", "delta": {"role", "content", "refusal", "tool_calls":
**     [{"index", "id", "type": "function", "function": {"name",
**     "arguments"}}]}, "finish_reason"}]}` events, the calls' arguments in
**     pieces under their "index", and a last `data: [DONE]`; an error is
**     `data: {"error": {...}}`.
**   OpenAI Responses (platform.openai.com/docs/api-reference/responses-
**     streaming): `event: <type>` / `data: {"type": <type>, ...}`:
**     response.output_text.delta {"delta"}, response.refusal.delta,
**     response.output_item.added / .done {"output_index", "item":
**     {"type": "function_call", "call_id", "name", "arguments"}},
**     response.function_call_arguments.delta {"output_index", "delta"} and
**     .done {"arguments"}; the last is response.completed, .incomplete
**     ({"response": {"incomplete_details": {"reason"}}}) or .failed
**     ({"response": {"error": {"code", "message"}}}); an `error` event
**     carries {"code", "message"}.
**   Anthropic Messages (docs.anthropic.com/en/docs/build-with-claude/
**     streaming): message_start, content_block_start {"index",
**     "content_block": {"type": "text"|"tool_use", "id", "name", "input"}},
**     content_block_delta {"index", "delta": {"type": "text_delta", "text"}
**     | {"type": "input_json_delta", "partial_json"}}, content_block_stop,
**     message_delta {"delta": {"stop_reason"}}, message_stop, ping; an
**     error is `event: error` {"type": "error", "error": {"type",
**     "message"}}.
** The SSE framing is the HTML standard's (html.spec.whatwg.org, "server-
** sent events"): lines end in CRLF, LF or CR; "field: value" with one
** space dropped; a line starting with ':' is a comment; an empty line
** ends the event; data lines are joined with LF.
*/
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "wire.h"

static const char *const api_names[] = {"OpenAI API", "OpenAI API", "Anthropic API"};

void toolgov__wire_stream_begin(toolgov__wire *w)
{
    toolgov__wire_stream *st = &w->st;
    size_t i;

    w->n_calls = 0;
    w->finish = TOOLGOV__WIRE_STOP;
    w->api_error = 0;
    w->error[0] = '\0';
    toolgov__jbuf_clear(&w->text);
    toolgov__jbuf_clear(&w->refusal);
    toolgov__jbuf_clear(&w->objs);
    st->mode = st->done = st->finish_seen = st->cr = st->has_data = 0;
    st->events = 0;
    st->total = 0;
    st->event[0] = '\0';
    st->n = 0;
    toolgov__jbuf_clear(&st->line);
    toolgov__jbuf_clear(&st->data);
    toolgov__jbuf_clear(&st->delta);
    toolgov__jbuf_clear(&st->strs);
    toolgov__jbuf_clear(&st->body);
    for (i = 0; i < st->args_init; i++)
        toolgov__jbuf_clear(&st->args[i]);
}

/* ---- the calls, from their fragments -------------------------------------- */

/* A small non-negative integer at i, or -1. */
static long index_at(const toolgov__json_doc *d, long i)
{
    int64_t v;
    if (!toolgov__json_is(d, i, TOOLGOV__JSON_NUMBER) || toolgov__json_int64(&d->nodes[i], &v) ||
        v < 0 || v > 1000000000)
        return -1;
    return (long)v;
}

static int fail(toolgov__wire *w, const char *msg)
{
    snprintf(w->error, sizeof w->error, "%s", msg);
    return TOOLGOV_EINVAL;
}

/* The call the API names `key`; -1 when there is none. */
static long find_call(const toolgov__wire_stream *st, long key)
{
    size_t i;
    if (st->n && st->sc[st->n - 1].key == key)
        return (long)st->n - 1;
    for (i = 0; i < st->n; i++)
        if (st->sc[i].key == key)
            return (long)i;
    return -1;
}

static int new_call(toolgov__wire *w, long key, long *out)
{
    toolgov__wire_stream *st = &w->st;
    void *sc = st->sc, *args = st->args;
    int rc = toolgov__wire_call_room(w, st->n, "stream", &sc, &st->sc_cap, sizeof *st->sc,
                                     &args, &st->args_cap, sizeof *st->args);

    st->sc = sc;
    st->args = args;
    if (rc)
        return rc;
    if (st->args_init == st->n)
        toolgov__jbuf_init(&st->args[st->args_init++], &w->alloc);
    toolgov__jbuf_clear(&st->args[st->n]);
    memset(&st->sc[st->n], 0, sizeof st->sc[st->n]);
    st->sc[st->n].key = key;
    *out = (long)st->n++;
    return 0;
}

/* Set the id or name of call k (the first one given wins for the id; the
** name is joined from its pieces, as the vendors' SDKs join it). */
static void set_str(toolgov__wire_stream *st, size_t *at, size_t *len, const char *s, size_t n,
                    int join)
{
    if (!s || !n)
        return;
    if (*len && !join)
        return;
    if (*len) {
        /* Join: copy the old piece after the strings, then the new one. */
        size_t old = *at, old_len = *len, start = st->strs.len;
        if (!toolgov__jbuf_room(&st->strs, old_len + n + 1))
            return;
        memmove(st->strs.ptr + start, st->strs.ptr + old, old_len);
        st->strs.len += old_len;
        toolgov__jbuf_put(&st->strs, s, n);
        *at = start;
        *len = old_len + n;
        toolgov__jbuf_putc(&st->strs, '\0');
        return;
    }
    *at = st->strs.len;
    *len = n;
    toolgov__jbuf_put(&st->strs, s, n);
    toolgov__jbuf_putc(&st->strs, '\0');
}

static void put_text(toolgov__wire *w, const char *s, size_t n)
{
    toolgov__jbuf_put(&w->text, s, n);
    toolgov__jbuf_put(&w->st.delta, s, n);
}

/* ---- each API's events ---------------------------------------------------- */

static int chat_event(toolgov__wire *w, const toolgov__json_doc *d)
{
    toolgov__wire_stream *st = &w->st;
    long err = toolgov__json_member(d, 0, "error"),
         choices = toolgov__json_member(d, 0, "choices"), ch, delta, calls, fin;
    size_t n, i, k;
    const char *s;
    int rc;

    if (err >= 0 && !toolgov__json_is(d, err, TOOLGOV__JSON_NULL)) {
        toolgov__wire_api_error(w, d, err, "OpenAI API");
        return TOOLGOV_EINVAL;
    }
    if (!toolgov__json_is(d, choices, TOOLGOV__JSON_ARRAY))
        return fail(w, "an event of the stream is not a chat completion chunk (it has no "
                       "\"choices\" array)");
    if (d->nodes[choices].len == 0)
        return 0; /* the usage chunk */
    ch = choices + 1;
    delta = toolgov__json_member(d, ch, "delta");
    if ((s = toolgov__json_str_at(d, toolgov__json_member(d, delta, "content"), &n)))
        put_text(w, s, n);
    if ((s = toolgov__json_str_at(d, toolgov__json_member(d, delta, "refusal"), &n)))
        toolgov__jbuf_put(&w->refusal, s, n);
    calls = toolgov__json_member(d, delta, "tool_calls");
    if (toolgov__json_is(d, calls, TOOLGOV__JSON_ARRAY)) {
        for (k = 0, i = (size_t)calls + 1; k < d->nodes[calls].len; k++, i = d->nodes[i].end) {
            long tc = (long)i, fn = toolgov__json_member(d, tc, "function"),
                 key = index_at(d, toolgov__json_member(d, tc, "index"));
            long c;
            size_t idn = 0;
            const char *id =
                toolgov__json_str_at(d, toolgov__json_member(d, tc, "id"), &idn);
            if (key < 0) /* no index: a call with an id starts, else the last goes on */
                key = id || st->n == 0 ? -2 - (long)st->n : st->sc[st->n - 1].key;
            if ((c = find_call(st, key)) < 0 && (rc = new_call(w, key, &c)))
                return rc;
            set_str(st, &st->sc[c].id, &st->sc[c].id_len, id, idn, 0);
            s = toolgov__json_str_at(d, toolgov__json_member(d, fn, "name"), &n);
            set_str(st, &st->sc[c].name, &st->sc[c].name_len, s, n, 1);
            if ((s = toolgov__json_str_at(d, toolgov__json_member(d, fn, "arguments"), &n)))
                toolgov__jbuf_put(&st->args[c], s, n);
        }
    }
    fin = toolgov__json_member(d, ch, "finish_reason");
    if (toolgov__json_is(d, fin, TOOLGOV__JSON_STRING)) {
        st->finish_seen = 1;
        if (toolgov__json_str_is(d, fin, "tool_calls") ||
            toolgov__json_str_is(d, fin, "function_call"))
            w->finish = TOOLGOV__WIRE_TOOLS;
        else if (toolgov__json_str_is(d, fin, "length"))
            w->finish = TOOLGOV__WIRE_LENGTH;
        else if (toolgov__json_str_is(d, fin, "content_filter"))
            w->finish = TOOLGOV__WIRE_REFUSAL;
    }
    return 0;
}

/* Responses: the call item at `item` (output_item.added / .done). */
static int responses_item(toolgov__wire *w, const toolgov__json_doc *d, long key, long item,
                          int done)
{
    toolgov__wire_stream *st = &w->st;
    size_t n;
    const char *s;
    long c;
    int rc;

    if (!toolgov__json_str_is(d, toolgov__json_member(d, item, "type"), "function_call"))
        return 0;
    if ((c = find_call(st, key)) < 0 && (rc = new_call(w, key, &c)))
        return rc;
    s = toolgov__json_str_at(d, toolgov__json_member(d, item, "call_id"), &n);
    set_str(st, &st->sc[c].id, &st->sc[c].id_len, s, n, 0);
    s = toolgov__json_str_at(d, toolgov__json_member(d, item, "name"), &n);
    set_str(st, &st->sc[c].name, &st->sc[c].name_len, s, n, 0);
    if ((s = toolgov__json_str_at(d, toolgov__json_member(d, item, "arguments"), &n)) &&
        (done || n)) {
        /* The item's whole arguments: they replace the pieces. */
        toolgov__jbuf_clear(&st->args[c]);
        toolgov__jbuf_put(&st->args[c], s, n);
    }
    return 0;
}

static int responses_event(toolgov__wire *w, const toolgov__json_doc *d, const char *type,
                           size_t tlen)
{
    toolgov__wire_stream *st = &w->st;
    long key = index_at(d, toolgov__json_member(d, 0, "output_index")), c,
         resp = toolgov__json_member(d, 0, "response");
    size_t n;
    const char *s;

#define IS(lit) (tlen == sizeof(lit) - 1 && memcmp(type, (lit), tlen) == 0)
    if (IS("error")) {
        const char *code = toolgov__json_str_at(d, toolgov__json_member(d, 0, "code"), &n);
        const char *msg =
            toolgov__json_str_at(d, toolgov__json_member(d, 0, "message"), &n);
        w->api_error = 1;
        snprintf(w->error, sizeof w->error, "OpenAI API error%s%.100s%s: %.300s",
                 code ? " (" : "", code ? code : "", code ? ")" : "",
                 msg ? msg : "(the error event has no message)");
        return TOOLGOV_EINVAL;
    }
    if (IS("response.failed")) {
        toolgov__wire_api_error(w, d, toolgov__json_member(d, resp, "error"), "OpenAI API");
        return TOOLGOV_EINVAL;
    }
    if (IS("response.completed")) {
        st->done = 1;
    } else if (IS("response.incomplete")) {
        long why = toolgov__json_member(
            d, toolgov__json_member(d, resp, "incomplete_details"), "reason");
        w->finish = toolgov__json_str_is(d, why, "content_filter") ? TOOLGOV__WIRE_REFUSAL
                                                                   : TOOLGOV__WIRE_LENGTH;
        st->done = 1;
    } else if (IS("response.output_text.delta")) {
        if ((s = toolgov__json_str_at(d, toolgov__json_member(d, 0, "delta"), &n)))
            put_text(w, s, n);
    } else if (IS("response.refusal.delta")) {
        if ((s = toolgov__json_str_at(d, toolgov__json_member(d, 0, "delta"), &n)))
            toolgov__jbuf_put(&w->refusal, s, n);
    } else if (IS("response.output_item.added") || IS("response.output_item.done")) {
        return responses_item(w, d, key, toolgov__json_member(d, 0, "item"),
                              IS("response.output_item.done"));
    } else if (IS("response.function_call_arguments.delta") ||
               IS("response.function_call_arguments.done")) {
        int whole = IS("response.function_call_arguments.done");
        if ((c = find_call(st, key)) < 0)
            return fail(w, "the stream sends a call's arguments before the call "
                           "(response.output_item.added)");
        if ((s = toolgov__json_str_at(
                 d, toolgov__json_member(d, 0, whole ? "arguments" : "delta"), &n))) {
            if (whole)
                toolgov__jbuf_clear(&st->args[c]);
            toolgov__jbuf_put(&st->args[c], s, n);
        }
    }
#undef IS
    return 0;
}

static int anthropic_event(toolgov__wire *w, const toolgov__json_doc *d, const char *type,
                           size_t tlen)
{
    toolgov__wire_stream *st = &w->st;
    long key = index_at(d, toolgov__json_member(d, 0, "index")), c;
    size_t n;
    const char *s;
    int rc;

#define IS(lit) (tlen == sizeof(lit) - 1 && memcmp(type, (lit), tlen) == 0)
    if (IS("error")) {
        toolgov__wire_api_error(w, d, toolgov__json_member(d, 0, "error"), "Anthropic API");
        return TOOLGOV_EINVAL;
    }
    if (IS("message_stop")) {
        st->done = 1;
    } else if (IS("content_block_start")) {
        long b = toolgov__json_member(d, 0, "content_block"),
             bt = toolgov__json_member(d, b, "type"), input;
        if (toolgov__json_str_is(d, bt, "text")) {
            if ((s = toolgov__json_str_at(d, toolgov__json_member(d, b, "text"), &n)))
                put_text(w, s, n);
            return 0;
        }
        if (!toolgov__json_str_is(d, bt, "tool_use"))
            return 0;
        if (key < 0 || find_call(st, key) >= 0)
            return fail(w, "a tool_use block of the stream has no index, or one already used");
        if ((rc = new_call(w, key, &c)))
            return rc;
        s = toolgov__json_str_at(d, toolgov__json_member(d, b, "id"), &n);
        set_str(st, &st->sc[c].id, &st->sc[c].id_len, s, n, 0);
        s = toolgov__json_str_at(d, toolgov__json_member(d, b, "name"), &n);
        set_str(st, &st->sc[c].name, &st->sc[c].name_len, s, n, 0);
        input = toolgov__json_member(d, b, "input");
        if (toolgov__json_is(d, input, TOOLGOV__JSON_OBJECT) && d->nodes[input].len) {
            toolgov__json_put_value(&st->args[c], d, (size_t)input);
            st->sc[c].args_from_start = 1;
        }
    } else if (IS("content_block_delta")) {
        long delta = toolgov__json_member(d, 0, "delta"),
             dt = toolgov__json_member(d, delta, "type");
        if (toolgov__json_str_is(d, dt, "text_delta")) {
            if ((s = toolgov__json_str_at(d, toolgov__json_member(d, delta, "text"), &n)))
                put_text(w, s, n);
        } else if (toolgov__json_str_is(d, dt, "input_json_delta")) {
            if ((c = find_call(st, key)) < 0)
                return fail(w, "the stream sends a tool input before its tool_use block "
                               "(content_block_start)");
            if (st->sc[c].args_from_start) {
                toolgov__jbuf_clear(&st->args[c]);
                st->sc[c].args_from_start = 0;
            }
            if ((s = toolgov__json_str_at(d, toolgov__json_member(d, delta, "partial_json"),
                                          &n)))
                toolgov__jbuf_put(&st->args[c], s, n);
        }
    } else if (IS("message_delta")) {
        long stop =
            toolgov__json_member(d, toolgov__json_member(d, 0, "delta"), "stop_reason");
        if (toolgov__json_str_is(d, stop, "tool_use"))
            w->finish = TOOLGOV__WIRE_TOOLS;
        else if (toolgov__json_str_is(d, stop, "max_tokens") ||
                 toolgov__json_str_is(d, stop, "model_context_window_exceeded"))
            w->finish = TOOLGOV__WIRE_LENGTH;
        else if (toolgov__json_str_is(d, stop, "refusal"))
            w->finish = TOOLGOV__WIRE_REFUSAL;
    }
#undef IS
    return 0;
}

/* One whole event: its data (and event name). */
static int dispatch(toolgov__wire *w, toolgov_loop_api api, size_t max_len)
{
    toolgov__wire_stream *st = &w->st;
    toolgov__json_doc d;
    toolgov__json_error jerr;
    const char *type;
    size_t tlen;
    int rc;

    st->events++;
    if (st->done)
        return 0; /* after the last event: nothing more is read */
    if (toolgov__jbuf_finish(&st->data))
        return TOOLGOV_ENOMEM;
    if (api == TOOLGOV_LOOP_OPENAI_CHAT && st->data.len == 6 &&
        memcmp(st->data.ptr, "[DONE]", 6) == 0) {
        st->done = 1;
        return 0;
    }
    toolgov__scratch_reset(&w->arena);
    rc = toolgov__json_parse(&d, &jerr, &w->arena, st->data.ptr, st->data.len,
                             TOOLGOV__JSON_MAX_DEPTH, max_len, 0);
    if (rc == TOOLGOV_ENOMEM)
        return rc;
    if (rc) {
        snprintf(w->error, sizeof w->error,
                 "event %lu of the stream is not JSON: %s at byte %zu of its data", st->events,
                 jerr.msg, jerr.pos);
        return TOOLGOV_EINVAL;
    }
    if (d.nodes[0].type != TOOLGOV__JSON_OBJECT) {
        snprintf(w->error, sizeof w->error, "event %lu of the stream is not a JSON object",
                 st->events);
        return TOOLGOV_EINVAL;
    }
    if (api == TOOLGOV_LOOP_OPENAI_CHAT)
        return chat_event(w, &d);
    /* The type is the data's "type"; the event line names it too. */
    if (!(type = toolgov__json_str_at(&d, toolgov__json_member(&d, 0, "type"), &tlen))) {
        type = st->event;
        tlen = strlen(st->event);
    }
    return api == TOOLGOV_LOOP_ANTHROPIC ? anthropic_event(w, &d, type, tlen)
                                         : responses_event(w, &d, type, tlen);
}

/* One line of the stream (without its end). */
static int line(toolgov__wire *w, toolgov_loop_api api, const char *s, size_t n, size_t max_len)
{
    toolgov__wire_stream *st = &w->st;
    const char *colon, *v;
    size_t fn, vn;
    int rc;

    if (n == 0) {
        rc = st->has_data ? dispatch(w, api, max_len) : 0;
        toolgov__jbuf_clear(&st->data);
        st->has_data = 0;
        st->event[0] = '\0';
        return rc;
    }
    if (s[0] == ':')
        return 0; /* a comment (a keep-alive) */
    colon = memchr(s, ':', n);
    fn = colon ? (size_t)(colon - s) : n;
    v = colon ? colon + 1 : s + n;
    vn = (size_t)(s + n - v);
    if (vn && *v == ' ') {
        v++;
        vn--;
    }
    if (fn == 4 && memcmp(s, "data", 4) == 0) {
        if (st->has_data)
            toolgov__jbuf_putc(&st->data, '\n');
        toolgov__jbuf_put(&st->data, v, vn);
        st->has_data = 1;
    } else if (fn == 5 && memcmp(s, "event", 5) == 0) {
        if (vn >= sizeof st->event)
            vn = sizeof st->event - 1;
        memcpy(st->event, v, vn);
        st->event[vn] = '\0';
    }
    return 0;
}

int toolgov__wire_stream_feed(toolgov__wire *w, toolgov_loop_api api, const char *p, size_t len,
                              size_t max_len)
{
    toolgov__wire_stream *st = &w->st;
    const char *e = p + len;
    int rc;

    toolgov__jbuf_clear(&st->delta);
    if (max_len > TOOLGOV__JSON_MAX_LEN)
        max_len = TOOLGOV__JSON_MAX_LEN;
    if (len > max_len || st->total > max_len - len) {
        snprintf(w->error, sizeof w->error,
                 "the streamed response is over %zu bytes, the loop's limit (max_response)",
                 max_len);
        return TOOLGOV_EINVAL;
    }
    st->total += len;
    if (st->mode == 0) {
        /* What the body is: whitespace first says nothing yet. */
        while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
            p++;
        if (p == e)
            return 0;
        st->mode = *p == '{' ? 2 : 1;
    }
    if (st->mode == 2) {
        toolgov__jbuf_put(&st->body, p, (size_t)(e - p));
        return st->body.failed ? TOOLGOV_ENOMEM : 0;
    }
    while (p < e) {
        const char *q = p;
        if (st->cr && *p == '\n') { /* the LF of a CRLF split across chunks */
            st->cr = 0;
            p++;
            continue;
        }
        st->cr = 0;
        while (q < e && *q != '\n' && *q != '\r')
            q++;
        if (q == e) {
            toolgov__jbuf_put(&st->line, p, (size_t)(q - p));
            break;
        }
        if (st->line.len) {
            toolgov__jbuf_put(&st->line, p, (size_t)(q - p));
            if (st->line.failed)
                return TOOLGOV_ENOMEM;
            rc = line(w, api, st->line.ptr, st->line.len, max_len);
            toolgov__jbuf_clear(&st->line);
        } else {
            rc = line(w, api, p, (size_t)(q - p), max_len);
        }
        if (rc)
            return rc;
        st->cr = *q == '\r';
        p = q + 1;
    }
    if (st->line.failed || st->data.failed || st->strs.failed || w->text.failed ||
        w->refusal.failed || toolgov__jbuf_finish(&st->delta))
        return TOOLGOV_ENOMEM;
    return 0;
}

/* Anthropic: the input text assembled, as the canonical object the loop
** sends back and decodes. */
static int anthropic_input(toolgov__wire *w, size_t k, const toolgov__jbuf *in)
{
    toolgov__json_doc d;
    toolgov__json_error jerr;
    int rc;

    toolgov__scratch_reset(&w->arena);
    rc = toolgov__json_parse(&d, &jerr, &w->arena, in->len ? in->ptr : "{}", in->len ? in->len : 2,
                             TOOLGOV__JSON_MAX_DEPTH, TOOLGOV__JSON_MAX_LEN, 0);
    if (rc == TOOLGOV_ENOMEM)
        return rc;
    if (rc || d.nodes[0].type != TOOLGOV__JSON_OBJECT) {
        w->calls[k].malformed = "the streamed \"input\" is not a JSON object holding the arguments";
        return 0;
    }
    w->obj_at[k] = w->objs.len;
    toolgov__json_put_value(&w->objs, &d, 0);
    w->calls[k].args_len = w->objs.len - w->obj_at[k];
    toolgov__jbuf_putc(&w->objs, '\0');
    return 0;
}

int toolgov__wire_stream_end(toolgov__wire *w, toolgov_loop_api api, size_t max_len)
{
    toolgov__wire_stream *st = &w->st;
    size_t k;
    int rc;

    toolgov__jbuf_clear(&st->delta);
    if (st->mode == 0)
        return fail(w, "the streamed response ended before anything was sent");
    if (st->mode == 2)
        return toolgov__wire_read(w, api, st->body.ptr, st->body.len, max_len);
    if (st->line.len || st->has_data) {
        /* A line without its end, or an event without the empty line
        ** that ends it: the event never finished. */
        snprintf(w->error, sizeof w->error,
                 "the stream was cut in the middle of an event (after %zu bytes and %lu whole "
                 "events); nothing of this response is used",
                 st->total, st->events);
        return TOOLGOV_EINVAL;
    }
    if (!st->done && !(api == TOOLGOV_LOOP_OPENAI_CHAT && st->finish_seen)) {
        static const char *const last[] = {"data: [DONE]",
                                           "response.completed (or .incomplete, .failed)",
                                           "message_stop"};
        snprintf(w->error, sizeof w->error,
                 "the stream ended before its last event (%s) of the %s, after %zu bytes; "
                 "nothing of this response is used",
                 last[api], api_names[api], st->total);
        return TOOLGOV_EINVAL;
    }
    if (toolgov__jbuf_finish(&st->strs))
        return TOOLGOV_ENOMEM;
    for (k = 0; k < st->n; k++) {
        const toolgov__wire_scall *c = &st->sc[k];
        toolgov__jbuf *a = &st->args[k];
        if ((rc = toolgov__wire_add_call(w, c->id_len ? st->strs.ptr + c->id : NULL, c->id_len,
                                         c->name_len ? st->strs.ptr + c->name : NULL,
                                         c->name_len)))
            return rc;
        if (toolgov__jbuf_finish(a))
            return TOOLGOV_ENOMEM;
        if (api == TOOLGOV_LOOP_ANTHROPIC) {
            if ((rc = anthropic_input(w, k, a)))
                return rc;
        } else {
            w->calls[k].args = a->ptr ? a->ptr : "";
            w->calls[k].args_len = a->len;
        }
    }
    if (w->objs.failed)
        return TOOLGOV_ENOMEM;
    for (k = 0; k < w->n_calls; k++)
        if (w->obj_at[k] != (size_t)-1)
            w->calls[k].args = w->objs.ptr + w->obj_at[k];
    if (w->n_calls && w->finish == TOOLGOV__WIRE_STOP)
        w->finish = TOOLGOV__WIRE_TOOLS;
    if (toolgov__jbuf_finish(&w->text) || toolgov__jbuf_finish(&w->refusal))
        return TOOLGOV_ENOMEM;
    return 0;
}
