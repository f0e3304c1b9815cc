/* SPDX-License-Identifier: MIT */
/*
** fuzz_seal.h: the key the runtime's sealed-text targets (fuzz_state,
** fuzz_grants) seal and open every text with, and the seal itself, so a
** fixed-up input reaches the reader behind the mac.
*/
#ifndef TOOLGOV_TESTS_FUZZ_SEAL_H
#define TOOLGOV_TESTS_FUZZ_SEAL_H

#include <string.h>

#include <sodium.h>
#include <toolgov/run.h>

#include "fuzz_check.h"

static const toolgov_state_key fuzz_test_key = {{
    0x74, 0x6f, 0x6f, 0x6c, 0x67, 0x6f, 0x76, 0x2d, 0x66, 0x75, 0x7a, 0x7a,
    0x2d, 0x6b, 0x65, 0x79, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f}};

/* Room the seal adds after a body: "mac " + 64 hex digits + "\n". */
#define FUZZ_SEAL_BYTES (4 + 2 * crypto_generichash_BYTES + 1)

/* Append "mac <hex>\n" sealing fixed[0, body) with the test key, the way
** the runtime seals (keyed BLAKE2b-256); returns the new length. */
static size_t seal(char *fixed, size_t body)
{
    unsigned char mac[crypto_generichash_BYTES];
    char hex[2 * crypto_generichash_BYTES + 1];

    FUZZ_CHECK(sodium_init() >= 0);
    crypto_generichash(mac, sizeof mac, (const unsigned char *)fixed, body,
                       fuzz_test_key.bytes, sizeof fuzz_test_key.bytes);
    sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
    memcpy(fixed + body, "mac ", 4);
    memcpy(fixed + body + 4, hex, 2 * sizeof mac);
    fixed[body + 4 + 2 * sizeof mac] = '\n';
    return body + FUZZ_SEAL_BYTES;
}

#endif /* TOOLGOV_TESTS_FUZZ_SEAL_H */
