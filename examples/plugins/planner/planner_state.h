/* SPDX-License-Identifier: MIT */
/*
** planner_state.h: what the planner plugin changes, kept by its host: the
** sections of the user's morning brief, which configure_brief turns on and
** off. The host owns it and passes it as the plugin context at mount.
*/
#ifndef TOOLGOV_EXAMPLES_PLANNER_STATE_H
#define TOOLGOV_EXAMPLES_PLANNER_STATE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum planner_section {
    PLANNER_SECTION_CALENDAR = 0,
    PLANNER_SECTION_TASKS,
    PLANNER_SECTION_BILLS,
    PLANNER_SECTION_WEATHER,
    PLANNER_SECTION_NEWS,
    PLANNER_SECTION_COUNT
} planner_section;

typedef struct planner_state {
    int brief[PLANNER_SECTION_COUNT]; /* 1 when the section is in the brief */
    unsigned configure_calls;         /* times configure_brief changed something */
} planner_state;

/* The default brief: calendar, tasks and bills on; weather and news off. */
void planner_state_init(planner_state *st);

/* The section's name as configure_brief takes it ("calendar", ...); static. */
const char *planner_section_name(planner_section s);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_EXAMPLES_PLANNER_STATE_H */
