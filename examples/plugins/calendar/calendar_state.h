/* SPDX-License-Identifier: MIT */
/*
** calendar_state.h: what the calendar plugin changes, kept by its host.
**
** The host owns one calendar_state per user, initialises it, and passes it
** as the plugin context to toolgov_registry_mount(); create_reminder adds to
** it and calendar_lookup shows its reminders beside the built-in events. The
** plugin keeps no global mutable state, so two registries with two states
** never see each other's reminders, and a test or the demo can read the
** reminders afterwards.
*/
#ifndef TOOLGOV_EXAMPLES_CALENDAR_STATE_H
#define TOOLGOV_EXAMPLES_CALENDAR_STATE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CALENDAR_MAX_REMINDERS 64u

typedef struct calendar_reminder {
    char title[128];
    char date[11];  /* YYYY-MM-DD */
    char time[6];   /* HH:MM */
    char note[256];
} calendar_reminder;

typedef struct calendar_state {
    calendar_reminder reminders[CALENDAR_MAX_REMINDERS];
    size_t reminder_count;
} calendar_state;

/* Start with no reminders. */
void calendar_state_init(calendar_state *st);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_EXAMPLES_CALENDAR_STATE_H */
