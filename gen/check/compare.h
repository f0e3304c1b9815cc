/* SPDX-License-Identifier: MIT */
/*
** compare.h: compare what the scanner found in a plugin's sources with what
** its manifest declares, and report every disagreement GCC style.
**
** The kinds of drift (docs/drift-check.md has an example of each):
**   - a handler whose tool the manifest does not declare: error at the
**     handler, with a note on how to declare it;
**   - a declared tool with no handler in any source: error at the tool's key
**     in the manifest;
**   - a rename: an undeclared handler whose name is close to a declared tool
**     that has no handler. One error at the handler that says "did you mean"
**     and a note at the manifest line, instead of two unrelated errors;
**   - two handlers for one tool: error at the second, note at the first;
**   - toolgov_register_tool()/toolgov_declare_tool() with a literal name the
**     manifest does not declare: error at the name;
**   - such a call with a name computed at run time: a warning (the runtime
**     refuses undeclared names, so it is the backstop).
**
** Ownership: everything is borrowed for the call.
*/
#ifndef TOOLGOV_GEN_COMPARE_H
#define TOOLGOV_GEN_COMPARE_H

#include <stddef.h>

#include "base/diag.h"
#include "manifest/manifest.h"
#include "check/scan.h"

/* Report every drift between `m` and `s` to `d`. Returns the number of
** errors reported by this call (warnings are counted in d only). Reads only
** path, name and tools[].name/.at of the manifest. */
size_t toolgov__compare(const toolgov__manifest *m, const toolgov__scan *s,
                              toolgov__diag *d);

/* Report clang's errors (and their notes) from the scan as toolgov
** diagnostics, except in a source that uses the handler macro without
** including the generated header of plugin `plugin`: there one error says
** which #include is missing, in place of clang's errors, which do not.
** `plugin` may be NULL (every error as clang gives it). Returns the number
** of errors reported. */
size_t toolgov__compare_report_clang(const toolgov__scan *s, const char *plugin,
                                     toolgov__diag *d);

#endif /* TOOLGOV_GEN_COMPARE_H */
