/* SPDX-License-Identifier: MIT */
/*
** http.h: toolgov-mcp over MCP's Streamable HTTP transport (revision
** 2025-11-25), the downstream side: one endpoint, /mcp, on a local address.
**
** A client POSTs one JSON-RPC message at a time. `initialize` without a
** session starts one: a protocol engine of its own (server.h, so one run per
** session, the same gate, elicitation and audit as over stdio) under a random
** Mcp-Session-Id given in the response header; every later POST carries it
** (an unknown one gets 404, none at all 400). A request is answered with
** application/json when its response is the only message; when the engine
** has more to say first (an elicitation/create question of the gate), the
** answer is an SSE stream (text/event-stream) that carries those messages
** and ends with the response, while the client POSTs its answers (202
** Accepted). Notifications and responses get 202. DELETE ends a session.
** GET (with the session, Accept: text/event-stream) opens the session's own
** stream, one per session (409 for a second): when the tools served change
** (an upstream's drift), notifications/tools/list_changed goes out on every
** session's stream; a session without one hears it first in the answer to
** its next request.
**
** Against DNS rebinding, a request whose Origin or Host names a host other
** than localhost, 127.0.0.1, [::1] or the address listened on is refused
** (403), and the default address is 127.0.0.1. Bounds: the body at most the
** engine's max_message (413), the header block 16 KiB (431), 64 sessions
** (503 past them; a session idle for 30 minutes is ended), 128 connections.
**
** Single-threaded: one poll() loop over the listening socket and the
** connections; the engines are driven from it only.
**
** Ownership: the registry, policy and options (server.h) are borrowed for
** the whole serve call; everything else is the call's own.
*/
#ifndef TOOLGOV_MCP_HTTP_H
#define TOOLGOV_MCP_HTTP_H

#include <stdio.h>

#include "server.h"

/* Parse "ADDR:PORT" or "PORT" (ADDR an IPv4 address, default 127.0.0.1;
** PORT 0 to 65535, 0 for any free one). 0, or -1 after a message on err. */
int toolgov_mcp_http_parse(const char *spec, char addr[64], unsigned *port, FILE *err);

/* Listen on addr:port and serve until SIGINT or SIGTERM. The URL served
** is announced on `err` ("toolgov-mcp: serving MCP over Streamable HTTP at
** http://ADDR:PORT/mcp"). 0 at a signal, -1 when the address cannot be
** listened on (said on err). */
int toolgov_mcp_http_serve(const char *addr, unsigned port, const toolgov_registry *reg,
                           const toolgov_policy *pol, const toolgov_mcp_options *opt, FILE *err);

#endif /* TOOLGOV_MCP_HTTP_H */
