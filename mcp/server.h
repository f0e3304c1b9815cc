/* SPDX-License-Identifier: MIT */
/*
** server.h: toolgov-mcp's protocol engine, the Model Context Protocol over
** JSON-RPC 2.0, without the I/O.
**
** The engine takes one message at a time (the text of one line of the
** stdio transport, without its newline) and writes every message it sends
** back through the caller's write function, one complete JSON text per
** call. Keeping the I/O out makes the whole protocol testable in-process:
** tests/mcp/test_mcp_server.c feeds lines and reads what comes back.
**
** What it serves: `initialize`, `ping`, `tools/list`, `tools/call`, the
** `notifications/initialized` and `notifications/cancelled` notifications,
** and the answers to its own `elicitation/create` requests. Every
** `tools/call` goes through the registry's gate in a run of its own (one
** run per session, renewed when an answers-directly tool ends it or the
** client asks for a new one through `_meta` {"toolgov/new_run": true}):
**   - a read, or a write the gate allows, runs;
**   - a confirm-once write before the run's confirmation asks the user
**     once, through elicitation, listing the call and any other write
**     waiting for the same answer; accept confirms the run's writes and runs
**     them, decline refuses them for the rest of the run, cancel leaves the
**     question open (nothing runs; the next write asks again);
**   - a destructive call asks for its own approval each time, naming the
**     exact call; only accept lets that one call run;
**   - for a client without the elicitation capability both are refused with
**     a message that says why and what the operator can do;
**   - a question's form has one field, `remember`: "once" (the default),
**     "session" or, with a grant store, "always". An accepted answer to
**     remember becomes a standing allow (grants.h): of each tool the
**     confirmation listed, or of exactly the approved destructive call;
**     a call a standing never refuses is refused with its own message.
** The envelope is read with the runtime's strict JSON reader; the call's
** `arguments` are decoded once, by the run (toolgov_run_decode), before the
** gate, and a question lists the call with its canonical arguments.
**
** Ownership: the server borrows the registry and policy (they outlive it)
** and owns its run, its buffers and every pending call. Not thread-safe;
** one server serves one session.
*/
#ifndef TOOLGOV_MCP_SERVER_H
#define TOOLGOV_MCP_SERVER_H

#include <stddef.h>

#include <toolgov/audit.h>
#include <toolgov/grants.h>
#include <toolgov/policy.h>
#include <toolgov/toolgov.h>

/* The protocol revision served when the client asks for one we do not
** know (the revision of @modelcontextprotocol/sdk 1.32). */
#define TOOLGOV_MCP_PROTOCOL_LATEST "2025-11-25"

/* Default bound on one message, in bytes (the newline not counted). */
#define TOOLGOV_MCP_MAX_MESSAGE ((size_t)4 << 20)

/* Sends one message: `len` bytes of JSON text (no newline). 0 on success;
** any other value makes the call that sent it return TOOLGOV_EFAIL. */
typedef int (*toolgov_mcp_write_fn)(void *ud, const char *msg, size_t len);

/* What a handler finds in call->run_ctx when toolgov-mcp runs it: the
** progress token the client's tools/call carried in _meta.progressToken,
** as JSON text (a string or a number; NULL when it asked for no progress),
** and `progress` to send the client notifications/progress for that call.
** `members` is the rest of its params after the token, a JSON text that
** starts with a comma (",\"progress\":1,\"total\":3"); at most 1024
** notifications are sent per call, the rest dropped. 0, or non-zero when
** nothing was sent. An upstream server's forwarded call uses it (upstream.h).
** Owned by the server; valid during the call only. */
typedef struct toolgov_mcp_call_ctx {
    const char *progress_token;
    int (*progress)(struct toolgov_mcp_call_ctx *ctx, const char *members, size_t len);
    void *server_;       /* private */
    unsigned sent_;      /* private: notifications sent for this call */
} toolgov_mcp_call_ctx;

typedef struct toolgov_mcp_server toolgov_mcp_server;

/* Keeps a grant the user asked to keep "always" (the operator's grants
** file): 0 when it is kept. The grant is borrowed for the call. */
typedef int (*toolgov_mcp_grant_store_fn)(void *ud, const toolgov_grant *grant);

typedef struct toolgov_mcp_options {
    size_t max_message;      /* 0: TOOLGOV_MCP_MAX_MESSAGE */
    const char *server_name; /* serverInfo.name; NULL: "toolgov-mcp" */
    toolgov_audit_fn audit;  /* when set, every run of the session is audited
                             ** through it (toolgov/audit.h), each under a
                             ** random run id; NULL: no audit trail */
    void *audit_ud;
    /* When set, asked before a plugin's tool is listed or called: non-zero
    ** keeps the tool out of tools/list and refuses its calls (an isError
    ** result with the one sentence written to why[0..n)) before anything
    ** is decoded or gated. The upstream servers' tools use it (upstream.h):
    ** a server that is down, or a tool it no longer offers. */
    int (*tool_unavailable)(void *ud, const char *owner, const char *tool, char *why, size_t n);
    /* When set, the tools capability says listChanged, and after each
    ** message handled (and at toolgov_mcp_server_idle) non-zero from it
    ** sends notifications/tools/list_changed: the served list changed. */
    int (*tools_changed)(void *ud);
    void *tool_ud;
    /* Standing grants (toolgov/grants.h). Every run of the session consults
    ** `grants` (borrowed; NULL: the server keeps a set of its own for the
    ** session). A confirmation or approval question offers to remember the
    ** answer "for this session" (a grant added to that set) and, when
    ** `grant_store` is set, "always" (added to the set and handed to
    ** grant_store to keep). */
    toolgov_grants *grants;
    toolgov_mcp_grant_store_fn grant_store;
    void *grant_store_ud;
} toolgov_mcp_options;

/* Create a server over `reg` and `pol` (borrowed, must outlive it). `opt`
** may be NULL. *out is owned by the caller (toolgov_mcp_server_free).
** TOOLGOV_EINVAL or TOOLGOV_ENOMEM. */
int toolgov_mcp_server_new(toolgov_mcp_server **out, const toolgov_registry *reg,
                           const toolgov_policy *pol, const toolgov_mcp_options *opt,
                           toolgov_mcp_write_fn write, void *write_ud);

void toolgov_mcp_server_free(toolgov_mcp_server *s);

/* Handle one message of `len` bytes (borrowed for the call). Malformed
** JSON, a message that is not JSON-RPC 2.0, an unknown method: each gets
** its JSON-RPC error response, never a failure of this call. Returns 0, or
** TOOLGOV_EFAIL when writing a response failed (the peer is gone) or
** TOOLGOV_ENOMEM when not even an error response could be built. */
int toolgov_mcp_server_handle(toolgov_mcp_server *s, const char *msg, size_t len);

/* Answer a message the transport refused for its size (`len` bytes, more
** than the bound) with the JSON-RPC "invalid request" error. Same returns. */
int toolgov_mcp_server_oversized(toolgov_mcp_server *s, size_t len);

/* Between messages (the transport calls it when its input has been quiet
** for a while): when the tools_changed hook says the list changed, send
** notifications/tools/list_changed. Same returns as handle. */
int toolgov_mcp_server_idle(toolgov_mcp_server *s);

/* The bound on one message, as configured. */
size_t toolgov_mcp_server_max_message(const toolgov_mcp_server *s);

#endif /* TOOLGOV_MCP_SERVER_H */
