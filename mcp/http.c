/* SPDX-License-Identifier: MIT */
/*
** http.c: toolgov-mcp over Streamable HTTP (see http.h).
**
** One poll() loop. A connection reads one request (the header block, then
** Content-Length bytes of body), is answered, and is closed after its answer
** (Connection: close), so no request is ever read past its end. A POST of a
** JSON-RPC request stays open while its response has not been written: the
** session's engine writes every message through session_write, which sends
** a response to the connection that waits for its id and any other message
** (the gate's elicitation/create questions) to the connection being handled,
** or else to the session's oldest open stream, or else to its GET stream.
**
** A GET opens the session's own stream (one per session): it stays open,
** and when the tools served change (the tools_changed hook, asked by this
** loop instead of by each engine, so every session hears of a change and
** not only the first to ask) notifications/tools/list_changed goes out on
** every session's GET stream.
*/
#define _GNU_SOURCE /* getentropy, accept4, memmem, strncasecmp */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "jbuf.h"
#include "json.h"
#include "scratch.h"

#define MAX_SESSIONS 64
#define MAX_CONNS 128
#define HEAD_MAX 16384
#define IDLE_MS (30LL * 60 * 1000)
/* A GET stream whose client reads nothing is closed past this much unsent. */
#define STREAM_OUT_MAX ((size_t)1 << 20)

static const char list_changed[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";

typedef struct session session;

typedef struct conn {
    int fd;
    char *in;
    size_t in_len, in_cap;
    int handled;         /* its request was taken; nothing more is read */
    toolgov__jbuf out;   /* bytes to send */
    size_t out_off;
    int closing;         /* close once out is sent */
    int streaming;       /* SSE headers sent: messages follow as events */
    session *s;          /* the session whose messages it may carry */
    char *wait_id;       /* the id (JSON text) whose response ends it */
    toolgov__jbuf held;  /* messages written before JSON or SSE was chosen */
    size_t held_count;
    int answered;        /* the response to wait_id was written */
    int get_stream;      /* the session's GET stream (s->stream) */
} conn;

typedef struct http http;

struct session {
    char id[33];          /* "" when free */
    toolgov_mcp_server *srv;
    long long used;
    conn *current;        /* the request being handled */
    conn *stream;         /* its GET stream, or NULL */
    int changed;          /* the tools changed while it had no GET stream */
    http *h;
};

struct http {
    int lfd;
    char addr[64];
    session sessions[MAX_SESSIONS];
    conn *conns[MAX_CONNS];
    size_t nconns;
    const toolgov_registry *reg;
    const toolgov_policy *pol;
    const toolgov_mcp_options *opt;
    toolgov_mcp_options engine_opt; /* opt, the list-change hook asked here */
    size_t max_message;
    toolgov_allocator alloc;
    toolgov__scratch arena; /* a message being routed or a body being read */
    FILE *err;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int toolgov_mcp_http_parse(const char *spec, char addr[64], unsigned *port, FILE *err)
{
    const char *colon = strrchr(spec, ':'), *p = colon ? colon + 1 : spec;
    struct in_addr a;
    char *end = NULL;
    unsigned long v;
    size_t al = colon ? (size_t)(colon - spec) : 0;

    snprintf(addr, 64, "127.0.0.1");
    if (colon) {
        if (al == 0 || al >= 64) {
            fprintf(err, "toolgov-mcp: --http %s: the address before ':' is missing or too "
                         "long; give ADDR:PORT, e.g. 127.0.0.1:8080\n", spec);
            return -1;
        }
        memcpy(addr, spec, al);
        addr[al] = '\0';
        if (inet_pton(AF_INET, addr, &a) != 1) {
            fprintf(err, "toolgov-mcp: --http %s: '%s' is not an IPv4 address (such as "
                         "127.0.0.1)\n", spec, addr);
            return -1;
        }
    }
    errno = 0;
    v = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
    if (!end || *end || errno || v > 65535) {
        fprintf(err, "toolgov-mcp: --http %s: the port must be a number from 0 to 65535 (0: any "
                     "free port)\n", spec);
        return -1;
    }
    *port = (unsigned)v;
    return 0;
}

/* ---- answers ------------------------------------------------------------- */

static void put_head(conn *c, const char *status, const char *type, long length, const session *s)
{
    char num[32];
    toolgov__jbuf_puts(&c->out, "HTTP/1.1 ");
    toolgov__jbuf_puts(&c->out, status);
    toolgov__jbuf_puts(&c->out, "\r\nConnection: close\r\nCache-Control: no-cache\r\n");
    if (type) {
        toolgov__jbuf_puts(&c->out, "Content-Type: ");
        toolgov__jbuf_puts(&c->out, type);
        toolgov__jbuf_puts(&c->out, "\r\n");
    }
    if (length >= 0) {
        snprintf(num, sizeof num, "%ld", length);
        toolgov__jbuf_puts(&c->out, "Content-Length: ");
        toolgov__jbuf_puts(&c->out, num);
        toolgov__jbuf_puts(&c->out, "\r\n");
    }
    if (s && s->id[0]) {
        toolgov__jbuf_puts(&c->out, "Mcp-Session-Id: ");
        toolgov__jbuf_puts(&c->out, s->id);
        toolgov__jbuf_puts(&c->out, "\r\n");
    }
}

/* A refusal: an HTTP status and a JSON-RPC error body saying why. */
static void refuse(conn *c, const char *status, int code, const char *why)
{
    toolgov__jbuf body;
    toolgov_allocator alloc = {NULL, NULL};
    char num[16];
    toolgov__jbuf_init(&body, &alloc);
    snprintf(num, sizeof num, "%d", code);
    toolgov__jbuf_puts(&body, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":");
    toolgov__jbuf_puts(&body, num);
    toolgov__jbuf_puts(&body, ",\"message\":");
    toolgov__json_put_str(&body, why, strlen(why));
    toolgov__jbuf_puts(&body, "}}");
    put_head(c, status, "application/json", body.failed ? 0 : (long)body.len, NULL);
    if (strncmp(status, "405", 3) == 0)
        toolgov__jbuf_puts(&c->out, "Allow: GET, POST, DELETE\r\n");
    toolgov__jbuf_puts(&c->out, "\r\n");
    if (!body.failed)
        toolgov__jbuf_put(&c->out, body.ptr, body.len);
    toolgov__jbuf_free(&body);
    c->closing = 1;
}

static void put_event(conn *c, const char *msg, size_t len)
{
    toolgov__jbuf_puts(&c->out, "event: message\ndata: ");
    toolgov__jbuf_put(&c->out, msg, len);
    toolgov__jbuf_puts(&c->out, "\n\n");
}

/* The request is handled: answer with the one message as JSON, or open the
** stream with what was held (and end it when the response is among them). */
static void settle(conn *c)
{
    const char *p = c->held.ptr, *end = p + c->held.len;
    if (c->answered && c->held_count == 1) {
        put_head(c, "200 OK", "application/json", (long)c->held.len - 1, c->s);
        toolgov__jbuf_puts(&c->out, "\r\n");
        toolgov__jbuf_put(&c->out, c->held.ptr, c->held.len - 1);
        c->closing = 1;
        return;
    }
    put_head(c, "200 OK", "text/event-stream", -1, c->s);
    toolgov__jbuf_puts(&c->out, "\r\n");
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        put_event(c, p, (size_t)(nl - p));
        p = nl + 1;
    }
    toolgov__jbuf_clear(&c->held);
    c->streaming = 1;
    c->closing = c->answered;
}

static void deliver(conn *c, const char *msg, size_t len, int is_answer)
{
    if (c->streaming) {
        put_event(c, msg, len);
    } else {
        toolgov__jbuf_put(&c->held, msg, len);
        toolgov__jbuf_putc(&c->held, '\n'); /* messages hold no raw newline */
        c->held_count++;
    }
    if (is_answer) {
        c->answered = 1;
        if (c->streaming)
            c->closing = 1;
    }
}

/* The engine's write function: route one message of session s. */
static int session_write(void *ud, const char *msg, size_t len)
{
    session *s = ud;
    http *h = s->h;
    toolgov__json_doc d;
    toolgov__json_error jerr;
    toolgov__jbuf idt;
    long id, method;
    conn *to = NULL;
    size_t i;
    int answer = 0;

    toolgov__scratch_reset(&h->arena);
    if (toolgov__json_parse(&d, &jerr, &h->arena, msg, len, TOOLGOV__JSON_MAX_DEPTH,
                            TOOLGOV__JSON_MAX_LEN, TOOLGOV__JSON_ALLOW_DUP) != 0 ||
        d.nodes[0].type != TOOLGOV__JSON_OBJECT)
        return 0; /* the engine writes JSON objects only */
    id = toolgov__json_get(&d, 0, "id", 2);
    method = toolgov__json_get(&d, 0, "method", 6);
    toolgov__jbuf_init(&idt, &h->alloc);
    if (id >= 0 && method < 0) {
        toolgov__json_put_value(&idt, &d, (size_t)id);
        if (!toolgov__jbuf_finish(&idt))
            for (i = 0; i < h->nconns && !to; i++)
                if (h->conns[i]->s == s && h->conns[i]->wait_id && !h->conns[i]->answered &&
                    strcmp(h->conns[i]->wait_id, idt.ptr) == 0)
                    to = h->conns[i];
        answer = to != NULL;
    }
    /* Any other message: to the request being handled, or else to the
    ** session's oldest open stream. */
    if (!to && s->current)
        to = s->current;
    for (i = 0; i < h->nconns && !to; i++)
        if (h->conns[i]->s == s && h->conns[i]->wait_id && !h->conns[i]->answered)
            to = h->conns[i];
    if (!to && !answer && s->stream)
        to = s->stream;
    toolgov__jbuf_free(&idt);
    if (to)
        deliver(to, msg, len, answer);
    return 0; /* a message with no stream to carry it is dropped */
}

/* ---- sessions ------------------------------------------------------------ */

static void session_end(http *h, session *s)
{
    size_t i;
    for (i = 0; i < h->nconns; i++)
        if (h->conns[i]->s == s) {
            h->conns[i]->s = NULL;
            h->conns[i]->closing = 1;
        }
    s->stream = NULL;
    toolgov_mcp_server_free(s->srv);
    s->srv = NULL;
    s->id[0] = '\0';
}

static session *session_new(http *h)
{
    static const char digits[] = "0123456789abcdef";
    unsigned char rnd[16];
    session *s = NULL;
    size_t i;
    for (i = 0; i < MAX_SESSIONS && !s; i++)
        if (!h->sessions[i].id[0])
            s = &h->sessions[i];
    if (!s || getentropy(rnd, sizeof rnd) != 0)
        return NULL;
    s->h = h;
    s->current = NULL;
    s->stream = NULL;
    s->changed = 0;
    if (toolgov_mcp_server_new(&s->srv, h->reg, h->pol, h->opt ? &h->engine_opt : NULL,
                               session_write, s) != 0)
        return NULL;
    for (i = 0; i < 16; i++) {
        s->id[2 * i] = digits[rnd[i] >> 4];
        s->id[2 * i + 1] = digits[rnd[i] & 15];
    }
    s->id[32] = '\0';
    return s;
}

static session *session_find(http *h, const char *id, size_t n)
{
    size_t i;
    for (i = 0; i < MAX_SESSIONS; i++)
        if (h->sessions[i].id[0] && n == 32 && memcmp(h->sessions[i].id, id, 32) == 0)
            return &h->sessions[i];
    return NULL;
}

/* ---- requests ------------------------------------------------------------ */

typedef struct request {
    const char *method, *path;
    size_t method_len, path_len;
    const char *origin, *host, *session, *type, *accept;
    size_t origin_len, host_len, session_len, type_len, accept_len;
    long long length; /* -1 when none */
    int chunked;
    const char *body;
} request;

/* A host the server answers to: a loopback name or the address listened on,
** with any port. */
static int host_ok(const http *h, const char *v, size_t n)
{
    static const char *const names[] = {"localhost", "127.0.0.1", "[::1]"};
    size_t i, hl = n;
    if (n && v[0] == '[') {
        const char *rb = memchr(v, ']', n);
        hl = rb ? (size_t)(rb - v) + 1 : n;
    } else {
        const char *colon = memchr(v, ':', n);
        if (colon)
            hl = (size_t)(colon - v);
    }
    if (hl < n && v[hl] != ':')
        return 0;
    for (i = 0; i < 3; i++)
        if (strlen(names[i]) == hl && strncasecmp(v, names[i], hl) == 0)
            return 1;
    return strlen(h->addr) == hl && memcmp(v, h->addr, hl) == 0;
}

static int origin_ok(const http *h, const char *v, size_t n)
{
    if (n >= 7 && strncasecmp(v, "http://", 7) == 0)
        return host_ok(h, v + 7, n - 7);
    if (n >= 8 && strncasecmp(v, "https://", 8) == 0)
        return host_ok(h, v + 8, n - 8);
    return 0;
}

/* Parse the header block in[0..head). 0, or -1 when it is not HTTP/1.x. */
static int parse_head(const char *in, size_t head, request *r)
{
    const char *p = in, *end = in + head, *sp, *nl;
    memset(r, 0, sizeof *r);
    r->length = -1;
    nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl || !(sp = memchr(p, ' ', (size_t)(nl - p))))
        return -1;
    r->method = p;
    r->method_len = (size_t)(sp - p);
    r->path = sp + 1;
    if (!(sp = memchr(r->path, ' ', (size_t)(nl - r->path))))
        return -1;
    r->path_len = (size_t)(sp - r->path);
    if ((size_t)(nl - sp) < 9 || strncmp(sp + 1, "HTTP/1.", 7) != 0)
        return -1;
    for (p = nl + 1; p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL; p = nl + 1) {
        const char *colon = memchr(p, ':', (size_t)(nl - p)), *v, *ve = nl;
        size_t kl;
        if (!colon)
            continue;
        kl = (size_t)(colon - p);
        v = colon + 1;
        while (v < ve && (*v == ' ' || *v == '\t'))
            v++;
        while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
            ve--;
#define HDR(name, field)                                                                      \
    if (kl == sizeof(name) - 1 && strncasecmp(p, (name), kl) == 0) {                         \
        r->field = v;                                                                         \
        r->field##_len = (size_t)(ve - v);                                                    \
    }
        HDR("origin", origin)
        HDR("host", host)
        HDR("mcp-session-id", session)
        HDR("content-type", type)
        HDR("accept", accept)
#undef HDR
        if (kl == 14 && strncasecmp(p, "content-length", kl) == 0) {
            size_t vl = (size_t)(ve - v), i;
            r->length = vl && vl < 16 ? 0 : -2;
            for (i = 0; r->length >= 0 && i < vl; i++)
                r->length = v[i] >= '0' && v[i] <= '9' ? r->length * 10 + (v[i] - '0') : -2;
        }
        if (kl == 17 && strncasecmp(p, "transfer-encoding", kl) == 0)
            r->chunked = 1;
    }
    return 0;
}

/* A whole POST: one JSON-RPC message for a session. */
static void post(http *h, conn *c, const request *r)
{
    toolgov__json_doc d;
    toolgov__json_error jerr;
    session *s;
    long id, method;
    size_t len = (size_t)r->length;
    int is_init, rc;

    if (!r->type || r->type_len < 16 || strncasecmp(r->type, "application/json", 16) != 0) {
        refuse(c, "415 Unsupported Media Type", -32600,
               "a POST carries one JSON-RPC message as Content-Type: application/json");
        return;
    }
    toolgov__scratch_reset(&h->arena);
    if (toolgov__json_parse(&d, &jerr, &h->arena, r->body, len, TOOLGOV__JSON_MAX_DEPTH,
                            h->max_message, TOOLGOV__JSON_ALLOW_DUP) != 0) {
        refuse(c, "400 Bad Request", -32700, "parse error: the body is not JSON");
        return;
    }
    if (d.nodes[0].type != TOOLGOV__JSON_OBJECT) {
        refuse(c, "400 Bad Request", -32600,
               "invalid request: one JSON-RPC message per POST (batches are not accepted)");
        return;
    }
    id = toolgov__json_get(&d, 0, "id", 2);
    method = toolgov__json_get(&d, 0, "method", 6);
    if (id >= 0 && d.nodes[id].type != TOOLGOV__JSON_STRING &&
        d.nodes[id].type != TOOLGOV__JSON_NUMBER) {
        refuse(c, "400 Bad Request", -32600, "invalid request: id must be a string or an integer");
        return;
    }
    is_init = method >= 0 && toolgov__json_str_eq(&d.nodes[method], "initialize", 10);
    if (!r->session) {
        if (!is_init || id < 0) {
            refuse(c, "400 Bad Request", -32600,
                   "no Mcp-Session-Id: start a session with initialize, then send the id it "
                   "gives with every request");
            return;
        }
        if (!(s = session_new(h))) {
            refuse(c, "503 Service Unavailable", -32603,
                   "no session can be started now (64 are open); end one with DELETE, or "
                   "retry later");
            return;
        }
    } else if (!(s = session_find(h, r->session, r->session_len))) {
        refuse(c, "404 Not Found", -32600,
               "the Mcp-Session-Id names no session (it ended, or was never given): start "
               "another with initialize");
        return;
    } else if (is_init) {
        refuse(c, "400 Bad Request", -32600, "the session is already initialized");
        return;
    }
    s->used = now_ms();
    c->s = s;
    if (method >= 0 && id >= 0) {
        toolgov__jbuf idt;
        toolgov__jbuf_init(&idt, &h->alloc);
        toolgov__json_put_value(&idt, &d, (size_t)id);
        if (toolgov__jbuf_finish(&idt) || !(c->wait_id = strdup(idt.ptr))) {
            toolgov__jbuf_free(&idt);
            refuse(c, "500 Internal Server Error", -32603, "out of memory");
            return;
        }
        toolgov__jbuf_free(&idt);
        s->current = c;
        /* A change it has not heard of (it has no GET stream): first. */
        if (s->changed) {
            s->changed = 0;
            deliver(c, list_changed, sizeof list_changed - 1, 0);
        }
    }
    rc = toolgov_mcp_server_handle(s->srv, r->body, len);
    s->current = NULL;
    if (rc != 0) {
        toolgov__jbuf_clear(&c->out);
        refuse(c, "500 Internal Server Error", -32603, toolgov_strerror(rc));
        return;
    }
    if (c->wait_id) {
        settle(c);
    } else {
        put_head(c, "202 Accepted", NULL, 0, s);
        toolgov__jbuf_puts(&c->out, "\r\n");
        c->closing = 1;
    }
}

/* A GET: the session's own stream, kept open for what the server says
** unasked (notifications/tools/list_changed). */
static void get_stream(conn *c, session *s, const request *r)
{
    if (!r->accept || !memmem(r->accept, r->accept_len, "text/event-stream", 17)) {
        refuse(c, "406 Not Acceptable", -32600,
               "a GET opens the session's event stream: send Accept: text/event-stream");
        return;
    }
    if (s->stream) {
        refuse(c, "409 Conflict", -32600,
               "the session has its stream already (one GET stream per session)");
        return;
    }
    put_head(c, "200 OK", "text/event-stream", -1, s);
    toolgov__jbuf_puts(&c->out, "\r\n");
    c->s = s;
    c->streaming = 1;
    c->get_stream = 1;
    s->stream = c;
    s->used = now_ms();
}

static void handle(http *h, conn *c, size_t head)
{
    request r;
    session *s;
    if (parse_head(c->in, head, &r) != 0) {
        refuse(c, "400 Bad Request", -32600, "not an HTTP/1.1 request");
        return;
    }
    r.body = c->in + head;
    if (r.path_len < 4 || memcmp(r.path, "/mcp", 4) != 0 ||
        (r.path_len > 4 && r.path[4] != '?')) {
        refuse(c, "404 Not Found", -32600, "the MCP endpoint is /mcp");
        return;
    }
    /* DNS rebinding: a page of another site reaching the loopback address
    ** says so in its Origin (and in Host, by the name it used). */
    if ((r.origin && !origin_ok(h, r.origin, r.origin_len)) ||
        (r.host && !host_ok(h, r.host, r.host_len))) {
        refuse(c, "403 Forbidden", -32600,
               "the request's Origin or Host is not this local server (DNS rebinding is "
               "refused)");
        return;
    }
    if (r.method_len == 4 && memcmp(r.method, "POST", 4) == 0) {
        post(h, c, &r);
    } else if (r.method_len == 3 && memcmp(r.method, "GET", 3) == 0) {
        if (!r.session) {
            refuse(c, "400 Bad Request", -32600,
                   "no Mcp-Session-Id: a GET opens the stream of a session; start one with "
                   "initialize (POST)");
            return;
        }
        if (!(s = session_find(h, r.session, r.session_len))) {
            refuse(c, "404 Not Found", -32600, "the Mcp-Session-Id names no session");
            return;
        }
        get_stream(c, s, &r);
    } else if (r.method_len == 6 && memcmp(r.method, "DELETE", 6) == 0) {
        if (!r.session || !(s = session_find(h, r.session, r.session_len))) {
            refuse(c, "404 Not Found", -32600, "the Mcp-Session-Id names no session");
            return;
        }
        session_end(h, s);
        put_head(c, "200 OK", NULL, 0, NULL);
        toolgov__jbuf_puts(&c->out, "\r\n");
        c->closing = 1;
    } else {
        refuse(c, "405 Method Not Allowed", -32600,
               "POST a JSON-RPC message, GET the session's stream, or DELETE the session");
    }
}

/* Read what is there; handle the request once it is whole. -1: close. */
static int on_readable(http *h, conn *c)
{
    char *head_end;
    size_t head;
    request r;
    ssize_t got;
    if (c->in_len == c->in_cap) {
        size_t limit = HEAD_MAX + h->max_message + 1, ncap = c->in_cap ? c->in_cap * 2 : 4096;
        char *nb;
        if (ncap > limit)
            ncap = limit;
        if (ncap <= c->in_cap)
            return -1;
        if (!(nb = realloc(c->in, ncap)))
            return -1;
        c->in = nb;
        c->in_cap = ncap;
    }
    got = read(c->fd, c->in + c->in_len, c->in_cap - c->in_len);
    if (got < 0)
        return errno == EAGAIN || errno == EINTR ? 0 : -1;
    if (got == 0)
        return -1;
    c->in_len += (size_t)got;
    head_end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
    if (!head_end) {
        if (c->in_len > HEAD_MAX) {
            c->handled = 1;
            refuse(c, "431 Request Header Fields Too Large", -32600,
                   "the request's header block is over 16 KiB");
        }
        return 0;
    }
    head = (size_t)(head_end - c->in) + 4;
    if (parse_head(c->in, head, &r) != 0 || r.chunked || r.length == -2 ||
        (r.length < 0 && r.method_len == 4 && memcmp(r.method, "POST", 4) == 0)) {
        c->handled = 1;
        refuse(c, r.chunked ? "411 Length Required" : "400 Bad Request", -32600,
               "a POST needs Content-Length (chunked bodies are not read)");
        return 0;
    }
    if (r.length > (long long)h->max_message) {
        char why[160];
        c->handled = 1;
        snprintf(why, sizeof why, "the body is %lld bytes; the limit is %zu (--max-message)",
                 r.length, h->max_message);
        refuse(c, "413 Content Too Large", -32600, why);
        return 0;
    }
    if (c->in_len < head + (size_t)(r.length > 0 ? r.length : 0))
        return 0;
    c->handled = 1;
    handle(h, c, head);
    return 0;
}

/* ---- the loop ------------------------------------------------------------ */

static void conn_free(http *h, size_t i)
{
    conn *c = h->conns[i];
    if (c->get_stream && c->s && c->s->stream == c)
        c->s->stream = NULL;
    close(c->fd);
    free(c->in);
    free(c->wait_id);
    toolgov__jbuf_free(&c->out);
    toolgov__jbuf_free(&c->held);
    free(c);
    h->conns[i] = h->conns[--h->nconns];
}

static void accept_one(http *h)
{
    int fd = accept4(h->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    conn *c;
    if (fd < 0)
        return;
    if (h->nconns == MAX_CONNS || !(c = calloc(1, sizeof *c))) {
        close(fd);
        return;
    }
    c->fd = fd;
    toolgov__jbuf_init(&c->out, &h->alloc);
    toolgov__jbuf_init(&c->held, &h->alloc);
    h->conns[h->nconns++] = c;
}

/* A GET stream's client spoke: nothing is read from it but its end. -1:
** it closed. */
static int stream_readable(conn *c)
{
    char sink[512];
    ssize_t got = read(c->fd, sink, sizeof sink);
    if (got < 0)
        return errno == EAGAIN || errno == EINTR ? 0 : -1;
    return got == 0 ? -1 : 0;
}

/* Ask the tools_changed hook (for every session at once) and tell every
** session with a GET stream that the list changed. */
static void broadcast_changes(http *h)
{
    size_t i;
    if (!h->opt || !h->opt->tools_changed || !h->opt->tools_changed(h->opt->tool_ud))
        return;
    for (i = 0; i < MAX_SESSIONS; i++) {
        conn *c = h->sessions[i].id[0] ? h->sessions[i].stream : NULL;
        if (!h->sessions[i].id[0])
            continue;
        if (!c)
            h->sessions[i].changed = 1; /* said with its next request's answer */
        else if (c->out.len > STREAM_OUT_MAX)
            c->closing = 1; /* it reads nothing: let it go */
        else
            put_event(c, list_changed, sizeof list_changed - 1);
    }
}

/* The engines' hook: never (this loop asks the real one, for them all). */
static int changes_asked_by_loop(void *ud)
{
    (void)ud;
    return 0;
}

/* Send what is waiting. -1: the connection is done (sent and closing, or
** broken). */
static int flush(conn *c)
{
    while (c->out_off < c->out.len) {
        ssize_t w = write(c->fd, c->out.ptr + c->out_off, c->out.len - c->out_off);
        if (w < 0)
            return errno == EAGAIN || errno == EINTR ? 0 : -1;
        c->out_off += (size_t)w;
    }
    toolgov__jbuf_clear(&c->out);
    c->out_off = 0;
    return c->closing ? -1 : 0;
}

static int listen_on(http *h, unsigned port)
{
    struct sockaddr_in sa;
    socklen_t sl = sizeof sa;
    int one = 1;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)port);
    if (inet_pton(AF_INET, h->addr, &sa.sin_addr) != 1)
        return -1;
    h->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (h->lfd < 0)
        return -1;
    (void)setsockopt(h->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(h->lfd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(h->lfd, 64) != 0 ||
        getsockname(h->lfd, (struct sockaddr *)&sa, &sl) != 0)
        return -1;
    fprintf(h->err, "toolgov-mcp: serving MCP over Streamable HTTP at http://%s:%u/mcp\n",
            h->addr, (unsigned)ntohs(sa.sin_port));
    fflush(h->err);
    return 0;
}

int toolgov_mcp_http_serve(const char *addr, unsigned port, const toolgov_registry *reg,
                           const toolgov_policy *pol, const toolgov_mcp_options *opt, FILE *err)
{
    http *h = calloc(1, sizeof *h);
    struct pollfd *pf = calloc(MAX_CONNS + 1, sizeof *pf);
    struct sigaction sa;
    size_t i;
    int rc = 0;

    if (!h || !pf) {
        free(h);
        free(pf);
        fputs("toolgov-mcp: out of memory\n", err);
        return -1;
    }
    snprintf(h->addr, sizeof h->addr, "%s", addr);
    h->reg = reg;
    h->pol = pol;
    h->opt = opt;
    if (opt)
        h->engine_opt = *opt;
    /* Still set (the engines say listChanged), but asked here. */
    if (opt && opt->tools_changed)
        h->engine_opt.tools_changed = changes_asked_by_loop;
    h->err = err;
    h->max_message = opt && opt->max_message ? opt->max_message : TOOLGOV_MCP_MAX_MESSAGE;
    toolgov__scratch_init(&h->arena, &h->alloc);
    if (listen_on(h, port) != 0) {
        fprintf(err, "toolgov-mcp: --http %s:%u: cannot listen there: %s\n", addr, port,
                strerror(errno));
        if (h->lfd > 0)
            close(h->lfd);
        toolgov__scratch_free(&h->arena);
        free(h);
        free(pf);
        return -1;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    while (!stop_signal) {
        long long now = now_ms();
        int n;
        pf[0].fd = h->lfd;
        pf[0].events = POLLIN;
        for (i = 0; i < h->nconns; i++) {
            conn *c = h->conns[i];
            pf[i + 1].fd = c->fd;
            pf[i + 1].events = (short)((c->handled && !c->get_stream ? 0 : POLLIN) |
                                       (c->out.len ? POLLOUT : 0));
            pf[i + 1].revents = 0;
        }
        n = poll(pf, h->nconns + 1, 1000);
        if (n < 0 && errno != EINTR)
            break;
        /* Connections, from the last, so one freed moves no unvisited one. */
        for (i = h->nconns; n > 0 && i-- > 0;) {
            conn *c = h->conns[i];
            short ev = pf[i + 1].revents;
            int done = 0;
            if (ev & POLLIN)
                done = (c->get_stream ? stream_readable(c) : on_readable(h, c)) != 0;
            else if (ev & (POLLHUP | POLLERR))
                done = 1;
            if (!done && c->out.len)
                done = flush(c) != 0;
            if (done)
                conn_free(h, i);
        }
        broadcast_changes(h);
        /* Answers written while another connection was handled, the
        ** streams' notifications, and the streams of ended sessions. */
        for (i = h->nconns; i-- > 0;)
            if ((h->conns[i]->out.len || h->conns[i]->closing) && flush(h->conns[i]) != 0)
                conn_free(h, i);
        if (n > 0 && (pf[0].revents & POLLIN))
            accept_one(h);
        for (i = 0; i < MAX_SESSIONS; i++) {
            session *s = &h->sessions[i];
            size_t k, open = 0;
            if (!s->id[0])
                continue;
            for (k = 0; k < h->nconns; k++)
                open += h->conns[k]->s == s;
            if (!open && now - s->used > IDLE_MS)
                session_end(h, s);
        }
    }
    for (i = 0; i < MAX_SESSIONS; i++)
        if (h->sessions[i].id[0])
            session_end(h, &h->sessions[i]);
    while (h->nconns)
        conn_free(h, h->nconns - 1);
    close(h->lfd);
    toolgov__scratch_free(&h->arena);
    free(h);
    free(pf);
    fprintf(err, "toolgov-mcp: stopped by signal %d\n", (int)stop_signal);
    return rc;
}
