/* SPDX-License-Identifier: MIT */
/* loop_world.c: see loop_world.h. */
#include "loop_world.h"

#include <string.h>

#include "calendar.toolgov.h"
#include "code_exec.toolgov.h"
#include "email_workflows.toolgov.h"
#include "finance_workflows.toolgov.h"
#include "planner.toolgov.h"
#include "research.toolgov.h"
#include "system.toolgov.h"

static int memory_search(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)call;
    (void)args;
    return toolgov_result_printf(out, "- Prefers reminders at 08:30 on the day something is due.\n");
}

int loop_world_open(loop_world *w, const toolgov_allocator *alloc)
{
    int rc;

    memset(w, 0, sizeof *w);
    calendar_state_init(&w->calendar);
    email_state_init(&w->email);
    planner_state_init(&w->planner);
    if ((rc = toolgov_registry_new(&w->reg, alloc)))
        return rc;
    if ((rc = toolgov_registry_bind_builtin(w->reg, "memory_search", memory_search, NULL)) ||
        (rc = toolgov_registry_mount(w->reg, &calendar_toolgov_plugin, &w->calendar)) ||
        (rc = toolgov_registry_mount(w->reg, &finance_workflows_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(w->reg, &email_workflows_toolgov_plugin, &w->email)) ||
        (rc = toolgov_registry_mount(w->reg, &planner_toolgov_plugin, &w->planner)) ||
        (rc = toolgov_registry_mount(w->reg, &system_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(w->reg, &research_toolgov_plugin, NULL)) ||
        (rc = toolgov_registry_mount(w->reg, &code_exec_toolgov_plugin, NULL)))
        return rc;
    return toolgov_policy_new(&w->pol, w->reg);
}

void loop_world_close(loop_world *w)
{
    toolgov_policy_free(w->pol);
    toolgov_registry_free(w->reg);
    w->pol = NULL;
    w->reg = NULL;
}
