/* SPDX-License-Identifier: MIT */
/*
** loop_world.h: the seven example plugins mounted over their built-in data
** for the loop's tests, with memory_search bound to a one-line memory.
** Owned by the caller: loop_world_open() then loop_world_close().
*/
#ifndef TOOLGOV_TEST_LOOP_WORLD_H
#define TOOLGOV_TEST_LOOP_WORLD_H

#include <toolgov/policy.h>
#include <toolgov/toolgov.h>

#include "calendar_state.h"
#include "email_state.h"
#include "planner_state.h"

typedef struct loop_world {
    toolgov_registry *reg;
    toolgov_policy *pol;
    calendar_state calendar;
    email_state email;
    planner_state planner;
} loop_world;

/* 0 or a negative TOOLGOV_E* code. `alloc` NULL: malloc. */
int loop_world_open(loop_world *w, const toolgov_allocator *alloc);
void loop_world_close(loop_world *w);

#endif
