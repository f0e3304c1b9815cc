/* SPDX-License-Identifier: MIT */
/*
** export.h: `toolgov-gen export`, a plugin's tools in the exact shapes that
** model APIs take (SPEC section 10).
**
**   openai       the `tools` array of OpenAI chat completions:
**                [{"type": "function", "function": {"name", "description",
**                  "parameters"}}]
**   anthropic    the `tools` array of Anthropic messages:
**                [{"name", "description", "input_schema"}]
**   mcp          a `tools/list` result of the Model Context Protocol:
**                {"tools": [{"name", "description", "inputSchema",
**                  "annotations"}]}, annotations from the effect
**   json-schema  one JSON Schema per tool: {"<tool>": schema, ...}
**   openai-responses
**                the `tools` array of OpenAI's Responses API:
**                [{"type": "function", "name", "description", "parameters",
**                  "strict": false}]
**
** --strict (openai and openai-responses): OpenAI's strict mode, "strict":
** true and each schema by its rules, written by the runtime's one rewriting
** (runtime/src/tooljson_openai.c), byte for byte what the runtime's loop
** sends and toolgov_tools_render_with renders (toolcalls.h).
**
** The tools a model of the host is offered, the pool's (loop: pool or
** both), in manifest order; with --loop own, those of the plugin's own
** loop (loop: own or both) instead, for the model that loop drives. Each schema is the tool's canonical parameters
** text (the no-arguments schema for a tool without parameters); JSON
** pretty-printed with two spaces and a final newline. Byte-identical output
** for identical input.
**
** Ownership: toolgov__export_render() returns a malloc'd text the caller
** frees.
*/
#ifndef TOOLGOV_GEN_EXPORT_H
#define TOOLGOV_GEN_EXPORT_H

#include <stddef.h>

#include "base/diag.h"
#include "manifest/manifest.h"
#include "toolgov/toolcalls.h"

/* The runtime's shapes (toolgov/toolcalls.h): the list is written by the
** runtime's writer (runtime/src/tooljson.c). */
typedef enum toolgov__export_format {
    TOOLGOV_EXPORT_OPENAI = TOOLGOV_TOOLS_OPENAI,
    TOOLGOV_EXPORT_ANTHROPIC = TOOLGOV_TOOLS_ANTHROPIC,
    TOOLGOV_EXPORT_MCP = TOOLGOV_TOOLS_MCP,
    TOOLGOV_EXPORT_JSON_SCHEMA = TOOLGOV_TOOLS_JSON_SCHEMA,
    TOOLGOV_EXPORT_OPENAI_RESPONSES = TOOLGOV_TOOLS_OPENAI_RESPONSES
} toolgov__export_format;

/* "openai", "anthropic", "mcp", "json-schema" or "openai-responses" into
** *out: 0, or -1. */
int toolgov__export_format_parse(const char *name, toolgov__export_format *out);

/* The export of `m` in format `f`: a malloc'd NUL-terminated text in *out,
** its length in *out_len. `loop` selects the tools: TOOLGOV__LOOP_POOL
** (the host's) or TOOLGOV__LOOP_OWN (the plugin's own loop's); a tool is in
** when its loop bits share one with it. strict: OpenAI's strict mode (the
** two OpenAI formats only; the caller checks). 0, or -1 when out of
** memory. */
int toolgov__export_render(char **out, size_t *out_len, const toolgov__manifest *m,
                           toolgov__export_format f, int loop, int strict, toolgov__diag *d);

/* The `export` command: argv holds the words after "export". Returns the
** exit status (0, 1 errors in the manifest or an unwritable --out, 2
** misuse). */
int toolgov__export_main(int argc, char **argv, toolgov__diag *d);

#endif /* TOOLGOV_GEN_EXPORT_H */
