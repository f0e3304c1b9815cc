/* SPDX-License-Identifier: MIT */
/*
** seal.c: sealing and opening texts the host keeps (seal.h).
*/
#include <string.h>

#include "seal.h"

#if TOOLGOV_STATE_KEY_BYTES < crypto_generichash_KEYBYTES_MIN ||                     \
    TOOLGOV_STATE_KEY_BYTES > crypto_generichash_KEYBYTES_MAX
#error "TOOLGOV_STATE_KEY_BYTES is not a BLAKE2b key length"
#endif

int toolgov__crypto_ready(void)
{
    return sodium_init() >= 0;
}

void toolgov__random_id(char *id, size_t *len)
{
    unsigned char raw[16];

    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(id, 2 * sizeof raw + 1, raw, sizeof raw);
    *len = 2 * sizeof raw;
}

int toolgov_state_key_generate(toolgov_state_key *out)
{
    if (!out)
        return TOOLGOV_EINVAL;
    if (!toolgov__crypto_ready())
        return TOOLGOV_EFAIL;
    randombytes_buf(out->bytes, sizeof out->bytes);
    return 0;
}

void toolgov__seal_put(toolgov__sealer *k, const char *s, size_t n)
{
    toolgov__out_put(k->o, s, n);
    crypto_generichash_update(&k->h, (const unsigned char *)s, n);
}

void toolgov__seal_str(toolgov__sealer *k, const char *s)
{
    toolgov__seal_put(k, s, strlen(s));
}

void toolgov__seal_num(toolgov__sealer *k, unsigned long long v)
{
    char tmp[24];
    toolgov__out o;

    toolgov__out_init(&o, tmp, sizeof tmp);
    toolgov__out_u64(&o, v);
    toolgov__seal_put(k, tmp, o.len);
}

void toolgov__seal_hex64(toolgov__sealer *k, unsigned long long v)
{
    char tmp[17];
    toolgov__out o;

    toolgov__out_init(&o, tmp, sizeof tmp);
    toolgov__out_hex64(&o, v);
    toolgov__seal_put(k, tmp, 16);
}

void toolgov__seal_bytes(toolgov__sealer *k, const char *s, size_t n)
{
    toolgov__seal_num(k, n);
    toolgov__seal_put(k, ":", 1);
    toolgov__seal_put(k, s, n);
}

void toolgov__seal_begin(toolgov__sealer *k, toolgov__out *o, const toolgov_state_key *key,
                         const char *magic, const char *bound, size_t bound_len)
{
    k->o = o;
    crypto_generichash_init(&k->h, key->bytes, sizeof key->bytes, TOOLGOV__SEAL_MAC_BYTES);
    toolgov__seal_str(k, magic);
    toolgov__seal_str(k, "bound ");
    toolgov__seal_bytes(k, bound, bound_len);
    toolgov__seal_put(k, "\n", 1);
}

/* The one mac line a text of `n` bytes sealed under `mac` has. */
static void mac_line(char line[TOOLGOV__SEAL_MAC_LINE + 1],
                     const unsigned char mac[TOOLGOV__SEAL_MAC_BYTES])
{
    memcpy(line, "mac ", 4);
    sodium_bin2hex(line + 4, 2 * TOOLGOV__SEAL_MAC_BYTES + 1, mac, TOOLGOV__SEAL_MAC_BYTES);
    line[TOOLGOV__SEAL_MAC_LINE - 1] = '\n';
    line[TOOLGOV__SEAL_MAC_LINE] = '\0';
}

void toolgov__seal_end(toolgov__sealer *k)
{
    unsigned char mac[TOOLGOV__SEAL_MAC_BYTES];
    char line[TOOLGOV__SEAL_MAC_LINE + 1];

    crypto_generichash_final(&k->h, mac, sizeof mac);
    mac_line(line, mac);
    toolgov__out_put(k->o, line, TOOLGOV__SEAL_MAC_LINE);
    sodium_memzero(&k->h, sizeof k->h);
    sodium_memzero(mac, sizeof mac);
}

int toolgov__seal_open(const char **body, size_t *body_len, const char *text, size_t len,
                       const toolgov_state_key *key, const char *magic, const char *bound,
                       size_t bound_len)
{
    unsigned char mac[TOOLGOV__SEAL_MAC_BYTES];
    char want[TOOLGOV__SEAL_MAC_LINE + 1];
    char head[32];
    size_t mlen = strlen(magic), hlen, signed_len;
    toolgov__out o;
    int ok;

    if (!text || len < mlen + TOOLGOV__SEAL_MAC_LINE)
        return TOOLGOV_ESTATE;
    signed_len = len - TOOLGOV__SEAL_MAC_LINE;
    crypto_generichash(mac, sizeof mac, (const unsigned char *)text, signed_len, key->bytes,
                       sizeof key->bytes);
    mac_line(want, mac);
    /* The whole line, in constant time: a hex digit in another case is a
    ** changed byte like any other. */
    ok = sodium_memcmp(want, text + signed_len, TOOLGOV__SEAL_MAC_LINE) == 0;
    sodium_memzero(mac, sizeof mac);
    sodium_memzero(want, sizeof want);
    if (!ok)
        return TOOLGOV_ESTATE;
    /* Sealed by a key holder: now what it is and whose it is. */
    toolgov__out_init(&o, head, sizeof head);
    toolgov__out_str(&o, "bound ");
    toolgov__out_u64(&o, bound_len);
    toolgov__out_put(&o, ":", 1);
    hlen = o.len;
    if (signed_len < mlen + hlen + bound_len + 1 || memcmp(text, magic, mlen) != 0 ||
        memcmp(text + mlen, head, hlen) != 0 ||
        (bound_len && memcmp(text + mlen + hlen, bound, bound_len) != 0) ||
        text[mlen + hlen + bound_len] != '\n')
        return TOOLGOV_ESTATE;
    *body = text + mlen + hlen + bound_len + 1;
    *body_len = signed_len - (mlen + hlen + bound_len + 1);
    return 0;
}

/* ---- reading a body ---- */

int toolgov__read_lit(toolgov__reader *c, const char *s)
{
    size_t n = strlen(s);

    if ((size_t)(c->end - c->p) < n || memcmp(c->p, s, n) != 0)
        return 0;
    c->p += n;
    return 1;
}

int toolgov__read_num(toolgov__reader *c, unsigned long long limit, unsigned long long *out)
{
    unsigned long long v = 0;
    const char *start = c->p;

    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        v = v * 10 + (unsigned)(*c->p - '0');
        if (v >= limit)
            return 0;
        c->p++;
    }
    if (c->p == start || (c->p - start > 1 && *start == '0'))
        return 0;
    *out = v;
    return 1;
}

int toolgov__read_bytes(toolgov__reader *c, const char **s, size_t *n)
{
    unsigned long long v;

    if (!toolgov__read_num(c, 1ull << 48, &v) || !toolgov__read_lit(c, ":") ||
        (unsigned long long)(c->end - c->p) < v)
        return 0;
    *s = c->p;
    *n = (size_t)v;
    c->p += *n;
    return 1;
}
