/* SPDX-License-Identifier: MIT */
/*
** contract.h: the names of the generated code, and what the generated code
** and the drift check agree on about handlers, written once.
**
** Names. Plugin and tool names are [a-z][a-z0-9_]* (names.c), and every
** name the generator writes has one of three shapes:
**
**   <plugin>_<Kind>_<rest>   every lower- or mixed-case name: a capitalised
**   <plugin>_<Kind>          kind word without '_' (Handler, Call, Args, Enum,
**                            Tool, ToolId, ...) after the plugin's name, and
**                            a rest made of tool names, property names and
**                            numbers;
**   <plugin>_toolgov_plugin  the plugin descriptor (no capital at all);
**   <PLUGIN>_TOOLGOV_<WORD>  every macro: the plugin's name in capitals and
**                            a word without '_' (H, GENERATION, HANDLER).
**
** Why two plugins can never produce the same name: in the first two shapes
** the plugin's name is everything before the first "_" followed by a
** capital (a plugin name has no capital), so equal names have equal
** plugins. The descriptor is the only generated name without a capital and
** ends in the fixed "_toolgov_plugin". A macro contains no lower-case
** letter, while every other generated name starts with one; its WORD is
** what follows the last '_', and removing "_TOOLGOV_<WORD>" leaves the
** plugin's name in capitals, which maps back to one lower-case name. (The
** uppercase shape has to end in a word without '_': <PLUGIN>_TOOL_<TOOL>
** would give MAIL_TOOL_TOOL_ID for both mail/tool_id and mail_tool/id.)
** Names inside one plugin are kept apart by the loader: kinds keyed by the
** tool alone are unique because tool names are, and the struct and enum
** names that grow with property paths are checked for clashes
** (toolgov__schema_c_names); the shared table objects are
** <plugin>_<Kind>_<number>, and no tool name starts with a digit. The helper macros TOOLGOV_HANDLER_*_ are
** the runtime's own (a plugin name never starts with "toolgov") and every
** generated header defines them alike.
**
** Handlers. A handler is defined with its plugin's macro,
** <PLUGIN>_TOOLGOV_HANDLER(tool, call, args, out), which defines
** int <plugin>_Handler_<tool>(const toolgov_call *call,
**                             const <plugin>_Args_<tool> *args,
**                             toolgov_result *out)
** exactly as the generated header declares it; under clang the definition
** carries __attribute__((annotate(TOOLGOV_ANNOTATION_PREFIX "<tool>"))),
** which is how the drift check tells a handler from any other function.
** The generated C file registers a static wrapper <plugin>_Call_<tool> of
** the runtime's handler type that calls the handler, so no function
** pointer is ever cast. codegen.c writes these names, scan.c and compare.c
** look for them, stubs.c prints the form. Change them here, and the
** goldens, together.
**
** Ownership: every function here writes into the caller's buffer, like
** snprintf, and returns the length it needs (without the NUL); a call with
** out NULL or cap 0 only sizes.
*/
#ifndef TOOLGOV_GEN_CONTRACT_H
#define TOOLGOV_GEN_CONTRACT_H

#include <stdio.h>
#include <string.h>

/* The annotation on a handler's definition: this prefix, then the tool. */
#define TOOLGOV_ANNOTATION_PREFIX "toolgov:tool:"

/* Kind words, each with the underscores around it. */
#define TOOLGOV_HANDLER_INFIX "_Handler_" /* <plugin>_Handler_<tool> */
#define TOOLGOV_CALL_INFIX "_Call_"       /* the registered wrapper */
#define TOOLGOV_ARGS_INFIX "_Args_"       /* the decoded arguments' type */

/* The descriptor's suffix: <plugin>_toolgov_plugin. */
#define TOOLGOV_DESCRIPTOR_SUFFIX "_toolgov_plugin"

/* The handler macro's suffix after the plugin's name in capitals, and the
** names its definition gives the handler's parameters after the tool (as
** `toolgov-gen stubs` and the drift check's advice write them). */
#define TOOLGOV_HANDLER_MACRO_SUFFIX "_TOOLGOV_HANDLER"
#define TOOLGOV_HANDLER_PARAMS "call, args, out"

/* <plugin><infix><tool> into out[0..cap). */
static inline size_t toolgov__kind_name(char *out, size_t cap, const char *plugin,
                                        const char *infix, const char *tool)
{
    size_t need = strlen(plugin) + strlen(infix) + strlen(tool);
    if (out == NULL || cap == 0)
        return need; /* a sizing call */
    (void)snprintf(out, cap, "%s%s%s", plugin, infix, tool);
    return need;
}

/* The handler symbol of (plugin, tool): <plugin>_Handler_<tool>. */
static inline size_t toolgov__handler_symbol(char *out, size_t cap, const char *plugin,
                                             const char *tool)
{
    return toolgov__kind_name(out, cap, plugin, TOOLGOV_HANDLER_INFIX, tool);
}

/* The handler macro of a plugin: <PLUGIN>_TOOLGOV_HANDLER. */
static inline size_t toolgov__handler_macro(char *out, size_t cap, const char *plugin)
{
    size_t np = strlen(plugin), need = np + sizeof TOOLGOV_HANDLER_MACRO_SUFFIX - 1, i;
    if (out == NULL || cap == 0)
        return need;
    for (i = 0; i < np && i + 1 < cap; i++) {
        char c = plugin[i];
        out[i] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
    }
    out[i] = '\0';
    if (i == np)
        (void)snprintf(out + np, cap - np, "%s", TOOLGOV_HANDLER_MACRO_SUFFIX);
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
