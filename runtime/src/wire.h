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
} toolgov__wire;

void toolgov__wire_init(toolgov__wire *w, const toolgov_allocator *alloc);
void toolgov__wire_free(toolgov__wire *w);

/* Read `len` bytes of `body` (borrowed, must outlive the results) as a
** response of `api`, at most max_len bytes. 0; TOOLGOV_EINVAL (an error
** body: api_error 1; or not such a response: api_error 0; w->error says
** which); TOOLGOV_ENOMEM. */
int toolgov__wire_read(toolgov__wire *w, toolgov_loop_api api, const char *body, size_t len,
                       size_t max_len);

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
