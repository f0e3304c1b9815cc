/* SPDX-License-Identifier: MIT */
/*
** fuzz_check.h: what the fuzz targets share.
**
** FUZZ_CHECK aborts with a message when an invariant fails, so libFuzzer
** (and the replay driver of the normal build) report it as a crash with the
** input that caused it.
*/
#ifndef TOOLGOV_TESTS_FUZZ_CHECK_H
#define TOOLGOV_TESTS_FUZZ_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* TOOLGOV_TESTS_FUZZ_CHECK_H */
