/* SPDX-License-Identifier: MIT */
/* Mounts the notes plugin, prints what the registry knows of it, then runs
** calls through the installed runtime: two spellings of one call decode to
** one canonical text, a handler reads its typed arguments, a call its
** parameters refuse and an unknown tool get their own codes. */
#include <stdio.h>
#include <string.h>

#include <toolgov/policy.h>
#include <toolgov/run.h>

#include "notes.toolgov.h"

size_t notes_cxx_args_size(void);

static int calls(const toolgov_policy *pol)
{
    static const char spaced[] = "{ \"tags\": [\"shop\"], \"title\": \"milk\" }";
    static const char filled[] = "{\"title\":\"milk\",\"priority\":\"normal\",\"tags\":[\"shop\"]}";
    toolgov_run *run = NULL;
    toolgov_decoded_call dc;
    toolgov_outcome oc;
    char first[128];
    int rc = toolgov_run_new(&run, pol, NULL);
    if (rc != 0)
        return rc;
    if ((rc = toolgov_run_decode(&dc, run, "notes_add", spaced, strlen(spaced))) != 0)
        goto done;
    snprintf(first, sizeof first, "%s", dc.args);
    if ((rc = toolgov_run_decode(&dc, run, "notes_add", filled, strlen(filled))) != 0)
        goto done;
    printf("canonical %s %s\n", dc.args, strcmp(first, dc.args) == 0 ? "same" : "DIFFERENT");
    rc = toolgov_run_invoke(&oc, run, "notes_find", "{\"word\": \"milk\"}");
    printf("notes_find rc=%d output=%.*s\n", rc, (int)oc.output_len, oc.output);
    rc = toolgov_run_invoke(&oc, run, "notes_add", "{\"title\": 5}");
    printf("notes_add rc=%s output=%.*s\n", rc == TOOLGOV_EARGS ? "EARGS" : "other",
           (int)oc.output_len, oc.output);
    rc = toolgov_run_invoke(&oc, run, "notes_drop", "{}");
    printf("notes_drop rc=%s\n", rc == TOOLGOV_ENOENT ? "ENOENT" : "other");
    rc = 0;
done:
    toolgov_run_free(run);
    return rc;
}

int main(void)
{
    toolgov_registry *reg = NULL;
    toolgov_policy *pol = NULL;
    const toolgov_tool_spec *find, *add;
    int rc = toolgov_registry_new(&reg, NULL);

    if (rc == 0)
        rc = toolgov_registry_mount(reg, &notes_toolgov_plugin, NULL);
    if (rc == 0)
        rc = toolgov_policy_new(&pol, reg);
    if (rc != 0) {
        fprintf(stderr, "notes_host: %s\n", toolgov_strerror(rc));
        toolgov_registry_free(reg);
        return 1;
    }
    find = toolgov_registry_find(reg, "notes_find");
    add = toolgov_registry_find(reg, "notes_add");
    if (!find || !add || notes_cxx_args_size() == 0) {
        toolgov_policy_free(pol);
        toolgov_registry_free(reg);
        return 1;
    }
    printf("notes_find effect=%d notes_add effect=%d confirm=%d owner=%s\n",
           (int)find->effect, (int)add->effect, (int)add->confirm,
           toolgov_registry_owner(reg, "notes_add"));
    rc = calls(pol);
    if (rc != 0)
        fprintf(stderr, "notes_host: %s\n", toolgov_strerror(rc));
    toolgov_policy_free(pol);
    toolgov_registry_free(reg);
    return rc != 0;
}
