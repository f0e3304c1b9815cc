/* SPDX-License-Identifier: MIT */
/*
** bench_args.c: decode + validate + canonicalise one typical tool call.
**
** The call has 6 properties: 3 strings (one plain with a length bound, one
** date, one time), an integer with bounds, a string enum and an array of 3
** strings: tests/args/fixture_reminder.h, SPEC §9's create_reminder. It
** prints the median and fastest time per call (thread CPU time, median over
** batches) and the allocations per call once the decoder is warm, counted
** through the allocator hook. Goal: <= 1 us median, 0 allocations. It
** prints; it never asserts on time.
*/
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture_reminder.h"
#include "bench_util.h"

#define BATCH 20000
#define BATCHES 51

int main(void)
{
    static const char call[] =
        "{\"title\": \"Call the dentist about the appointment\", \"date\": \"2026-03-12\","
        " \"time\": \"09:30\", \"priority\": \"high\", \"minutes_before\": 15,"
        " \"tags\": [\"health\", \"phone\", \"personal\"]}";
    counter cnt = {0};
    toolgov_allocator alloc;
    toolgov_args_decoder *dec;
    toolgov_decoded_args out;
    double times[BATCHES];
    unsigned long long warm;
    size_t sink = 0;
    int b, i;

    alloc.fn = count_alloc;
    alloc.ud = &cnt;
    if (toolgov_args_decoder_new(&dec, &alloc) != 0)
        return 1;
    for (i = 0; i < 100; i++)
        if (toolgov_args_decode(&out, dec, &reminder_schema, "create_reminder", call,
                                sizeof call - 1) != 0) {
            fprintf(stderr, "bench_args: the call was refused: %s\n", out.message);
            return 1;
        }
    printf("canonical: %s\n", out.canonical);
    warm = cnt.allocs;
    for (b = 0; b < BATCHES; b++) {
        double t0 = now_ns();

        for (i = 0; i < BATCH; i++) {
            toolgov_args_decode(&out, dec, &reminder_schema, "create_reminder", call,
                                sizeof call - 1);
            sink += out.canonical_len;
        }
        times[b] = (now_ns() - t0) / BATCH;
    }
    qsort(times, BATCHES, sizeof times[0], cmp_double);
    printf("decode+validate+canonical, %zu-byte call, 6 properties: median %.0f ns, "
           "fastest %.0f ns per call (goal <= 1000 ns)\n",
           sizeof call - 1, times[BATCHES / 2], times[0]);
    printf("allocations per call once warm: %.3f (goal 0); %llu while warming up\n",
           (double)(cnt.allocs - warm) / ((double)BATCH * BATCHES), warm);
    toolgov_args_decoder_free(dec);
    return sink == 0;
}
