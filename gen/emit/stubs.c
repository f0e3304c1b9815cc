/* SPDX-License-Identifier: MIT */
/*
** stubs.c: handler skeletons (see stubs.h).
*/
#include "emit/stubs.h"

#include <stdio.h>
#include <string.h>

#include "base/contract.h"
#include "base/names.h"

/* The description's first line, cut before the character that would pass
** 70 bytes, with every "*" followed by "/" and every "/" followed by "*"
** broken by a space, so the comment holds and no comment opens in it
** (-Wcomment; file globs are common in descriptions). */
static void summary(char out[80], const char *s, size_t n)
{
    size_t i, o = 0;
    for (i = 0; i < n && s[i] != '\n' && s[i] != '\r'; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) != 0x80 && o >= 70) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        out[o++] = (char)c;
        if ((c == '*' && i + 1 < n && s[i + 1] == '/') ||
            (c == '/' && i + 1 < n && s[i + 1] == '*'))
            out[o++] = ' ';
    }
    out[o] = '\0';
}

size_t toolgov__handler_stub(char *out, size_t cap, const toolgov__manifest *m,
                             const toolgov__tool_decl *t)
{
    char line[80], macro[TOOLGOV_NAME_MAX + sizeof TOOLGOV_HANDLER_MACRO_SUFFIX];
    const char *effect = t->effect == TOOLGOV_EFFECT_READ    ? "read"
                         : t->effect == TOOLGOV_EFFECT_WRITE ? "write"
                                                             : "destructive";
    int n;
    summary(line, t->description, t->description_len);
    if (toolgov__handler_macro(macro, sizeof macro, m->name) >= sizeof macro)
        return 0; /* not a plugin name the loader accepts */
    n = snprintf(out, cap,
                 "\n/* %s (%s): %s */\n"
                 "%s(%s, " TOOLGOV_HANDLER_PARAMS ")\n"
                 "{\n"
                 "    (void)call;\n"
                 "    (void)args;\n"
                 "    (void)out;\n"
                 "    return TOOLGOV_EHANDLER; /* not written yet */\n"
                 "}\n",
                 t->name, effect, line, macro, t->name);
    return n < 0 ? 0 : (size_t)n;
}
