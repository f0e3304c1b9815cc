/* SPDX-License-Identifier: MIT */
/*
** upstream_conn.c: a child MCP server over stdio and a blocking JSON-RPC
** client of it (see upstream_conn.h).
*/
#define _POSIX_C_SOURCE 200809L
#include "upstream_conn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "upstream_http.h"

extern char **environ;

#define READ_CHUNK 65536
/* The most messages one pump handles before it returns. */
#define PUMP_MAX_MESSAGES 256
#define ERR_METHOD_NOT_FOUND (-32601)

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int remaining(long long deadline)
{
    long long left = deadline - now_ms();
    if (left <= 0)
        return 0;
    return left > 1000000 ? 1000000 : (int)left;
}

void toolgov__upconn_init(toolgov__upconn *c, size_t max_message)
{
    memset(c, 0, sizeof *c);
    c->to_fd = c->from_fd = -1;
    c->max_message = max_message;
    c->next_id = 1;
    c->exit_status = -1;
    /* A zeroed allocator is the C library's (runtime/src/alloc.c). */
    toolgov__scratch_init(&c->arena, &c->alloc);
    toolgov__jbuf_init(&c->out, &c->alloc);
}

static int add_flags(int fd, int fdflags, int flflags)
{
    int f;
    if (fdflags && ((f = fcntl(fd, F_GETFD)) < 0 || fcntl(fd, F_SETFD, f | fdflags) < 0))
        return -1;
    if (flflags && ((f = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, f | flflags) < 0))
        return -1;
    return 0;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* In the child: report the failing step and errno to the parent, leave. */
static void child_fail(int fd, int step)
{
    int msg[2];
    msg[0] = step;
    msg[1] = errno;
    if (write(fd, msg, sizeof msg) < 0) {
        /* nothing more to do: the parent sees the exit status */
    }
    _exit(127);
}

int toolgov__upconn_start(toolgov__upconn *c, const toolgov__upconn_spawn *sp, char *err,
                          size_t errlen)
{
    int in[2] = {-1, -1}, out[2] = {-1, -1}, ep[2] = {-1, -1}, msg[2], i;
    ssize_t got;
    pid_t pid;

    if (sp->url) {
        /* Nothing to start: the session begins with initialize. */
        if (!c->http && !(c->http = toolgov__uphttp_new(sp->url, sp->headers, c->max_message,
                                                         err, errlen)))
            return -1;
        c->http_open = 1;
        c->list_changed = 0;
        return 0;
    }
    if (pipe(in) || pipe(out) || pipe(ep)) {
        snprintf(err, errlen, "cannot make pipes: %s", strerror(errno));
        goto fail;
    }
    for (i = 0; i < 2; i++)
        if (add_flags(in[i], FD_CLOEXEC, 0) || add_flags(out[i], FD_CLOEXEC, 0) ||
            add_flags(ep[i], FD_CLOEXEC, 0)) {
            snprintf(err, errlen, "cannot set up pipes: %s", strerror(errno));
            goto fail;
        }
    pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot start a process: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        /* dup2 leaves the new descriptors open across exec. */
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
            child_fail(ep[1], 0);
        if (sp->cwd && chdir(sp->cwd) != 0)
            child_fail(ep[1], 1);
        signal(SIGPIPE, SIG_DFL);
        environ = (char **)(void *)sp->envp;
        execvp(sp->argv[0], (char *const *)(void *)sp->argv);
        child_fail(ep[1], 2);
    }
    close_fd(&in[0]);
    close_fd(&out[1]);
    close_fd(&ep[1]);
    do
        got = read(ep[0], msg, sizeof msg);
    while (got < 0 && errno == EINTR);
    close_fd(&ep[0]);
    if (got == (ssize_t)sizeof msg) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        if (msg[0] == 1)
            snprintf(err, errlen, "cannot change to the directory '%s': %s", sp->cwd,
                     strerror(msg[1]));
        else
            snprintf(err, errlen, "cannot run '%s': %s", sp->argv[0], strerror(msg[1]));
        goto fail;
    }
    if (add_flags(in[1], 0, O_NONBLOCK) || add_flags(out[0], 0, O_NONBLOCK)) {
        snprintf(err, errlen, "cannot set up pipes: %s", strerror(errno));
        c->pid = pid;
        c->to_fd = in[1];
        c->from_fd = out[0];
        toolgov__upconn_stop(c, 0);
        return -1;
    }
    c->pid = pid;
    c->to_fd = in[1];
    c->from_fd = out[0];
    c->len = 0;
    c->skipping = 0;
    c->list_changed = 0;
    c->exit_status = -1;
    return 0;
fail:
    for (i = 0; i < 2; i++) {
        close_fd(&in[i]);
        close_fd(&out[i]);
        close_fd(&ep[i]);
    }
    return -1;
}

int toolgov__upconn_alive(toolgov__upconn *c)
{
    int status;
    pid_t r;
    if (c->http)
        return c->http_open;
    if (c->pid <= 0)
        return 0;
    r = waitpid(c->pid, &status, WNOHANG);
    if (r == c->pid) {
        c->exit_status = status;
        c->pid = 0;
        return 0;
    }
    return 1;
}

void toolgov__upconn_stop(toolgov__upconn *c, int grace_ms)
{
    long long deadline = now_ms() + grace_ms;
    int status, sig = 0;
    if (c->http && c->http_open)
        toolgov__uphttp_end(c->http, grace_ms);
    c->http_open = 0;
    close_fd(&c->to_fd);
    close_fd(&c->from_fd);
    while (c->pid > 0) {
        pid_t r = waitpid(c->pid, &status, WNOHANG);
        if (r == c->pid || (r < 0 && errno != EINTR)) {
            c->exit_status = r == c->pid ? status : -1;
            c->pid = 0;
            break;
        }
        if (r == 0 && now_ms() >= deadline) {
            /* SIGTERM, then after a moment more SIGKILL. */
            sig = sig == 0 ? SIGTERM : SIGKILL;
            kill(c->pid, sig);
            deadline = now_ms() + (sig == SIGTERM ? 500 : 5000);
        }
        if (r == 0) {
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
        }
    }
    c->len = 0;
    c->skipping = 0;
}

void toolgov__upconn_free(toolgov__upconn *c)
{
    toolgov__upconn_stop(c, 200);
    toolgov__uphttp_free(c->http);
    c->http = NULL;
    free(c->buf);
    c->buf = NULL;
    c->cap = 0;
    free(c->linebuf_);
    c->linebuf_ = NULL;
    toolgov__scratch_free(&c->arena);
    toolgov__jbuf_free(&c->out);
}

/* ---- reading ------------------------------------------------------------ */

/* Read what is there into the buffer (up to a bound). 1 read something, 0
** nothing to read now, -1 end of file or error. */
static int fill(toolgov__upconn *c)
{
    ssize_t got;
    size_t limit = c->max_message + 2 + READ_CHUNK;
    if (c->cap - c->len < READ_CHUNK / 4) {
        size_t ncap = c->cap ? c->cap * 2 : READ_CHUNK;
        char *nb;
        if (ncap > limit)
            ncap = limit;
        if (ncap <= c->cap)
            return 0; /* full: the caller takes lines or starts skipping */
        nb = realloc(c->buf, ncap);
        if (!nb)
            return -1;
        c->buf = nb;
        c->cap = ncap;
    }
    do
        got = read(c->from_fd, c->buf + c->len, c->cap - c->len);
    while (got < 0 && errno == EINTR);
    if (got < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
    if (got == 0)
        return -1;
    c->len += (size_t)got;
    return 1;
}

static void drop(toolgov__upconn *c, size_t n)
{
    memmove(c->buf, c->buf + n, c->len - n);
    c->len -= n;
}

/* A whole line at the front of the buffer: 1 and its length (no newline,
** no CR) in *n; 0 none yet; 2 a line over the bound was skipped whole. */
static int take_line(toolgov__upconn *c, size_t *n, size_t *line_end)
{
    char *nl = c->len ? memchr(c->buf, '\n', c->len) : NULL;
    if (c->skipping) {
        if (!nl) {
            c->len = 0;
            return 0;
        }
        drop(c, (size_t)(nl - c->buf) + 1);
        c->skipping = 0;
        return 2;
    }
    if (!nl) {
        if (c->len > c->max_message + 1) {
            c->skipping = 1;
            c->len = 0;
        }
        return 0;
    }
    *line_end = (size_t)(nl - c->buf) + 1;
    *n = (size_t)(nl - c->buf);
    if (*n && c->buf[*n - 1] == '\r')
        (*n)--;
    if (*n > c->max_message) {
        drop(c, *line_end);
        return 2;
    }
    return 1;
}

/* ---- writing ------------------------------------------------------------ */

/* Write all of p[0..n) before the deadline, reading what the server sends
** meanwhile (up to the buffer's bound). 0, or -1 with err set. */
static int write_all(toolgov__upconn *c, const char *p, size_t n, long long deadline, char *err,
                     size_t errlen)
{
    while (n) {
        ssize_t w;
        struct pollfd pf[2];
        int np = 1, r;
        if (c->to_fd < 0) {
            snprintf(err, errlen, "the server is not running");
            return -1;
        }
        w = write(c->to_fd, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            snprintf(err, errlen, "writing to the server failed: %s", strerror(errno));
            return -1;
        }
        pf[0].fd = c->to_fd;
        pf[0].events = POLLOUT;
        if (c->len + READ_CHUNK < c->max_message * 2) {
            pf[1].fd = c->from_fd;
            pf[1].events = POLLIN;
            np = 2;
        }
        r = poll(pf, (nfds_t)np, remaining(deadline));
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            snprintf(err, errlen, "the server did not read its input in time");
            return -1;
        }
        if (np == 2 && (pf[1].revents & (POLLIN | POLLHUP)) && fill(c) < 0) {
            snprintf(err, errlen, "the server closed its output");
            return -1;
        }
    }
    return 0;
}

static int send_message(toolgov__upconn *c, long long deadline, char *err, size_t errlen)
{
    if (c->http) {
        if (toolgov__jbuf_finish(&c->out)) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (!c->http_open) {
            snprintf(err, errlen, "no session with the server is open");
            return -1;
        }
        return toolgov__uphttp_post(c->http, c->out.ptr, c->out.len, 0, deadline, NULL, NULL,
                                    err, errlen);
    }
    toolgov__jbuf_putc(&c->out, '\n');
    if (toolgov__jbuf_finish(&c->out)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return write_all(c, c->out.ptr, c->out.len, deadline, err, errlen);
}

int toolgov__upconn_notify(toolgov__upconn *c, const char *method, const char *params)
{
    char err[128];
    toolgov__jbuf_clear(&c->out);
    toolgov__jbuf_puts(&c->out, "{\"jsonrpc\":\"2.0\",\"method\":");
    toolgov__json_put_str(&c->out, method, strlen(method));
    if (params) {
        toolgov__jbuf_puts(&c->out, ",\"params\":");
        toolgov__jbuf_puts(&c->out, params);
    }
    toolgov__jbuf_putc(&c->out, '}');
    /* Over HTTP a hung server must not hold a cancellation long. */
    if (send_message(c, now_ms() + (c->http ? 2000 : 5000), err, sizeof err)) {
        toolgov__upconn_stop(c, 0);
        return -1;
    }
    return 0;
}

/* Answer a request of the server's own: ping with {}, anything else with
** "method not found" (nothing is passed on to the user or the model). */
static int answer_server_request(toolgov__upconn *c, const toolgov__json_doc *d, long id,
                                 long method, long long deadline, char *err, size_t errlen)
{
    const toolgov__json *m = &d->nodes[method];
    toolgov__jbuf_clear(&c->out);
    toolgov__jbuf_puts(&c->out, "{\"jsonrpc\":\"2.0\",\"id\":");
    toolgov__json_put_value(&c->out, d, (size_t)id);
    if (toolgov__json_str_eq(m, "ping", 4)) {
        toolgov__jbuf_puts(&c->out, ",\"result\":{}}");
    } else {
        char code[16];
        snprintf(code, sizeof code, "%d", ERR_METHOD_NOT_FOUND);
        toolgov__jbuf_puts(&c->out, ",\"error\":{\"code\":");
        toolgov__jbuf_puts(&c->out, code);
        toolgov__jbuf_puts(&c->out, ",\"message\":\"toolgov-mcp does not pass the server's "
                                    "own requests on (");
        /* The method name as JSON string content, without its quotes. */
        {
            size_t start = c->out.len;
            toolgov__json_put_str(&c->out, m->u.str, m->len);
            if (!c->out.failed && c->out.len >= start + 2) {
                memmove(c->out.ptr + start, c->out.ptr + start + 1, c->out.len - start - 2);
                c->out.len -= 2;
            }
        }
        toolgov__jbuf_puts(&c->out, "): it declares no sampling, elicitation or roots "
                                    "capability\"}}");
    }
    return send_message(c, deadline, err, errlen);
}

/* What one message was. */
enum { MSG_OTHER = 0, MSG_RESPONSE = 1, MSG_ERROR = 2, MSG_BAD = -1 };

/* Read the line buf[0..n): handle what is not the response to `want`.
** MSG_RESPONSE / MSG_ERROR for that response (c->doc kept), MSG_OTHER, or
** MSG_BAD with err set. */
static int one_message(toolgov__upconn *c, const char *line, size_t n, long want,
                       long long deadline, long *result, char *err, size_t errlen)
{
    toolgov__json_error jerr;
    toolgov__json_doc *d = &c->doc;
    long id, method, res, er, ver;
    int rc;

    toolgov__scratch_reset(&c->arena);
    rc = toolgov__json_parse(d, &jerr, &c->arena, line, n, TOOLGOV__JSON_MAX_DEPTH,
                             c->max_message, 0);
    if (rc) {
        snprintf(err, errlen, "the server sent a message that is not JSON (%s at byte %zu)",
                 rc == TOOLGOV_ENOMEM ? "out of memory" : jerr.msg, jerr.pos);
        return MSG_BAD;
    }
    if (d->nodes[0].type != TOOLGOV__JSON_OBJECT) {
        snprintf(err, errlen, "the server sent a message that is not a JSON-RPC object");
        return MSG_BAD;
    }
    ver = toolgov__json_get(d, 0, "jsonrpc", 7);
    if (ver < 0 || !toolgov__json_str_eq(&d->nodes[ver], "2.0", 3)) {
        snprintf(err, errlen, "the server sent a message without \"jsonrpc\": \"2.0\"");
        return MSG_BAD;
    }
    id = toolgov__json_get(d, 0, "id", 2);
    method = toolgov__json_get(d, 0, "method", 6);
    if (method >= 0) {
        if (d->nodes[method].type != TOOLGOV__JSON_STRING) {
            snprintf(err, errlen, "the server sent a message whose method is not a string");
            return MSG_BAD;
        }
        if (id < 0) {
            if (toolgov__json_str_eq(&d->nodes[method], "notifications/tools/list_changed", 32))
                c->list_changed = 1;
            else if (c->on_progress && c->progress_token > 0 && want == c->progress_token &&
                     toolgov__json_str_eq(&d->nodes[method], "notifications/progress", 22)) {
                long params = toolgov__json_get(d, 0, "params", 6);
                long tok = toolgov__json_is(d, params, TOOLGOV__JSON_OBJECT)
                               ? toolgov__json_get(d, (size_t)params, "progressToken", 13) : -1;
                int64_t v;
                if (tok >= 0 && d->nodes[tok].type == TOOLGOV__JSON_NUMBER &&
                    toolgov__json_int64(&d->nodes[tok], &v) == 0 && v == c->progress_token)
                    c->on_progress(c->progress_ud, d, params);
            }
            return MSG_OTHER;
        }
        if (d->nodes[id].type != TOOLGOV__JSON_STRING && d->nodes[id].type != TOOLGOV__JSON_NUMBER) {
            snprintf(err, errlen, "the server sent a request whose id is not a string or number");
            return MSG_BAD;
        }
        return answer_server_request(c, d, id, method, deadline, err, errlen) ? MSG_BAD
                                                                               : MSG_OTHER;
    }
    res = toolgov__json_get(d, 0, "result", 6);
    er = toolgov__json_get(d, 0, "error", 5);
    if ((res < 0) == (er < 0)) {
        snprintf(err, errlen, "the server sent a response with %s",
                 res < 0 ? "neither result nor error" : "both result and error");
        return MSG_BAD;
    }
    {
        int64_t v;
        if (id < 0 || d->nodes[id].type != TOOLGOV__JSON_NUMBER ||
            toolgov__json_int64(&d->nodes[id], &v) != 0 || v != want)
            return MSG_OTHER; /* not ours, or an answer to a request long given up */
    }
    if (res >= 0) {
        if (d->nodes[res].type != TOOLGOV__JSON_OBJECT) {
            snprintf(err, errlen, "the server's result is not an object");
            return MSG_BAD;
        }
        *result = res;
        return MSG_RESPONSE;
    }
    {
        long code = d->nodes[er].type == TOOLGOV__JSON_OBJECT ? toolgov__json_get(d, (size_t)er, "code", 4) : -1;
        long text = d->nodes[er].type == TOOLGOV__JSON_OBJECT ? toolgov__json_get(d, (size_t)er, "message", 7) : -1;
        int64_t cv = 0;
        if (code >= 0 && d->nodes[code].type == TOOLGOV__JSON_NUMBER)
            (void)toolgov__json_int64(&d->nodes[code], &cv);
        snprintf(err, errlen, "the server answered with error %lld: %.300s", (long long)cv,
                 text >= 0 && d->nodes[text].type == TOOLGOV__JSON_STRING ? d->nodes[text].u.str
                                                                        : "(no message)");
    }
    return MSG_ERROR;
}

/* The wait for request `id` passed its deadline: say so, and cancel the
** request on the server. */
static int timed_out(toolgov__upconn *c, long id, int timeout_ms, char *err, size_t errlen)
{
    char params_c[96];
    snprintf(err, errlen, "the server did not answer within %d ms", timeout_ms);
    snprintf(params_c, sizeof params_c,
             "{\"requestId\":%ld,\"reason\":\"timed out in toolgov-mcp\"}", id);
    (void)toolgov__upconn_notify(c, "notifications/cancelled", params_c);
    return -2;
}

/* ---- over Streamable HTTP --------------------------------------------- */

/* A wait for the response to `want` (-1: none) over HTTP. */
typedef struct http_wait {
    toolgov__upconn *c;
    long want;
    long long deadline;
    long *result;
    char *err;
    size_t errlen;
    int outcome;  /* MSG_RESPONSE or MSG_ERROR once it arrived */
    char *line;   /* the response's text, which c->doc points into */
} http_wait;

static int on_http_message(void *ud, const char *msg, size_t n)
{
    http_wait *w = ud;
    long ignored;
    char *line;
    int m;
    if (n == 0)
        return 0;
    if (!(line = malloc(n + 1))) {
        snprintf(w->err, w->errlen, "out of memory");
        return -1;
    }
    memcpy(line, msg, n);
    line[n] = '\0';
    m = one_message(w->c, line, n, w->want, w->deadline, w->result ? w->result : &ignored,
                    w->err, w->errlen);
    if (m == MSG_RESPONSE || m == MSG_ERROR) {
        w->outcome = m;
        free(w->line);
        w->line = line;
        return 1;
    }
    free(line);
    return m == MSG_BAD ? -1 : 0;
}

static int http_request(toolgov__upconn *c, long id, int timeout_ms, long long deadline,
                        long *result, char *err, size_t errlen)
{
    http_wait w;
    int rc;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.want = id;
    w.deadline = deadline;
    w.result = result;
    w.err = err;
    w.errlen = errlen;
    if (toolgov__jbuf_finish(&c->out)) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else {
        rc = toolgov__uphttp_post(c->http, c->out.ptr, c->out.len, 1, deadline, on_http_message,
                                  &w, err, errlen);
    }
    if (rc == 0) {
        free(c->linebuf_);
        c->linebuf_ = w.line;
        return w.outcome == MSG_RESPONSE ? 0 : 1;
    }
    free(w.line);
    if (rc == -2)
        return timed_out(c, id, timeout_ms, err, errlen);
    toolgov__upconn_stop(c, 200);
    return -1;
}

int toolgov__upconn_ready(toolgov__upconn *c, const char *version)
{
    return c->http ? toolgov__uphttp_ready(c->http, version) : 0;
}

int toolgov__upconn_request(toolgov__upconn *c, const char *method, const char *params,
                            int timeout_ms, long *result, char *err, size_t errlen)
{
    long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 1);
    long id = c->next_id++;
    char num[24], *line = NULL;
    size_t line_cap = 0;
    int rc = -1;

    *result = -1;
    if (c->http ? !c->http_open : c->to_fd < 0) {
        snprintf(err, errlen, c->http ? "no session with the server is open"
                                      : "the server is not running");
        return -1;
    }
    snprintf(num, sizeof num, "%ld", id);
    toolgov__jbuf_clear(&c->out);
    toolgov__jbuf_puts(&c->out, "{\"jsonrpc\":\"2.0\",\"id\":");
    toolgov__jbuf_puts(&c->out, num);
    toolgov__jbuf_puts(&c->out, ",\"method\":");
    toolgov__json_put_str(&c->out, method, strlen(method));
    if (params) {
        toolgov__jbuf_puts(&c->out, ",\"params\":");
        toolgov__jbuf_puts(&c->out, params);
    }
    toolgov__jbuf_putc(&c->out, '}');
    if (c->http)
        return http_request(c, id, timeout_ms, deadline, result, err, errlen);
    if (send_message(c, deadline, err, errlen))
        goto closed;
    for (;;) {
        size_t n = 0, end = 0;
        int t = take_line(c, &n, &end), r;
        struct pollfd pf;
        if (t == 2) {
            snprintf(err, errlen, "the server sent a message over %zu bytes", c->max_message);
            goto closed;
        }
        if (t == 1) {
            int m;
            /* A server that keeps talking (notifications in a loop) and
            ** never answers still meets the deadline. */
            if (now_ms() >= deadline) {
                rc = timed_out(c, id, timeout_ms, err, errlen);
                goto done;
            }
            if (n == 0) {
                drop(c, end);
                continue;
            }
            /* The line moves out of the read buffer: the parsed response
            ** points into it (numbers) and outlives the next read. */
            if (n >= line_cap) {
                char *nl = realloc(line, n + 1);
                if (!nl) {
                    snprintf(err, errlen, "out of memory");
                    goto closed;
                }
                line = nl;
                line_cap = n + 1;
            }
            memcpy(line, c->buf, n);
            line[n] = '\0';
            drop(c, end);
            m = one_message(c, line, n, id, deadline, result, err, errlen);
            if (m == MSG_BAD)
                goto closed;
            if (m == MSG_RESPONSE || m == MSG_ERROR) {
                rc = m == MSG_RESPONSE ? 0 : 1;
                goto done;
            }
            continue;
        }
        pf.fd = c->from_fd;
        pf.events = POLLIN;
        r = poll(&pf, 1, remaining(deadline));
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            rc = timed_out(c, id, timeout_ms, err, errlen);
            goto done;
        }
        if (fill(c) < 0) {
            int status;
            /* Take what the server said before it went. */
            if (c->len && memchr(c->buf, '\n', c->len))
                continue;
            /* A server that closed its output is usually exiting: give it a
            ** moment, so the reason said is its exit status. */
            for (int tries = 0; tries < 50 && toolgov__upconn_alive(c); tries++) {
                struct timespec ts = {0, 10000000};
                nanosleep(&ts, NULL);
            }
            status = c->exit_status;
            if (c->pid == 0 && status >= 0 && WIFEXITED(status))
                snprintf(err, errlen, "the server exited with status %d", WEXITSTATUS(status));
            else if (c->pid == 0 && status >= 0 && WIFSIGNALED(status))
                snprintf(err, errlen, "the server was killed by signal %d", WTERMSIG(status));
            else
                snprintf(err, errlen, "the server closed its output");
            goto closed;
        }
    }
closed:
    toolgov__upconn_stop(c, 200);
    rc = -1;
done:
    /* The parsed response points into `line` for its numbers: hand the
    ** line to the connection, which frees it with the next request. */
    if (rc >= 0) {
        free(c->linebuf_);
        c->linebuf_ = line;
    } else {
        free(line);
    }
    return rc;
}

int toolgov__upconn_pump(toolgov__upconn *c, char *err, size_t errlen)
{
    long long deadline = now_ms() + 1000;
    long ignored;
    size_t handled = 0;
    if (c->http) {
        http_wait w;
        if (!c->http_open)
            return 0;
        memset(&w, 0, sizeof w);
        w.c = c;
        w.want = -1;
        w.deadline = deadline;
        w.err = err;
        w.errlen = errlen;
        if (toolgov__uphttp_pump(c->http, on_http_message, &w, err, errlen) == 0)
            return 0;
        free(w.line);
        toolgov__upconn_stop(c, 200);
        return -1;
    }
    for (;;) {
        size_t n = 0, end = 0;
        int t, m, f;
        char *line;
        if (c->from_fd < 0)
            return 0;
        t = take_line(c, &n, &end);
        if (t == 2) {
            snprintf(err, errlen, "the server sent a message over %zu bytes", c->max_message);
            break;
        }
        if (t == 1) {
            if (n == 0) {
                drop(c, end);
                continue;
            }
            if (!(line = malloc(n + 1))) {
                snprintf(err, errlen, "out of memory");
                break;
            }
            memcpy(line, c->buf, n);
            line[n] = '\0';
            drop(c, end);
            /* Our ids are positive: no response is waited for here. */
            m = one_message(c, line, n, -1, deadline, &ignored, err, errlen);
            free(line);
            if (m == MSG_BAD)
                break;
            /* A server that never stops talking is left for the next
            ** look, not followed forever. */
            if (++handled >= PUMP_MAX_MESSAGES || now_ms() >= deadline)
                return 0;
            continue;
        }
        f = fill(c);
        if (f == 0)
            return 0;
        if (f < 0) {
            if (c->len && memchr(c->buf, '\n', c->len))
                continue;
            snprintf(err, errlen, "the server closed its output");
            break;
        }
    }
    toolgov__upconn_stop(c, 200);
    return -1;
}
