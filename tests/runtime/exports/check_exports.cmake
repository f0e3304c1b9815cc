# SPDX-License-Identifier: MIT
# check_exports.cmake: what a shared object built from libtoolgov exports.
#
#   cmake -DNM=<nm> -DLIB=<file> -DMODE=library|module -DHEADERS=<dir> -P check_exports.cmake
#
# MODE library: LIB is a shared libtoolgov. Its defined dynamic symbols must
#   be exactly the functions the public headers declare with TOOLGOV_EXTERN:
#   one more (an internal toolgov__* function, a helper left non-static) or one
#   fewer (a public declaration whose mark or definition is missing) fails.
# MODE module: LIB is a MODULE plugin that links the static runtime. It must
#   export no toolgov_ symbol at all: the runtime stays inside the plugin.
# Names that begin with an underscore belong to the toolchain (_init, _end,
# __bss_start, sanitizer and coverage hooks) and are not judged.
cmake_minimum_required(VERSION 3.16)
foreach(v NM LIB MODE HEADERS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_exports.cmake: -D${v}= is required")
  endif()
endforeach()

execute_process(COMMAND "${NM}" -D --defined-only -P "${LIB}"
  OUTPUT_VARIABLE nm_out RESULT_VARIABLE nm_rc ERROR_VARIABLE nm_err)
if(NOT nm_rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}: ${nm_err}")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_out}")
set(exported "")
foreach(line IN LISTS nm_lines)
  if(line MATCHES "^([A-Za-z0-9_.@]+) ")
    set(sym "${CMAKE_MATCH_1}")
    string(REGEX REPLACE "@.*$" "" sym "${sym}")
    if(NOT sym MATCHES "^_")
      list(APPEND exported "${sym}")
    endif()
  endif()
endforeach()
list(REMOVE_DUPLICATES exported)

file(GLOB headers "${HEADERS}/*.h")
set(public "")
foreach(h IN LISTS headers)
  file(READ "${h}" text)
  string(REGEX MATCHALL "TOOLGOV_EXTERN[^;(]*[ *]toolgov_[a-z0-9_]+\\(" decls "${text}")
  foreach(d IN LISTS decls)
    string(REGEX MATCH "toolgov_[a-z0-9_]+\\($" name "${d}")
    string(REGEX REPLACE "\\($" "" name "${name}")
    list(APPEND public "${name}")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES public)

set(bad "")
if(MODE STREQUAL "library")
  list(LENGTH public npublic)
  if(npublic LESS 10)
    message(FATAL_ERROR "found only ${npublic} TOOLGOV_EXTERN declarations in ${HEADERS}")
  endif()
  foreach(sym IN LISTS exported)
    if(NOT sym IN_LIST public)
      list(APPEND bad "exported but not public API: ${sym}")
    endif()
  endforeach()
  foreach(name IN LISTS public)
    if(NOT name IN_LIST exported)
      list(APPEND bad "public API not exported: ${name}")
    endif()
  endforeach()
elseif(MODE STREQUAL "module")
  foreach(sym IN LISTS exported)
    if(sym MATCHES "^toolgov_")
      list(APPEND bad "the plugin re-exports the runtime: ${sym}")
    endif()
  endforeach()
else()
  message(FATAL_ERROR "MODE must be library or module, not '${MODE}'")
endif()

if(bad)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "${LIB}:\n  ${bad}")
endif()
list(LENGTH exported n)
message(STATUS "${LIB}: ${n} exported symbols, all as expected (${MODE})")
