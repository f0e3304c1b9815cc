/* SPDX-License-Identifier: MIT */
/* transport.c: one POST with libcurl, retried (see transport.h). */
#define _POSIX_C_SOURCE 200809L
#include "transport.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

typedef struct sink {
    char *p;
    size_t len, cap, max;
    int too_big;
    const toolgov_http_options *opt;
    long retry_after_ms;
    CURL *c;
    int streamed, stopped;
} sink;

static size_t on_body(char *data, size_t size, size_t n, void *ud)
{
    sink *s = ud;
    size_t len = size * n;
    long status = 0;

    if (s->opt->on_data && curl_easy_getinfo(s->c, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK &&
        status >= 200 && status < 300) {
        s->streamed = 1;
        if (s->opt->on_data(s->opt->data_ud, data, len)) {
            s->stopped = 1;
            return 0; /* stop reading: libcurl ends the transfer */
        }
        return len;
    }    if (s->len + len > s->max) {
        s->too_big = 1;
        return 0;
    }
    if (s->len + len + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        char *p;
        while (cap < s->len + len + 1)
            cap *= 2;
        if (!(p = realloc(s->p, cap)))
            return 0;
        s->p = p;
        s->cap = cap;
    }
    memcpy(s->p + s->len, data, len);
    s->len += len;
    s->p[s->len] = '\0';
    if (s->opt->on_data)
        s->opt->on_data(s->opt->data_ud, data, len);
    return len;
}

long toolgov_http_retry_after_ms(const char *v, long long now)
{
    const char *p = v;
    long long secs = 0;
    time_t t;

    while (*p == ' ')
        p++;
    if (isdigit((unsigned char)*p)) {
        for (; isdigit((unsigned char)*p); p++) {
            secs = secs * 10 + (*p - '0');
            if (secs > 86400)
                secs = 86400;
        }
        while (*p == ' ' || *p == '\r' || *p == '\n')
            p++;
        return *p ? -1 : (long)(secs * 1000);
    }
    t = curl_getdate(p, NULL);
    if (t == (time_t)-1)
        return -1;
    return (long long)t <= now ? 0 : (long)(((long long)t - now) * 1000 > 86400000LL
                                                 ? 86400000LL
                                                 : ((long long)t - now) * 1000);
}

static size_t on_header(char *data, size_t size, size_t n, void *ud)
{
    sink *s = ud;
    size_t len = size * n;
    static const char name[] = "retry-after:";
    if (len > sizeof name - 1 && len < 256) {
        char line[256];
        size_t i;
        for (i = 0; i < sizeof name - 1; i++)
            if (tolower((unsigned char)data[i]) != name[i])
                return len;
        memcpy(line, data + sizeof name - 1, len - (sizeof name - 1));
        line[len - (sizeof name - 1)] = '\0';
        s->retry_after_ms = toolgov_http_retry_after_ms(line, (long long)time(NULL));
    }
    return len;
}

static void pause_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static int transient(CURLcode rc)
{
    return rc == CURLE_COULDNT_CONNECT || rc == CURLE_OPERATION_TIMEDOUT ||
           rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR || rc == CURLE_PARTIAL_FILE ||
           rc == CURLE_GOT_NOTHING || rc == CURLE_COULDNT_RESOLVE_HOST;
}

int toolgov_http_post(const toolgov_http_options *opt, const char *url,
                      const char *const *headers, size_t n, const char *body, size_t len,
                      toolgov_http_response *out)
{
    static int started;
    toolgov_http_options o = *opt;
    unsigned tries = o.no_retries ? 1 : (o.retries ? o.retries : 3) + 1, k;
    struct curl_slist *hl = NULL;
    CURL *c;
    size_t i;
    long backoff;

    memset(out, 0, sizeof *out);
    if (!o.connect_timeout_ms)
        o.connect_timeout_ms = 10000;
    if (!o.timeout_ms)
        o.timeout_ms = 300000;
    if (!o.backoff_ms)
        o.backoff_ms = 500;
    if (!o.max_wait_ms)
        o.max_wait_ms = 60000;
    if (!o.max_body)
        o.max_body = (size_t)64 << 20;
    if (!started) {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            snprintf(out->error, sizeof out->error, "libcurl could not start");
            return -1;
        }
        started = 1;
    }
    if (!(c = curl_easy_init())) {
        snprintf(out->error, sizeof out->error, "libcurl could not start");
        return -1;
    }
    for (i = 0; i < n; i++) {
        struct curl_slist *t = curl_slist_append(hl, headers[i]);
        if (!t) {
            curl_slist_free_all(hl);
            curl_easy_cleanup(c);
            snprintf(out->error, sizeof out->error, "out of memory");
            return -1;
        }
        hl = t;
    }
    backoff = o.backoff_ms;
    for (k = 0; k < tries; k++) {
        sink s;
        CURLcode rc;
        long status = 0, wait;

        memset(&s, 0, sizeof s);
        s.max = o.max_body;
        s.opt = &o;
        s.retry_after_ms = -1;
        s.c = c;
        curl_easy_reset(c);
        curl_easy_setopt(c, CURLOPT_URL, url);
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
        curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(c, CURLOPT_HEADERDATA, &s);
        curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, o.connect_timeout_ms);
        curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, o.timeout_ms);
        curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(c, CURLOPT_USERAGENT, "toolgov-agent");
        rc = curl_easy_perform(c);
        out->attempts = k + 1;
        if (rc == CURLE_OK || s.streamed)
            curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        if (s.streamed) {
            /* What was handed over cannot be taken back: no retry. */
            out->status = status;
            out->streamed = 1;
            out->stopped = s.stopped;
            out->body = calloc(1, 1);
            if (rc != CURLE_OK && !s.stopped)
                snprintf(out->error, sizeof out->error, "%s", curl_easy_strerror(rc));
            free(s.p);
            curl_slist_free_all(hl);
            curl_easy_cleanup(c);
            return out->body ? 0 : -1;
        }
        if (rc == CURLE_OK && status != 429 && status < 500) {
            out->status = status;
            out->body = s.p ? s.p : calloc(1, 1);
            out->len = s.len;
            curl_slist_free_all(hl);
            curl_easy_cleanup(c);
            if (!out->body) {
                snprintf(out->error, sizeof out->error, "out of memory");
                return -1;
            }
            return 0;
        }
        if (rc != CURLE_OK)
            snprintf(out->error, sizeof out->error, "%s%s", curl_easy_strerror(rc),
                     s.too_big ? " (the answer is larger than the limit)" : "");
        /* Keep the last answer for the caller when no retry is left. */
        if (k + 1 == tries || (rc != CURLE_OK && !transient(rc))) {
            curl_slist_free_all(hl);
            curl_easy_cleanup(c);
            if (rc != CURLE_OK) {
                free(s.p);
                return -1;
            }
            out->status = status;
            out->body = s.p ? s.p : calloc(1, 1);
            out->len = s.len;
            out->error[0] = '\0';
            return out->body ? 0 : -1;
        }
        free(s.p);
        wait = s.retry_after_ms >= 0 ? s.retry_after_ms : backoff;
        if (wait > o.max_wait_ms)
            wait = o.max_wait_ms;
        if (o.log) {
            if (rc == CURLE_OK)
                fprintf(o.log, "toolgov-agent: HTTP %ld, retrying in %ld ms%s\n", status, wait,
                        s.retry_after_ms >= 0 ? " (Retry-After)" : "");
            else
                fprintf(o.log, "toolgov-agent: %s, retrying in %ld ms\n", out->error, wait);
        }
        pause_ms(wait);
        backoff = backoff * 2 > o.max_wait_ms ? o.max_wait_ms : backoff * 2;
    }
    curl_slist_free_all(hl);
    curl_easy_cleanup(c);
    return -1;
}

void toolgov_http_response_free(toolgov_http_response *r)
{
    free(r->body);
    r->body = NULL;
    r->len = 0;
}
