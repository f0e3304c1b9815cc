/* SPDX-License-Identifier: MIT */
/*
** params_fast.h: a tool's `parameters:` text read into the schema module's
** value tree without libyaml, for the common layouts only.
**
** Most of a big manifest's bytes are its tools' parameters, and libyaml
** reads them at about 25 MB/s (a token, an event and a malloc'd copy per
** scalar). The parameters pool (params_pool.c) reads each text alone; this
** reader gives it the tree libyaml's events would have given, mark for
** mark, for the layouts schemas are written in: block mappings and block
** sequences (also indentless, also compact `- key: value` items), flow
** mappings and sequences on one line, plain scalars on one line, single-
** and double-quoted scalars on one line (the JSON escapes), comments and
** blank lines, CRLF line ends. Anything else, or anything it is not sure
** of (a tab, a block scalar, an anchor, a tag, a multi-line scalar or flow
** collection, a plain scalar with a ':' in flow, a duplicate key, an empty
** value, an escape outside JSON's, NEL, LS, PS or a BOM), it declines
** without reporting, and the caller reads the text with libyaml as
** before: the subset changes how fast a text is read, never what it reads
** to or what is reported (tests/gen/test_params_fast.c compares the two
** readers tree for tree, marks included).
**
** Ownership: the tree is built in cx->arena (declined or not: the caller
** resets the arena it gave before reading again); buf is borrowed.
*/
#ifndef TOOLGOV_GEN_PARAMS_FAST_H
#define TOOLGOV_GEN_PARAMS_FAST_H

#include <stddef.h>

#include "schema.h"

/* Read buf[0..len): a slice of a manifest that starts at the line of a
** `parameters:` key (kcol spaces, then the key) whose line in the file is
** `line`, and holds the key's value and nothing after it but blank and
** comment lines. 1 with *out the value's tree; 0 when the text is outside
** the subset (the caller reads it with libyaml); -1 when out of memory
** (cx->oom set, reported). A scalar the schema module refuses (a YAML
** number JSON cannot hold) is reported as toolgov__schema_read_yaml()
** reports it, and the result is 0. */
int toolgov__params_fast_read(toolgov__schema_ctx *cx, const unsigned char *buf, size_t len,
                              unsigned line, size_t kcol, toolgov__jval **out);

#endif /* TOOLGOV_GEN_PARAMS_FAST_H */
