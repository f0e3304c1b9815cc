/* SPDX-License-Identifier: MIT */
/*
** test_numbers.c: the canonical number printer (jsonwrite.c: Ryu's digits
** in ECMAScript's layout) proved against
**   - Ryu's own published cases (ryu/tests/d2s_test.cc of
**     https://github.com/ulfjack/ryu at e3e090c, Apache-2.0 OR BSL-1.0;
**     compared as digits and exponent, since the layout is ours);
**   - the C library: every text reads back through strtod to the same
**     double (sign of zero included), and is the same bytes as the printer
**     it replaced (old_double_text below: a binary search over "%.*e"
**     precisions, each step read back by strtod), so the canonical texts
**     of earlier releases stay byte for byte the same;
** on random bit patterns and random decimals (seeded; TOOLGOV_NUMBER_SAMPLES
** sets how many (100,000 by default; docs/testing.md has the run over
** millions), TOOLGOV_NUMBER_SEED the seed), subnormals, powers of ten and two with their neighbours, the
** edges of the layout's ranges, and every number text in JSONTestSuite and
** in the fuzz and red-team inputs (tests/fuzz, tests/hostile, tests/args).
** And the decoder's shortcut: a number text copied as its own canonical
** spelling is exactly what printing its double gives.
*/
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "jsonwrite.h"

/* ---- the printer this one replaced, kept as the reference ---- */

static int old_p_digits(double v, int p, char buf[40])
{
    char alt[40];
    char *e;
    int dir;

    snprintf(buf, 40, "%.*e", p - 1, v);
    if (strtod(buf, NULL) == v)
        return 1;
    for (dir = 1; dir >= -1; dir -= 2) {
        char *q;

        memcpy(alt, buf, 40);
        e = strchr(alt, 'e');
        if (!e)
            return 0;
        for (q = e - 1; q >= alt; q--) {
            if (*q < '0' || *q > '9')
                continue;
            if (dir > 0 && *q < '9') {
                (*q)++;
                break;
            }
            if (dir < 0 && *q > '0') {
                (*q)--;
                break;
            }
            *q = dir > 0 ? '0' : '9';
        }
        if (q < alt || alt[0] == '0')
            continue;
        if (strtod(alt, NULL) == v) {
            memcpy(buf, alt, 40);
            return 1;
        }
    }
    return 0;
}

static void old_shortest_digits(double v, char d[24], int *nd, int *exp10)
{
    char buf[40], best_buf[40];
    int lo = 1, hi = 17, p, n = 0;
    const char *s;

    snprintf(best_buf, sizeof best_buf, "%.16e", v);
    while (lo <= hi) {
        p = lo + (hi - lo) / 2;
        if (old_p_digits(v, p, buf)) {
            memcpy(best_buf, buf, sizeof buf);
            hi = p - 1;
        } else {
            lo = p + 1;
        }
    }
    for (s = best_buf; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9')
            d[n++] = *s;
    while (n > 1 && d[n - 1] == '0')
        n--;
    *nd = n;
    *exp10 = *s == 'e' ? (int)strtol(s + 1, NULL, 10) : 0;
}

static size_t old_double_text(char *out, double v)
{
    char d[24];
    int nd, e, n, o = 0, i;

    if (v == 0) {
        if (signbit(v))
            out[o++] = '-';
        out[o++] = '0';
        return (size_t)o;
    }
    if (v < 0) {
        out[o++] = '-';
        v = -v;
    }
    old_shortest_digits(v, d, &nd, &e);
    n = e + 1;
    if (nd <= n && n <= 21) {
        for (i = 0; i < nd; i++)
            out[o++] = d[i];
        for (; i < n; i++)
            out[o++] = '0';
    } else if (0 < n && n <= 21) {
        for (i = 0; i < n; i++)
            out[o++] = d[i];
        out[o++] = '.';
        for (; i < nd; i++)
            out[o++] = d[i];
    } else if (-6 < n && n <= 0) {
        out[o++] = '0';
        out[o++] = '.';
        for (i = 0; i < -n; i++)
            out[o++] = '0';
        for (i = 0; i < nd; i++)
            out[o++] = d[i];
    } else {
        int x = n - 1 < 0 ? 1 - n : n - 1;
        char t[4];
        int k = 0;

        out[o++] = d[0];
        if (nd > 1) {
            out[o++] = '.';
            for (i = 1; i < nd; i++)
                out[o++] = d[i];
        }
        out[o++] = 'e';
        out[o++] = n - 1 < 0 ? '-' : '+';
        do {
            t[k++] = (char)('0' + x % 10);
            x /= 10;
        } while (x);
        while (k)
            out[o++] = t[--k];
    }
    return (size_t)o;
}

/* ---- checks ---- */

static unsigned long long checked;

static double bits_double(uint64_t bits)
{
    double f;

    memcpy(&f, &bits, sizeof f);
    return f;
}

static uint64_t double_bits(double f)
{
    uint64_t bits;

    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* The new text of v: it reads back to v (sign of zero too), fits
** TOOLGOV__JSON_NUMBER_MAX, and is the old printer's bytes. */
static void check_value(double v)
{
    char t[TOOLGOV__JSON_NUMBER_MAX + 1], o[64];
    size_t n, on;
    double back;

    if (!isfinite(v))
        return;
    n = toolgov__json_double_text(t, v);
    ck_assert_uint_le(n, TOOLGOV__JSON_NUMBER_MAX);
    t[n] = '\0';
    back = strtod(t, NULL);
    ck_assert_msg(back == v && signbit(back) == signbit(v),
                  "%.17g (bits %016llx) printed as %s, which reads back as %.17g", v,
                  (unsigned long long)double_bits(v), t, back);
    on = old_double_text(o, v);
    o[on] = '\0';
    ck_assert_msg(n == on && memcmp(t, o, n) == 0,
                  "%.17g (bits %016llx): now %s, the old printer said %s", v,
                  (unsigned long long)double_bits(v), t, o);
    checked++;
}

static void check_around(double v)
{
    check_value(v);
    check_value(-v);
    check_value(nextafter(v, HUGE_VAL));
    check_value(nextafter(v, 0));
}

/* xorshift64*, from a fixed seed unless TOOLGOV_NUMBER_SEED gives one. */
static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static unsigned long samples(void)
{
    const char *s = getenv("TOOLGOV_NUMBER_SAMPLES");

    return s && *s ? strtoul(s, NULL, 10) : 100000ul;
}

static void seed(void)
{
    const char *s = getenv("TOOLGOV_NUMBER_SEED");

    rng_state = s && *s ? strtoull(s, NULL, 0) : 0x746f6f6c676f76ull;
    if (!rng_state)
        rng_state = 1;
}

/* Digits and the decimal exponent of the first one of a decimal text in
** any layout ("1.5E-7", "0.00015", "150"), leading and trailing zeros
** dropped. */
static void sci(const char *t, char *digits, int *exp10)
{
    int n = 0, point = -1, lead = 0, seen = 0, i = 0;
    long e = 0;

    if (*t == '-')
        t++;
    for (; *t && *t != 'e' && *t != 'E'; t++) {
        if (*t == '.') {
            point = i;
            continue;
        }
        if (!seen && *t == '0') {
            lead++;
            i++;
            continue;
        }
        seen = 1;
        digits[n++] = *t;
        i++;
    }
    if (*t)
        e = strtol(t + 1, NULL, 10);
    if (point < 0)
        point = i;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = '\0';
    *exp10 = (int)(e + point - lead - 1);
}

/* ---- Ryu's published cases ---- */

static double int64Bits2Double(uint64_t bits)
{
    return bits_double(bits);
}

static double ieeeParts2Double(int sign, uint32_t ieeeExponent, uint64_t ieeeMantissa)
{
    return bits_double(((uint64_t)(sign != 0) << 63) | ((uint64_t)ieeeExponent << 52) |
                       ieeeMantissa);
}

START_TEST(ryu_published_cases)
{
    const uint64_t maxMantissa = ((uint64_t)1 << 53) - 1;
    const int no = 0; /* Ryu's tests pass C++'s false as the sign */
    const struct { const char *ryu; double v; } cases[] = {
        {"0E0", 0.0},
        {"-0E0", -0.0},
        {"1E0", 1.0},
        {"-1E0", -1.0},
        {"2.2250738585072014E-308", 2.2250738585072014E-308},
        {"1.7976931348623157E308", int64Bits2Double(0x7fefffffffffffff)},
        {"5E-324", int64Bits2Double(1)},
        {"2.9802322387695312E-8", 2.98023223876953125E-8},
        {"-2.109808898695963E16", -2.109808898695963E16},
        {"4.940656E-318", 4.940656E-318},
        {"1.18575755E-316", 1.18575755E-316},
        {"2.989102097996E-312", 2.989102097996E-312},
        {"9.0608011534336E15", 9.0608011534336E15},
        {"4.708356024711512E18", 4.708356024711512E18},
        {"9.409340012568248E18", 9.409340012568248E18},
        {"1.2345678E0", 1.2345678},
        {"5.764607523034235E39", int64Bits2Double(0x4830F0CF064DD592)},
        {"1.152921504606847E40", int64Bits2Double(0x4840F0CF064DD592)},
        {"2.305843009213694E40", int64Bits2Double(0x4850F0CF064DD592)},
        {"1E0", 1},
        {"1.2E0", 1.2},
        {"1.23E0", 1.23},
        {"1.234E0", 1.234},
        {"1.2345E0", 1.2345},
        {"1.23456E0", 1.23456},
        {"1.234567E0", 1.234567},
        {"1.2345678E0", 1.2345678},
        {"1.23456789E0", 1.23456789},
        {"1.234567895E0", 1.234567895},
        {"1.2345678901E0", 1.2345678901},
        {"1.23456789012E0", 1.23456789012},
        {"1.234567890123E0", 1.234567890123},
        {"1.2345678901234E0", 1.2345678901234},
        {"1.23456789012345E0", 1.23456789012345},
        {"1.234567890123456E0", 1.234567890123456},
        {"1.2345678901234567E0", 1.2345678901234567},
        {"4.294967294E0", 4.294967294},
        {"4.294967295E0", 4.294967295},
        {"4.294967296E0", 4.294967296},
        {"4.294967297E0", 4.294967297},
        {"4.294967298E0", 4.294967298},
        {"1.7800590868057611E-307", ieeeParts2Double(no, 4, 0)},
        {"2.8480945388892175E-306", ieeeParts2Double(no, 6, maxMantissa)},
        {"2.446494580089078E-296", ieeeParts2Double(no, 41, 0)},
        {"4.8929891601781557E-296", ieeeParts2Double(no, 40, maxMantissa)},
        {"1.8014398509481984E16", ieeeParts2Double(no, 1077, 0)},
        {"3.6028797018963964E16", ieeeParts2Double(no, 1076, maxMantissa)},
        {"2.900835519859558E-216", ieeeParts2Double(no, 307, 0)},
        {"5.801671039719115E-216", ieeeParts2Double(no, 306, maxMantissa)},
        {"3.196104012172126E-27", ieeeParts2Double(no, 934, 0x000FA7161A4D6E0Cu)},
        {"9.007199254740991E15", 9007199254740991.0},
        {"9.007199254740992E15", 9007199254740992.0},
        {"1E0", 1.0e+0},
        {"1.2E1", 1.2e+1},
        {"1.23E2", 1.23e+2},
        {"1.234E3", 1.234e+3},
        {"1.2345E4", 1.2345e+4},
        {"1.23456E5", 1.23456e+5},
        {"1.234567E6", 1.234567e+6},
        {"1.2345678E7", 1.2345678e+7},
        {"1.23456789E8", 1.23456789e+8},
        {"1.23456789E9", 1.23456789e+9},
        {"1.234567895E9", 1.234567895e+9},
        {"1.2345678901E10", 1.2345678901e+10},
        {"1.23456789012E11", 1.23456789012e+11},
        {"1.234567890123E12", 1.234567890123e+12},
        {"1.2345678901234E13", 1.2345678901234e+13},
        {"1.23456789012345E14", 1.23456789012345e+14},
        {"1.234567890123456E15", 1.234567890123456e+15},
        {"1E0", 1.0e+0},
        {"1E1", 1.0e+1},
        {"1E2", 1.0e+2},
        {"1E3", 1.0e+3},
        {"1E4", 1.0e+4},
        {"1E5", 1.0e+5},
        {"1E6", 1.0e+6},
        {"1E7", 1.0e+7},
        {"1E8", 1.0e+8},
        {"1E9", 1.0e+9},
        {"1E10", 1.0e+10},
        {"1E11", 1.0e+11},
        {"1E12", 1.0e+12},
        {"1E13", 1.0e+13},
        {"1E14", 1.0e+14},
        {"1E15", 1.0e+15},
        {"1.000000000000001E15", 1.0e+15 + 1.0e+0},
        {"1.00000000000001E15", 1.0e+15 + 1.0e+1},
        {"1.0000000000001E15", 1.0e+15 + 1.0e+2},
        {"1.000000000001E15", 1.0e+15 + 1.0e+3},
        {"1.00000000001E15", 1.0e+15 + 1.0e+4},
        {"1.0000000001E15", 1.0e+15 + 1.0e+5},
        {"1.000000001E15", 1.0e+15 + 1.0e+6},
        {"1.00000001E15", 1.0e+15 + 1.0e+7},
        {"1.0000001E15", 1.0e+15 + 1.0e+8},
        {"1.000001E15", 1.0e+15 + 1.0e+9},
        {"1.00001E15", 1.0e+15 + 1.0e+10},
        {"1.0001E15", 1.0e+15 + 1.0e+11},
        {"1.001E15", 1.0e+15 + 1.0e+12},
        {"1.01E15", 1.0e+15 + 1.0e+13},
        {"1.1E15", 1.0e+15 + 1.0e+14},
        {"8E0", 8.0},
        {"6.4E1", 64.0},
        {"5.12E2", 512.0},
        {"8.192E3", 8192.0},
        {"6.5536E4", 65536.0},
        {"5.24288E5", 524288.0},
        {"8.388608E6", 8388608.0},
        {"6.7108864E7", 67108864.0},
        {"5.36870912E8", 536870912.0},
        {"8.589934592E9", 8589934592.0},
        {"6.8719476736E10", 68719476736.0},
        {"5.49755813888E11", 549755813888.0},
        {"8.796093022208E12", 8796093022208.0},
        {"7.0368744177664E13", 70368744177664.0},
        {"5.62949953421312E14", 562949953421312.0},
        {"9.007199254740992E15", 9007199254740992.0},
        {"8E3", 8.0e+3},
        {"6.4E4", 64.0e+3},
        {"5.12E5", 512.0e+3},
        {"8.192E6", 8192.0e+3},
        {"6.5536E7", 65536.0e+3},
        {"5.24288E8", 524288.0e+3},
        {"8.388608E9", 8388608.0e+3},
        {"6.7108864E10", 67108864.0e+3},
        {"5.36870912E11", 536870912.0e+3},
        {"8.589934592E12", 8589934592.0e+3},
        {"6.8719476736E13", 68719476736.0e+3},
        {"5.49755813888E14", 549755813888.0e+3},
        {"8.796093022208E15", 8796093022208.0e+3},
    };
    size_t i;

    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char t[TOOLGOV__JSON_NUMBER_MAX + 1], gd[32], wd[32];
        int ge, we;
        size_t n = toolgov__json_double_text(t, cases[i].v);

        t[n] = '\0';
        sci(t, gd, &ge);
        sci(cases[i].ryu, wd, &we);
        ck_assert_msg(strcmp(gd, wd) == 0 && (ge == we || cases[i].v == 0),
                      "Ryu prints %s, we print %s", cases[i].ryu, t);
        ck_assert_msg((t[0] == '-') == (cases[i].ryu[0] == '-'), "sign of %s: %s",
                      cases[i].ryu, t);
        check_value(cases[i].v);
    }
}
END_TEST

/* ---- the C library's round trip, and the old printer's bytes ---- */

START_TEST(random_bit_patterns)
{
    unsigned long i, n = samples();

    seed();
    for (i = 0; i < n; i++)
        check_value(bits_double(rng()));
}
END_TEST

/* Decimals as calls send them: 1 to 17 random digits, exponents near 0
** and across the whole range. */
START_TEST(random_decimals)
{
    unsigned long i, n = samples();
    char text[64];

    seed();
    rng();
    for (i = 0; i < n; i++) {
        uint64_t r = rng();
        int nd = 1 + (int)(r % 17), k, o = 0;
        int e = (i & 1) ? (int)((r >> 8) % 40) - 20 : (int)((r >> 8) % 660) - 340;

        for (k = 0; k < nd; k++)
            text[o++] = (char)('0' + rng() % 10);
        snprintf(text + o, sizeof text - (size_t)o, "e%d", e);
        check_value(strtod(text, NULL));
    }
}
END_TEST

START_TEST(subnormals)
{
    unsigned long i, n = samples() / 4;
    int k;

    seed();
    check_around(DBL_MIN);
    check_around(bits_double(1));
    check_around(bits_double(0x000FFFFFFFFFFFFFull));
    for (k = 0; k < 52; k++) {
        check_value(bits_double((uint64_t)1 << k));
        check_value(bits_double(((uint64_t)1 << (k + 1)) - 1));
    }
    for (i = 0; i < n; i++)
        check_value(bits_double(rng() & 0x800FFFFFFFFFFFFFull));
}
END_TEST

START_TEST(powers_and_boundaries)
{
    char text[32];
    int k;
    long long j;

    for (k = -330; k <= 310; k++) {
        snprintf(text, sizeof text, "1e%d", k);
        check_around(strtod(text, NULL));
        snprintf(text, sizeof text, "5e%d", k);
        check_around(strtod(text, NULL));
        snprintf(text, sizeof text, "9.999999999999999e%d", k);
        check_around(strtod(text, NULL));
    }
    for (k = -1074; k <= 1023; k++)
        check_around(ldexp(1, k));
    check_value(0.0);
    check_value(-0.0);
    check_around(DBL_MAX);
    check_around(9007199254740992.0); /* 2^53 */
    check_around(1e21);
    check_around(1e-6);
    check_around(1e-7);
    check_around(0.1);
    check_around(0.1 + 0.2);
    check_around(4294967296.0);
    check_around(9223372036854775807.0);
    for (j = -100000; j <= 100000; j++)
        check_value((double)j);
    for (j = 1; j < 100000; j++)
        check_value((double)j / 1000.0);
}
END_TEST

static int word_byte(char c)
{
    return c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* The reader's double of a number text (when the text is one JSON
** number) is strtod's, bit for bit, or refused where strtod overflows. */
static void read_as_strtod(const char *tok)
{
    toolgov__scratch a;
    toolgov__json_doc doc;
    toolgov__json_error err;
    double d = 0, want = strtod(tok, NULL);

    toolgov__scratch_init(&a, NULL);
    if (toolgov__json_parse(&doc, &err, &a, tok, strlen(tok), 4, 1024, 0) == 0 &&
        doc.nodes[0].type == TOOLGOV__JSON_NUMBER) {
        int rc = toolgov__json_double(&doc.nodes[0], &d);

        if (isinf(want))
            ck_assert_msg(rc == TOOLGOV_EINVAL, "%s: read, strtod overflows", tok);
        else
            ck_assert_msg(rc == 0 && memcmp(&d, &want, sizeof d) == 0,
                          "%s: read as %.17g, strtod %.17g", tok, d, want);
    }
    toolgov__scratch_free(&a);
}

/* Every number text in a file (the JSON number grammar's bytes, not inside
** a longer word), read by strtod and printed, and read by the reader. */
static void numbers_in(const char *path)
{
    static char buf[1 << 20];
    FILE *f = fopen(path, "rb");
    size_t len, i = 0;

    if (!f)
        return;
    len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    while (i < len) {
        size_t s = i, j = i;
        char tok[800];

        if (!(buf[i] == '-' || (buf[i] >= '0' && buf[i] <= '9')) ||
            (i > 0 && word_byte(buf[i - 1]))) {
            i++;
            continue;
        }
        if (buf[j] == '-')
            j++;
        while (j < len && ((buf[j] >= '0' && buf[j] <= '9') || buf[j] == '.' ||
                           buf[j] == 'e' || buf[j] == 'E' ||
                           ((buf[j] == '+' || buf[j] == '-') &&
                            (buf[j - 1] == 'e' || buf[j - 1] == 'E'))))
            j++;
        if (j - s > (buf[s] == '-' ? 1u : 0u)) {
            size_t n = j - s < sizeof tok - 1 ? j - s : sizeof tok - 1;

            memcpy(tok, buf + s, n);
            tok[n] = '\0';
            check_value(strtod(tok, NULL));
            read_as_strtod(tok);
        }
        i = j > i ? j : i + 1;
    }
}

static void numbers_under(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    ck_assert_msg(d != NULL, "cannot open %s", dir);
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        struct stat st;

        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            numbers_under(path);
        else
            numbers_in(path);
    }
    closedir(d);
}

START_TEST(numbers_of_the_test_data)
{
    unsigned long long before = checked;

    numbers_under(TOOLGOV_TESTDATA_DIR "/JSONTestSuite/test_parsing");
    numbers_under(TOOLGOV_SOURCE_DIR "/tests/fuzz/corpus");
    numbers_under(TOOLGOV_SOURCE_DIR "/tests/fuzz/regress");
    numbers_under(TOOLGOV_SOURCE_DIR "/tests/args");
    numbers_under(TOOLGOV_SOURCE_DIR "/tests/hostile");
    ck_assert_uint_gt(checked - before, 1000);
}
END_TEST

/* The decoder copies a number text that already is its double's canonical
** spelling (toolgov__json_put_number_double): for every kind of text, the
** same bytes as printing the double. */
static void copy_or_print_same(toolgov__scratch *a, const char *text)
{
    toolgov__json_doc doc;
    toolgov__json_error err;
    toolgov__jbuf x, y;
    double v;

    toolgov__scratch_reset(a);
    ck_assert_msg(toolgov__json_parse(&doc, &err, a, text, strlen(text), 4, 1024, 0) == 0,
                  "%s: %s", text, err.msg);
    if (toolgov__json_double(&doc.nodes[0], &v) != 0)
        return;
    toolgov__jbuf_init(&x, NULL);
    toolgov__jbuf_init(&y, NULL);
    toolgov__json_put_number_double(&x, &doc.nodes[0], v);
    toolgov__json_put_double(&y, v);
    ck_assert_int_eq(toolgov__jbuf_finish(&x), 0);
    ck_assert_int_eq(toolgov__jbuf_finish(&y), 0);
    ck_assert_msg(strcmp(x.ptr, y.ptr) == 0, "%s: copied as %s, printed as %s", text, x.ptr,
                  y.ptr);
    toolgov__jbuf_free(&x);
    toolgov__jbuf_free(&y);
    checked++;
}

START_TEST(number_texts_copied_only_when_canonical)
{
    static const char *const fixed[] = {
        "0", "-0", "0.0", "-0.0", "1", "-1", "10", "1000", "1.0", "1.50", "0.5", "-0.25",
        "47.3769", "0.000001", "0.0000001", "0.0000012", "1e2", "1E-7", "1.5e+3",
        "123456789012345", "1234567890123456", "999999999999999.9", "0.1", "0.30000000000000004",
        "100000000000000000000", "1000000000000000000000", "9007199254740993", "2.5",
        "-123.456", "0.100", "5e-324", "1.7976931348623157e308"};
    toolgov__scratch a;
    unsigned long i, n = samples();
    size_t k;
    char text[64];

    toolgov__scratch_init(&a, NULL);
    for (k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
        copy_or_print_same(&a, fixed[k]);
    seed();
    for (i = 0; i < n; i++) {
        uint64_t r = rng();
        int nd = 1 + (int)(r % 18), lead = (int)((r >> 8) % 8), pt = (int)((r >> 16) % 20), o = 0,
            d;

        if (r & (1ull << 40))
            text[o++] = '-';
        if (lead && pt == 0) {
            text[o++] = '0';
            text[o++] = '.';
            for (d = 1; d < lead; d++)
                text[o++] = '0';
        }
        for (d = 0; d < nd; d++) {
            if (d == pt && d > 0)
                text[o++] = '.';
            text[o++] = (char)((d == 0 && !(lead && pt == 0) ? '1' : '0') +
                               (char)(rng() % (d == 0 && !(lead && pt == 0) ? 9 : 10)));
        }
        text[o] = '\0';
        copy_or_print_same(&a, text);
    }
    toolgov__scratch_free(&a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("numbers");
    TCase *tc = tcase_create("printer");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, ryu_published_cases);
    tcase_add_test(tc, random_bit_patterns);
    tcase_add_test(tc, random_decimals);
    tcase_add_test(tc, subnormals);
    tcase_add_test(tc, powers_and_boundaries);
    tcase_add_test(tc, numbers_of_the_test_data);
    tcase_add_test(tc, number_texts_copied_only_when_canonical);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("numbers: %llu values printed as the old printer did, each read back\n", checked);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
