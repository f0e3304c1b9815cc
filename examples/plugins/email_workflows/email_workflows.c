/* SPDX-License-Identifier: MIT */
/*
** email_workflows.c: the email plugin's handlers, over a built-in inbox and
** the host's email_state (which folder each message is in).
**
** trash_category's output is written to be the user's answer as it stands
** (the manifest says answers_directly): how many moved, a sample, how many
** are left and how to undo. A retelling by a model tends to drop exactly the
** count and the remainder, which is why the tool says it all itself.
**
** tidy_inbox runs the plugin's own loop: the email assistant decides email
** by email and moves each one with trash_email, a tool declared for that
** loop only (loop: own). Every move goes through a child of the run that
** called tidy_inbox (email_workflows_Invoke), so the gate decides it as it
** would decide a call of the host's model, with the same confirmation.
*/
#include <stdio.h>
#include <string.h>

#include "email_state.h"
#include "email_workflows.toolgov.h"
#include "exworld.h"

typedef struct message {
    int id;
    const char *date;       /* YYYY-MM-DD, newest first in the table */
    const char *from;
    const char *subject;
    const char *category;   /* primary, promotions, social, updates */
    const char *body;
    const char *attachment; /* file name, or NULL */
    const char *gist;       /* one clause for the digest */
} message;

static const message messages[] = {
    {1, "2026-12-01", "Ana Souza", "Lunch today?", "primary",
     "Still on for 12:30 at Cafe Lisboa? I booked the table by the window.", NULL,
     "Ana confirms lunch at 12:30 at Cafe Lisboa"},
    {2, "2026-12-01", "City Power", "Your December invoice", "primary",
     "Your electricity invoice of 84.20 EUR is due on 2026-12-03. Pay by bank transfer.",
     "invoice-city-power-2026-12.pdf",
     "City Power sent the December invoice, 84.20 EUR due on 3 December"},
    {3, "2026-12-01", "MegaMart", "Cyber Monday: 40% off everything", "promotions",
     "Today only: 40% off everything in store and online.", NULL, NULL},
    {4, "2026-11-30", "Lena Park", "Quarterly planning deck", "primary",
     "Here is the draft deck for Wednesday's planning. Comments welcome.",
     "quarterly-plan-q1.pptx",
     "Lena shared the deck for Wednesday's quarterly planning"},
    {5, "2026-11-30", "FlyAway", "Weekend deals to Lisbon", "promotions",
     "Fares from 39 EUR this weekend only.", NULL, NULL},
    {6, "2026-11-30", "Photo Club", "Ana tagged you in 3 photos", "social",
     "See the photos from Saturday's hike.", NULL, NULL},
    {7, "2026-11-29", "Iron Gym", "Membership renewal", "primary",
     "Your yearly membership renews on 2026-12-10 for 45.00 EUR. Reply to cancel.", NULL,
     "Iron Gym says your membership renews on 10 December for 45.00 EUR"},
    {8, "2026-11-29", "BookNook", "Your weekly picks", "promotions",
     "Five new thrillers picked for you.", NULL, NULL},
    {9, "2026-11-29", "ShoeBarn", "Last chance: winter boots sale", "promotions",
     "Winter boots from 59 EUR, ends Sunday.", NULL, NULL},
    {10, "2026-11-28", "Fibrenet", "Planned maintenance on 4 December", "updates",
     "Your connection may drop for up to 30 minutes after midnight on 4 December.", NULL,
     "Fibrenet warns of a short outage after midnight on 4 December"},
    {11, "2026-11-28", "GreenGrocer", "Fresh box: 20% off your next order", "promotions",
     "Use code FRESH20 at checkout.", NULL, NULL},
    {12, "2026-11-27", "StreamFlix", "New this week", "promotions",
     "Three new series you might like.", NULL, NULL},
    {13, "2026-11-27", "Dr. Okafor's practice", "Appointment reminder", "primary",
     "This is a reminder of your appointment on 2026-12-01 at 16:00.", NULL,
     "the dentist reminds you of today's 16:00 appointment"},
    {14, "2026-11-26", "TechStore", "Black Friday deals are live", "promotions",
     "Laptops, phones and more at their lowest prices.", NULL, NULL},
    {15, "2026-11-26", "Neighbours Forum", "New post in Elm Street group", "social",
     "Someone posted about the street party.", NULL, NULL},
    {16, "2026-11-25", "CoffeeCo", "Your loyalty reward is waiting", "promotions",
     "Collect a free drink with your next order.", NULL, NULL},
    {17, "2026-11-25", "Bank North", "Statement available", "updates",
     "Your November statement is ready to view.", "statement-2026-11.pdf", NULL},
    {18, "2026-11-24", "HomeStyle", "Cushions from 9 EUR", "promotions",
     "Refresh your living room for winter.", NULL, NULL},
    {19, "2026-11-24", "FlyAway", "Your boarding pass", "primary",
     "Boarding pass for flight FA 212 on 2026-12-18.", "boarding-pass-FA212.pdf", NULL},
    {20, "2026-11-23", "TicketHub", "Concerts near you", "promotions",
     "See who is playing in town in December.", NULL, NULL},
    {21, "2026-11-23", "Chess Club", "Tournament results", "social",
     "You finished 4th of 22. Well played!", NULL, NULL},
    {22, "2026-11-22", "PetPlanet", "Treats for your dog, 2 for 1", "promotions",
     "Offer valid until stocks last.", NULL, NULL},
    {23, "2026-11-21", "Calendar Sync", "Weekly summary", "updates",
     "You had 9 events this week.", NULL, NULL},
    {24, "2026-11-20", "WineCellar", "Holiday wine selection", "promotions",
     "Six bottles, free delivery.", NULL, NULL},
    {25, "2026-11-20", "MegaMart", "Your points expire soon", "promotions",
     "Use your 420 points before the end of the year.", NULL, NULL},
};

#define MESSAGE_COUNT (sizeof messages / sizeof messages[0])

/* email_state keeps one folder byte per built-in message. */
typedef char message_table_fits_state[MESSAGE_COUNT <= EMAIL_MAX_MESSAGES ? 1 : -1];

/* In the order of the manifest's category enum, so a decoded category is
** an index into this table (checked below for every tool that takes one). */
static const char *const categories[] = {"primary", "promotions", "social", "updates"};

#define CATEGORY_COUNT (sizeof categories / sizeof categories[0])

typedef char category_enums_follow_the_table
    [email_workflows_Enum_list_by_category_category_primary == 0 &&
     email_workflows_Enum_list_by_category_category_updates == CATEGORY_COUNT - 1 &&
     email_workflows_Enum_trash_category_category_primary == 0 &&
     email_workflows_Enum_trash_category_category_updates == CATEGORY_COUNT - 1 &&
     email_workflows_Enum_tidy_inbox_category_primary == 0 &&
     email_workflows_Enum_tidy_inbox_category_updates == CATEGORY_COUNT - 1 ? 1 : -1];

void email_state_init(email_state *st)
{
    memset(st, 0, sizeof *st);
    st->message_count = MESSAGE_COUNT;
}

size_t email_state_count(const email_state *st, email_folder folder, const char *category)
{
    size_t i, n = 0;
    for (i = 0; i < st->message_count && i < MESSAGE_COUNT; i++)
        if (st->folder[i] == folder && (!category || !strcmp(messages[i].category, category)))
            n++;
    return n;
}

/* The state, or an error result: a tool that reads or changes folders
** cannot work without the host's state. */
static email_state *state_of(const toolgov_call *call, toolgov_result *out)
{
    if (!call->plugin_ctx) {
        toolgov_result_set(out, "", 0);
        toolgov_result_printf(out, "error: %s: email_workflows was mounted without "
                                   "an email_state", call->tool);
    }
    return call->plugin_ctx;
}

static const char *category_name(unsigned c)
{
    return c < CATEGORY_COUNT ? categories[c] : "unknown";
}

static int print_line(toolgov_result *out, const message *m)
{
    return toolgov_result_printf(out, "- #%d %s %s: %s [%s]%s\n", m->id, m->date, m->from,
                                 m->subject, m->category, m->attachment ? " (attachment)" : "")
               ? TOOLGOV_ENOMEM : 0;
}

/* Every "limit" below is in the bounds and has the default its manifest
** declares: the runtime decoded the call against them. */
EMAIL_WORKFLOWS_TOOLGOV_HANDLER(search_inbox, call, args, out)
{
    const email_state *st = state_of(call, out);
    const char *q = args->query.ptr;
    size_t qn = args->query.len;
    long limit = (long)args->limit, shown = 0;
    size_t i, matches = 0;
    int rc;

    if (!st)
        return TOOLGOV_EHANDLER;
    for (i = 0; i < MESSAGE_COUNT; i++) {
        const message *m = &messages[i];
        if (st->folder[i] != EMAIL_INBOX ||
            !(exworld_contains_n(m->from, q, qn) || exworld_contains_n(m->subject, q, qn) ||
              exworld_contains_n(m->body, q, qn)))
            continue;
        matches++;
        if (shown < limit) {
            if ((rc = print_line(out, m)))
                return rc;
            shown++;
        }
    }
    if (!matches)
        return toolgov_result_printf(out, "No email in the inbox matches '%.*s'.", (int)qn, q)
                   ? TOOLGOV_ENOMEM : 0;
    if (matches > (size_t)shown &&
        toolgov_result_printf(out, "(%lu more; raise \"limit\" to see them)\n",
                              (unsigned long)(matches - (size_t)shown)))
        return TOOLGOV_ENOMEM;
    return 0;
}

EMAIL_WORKFLOWS_TOOLGOV_HANDLER(read_email, call, args, out)
{
    const email_state *st = state_of(call, out);
    int64_t id = args->id;
    size_t i;

    if (!st)
        return TOOLGOV_EHANDLER;
    for (i = 0; i < MESSAGE_COUNT; i++) {
        const message *m = &messages[i];
        if (m->id != id || st->folder[i] == EMAIL_DELETED)
            continue;
        return toolgov_result_printf(out, "From: %s\nDate: %s\nSubject: %s\nFolder: %s\n%s%s%s\n%s",
                                     m->from, m->date, m->subject,
                                     st->folder[i] == EMAIL_TRASH ? "Trash" : "Inbox",
                                     m->attachment ? "Attachment: " : "",
                                     m->attachment ? m->attachment : "",
                                     m->attachment ? "\n" : "", m->body)
                   ? TOOLGOV_ENOMEM : 0;
    }
    return exworld_refuse(out, call->tool, "no email with id %lld", (long long)id);
}

EMAIL_WORKFLOWS_TOOLGOV_HANDLER(find_attachment, call, args, out)
{
    const email_state *st = state_of(call, out);
    const char *q = args->query.ptr;
    size_t qn = args->query.len, i, found = 0;

    if (!st)
        return TOOLGOV_EHANDLER;
    for (i = 0; i < MESSAGE_COUNT; i++) {
        const message *m = &messages[i];
        if (!m->attachment || st->folder[i] == EMAIL_DELETED ||
            !(exworld_contains_n(m->attachment, q, qn) || exworld_contains_n(m->subject, q, qn) ||
              exworld_contains_n(m->from, q, qn)))
            continue;
        if (toolgov_result_printf(out, "- %s in #%d \"%s\" from %s, %s\n", m->attachment,
                                  m->id, m->subject, m->from, m->date))
            return TOOLGOV_ENOMEM;
        found++;
    }
    if (!found && toolgov_result_printf(out, "No attachment matches '%.*s'.", (int)qn, q))
        return TOOLGOV_ENOMEM;
    return 0;
}

EMAIL_WORKFLOWS_TOOLGOV_HANDLER(inbox_digest, call, args, out)
{
    const email_state *st = state_of(call, out);
    long limit = (long)args->limit, told = 0;
    size_t i, c, others = 0;

    if (!st)
        return TOOLGOV_EHANDLER;
    if (toolgov_result_printf(out, "You have %lu emails in your inbox.",
                              (unsigned long)email_state_count(st, EMAIL_INBOX, NULL)))
        return TOOLGOV_ENOMEM;
    /* The digest narrates the newest messages that have something to say
    ** (the primary ones and notices that carry a gist), then counts the rest
    ** by category instead of listing every offer. */
    for (i = 0; i < MESSAGE_COUNT && told < limit; i++) {
        const message *m = &messages[i];
        if (st->folder[i] != EMAIL_INBOX || !m->gist)
            continue;
        if (toolgov_result_printf(out, "%s%s", told ? "; " : " Latest: ", m->gist))
            return TOOLGOV_ENOMEM;
        told++;
    }
    if (told && toolgov_result_printf(out, "."))
        return TOOLGOV_ENOMEM;
    for (c = 1; c < CATEGORY_COUNT; c++) {
        size_t n = email_state_count(st, EMAIL_INBOX, categories[c]);
        if (!n)
            continue;
        if (toolgov_result_printf(out, "%s%lu %s", others ? ", " : " Also waiting: ",
                                  (unsigned long)n, categories[c]))
            return TOOLGOV_ENOMEM;
        others++;
    }
    if (others && toolgov_result_printf(out, "."))
        return TOOLGOV_ENOMEM;
    return 0;
}

EMAIL_WORKFLOWS_TOOLGOV_HANDLER(list_by_category, call, args, out)
{
    const email_state *st = state_of(call, out);
    const char *cat = category_name((unsigned)args->category);
    long limit = (long)args->limit, shown = 0;
    size_t i, total;
    int rc;

    if (!st)
        return TOOLGOV_EHANDLER;
    total = email_state_count(st, EMAIL_INBOX, cat);
    if (toolgov_result_printf(out, "%lu %s emails in the inbox%s\n", (unsigned long)total, cat,
                              total ? ":" : "."))
        return TOOLGOV_ENOMEM;
    for (i = 0; i < MESSAGE_COUNT && shown < limit; i++) {
        if (st->folder[i] != EMAIL_INBOX || strcmp(messages[i].category, cat))
            continue;
        if ((rc = print_line(out, &messages[i])))
            return rc;
        shown++;
    }
    return 0;
}

EMAIL_WORKFLOWS_TOOLGOV_HANDLER(trash_category, call, args, out)
{
    email_state *st = state_of(call, out);
    const char *cat = category_name((unsigned)args->category);
    size_t moved_idx[EMAIL_MAX_MESSAGES];
    size_t moved = 0, i, left;
    long limit = (long)args->limit;

    if (!st)
        return TOOLGOV_EHANDLER;
    st->trash_calls++;
    for (i = 0; i < MESSAGE_COUNT && moved < (size_t)limit; i++) {
        if (st->folder[i] != EMAIL_INBOX || strcmp(messages[i].category, cat))
            continue;
        st->folder[i] = EMAIL_TRASH;
        moved_idx[moved++] = i;
    }
    st->trashed_total += moved;
    left = email_state_count(st, EMAIL_INBOX, cat);
    if (!moved)
        return toolgov_result_printf(out, "No %s emails in the inbox: nothing was moved.", cat)
                   ? TOOLGOV_ENOMEM : 0;
    if (toolgov_result_printf(out, "Moved %lu %s email%s to the Trash (newest first).\n",
                              (unsigned long)moved, cat, moved == 1 ? "" : "s") ||
        toolgov_result_printf(out, "Sample:"))
        return TOOLGOV_ENOMEM;
    for (i = 0; i < moved && i < 3; i++)
        if (toolgov_result_printf(out, "%s \"%s\" (%s)", i ? "," : "",
                                  messages[moved_idx[i]].subject, messages[moved_idx[i]].from))
            return TOOLGOV_ENOMEM;
    if (moved > 3 && toolgov_result_printf(out, " and %lu more", (unsigned long)(moved - 3)))
        return TOOLGOV_ENOMEM;
    if (toolgov_result_printf(out, ".\n") ||
        (left ? toolgov_result_printf(out, "Still in the inbox: %lu %s email%s (ask again to "
                                           "move the next batch).\n",
                                      (unsigned long)left, cat, left == 1 ? "" : "s")
              : toolgov_result_printf(out, "No %s emails are left in the inbox.\n", cat)) ||
        toolgov_result_printf(out, "Nothing was deleted: the emails stay in the Trash until it "
                                   "is emptied; to undo, move them from the Trash back to the "
                                   "inbox."))
        return TOOLGOV_ENOMEM;
    return 0;
}

/* No parameters: the runtime lets only {} through. */
EMAIL_WORKFLOWS_TOOLGOV_HANDLER(empty_trash, call, args, out)
{
    email_state *st = state_of(call, out);
    size_t i, n = 0;

    (void)args;
    if (!st)
        return TOOLGOV_EHANDLER;
    st->empty_calls++;
    for (i = 0; i < MESSAGE_COUNT; i++)
        if (st->folder[i] == EMAIL_TRASH) {
            st->folder[i] = EMAIL_DELETED;
            n++;
        }
    st->deleted_total += n;
    if (!n)
        return toolgov_result_printf(out, "The Trash was already empty: nothing was deleted.")
                   ? TOOLGOV_ENOMEM : 0;
    return toolgov_result_printf(out, "Permanently deleted %lu email%s from the Trash.",
                                 (unsigned long)n, n == 1 ? "" : "s")
               ? TOOLGOV_ENOMEM : 0;
}

/* The email assistant's own loop over one category: keep what has an
** attachment, move the rest one call at a time. A move the gate does not
** let through (the user's yes did not cover it, under confirmation scope
** "listed") stops the loop: nothing more moves, and the report says why. */
EMAIL_WORKFLOWS_TOOLGOV_HANDLER(tidy_inbox, call, args, out)
{
    email_state *st = state_of(call, out);
    const char *cat = category_name((unsigned)args->category);
    toolgov_run *loop = NULL;
    toolgov_outcome oc;
    size_t i, moved = 0, kept = 0;
    int rc, stopped_at = 0;

    if (!st)
        return TOOLGOV_EHANDLER;
    if ((rc = toolgov_run_child_new(&loop, call->run, call->run_ctx)) < 0)
        return rc;
    for (i = 0; i < MESSAGE_COUNT && !stopped_at; i++) {
        char step[32];
        if (st->folder[i] != EMAIL_INBOX || strcmp(messages[i].category, cat))
            continue;
        if (messages[i].attachment) {
            kept++;
            continue;
        }
        snprintf(step, sizeof step, "{\"id\":%d}", messages[i].id);
        rc = email_workflows_Invoke(&oc, loop, email_workflows_Tool_trash_email, step);
        if (rc == 0 && oc.executed)
            moved++;
        else if (rc == TOOLGOV_ENOMEM)
            break;
        else
            stopped_at = messages[i].id;
    }
    toolgov_run_free(loop);
    if (rc == TOOLGOV_ENOMEM)
        return rc;
    if (toolgov_result_printf(out, "The email assistant tidied %s: moved %lu email%s to the "
                                   "Trash, kept %lu with an attachment.",
                              cat, (unsigned long)moved, moved == 1 ? "" : "s",
                              (unsigned long)kept))
        return TOOLGOV_ENOMEM;
    if (stopped_at &&
        toolgov_result_printf(out, " It stopped at email #%d: the gate said %s (%s), so "
                                   "nothing more was moved.",
                              stopped_at, toolgov_gate_name(oc.gate),
                              oc.gate == TOOLGOV_GATE_ASK_FIRST
                                  ? "the user's yes did not cover this move"
                                  : "the move was not allowed"))
        return TOOLGOV_ENOMEM;
    return 0;
}

/* One step of the assistant's loop: only ever called through a child run. */
EMAIL_WORKFLOWS_TOOLGOV_HANDLER(trash_email, call, args, out)
{
    email_state *st = state_of(call, out);
    size_t i;

    if (!st)
        return TOOLGOV_EHANDLER;
    for (i = 0; i < MESSAGE_COUNT; i++) {
        if (messages[i].id != args->id)
            continue;
        if (st->folder[i] != EMAIL_INBOX)
            return toolgov_result_printf(out, "Email #%d is not in the inbox.", messages[i].id)
                       ? TOOLGOV_ENOMEM : 0;
        st->folder[i] = EMAIL_TRASH;
        st->trashed_total++;
        return toolgov_result_printf(out, "Moved email #%d to the Trash.", messages[i].id)
                   ? TOOLGOV_ENOMEM : 0;
    }
    return toolgov_result_printf(out, "There is no email #%lld.", (long long)args->id)
               ? TOOLGOV_ENOMEM : 0;
}
