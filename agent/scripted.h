/* SPDX-License-Identifier: MIT */
/*
** scripted.h: the model toolgov-agent talks to without --base-url: the
** demo's scripted model (examples/demo/scripted_model.c) behind an OpenAI
** Chat Completions face. It reads the request the loop wrote (the user's
** first message, the tools, every tool call and its result) and answers
** with a chat completion, so the whole path but the socket is the real one.
*/
#ifndef TOOLGOV_AGENT_SCRIPTED_H
#define TOOLGOV_AGENT_SCRIPTED_H

#include <stddef.h>

/* Answer `request` (len bytes of a chat-completions request body) with a
** chat-completion body in *out (malloc'd, NUL-terminated, *out_len bytes).
** 0, or -1 with a message in err (errsize bytes). */
int toolgov_agent_scripted(const char *request, size_t len, char **out, size_t *out_len,
                           char *err, size_t errsize);

#endif
