/* SPDX-License-Identifier: MIT */
/*
** fuzz_upstream.c: libFuzzer target for toolgov-mcp's reader of an upstream
** MCP server (mcp/upstream_conn.c): the JSON-RPC 2.0 lines a server we did
** not write sends back (responses, its own requests, notifications, late or
** foreign ids, oversized and broken lines).
**
** Each input is everything the server says, fed through a pipe whose other
** end is closed after it (so the reader sees the server's end of output and
** never waits for the clock); what toolgov-mcp writes goes to /dev/null.
** Three requests are made in turn (initialize, tools/list, tools/call, ids
** 1, 2, 3), then what is left is pumped. The bound on one message is 2 KiB,
** so oversized lines come often. Invariants: each request ends in one of its
** documented outcomes; a response's result is an object node of the parsed
** message; every failure says why; after a failure the connection is closed;
** nothing crashes, leaks (the replay runs under valgrind and ASan) or waits.
**
** The same bytes are then read as the SSE body of a Streamable HTTP answer
** (mcp/upstream_http.c's event reader), arriving in pieces of 1 to 97 bytes:
** each message handed on is NUL-terminated and within the bound, and a
** failure says why.
*/
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_check.h"
#include "upstream_conn.h"
#include "upstream_http.h"

#define FUZZ_MAX_MESSAGE 2048

static const char *const methods[3] = {"initialize", "tools/list", "tools/call"};
static const char *const params[3] = {
    "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}", NULL,
    "{\"name\":\"act\",\"arguments\":{}}"};

/* One message of the SSE reader: within the bound, NUL-terminated; the
** answer to id 3 ends the stream as the awaited response would. */
static int on_event(void *ctx, const char *msg, size_t n)
{
    size_t *count = ctx;
    FUZZ_CHECK(n <= FUZZ_MAX_MESSAGE && msg[n] == '\0');
    ++*count;
    return n >= 7 && memcmp(msg, "{\"id\":3", 7) == 0 ? 1 : 0;
}

static void read_as_sse(const uint8_t *data, size_t size)
{
    char err[256];
    size_t count = 0, chunk = 1 + size % 97;
    int rc;
    err[0] = '\0';
    rc = toolgov__uphttp_read_sse((const char *)data, size, chunk, FUZZ_MAX_MESSAGE, on_event,
                                  &count, err, sizeof err);
    FUZZ_CHECK(rc == 0 || rc == -1);
    FUZZ_CHECK(rc == 0 || err[0] != '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    toolgov__upconn c;
    int from[2], sink, k, rc;
    char err[512];
    long res;
    size_t off = 0;

    if (pipe(from) != 0)
        return 0;
    (void)fcntl(from[1], F_SETPIPE_SZ, 1 << 20);
    if (size > (size_t)fcntl(from[1], F_GETPIPE_SZ)) {
        /* More than the pipe holds could not be written before reading. */
        close(from[0]);
        close(from[1]);
        return 0;
    }
    while (off < size) {
        ssize_t w = write(from[1], data + off, size - off);
        FUZZ_CHECK(w > 0);
        off += (size_t)w;
    }
    close(from[1]);
    sink = open("/dev/null", O_WRONLY | O_CLOEXEC);
    FUZZ_CHECK(sink >= 0);
    (void)fcntl(from[0], F_SETFL, fcntl(from[0], F_GETFL) | O_NONBLOCK);

    toolgov__upconn_init(&c, FUZZ_MAX_MESSAGE);
    c.from_fd = from[0];
    c.to_fd = sink;
    for (k = 0; k < 3 && c.from_fd >= 0; k++) {
        memset(err, 'x', sizeof err);
        err[0] = '\0';
        rc = toolgov__upconn_request(&c, methods[k], params[k], 5000, &res, err, sizeof err);
        FUZZ_CHECK(rc == 0 || rc == 1 || rc == -1);
        if (rc == 0) {
            FUZZ_CHECK(res > 0 && (size_t)res < c.doc.count);
            FUZZ_CHECK(c.doc.nodes[res].type == TOOLGOV__JSON_OBJECT);
        } else {
            FUZZ_CHECK(err[0] != '\0' && memchr(err, '\0', sizeof err) != NULL);
        }
        if (rc == -1)
            FUZZ_CHECK(c.from_fd < 0 && c.to_fd < 0);
    }
    if (c.from_fd >= 0) {
        err[0] = '\0';
        rc = toolgov__upconn_pump(&c, err, sizeof err);
        FUZZ_CHECK(rc == 0 || rc == -1);
        FUZZ_CHECK(rc == 0 || (err[0] != '\0' && c.from_fd < 0));
    }
    toolgov__upconn_free(&c);
    read_as_sse(data, size);
    return 0;
}
