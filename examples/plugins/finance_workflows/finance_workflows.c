/* SPDX-License-Identifier: MIT */
/*
** finance_workflows.c: bills, dues, holdings and net worth over built-in
** data. Nothing here changes, so the plugin needs no context at mount.
**
** upcoming_dues writes one due per line in a fixed, documented form
** ("- YYYY-MM-DD | name | payee | amount"): a model, scripted or real, reads
** the dues from the output instead of guessing them.
*/
#include <stdio.h>
#include <string.h>

#include "exworld.h"
#include "finance_workflows.toolgov.h"

typedef struct holding {
    const char *ticker;
    const char *name;
    double shares;
    long price_cents;
    long cost_cents;  /* what the position cost in total */
} holding;

static const holding holdings[] = {
    {"VWCE", "Vanguard FTSE All-World ETF", 120.0, 13412, 1320000},
    {"EUNA", "iShares Core Euro Govt Bond ETF", 300.0, 4861, 1500000},
    {"ASML", "ASML Holding", 4.0, 68230, 240000},
};

/* Net worth at each month's end, oldest first, in euros. */
static const struct {
    const char *month;
    long euros;
} net_worth[] = {
    {"2025-12", 61250}, {"2026-01", 62010}, {"2026-02", 61480}, {"2026-03", 63320},
    {"2026-04", 64105}, {"2026-05", 64890}, {"2026-06", 63950}, {"2026-07", 65720},
    {"2026-08", 66410}, {"2026-09", 67180}, {"2026-10", 68240}, {"2026-11", 69035},
};

#define NET_WORTH_MONTHS (sizeof net_worth / sizeof net_worth[0])

static int money(toolgov_result *out, long cents)
{
    return toolgov_result_printf(out, "%s%ld.%02ld EUR", cents < 0 ? "-" : "",
                                 (cents < 0 ? -cents : cents) / 100,
                                 (cents < 0 ? -cents : cents) % 100);
}

FINANCE_WORKFLOWS_TOOLGOV_HANDLER(finance_lookup, call, args, out)
{
    const toolgov_str *query = &args->query;
    size_t i, found = 0;

    (void)call;
    for (i = 0; i < exworld_bill_count; i++) {
        const exworld_bill *b = &exworld_bills[i];
        if (!exworld_contains_n(b->name, query->ptr, query->len) &&
            !exworld_contains_n(b->payee, query->ptr, query->len))
            continue;
        if (toolgov_result_printf(out, "- %s (%s): ", b->name, b->payee) ||
            money(out, b->cents) ||
            toolgov_result_printf(out, ", due %s%s%s\n", b->due,
                                  strcmp(b->due, EXWORLD_TODAY) < 0 ? " (past)" : "",
                                  b->autopay ? ", paid automatically" : ""))
            return TOOLGOV_ENOMEM;
        found++;
    }
    if (!found && toolgov_result_printf(out, "No bills or payments match '%.*s'.",
                                        (int)query->len, query->ptr))
        return TOOLGOV_ENOMEM;
    return 0;
}

/* days is from 1 to 90, 14 when the call leaves it out (the manifest's
** minimum, maximum and default). */
FINANCE_WORKFLOWS_TOOLGOV_HANDLER(upcoming_dues, call, args, out)
{
    size_t order[64], n = 0, i, j;
    long days = (long)args->days, today, last;
    char until[11];

    (void)call;
    exworld_parse_date(EXWORLD_TODAY, &today);
    last = today + days - 1;
    for (i = 0; i < exworld_bill_count && n < 64; i++) {
        long due;
        if (exworld_parse_date(exworld_bills[i].due, &due) || due < today || due > last)
            continue;
        /* insertion sort by due date: the table is small */
        for (j = n; j > 0 && strcmp(exworld_bills[order[j - 1]].due, exworld_bills[i].due) > 0; j--)
            order[j] = order[j - 1];
        order[j] = i;
        n++;
    }
    exworld_format_date(last, until);
    if (n == 0)
        return toolgov_result_printf(out, "No bills due from %s to %s.", EXWORLD_TODAY, until)
                   ? TOOLGOV_ENOMEM : 0;
    if (toolgov_result_printf(out, "%lu bills due from %s to %s:\n", (unsigned long)n,
                              EXWORLD_TODAY, until))
        return TOOLGOV_ENOMEM;
    for (i = 0; i < n; i++) {
        const exworld_bill *b = &exworld_bills[order[i]];
        if (toolgov_result_printf(out, "- %s | %s | %s | ", b->due, b->name, b->payee) ||
            money(out, b->cents) ||
            toolgov_result_printf(out, "%s\n", b->autopay ? " | autopay" : ""))
            return TOOLGOV_ENOMEM;
    }
    return 0;
}

FINANCE_WORKFLOWS_TOOLGOV_HANDLER(portfolio, call, args, out)
{
    const toolgov_str *ticker = args->has.ticker ? &args->ticker : NULL;
    long total = 0, cost = 0;
    size_t i, shown = 0;

    for (i = 0; i < sizeof holdings / sizeof holdings[0]; i++) {
        const holding *h = &holdings[i];
        long value = (long)(h->shares * (double)h->price_cents + 0.5);
        if (ticker && (ticker->len != strlen(h->ticker) ||
                       !exworld_contains_n(h->ticker, ticker->ptr, ticker->len)))
            continue;
        if (toolgov_result_printf(out, "- %s %s: %.0f shares at ", h->ticker, h->name,
                                  h->shares) ||
            money(out, h->price_cents) || toolgov_result_printf(out, " = ") ||
            money(out, value) ||
            toolgov_result_printf(out, " (%+.1f%% on cost)\n",
                                  100.0 * (double)(value - h->cost_cents) /
                                      (double)h->cost_cents))
            return TOOLGOV_ENOMEM;
        total += value;
        cost += h->cost_cents;
        shown++;
    }
    if (!shown)
        return exworld_refuse(out, call->tool,
                              "no holding with ticker '%.*s' (held: VWCE, EUNA, ASML)",
                              ticker ? (int)ticker->len : 0, ticker ? ticker->ptr : "");
    if (!ticker && (toolgov_result_printf(out, "Total: ") || money(out, total) ||
                    toolgov_result_printf(out, " (%+.1f%% on cost)\n",
                                          100.0 * (double)(total - cost) / (double)cost)))
        return TOOLGOV_ENOMEM;
    return 0;
}

/* months is from 1 to 12 (the table's length), 6 by default. */
FINANCE_WORKFLOWS_TOOLGOV_HANDLER(net_worth_trend, call, args, out)
{
    long months = (long)args->months, first_value, last_value;
    size_t i, start;

    if (months < 1 || months > (long)NET_WORTH_MONTHS)
        return exworld_refuse(out, call->tool, "'months' is %ld, not from 1 to %lu", months,
                              (unsigned long)NET_WORTH_MONTHS);
    start = NET_WORTH_MONTHS - (size_t)months;
    for (i = start; i < NET_WORTH_MONTHS; i++) {
        long delta = i > 0 ? net_worth[i].euros - net_worth[i - 1].euros : 0;
        if (toolgov_result_printf(out, "- %s: %ld EUR (%+ld)\n", net_worth[i].month,
                                  net_worth[i].euros, delta))
            return TOOLGOV_ENOMEM;
    }
    first_value = start > 0 ? net_worth[start - 1].euros : net_worth[0].euros;
    last_value = net_worth[NET_WORTH_MONTHS - 1].euros;
    if (toolgov_result_printf(out, "Change over %ld months: %+ld EUR (%+.1f%%)\n", months,
                              last_value - first_value,
                              100.0 * (double)(last_value - first_value) / (double)first_value))
        return TOOLGOV_ENOMEM;
    return 0;
}
