/* SPDX-License-Identifier: MIT */
/*
** scenarios.c: the scenarios toolgov-demo plays. Each run scenario is the
** user's words, the ranking a retriever would give the shortlist, and the
** scripted user's answer to any question (overridden by --answer or
** --interactive). dues is played twice, once with each answer, so both
** paths of the run's one confirmation are in every full run of the demo.
** grant plays with a standing grant of the user's (grants.h): "always
** allow create_reminder"; the reminders run without a question, and the
** write it does not cover (tidy_inbox) is still asked about.
*/
#include "demo.h"

const demo_scenario demo_scenarios[] = {
    {"dues", "find the dues, then a reminder for each (the user says yes)", DEMO_KIND_RUN,
     {"Find my bills due in the next two weeks and set a reminder for each.", NULL, NULL},
     {"upcoming_dues", "create_reminder", "finance_lookup", "calendar_lookup", "daily_plan",
      NULL, NULL, NULL},
     1, NULL},
    {"dues-declined", "find the dues, then a reminder for each (the user says no)",
     DEMO_KIND_RUN,
     {"Find my bills due in the next two weeks and set a reminder for each.", NULL, NULL},
     {"upcoming_dues", "create_reminder", "finance_lookup", "calendar_lookup", "daily_plan",
      NULL, NULL, NULL},
     0, NULL},
    {"digest", "summarize my latest emails: the digest is the answer", DEMO_KIND_RUN,
     {"Summarize my latest emails.", NULL, NULL},
     {"inbox_digest", "read_email", "list_by_category", "search_inbox", "daily_plan", NULL, NULL,
      NULL},
     1, NULL},
    {"promos", "trash my promotions: no question, and a repeat moves nothing more",
     DEMO_KIND_RUN,
     {"What promotions do I have? Trash them.", NULL, NULL},
     {"list_by_category", "trash_category", "read_email", "empty_trash", NULL, NULL, NULL, NULL},
     1, NULL},
    {"empty-trash", "empty the trash: a destructive call waits for its own approval",
     DEMO_KIND_RUN,
     {"Trash my promotions.", "Now empty the trash.", NULL},
     {"empty_trash", "trash_category", "list_by_category", "read_email", NULL, NULL, NULL, NULL},
     0, NULL},
    {"tidy", "tidy my updates: the email assistant's own loop, each move through the gate",
     DEMO_KIND_RUN,
     {"Tidy up my updates emails.", NULL, NULL},
     {"tidy_inbox", "list_by_category", "trash_category", "read_email", NULL, NULL, NULL, NULL},
     1, NULL},
    {"bad-args", "a date in the wrong form: refused with its JSON path, then sent right",
     DEMO_KIND_RUN,
     {"What is on my calendar on 12/03/2026?", NULL, NULL},
     {"calendar_lookup", "daily_plan", "create_reminder", NULL, NULL, NULL, NULL, NULL},
     1, NULL},
    {"grant", "reminders under a standing grant run unasked; tidying still asks",
     DEMO_KIND_RUN,
     {"Find my bills due in the next two weeks, set a reminder for each, and tidy my updates "
      "emails.", NULL, NULL},
     {"upcoming_dues", "create_reminder", "tidy_inbox", "finance_lookup", "calendar_lookup",
      NULL, NULL, NULL},
     1, "create_reminder"},
    {"prompt", "the loop's prompt section: write marks, the loop's rule, guidance", DEMO_KIND_PROMPT,
     {NULL, NULL, NULL},
     {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
     1, NULL},
    {"drift", "the drift panel of the mounted set, the faulty plugin included", DEMO_KIND_DRIFT,
     {NULL, NULL, NULL},
     {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
     1, NULL},
};

const size_t demo_scenario_count = sizeof demo_scenarios / sizeof demo_scenarios[0];
