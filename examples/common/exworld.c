/* SPDX-License-Identifier: MIT */
/*
** exworld.c: the fixed world of the examples and the date helpers over it.
*/
#include "exworld.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const exworld_event exworld_events[] = {
    {"2026-12-01", "09:30", "10:00", "Team stand-up", "Room 4.12"},
    {"2026-12-01", "12:30", "13:30", "Lunch with Ana", "Cafe Lisboa"},
    {"2026-12-01", "16:00", "17:00", "Dentist", "Dr. Okafor, Elm Street 8"},
    {"2026-12-02", "10:00", "11:30", "Quarterly planning", "Room 2.01"},
    {"2026-12-03", "18:00", "19:00", "Yoga class", "Studio Nord"},
    {"2026-12-05", "11:00", "13:00", "Farmers market with kids", "Old Square"},
    {"2026-12-08", "14:00", "15:00", "Car service", "Garage Meyer"},
};
const size_t exworld_event_count = sizeof exworld_events / sizeof exworld_events[0];

const exworld_bill exworld_bills[] = {
    {"Electricity", "City Power", "2026-12-03", 8420, 0},
    {"Internet", "Fibrenet", "2026-12-05", 3999, 1},
    {"Rent", "Harbour Homes", "2026-12-07", 125000, 0},
    {"Car insurance", "Safe Drive", "2026-12-12", 41275, 0},
    {"Phone", "Telco One", "2026-12-20", 1999, 1},
    {"Water", "City Water", "2026-11-24", 3210, 0},
};
const size_t exworld_bill_count = sizeof exworld_bills / sizeof exworld_bills[0];

/* Howard Hinnant's days_from_civil: exact for every Gregorian date. */
static long days_from_civil(long y, unsigned m, unsigned d)
{
    long era;
    unsigned yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned)(y - era * 400);
    doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long)doe - 719468;
}

static void civil_from_days(long z, long *y, unsigned *m, unsigned *d)
{
    long era;
    unsigned doe, yoe, doy, mp;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = (unsigned)(z - era * 146097);
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    *y = (long)yoe + era * 400;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y += *m <= 2;
}

static int digits(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

int exworld_parse_date(const char *text, long *out)
{
    return text ? exworld_parse_date_n(text, strlen(text), out) : -1;
}

int exworld_parse_date_n(const char *text, size_t len, long *out)
{
    long y;
    unsigned m, d, mdays;
    static const unsigned month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    if (!text || len != 10 || !digits(text, 4) || text[4] != '-' ||
        !digits(text + 5, 2) || text[7] != '-' || !digits(text + 8, 2))
        return -1;
    y = (text[0] - '0') * 1000 + (text[1] - '0') * 100 + (text[2] - '0') * 10 + (text[3] - '0');
    m = (unsigned)((text[5] - '0') * 10 + (text[6] - '0'));
    d = (unsigned)((text[8] - '0') * 10 + (text[9] - '0'));
    if (y < 1900 || m < 1 || m > 12 || d < 1)
        return -1;
    mdays = month_days[m - 1];
    if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
        mdays = 29;
    if (d > mdays)
        return -1;
    *out = days_from_civil(y, m, d);
    return 0;
}

void exworld_format_date(long day, char out[11])
{
    long y;
    unsigned m, d;
    civil_from_days(day, &y, &m, &d);
    snprintf(out, 11, "%04lu-%02u-%02u", (unsigned long)(y < 0 ? 0 : y) % 10000u, m % 100u,
             d % 100u);
}

const char *exworld_weekday(long day)
{
    static const char *const names[] = {"Thursday", "Friday", "Saturday", "Sunday",
                                        "Monday", "Tuesday", "Wednesday"};
    long i = day % 7;
    return names[i < 0 ? i + 7 : i];
}

int exworld_check_time(const char *text)
{
    if (!text || strlen(text) != 5 || !digits(text, 2) || text[2] != ':' ||
        !digits(text + 3, 2))
        return -1;
    if ((text[0] - '0') * 10 + (text[1] - '0') > 23 ||
        (text[3] - '0') * 10 + (text[4] - '0') > 59)
        return -1;
    return 0;
}

int exworld_contains(const char *hay, const char *needle)
{
    return exworld_contains_n(hay, needle, strlen(needle));
}

int exworld_contains_n(const char *hay, const char *needle, size_t n)
{
    size_t i, j;
    if (n == 0)
        return 1;
    for (i = 0; hay[i]; i++) {
        for (j = 0; j < n && hay[i + j]; j++)
            if (tolower((unsigned char)hay[i + j]) != tolower((unsigned char)needle[j]))
                break;
        if (j == n)
            return 1;
    }
    return 0;
}

int exworld_words_match(const char *hay, const char *query, size_t query_len, size_t min_len)
{
    const char *p = query, *end = query + query_len;
    while (p < end) {
        char word[64];
        size_t n = 0;
        while (p < end && !isalnum((unsigned char)*p))
            p++;
        while (p < end && isalnum((unsigned char)*p)) {
            if (n + 1 < sizeof word)
                word[n++] = *p;
            p++;
        }
        if (n > min_len && (word[n - 1] == 's' || word[n - 1] == 'S'))
            n--;
        word[n] = '\0';
        if (n >= min_len && n > 0 && exworld_contains(hay, word))
            return 1;
    }
    return 0;
}

int exworld_refuse(toolgov_result *out, const char *tool, const char *fmt, ...)
{
    va_list ap;
    int rc;

    if (toolgov_result_set(out, "", 0) || toolgov_result_printf(out, "error: %s: ", tool))
        return TOOLGOV_ENOMEM;
    va_start(ap, fmt);
    rc = toolgov_result_vprintf(out, fmt, ap);
    va_end(ap);
    return rc ? TOOLGOV_ENOMEM : TOOLGOV_EUSAGE;
}
