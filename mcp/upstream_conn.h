/* SPDX-License-Identifier: MIT */
/*
** upstream_conn.h: one upstream MCP server started as a child over stdio,
** and a blocking JSON-RPC 2.0 client of it with a deadline on every wait.
**
** toolgov-mcp is the server's client: it sends a request, then reads the
** server's messages one line at a time until the response with that id
** arrives or the deadline passes. What the server sends meanwhile is
** handled here and never passed on: `ping` is answered, every other request
** of the server (sampling, elicitation, roots) gets the JSON-RPC error
** "method not found" (toolgov-mcp declares none of those capabilities, and a
** server's own question to the user would bypass the gate),
** notifications/tools/list_changed is remembered for the caller,
** notifications/progress for the token of the request being waited on is
** handed to the caller (any other token is dropped), other notifications
** are dropped, and a response to an id we are not waiting for
** is dropped. Every message is read with the runtime's strict JSON reader
** and bounded in size; a line over the bound, a text that is not JSON-RPC,
** the server's exit or the deadline fails the wait with a sentence that
** says which, and never anything worse.
**
** Writes never block past the deadline either: the pipes are non-blocking
** and a write waits with poll(), reading what the server sends meanwhile, so
** a server that writes while we write cannot deadlock the two.
**
** A server reached by URL instead (Streamable HTTP, upstream_http.h) is
** the same connection to its callers: its messages arrive on HTTP answers
** and on the session's GET stream instead of a pipe, and are handled
** exactly as above; "running" then means a session is open.
**
** Ownership: the connection owns its pipes, child process or HTTP client,
** buffers and the parsed response (valid until the next request on it).
** Not thread-safe.
*/
#ifndef TOOLGOV_MCP_UPSTREAM_CONN_H
#define TOOLGOV_MCP_UPSTREAM_CONN_H

#include <stddef.h>
#include <sys/types.h>

#include "json.h"

/* How to start the server: argv[0] is looked up on PATH as execvp does.
** envp is the child's whole environment ("K=V" strings). cwd NULL: ours.
** url non-NULL instead: the server is reached over Streamable HTTP there,
** with the extra request headers ("Name: value", NULL-ended, or NULL). */
typedef struct toolgov__upconn_spawn {
    const char *const *argv; /* NULL-terminated */
    const char *const *envp; /* NULL-terminated */
    const char *cwd;
    const char *url;
    const char *const *headers;
} toolgov__upconn_spawn;

struct toolgov__uphttp;

typedef struct toolgov__upconn {
    pid_t pid;           /* 0: not running */
    int to_fd, from_fd;  /* our ends of the child's stdin and stdout, or -1 */
    size_t max_message;  /* bound on one message from the server */
    long next_id;        /* our request ids: 1, 2, ... */
    int list_changed;    /* notifications/tools/list_changed seen, not yet taken */
    int exit_status;     /* as waitpid gives it, once reaped (-1 before) */
    char *buf;           /* bytes read, not yet a whole line */
    size_t len, cap;
    int skipping;        /* the rest of an oversized line is being skipped */
    toolgov_allocator alloc;
    toolgov__scratch arena; /* the last message parsed */
    toolgov__jbuf out;      /* the message being written */
    toolgov__json_doc doc;  /* the last response, valid until the next request */
    char *linebuf_;         /* private: the text c->doc was read from */
    /* Set by the caller around a request that carries _meta.progressToken
    ** progress_token: the server's notifications/progress for that token
    ** (and no other) are handed to on_progress with the params node of
    ** c->doc; 0 for none. */
    long progress_token;
    void (*on_progress)(void *ud, const toolgov__json_doc *d, long params);
    void *progress_ud;
    struct toolgov__uphttp *http; /* non-NULL: reached by URL */
    int http_open;          /* reached by URL: a session is open */
} toolgov__upconn;

void toolgov__upconn_init(toolgov__upconn *c, size_t max_message);

/* Start the child. 0, or -1 with a sentence in err (the command could not
** be run: its errno is reported from the child through a close-on-exec
** pipe, so "No such file or directory" is seen at once). */
int toolgov__upconn_start(toolgov__upconn *c, const toolgov__upconn_spawn *sp, char *err,
                          size_t errlen);

/* Send request `method` with `params` (a JSON object text, or NULL) and wait
** at most timeout_ms for its response (also while the server keeps sending
** other messages). 0: c->doc holds the response and
** *result the index of its `result` node. 1: the server answered with a
** JSON-RPC error; its code and message are in err. -1: no answer (the
** deadline, the server's exit, a malformed or oversized message, a write
** that failed), said in err; the connection is then closed and the child
** stopped, since its state is unknown (a request the server may still be
** working on is cancelled first with notifications/cancelled). */
int toolgov__upconn_request(toolgov__upconn *c, const char *method, const char *params,
                            int timeout_ms, long *result, char *err, size_t errlen);

/* Handle what the server sent since the last wait, without waiting: its
** notifications (list_changed is remembered), its requests (answered as
** above) and late responses (dropped); at most 256 messages or a second's
** worth, the rest left for the next pump. 0, or -1 with err set when the
** connection broke or the server sent something malformed (it is then
** stopped). A connection that is not running is 0. */
int toolgov__upconn_pump(toolgov__upconn *c, char *err, size_t errlen);

/* The session is initialized with protocol `version`: over HTTP it is sent
** as MCP-Protocol-Version from now on and the server's own stream is
** opened; over stdio nothing happens. 0. Called before
** notifications/initialized. */
int toolgov__upconn_ready(toolgov__upconn *c, const char *version);

/* Send a notification (no answer). 0, or -1 (the connection is closed). */
int toolgov__upconn_notify(toolgov__upconn *c, const char *method, const char *params);

/* Whether the child is still running (it is reaped when it has exited). */
int toolgov__upconn_alive(toolgov__upconn *c);

/* Close our ends of the pipes, give the child up to grace_ms to exit, then
** SIGTERM, then SIGKILL; reap it (over HTTP: DELETE the session, waiting
** at most grace_ms). The connection may be started again. */
void toolgov__upconn_stop(toolgov__upconn *c, int grace_ms);

/* Stop and free the buffers. */
void toolgov__upconn_free(toolgov__upconn *c);

#endif /* TOOLGOV_MCP_UPSTREAM_CONN_H */
