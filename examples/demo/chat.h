/* SPDX-License-Identifier: MIT */
/*
** chat.h: the demo's model behind the API the loop speaks (OpenAI Chat
** Completions, the loop's TOOLGOV_LOOP_OPENAI_CHAT).
**
** The runtime's loop sends requests and reads responses in an API's own
** JSON; the demo's model (model.h) proposes calls or an answer in C. This
** is the model's side of the wire: its proposal written as a chat
** completion. The results of its calls, as the next request carries them,
** the host reads from the loop (toolgov_loop_call_at). Everything else
** (building requests, reading responses, gating, asking) is the loop's.
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

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_DEMO_CHAT_H */
