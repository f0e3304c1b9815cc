/* SPDX-License-Identifier: MIT */
/*
** report.c: toolgov-demo's transcript: built event by event (for the
** host), printed as readable text and as JSON.
**
** The JSON form is one object per scenario on one line, keys in a fixed
** order, so a test can parse it or compare fields; the text form is for a
** person and shows every gate decision where it happens.
*/
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

/* ---- building a transcript --------------------------------------------------------- */

char *demo_tr_dup(demo_transcript *tr, const char *s, size_t n)
{
    char *d;
    if (!s)
        return NULL;
    d = malloc(n + 1);
    if (!d) {
        tr->failed = 1;
        return NULL;
    }
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *demo_tr_printf(demo_transcript *tr, const char *fmt, ...)
{
    va_list ap;
    char small[512], *big;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        tr->failed = 1;
        return NULL;
    }
    if ((size_t)n < sizeof small)
        return demo_tr_dup(tr, small, strlen(small));
    big = malloc((size_t)n + 1);
    if (!big) {
        tr->failed = 1;
        return NULL;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return big;
}

/* Print the events not printed yet, up to the first whose output is still
** to come (a live transcript shows each call with its output). */
void demo_tr_flush(demo_transcript *tr)
{
    if (!tr->live)
        return;
    while (tr->printed < tr->count && !tr->events[tr->printed].pending)
        demo_report_event(tr->live, &tr->events[tr->printed++]);
}

/* Append an event (copied by value, strings already owned). Returns its
** index, or (size_t)-1 when out of memory (its strings are freed). */
size_t demo_tr_add(demo_transcript *tr, const demo_event *ev)
{
    if (tr->count == tr->cap) {
        size_t cap = tr->cap ? tr->cap * 2 : 32;
        demo_event *e = realloc(tr->events, cap * sizeof *e);
        if (!e) {
            size_t i;
            tr->failed = 1;
            free(ev->tool);
            free(ev->args);
            free(ev->text);
            for (i = 0; i < ev->item_count; i++)
                free(ev->items[i]);
            free(ev->items);
            return (size_t)-1;
        }
        tr->events = e;
        tr->cap = cap;
    }
    tr->events[tr->count++] = *ev;
    demo_tr_flush(tr);
    return tr->count - 1;
}

char **demo_tr_items(demo_transcript *tr, size_t n)
{
    char **items = calloc(n ? n : 1, sizeof *items);
    if (!items)
        tr->failed = 1;
    return items;
}

void demo_transcript_free(demo_transcript *tr)
{
    size_t i, j;
    if (!tr)
        return;
    for (i = 0; i < tr->count; i++) {
        demo_event *e = &tr->events[i];
        free(e->tool);
        free(e->args);
        free(e->text);
        for (j = 0; j < e->item_count; j++)
            free(e->items[j]);
        free(e->items);
    }
    free(tr->events);
    free(tr->prompt);
    for (i = 0; i < tr->prompt_tool_count; i++)
        free(tr->prompt_tools[i]);
    free(tr->prompt_tools);
    free(tr->drift_text);
    free(tr->drift_json);
    free(tr->override);
    free(tr->grant);
    memset(tr, 0, sizeof *tr);
}

/* ---- text ----------------------------------------------------------------- */

/* Write n bytes of `s` as a person should see them (toolgov_text_shown:
** terminal escapes, controls, bidirectional and invisible characters
** escaped), so what the transcript shows is what the model wrote or the
** tool returned, and nothing in it can rewrite the terminal. */
static void shown_n(FILE *f, const char *s, size_t n)
{
    if (s)
        toolgov_text_shown_write(f, s, n, 0);
}

static void shown(FILE *f, const char *s)
{
    shown_n(f, s, s ? strlen(s) : 0);
}

/* Print text with every line indented by `prefix`; each line shown as
** shown_n() does (the line breaks are the text's own). With `raw` the text
** is already safe to show (the runtime's own rendering, or a question the
** loop wrote and escaped). */
static void indented(FILE *f, const char *prefix, const char *text, int raw)
{
    const char *p = text ? text : "";
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fputs(prefix, f);
        if (raw)
            fwrite(p, 1, n, f);
        else
            shown_n(f, p, n);
        fputc('\n', f);
        p += n + (nl ? 1 : 0);
    }
}

/* Text that came from outside (an environment variable, a message quoting
** one), on the current line. */
void demo_report_escaped(FILE *f, const char *s)
{
    shown(f, s);
}

void demo_report_heading(FILE *f, const demo_transcript *tr)
{
    fprintf(f, "== %s: %s ==\n", tr->scenario, tr->title);
    if (tr->override) {
        /* The operator's text, as typed: a line break in it stays on this line. */
        fprintf(f, "operator override: %s=", TOOLGOV_CONFIRM_ONCE_ENV);
        demo_report_escaped(f, tr->override);
        fputc('\n', f);
    }
    if (tr->grant)
        fprintf(f, "standing grant of %s: %s\n", DEMO_GRANT_USER, tr->grant);
}

void demo_report_event(FILE *f, const demo_event *ev)
{
    size_t i;
    switch (ev->type) {
    case DEMO_EV_TURN:
        fprintf(f, "\nuser (turn %u): ", ev->turn);
        shown(f, ev->text);
        fprintf(f, "\ntools on the loop:");
        for (i = 0; i < ev->item_count; i++) {
            fputs(i ? ", " : " ", f);
            shown(f, ev->items[i] ? ev->items[i] : "?");
        }
        fprintf(f, "\n");
        break;
    case DEMO_EV_MODEL:
        if (ev->status)
            fprintf(f, "model call %u: failed (%s)\n", ev->step, toolgov_strerror(ev->status));
        else if (ev->item_count == 0)
            fprintf(f, "model call %u: writes the answer\n", ev->step);
        else
            fprintf(f, "model call %u: proposes %lu call%s\n", ev->step,
                    (unsigned long)ev->item_count, ev->item_count == 1 ? "" : "s");
        for (i = 0; i < ev->item_count; i++) {
            fputs("    ", f);
            shown(f, ev->items[i] ? ev->items[i] : "?");
            fputc('\n', f);
        }
        break;
    case DEMO_EV_ASK:
        fprintf(f, "  ask the user (%s):\n", ev->kind ? ev->kind : "?");
        indented(f, "    ? ", ev->text, ev->shown);
        fprintf(f, "  user answers: %s\n", ev->answer ? "yes" : "no");
        break;
    case DEMO_EV_CALL:
        fputs("  ", f);
        shown(f, ev->tool ? ev->tool : "?");
        fputc(' ', f);
        shown(f, ev->args);
        fprintf(f, " -> %s, ", ev->gate ? ev->gate : "?");
        if (ev->grant)
            fprintf(f, "by standing grant #%llu, ", ev->grant);
        if (ev->executed)
            fprintf(f, "executed, %s\n", ev->status ? toolgov_strerror(ev->status) : "ok");
        else if (ev->gate && !strcmp(ev->gate, "REPLAY"))
            fprintf(f, "not executed: the result in hand is returned\n");
        else if (ev->status == TOOLGOV_EARGS || ev->status == TOOLGOV_ENOENT)
            /* refused before the gate: say why, not only the gate's word */
            fprintf(f, "not executed: %s\n", toolgov_strerror(ev->status));
        else
            fprintf(f, "not executed\n");
        indented(f, "    | ", ev->text, 0);
        break;
    case DEMO_EV_END:
        fprintf(f, "end of turn %u: %s\n", ev->turn, ev->kind ? ev->kind : "?");
        fprintf(f, "  answer:\n");
        indented(f, "  > ", ev->text, 0);
        break;
    }
}

static void text_state(FILE *f, const demo_world *w)
{
    size_t i;
    int s, first = 1;
    fprintf(f, "state afterwards:\n  reminders: %lu\n", (unsigned long)w->calendar.reminder_count);
    for (i = 0; i < w->calendar.reminder_count; i++) {
        const calendar_reminder *r = &w->calendar.reminders[i];
        fputs("    - ", f);
        shown(f, r->date);
        fputc(' ', f);
        shown(f, r->time);
        fputc(' ', f);
        shown(f, r->title);
        fputc('\n', f);
    }
    fprintf(f,
            "  email: %lu in the inbox (%lu promotions), %lu in the Trash, %lu deleted for "
            "good; trash_category ran %u time%s, empty_trash %u\n",
            (unsigned long)email_state_count(&w->email, EMAIL_INBOX, NULL),
            (unsigned long)email_state_count(&w->email, EMAIL_INBOX, "promotions"),
            (unsigned long)email_state_count(&w->email, EMAIL_TRASH, NULL),
            (unsigned long)email_state_count(&w->email, EMAIL_DELETED, NULL),
            w->email.trash_calls, w->email.trash_calls == 1 ? "" : "s", w->email.empty_calls);
    fprintf(f, "  morning brief:");
    for (s = 0; s < PLANNER_SECTION_COUNT; s++)
        if (w->planner.brief[s]) {
            fprintf(f, "%s %s", first ? "" : ",", planner_section_name((planner_section)s));
            first = 0;
        }
    fprintf(f, "\n");
}

void demo_report_closing(FILE *f, const demo_transcript *tr)
{
    if (tr->prompt) {
        fprintf(f, "the prompt for the %lu tools in the pool:\n",
                (unsigned long)tr->prompt_tool_count);
        indented(f, "  ", tr->prompt, 1);
    }
    if (tr->drift_text) {
        fprintf(f, "drift panel of the mounted set:\n");
        indented(f, "  ", tr->drift_text, 1);
    }
    if (tr->turns)
        fprintf(f, "\nsummary: %u model call%s, %u question%s to the user, %u execution%s\n",
                tr->model_calls, tr->model_calls == 1 ? "" : "s", tr->asks,
                tr->asks == 1 ? "" : "s", tr->executions, tr->executions == 1 ? "" : "s");
    if (tr->has_state)
        text_state(f, &tr->state);
    if (tr->failed)
        fprintf(f, "error: the transcript is incomplete (out of memory)\n");
    fprintf(f, "\n");
}

void demo_report_text(FILE *f, const demo_transcript *tr)
{
    size_t i;
    demo_report_heading(f, tr);
    for (i = 0; i < tr->count; i++)
        demo_report_event(f, &tr->events[i]);
    demo_report_closing(f, tr);
}

/* ---- JSON ----------------------------------------------------------------- */

/* Length of the well-formed UTF-8 sequence at s (at most `room` bytes),
** or 0 when the bytes there are not one (RFC 3629: no overlong form, no
** surrogate, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, size_t room)
{
    unsigned c = s[0], lo = 0x80, hi = 0xbf;
    size_t n, i;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80;
        hi = c == 0xed ? 0x9f : 0xbf;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0;
    }
    if (room < n || s[1] < lo || s[1] > hi)
        return 0;
    for (i = 2; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* A JSON string of n bytes. A model may write any bytes, but JSON text is
** UTF-8: a byte that starts no well-formed sequence becomes U+FFFD. */
static void jstr_n(FILE *f, const char *s, size_t n)
{
    size_t i;
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t seq;
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (c < 0x20) {
                fprintf(f, "\\u%04x", c);
            } else if (c < 0x80) {
                fputc((int)c, f);
            } else if ((seq = utf8_seq((const unsigned char *)s + i, n - i)) != 0) {
                fwrite(s + i, 1, seq, f);
                i += seq - 1;
            } else {
                fputs("\\ufffd", f);
            }
        }
    }
    fputc('"', f);
}

static void jstr(FILE *f, const char *s)
{
    jstr_n(f, s, s ? strlen(s) : 0);
}

/* An item "tool args" as {"tool":...,"args":...}; with a gate suffix
** ("tool args: GATE") also "gate". */
static void jcall(FILE *f, const char *item, int with_gate)
{
    const char *sp = item ? strchr(item, ' ') : NULL;
    const char *gate = NULL, *end;
    if (!sp) {
        fputs("{\"tool\":", f);
        jstr(f, item);
        fputs(",\"args\":null}", f);
        return;
    }
    end = item + strlen(item);
    if (with_gate) {
        const char *p = item, *q;
        while ((q = strstr(p, ": ")) != NULL) {
            gate = q;
            p = q + 2;
        }
        if (gate)
            end = gate;
    }
    fputs("{\"tool\":", f);
    jstr_n(f, item, (size_t)(sp - item));
    fputs(",\"args\":", f);
    jstr_n(f, sp + 1, (size_t)(end - sp - 1));
    if (with_gate) {
        fputs(",\"gate\":", f);
        jstr(f, gate ? gate + 2 : NULL);
    }
    fputc('}', f);
}

static void json_event(FILE *f, const demo_event *ev)
{
    size_t i;
    switch (ev->type) {
    case DEMO_EV_TURN:
        fprintf(f, "{\"type\":\"turn\",\"turn\":%u,\"user\":", ev->turn);
        jstr(f, ev->text);
        fputs(",\"tools\":[", f);
        for (i = 0; i < ev->item_count; i++) {
            if (i)
                fputc(',', f);
            jstr(f, ev->items[i]);
        }
        fputs("]}", f);
        break;
    case DEMO_EV_MODEL:
        fprintf(f, "{\"type\":\"model_call\",\"turn\":%u,\"step\":%u,\"status\":%d,\"calls\":[",
                ev->turn, ev->step, ev->status);
        for (i = 0; i < ev->item_count; i++) {
            if (i)
                fputc(',', f);
            jcall(f, ev->items[i], 0);
        }
        fputs("],\"answer\":", f);
        jstr(f, ev->text);
        fputc('}', f);
        break;
    case DEMO_EV_ASK:
        fprintf(f, "{\"type\":\"ask\",\"turn\":%u,\"kind\":", ev->turn);
        jstr(f, ev->kind);
        fputs(",\"question\":", f);
        jstr(f, ev->text);
        fputs(",\"items\":[", f);
        for (i = 0; i < ev->item_count; i++) {
            if (i)
                fputc(',', f);
            jcall(f, ev->items[i], 0);
        }
        fprintf(f, "],\"answer\":\"%s\"}", ev->answer ? "yes" : "no");
        break;
    case DEMO_EV_CALL:
        fprintf(f, "{\"type\":\"call\",\"turn\":%u,\"step\":%u,\"tool\":", ev->turn, ev->step);
        jstr(f, ev->tool);
        fputs(",\"args\":", f);
        jstr(f, ev->args);
        fputs(",\"gate\":", f);
        jstr(f, ev->gate);
        fprintf(f, ",\"grant\":%llu,\"executed\":%s,\"status\":%d,\"error\":", ev->grant,
                ev->executed ? "true" : "false", ev->status);
        jstr(f, ev->status ? toolgov_strerror(ev->status) : NULL);
        fputs(",\"output\":", f);
        jstr(f, ev->text);
        fputc('}', f);
        break;
    case DEMO_EV_END:
        fprintf(f, "{\"type\":\"end\",\"turn\":%u,\"reason\":", ev->turn);
        jstr(f, ev->kind);
        fputs(",\"answer\":", f);
        jstr(f, ev->text);
        fputc('}', f);
        break;
    }
}

static void json_state(FILE *f, const demo_world *w)
{
    size_t i;
    int s, first = 1;
    fputs("{\"reminders\":[", f);
    for (i = 0; i < w->calendar.reminder_count; i++) {
        const calendar_reminder *r = &w->calendar.reminders[i];
        fputs(i ? ",{\"title\":" : "{\"title\":", f);
        jstr(f, r->title);
        fputs(",\"date\":", f);
        jstr(f, r->date);
        fputs(",\"time\":", f);
        jstr(f, r->time);
        fputs(",\"note\":", f);
        jstr(f, r->note);
        fputc('}', f);
    }
    fprintf(f,
            "],\"email\":{\"inbox\":%lu,\"promotions_in_inbox\":%lu,\"trash\":%lu,"
            "\"deleted\":%lu,\"trashed_total\":%lu,\"deleted_total\":%lu,\"trash_calls\":%u,"
            "\"empty_calls\":%u},\"brief\":[",
            (unsigned long)email_state_count(&w->email, EMAIL_INBOX, NULL),
            (unsigned long)email_state_count(&w->email, EMAIL_INBOX, "promotions"),
            (unsigned long)email_state_count(&w->email, EMAIL_TRASH, NULL),
            (unsigned long)email_state_count(&w->email, EMAIL_DELETED, NULL),
            (unsigned long)w->email.trashed_total, (unsigned long)w->email.deleted_total,
            w->email.trash_calls, w->email.empty_calls);
    for (s = 0; s < PLANNER_SECTION_COUNT; s++)
        if (w->planner.brief[s]) {
            if (!first)
                fputc(',', f);
            jstr(f, planner_section_name((planner_section)s));
            first = 0;
        }
    fputs("]}", f);
}

void demo_report_json(FILE *f, const demo_transcript *tr)
{
    const char *end = NULL;
    size_t i;
    int first = 1;

    for (i = 0; i < tr->count; i++)
        if (tr->events[i].type == DEMO_EV_END)
            end = tr->events[i].kind;
    fputs("{\"scenario\":", f);
    jstr(f, tr->scenario);
    fputs(",\"title\":", f);
    jstr(f, tr->title);
    fprintf(f, ",\"complete\":%s,\"turns\":%u,\"model_calls\":%u,\"asks\":%u,\"executions\":%u,"
               "\"end\":",
            tr->failed ? "false" : "true", tr->turns, tr->model_calls, tr->asks,
            tr->executions);
    jstr(f, end);
    fputs(",\"ends\":[", f);
    for (i = 0; i < tr->count; i++)
        if (tr->events[i].type == DEMO_EV_END) {
            if (!first)
                fputc(',', f);
            jstr(f, tr->events[i].kind);
            first = 0;
        }
    fputs("],\"events\":[", f);
    for (i = 0; i < tr->count; i++) {
        if (i)
            fputc(',', f);
        json_event(f, &tr->events[i]);
    }
    fputc(']', f);
    if (tr->prompt) {
        fputs(",\"tools\":[", f);
        for (i = 0; i < tr->prompt_tool_count; i++) {
            if (i)
                fputc(',', f);
            jstr(f, tr->prompt_tools[i]);
        }
        fputs("],\"prompt\":", f);
        jstr(f, tr->prompt);
    }
    if (tr->grant) {
        fputs(",\"grant\":", f);
        jstr(f, tr->grant);
    }
    if (tr->override) {
        fputs(",\"override\":", f);
        jstr(f, tr->override);
    }
    if (tr->drift_text) {
        size_t n = tr->drift_json ? strlen(tr->drift_json) : 0;
        fputs(",\"drift_text\":", f);
        jstr(f, tr->drift_text);
        /* The runtime's own JSON rendering, embedded as is. */
        while (n > 0 && (tr->drift_json[n - 1] == '\n' || tr->drift_json[n - 1] == ' '))
            n--;
        fputs(",\"drift\":", f);
        if (n)
            fwrite(tr->drift_json, 1, n, f);
        else
            fputs("null", f);
    }
    fputs(",\"state\":", f);
    if (tr->has_state)
        json_state(f, &tr->state);
    else
        fputs("null", f);
    fputs("}\n", f);
}
