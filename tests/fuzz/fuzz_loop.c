/* SPDX-License-Identifier: MIT */
/*
** fuzz_loop.c: libFuzzer target for the loop's response readers (loop.h,
** runtime/src/wire_read.c, wire_stream.c): each API's whole responses and
** server-sent-event streams, as a model (or whatever answers in its place)
** may send them.
**
** The first byte picks the API (mod 3), how the user answers questions
** (bit 2: yes), whether the body is a stream (bit 3: fed with
** toolgov_loop_response_chunk in pieces of 1 + (byte >> 4) * 5 bytes,
** then toolgov_loop_response_end); the rest is the body, handed back for every
** request of a turn of at most three steps over the fixture's tools (one of
** every kind the gate tells apart). Invariants: the turn always ends
** (DONE within a bounded number of actions); every request the loop writes
** is JSON the strict reader accepts; a refused response ends the turn with
** an error message; a stream's deltas never hold more bytes than were fed;
** nothing crashes or leaks.
*/
#include <string.h>

#include <toolgov/loop.h>

#include "fuzz_runtime_fixture.h"
#include "json.h"

static const char *const loop_tools[] = {"lookup", "digest", "create_note", "quick_note", "wipe"};

static void check_json(const char *text, size_t len)
{
    toolgov_allocator a = {NULL, NULL};
    toolgov__scratch arena;
    toolgov__json_doc doc;
    toolgov__json_error err;

    toolgov__scratch_init(&arena, &a);
    FUZZ_CHECK(toolgov__json_parse(&doc, &err, &arena, text, len, TOOLGOV__JSON_MAX_DEPTH + 8,
                                   TOOLGOV__JSON_MAX_LEN, 0) == 0);
    toolgov__scratch_free(&arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    toolgov_loop_options o;
    toolgov_loop *lp = NULL;
    toolgov_run *run = NULL;
    toolgov_loop_action a;
    const char *body;
    size_t len, actions;
    int yes, streamed;
    size_t piece;

    if (size < 1)
        return 0;
    fixture_init();
    memset(&o, 0, sizeof o);
    o.api = (toolgov_loop_api)(data[0] % 3);
    o.model = "fuzz";
    o.max_steps = 3;
    yes = (data[0] >> 2) & 1;
    streamed = (data[0] >> 3) & 1;
    piece = 1 + (size_t)(data[0] >> 4) * 5;
    o.stream = streamed;
    body = (const char *)data + 1;
    len = size - 1;
    FUZZ_CHECK(toolgov_loop_new(&lp, fixture_pol, &o) == 0);
    FUZZ_CHECK(toolgov_run_new(&run, fixture_pol, NULL) == 0);
    FUZZ_CHECK(toolgov_loop_start(lp, run, "fuzz the loop", loop_tools, 5) == 0);
    for (actions = 0;; actions++) {
        FUZZ_CHECK(actions < 4 * 1100); /* the turn ends */
        if (toolgov_loop_next(lp, &a) != 0)
            break; /* out of memory: the turn is over */
        if (a.what == TOOLGOV_LOOP_DONE) {
            FUZZ_CHECK(a.end != TOOLGOV_LOOP_END_NONE);
            FUZZ_CHECK(a.error != NULL && a.text != NULL);
            if (a.end == TOOLGOV_LOOP_END_API_ERROR || a.end == TOOLGOV_LOOP_END_BAD_RESPONSE)
                FUZZ_CHECK(a.error[0] != '\0');
            break;
        }
        if (a.what == TOOLGOV_LOOP_SEND) {
            int rc;
            check_json(a.text, a.len);
            if (streamed) {
                size_t at = 0, shown = 0;
                rc = 0;
                while (rc == 0 && at < len) {
                    size_t n = len - at < piece ? len - at : piece, dlen = 1;
                    const char *delta = NULL;
                    rc = toolgov_loop_response_chunk(lp, body + at, n, &delta, &dlen);
                    FUZZ_CHECK(delta != NULL);
                    FUZZ_CHECK(rc == 0 || dlen == 0);
                    at += n;
                    shown += dlen;
                    FUZZ_CHECK(shown <= at);
                }
                if (rc == 0)
                    rc = toolgov_loop_response_end(lp);
            } else {
                rc = toolgov_loop_response(lp, body, len);
            }
            FUZZ_CHECK(rc == 0 || rc == TOOLGOV_EINVAL || rc == TOOLGOV_ENOMEM);
        } else {
            FUZZ_CHECK(a.what == TOOLGOV_LOOP_ASK && a.n_calls > 0 && a.len > 0);
            FUZZ_CHECK(toolgov_loop_answer(lp, yes) == 0);
        }
    }
    toolgov_loop_free(lp);
    toolgov_run_free(run);
    return 0;
}
