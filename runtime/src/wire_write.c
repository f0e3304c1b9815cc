/* SPDX-License-Identifier: MIT */
/*
** wire_write.c: text the loop writes for the model APIs and for people
** (wire.h, loop.h): JSON strings that stay valid whatever a handler wrote,
** calls shown with nothing hidden, the texts of calls that did not run and
** the tool-result message in each API's shape.
*/
#include <string.h>

#include "internal.h"
#include "utf8.h"
#include "wire.h"

static int invisible(unsigned cp)
{
    return (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) || cp == 0x2028 ||
           cp == 0x2029 || (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0xfeff || cp == 0x061c || cp == 0x00ad || cp == 0x180e;
}

static void put_u(toolgov__jbuf *b, unsigned cp)
{
    static const char hex[] = "0123456789abcdef";
    char u[6] = {'\\', 'u', hex[cp >> 12 & 15], hex[cp >> 8 & 15], hex[cp >> 4 & 15],
                 hex[cp & 15]};
    toolgov__jbuf_put(b, u, 6);
}

/* Text shown to people: valid UTF-8 as it is but invisible characters
** (which could hide what a call does) as \uXXXX, control bytes escaped, a
** byte that is not UTF-8 as \ufffd. */
static void put_walk(toolgov__jbuf *b, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + len, *run = p;

    while (p < e) {
        unsigned cp;
        size_t n;
        if (*p >= 0x20 && *p < 0x7f) {
            p++;
            continue;
        }
        if (*p >= 0x80) {
            n = toolgov__utf8_decode(p, e, &cp);
            if (n && !invisible(cp)) {
                p += n;
                continue;
            }
        }
        toolgov__jbuf_put(b, (const char *)run, (size_t)(p - run));
        if (*p >= 0x80) {
            n = toolgov__utf8_decode(p, e, &cp);
            if (n) {
                put_u(b, cp); /* an invisible character, shown */
                p += n;
            } else {
                toolgov__jbuf_put(b, "\\ufffd", 6);
                p++;
            }
        } else {
            switch (*p) {
            case '\n': toolgov__jbuf_put(b, "\\n", 2); break;
            case '\t': toolgov__jbuf_put(b, "\\t", 2); break;
            case '\r': toolgov__jbuf_put(b, "\\r", 2); break;
            default: put_u(b, *p); break;
            }
            p++;
        }
        run = p;
    }
    toolgov__jbuf_put(b, (const char *)run, (size_t)(p - run));
}

/* A JSON string of any bytes: the runtime's one string writer (jsonwrite.h;
** a byte that is not well-formed UTF-8 as \ufffd). */
void toolgov__wire_put_text(toolgov__jbuf *b, const char *s, size_t len)
{
    toolgov__json_put_str(b, s, len);
}

void toolgov__wire_put_shown(toolgov__jbuf *b, const char *s, size_t len)
{
    put_walk(b, s, len);
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
