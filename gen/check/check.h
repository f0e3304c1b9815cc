/* SPDX-License-Identifier: MIT */
/*
** check/check.h: `toolgov-gen check`, the libclang drift check
** (docs/drift-check.md).
*/
#ifndef TOOLGOV_GEN_CHECK_CHECK_H
#define TOOLGOV_GEN_CHECK_CHECK_H

/* Entry point of the `check` subcommand; argv[0] is "check". Returns the
** process exit status: 0 no drift, 1 drift or a source that did not parse,
** 2 misuse of the command line. */
int toolgov__check_main(int argc, char **argv);

#endif /* TOOLGOV_GEN_CHECK_CHECK_H */
