# SPDX-License-Identifier: MIT
# ToolgovLibClang.cmake: find libclang for the drift check, as the imported
# target toolgov::libclang (library + include directory).
#
# find_package(Clang CONFIG) is deliberately not used: on Debian its config
# files come from the clang-<N> package and need llvm-<N>-dev as well, die on
# a missing libclangBasic.a even with QUIET, carry no version file, and their
# libclang target has no include directories. Instead:
#
#   TOOLGOV_LLVM_VERSION   LLVM major version to use (cache, default 14)
#   TOOLGOV_LLVM_PREFIX    where that LLVM lives (cache; default from
#                          `llvm-config-<N> --prefix`, else /usr/lib/llvm-<N>)
#
# The header and the library are searched under that prefix only
# (NO_DEFAULT_PATH), so another LLVM on the system is never picked up
# silently. Also sets TOOLGOV_CLANG_RESOURCE_DIR (clang's builtin headers of
# that version) when it can be found, for toolgov-gen to fall back on.
include_guard(GLOBAL)

set(TOOLGOV_LLVM_VERSION 14 CACHE STRING
    "LLVM major version whose libclang the drift check uses")

# A changed version invalidates everything found for the previous one.
if(DEFINED _TOOLGOV_LLVM_VERSION_FOUND AND
   NOT _TOOLGOV_LLVM_VERSION_FOUND STREQUAL TOOLGOV_LLVM_VERSION)
  foreach(v TOOLGOV_LLVM_CONFIG TOOLGOV_LLVM_PREFIX TOOLGOV_LIBCLANG_INCLUDE_DIR
            TOOLGOV_LIBCLANG_LIBRARY TOOLGOV_CLANG_RESOURCE_DIR)
    unset(${v} CACHE)
  endforeach()
endif()
set(_TOOLGOV_LLVM_VERSION_FOUND "${TOOLGOV_LLVM_VERSION}" CACHE INTERNAL "")

if(NOT TOOLGOV_LLVM_PREFIX)
  set(_tg_prefix "/usr/lib/llvm-${TOOLGOV_LLVM_VERSION}")
  find_program(TOOLGOV_LLVM_CONFIG NAMES llvm-config-${TOOLGOV_LLVM_VERSION}
               DOC "llvm-config of the LLVM the drift check uses")
  if(TOOLGOV_LLVM_CONFIG)
    execute_process(COMMAND "${TOOLGOV_LLVM_CONFIG}" --prefix
                    OUTPUT_VARIABLE _tg_out RESULT_VARIABLE _tg_rc
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_tg_rc EQUAL 0 AND IS_DIRECTORY "${_tg_out}")
      set(_tg_prefix "${_tg_out}")
    endif()
  endif()
  set(TOOLGOV_LLVM_PREFIX "${_tg_prefix}" CACHE PATH
      "Prefix of the LLVM whose libclang the drift check uses")
endif()

find_path(TOOLGOV_LIBCLANG_INCLUDE_DIR clang-c/Index.h
          PATHS "${TOOLGOV_LLVM_PREFIX}/include" NO_DEFAULT_PATH)
find_library(TOOLGOV_LIBCLANG_LIBRARY NAMES clang libclang
             PATHS "${TOOLGOV_LLVM_PREFIX}/lib" NO_DEFAULT_PATH)

if(NOT TOOLGOV_LIBCLANG_INCLUDE_DIR OR NOT TOOLGOV_LIBCLANG_LIBRARY)
  message(FATAL_ERROR
    "toolgov: libclang ${TOOLGOV_LLVM_VERSION} not found under "
    "${TOOLGOV_LLVM_PREFIX} (looked for include/clang-c/Index.h and "
    "lib/libclang.so). The drift check needs it: install it with "
    "`apt-get install libclang-${TOOLGOV_LLVM_VERSION}-dev` (Debian/Ubuntu), "
    "or pick another LLVM with -DTOOLGOV_LLVM_VERSION=<N> / "
    "-DTOOLGOV_LLVM_PREFIX=<dir>, or configure with -DTOOLGOV_BUILD_GEN=OFF to "
    "build only the runtime.")
endif()

if(NOT TARGET toolgov::libclang)
  add_library(toolgov::libclang UNKNOWN IMPORTED GLOBAL)
  set_target_properties(toolgov::libclang PROPERTIES
    IMPORTED_LOCATION "${TOOLGOV_LIBCLANG_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${TOOLGOV_LIBCLANG_INCLUDE_DIR}")
endif()

# clang's builtin headers of this LLVM: <prefix>/lib/clang/<version>/.
if(NOT DEFINED TOOLGOV_CLANG_RESOURCE_DIR)
  file(GLOB _tg_res LIST_DIRECTORIES true "${TOOLGOV_LLVM_PREFIX}/lib/clang/*")
  set(_tg_found "")
  foreach(d IN LISTS _tg_res)
    if(EXISTS "${d}/include/stddef.h")
      set(_tg_found "${d}")
    endif()
  endforeach()
  set(TOOLGOV_CLANG_RESOURCE_DIR "${_tg_found}" CACHE PATH
      "clang resource directory (builtin headers) passed to libclang as a fallback")
endif()
