# SPDX-License-Identifier: MIT
# Install the toolgov build tree into a fresh prefix, then configure, build
# and run an outside project that finds it with find_package(toolgov CONFIG),
# and compile a runtime-only host through pkg-config (toolgov.pc).
# -D BUILD_DIR=<toolgov build tree> -D WORK=<scratch dir> -D SRC=<this folder>
#    -D GENERATOR=<cmake generator> -D C_COMPILER=<cc> [-D EXTRA_FLAGS=<cflags>]
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(prefix "${WORK}/prefix")

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_out "${out}" PARENT_SCOPE)
endfunction()

step("install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(f bin/toolgov-gen include/toolgov/toolgov.h lib/pkgconfig/toolgov.pc
          share/doc/toolgov/LICENSE
          lib/cmake/toolgov/toolgovConfig.cmake lib/cmake/toolgov/ToolgovAddPlugin.cmake)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "installed tree lacks ${f}")
  endif()
endforeach()
# The manual pages go in compressed where gzip is found.
set(pages share/man/man1/toolgov-gen.1 share/man/man5/toolgov-manifest.5)
if(EXISTS "${prefix}/bin/toolgov-mcp")
  list(APPEND pages share/man/man1/toolgov-mcp.1)
endif()
if(EXISTS "${prefix}/bin/toolgov-agent")
  list(APPEND pages share/man/man1/toolgov-agent.1)
endif()
foreach(f IN LISTS pages)
  if(NOT EXISTS "${prefix}/${f}.gz" AND NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "installed tree lacks ${f}.gz (or ${f})")
  endif()
endforeach()

# What the manual pages point a reader to is installed: no page names the
# source tree's docs/, and every share/doc/toolgov/<file> a page names is in
# the installed tree.
file(GLOB man_built "${BUILD_DIR}/man/*.[1-8]")
foreach(page IN LISTS man_built)
  file(READ "${page}" text)
  string(REPLACE "\\-" "-" text "${text}")
  if(text MATCHES "docs/[a-z-]+\\.md")
    message(FATAL_ERROR "${page} points to ${CMAKE_MATCH_0}, which is not installed")
  endif()
  string(REGEX MATCHALL "share/doc/toolgov/[A-Za-z0-9_.-]+" named "${text}")
  foreach(f IN LISTS named)
    string(REGEX REPLACE "[.]$" "" f "${f}")
    if(NOT EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "${page} names ${f}, which the installed tree lacks")
    endif()
  endforeach()
endforeach()

step("configure outside project" ${CMAKE_COMMAND} -S "${SRC}/project"
     -B "${WORK}/build" -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}"
     "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_C_FLAGS=${EXTRA_FLAGS}"
     "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}")
step("build outside project" ${CMAKE_COMMAND} --build "${WORK}/build")
step("run outside host" "${WORK}/build/notes_host")
# The host also runs calls through the installed runtime: two spellings of
# one call, one canonical text; a handler reading its typed arguments;
# refused arguments; an unknown tool (host.c).
string(CONCAT want
  "notes_find effect=0 notes_add effect=1 confirm=0 owner=notes\n"
  "canonical {\"title\":\"milk\",\"priority\":\"normal\",\"tags\":[\"shop\"]} same\n"
  "notes_find rc=0 output=found notes for milk (at most 10)\n"
  "notes_add rc=EARGS output=notes_add: /title must be a string, got 5\n"
  "notes_drop rc=ENOENT\n")
if(NOT step_out STREQUAL want)
  message(FATAL_ERROR "unexpected host output: '${step_out}'")
endif()

# pkg-config: a host that only uses the runtime.
file(WRITE "${WORK}/pc.c" "#include <toolgov/toolgov.h>\n#include <stdio.h>\nint main(void){toolgov_registry *r;if(toolgov_registry_new(&r,NULL))return 1;printf(\"%zu\\n\",toolgov_registry_count(r));toolgov_registry_free(r);return 0;}\n")
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
step("pkg-config" pkg-config --cflags --libs toolgov)
string(STRIP "${step_out}" pcflags)
separate_arguments(pcflags UNIX_COMMAND "${pcflags} ${EXTRA_FLAGS}")
step("compile with pkg-config flags" "${C_COMPILER}" -std=c11 -Wall -Wextra -Werror
     "${WORK}/pc.c" -o "${WORK}/pc" ${pcflags})
step("run pkg-config host" "${WORK}/pc")
if(NOT step_out STREQUAL "9\n")
  message(FATAL_ERROR "pkg-config host printed '${step_out}', expected the 9 built-ins")
endif()
message(STATUS "installed package: find_package and pkg-config users build and run")
