/* SPDX-License-Identifier: MIT */
/*
** chat.h: the demo's model behind the API the loop speaks (OpenAI Chat
** Completions, the loop's TOOLGOV_LOOP_OPENAI_CHAT).
**
** The runtime's loop sends requests and reads responses in an API's own
** JSON; the demo's model (model.h) proposes calls or an answer in C. These
** two functions are the model's side of the wire: its proposal written as
** a chat completion, and the result of one of its calls read back from the
** next request, as a model reads it. Everything else (building requests,
** reading responses, gating, asking) is the loop's.
**
** Ownership: returned strings are the caller's (free()).
*/
#ifndef TOOLGOV_DEMO_CHAT_H
#define TOOLGOV_DEMO_CHAT_H

#include <stddef.h>

#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of a call id, with its NUL. */
#define DEMO_CHAT_ID_MAX 40

/* The id the completion gives call i (0-based) of model request `step`:
** "call_<step>_<i + 1>", unique in a turn. */
void demo_chat_call_id(char *out, size_t size, unsigned step, size_t i);

/* The proposal as a chat completion: each call with its id (up to
** DEMO_MAX_BATCH), or, with no call, the answer as the message's content.
** Strings go in as they are, escaped as JSON needs (a model may write any
** bytes: the loop judges them). *out (malloc'd, NUL-terminated, *out_len
** bytes). 0 or TOOLGOV_ENOMEM. */
int demo_chat_completion(char **out, size_t *out_len, const demo_proposal *p, unsigned step);

/* The result the loop sent for call `id` (its tool message in the
** request `req`, len bytes, NUL-terminated), decoded; NULL when there is
** none (or out of memory). The message is found by the very text the loop
** writes for it (toolgov_loop_tool_result_render), so nothing here guesses
** its form. */
char *demo_chat_result(const char *req, size_t len, const char *id);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_DEMO_CHAT_H */
