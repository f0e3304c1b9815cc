/* SPDX-License-Identifier: MIT */
/*
** scripted_model.c: a model that follows a script, for the demo and tests.
**
** It stands in for an LLM without pretending to be one: it recognises a few
** requests by their words and, for each, proposes what a well-behaved model
** would, reading every value it uses from the observations it is handed
** (the dues come from upcoming_dues's output, the reminder time from
** memory_search's). Nothing in it knows what the tools will return, so the
** demo shows the runtime working on real tool output. It only proposes
** tools that are on the loop, as a model can only call what it is offered.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exworld.h"
#include "model.h"

typedef enum intent {
    INTENT_NONE = 0,
    INTENT_DUES,    /* find the dues, then a reminder for each */
    INTENT_DIGEST,  /* summarise my latest emails */
    INTENT_PROMOS,  /* show my promotions and trash them */
    INTENT_TRASH,   /* trash my promotions */
    INTENT_EMPTY,   /* empty the trash */
    INTENT_DAY,     /* what is on my calendar on MM/DD/YYYY */
    INTENT_TIDY     /* tidy one category of my inbox */
} intent;

static intent read_intent(const char *user)
{
    if (exworld_contains(user, "due") && exworld_contains(user, "remind"))
        return INTENT_DUES;
    if (exworld_contains(user, "tidy"))
        return INTENT_TIDY;
    if (exworld_contains(user, "calendar") && strchr(user, '/'))
        return INTENT_DAY;
    if (exworld_contains(user, "summar") && exworld_contains(user, "email"))
        return INTENT_DIGEST;
    if (exworld_contains(user, "empty") && exworld_contains(user, "trash"))
        return INTENT_EMPTY;
    if (exworld_contains(user, "promotion") && exworld_contains(user, "what"))
        return INTENT_PROMOS;
    if (exworld_contains(user, "promotion") && exworld_contains(user, "trash"))
        return INTENT_TRASH;
    return INTENT_NONE;
}

static int on_loop(const demo_turn *t, const char *tool)
{
    size_t i;
    for (i = 0; i < t->tool_count; i++)
        if (!strcmp(t->tools[i], tool))
            return 1;
    return 0;
}

/* The latest observation of `tool`, or NULL. */
static const demo_observation *last_obs(const demo_turn *t, const char *tool)
{
    size_t i = t->obs_count;
    while (i-- > 0)
        if (!strcmp(t->obs[i].tool, tool))
            return &t->obs[i];
    return NULL;
}

static size_t count_obs(const demo_turn *t, const char *tool, int executed_ok)
{
    size_t i, n = 0;
    for (i = 0; i < t->obs_count; i++)
        if (!strcmp(t->obs[i].tool, tool) &&
            (!executed_ok || (t->obs[i].executed && t->obs[i].status == 0)))
            n++;
    return n;
}

static int propose(demo_proposal *out, const char *tool, const char *args)
{
    demo_proposed *c;
    if (out->call_count >= DEMO_MAX_BATCH || strlen(tool) >= sizeof c->tool ||
        strlen(args) >= sizeof c->args)
        return -1;
    c = &out->calls[out->call_count++];
    strcpy(c->tool, tool);
    strcpy(c->args, args);
    return 0;
}

static void answer(demo_proposal *out, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void answer(demo_proposal *out, const char *fmt, ...)
{
    va_list ap;
    out->call_count = 0;
    va_start(ap, fmt);
    vsnprintf(out->answer, sizeof out->answer, fmt, ap);
    va_end(ap);
}

/* Append `s` to a JSON string being built, escaped. */
static size_t json_escape(char *dst, size_t size, size_t at, const char *s)
{
    for (; *s && at + 7 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            dst[at++] = '\\';
            dst[at++] = (char)c;
        } else if (c < 0x20) {
            at += (size_t)snprintf(dst + at, size - at, "\\u%04x", c);
        } else {
            dst[at++] = (char)c;
        }
    }
    dst[at] = '\0';
    return at;
}

/* The first "HH:MM" in text, into out[6]; 0 when found. */
static int find_time(const char *text, char out[6])
{
    for (; text && *text; text++) {
        char t[6];
        /* Copy up to the text's end, never five bytes blindly: near the end
        ** fewer than five remain. */
        size_t n = 0;
        while (n < 5 && text[n])
            n++;
        memcpy(t, text, n);
        t[n] = '\0';
        if (n == 5 && !exworld_check_time(t)) {
            memcpy(out, t, 6);
            return 0;
        }
    }
    return -1;
}

/* Copy field `idx` (0-based) of a "- a | b | c | d" line, trimmed. */
static int field(const char *line, size_t len, int idx, char *out, size_t size)
{
    const char *p = line + 2, *end = line + len, *start;
    size_t n;
    while (idx-- > 0) {
        p = memchr(p, '|', (size_t)(end - p));
        if (!p)
            return -1;
        p++;
    }
    start = p;
    while (p < end && *p != '|')
        p++;
    while (start < p && *start == ' ')
        start++;
    while (p > start && p[-1] == ' ')
        p--;
    n = (size_t)(p - start);
    if (n == 0 || n >= size)
        return -1;
    memcpy(out, start, n);
    out[n] = '\0';
    return 0;
}

/* One create_reminder per due listed by upcoming_dues: lines of the form
** "- YYYY-MM-DD | name | payee | amount", as its manifest documents. */
static int reminders_for_dues(demo_proposal *out, const char *dues, const char *time)
{
    const char *line = dues;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char date[16], name[128], payee[128], amount[64], args[DEMO_MAX_ARGS];
        size_t at = 0;
        if (len > 2 && line[0] == '-' && line[1] == ' ' &&
            !field(line, len, 0, date, sizeof date) && !field(line, len, 1, name, sizeof name) &&
            !field(line, len, 2, payee, sizeof payee) &&
            !field(line, len, 3, amount, sizeof amount)) {
            args[at++] = '{';
            at += (size_t)snprintf(args + at, sizeof args - at, "\"title\":\"Pay ");
            at = json_escape(args, sizeof args, at, name);
            at += (size_t)snprintf(args + at, sizeof args - at, " (");
            at = json_escape(args, sizeof args, at, amount);
            at += (size_t)snprintf(args + at, sizeof args - at, ")\",\"date\":\"");
            at = json_escape(args, sizeof args, at, date);
            at += (size_t)snprintf(args + at, sizeof args - at, "\",\"time\":\"%s\",\"note\":\"",
                                   time);
            at = json_escape(args, sizeof args, at, payee);
            if (at + 3 >= sizeof args)
                return -1;
            args[at++] = '"';
            args[at++] = '}';
            args[at] = '\0';
            if (propose(out, "create_reminder", args))
                return -1;
        }
        line = nl ? nl + 1 : NULL;
    }
    return 0;
}

/* "... and tidy my updates": the category to tidy alongside the
** reminders, when the user asks for it and tidy_inbox is on the loop. */
static const char *tidy_also(const demo_turn *t)
{
    static const char *const cats[] = {"promotions", "social", "updates", "primary"};
    size_t i;
    if (!exworld_contains(t->user, "tidy") || !on_loop(t, "tidy_inbox"))
        return NULL;
    for (i = 0; i < sizeof cats / sizeof cats[0]; i++)
        if (exworld_contains(t->user, cats[i]))
            return cats[i];
    return NULL;
}

static int dues_step(const demo_turn *t, demo_proposal *out)
{
    const demo_observation *dues = last_obs(t, "upcoming_dues");
    const demo_observation *memory = last_obs(t, "memory_search");
    const demo_observation *tidy = last_obs(t, "tidy_inbox");
    const char *tidy_cat = tidy_also(t);
    size_t created, tried;
    char time[6] = "09:00", tidied[DEMO_MAX_ANSWER / 2] = "";

    if (!dues) {
        /* First look: the dues, and the user's preference for reminders. */
        if (propose(out, "upcoming_dues", "{\"days\":14}"))
            return -1;
        if (on_loop(t, "memory_search") &&
            propose(out, "memory_search", "{\"query\":\"reminders\"}"))
            return -1;
        return 0;
    }
    tried = count_obs(t, "create_reminder", 0);
    if (tried == 0) {
        if (dues->status != 0) {
            answer(out, "I could not read your dues: %s", dues->output);
            return 0;
        }
        if (memory && memory->status == 0)
            find_time(memory->output, time);
        if (!on_loop(t, "create_reminder")) {
            answer(out, "Here are your dues; I cannot create reminders here.\n%s", dues->output);
            return 0;
        }
        if (reminders_for_dues(out, dues->output, time))
            return -1;
        if (out->call_count == 0)
            answer(out, "Nothing is due, so I created no reminders. %s", dues->output);
        return 0;
    }
    if (tidy_cat && !tidy) {
        /* The reminders first, then the tidying the user asked for too. */
        char args[64];
        snprintf(args, sizeof args, "{\"category\":\"%s\"}", tidy_cat);
        return propose(out, "tidy_inbox", args);
    }
    if (tidy)
        snprintf(tidied, sizeof tidied, tidy->executed && tidy->status == 0
                                            ? " Then I tidied your inbox: %s"
                                            : " I left the inbox as it is: %s",
                 strncmp(tidy->output, "not run: ", 9) ? tidy->output : tidy->output + 9);
    if (memory && memory->status == 0)
        find_time(memory->output, time);
    created = count_obs(t, "create_reminder", 1);
    if (created == tried)
        answer(out, "Done: I created %lu reminders, one for each due, at %s on the day it is "
                    "due.%s",
               (unsigned long)created, time, tidied);
    else if (created == 0)
        answer(out, "Understood: I created no reminders.%s", tidied);
    else
        answer(out, "I created %lu of the %lu reminders; the others were not created.%s",
               (unsigned long)created, (unsigned long)tried, tidied);
    return 0;
}

static int promos_step(const demo_turn *t, demo_proposal *out, int look_first)
{
    static const char *args = "{\"category\":\"promotions\"}";
    const demo_observation *trash = last_obs(t, "trash_category");
    size_t calls = count_obs(t, "trash_category", 0);

    if (look_first && !last_obs(t, "list_by_category"))
        return propose(out, "list_by_category", args);
    if (!trash)
        return propose(out, "trash_category", args);
    /* Models were seen re-issuing this call right after it succeeded; the
    ** script does the same once, so the transcript shows what the runtime
    ** does with the repeat (REPLAY: the first result, nothing more moved). */
    if (calls == 1 && trash->status == 0)
        return propose(out, "trash_category", args);
    answer(out, "%s", trash->output);
    return 0;
}

static int empty_step(const demo_turn *t, demo_proposal *out)
{
    const demo_observation *o = last_obs(t, "empty_trash");
    if (!o)
        return propose(out, "empty_trash", "{}");
    if (o->executed && o->status == 0)
        answer(out, "%s", o->output);
    else
        answer(out, "I left the Trash as it is: %s.",
               strncmp(o->output, "not run: ", 9) ? o->output : o->output + 9);
    return 0;
}

/* The first "MM/DD/YYYY" in text: as written into as_written[11], as
** YYYY-MM-DD into iso[11]; 0 when found. */
static int find_slash_date(const char *text, char as_written[11], char iso[11])
{
    const char *p;
    for (p = text; *p; p++) {
        int i, ok = 1;
        for (i = 0; i < 10 && ok; i++)
            ok = (i == 2 || i == 5) ? p[i] == '/' : (p[i] >= '0' && p[i] <= '9');
        if (!ok)
            continue;
        memcpy(as_written, p, 10);
        as_written[10] = '\0';
        snprintf(iso, 11, "%.4s-%.2s-%.2s", p + 6, p, p + 3);
        return 0;
    }
    return -1;
}

/* A model that copies the user's date as written, the most common argument
** mistake: the runtime refuses the call before the handler runs and says
** which member is wrong and what form it takes; the model reads that and
** sends the date again in that form. */
static int day_step(const demo_turn *t, demo_proposal *out)
{
    const demo_observation *o = last_obs(t, "calendar_lookup");
    char written[11], iso[11], args[64];

    if (!on_loop(t, "calendar_lookup") || find_slash_date(t->user, written, iso)) {
        answer(out, "I cannot look up that day here.");
        return 0;
    }
    if (!o) {
        snprintf(args, sizeof args, "{\"date\":\"%s\"}", written);
        return propose(out, "calendar_lookup", args);
    }
    if (o->status == TOOLGOV_EARGS && strstr(o->output, "/date must be a date (YYYY-MM-DD)") &&
        count_obs(t, "calendar_lookup", 0) < 2) {
        snprintf(args, sizeof args, "{\"date\":\"%s\"}", iso);
        return propose(out, "calendar_lookup", args);
    }
    if (o->executed && o->status == 0)
        answer(out, "On %s: %s", iso, o->output);
    else
        answer(out, "I could not look up %s: %s", iso, o->output);
    return 0;
}

/* Tidying is the email assistant's job: one call of tidy_inbox, whose
** handler runs the plugin's own loop; its report is the answer. */
static int tidy_step(const demo_turn *t, demo_proposal *out)
{
    static const char *const cats[] = {"promotions", "social", "updates", "primary"};
    const demo_observation *o = last_obs(t, "tidy_inbox");
    char args[64];
    size_t i;

    if (o) {
        if (o->executed && o->status == 0)
            answer(out, "%s", o->output);
        else
            answer(out, "I left the inbox as it is: %s.",
                   strncmp(o->output, "not run: ", 9) ? o->output : o->output + 9);
        return 0;
    }
    for (i = 0; i < sizeof cats / sizeof cats[0]; i++)
        if (exworld_contains(t->user, cats[i]))
            break;
    if (i == sizeof cats / sizeof cats[0] || !on_loop(t, "tidy_inbox")) {
        answer(out, "I cannot tidy that here.");
        return 0;
    }
    snprintf(args, sizeof args, "{\"category\":\"%s\"}", cats[i]);
    return propose(out, "tidy_inbox", args);
}

static int scripted_propose(void *ud, const demo_turn *t, demo_proposal *out)
{
    const demo_observation *o;
    (void)ud;
    switch (read_intent(t->user)) {
    case INTENT_DUES:
        return dues_step(t, out);
    case INTENT_DIGEST:
        if (!(o = last_obs(t, "inbox_digest")))
            return on_loop(t, "inbox_digest") ? propose(out, "inbox_digest", "{}") : -1;
        answer(out, "%s", o->output);
        return 0;
    case INTENT_PROMOS:
        return promos_step(t, out, 1);
    case INTENT_TRASH:
        return promos_step(t, out, 0);
    case INTENT_EMPTY:
        return empty_step(t, out);
    case INTENT_DAY:
        return day_step(t, out);
    case INTENT_TIDY:
        return tidy_step(t, out);
    case INTENT_NONE:
        break;
    }
    answer(out, "Sorry, this scripted model only knows the demo's requests.");
    return 0;
}

const demo_model demo_scripted_model = {"scripted", scripted_propose, NULL};
