/* SPDX-License-Identifier: MIT */
/*
** wire_write.c: text the loop writes for the model APIs and for people
** (wire.h, loop.h): JSON strings that stay valid whatever a handler wrote,
** calls shown with nothing hidden, the texts of calls that did not run and
** the tool-result message in each API's shape.
*/
#include <string.h>

#include "internal.h"
#include "wire.h"

/* A JSON string of any bytes: the runtime's one string writer (jsonwrite.h;
** a byte that is not well-formed UTF-8 as \ufffd). */
void toolgov__wire_put_text(toolgov__jbuf *b, const char *s, size_t len)
{
    toolgov__json_put_str(b, s, len);
}

/* The runtime's one writer of text shown to a person (toolgov_text_shown,
** out.c), counted first and then written into the buffer's room. */
void toolgov__wire_put_shown(toolgov__jbuf *b, const char *s, size_t len)
{
    toolgov__out o;

    toolgov__out_init(&o, NULL, 0);
    toolgov__out_shown(&o, s, len);
    if (!toolgov__jbuf_room(b, o.len))
        return;
    toolgov__out_init(&o, b->ptr + b->len, o.len + 1);
    toolgov__out_shown(&o, s, len);
    b->len += o.len;
}

const char *toolgov_not_run_text(toolgov_not_run why)
{
    switch (why) {
    case TOOLGOV_NOT_RUN_WAITS_CONFIRM:
        return "not run: waiting for the user's confirmation of this turn's changes";
    case TOOLGOV_NOT_RUN_DECLINED:
        return "not run: the user said no to these changes; do not make them, and tell the "
               "user what was not done";
    case TOOLGOV_NOT_RUN_WAITS_APPROVAL:
        return "not run: this call cannot be undone and waits for the user's approval";
    case TOOLGOV_NOT_RUN_NOT_APPROVED:
        return "not run: the user did not approve this call; do not make it again unless the "
               "user asks";
    case TOOLGOV_NOT_RUN_UNKNOWN_TOOL:
        return "not run: there is no such tool; call one of the tools offered";
    case TOOLGOV_NOT_RUN_BAD_ARGS:
        return "not run: the arguments do not match the tool's parameters; send the call "
               "again with arguments that do";
    case TOOLGOV_NOT_RUN_ENDED:
        return "not run: the run has ended";
    case TOOLGOV_NOT_RUN_NO_HANDLER:
        return "not run: this tool is not available here";
    case TOOLGOV_NOT_RUN_TOO_MANY:
        return "not run: too many calls in one reply; send the rest in your next reply";
    }
    return "not run";
}

const char *toolgov_loop_end_name(toolgov_loop_end end)
{
    static const char *const names[] = {"none",      "answered",  "answered_directly",
                                        "step_limit", "size_limit", "truncated",
                                        "refusal",   "api_error", "bad_response",
                                        "aborted"};
    return (unsigned)end < sizeof names / sizeof names[0] ? names[end] : "unknown";
}

int toolgov_loop_tool_result_render(char *out, size_t size, size_t *needed, toolgov_loop_api api,
                                    const char *id, const char *text, size_t len, int is_error)
{
    toolgov_allocator a = {NULL, NULL};
    toolgov__jbuf b;
    toolgov__out o;
    int rc;

    if (needed)
        *needed = 0;
    if (!out && size)
        return TOOLGOV_EINVAL;
    if (size)
        out[0] = '\0';
    if (!id || (!text && len) || (unsigned)api > TOOLGOV_LOOP_ANTHROPIC)
        return TOOLGOV_EINVAL;
    /* A JSON string's escaped form is at most six bytes per input byte;
    ** counting first lets the text go straight into the caller's buffer. */
    toolgov__jbuf_init(&b, &a);
    switch (api) {
    case TOOLGOV_LOOP_OPENAI_CHAT: toolgov__jbuf_puts(&b, "{\"role\":\"tool\",\"tool_call_id\":"); break;
    case TOOLGOV_LOOP_OPENAI_RESPONSES:
        toolgov__jbuf_puts(&b, "{\"type\":\"function_call_output\",\"call_id\":");
        break;
    case TOOLGOV_LOOP_ANTHROPIC: toolgov__jbuf_puts(&b, "{\"type\":\"tool_result\",\"tool_use_id\":"); break;
    }
    toolgov__wire_put_text(&b, id, strlen(id));
    toolgov__jbuf_puts(&b, api == TOOLGOV_LOOP_OPENAI_RESPONSES ? ",\"output\":" : ",\"content\":");
    toolgov__wire_put_text(&b, text ? text : "", len);
    if (api == TOOLGOV_LOOP_ANTHROPIC && is_error)
        toolgov__jbuf_puts(&b, ",\"is_error\":true");
    toolgov__jbuf_putc(&b, '}');
    if (toolgov__jbuf_finish(&b)) {
        toolgov__jbuf_free(&b);
        return TOOLGOV_ENOMEM;
    }
    toolgov__out_init(&o, out, size);
    toolgov__out_put(&o, b.ptr, b.len);
    rc = toolgov__out_finish(&o, needed);
    toolgov__jbuf_free(&b);
    return rc;
}
