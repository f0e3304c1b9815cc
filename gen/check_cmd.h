/* SPDX-License-Identifier: MIT */
/*
** check_cmd.h: `toolgov-gen check`, the libclang drift check (docs/drift-check.md).
**
** Not named check.h: the generator's include directory is on the path of
** every test that links it, where a check.h would shadow Check's <check.h>.
*/
#ifndef TOOLGOV_GEN_CHECK_CMD_H
#define TOOLGOV_GEN_CHECK_CMD_H

/* Entry point of the `check` subcommand; argv[0] is "check". Returns the
** process exit status: 0 no drift, 1 drift or a source that did not parse,
** 2 misuse of the command line. */
int toolgov__check_main(int argc, char **argv);

#endif /* TOOLGOV_GEN_CHECK_CMD_H */
