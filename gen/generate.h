/* SPDX-License-Identifier: MIT */
/*
** generate.h: `toolgov-gen generate` without its command line: render a
** validated manifest (codegen) and replace the header/C pair in an output
** directory (fileio), only where the content changed.
**
** Ownership: the manifest and the directory name are borrowed.
*/
#ifndef TOOLGOV_GEN_GENERATE_H
#define TOOLGOV_GEN_GENERATE_H

#include "diag.h"
#include "manifest.h"

/* Render both files, then write them into out_dir (created if missing).
** Nothing is written unless both rendered. 0, or a negative TOOLGOV_E*
** code after reporting to d. */
int toolgov__generate(const toolgov__manifest *m, const char *out_dir, toolgov__diag *d);

#endif /* TOOLGOV_GEN_GENERATE_H */
