# toolgov_add_plugin(): build a toolgov plugin library from a YAML manifest and
# its C handler sources.
#
#   toolgov_add_plugin(<name>
#                      MANIFEST <file.yaml>
#                      SOURCES <file.c>...
#                      [STATIC | SHARED | MODULE]
#                      [LINK_LIBRARIES <lib>...])
#
# <name> is both the library target and the plugin name the manifest must
# declare (`name: <name>`); toolgov-gen reports a mismatch at the manifest's
# name line. The generated <name>.toolgov.h / <name>.toolgov.c land in
# ${CMAKE_CURRENT_BINARY_DIR}/toolgov/<name>/ (.../<name>/<Config>/ with a
# multi-config generator), which is on the target's
# include path (PUBLIC), so handlers write `#include "<name>.toolgov.h"`.
# The generated file is C, so the calling directory needs C enabled even
# when the handlers are C++ (project(<host> C CXX)); without it the call
# stops with that advice.
#
# MANIFEST is relative to the calling directory's source directory; it may
# be a file made by a custom command of the same directory (give the
# absolute path of its OUTPUT).
#
# Generation re-runs only when the manifest or toolgov-gen itself changed; the
# generator rewrites a file only when its content changes, so an unchanged
# manifest never recompiles the plugin. The drift check (toolgov-gen check)
# runs as part of building the target; see docs/drift-check.md.
#
# This file is included by toolgov's own CMakeLists.txt (add_subdirectory,
# FetchContent) and by the installed toolgovConfig.cmake, so the function is
# the same in every setting. It reads no global variables: every option is an
# argument of the call.
include_guard(GLOBAL)

set(_TOOLGOV_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

# The toolgov-gen executable as a path usable in COMMAND/DEPENDS, and the
# target to depend on (empty for an imported executable).
function(_toolgov_gen_executable out_path out_target)
  if(TARGET toolgov::toolgov-gen)
    set(t toolgov::toolgov-gen)
  elseif(TARGET toolgov-gen)
    set(t toolgov-gen)
  else()
    message(FATAL_ERROR
      "toolgov_add_plugin: no toolgov-gen executable target. Build toolgov "
      "with TOOLGOV_BUILD_GEN=ON or use find_package(toolgov CONFIG) from an "
      "installation that includes toolgov-gen.")
  endif()
  get_target_property(real ${t} ALIASED_TARGET)
  if(real)
    set(t ${real})
  endif()
  get_target_property(imported ${t} IMPORTED)
  set(${out_path} "$<TARGET_FILE:${t}>" PARENT_SCOPE)
  if(imported)
    set(${out_target} "" PARENT_SCOPE)
  else()
    set(${out_target} ${t} PARENT_SCOPE)
  endif()
endfunction()

function(toolgov_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 TG "STATIC;SHARED;MODULE" "MANIFEST"
                        "SOURCES;LINK_LIBRARIES")
  if(TG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): unexpected arguments: ${TG_UNPARSED_ARGUMENTS} "
      "(expected MANIFEST <file> SOURCES <files>... [LINK_LIBRARIES <libs>...])")
  endif()
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): the plugin name must match [a-z][a-z0-9_]* "
      "and equal the manifest's `name:`")
  endif()
  if(NOT CMAKE_C_COMPILER_LOADED)
    # Without C in this directory CMake would leave the generated .c out of
    # the library (find_package: a link error about <name>_toolgov_plugin
    # far from here) or stop with an internal error (add_subdirectory).
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): the C language is not enabled here, and "
      "the generated ${name}.toolgov.c is C; add C to the languages of your "
      "project() (e.g. project(<name> C CXX)) or call enable_language(C) "
      "before toolgov_add_plugin()")
  endif()
  if(TARGET ${name})
    # Caught here: add_library() would only say a target exists, pointing
    # into this file.
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): a target named '${name}' already exists "
      "(an earlier toolgov_add_plugin(${name}), or a target of the project); "
      "each plugin needs a name no other target has, and its manifest's "
      "`name:` must match it")
  endif()
  if(NOT TG_MANIFEST)
    message(FATAL_ERROR "toolgov_add_plugin(${name}): MANIFEST <file.yaml> is required")
  endif()
  if(NOT TG_SOURCES)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): SOURCES is required (the C files that "
      "define the plugin's handlers)")
  endif()
  set(kind "")
  foreach(k STATIC SHARED MODULE)
    if(TG_${k})
      if(kind)
        message(FATAL_ERROR "toolgov_add_plugin(${name}): give at most one of STATIC, SHARED, MODULE")
      endif()
      set(kind ${k})
    endif()
  endforeach()

  get_filename_component(manifest "${TG_MANIFEST}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  # A manifest made by a custom command of this directory does not exist
  # yet; the generate step depends on it, so it is made first.
  get_source_file_property(manifest_generated "${manifest}" GENERATED)
  if(NOT EXISTS "${manifest}" AND NOT manifest_generated)
    message(FATAL_ERROR "toolgov_add_plugin(${name}): manifest not found: ${manifest}")
  endif()

  _toolgov_gen_executable(gen gen_target)
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/toolgov/${name}")
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.21)
    # Each configuration runs its own toolgov-gen (a different path) with
    # its own flags: outputs shared between configurations would be out of
    # date after every switch, and everything would rebuild. One directory
    # per configuration ($<CONFIG> in OUTPUT needs CMake 3.20, in DEPFILE
    # 3.21).
    set(out_dir "${out_dir}/$<CONFIG>")
  endif()
  set(gen_h "${out_dir}/${name}.toolgov.h")
  set(gen_c "${out_dir}/${name}.toolgov.c")
  set(gen_stamp "${out_dir}/${name}.generate.stamp")
  if(NOT out_dir MATCHES "\\$<")
    file(MAKE_DIRECTORY "${out_dir}")
  endif()

  # The stamp is the first output: it is touched on every successful run,
  # while the .h/.c keep their old timestamps when their content is the same,
  # so nothing downstream recompiles for a no-op change.
  add_custom_command(
    OUTPUT "${gen_stamp}" "${gen_h}" "${gen_c}"
    COMMAND "${gen}" generate --manifest "${manifest}" --out-dir "${out_dir}"
            --expect-name "${name}" --stamp "${gen_stamp}"
    DEPENDS "${manifest}" ${gen_target} "${gen}"
    COMMENT "toolgov: generating ${name} from ${TG_MANIFEST}"
    VERBATIM)

  add_library(${name} ${kind} ${TG_SOURCES} "${gen_c}" "${gen_h}")
  target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${out_dir}>")
  target_link_libraries(${name} PUBLIC toolgov::runtime ${TG_LINK_LIBRARIES})
  set_target_properties(${name} PROPERTIES
    TOOLGOV_MANIFEST "${manifest}"
    TOOLGOV_GENERATED_DIR "${out_dir}")
  if(NOT kind STREQUAL "STATIC")
    set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()

  if(COMMAND _toolgov_add_drift_check)
    _toolgov_add_drift_check(${name} "${manifest}" "${gen}" "${gen_target}" ${TG_SOURCES})
  endif()
endfunction()

# The drift check step, kept in its own file.
include("${CMAKE_CURRENT_LIST_DIR}/ToolgovDriftCheck.cmake" OPTIONAL)
