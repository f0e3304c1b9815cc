/* SPDX-License-Identifier: MIT */
/*
** wire.h: the model APIs' response bodies, read (wire_read.c), and the
** JSON text the loop writes (wire_write.c). Internal to libtoolgov.
**
** A reader reads one whole response body of one API into what the loop
** needs: the answer text, a refusal, why the model stopped, and its tool
** calls as the model wrote them (id, name, argument text). An error body
** is an error with the API's own message; a body that is not a response of
** that API at all (another API's, `{}`, not JSON) is an error that says
** what it is. Everything read lives in the reader's arena and buffers
** until its next read or free; once warm a read allocates nothing.
*/
#ifndef TOOLGOV_WIRE_H
#define TOOLGOV_WIRE_H

#include <stddef.h>

#include "json.h"
#include "toolgov/loop.h"

enum {
    TOOLGOV__WIRE_STOP = 0,     /* the model finished (or said nothing of why) */
    TOOLGOV__WIRE_TOOLS = 1,    /* it stopped to have tools called */
    TOOLGOV__WIRE_LENGTH = 2,   /* at its output limit */
    TOOLGOV__WIRE_REFUSAL = 3   /* it refused, or a content filter stopped it */
};

/* Most tool calls one response may hold before the reader refuses it. */
#define TOOLGOV__WIRE_MAX_CALLS 1024u

typedef struct toolgov__wire_call {
    const char *id;          /* NULL when the call has none */
    size_t id_len;
    const char *name;        /* NULL when the call has none (or not a string) */
    size_t name_len;
    const char *args;        /* argument text: OpenAI's string as sent, an
                             ** Anthropic input object in canonical form;
                             ** NULL when the call is malformed */
    size_t args_len;
    const char *malformed;   /* why the call's form is wrong (static), or NULL */
} toolgov__wire_call;

/* A call of a stream, assembled from its fragments (wire_stream.c). */
typedef struct toolgov__wire_scall {
    long key;                 /* how the API names it: index, output_index */
    size_t id, id_len;        /* offsets in strs */
    size_t name, name_len;
    int args_from_start;      /* Anthropic: args hold the start block's input */
} toolgov__wire_scall;

/* A server-sent-event stream being read (wire_stream.c). */
typedef struct toolgov__wire_stream {
    int mode;                 /* 0 nothing yet, 1 SSE, 2 a whole JSON body */
    int done;                 /* the API's last event was read */
    int finish_seen;          /* OpenAI chat: a finish_reason was read */
    int cr;                   /* the last byte was a CR (a CRLF may be split) */
    int has_data;             /* the event being read has data lines */
    unsigned long events;     /* events read, for messages */
    size_t total;             /* bytes fed */
    char event[64];           /* the event's "event:" field */
    toolgov__jbuf line;       /* the line being read */
    toolgov__jbuf data;       /* the event's data lines, joined */
    toolgov__jbuf delta;      /* answer text the last chunk brought */
    toolgov__jbuf strs;       /* calls' ids and names */
    toolgov__jbuf body;       /* mode 2: the body */
    toolgov__jbuf *args;      /* per call: its argument text so far */
    toolgov__wire_scall *sc;
    size_t n, sc_cap, args_cap, args_init;
} toolgov__wire_stream;

typedef struct toolgov__wire {
    toolgov_allocator alloc;
    toolgov__scratch arena;
    toolgov__jbuf text;       /* the answer text, parts joined */
    toolgov__jbuf refusal;
    toolgov__jbuf objs;       /* canonical input objects, NUL-separated */
    toolgov__wire_call *calls;
    size_t *obj_at;           /* per call: offset in objs, or (size_t)-1 */
    size_t n_calls, cap, obj_cap;
    int finish;               /* TOOLGOV__WIRE_* */
    int api_error;            /* 1: an error body of the API */
    char error[512];          /* the API's message, or what is wrong */
    toolgov__wire_stream st;
} toolgov__wire;

void toolgov__wire_init(toolgov__wire *w, const toolgov_allocator *alloc);
void toolgov__wire_free(toolgov__wire *w);

/* Read `len` bytes of `body` (borrowed, must outlive the results) as a
** response of `api`, at most max_len bytes. 0; TOOLGOV_EINVAL (an error
** body: api_error 1; or not such a response: api_error 0; w->error says
** which); TOOLGOV_ENOMEM. */
int toolgov__wire_read(toolgov__wire *w, toolgov_loop_api api, const char *body, size_t len,
                       size_t max_len);

/* ---- streams (wire_stream.c) ----
** A response read as it arrives: begin, feed each chunk of the body as it
** comes (any split: mid-line, mid-UTF-8, mid-CRLF), end when the body has
** ended. The stream is the API's server-sent events (OpenAI chat chunks
** ending in `data: [DONE]`; Responses events ending in response.completed,
** .incomplete or .failed; Anthropic's message_start ... message_stop); a
** body that starts with `{` is a whole JSON response instead (an error
** body sent to a streamed request) and is read whole at the end. Each feed
** leaves the answer text it brought in st.delta. End assembles the calls
** from their fragments and fills the reader's fields as toolgov__wire_read
** does; a stream cut before its last event, or in the middle of one, is an
** error and none of its calls is given. At most max_len bytes in all.
** 0; TOOLGOV_EINVAL (w->error says why; api_error 1 for an error event of
** the API); TOOLGOV_ENOMEM. */
void toolgov__wire_stream_begin(toolgov__wire *w);
int toolgov__wire_stream_feed(toolgov__wire *w, toolgov_loop_api api, const char *p,
                              size_t len, size_t max_len);
int toolgov__wire_stream_end(toolgov__wire *w, toolgov_loop_api api, size_t max_len);

/* wire_read.c, shared with wire_stream.c: room for call n (0-based) in
** the two arrays a call takes (*a of a_size bytes an entry, *b of b_size),
** TOOLGOV_EINVAL with the message when n reaches TOOLGOV__WIRE_MAX_CALLS
** ("the <what> holds more than ..."), TOOLGOV_ENOMEM; a new call (id/name
** may be NULL); the API's error message from an error object or string at
** `err`. */
int toolgov__wire_call_room(toolgov__wire *w, size_t n, const char *what, void **a,
                            size_t *a_cap, size_t a_size, void **b, size_t *b_cap,
                            size_t b_size);
int toolgov__wire_add_call(toolgov__wire *w, const char *id, size_t id_len, const char *name,
                           size_t name_len);
void toolgov__wire_api_error(toolgov__wire *w, const toolgov__json_doc *d, long err,
                             const char *api);

/* ---- writing ---- */

/* s[0..len) as a JSON string: like toolgov__json_put_str, but any byte
** sequence that is not well-formed UTF-8 becomes U+FFFD, so text from a
** handler can never make the request invalid JSON. */
void toolgov__wire_put_text(toolgov__jbuf *b, const char *s, size_t len);

/* Model-supplied text as shown to a person: toolgov_text_shown's escaping
** (toolgov.h; out.c's toolgov__out_shown, the one writer the runtime, the
** MCP server and the agent share), so what the user reads is what runs. */
void toolgov__wire_put_shown(toolgov__jbuf *b, const char *s, size_t len);

#endif /* TOOLGOV_WIRE_H */
