/* SPDX-License-Identifier: MIT */
/*
** generate.h: `toolgov-gen generate` without its command line: render a
** validated manifest (codegen) and replace the header/C pair in an output
** directory (fileio), only where the content changed.
**
** Ownership: toolgov__generate borrows the manifest; toolgov__generate_consume
** takes it and frees it. The directory name is borrowed.
*/
#ifndef TOOLGOV_GEN_GENERATE_H
#define TOOLGOV_GEN_GENERATE_H

#include "base/diag.h"
#include "manifest/manifest.h"

/* Render both files, then write them into out_dir (created if missing).
** Nothing is written unless both rendered. 0, or a negative TOOLGOV_E*
** code after reporting to d. */
int toolgov__generate(const toolgov__manifest *m, const char *out_dir, toolgov__diag *d);

/* The same for a manifest the caller gives up: *m is freed once both files
** are rendered, before either is written, and set to NULL (also on failure).
** Pages just freed are what the kernel hands out next, so the page cache of
** the files written reuses the manifest's memory instead of fresh pages,
** which on a VM whose host takes freed memory back are slow to get
** (docs/testing.md, "The floor of the write"). */
int toolgov__generate_consume(toolgov__manifest **m, const char *out_dir, toolgov__diag *d);

#endif /* TOOLGOV_GEN_GENERATE_H */
