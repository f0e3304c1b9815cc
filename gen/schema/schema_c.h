/* SPDX-License-Identifier: MIT */
/*
** schema_c.h: a tool's compiled parameters (schema.h) rendered as C: the
** argument struct and its types for the generated header, the descriptor
** tables of toolgov/args.h for the generated C file, and the check that the
** C names of one plugin do not clash (docs/generated-code.md).
**
** Ownership: buffers and nodes are borrowed for the call.
*/
#ifndef TOOLGOV_GEN_SCHEMA_C_H
#define TOOLGOV_GEN_SCHEMA_C_H

#include <stdint.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/index.h"
#include "schema/schema.h"


/* What the tables of one render have written so far, so that identical
** objects are written once (schema_c.c, "Sharing"). Set up with _init,
** released with _free; the names and records it hands out live in the
** render's arena (cx->arena of toolgov__schema_c_tables). */
typedef struct toolgov__schema_share_key toolgov__schema_share_key;

typedef struct toolgov__schema_share {
    toolgov__schema_share_key *seen; /* the keys written, in order */
    size_t seen_count, seen_alloc;
    toolgov__index seen_ix;  /* positions in seen by key; reads the keys
                             ** through this struct, which therefore stays
                             ** where _init put it */
    unsigned next_id;
    toolgov__buf body;       /* the key being rendered, reused */
    const char *none_schema; /* the no-arguments text's name, once written */
    toolgov__arena scratch;  /* one tool's in-memory tables while its
                             ** objects are rendered; reset per tool */
} toolgov__schema_share;

void toolgov__schema_share_init(toolgov__schema_share *sh);
void toolgov__schema_share_free(toolgov__schema_share *sh);

/* The static const descriptor tables of one tool and its canonical JSON
** Schema text, writing only the objects no earlier call with the same `sh`
** wrote. *out_params: the name of the root node (`<plugin>_Params_<tool>`,
** or an earlier tool's identical one; NULL for root NULL); *out_schema: the
** name of the static char array holding the schema text. Both borrowed from
** cx->arena. 0, or -1 when out of memory. */
int toolgov__schema_c_tables(toolgov__buf *b, toolgov__schema_share *sh,
                             toolgov__schema_ctx *cx, const char *plugin, const char *tool,
                             const toolgov__snode *root, const char **out_params,
                             const char **out_schema);

/* The string enums, nested structs and the argument struct
** <plugin>_Args_<tool> of one tool, inner types first; for root NULL (no
** parameters) a typedef of toolgov_no_args. 0, or -1 when out of memory. */
int toolgov__schema_c_types(toolgov__buf *b, const char *plugin, const char *tool,
                            const toolgov__snode *root);

/* One declaration per string enum that fails to compile where the enum is
** not int-sized (the decoder stores an int; -fshort-enums would break it).
** 0, or -1 when out of memory. */
int toolgov__schema_c_enum_checks(toolgov__buf *b, const char *plugin, const char *tool,
                                  const toolgov__snode *root);

/* Report (at the property or enum value) every generated type or enum
** constant name that two places of one plugin's parameters produce. roots[i]
** NULL: tool i has no parameters. 0, or -1 after reporting. */
int toolgov__schema_c_names(toolgov__schema_ctx *cx, const char *plugin, size_t count,
                            const char *const *tools, const toolgov__snode *const *roots,
                            const toolgov__mark *ats);

#endif /* TOOLGOV_GEN_SCHEMA_C_H */
