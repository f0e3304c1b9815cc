/* SPDX-License-Identifier: MIT */
/*
** upstream_http.c: the Streamable HTTP client of an upstream MCP server
** (see upstream_http.h). Two transfers live in one curl multi handle: the
** POST of the request being answered and the session's GET stream; a third
** handle sends what needs no answer (our notifications, our answers to the
** server's requests, DELETE) and is run to its end at once.
*/
#define _POSIX_C_SOURCE 200809L
#include "upstream_http.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Room past max_message for the lines around one message. */
#define SLACK 65536
/* The body of a refusal kept to be quoted (in part) in the message. */
#define ERROR_BODY_MAX 4096
/* The most messages one pump of the GET stream hands on. */
#define PUMP_MAX_MESSAGES 256
/* A GET stream that ended is opened again after this long; one the server
** refused (or that never opened) after twice as long each time, to a minute. */
#define GET_RETRY_MS 2000
#define GET_RETRY_MAX_MS 60000
/* A session id longer than this is refused. */
#define SESSION_MAX 256

enum { KIND_NONE = 0, KIND_JSON, KIND_SSE, KIND_OTHER };

typedef struct stream {
    CURL *e;
    struct toolgov__uphttp *h;
    char *raw;            /* bytes received, not yet taken */
    size_t len, cap;
    char *data;           /* the SSE event being read */
    size_t dlen, dcap;
    int kind;             /* KIND_*, decided at the first byte of the body */
    int paused;           /* the write callback paused the transfer */
    int running;          /* in the multi handle */
    int done;             /* the transfer ended (result holds how) */
    int event_other;      /* the current event's type is not "message" */
    int bad_session;      /* the server's Mcp-Session-Id is not usable */
    CURLcode result;
    long status;
    char ctype[64];
    char session[SESSION_MAX + 1]; /* Mcp-Session-Id of the response, or "" */
    char errbuf[CURL_ERROR_SIZE];
    struct curl_slist *hdrs;
} stream;

struct toolgov__uphttp {
    char *url;
    char **extra;         /* the entry's headers, NULL-ended */
    size_t max_message;
    CURLM *multi;
    stream post, get;
    CURL *aux;
    char session[SESSION_MAX + 1]; /* "" before initialize answered */
    char version[32];
    int ready;            /* initialized: the GET stream is wanted */
    int get_refused;      /* the server offers none (405) */
    long long get_at;     /* when to open it (again) */
    int get_wait;         /* the last wait before opening it again */
};

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int reserve(char **p, size_t *cap, size_t need)
{
    char *np;
    size_t ncap;
    if (need <= *cap)
        return 0;
    ncap = *cap ? *cap : 4096;
    while (ncap < need)
        ncap *= 2;
    if (!(np = realloc(*p, ncap)))
        return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

/* ---- curl callbacks ----------------------------------------------------- */

static size_t on_header(char *p, size_t sz, size_t nm, void *ud)
{
    stream *s = ud;
    size_t n = sz * nm, i, k = sizeof "mcp-session-id:" - 1;
    if (n > k && strncasecmp(p, "mcp-session-id:", k) == 0) {
        const char *v = p + k, *end = p + n;
        while (v < end && (*v == ' ' || *v == '\t'))
            v++;
        while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' ||
                           end[-1] == '\t'))
            end--;
        s->bad_session = end == v || (size_t)(end - v) > SESSION_MAX;
        for (i = 0; !s->bad_session && v + i < end; i++)
            s->bad_session = v[i] < 0x21 || v[i] > 0x7e;
        if (!s->bad_session) {
            memcpy(s->session, v, (size_t)(end - v));
            s->session[end - v] = '\0';
        }
    }
    return n;
}

/* The kind of body, from the status and the content type. */
static void decide(stream *s)
{
    char *ct = NULL;
    curl_easy_getinfo(s->e, CURLINFO_RESPONSE_CODE, &s->status);
    curl_easy_getinfo(s->e, CURLINFO_CONTENT_TYPE, &ct);
    snprintf(s->ctype, sizeof s->ctype, "%s", ct ? ct : "");
    s->kind = KIND_OTHER; /* a refusal, or a type that is neither */
    if (s->status == 200 && ct && strncasecmp(ct, "text/event-stream", 17) == 0)
        s->kind = KIND_SSE;
    else if (s->status == 200 && ct && strncasecmp(ct, "application/json", 16) == 0)
        s->kind = KIND_JSON;
}

static size_t on_body(char *p, size_t sz, size_t nm, void *ud)
{
    stream *s = ud;
    size_t n = sz * nm;
    if (s->kind == KIND_NONE)
        decide(s);
    if (s->kind == KIND_OTHER) {
        /* Kept only to be quoted; the rest is read and dropped. */
        if (s->len < ERROR_BODY_MAX) {
            size_t take = n < ERROR_BODY_MAX - s->len ? n : ERROR_BODY_MAX - s->len;
            if (reserve(&s->raw, &s->cap, s->len + take + 1))
                return 0;
            memcpy(s->raw + s->len, p, take);
            s->len += take;
        }
        return n;
    }
    /* Bounded: past a message and its slack the transfer waits until the
    ** loop has taken what is there (an oversized message is seen then). */
    if (s->len + n > s->h->max_message + SLACK && s->len > 0) {
        s->paused = 1;
        return CURL_WRITEFUNC_PAUSE;
    }
    if (reserve(&s->raw, &s->cap, s->len + n + 1))
        return 0;
    memcpy(s->raw + s->len, p, n);
    s->len += n;
    return n;
}

static size_t on_discard(char *p, size_t sz, size_t nm, void *ud)
{
    (void)p;
    (void)ud;
    return sz * nm;
}

/* ---- set up ------------------------------------------------------------- */

static void common_opts(toolgov__uphttp *h, CURL *e, char *errbuf)
{
    curl_easy_setopt(e, CURLOPT_URL, h->url);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    curl_easy_setopt(e, CURLOPT_USERAGENT, "toolgov-mcp");
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
}

/* The request headers: ours, the session's, then the entry's. */
static struct curl_slist *headers(const toolgov__uphttp *h, int post)
{
    struct curl_slist *l = NULL, *t;
    char line[SESSION_MAX + 64];
    size_t i;
#define ADD(text)                                                                                  \
    do {                                                                                           \
        if (!(t = curl_slist_append(l, (text))))                                                   \
            goto oom;                                                                              \
        l = t;                                                                                     \
    } while (0)
    if (post) {
        ADD("Content-Type: application/json");
        ADD("Accept: application/json, text/event-stream");
        ADD("Expect:");
    } else {
        ADD("Accept: text/event-stream");
    }
    if (h->session[0]) {
        snprintf(line, sizeof line, "Mcp-Session-Id: %s", h->session);
        ADD(line);
    }
    if (h->version[0]) {
        snprintf(line, sizeof line, "MCP-Protocol-Version: %s", h->version);
        ADD(line);
    }
    for (i = 0; h->extra && h->extra[i]; i++)
        ADD(h->extra[i]);
#undef ADD
    return l;
oom:
    curl_slist_free_all(l);
    return NULL;
}

static void stream_reset(stream *s)
{
    s->len = 0;
    s->dlen = 0;
    s->kind = KIND_NONE;
    s->paused = s->done = s->event_other = s->bad_session = 0;
    s->result = CURLE_OK;
    s->status = 0;
    s->ctype[0] = s->session[0] = s->errbuf[0] = '\0';
    curl_slist_free_all(s->hdrs);
    s->hdrs = NULL;
}

static void stream_stop(toolgov__uphttp *h, stream *s)
{
    if (s->running)
        curl_multi_remove_handle(h->multi, s->e);
    s->running = 0;
}

static int stream_init(toolgov__uphttp *h, stream *s)
{
    memset(s, 0, sizeof *s);
    s->h = h;
    if (!(s->e = curl_easy_init()))
        return -1;
    common_opts(h, s->e, s->errbuf);
    curl_easy_setopt(s->e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(s->e, CURLOPT_HEADERDATA, s);
    curl_easy_setopt(s->e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(s->e, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(s->e, CURLOPT_PRIVATE, s);
    return 0;
}

static void stream_free(toolgov__uphttp *h, stream *s)
{
    stream_stop(h, s);
    if (s->e)
        curl_easy_cleanup(s->e);
    curl_slist_free_all(s->hdrs);
    free(s->raw);
    free(s->data);
}

toolgov__uphttp *toolgov__uphttp_new(const char *url, const char *const *hdrs, size_t max_message,
                                     char *err, size_t errlen)
{
    toolgov__uphttp *h = calloc(1, sizeof *h);
    size_t i, n = 0;
    if (!h)
        goto oom;
    h->max_message = max_message;
    while (hdrs && hdrs[n])
        n++;
    if (!(h->url = strdup(url)) || !(h->extra = calloc(n + 1, sizeof *h->extra)))
        goto oom;
    for (i = 0; i < n; i++)
        if (!(h->extra[i] = strdup(hdrs[i])))
            goto oom;
    if (!(h->multi = curl_multi_init()) || stream_init(h, &h->post) || stream_init(h, &h->get) ||
        !(h->aux = curl_easy_init())) {
        snprintf(err, errlen, "libcurl could not be set up");
        toolgov__uphttp_free(h);
        return NULL;
    }
    curl_easy_setopt(h->get.e, CURLOPT_HTTPGET, 1L);
    return h;
oom:
    snprintf(err, errlen, "out of memory");
    toolgov__uphttp_free(h);
    return NULL;
}

/* ---- reading messages --------------------------------------------------- */

static int too_big(const toolgov__uphttp *h, char *err, size_t errlen)
{
    snprintf(err, errlen, "the server sent a message over %zu bytes", h->max_message);
    return -1;
}

/* Hand the event's data to fn. */
static int deliver(stream *s, toolgov__uphttp_fn fn, void *ctx, int *found)
{
    int r;
    s->data[s->dlen] = '\0';
    r = fn(ctx, s->data, s->dlen);
    s->dlen = 0;
    if (r == 1)
        *found = 1;
    return r < 0 ? -1 : 0;
}

/* Take the whole lines of an SSE body: dispatch each event's data to fn,
** at most *budget of them. 0, or -1 with err set (fn's -1: fn said why). */
static int drain_sse(stream *s, toolgov__uphttp_fn fn, void *ctx, int *found, size_t *budget,
                     char *err, size_t errlen)
{
    size_t off = 0, max = s->h->max_message;
    int rc = 0;
    while (!*found && *budget > 0) {
        char *line = s->raw + off, *nl = s->len > off ? memchr(line, '\n', s->len - off) : NULL;
        size_t n, vl;
        const char *v;
        if (!nl) {
            if (s->len - off > max + 64)
                rc = too_big(s->h, err, errlen);
            break;
        }
        n = (size_t)(nl - line);
        off += n + 1;
        if (n && line[n - 1] == '\r')
            n--;
        if (n == 0) {
            if (s->dlen && !s->event_other) {
                --*budget;
                if ((rc = deliver(s, fn, ctx, found)) != 0)
                    break;
            }
            s->dlen = 0;
            s->event_other = 0;
            continue;
        }
        if (line[0] == ':')
            continue;
        v = memchr(line, ':', n);
        vl = v ? n - (size_t)(v - line) - 1 : 0;
        if (v && (v++, vl) && *v == ' ') {
            v++;
            vl--;
        }
        if (n >= 4 && memcmp(line, "data", 4) == 0 && (n == 4 || line[4] == ':')) {
            size_t need = s->dlen + (s->dlen ? 1 : 0) + vl;
            if (need > max) {
                rc = too_big(s->h, err, errlen);
                break;
            }
            if (reserve(&s->data, &s->dcap, need + 1)) {
                snprintf(err, errlen, "out of memory");
                rc = -1;
                break;
            }
            if (s->dlen)
                s->data[s->dlen++] = '\n';
            if (vl)
                memcpy(s->data + s->dlen, v, vl);
            s->dlen += vl;
        } else if (n >= 5 && memcmp(line, "event", 5) == 0 && (n == 5 || line[5] == ':')) {
            s->event_other = !(vl == 7 && memcmp(v, "message", 7) == 0);
        }
        /* id, retry and unknown fields: nothing to do (no resumption). */
    }
    memmove(s->raw, s->raw + off, s->len - off);
    s->len -= off;
    return rc;
}

/* Take what a stream holds: events of an SSE body, or a JSON body once it
** is whole. */
static int drain(stream *s, toolgov__uphttp_fn fn, void *ctx, int *found, size_t *budget,
                 char *err, size_t errlen)
{
    int rc = 0;
    if (s->kind == KIND_SSE) {
        rc = drain_sse(s, fn, ctx, found, budget, err, errlen);
    } else if (s->kind == KIND_JSON) {
        if (s->len > s->h->max_message)
            return too_big(s->h, err, errlen);
        if (s->done && s->result == CURLE_OK && s->len) {
            int r;
            s->raw[s->len] = '\0';
            r = fn(ctx, s->raw, s->len);
            s->len = 0;
            if (r < 0)
                return -1;
            *found |= r == 1;
        }
    }
    if (rc == 0 && s->paused && s->len + 16384 <= s->h->max_message + SLACK) {
        s->paused = 0;
        curl_easy_pause(s->e, CURLPAUSE_CONT);
    }
    return rc;
}

int toolgov__uphttp_read_sse(const char *body, size_t n, size_t chunk, size_t max_message,
                             toolgov__uphttp_fn fn, void *ctx, char *err, size_t errlen)
{
    toolgov__uphttp h;
    stream s;
    size_t off = 0;
    int rc = 0, found = 0;
    memset(&h, 0, sizeof h);
    memset(&s, 0, sizeof s);
    h.max_message = max_message;
    s.h = &h;
    s.kind = KIND_SSE;
    while (rc == 0 && !found && off < n) {
        size_t piece = n - off < chunk ? n - off : chunk, budget = (size_t)-1;
        /* As on_body: past the bound, the bytes wait for the reader. */
        if (s.len + piece > max_message + SLACK && s.len > 0) {
            rc = drain_sse(&s, fn, ctx, &found, &budget, err, errlen);
            if (rc == 0 && !found && s.len + piece > max_message + SLACK)
                rc = too_big(&h, err, errlen);
            continue;
        }
        if (reserve(&s.raw, &s.cap, s.len + piece + 1)) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
        memcpy(s.raw + s.len, body + off, piece);
        s.len += piece;
        off += piece;
        rc = drain_sse(&s, fn, ctx, &found, &budget, err, errlen);
    }
    free(s.raw);
    free(s.data);
    return rc;
}

/* Run the transfers a step, and note those that ended. */
static void service(toolgov__uphttp *h)
{
    int running, left;
    CURLMsg *m;
    curl_multi_perform(h->multi, &running);
    while ((m = curl_multi_info_read(h->multi, &left)) != NULL) {
        stream *s = NULL;
        if (m->msg != CURLMSG_DONE)
            continue;
        curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)(void *)&s);
        if (!s)
            continue;
        s->done = 1;
        s->result = m->data.result;
        if (s->kind == KIND_NONE)
            decide(s);
    }
}

/* A sentence for a transfer that failed or was refused. */
static void failed(const stream *s, char *err, size_t errlen)
{
    const char *what = s->errbuf[0] ? s->errbuf : curl_easy_strerror(s->result);
    if (s->result == CURLE_COULDNT_CONNECT || s->result == CURLE_COULDNT_RESOLVE_HOST ||
        s->result == CURLE_COULDNT_RESOLVE_PROXY || s->result == CURLE_OPERATION_TIMEDOUT) {
        snprintf(err, errlen, "cannot reach the server: %s", what);
    } else if (s->result != CURLE_OK) {
        snprintf(err, errlen, "the HTTP exchange failed: %s", what);
    } else if (s->status == 404 && s->h->session[0]) {
        snprintf(err, errlen, "the server no longer knows the session (HTTP 404)");
    } else if (s->status != 200) {
        char quote[161];
        size_t i, j = 0;
        for (i = 0; i < s->len && j + 1 < sizeof quote; i++)
            if (s->raw[i] >= 0x20 && s->raw[i] < 0x7f)
                quote[j++] = s->raw[i];
        quote[j] = '\0';
        snprintf(err, errlen, "the server answered HTTP %ld%s%s%s%s", s->status,
                 s->status == 401 || s->status == 403
                     ? " (an entry's \"headers\" carry credentials, such as Authorization)"
                     : "",
                 j ? ": \"" : "", quote, j ? "\"" : "");
    } else {
        snprintf(err, errlen, "the server answered with content type '%s', neither "
                              "application/json nor text/event-stream", s->ctype);
    }
}

/* The GET stream ended: open it again later, unless the server offers none
** (405); a session the server forgot (404) is an error. */
static int get_ended(toolgov__uphttp *h, char *err, size_t errlen)
{
    stream *s = &h->get;
    stream_stop(h, s);
    if (s->result == CURLE_OK && s->status == 405) {
        h->get_refused = 1;
        return 0;
    }
    if (s->result == CURLE_OK && s->status == 404 && h->session[0]) {
        failed(s, err, errlen);
        return -1;
    }
    if (s->result == CURLE_OK && s->kind == KIND_SSE)
        h->get_wait = GET_RETRY_MS / 2; /* it was a stream: open it again soon */
    h->get_wait = h->get_wait * 2 > GET_RETRY_MAX_MS ? GET_RETRY_MAX_MS : h->get_wait * 2;
    h->get_at = now_ms() + h->get_wait;
    return 0;
}

static void get_open(toolgov__uphttp *h)
{
    stream *s = &h->get;
    if (!h->ready || h->get_refused || s->running || now_ms() < h->get_at)
        return;
    stream_reset(s);
    if (!(s->hdrs = headers(h, 0))) {
        h->get_at = now_ms() + GET_RETRY_MS;
        return;
    }
    curl_easy_setopt(s->e, CURLOPT_HTTPHEADER, s->hdrs);
    if (curl_multi_add_handle(h->multi, s->e) == CURLM_OK)
        s->running = 1;
    else
        h->get_at = now_ms() + GET_RETRY_MS;
}

/* What the GET stream holds, handed to fn; its end handled. */
static int get_drain(toolgov__uphttp *h, toolgov__uphttp_fn fn, void *ctx, size_t *budget,
                     char *err, size_t errlen)
{
    int found = 0;
    if (!h->get.running)
        return 0;
    if (h->get.kind == KIND_SSE && drain(&h->get, fn, ctx, &found, budget, err, errlen))
        return -1;
    if (h->get.done)
        return get_ended(h, err, errlen);
    return 0;
}

/* ---- exchanges ---------------------------------------------------------- */

/* A message that needs no answer, sent to its end at once. */
static int post_plain(toolgov__uphttp *h, const char *body, size_t n, long long deadline,
                      char *err, size_t errlen)
{
    struct curl_slist *l = headers(h, 1);
    char errbuf[CURL_ERROR_SIZE];
    long status = 0, left = (long)(deadline - now_ms());
    CURLcode r;
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    errbuf[0] = '\0';
    curl_easy_reset(h->aux);
    common_opts(h, h->aux, errbuf);
    curl_easy_setopt(h->aux, CURLOPT_HTTPHEADER, l);
    curl_easy_setopt(h->aux, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
    curl_easy_setopt(h->aux, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h->aux, CURLOPT_WRITEFUNCTION, on_discard);
    curl_easy_setopt(h->aux, CURLOPT_TIMEOUT_MS, left > 0 ? left : 1L);
    r = curl_easy_perform(h->aux);
    curl_easy_getinfo(h->aux, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(l);
    if (r != CURLE_OK) {
        snprintf(err, errlen, "cannot reach the server: %s",
                 errbuf[0] ? errbuf : curl_easy_strerror(r));
        return -1;
    }
    if (status == 404 && h->session[0]) {
        snprintf(err, errlen, "the server no longer knows the session (HTTP 404)");
        return -1;
    }
    if (status != 202 && status != 200 && status != 204) {
        snprintf(err, errlen, "the server answered HTTP %ld to a notification", status);
        return -1;
    }
    return 0;
}

/* The response was read from the POST's stream: let the server end the
** stream (it does right after the response) for a moment, so the
** connection is kept for the next request; what else it says is dropped. */
static void linger(toolgov__uphttp *h, stream *s, long long deadline)
{
    long long until = now_ms() + 50;
    if (until > deadline)
        until = deadline;
    while (!s->done) {
        long long left = until - now_ms();
        s->len = 0;
        s->dlen = 0;
        if (s->paused) {
            s->paused = 0;
            curl_easy_pause(s->e, CURLPAUSE_CONT);
        }
        if (left <= 0)
            break;
        curl_multi_poll(h->multi, NULL, 0, (int)left, NULL);
        service(h);
    }
}

int toolgov__uphttp_post(toolgov__uphttp *h, const char *body, size_t n, int is_request,
                         long long deadline, toolgov__uphttp_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    stream *s = &h->post;
    int found = 0, rc = -1;
    if (!is_request)
        return post_plain(h, body, n, deadline, err, errlen);
    get_open(h);
    stream_reset(s);
    if (!(s->hdrs = headers(h, 1))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    curl_easy_setopt(s->e, CURLOPT_HTTPHEADER, s->hdrs);
    curl_easy_setopt(s->e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
    /* Copied: an answer to the server's request, sent while this is under
    ** way, is written where the body was. */
    curl_easy_setopt(s->e, CURLOPT_COPYPOSTFIELDS, body);
    if (curl_multi_add_handle(h->multi, s->e) != CURLM_OK) {
        snprintf(err, errlen, "libcurl could not start the request");
        return -1;
    }
    s->running = 1;
    for (;;) {
        size_t budget = (size_t)-1;
        long long left;
        service(h);
        if (s->bad_session) {
            snprintf(err, errlen, "the server gave an Mcp-Session-Id that is not 1 to %d "
                                  "visible ASCII characters", SESSION_MAX);
            break;
        }
        if (!h->session[0] && s->session[0])
            memcpy(h->session, s->session, sizeof h->session);
        if (drain(s, fn, ctx, &found, &budget, err, errlen))
            break;
        if (found) {
            linger(h, s, deadline);
            rc = 0;
            break;
        }
        if (get_drain(h, fn, ctx, &budget, err, errlen))
            break;
        if (s->done) {
            if (s->result != CURLE_OK || s->kind == KIND_OTHER)
                failed(s, err, errlen);
            else if (s->kind == KIND_JSON)
                snprintf(err, errlen, "its answer is not the response to the request");
            else
                snprintf(err, errlen, "its event stream ended without the response to the "
                                      "request");
            break;
        }
        left = deadline - now_ms();
        if (left <= 0) {
            rc = -2;
            break;
        }
        curl_multi_poll(h->multi, NULL, 0, left > 1000 ? 1000 : (int)left, NULL);
    }
    stream_stop(h, s);
    return rc;
}

int toolgov__uphttp_ready(toolgov__uphttp *h, const char *version)
{
    snprintf(h->version, sizeof h->version, "%s", version);
    h->ready = 1;
    h->get_refused = 0;
    h->get_at = 0;
    h->get_wait = GET_RETRY_MS / 2;
    return 0;
}

int toolgov__uphttp_pump(toolgov__uphttp *h, toolgov__uphttp_fn fn, void *ctx, char *err,
                         size_t errlen)
{
    size_t budget = PUMP_MAX_MESSAGES;
    get_open(h);
    if (!h->get.running)
        return 0;
    service(h);
    return get_drain(h, fn, ctx, &budget, err, errlen);
}

void toolgov__uphttp_end(toolgov__uphttp *h, int wait_ms)
{
    stream_stop(h, &h->post);
    stream_stop(h, &h->get);
    if (h->session[0]) {
        struct curl_slist *l = headers(h, 0);
        char errbuf[CURL_ERROR_SIZE];
        curl_easy_reset(h->aux);
        common_opts(h, h->aux, errbuf);
        curl_easy_setopt(h->aux, CURLOPT_CUSTOMREQUEST, "DELETE");
        curl_easy_setopt(h->aux, CURLOPT_HTTPHEADER, l);
        curl_easy_setopt(h->aux, CURLOPT_WRITEFUNCTION, on_discard);
        curl_easy_setopt(h->aux, CURLOPT_TIMEOUT_MS, (long)(wait_ms > 0 ? wait_ms : 1));
        curl_easy_setopt(h->aux, CURLOPT_CONNECTTIMEOUT_MS, (long)(wait_ms > 0 ? wait_ms : 1));
        (void)curl_easy_perform(h->aux); /* a server that allows none says 405: so be it */
        curl_slist_free_all(l);
    }
    h->session[0] = '\0';
    h->version[0] = '\0';
    h->ready = 0;
    h->get_refused = 0;
}

void toolgov__uphttp_free(toolgov__uphttp *h)
{
    size_t i;
    if (!h)
        return;
    if (h->multi && h->aux)
        toolgov__uphttp_end(h, 500);
    if (h->multi) {
        stream_free(h, &h->post);
        stream_free(h, &h->get);
        curl_multi_cleanup(h->multi);
    }
    if (h->aux)
        curl_easy_cleanup(h->aux);
    for (i = 0; h->extra && h->extra[i]; i++)
        free(h->extra[i]);
    free(h->extra);
    free(h->url);
    free(h);
}
