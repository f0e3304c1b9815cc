/* SPDX-License-Identifier: MIT */
/*
** args_format.c: the checked string formats of declared arguments.
**
** date       YYYY-MM-DD, a day that exists (leap years included).
** time       HH:MM or HH:MM:SS, then an optional fraction (after seconds
**            only) and an optional offset (Z or +HH:MM / -HH:MM). Models
**            often send HH:MM, so it is accepted; seconds may be 60 (leap).
** date-time  RFC 3339 section 5.6: full-date "T" full-time, seconds and
**            offset required ("t" and "z" accepted as the RFC allows).
** email      local-part "@" domain, RFC 5321's shape: a dot-atom local
**            part (or a quoted string: qtextSMTP and quoted-pairSMTP,
**            printable ASCII only, so no backslash smuggles a CR, LF or
**            NUL into a header) of at most 64 bytes, a domain of
**            dot-separated LDH labels (at most 63 bytes each) or an address
**            literal in brackets (IPv4, "IPv6:" and an IPv6 address, or a
**            tag, ":" and printable ASCII), at most 254 bytes in all.
** uri        RFC 3986 URI: a scheme (a letter, then letters, digits, "+",
**            "-", "."), ":", a hierarchical part (after "//" an authority:
**            [userinfo "@"] host [":" port], the host a bracketed IPv6 or
**            IPvFuture literal, an IPv4 address or a registered name, the
**            port digits), an optional "?" query and "#" fragment; only
**            characters each part may hold, every "%" followed by two hex
**            digits.
**
** Each check reads `len` bytes of already well-formed UTF-8 and allocates
** nothing. Before any of them, one rule for every checked format: a value
** with a control character (C0, DEL, C1) is not of the format, whatever
** the format's own grammar would say (a handler puts these values in mail
** headers, URLs, file names and logs).
*/
#include "args_internal.h"

#include <string.h>

static int digits(const char *s, size_t n, unsigned *out)
{
    unsigned v = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return 1;
}

static int is_date(const char *s, size_t len)
{
    static const unsigned mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    unsigned y, m, d;

    if (len != 10 || s[4] != '-' || s[7] != '-' || !digits(s, 4, &y) ||
        !digits(s + 5, 2, &m) || !digits(s + 8, 2, &d))
        return 0;
    if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
        return 0;
    if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
        return 0;
    return 1;
}

/* HH:MM[:SS[.frac]][offset]; `strict` (date-time) wants seconds and an
** offset. */
static int is_time(const char *s, size_t len, int strict)
{
    unsigned h, m, sec, oh, om;
    size_t i = 5;

    if (len < 5 || s[2] != ':' || !digits(s, 2, &h) || !digits(s + 3, 2, &m) ||
        h > 23 || m > 59)
        return 0;
    if (i < len && s[i] == ':') {
        if (len - i < 3 || !digits(s + i + 1, 2, &sec) || sec > 60)
            return 0;
        i += 3;
        if (i < len && s[i] == '.') {
            size_t start = ++i;

            while (i < len && s[i] >= '0' && s[i] <= '9')
                i++;
            if (i == start)
                return 0;
        }
    } else if (strict) {
        return 0;
    }
    if (i == len)
        return !strict;
    if ((s[i] == 'Z' || s[i] == 'z') && i + 1 == len)
        return 1;
    if ((s[i] == '+' || s[i] == '-') && len - i == 6 && s[i + 3] == ':' &&
        digits(s + i + 1, 2, &oh) && digits(s + i + 4, 2, &om) && oh <= 23 && om <= 59)
        return 1;
    return 0;
}

static int is_date_time(const char *s, size_t len)
{
    return len > 11 && is_date(s, 10) && (s[10] == 'T' || s[10] == 't') &&
           is_time(s + 11, len - 11, 1);
}

static int is_atext(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-/=?^_`{|}~", c) != NULL);
}

static int is_ldh(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-';
}

static int is_ipv4(const char *s, size_t len);
static int is_ipv6(const char *s, size_t len);

static int is_email(const char *s, size_t len)
{
    const char *at = NULL;
    size_t i, local, label = 0;

    if (len > 254)
        return 0;
    /* The last '@' ends the local part (a quoted local part may hold '@'). */
    for (i = len; i > 0; i--)
        if (s[i - 1] == '@') {
            at = s + i - 1;
            break;
        }
    if (!at)
        return 0;
    local = (size_t)(at - s);
    if (local == 0 || local > 64)
        return 0;
    if (s[0] == '"') {
        if (local < 2 || s[local - 1] != '"')
            return 0;
        /* RFC 5321: qtextSMTP is %d32-33 / %d35-91 / %d93-126 and
        ** quoted-pairSMTP is "\\" then %d32-126: printable ASCII only. */
        for (i = 1; i + 1 < local; i++) {
            unsigned char c = (unsigned char)s[i];

            if (c == '\\') {
                if (++i + 1 >= local)
                    return 0;
                c = (unsigned char)s[i];
                if (c < 32 || c > 126)
                    return 0;
            } else if (c == '"' || c < 32 || c > 126) {
                return 0;
            }
        }
    } else {
        for (i = 0; i < local; i++) {
            unsigned char c = (unsigned char)s[i];

            if (c == '.') {
                if (i == 0 || i + 1 == local || s[i + 1] == '.')
                    return 0;
            } else if (!is_atext(c)) {
                return 0;
            }
        }
    }
    s = at + 1;
    len -= local + 1;
    if (len == 0)
        return 0;
    if (s[0] == '[') {
        /* RFC 5321's address literal: IPv4, "IPv6:" and an IPv6 address,
        ** or a standardised tag, ":" and printable ASCII but "[", "\\", "]". */
        size_t k, tag;

        if (len < 3 || s[len - 1] != ']')
            return 0;
        if (is_ipv4(s + 1, len - 2))
            return 1;
        if (len > 7 && memcmp(s + 1, "IPv6:", 5) == 0)
            return is_ipv6(s + 6, len - 7);
        for (tag = 1; tag < len - 1 && (is_ldh((unsigned char)s[tag])); tag++)
            ;
        if (tag == 1 || s[tag - 1] == '-' || tag >= len - 2 || s[tag] != ':')
            return 0;
        for (k = tag + 1; k < len - 1; k++) {
            unsigned char c = (unsigned char)s[k];

            if (c < 33 || c > 126 || c == '[' || c == '\\' || c == ']')
                return 0;
        }
        return 1;
    }
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c == '.') {
            if (label == 0 || s[i - 1] == '-')
                return 0;
            label = 0;
        } else if (is_ldh(c)) {
            if (label == 0 && c == '-')
                return 0;
            if (++label > 63)
                return 0;
        } else {
            return 0;
        }
    }
    return label > 0 && s[len - 1] != '-';
}

static int is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int is_alpha(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int is_unreserved(unsigned char c)
{
    return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

static int is_sub_delim(unsigned char c)
{
    return c != '\0' && strchr("!$&'()*+,;=", c) != NULL;
}

/* Characters of `s[i..j)` each unreserved, a sub-delim, one of `extra`, or
** "%" and two hex digits (RFC 3986's pct-encoded). */
static int uri_chars(const char *s, size_t i, size_t j, const char *extra)
{
    for (; i < j; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c == '%') {
            if (j - i < 3 || !is_hex((unsigned char)s[i + 1]) ||
                !is_hex((unsigned char)s[i + 2]))
                return 0;
            i += 2;
        } else if (!is_unreserved(c) && !is_sub_delim(c) &&
                   (c == '\0' || strchr(extra, c) == NULL)) {
            return 0;
        }
    }
    return 1;
}

/* IPv4address: four decimal octets, no leading zeros. */
static int is_ipv4(const char *s, size_t len)
{
    size_t i = 0, part;

    for (part = 0; part < 4; part++) {
        unsigned v = 0, n = 0;

        if (part && (i >= len || s[i++] != '.'))
            return 0;
        while (i < len && is_digit((unsigned char)s[i]) && n < 4) {
            v = v * 10 + (unsigned)(s[i++] - '0');
            n++;
        }
        if (n == 0 || n > 3 || v > 255 || (n > 1 && s[i - n] == '0'))
            return 0;
    }
    return i == len;
}

/* IPv6address (RFC 4291 text form): eight groups of 1-4 hex digits, one
** "::" standing for one or more zero groups, the last two groups maybe an
** IPv4 address. */
static int is_ipv6(const char *s, size_t len)
{
    size_t i = 0, groups = 0;
    int gap = 0;

    if (len >= 2 && s[0] == ':' && s[1] == ':') {
        gap = 1;
        i = 2;
        if (i == len)
            return 1;
    } else if (len && s[0] == ':') {
        return 0;
    }
    for (;;) {
        size_t start = i, n = 0;

        while (i < len && is_hex((unsigned char)s[i]) && n < 5) {
            i++;
            n++;
        }
        if (i < len && s[i] == '.') {
            /* The IPv4 tail: two groups. */
            if (!is_ipv4(s + start, len - start))
                return 0;
            groups += 2;
            break;
        }
        if (n == 0 || n > 4)
            return 0;
        groups++;
        if (i == len)
            break;
        if (s[i] != ':')
            return 0;
        i++;
        if (i < len && s[i] == ':') {
            if (gap)
                return 0;
            gap = 1;
            i++;
            if (i == len)
                break;
        } else if (i == len) {
            return 0; /* a trailing single ':' */
        }
    }
    return gap ? groups < 8 : groups == 8;
}

/* IP-literal: "[" IPv6address or IPvFuture "]" (the brackets included). */
static int is_ip_literal(const char *s, size_t len)
{
    size_t i;

    if (len < 3 || s[0] != '[' || s[len - 1] != ']')
        return 0;
    s++;
    len -= 2;
    if (s[0] == 'v' || s[0] == 'V') {
        for (i = 1; i < len && is_hex((unsigned char)s[i]); i++)
            ;
        return i > 1 && i + 1 < len && s[i] == '.' && uri_chars(s, i + 1, len, ":");
    }
    return is_ipv6(s, len);
}

/* RFC 3986 URI: scheme ":" hier-part ["?" query] ["#" fragment], with an
** authority after "//" of [userinfo "@"] host [":" port], the host an IP
** literal in brackets, an IPv4 address or a registered name. */
static int is_uri(const char *s, size_t len)
{
    size_t i = 0, end, q, h;

    if (len == 0 || !is_alpha((unsigned char)s[0]))
        return 0;
    while (i < len && s[i] != ':') {
        unsigned char c = (unsigned char)s[i];

        if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.')
            return 0;
        i++;
    }
    if (i == len)
        return 0;
    i++;
    /* The fragment, then the query, from the first "#" and "?". */
    for (end = i; end < len && s[end] != '#'; end++)
        ;
    if (end < len && !uri_chars(s, end + 1, len, ":@/?"))
        return 0;
    for (q = i; q < end && s[q] != '?'; q++)
        ;
    if (q < end && !uri_chars(s, q + 1, end, ":@/?"))
        return 0;
    if (q - i >= 2 && s[i] == '/' && s[i + 1] == '/') {
        size_t a = i + 2, path, at, port;

        for (path = a; path < q && s[path] != '/'; path++)
            ;
        /* userinfo "@": the last "@" of the authority */
        for (at = path; at > a && s[at - 1] != '@'; at--)
            ;
        h = a;
        if (at > a) {
            if (!uri_chars(s, a, at - 1, ":"))
                return 0;
            h = at;
        }
        if (h < path && s[h] == '[') {
            size_t close = h;

            while (close < path && s[close] != ']')
                close++;
            if (close == path || !is_ip_literal(s + h, close + 1 - h))
                return 0;
            port = close + 1;
            if (port < path && s[port] != ':')
                return 0;
        } else {
            for (port = h; port < path && s[port] != ':'; port++)
                ;
            if (!uri_chars(s, h, port, ""))
                return 0;
        }
        if (port < path) {
            size_t k;

            for (k = port + 1; k < path; k++)
                if (!is_digit((unsigned char)s[k]))
                    return 0;
        }
        i = path;
    }
    return uri_chars(s, i, q, ":@/");
}

/* 1 when the text holds a control character: C0 (U+0000..U+001F), DEL,
** or C1 (U+0080..U+009F, UTF-8 0xC2 0x80..0x9F). */
static int has_control(const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c < 0x20 || c == 0x7F ||
            (c == 0xC2 && i + 1 < len && (unsigned char)s[i + 1] <= 0x9F))
            return 1;
    }
    return 0;
}

int toolgov__args_format_ok(toolgov_arg_format f, const char *s, size_t len)
{
    if (f != TOOLGOV_FORMAT_NONE && has_control(s, len))
        return 0;
    switch (f) {
    case TOOLGOV_FORMAT_DATE: return is_date(s, len);
    case TOOLGOV_FORMAT_TIME: return is_time(s, len, 0);
    case TOOLGOV_FORMAT_DATE_TIME: return is_date_time(s, len);
    case TOOLGOV_FORMAT_EMAIL: return is_email(s, len);
    case TOOLGOV_FORMAT_URI: return is_uri(s, len);
    case TOOLGOV_FORMAT_NONE:
    default: return 1;
    }
}

const char *toolgov__args_format_desc(toolgov_arg_format f)
{
    switch (f) {
    case TOOLGOV_FORMAT_DATE: return "a date (YYYY-MM-DD)";
    case TOOLGOV_FORMAT_TIME: return "a time (HH:MM or HH:MM:SS, optional fraction and offset)";
    case TOOLGOV_FORMAT_DATE_TIME: return "a date-time (RFC 3339, e.g. 2026-03-12T09:30:00Z)";
    case TOOLGOV_FORMAT_EMAIL: return "an email address (name@example.com)";
    case TOOLGOV_FORMAT_URI: return "an absolute URI (scheme:rest, e.g. https://example.com/)";
    case TOOLGOV_FORMAT_NONE:
    default: return "a string";
    }
}
