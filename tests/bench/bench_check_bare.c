/* SPDX-License-Identifier: MIT */
/*
** bench_check_bare.c: the baseline the drift check is measured against
** (SPEC section 8): a bare libclang parse of the same sources in one
** process, with the same parse options as the check and nothing else (no
** manifest, no walk of the AST, no depfile).
**
**   bench_check_bare [compiler args] -- SOURCES...
**
** Exit status 1 when a source has an error, so a broken benchmark input is
** noticed instead of timed.
*/
#include <clang-c/Index.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int sep = 1, status = 0;
    while (sep < argc && strcmp(argv[sep], "--") != 0)
        sep++;
    if (sep >= argc - 1) {
        fputs("usage: bench_check_bare [compiler args] -- SOURCES...\n", stderr);
        return 2;
    }
    CXIndex index = clang_createIndex(0, 0);
    for (int i = sep + 1; i < argc; i++) {
        CXTranslationUnit tu = NULL;
        enum CXErrorCode ec = clang_parseTranslationUnit2(
            index, argv[i], (const char *const *)argv + 1, sep - 1, NULL, 0,
            CXTranslationUnit_KeepGoing, &tu);
        if (ec != CXError_Success || !tu) {
            fprintf(stderr, "%s: error: libclang could not parse it\n", argv[i]);
            status = 1;
            continue;
        }
        for (unsigned d = 0, n = clang_getNumDiagnostics(tu); d < n; d++) {
            CXDiagnostic dg = clang_getDiagnostic(tu, d);
            if (clang_getDiagnosticSeverity(dg) >= CXDiagnostic_Error) {
                CXString s = clang_formatDiagnostic(dg, clang_defaultDiagnosticDisplayOptions());
                fprintf(stderr, "%s\n", clang_getCString(s));
                clang_disposeString(s);
                status = 1;
            }
            clang_disposeDiagnostic(dg);
        }
        clang_disposeTranslationUnit(tu);
    }
    clang_disposeIndex(index);
    return status;
}
