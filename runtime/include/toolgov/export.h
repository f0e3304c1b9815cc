/* SPDX-License-Identifier: MIT */
/*
** export.h: TOOLGOV_EXTERN, the mark on every public function of libtoolgov.
**
** The runtime is compiled with hidden visibility, so a symbol leaves the
** library only when its declaration carries TOOLGOV_EXTERN:
**
**   - building the shared library (TOOLGOV_BUILDING_SHARED, set by the
**     runtime's CMake target and never by a user): the public API is given
**     default visibility and is the only thing a shared libtoolgov exports;
**     the internal toolgov__* functions stay inside it;
**   - building or using the static library: the mark is empty and every
**     symbol of the archive is hidden, so a shared or MODULE plugin that links
**     the static runtime does not re-export it to its loader;
**   - using the shared library on Windows (TOOLGOV_SHARED defined by the
**     consumer): the declarations are dllimport.
**
** Every public function and every public variable carries TOOLGOV_EXTERN; a
** test (runtime_exports_library) reads every public header with clang, fails
** on a dynamic symbol of the shared library that is not public API or on a
** public declaration that is not exported, and links a program that uses
** every public symbol against the shared library.
**
** Ownership: macros only.
*/
#ifndef TOOLGOV_EXPORT_H
#define TOOLGOV_EXPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(TOOLGOV_BUILDING_SHARED)
#define TOOLGOV_EXTERN __declspec(dllexport)
#elif defined(TOOLGOV_SHARED)
#define TOOLGOV_EXTERN __declspec(dllimport)
#else
#define TOOLGOV_EXTERN
#endif
#elif defined(TOOLGOV_BUILDING_SHARED) && (defined(__GNUC__) || defined(__clang__))
#define TOOLGOV_EXTERN __attribute__((visibility("default")))
#else
#define TOOLGOV_EXTERN
#endif

#endif /* TOOLGOV_EXPORT_H */
