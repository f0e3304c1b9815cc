/* SPDX-License-Identifier: MIT */
/*
** doc_one_turn.c: docs/runtime.md's "One turn" compiled as it stands (its
** ```c blocks, extracted by doc_blocks.py) and run over the calendar
** example: a registry, a policy, a ranking and the user's yes are what the
** page assumes; the run must create both reminders it proposes, so a call
** with arguments the tool does not take fails here.
*/
#include <stdio.h>
#include <stdlib.h>

#include <toolgov/policy.h>
#include <toolgov/prompt.h>
#include <toolgov/run.h>
#include <toolgov/shortlist.h>

#include "calendar.toolgov.h"
#include "calendar_state.h"

int main(void)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    calendar_state st;
    void *turn_ctx = NULL;
    const char *const ranked_names[] = {"calendar_lookup", "create_reminder"};
    size_t n_ranked = 2;
    int user_said_yes = 1, rc = 0;

    calendar_state_init(&st);
    if (toolgov_registry_new(&reg, NULL) ||
        toolgov_registry_mount(reg, &calendar_toolgov_plugin, &st) ||
        toolgov_policy_new(&pol, reg)) {
        fputs("doc_one_turn: setup failed\n", stderr);
        return 1;
    }
    {
#include "doc_one_turn.inc"
    }
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    if (rc != 0 || st.reminder_count != 2) {
        fprintf(stderr, "doc_one_turn: the page's turn ended with %s and %zu reminders, not 2\n",
                toolgov_strerror(rc), st.reminder_count);
        return 1;
    }
    puts("docs/runtime.md's One turn: two reminders created");
    return 0;
}
