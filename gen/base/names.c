/* SPDX-License-Identifier: MIT */
/*
** names.c: the identifier rules of a manifest (see names.h).
*/
#include "base/names.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Both keyword sets, sorted for bsearch: C's (C89 to C23) and C++'s own.
** Tool names may be C++ keywords: they reach C++ only inside generated
** identifiers (`<plugin>_Handler_delete`) and as the handler macro's
** argument, which is pasted (##) and never stands alone. */

static const char *const c_keywords[] = {
    "alignas", "alignof", "auto", "bool", "break", "case", "char", "const",
    "constexpr", "continue", "default", "do", "double", "else", "enum",
    "extern", "false", "float", "for", "goto", "if", "inline", "int", "long",
    "nullptr", "register", "restrict", "return", "short", "signed", "sizeof",
    "static", "static_assert", "struct", "switch", "thread_local", "true",
    "typedef", "typeof", "typeof_unqual", "union", "unsigned", "void",
    "volatile", "while"};

static const char *const cxx_keywords[] = {
    "and", "and_eq", "asm", "bitand", "bitor", "catch", "char16_t",
    "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield",
    "compl", "concept", "const_cast", "consteval", "constinit", "decltype",
    "delete", "dynamic_cast", "explicit", "export", "friend", "mutable",
    "namespace", "new", "noexcept", "not", "not_eq", "operator", "or",
    "or_eq", "private", "protected", "public", "reinterpret_cast", "requires",
    "static_cast", "template", "this", "throw", "try", "typeid", "typename",
    "using", "virtual", "wchar_t", "xor", "xor_eq"};

static int cmp_keyword(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

static int in_sorted(const char *s, const char *const *list, size_t n)
{
    return bsearch(s, list, n, sizeof *list, cmp_keyword) != NULL;
}

/* Bit `len` of kw_shape[c - 'a'] is set when some keyword starts with c and
** is len bytes long: most names fail this test and skip both searches. */
static uint32_t kw_shape[26];
static int kw_shape_ready;

static void init_kw_shape(void)
{
    size_t i;
    for (i = 0; i < COUNT_OF(c_keywords); i++)
        kw_shape[c_keywords[i][0] - 'a'] |= (uint32_t)1 << strlen(c_keywords[i]);
    for (i = 0; i < COUNT_OF(cxx_keywords); i++)
        kw_shape[cxx_keywords[i][0] - 'a'] |= (uint32_t)1 << strlen(cxx_keywords[i]);
    kw_shape_ready = 1;
}

static int maybe_keyword(const char *s, size_t len)
{
    if (!kw_shape_ready)
        init_kw_shape();
    return len < 32 && (kw_shape[s[0] - 'a'] >> len & 1u);
}

int toolgov__name_check(toolgov__diag *d, const char *path, toolgov__mark at, const char *s,
                        size_t len, enum toolgov__name_kind kind)
{
    const char *what = kind == TOOLGOV_NAME_PLUGIN ? "plugin name"
                       : kind == TOOLGOV_NAME_TOOL ? "tool name"
                                           : "provides entry";
    char q[TOOLGOV_SHOW_MAX];
    size_t i;
    int double_underscore = 0;

    if (len == 0) {
        toolgov__diag_error_at(d, path, at, "%s is empty; it must match [a-z][a-z0-9_]*", what);
        return -1;
    }
    /* The common case, a good name, costs one pass and no formatting. */
    if (len <= TOOLGOV_NAME_MAX && s[0] >= 'a' && s[0] <= 'z') {
        for (i = 1; i < len; i++) {
            char c = s[i];
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
                break;
            if (c == '_' && s[i - 1] == '_')
                double_underscore = 1;
        }
        if (i == len && (kind == TOOLGOV_NAME_PROVIDES ||
                         (!double_underscore && !maybe_keyword(s, len) &&
                          s[len - 1] != '_' && !(len >= 7 && memcmp(s, "toolgov", 7) == 0) &&
                          !(len == 5 && memcmp(s, "count", 5) == 0) &&
                          !(len == 2 && memcmp(s, "id", 2) == 0))))
            return 0;
    }
    toolgov__text_show(q, s, len);
    if (len > TOOLGOV_NAME_MAX) {
        toolgov__diag_error_at(d, path, at, "%s '%s' is %zu bytes long; the limit is %u", what, q, len,
               TOOLGOV_NAME_MAX);
        return -1;
    }
    if (!(s[0] >= 'a' && s[0] <= 'z')) {
        toolgov__diag_error_at(d, path, at, "%s '%s' must start with a lowercase letter (a-z); names match "
                      "[a-z][a-z0-9_]*", what, q);
        return -1;
    }
    for (i = 1; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
            if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7F)
                toolgov__diag_error_at(d, path, at, "%s '%s' contains byte 0x%02x; use only a-z, 0-9 and _", what,
                       q, (unsigned)(unsigned char)c);
            else
                toolgov__diag_error_at(d, path, at, "%s '%s' contains '%c'; use only a-z, 0-9 and _", what, q, c);
            return -1;
        }
    }
    if (kind == TOOLGOV_NAME_PROVIDES)
        return 0;
    if (in_sorted(s, c_keywords, COUNT_OF(c_keywords))) {
        toolgov__diag_error_at(d, path, at, "%s '%s' is a C keyword; pick another name (the generated code uses "
                      "it in C identifiers)", what, q);
        return -1;
    }
    if (kind == TOOLGOV_NAME_PLUGIN && in_sorted(s, cxx_keywords, COUNT_OF(cxx_keywords))) {
        toolgov__diag_error_at(d, path, at, "%s '%s' is a C++ keyword; pick another name (the generated header is "
                      "also compiled as C++)", what, q);
        return -1;
    }
    if (strstr(s, "__")) {
        toolgov__diag_error_at(d, path, at, "%s '%s' contains '__'; C++ reserves identifiers with a double "
                      "underscore and the generated code uses the name in identifiers", what, q);
        return -1;
    }
    if (kind == TOOLGOV_NAME_PLUGIN) {
        if (len >= 7 && memcmp(s, "toolgov", 7) == 0) {
            toolgov__diag_error_at(d, path, at, "plugin name '%s' starts with 'toolgov', which is reserved for "
                          "toolgov's own names; pick another name", q);
            return -1;
        }
    }
    if (s[len - 1] == '_') {
        toolgov__diag_error_at(d, path, at, "%s '%s' ends in '_'; generated names join it to '_' "
                      "(giving '__', which C++ reserves): remove the trailing '_'", what, q);
        return -1;
    }
    return 0;
}
