/* SPDX-License-Identifier: MIT */
/* A precompiled header of the host that defines the generated header's
** include guard. */
#define ECHO_TOOLGOV_H 1
