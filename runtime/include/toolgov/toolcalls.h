/* SPDX-License-Identifier: MIT */
/*
** toolcalls.h: the tools on the loop in the shapes model APIs take, and the
** tool calls a model answers with, read back into calls for the gate.
**
** Rendering. toolgov_tools_render() writes the tools named (a shortlist, in
** its order) as one JSON text:
**   TOOLGOV_TOOLS_OPENAI       [{"type":"function","function":{"name",
**                              "description","parameters"}}, ...]
**                              (the `tools` of a chat-completions request)
**   TOOLGOV_TOOLS_ANTHROPIC    [{"name","description","input_schema"}, ...]
**                              (the `tools` of a messages request)
**   TOOLGOV_TOOLS_MCP          {"tools":[{"name","description","inputSchema",
**                              "annotations"}, ...]} (a tools/list result)
**   TOOLGOV_TOOLS_JSON_SCHEMA  {"<tool>": <schema>, ...}
**   TOOLGOV_TOOLS_OPENAI_RESPONSES
**                              [{"type":"function","name","description",
**                              "parameters","strict":false}, ...] (the
**                              `tools` of a Responses API request)
** OpenAI's strict mode (toolgov_tools_render_with, options.strict; both
** OpenAI shapes): each function says "strict": true and its parameters
** follow strict mode's rules (SPEC §12): every object lists all its
** properties in "required" and has "additionalProperties": false; an
** optional property is typed with "null" added (anyOf [schema, {"type":
** "null"}] when it has no type), and the argument decoder reads null for
** it as absent, so the handler's struct is the same; keywords strict mode
** does not take (minLength, maxLength, a string format other than its
** own, default, examples, ...) are left out of the schema and said
** in its description instead. These bytes are the ones the loop sends
** (loop.h, options.strict) and `toolgov-gen export --strict` writes.
** The schema is the tool's canonical JSON Schema (its spec's schema_json).
** A write or destructive tool's description starts with the mark the text
** prompt gives it (prompt.h): "[write] ", "[write, asks once] ",
** "[destructive, needs approval] " (and "[asks once] " for a read tool the
** operator put in the confirm-once set), so a model sees the effect in every
** API. MCP annotations come from the effect as toolgov-gen export writes
** them (docs/function-calling.md). Compact JSON, no trailing newline.
**
** Parsing. toolgov_model_calls_parse() reads a model's answer:
**   TOOLGOV_TOOLS_OPENAI: a chat-completions response ({"choices": [...]},
**     the first choice's message), an assistant message ({"tool_calls":
**     [...]}), or the tool_calls array itself; each call is
**     {"id", "type": "function", "function": {"name", "arguments"}} with
**     `arguments` a JSON string holding the arguments object;
**   TOOLGOV_TOOLS_ANTHROPIC: a messages response ({"content": [...]}) or its
**     content array; each {"type": "tool_use", "id", "name", "input"} block
**     is a call (other blocks, such as text, are not), `input` an object.
** Every call the model made becomes one entry, in order, never dropped:
** status 0 with the canonical arguments (SPEC §9, decoded against the
** tool's parameters), or an error status with a message the model can act
** on: TOOLGOV_ENOENT for a tool that is not in the pool (or not among the
** offered tools, when the caller names them), TOOLGOV_EARGS for arguments
** the tool's parameters refuse (the decoder's message, every problem with
** its JSON path), TOOLGOV_EINVAL for a call that is malformed (no name,
** arguments not a string, a string that is not JSON, input not an object).
** A text that is not a response of that API at all (not JSON, no message)
** fails the parse as a whole with TOOLGOV_EINVAL and a message, since no
** call can be told apart in it.
**
** Ownership: a toolgov_model_calls owns everything its entries point to;
** the entries are valid until its next parse or its free. It borrows the
** registry (and policy), which must outlive it. Allocation goes through the
** registry's allocator hook; a parse allocates nothing once its buffers
** have grown to the largest answer seen. One thread at a time.
*/
#ifndef TOOLGOV_TOOLCALLS_H
#define TOOLGOV_TOOLCALLS_H

#include <stddef.h>

#include "policy.h"
#include "run.h"
#include "toolgov.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum toolgov_tools_format {
    TOOLGOV_TOOLS_OPENAI = 0,
    TOOLGOV_TOOLS_ANTHROPIC = 1,
    TOOLGOV_TOOLS_MCP = 2,        /* rendering only */
    TOOLGOV_TOOLS_JSON_SCHEMA = 3, /* rendering only */
    TOOLGOV_TOOLS_OPENAI_RESPONSES = 4 /* rendering only */
} toolgov_tools_format;

/* Options of toolgov_tools_render_with(); all zero is what
** toolgov_tools_render() writes. */
typedef struct toolgov_tools_options {
    int strict; /* 1: OpenAI's strict mode (OPENAI, OPENAI_RESPONSES only) */
} toolgov_tools_options;

/* Render the `n` tools named in `tools` (pooled names, in that order; a name
** given twice is written once; a pooled tool that is not offered, such as a
** built-in with no handler bound, is left out: see toolgov_registry_offers)
** in format `fmt`. Buffer contract: the
** renderer convention of toolgov.h (size 0 is a sizing call returning 0;
** TOOLGOV_ENOSPC when cut short). TOOLGOV_ENOENT when a name is not in
** the pool (then out holds "" and *needed is 0: never a partial list);
** TOOLGOV_EINVAL (a NULL policy, an unknown format, tools NULL with n > 0).
** Allocates nothing, except for OPENAI_RESPONSES (below). */
TOOLGOV_EXTERN int toolgov_tools_render(char *out, size_t size, size_t *needed,
                                        const toolgov_policy *pol, toolgov_tools_format fmt,
                                        const char *const *tools, size_t n);

/* toolgov_tools_render() with options (NULL: none). The same contract;
** TOOLGOV_EINVAL also for strict with a format other than the two OpenAI
** ones. The Responses shape and strict mode are the chat list rewritten:
** they allocate scratch memory through the registry's allocator, freed
** before the call returns (TOOLGOV_ENOMEM when it fails). */
TOOLGOV_EXTERN int toolgov_tools_render_with(char *out, size_t size, size_t *needed,
                                             const toolgov_policy *pol, toolgov_tools_format fmt,
                                             const char *const *tools, size_t n,
                                             const toolgov_tools_options *opt);

/* One call the model made. Every string is NUL-terminated and never NULL. */
typedef struct toolgov_model_call {
    const char *id;       /* the model's id for the call; "" when it gave none */
    const char *tool;     /* the tool name as the model wrote it; "" when none */
    int status;           /* 0, TOOLGOV_ENOENT, TOOLGOV_EARGS or TOOLGOV_EINVAL */
    const char *error;    /* why the call was refused; "" when status is 0 */
    /* For the gate when status is 0: the tool and its canonical arguments
    ** (toolgov_run_gate_batch, toolgov_run_invoke). Both empty ("")
    ** otherwise. */
    toolgov_proposed_call call;
    size_t args_len;      /* strlen(call.args) */
} toolgov_model_call;

typedef struct toolgov_model_calls toolgov_model_calls;

/* Create a parser over the tools of `reg` (borrowed). *out is owned by the
** caller (toolgov_model_calls_free). TOOLGOV_EINVAL or TOOLGOV_ENOMEM. */
TOOLGOV_EXTERN int toolgov_model_calls_new(toolgov_model_calls **out,
                                           const toolgov_registry *reg);
/* Free it. NULL is a no-op. */
TOOLGOV_EXTERN void toolgov_model_calls_free(toolgov_model_calls *mc);

/* Parse the model's answer `text` (`len` bytes, borrowed for the call) in
** format `fmt` (OPENAI or ANTHROPIC). `offered` (n_offered names, or NULL
** for the whole pool) are the tools the model was given: a call to any
** other is TOOLGOV_ENOENT. Returns 0 with every call as an entry (an answer
** without tool calls gives none); TOOLGOV_EINVAL when the text is not such
** an answer at all (toolgov_model_calls_error() says why; no entries);
** TOOLGOV_ENOMEM (no entries). */
TOOLGOV_EXTERN int toolgov_model_calls_parse(toolgov_model_calls *mc, toolgov_tools_format fmt,
                                             const char *text, size_t len,
                                             const char *const *offered, size_t n_offered);

/* The entries of the last parse: their number and the i-th (NULL when out
** of range). Borrowed until the next parse or free. */
TOOLGOV_EXTERN size_t toolgov_model_calls_count(const toolgov_model_calls *mc);
TOOLGOV_EXTERN const toolgov_model_call *toolgov_model_calls_at(const toolgov_model_calls *mc,
                                                                size_t i);
/* Why the last parse failed as a whole; "" after a successful one. */
TOOLGOV_EXTERN const char *toolgov_model_calls_error(const toolgov_model_calls *mc);

#ifdef __cplusplus
}
#endif

#endif /* TOOLGOV_TOOLCALLS_H */
