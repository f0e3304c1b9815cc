/* SPDX-License-Identifier: MIT */
/*
** schema.h: the compiler for a tool's `parameters:` (SPEC section 9): a JSON
** Schema object in the subset toolgov supports, turned into a checked node
** model that code generation, exports and in-memory descriptor tables use.
**
** Two layers. A JSON value tree (value.h) is what a reader produces:
** the manifest's YAML walk builds it from libyaml events under `parameters:`,
** toolgov__jtext_parse() builds it from JSON text, and tests or fuzzers may
** build it directly with the toolgov__jv_* calls. Every value and object key
** carries the line:column it came from. toolgov__schema_compile() then checks
** the tree against the subset and yields a toolgov__snode tree: one node per
** schema, with its type, bounds, enum, properties (each with a safe C name)
** and items resolved. Every problem is reported through the diag sink at its
** own line:column, with "did you mean" for misspelt keywords, and compiling
** goes on after an error so that one run names all of them.
**
** A schema whose value may take more than one JSON type (anyOf, oneOf, a
** list of types, type null, or no type) compiles to a TOOLGOV_S_RAW node:
** the handler gets its JSON text, the runtime still validates it (its
** branches and keywords are compiled and checked here like any other), and
** exports keep it as written.
**
** toolgov__schema_text() writes the canonical JSON text of a tree: members
** in the order written, no insignificant whitespace, numbers as written
** (they are JSON numbers), strings spelt by the runtime's canonical writer
** (runtime/src/jsonwrite.c, compiled into the generator too).
**
** Ownership: every jval, snode and string comes from the arena of the
** context and lives until that arena is freed; nothing here frees one by one.
** Input strings given to the builders are copied. A compiled tree never
** points into the value tree it came from (it keeps copies of the names,
** texts, enum and default values it needs, and the root its canonical
** text), so the value tree may live in another arena and be freed, or that
** arena reset, right after compiling: the manifest loader builds each
** tool's value tree in one scratch arena it reuses.
*/
#ifndef TOOLGOV_GEN_SCHEMA_H
#define TOOLGOV_GEN_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/diag.h"
#include "schema/node.h"
#include "schema/schema_tables.h"
#include "schema/value.h"

#include <toolgov/args.h>

/* ---- compiling ----------------------------------------------------------- */

/* Compile `root`, the value of a tool's `parameters:` (at `at`, where the
** key is), into *out. The root must be a schema of type object. 0, or -1
** after reporting every problem (nothing is returned then). */
int toolgov__schema_compile(toolgov__schema_ctx *cx, const toolgov__jval *root, toolgov__mark at,
                            toolgov__snode **out);

/* The canonical JSON Schema text of a compiled tool (NUL-terminated, in
** the arena): the tree as written, compact. For a tool without parameters
** pass NULL: {"type":"object","properties":{},"additionalProperties":false}.
** 0, or -1 when out of memory. */
int toolgov__schema_text(toolgov__schema_ctx *cx, const toolgov__snode *root, const char **out,
                         size_t *out_len);

/* A C identifier for the JSON name s[0..len): bytes outside [A-Za-z0-9_]
** become '_', runs of '_' become one, a leading digit or a leading '_'
** before an uppercase letter gets a "p" in front, an empty result is "p",
** and a C or C++ keyword, a name a standard header defines as a macro, or
** "has" gets a '_' after it. In the arena; NULL when out of memory. */
const char *toolgov__c_name(toolgov__schema_ctx *cx, const char *s, size_t len);

/* ---- reading JSON text (schema_json.c) ------------------------------------ */

/* Parse JSON text (RFC 8259, UTF-8; duplicate keys refused) into *out with
** 1-based line:column marks counted in characters. 0, or -1 after reporting every problem found (parsing stops
** at the first syntax error). */
int toolgov__jtext_parse(toolgov__schema_ctx *cx, const char *text, size_t len,
                        toolgov__jval **out);

/* ---- reading YAML (schema_yaml.c) ---------------------------------------- */

struct toolgov__reader;

/* Read the YAML node whose first event is the reader's current one (the
** value of `parameters:`) into *out, leaving its last event current. 0 with
** a tree (values that could not be read, such as aliases, are reported and
** left out); 1 when the node itself could not be read (reported, *out
** NULL); -1 when the event stream cannot go on (reported). */
int toolgov__schema_read_yaml(toolgov__schema_ctx *cx, struct toolgov__reader *src,
                              toolgov__jval **out);

#endif /* TOOLGOV_GEN_SCHEMA_H */
