/* SPDX-License-Identifier: MIT */
/*
** upstream_http.h: the client side of MCP's Streamable HTTP transport
** (revision 2025-06-18 and later), for an upstream server reached by URL.
**
** Every message we send is a POST of one JSON-RPC message to the URL with
** `Accept: application/json, text/event-stream`. A request is answered with
** a JSON body (the response) or an SSE stream whose events carry the
** server's messages and, at last, the response; a notification or a
** response of ours is answered 202. The server's `Mcp-Session-Id` (given
** with the initialize response) and the negotiated `MCP-Protocol-Version`
** go with every later request. Once the session is ready a GET opens the
** server's own SSE stream (its notifications, such as tools/list_changed);
** a server that offers none (405) is fine, a stream that ends is opened
** again after a while. Ending the session sends DELETE.
**
** The caller sees messages, never HTTP: each message the server sends (on a
** POST's stream or the GET stream) is handed to a callback as text, and
** every wait has a deadline. Redirects are not followed (an Authorization
** header must not follow one elsewhere), only http and https are spoken,
** and every body, line and event is bounded by max_message.
**
** libcurl (multi interface, one poll loop) does the HTTP; it is linked by
** toolgov-mcp only, never by the runtime.
**
** Ownership: the handle owns its curl handles, header lists and buffers; it
** copies the URL and headers it is given. Not thread-safe.
*/
#ifndef TOOLGOV_MCP_UPSTREAM_HTTP_H
#define TOOLGOV_MCP_UPSTREAM_HTTP_H

#include <stddef.h>

typedef struct toolgov__uphttp toolgov__uphttp;

/* One message of the server, msg[0..n) NUL-terminated, borrowed for the
** call. Return 0 to read on, 1 when it was the awaited response (the POST's
** stream is then left), -1 when it was malformed (the exchange fails; the
** callee has said why). */
typedef int (*toolgov__uphttp_fn)(void *ctx, const char *msg, size_t n);

/* A handle for url with extra request headers ("Name: value", NULL-ended,
** NULL for none). NULL with err set when out of memory or libcurl fails. */
toolgov__uphttp *toolgov__uphttp_new(const char *url, const char *const *headers,
                                     size_t max_message, char *err, size_t errlen);

/* POST one message body[0..n). is_request: its answer is read (a JSON body,
** or an SSE stream handed to fn message by message until fn returns 1), and
** the GET stream's messages are handed to fn meanwhile; otherwise 202 (or
** 200) is expected and nothing is read. 0 done, -1 failed (err says why:
** unreachable, an HTTP status, a body that is not JSON-RPC, too large, the
** stream ended without the response), -2 the deadline passed first. */
int toolgov__uphttp_post(toolgov__uphttp *h, const char *body, size_t n, int is_request,
                         long long deadline_ms, toolgov__uphttp_fn fn, void *ctx, char *err,
                         size_t errlen);

/* The session is initialized: send `version` as MCP-Protocol-Version from
** now on (notifications/initialized included), and open the GET stream
** with the next request or pump. 0. */
int toolgov__uphttp_ready(toolgov__uphttp *h, const char *version);

/* Read what arrived on the GET stream, without waiting, handing each
** message to fn (at most a bounded number per call). 0, or -1 with err set
** when the session is gone (404) or the stream broke with a malformed
** message. Opens the stream again when it ended and is due. */
int toolgov__uphttp_pump(toolgov__uphttp *h, toolgov__uphttp_fn fn, void *ctx, char *err,
                         size_t errlen);

/* End the session: DELETE it (waiting at most wait_ms), close the streams,
** forget the session id; the handle can start a new session. */
void toolgov__uphttp_end(toolgov__uphttp *h, int wait_ms);

/* The SSE reader alone, for tests and fuzzing: body[0..n) read as an
** event stream arriving `chunk` bytes at a time (chunk >= 1), under the
** bounds of a handle with max_message, each message handed to fn until fn
** returns 1 (0 then) or -1. 0, or -1 with err set (an event or a line over
** the bound, fn's -1, out of memory). */
int toolgov__uphttp_read_sse(const char *body, size_t n, size_t chunk, size_t max_message,
                             toolgov__uphttp_fn fn, void *ctx, char *err, size_t errlen);

/* End the session and free the handle. NULL is a no-op. */
void toolgov__uphttp_free(toolgov__uphttp *h);

#endif /* TOOLGOV_MCP_UPSTREAM_HTTP_H */
