/* SPDX-License-Identifier: MIT */
/*
** contract.h: what the generated code and the drift check agree on about
** handlers, written once.
**
** A handler is defined with the macro the generated header provides
** (TOOLGOV_HANDLER_MACRO). Its symbol is the plugin name, the infix and the
** tool name (<plugin>_tool_<tool>: toolgov__handler_symbol() spells it), and
** under clang the definition carries
** __attribute__((annotate(TOOLGOV_ANNOTATION_PREFIX "<tool>"))), which is
** how the drift check tells a handler from any other function. codegen.c
** writes these names into the generated header and C file; scan.c and
** drift.c look for them. Change them here, and the goldens, together.
**
** Ownership: toolgov__handler_symbol() writes into the caller's buffer.
*/
#ifndef TOOLGOV_GEN_CONTRACT_H
#define TOOLGOV_GEN_CONTRACT_H

#include <stdio.h>
#include <string.h>

/* The annotation on a handler's definition: this prefix, then the tool. */
#define TOOLGOV_ANNOTATION_PREFIX "toolgov:tool:"

/* Between the plugin name and the tool name in a handler's symbol. */
#define TOOLGOV_HANDLER_INFIX "_tool_"

/* The macro a handler is defined with, and the names its definition gives
** the handler's parameters after the tool (as `toolgov-gen stubs` and the
** drift check's advice write them): TOOLGOV_HANDLER(tool, call, out). */
#define TOOLGOV_HANDLER_MACRO "TOOLGOV_HANDLER"
#define TOOLGOV_HANDLER_PARAMS "call, out"

/* The handler symbol of (plugin, tool) into out[0..cap), like snprintf:
** returns the length it needs (without the NUL). */
static inline size_t toolgov__handler_symbol(char *out, size_t cap, const char *plugin,
                                             const char *tool)
{
    size_t need = strlen(plugin) + (sizeof TOOLGOV_HANDLER_INFIX - 1) + strlen(tool);
    if (out == NULL || cap == 0)
        return need; /* a sizing call */
    (void)snprintf(out, cap, "%s" TOOLGOV_HANDLER_INFIX "%s", plugin, tool);
    return need;
}

/* 1 when `symbol` is plugin's handler symbol for some tool (the tool is then
** at symbol + *tool_off), 0 otherwise. */
static inline int toolgov__handler_symbol_split(const char *symbol, const char *plugin,
                                                size_t *tool_off)
{
    size_t lp = strlen(plugin), li = sizeof TOOLGOV_HANDLER_INFIX - 1;
    if (strncmp(symbol, plugin, lp) != 0 ||
        strncmp(symbol + lp, TOOLGOV_HANDLER_INFIX, li) != 0 || symbol[lp + li] == '\0')
        return 0;
    *tool_off = lp + li;
    return 1;
}

#endif /* TOOLGOV_GEN_CONTRACT_H */
