# SPDX-License-Identifier: MIT
# check_exports.cmake: what a shared object built from libtoolgov exports.
#
#   cmake -DNM=<nm> -DLIB=<file> -DMODE=library|module -DHEADERS=<dir> -P check_exports.cmake
#   MODE library also takes -DPYTHON=<python3> -DCLANG=<clang> -DCC=<cc>
#   -DWORK=<scratch dir> [-DEXTRA_FLAGS=<flags for cc>].
#
# MODE library: LIB is a shared libtoolgov. Its defined dynamic symbols must
#   be exactly the public symbols of the headers (functions and data, listed
#   by public_symbols.py from clang's reading of every public header): one
#   more (an internal toolgov__* function, a helper left non-static) or one
#   fewer (a public declaration whose TOOLGOV_EXTERN or definition is missing)
#   fails. Then a program that takes the address of every public symbol is
#   compiled, linked against LIB and run, as a user of the shared library would.
# MODE module: LIB is a MODULE plugin that links the static runtime. It must
#   export no toolgov_ symbol at all: the runtime stays inside the plugin.
# Names that begin with an underscore belong to the toolchain (_init, _end,
# __bss_start, sanitizer and coverage hooks) and are not judged.
cmake_minimum_required(VERSION 3.16)
set(_required NM LIB MODE HEADERS)
if(MODE STREQUAL "library")
  list(APPEND _required PYTHON CLANG CC WORK)
endif()
foreach(v IN LISTS _required)
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

set(public "")
if(MODE STREQUAL "library")
  file(REMOVE_RECURSE "${WORK}")
  file(MAKE_DIRECTORY "${WORK}")
  get_filename_component(_include "${HEADERS}" DIRECTORY)
  get_filename_component(_here "${CMAKE_CURRENT_LIST_FILE}" DIRECTORY)
  execute_process(COMMAND "${PYTHON}" "${_here}/public_symbols.py" "${CLANG}" "${_include}"
                          "${WORK}/public_symbols.txt" "${WORK}/all_symbols.c"
    RESULT_VARIABLE py_rc ERROR_VARIABLE py_err)
  if(NOT py_rc EQUAL 0)
    message(FATAL_ERROR "public_symbols.py failed (${py_rc}):\n${py_err}")
  endif()
  file(STRINGS "${WORK}/public_symbols.txt" _lines)
  foreach(line IN LISTS _lines)
    string(REGEX REPLACE "^[a-z]+ " "" name "${line}")
    list(APPEND public "${name}")
  endforeach()
endif()

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

if(MODE STREQUAL "library")
  # A user of the shared library: every public symbol, linked and loaded.
  get_filename_component(_libdir "${LIB}" DIRECTORY)
  separate_arguments(_flags UNIX_COMMAND "${EXTRA_FLAGS}")
  execute_process(COMMAND "${CC}" -std=c11 -Wall -Wextra -Werror -DTOOLGOV_SHARED
                          ${_flags} -I "${_include}" "${WORK}/all_symbols.c" "${LIB}"
                          "-Wl,-rpath,${_libdir}" -o "${WORK}/all_symbols"
    RESULT_VARIABLE cc_rc OUTPUT_VARIABLE cc_out ERROR_VARIABLE cc_err)
  if(NOT cc_rc EQUAL 0)
    list(APPEND bad "a program using every public symbol does not link against the library (${WORK}/all_symbols.c):\n${cc_out}${cc_err}")
  else()
    execute_process(COMMAND "${WORK}/all_symbols"
      RESULT_VARIABLE run_rc OUTPUT_VARIABLE run_out ERROR_VARIABLE run_err)
    if(NOT run_rc EQUAL 0)
      list(APPEND bad "${WORK}/all_symbols failed (${run_rc}): ${run_out}${run_err}")
    else()
      string(STRIP "${run_out}" run_out)
      message(STATUS "linked against ${LIB}: ${run_out}")
    endif()
  endif()
endif()

if(bad)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "${LIB}:\n  ${bad}")
endif()
list(LENGTH exported n)
message(STATUS "${LIB}: ${n} exported symbols, all as expected (${MODE})")
