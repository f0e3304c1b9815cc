/* SPDX-License-Identifier: MIT */
/*
** tooljson.h: the one rendering of a tool list in each API's shape
** (toolcalls.h lists the shapes), the one effect -> MCP annotations mapping
** and the one no-arguments schema. The runtime's toolgov_tools_render(),
** toolgov-mcp's tools/list and `toolgov-gen export` all write their lists
** here; each only says which tools, in which order, with which text.
**
** Internal (toolgov__ names). Compiled into libtoolgov and into toolgov-gen
** (with out.c and jsonwrite.c, which it writes through; tooljson_openai.c
** with the JSON reader it reads the list back with). tooljson.c allocates
** nothing; no state anywhere.
*/
#ifndef TOOLGOV_TOOLJSON_H
#define TOOLGOV_TOOLJSON_H

#include <stddef.h>

#include "jbuf.h"
#include "out.h"
#include "toolgov/toolcalls.h"
#include "toolgov/toolgov.h"

/* The canonical JSON Schema of a tool that takes no arguments: what the
** generator writes into such a tool's spec (schema_json) and what a spec
** without a schema text is rendered with. */
#define TOOLGOV__NO_ARGS_SCHEMA \
    "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"

/* One tool as a list shows it. Every text is borrowed for the call. */
typedef struct toolgov__tool_view {
    const char *name;
    size_t name_len;
    /* "" or an effect mark (toolgov__effect_mark), written with a space
    ** at the start of the description, inside its JSON string. */
    const char *mark;
    const char *description;
    size_t description_len;
    const char *schema; /* canonical schema text; NULL: the no-arguments one */
    toolgov_effect effect;
} toolgov__tool_view;

/* Fill *out with the i-th tool of the caller's list; return 1 to list it,
** 0 to leave it out. */
typedef int (*toolgov__tool_view_fn)(void *ud, size_t i, toolgov__tool_view *out);

/* Write the list of tools 0..n-1 (those view() lists, in that order) in
** shape fmt, compact, no trailing newline:
**   OPENAI       [{"type":"function","function":{"name","description","parameters"}},...]
**   ANTHROPIC    [{"name","description","input_schema"},...]
**   MCP          {"tools":[{"name","description","inputSchema","annotations"},...]}
**   JSON_SCHEMA  {"<name>":<schema>,...}
** Strings in jsonwrite.h's spelling. The caller checks fmt. */
void toolgov__tools_write(toolgov__out *o, toolgov_tools_format fmt, size_t n,
                          toolgov__tool_view_fn view, void *ud);

/* The MCP annotations of an effect, a JSON object text: read is
** readOnlyHint; write is not read-only, not destructive, not idempotent;
** destructive (and anything else) is destructiveHint. */
const char *toolgov__mcp_annotations(toolgov_effect e);

/* The mark a model sees for a tool's effect and its confirm-once policy
** ("once": the policy asks once for it), without a trailing space:
** "[destructive, needs approval]", "[write, asks once]", "[write]",
** "[asks once]", or "" (a read tool not asked for). */
const char *toolgov__effect_mark(toolgov_effect e, int once);

/* ---- OpenAI's other shapes (tooljson_openai.c) ---- */

#define TOOLGOV__TOOLS_STRICT 1u /* OpenAI's strict mode */
#define TOOLGOV__TOOLS_FLAT 2u   /* the Responses API's flat function */

/* The OPENAI list `tools` (len bytes, as toolgov__tools_write writes it)
** rewritten into *out (cleared first), as `how` says:
**   FLAT     each entry {"type":"function","name","description",
**            "parameters","strict":false} (the `tools` of a Responses
**            request);
**   STRICT   each function with "strict": true and its parameters by
**            strict mode's rules: every object lists all its properties in
**            "required" and has "additionalProperties": false, an optional
**            property is typed with "null" added (anyOf with {"type":
**            "null"} where it has no type), keywords strict mode does not
**            take are left out and said in the schema's description.
** Both may be given. The one place these shapes are written: the loop's
** requests, toolgov_tools_render_with and `toolgov-gen export`. Scratch
** memory through `alloc`, freed before it returns. 0, TOOLGOV_EINVAL (not
** such a list), TOOLGOV_ENOMEM. */
int toolgov__tools_openai(toolgov__jbuf *out, const char *tools, size_t len, unsigned how,
                          const toolgov_allocator *alloc);

#endif /* TOOLGOV_TOOLJSON_H */
