/* SPDX-License-Identifier: MIT */
/* scripted.c: the demo's scripted model as a chat-completions endpoint in
** process (see scripted.h). */
#include "scripted.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/toolgov.h>

#include "chat.h"
#include "json.h"
#include "model.h"

#define MAX_OBS 256
#define MAX_TOOLS 256

/* The runtime's reader's lookups (json.h), named short for this file. */
static long get(const toolgov__json_doc *d, long obj, const char *key)
{
    return toolgov__json_member(d, obj, key);
}

static const char *str(const toolgov__json_doc *d, long i)
{
    return toolgov__json_str_at(d, i, NULL);
}

static int is_role(const toolgov__json_doc *d, long m, const char *role)
{
    return toolgov__json_str_is(d, get(d, m, "role"), role);
}

int toolgov_agent_scripted(const char *request, size_t len, char **out, size_t *out_len,
                           char *err, size_t errsize)
{
    static const toolgov_allocator heap = {NULL, NULL};
    toolgov__scratch arena;
    toolgov__json_doc d;
    toolgov__json_error jerr;
    demo_observation obs[MAX_OBS];
    const char *call_ids[MAX_OBS];
    const char *tools[MAX_TOOLS];
    demo_proposal *prop = NULL;
    demo_turn t;
    long msgs, tl;
    size_t i, k, n_obs = 0, n_tools = 0;
    unsigned step = 1;
    int rc = -1;

    toolgov__scratch_init(&arena, &heap);
    memset(&t, 0, sizeof t);
    if (toolgov__json_parse(&d, &jerr, &arena, request, len, 64, TOOLGOV__JSON_MAX_LEN, 0)) {
        snprintf(err, errsize, "the request is not JSON: %s", jerr.msg);
        goto out;
    }
    msgs = get(&d, 0, "messages");
    tl = get(&d, 0, "tools");
    if (msgs < 0 || d.nodes[msgs].type != TOOLGOV__JSON_ARRAY) {
        snprintf(err, errsize, "the scripted model speaks OpenAI Chat Completions only");
        goto out;
    }
    if (tl >= 0 && d.nodes[tl].type == TOOLGOV__JSON_ARRAY)
        for (k = 0, i = (size_t)tl + 1; k < d.nodes[tl].len && n_tools < MAX_TOOLS;
             k++, i = d.nodes[i].end) {
            const char *name = str(&d, get(&d, get(&d, (long)i, "function"), "name"));
            if (name)
                tools[n_tools++] = name;
        }
    for (k = 0, i = (size_t)msgs + 1; k < d.nodes[msgs].len; k++, i = d.nodes[i].end) {
        long m = (long)i;
        if (is_role(&d, m, "user") && !t.user) {
            t.user = str(&d, get(&d, m, "content"));
        } else if (is_role(&d, m, "assistant")) {
            long calls = get(&d, m, "tool_calls");
            size_t j, c;
            step++;
            if (calls < 0 || d.nodes[calls].type != TOOLGOV__JSON_ARRAY)
                continue;
            for (c = 0, j = (size_t)calls + 1; c < d.nodes[calls].len && n_obs < MAX_OBS;
                 c++, j = d.nodes[j].end) {
                long fn = get(&d, (long)j, "function");
                demo_observation *o = &obs[n_obs];
                memset(o, 0, sizeof *o);
                o->tool = str(&d, get(&d, fn, "name"));
                o->args = str(&d, get(&d, fn, "arguments"));
                o->output = "";
                o->gate = "ALLOW";
                call_ids[n_obs] = str(&d, get(&d, (long)j, "id"));
                if (o->tool && o->args && call_ids[n_obs])
                    n_obs++;
            }
        } else if (is_role(&d, m, "tool")) {
            const char *id = str(&d, get(&d, m, "tool_call_id"));
            const char *content = str(&d, get(&d, m, "content"));
            size_t j;
            for (j = 0; id && content && j < n_obs; j++)
                if (strcmp(call_ids[j], id) == 0) {
                    int ran = strncmp(content, "not run: ", 9) != 0;
                    obs[j].output = content;
                    obs[j].executed = ran;
                    obs[j].status = ran ? 0
                                    : strstr(content, "do not match the tool's parameters")
                                        ? TOOLGOV_EARGS
                                        : TOOLGOV_EREFUSED;
                }
        }
    }
    if (!t.user) {
        snprintf(err, errsize, "the request has no user message");
        goto out;
    }
    t.tools = tools;
    t.tool_count = n_tools;
    t.obs = obs;
    t.obs_count = n_obs;
    t.step = step;
    t.request = request;
    t.request_len = len;
    if (!(prop = calloc(1, sizeof *prop))) {
        snprintf(err, errsize, "out of memory");
        goto out;
    }
    if (demo_scripted_model.propose(demo_scripted_model.ud, &t, prop)) {
        snprintf(err, errsize, "the scripted model has no next step for this request");
        goto out;
    }
    if (prop->call_count > DEMO_MAX_BATCH)
        prop->call_count = DEMO_MAX_BATCH;
    prop->answer[DEMO_MAX_ANSWER - 1] = '\0';
    /* The proposal as a chat completion, written as the demo writes it
    ** for its own loop (examples/demo/chat.c). */
    rc = demo_chat_completion(out, out_len, prop, step) ? -1 : 0;
    if (rc)
        snprintf(err, errsize, "out of memory");
out:
    free(prop);
    toolgov__scratch_free(&arena);
    return rc;
}
