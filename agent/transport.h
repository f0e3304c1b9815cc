/* SPDX-License-Identifier: MIT */
/*
** transport.h: toolgov-agent's transport, the bytes between the loop
** (toolgov/loop.h, which does no I/O) and a model API over HTTP(S), with
** libcurl. Not part of libtoolgov: the runtime links no libcurl.
**
** One POST of a JSON body, with timeouts, and retries on 429 and 5xx
** answers and on transient network failures (connection refused or reset,
** a timeout, a body cut short): the wait is the answer's Retry-After
** (seconds or an HTTP date) when it has one, else an exponential backoff,
** never longer than max_wait_ms. The last answer, whatever its status, is
** handed back with its body, so the loop reads the API's own error message.
**
** Ownership: the response's body is malloc'd and freed by
** toolgov_http_response_free(). One thread at a time per call.
*/
#ifndef TOOLGOV_AGENT_TRANSPORT_H
#define TOOLGOV_AGENT_TRANSPORT_H

#include <stddef.h>
#include <stdio.h>

typedef struct toolgov_http_options {
    long connect_timeout_ms; /* 0: 10 s */
    long timeout_ms;         /* the whole request; 0: 300 s */
    unsigned retries;        /* more attempts after the first; */
    int no_retries;          /* 1: none at all (retries then ignored); default 3 */
    long backoff_ms;         /* first wait without Retry-After; 0: 500 ms */
    long max_wait_ms;        /* the longest wait; 0: 60 s */
    size_t max_body;         /* the largest body read; 0: 64 MiB */
    FILE *log;               /* one line per retry, or NULL */
    /* A stream: called with each piece of a 2xx answer's body as it
    ** arrives (other answers are kept whole in the response, for their
    ** error message, and retried as above), or NULL. A non-zero return
    ** stops reading. Once a piece is handed over the request is never
    ** retried: the response then says `streamed`, and a connection that
    ** dropped mid-body says so in `error`. */
    int (*on_data)(void *ud, const char *data, size_t len);
    void *data_ud;
} toolgov_http_options;

typedef struct toolgov_http_response {
    long status;        /* the HTTP status; 0 when no answer came */
    char *body;         /* NUL-terminated, len bytes; never NULL after a post */
    size_t len;
    unsigned attempts;
    int streamed;       /* the body went to on_data (not in body) */
    int stopped;        /* on_data asked to stop reading */
    char error[256];    /* why no answer came (status 0), or why a streamed
                        ** body ended early; else "" */
} toolgov_http_response;

/* POST `body` to `url` with the n `headers` ("Name: value"). 0 when an
** answer came (any status: look at out->status), -1 when none did after
** the retries (out->error says why). */
int toolgov_http_post(const toolgov_http_options *opt, const char *url,
                      const char *const *headers, size_t n, const char *body, size_t len,
                      toolgov_http_response *out);

void toolgov_http_response_free(toolgov_http_response *r);

/* The wait a Retry-After value asks for, in ms (seconds, or an HTTP date
** relative to `now`); -1 when the value is neither. */
long toolgov_http_retry_after_ms(const char *value, long long now);

#endif /* TOOLGOV_AGENT_TRANSPORT_H */
