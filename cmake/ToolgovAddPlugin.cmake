# SPDX-License-Identifier: MIT
# toolgov_add_plugin(): build a toolgov plugin from a YAML manifest and its C
# handler sources.
#
#   toolgov_add_plugin(<name>
#                      MANIFEST <file.yaml>
#                      SOURCES <file.c>...
#                      [STATIC | SHARED | MODULE | OBJECT | TARGET <target>]
#                      [OUTPUT_DIR <dir>]
#                      [LINK_LIBRARIES <lib>...])
#
# <name> is the plugin name the manifest must declare (`name: <name>`);
# toolgov-gen reports a mismatch at the manifest's name line.
#
# Where the plugin goes:
#   (default)  a library target named <name>, of the kind BUILD_SHARED_LIBS
#              says; STATIC, SHARED or MODULE choose the kind;
#   OBJECT     an OBJECT library <name>: link it into a library or an
#              executable (target_link_libraries(agent PRIVATE <name>)) and
#              its objects and usage requirements go with it;
#   TARGET t   no new target: the handler sources, the generated files, the
#              drift check, the include directory and toolgov::runtime are
#              added to the existing target t (an executable or a library made
#              in the same directory), like protobuf_generate(TARGET). Several
#              plugins may be attached to one target. Handlers then compile
#              with t's own flags, which the check uses too. t must use the
#              keyword form of target_link_libraries() (PRIVATE/PUBLIC), as
#              this function does.
#
# The generated <name>.toolgov.h / <name>.toolgov.c land in OUTPUT_DIR
# (relative to the calling directory's binary directory; default
# ${CMAKE_CURRENT_BINARY_DIR}/toolgov/<name>), in a <Config>/ subdirectory of
# it with a multi-config generator. That directory is on the target's
# include path (PUBLIC for a library, PRIVATE for an executable), so handlers
# write `#include "<name>.toolgov.h"`.
# The generated file is C, so the calling directory needs C enabled even
# when the handlers are C++ (project(<host> C CXX)); without it the call
# stops with that advice.
#
# MODULE builds a library to load at run time (toolgov-mcp --plugin): it
# also exports `const toolgov_plugin *toolgov_module_plugin(void)`, the one
# entry a loader finds with dlsym. A module that needs a plugin context
# defines the optional start and stop entries of <toolgov/module.h>
# (TOOLGOV_MODULE_INIT, TOOLGOV_MODULE_FINI) in one of its sources.
#
# MANIFEST is relative to the calling directory's source directory; it may
# be a file made by a custom command of the same directory (give the
# absolute path of its OUTPUT).
#
# Properties, for install rules and for the build-time pool check
# (toolgov_link_plugins()): every target carrying plugins lists them in
# TOOLGOV_PLUGINS and their manifests in TOOLGOV_MANIFESTS (same order), and
# has TOOLGOV_GENERATED_DIR_<name> per plugin. A plugin's own library also has
# TOOLGOV_PLUGIN_NAME, TOOLGOV_MANIFEST, TOOLGOV_GENERATED_DIR and
# TOOLGOV_GENERATED_HEADER, and the generated header in PUBLIC_HEADER (as has a
# library given with TARGET), so
#   install(TARGETS <name> EXPORT <set> PUBLIC_HEADER DESTINATION include
#           INCLUDES DESTINATION include ...)
# installs the header a user of the plugin includes. install(EXPORT <set>)
# works when toolgov came in through add_subdirectory()/FetchContent too:
# toolgov::runtime is always in toolgov's own export set (docs/integration.md).
#
# The generator: the toolgov-gen target of this build (add_subdirectory,
# FetchContent) or of the installed package. Cross-compiling, set the cache
# variable TOOLGOV_GEN_EXECUTABLE to a toolgov-gen built for the build machine
# (like Protobuf_PROTOC_EXECUTABLE); it is then used instead, and toolgov's
# own build does not build toolgov-gen for the target. This cache variable is
# the one setting not given per call.
#
# Generation re-runs only when the manifest or toolgov-gen itself changed; the
# generator rewrites a file only when its content changes, so an unchanged
# manifest never recompiles the plugin. The drift check (toolgov-gen check)
# runs as part of building the target; see docs/drift-check.md.
#
# This file is included by toolgov's own CMakeLists.txt (add_subdirectory,
# FetchContent) and by the installed toolgovConfig.cmake, so the function is
# the same in every setting.
include_guard(GLOBAL)

set(_TOOLGOV_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

set(TOOLGOV_GEN_EXECUTABLE "" CACHE FILEPATH
    "toolgov-gen to run instead of building it (cross-compiling: one built for the build machine)")

# The toolgov-gen executable as a path usable in COMMAND/DEPENDS, and the
# target to depend on (empty for an imported or given executable).
function(_toolgov_gen_executable out_path out_target plugin)
  if(TOOLGOV_GEN_EXECUTABLE)
    if(NOT EXISTS "${TOOLGOV_GEN_EXECUTABLE}" OR IS_DIRECTORY "${TOOLGOV_GEN_EXECUTABLE}")
      message(FATAL_ERROR
        "toolgov_add_plugin(${plugin}): TOOLGOV_GEN_EXECUTABLE is "
        "'${TOOLGOV_GEN_EXECUTABLE}', which is not a file; point it at a "
        "toolgov-gen built for this machine (its toolgov-gen-check beside it)")
    endif()
    set(${out_path} "${TOOLGOV_GEN_EXECUTABLE}" PARENT_SCOPE)
    set(${out_target} "" PARENT_SCOPE)
    return()
  endif()
  if(TARGET toolgov::toolgov-gen)
    set(t toolgov::toolgov-gen)
  elseif(TARGET toolgov-gen)
    set(t toolgov-gen)
  else()
    message(FATAL_ERROR
      "toolgov_add_plugin(${plugin}): no toolgov-gen to run. Build toolgov "
      "with TOOLGOV_BUILD_GEN=ON, use find_package(toolgov CONFIG) from an "
      "installation that includes toolgov-gen, or (cross-compiling) set "
      "TOOLGOV_GEN_EXECUTABLE to a toolgov-gen built for the build machine.")
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

# The existing target given with TARGET: one that compiles sources, made in
# this directory (a custom command's outputs reach only targets of the
# directory that defines it). Sets <out_scope> to PUBLIC for a library,
# PRIVATE for an executable.
function(_toolgov_attach_target_ok out_scope name tgt)
  if(NOT TARGET ${tgt})
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): TARGET ${tgt} is not a target; create it "
      "first (add_executable/add_library), then attach the plugin to it")
  endif()
  get_target_property(alias ${tgt} ALIASED_TARGET)
  get_target_property(imported ${tgt} IMPORTED)
  get_target_property(type ${tgt} TYPE)
  get_target_property(dir ${tgt} SOURCE_DIR)
  if(alias OR imported)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): TARGET ${tgt} is an alias or imported "
      "target; give the real target of this project")
  endif()
  if(type STREQUAL "EXECUTABLE")
    set(scope PRIVATE)
  elseif(type MATCHES "^(STATIC|SHARED|MODULE|OBJECT)_LIBRARY$")
    set(scope PUBLIC)
  else()
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): TARGET ${tgt} is a ${type} target, which "
      "compiles nothing; give an executable or a library")
  endif()
  if(NOT dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): TARGET ${tgt} was made in ${dir}, not in "
      "this directory (${CMAKE_CURRENT_SOURCE_DIR}); call "
      "toolgov_add_plugin() where the target is made, or make the plugin an "
      "OBJECT library here and link it into ${tgt}")
  endif()
  set(${out_scope} ${scope} PARENT_SCOPE)
endfunction()

function(toolgov_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 TG "STATIC;SHARED;MODULE;OBJECT"
                        "MANIFEST;TARGET;OUTPUT_DIR" "SOURCES;LINK_LIBRARIES")
  if(TG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): unexpected arguments: ${TG_UNPARSED_ARGUMENTS} "
      "(expected MANIFEST <file> SOURCES <files>... [STATIC|SHARED|MODULE|OBJECT|"
      "TARGET <target>] [OUTPUT_DIR <dir>] [LINK_LIBRARIES <libs>...])")
  endif()
  if(TG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): ${TG_KEYWORDS_MISSING_VALUES} given without a value")
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
  set(kind "")
  foreach(k STATIC SHARED MODULE OBJECT)
    if(TG_${k})
      if(kind)
        message(FATAL_ERROR
          "toolgov_add_plugin(${name}): give at most one of STATIC, SHARED, MODULE, OBJECT")
      endif()
      set(kind ${k})
    endif()
  endforeach()
  if(TG_TARGET AND kind)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): TARGET ${TG_TARGET} adds the plugin to an "
      "existing target, ${kind} makes a new library: give one of them")
  endif()
  get_property(taken GLOBAL PROPERTY TOOLGOV_ALL_PLUGINS)
  if(TG_TARGET)
    _toolgov_attach_target_ok(scope ${name} ${TG_TARGET})
    set(tgt ${TG_TARGET})
    if(name IN_LIST taken)
      message(FATAL_ERROR
        "toolgov_add_plugin(${name}): a plugin named '${name}' was already "
        "added; each plugin needs its own name, and its manifest's `name:` "
        "must match it")
    endif()
  elseif(TARGET ${name})
    # Caught here: add_library() would only say a target exists, pointing
    # into this file.
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): a target named '${name}' already exists "
      "(an earlier toolgov_add_plugin(${name}), or a target of the project); "
      "each plugin needs a name no other target has, and its manifest's "
      "`name:` must match it")
  else()
    set(tgt ${name})
    set(scope PUBLIC)
  endif()
  if(NOT TG_MANIFEST)
    message(FATAL_ERROR "toolgov_add_plugin(${name}): MANIFEST <file.yaml> is required")
  endif()
  if(NOT TG_SOURCES)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): SOURCES is required (the C files that "
      "define the plugin's handlers)")
  endif()

  get_filename_component(manifest "${TG_MANIFEST}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  # A manifest made by a custom command of this directory does not exist
  # yet; the generate step depends on it, so it is made first.
  get_source_file_property(manifest_generated "${manifest}" GENERATED)
  if(NOT EXISTS "${manifest}" AND NOT manifest_generated)
    message(FATAL_ERROR "toolgov_add_plugin(${name}): manifest not found: ${manifest}")
  endif()
  set(sources "")
  foreach(src IN LISTS TG_SOURCES)
    if(src MATCHES "^\\$<")
      list(APPEND sources "${src}") # the drift check explains what to do
    else()
      get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND sources "${src}")
    endif()
  endforeach()

  _toolgov_gen_executable(gen gen_target ${name})
  if(TG_OUTPUT_DIR)
    get_filename_component(out_dir "${TG_OUTPUT_DIR}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/toolgov/${name}")
  endif()
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

  if(TG_TARGET)
    target_sources(${tgt} PRIVATE ${sources} "${gen_c}" "${gen_h}")
  else()
    add_library(${tgt} ${kind} ${sources} "${gen_c}" "${gen_h}")
    set_target_properties(${tgt} PROPERTIES
      TOOLGOV_PLUGIN_NAME ${name}
      TOOLGOV_MANIFEST "${manifest}"
      TOOLGOV_GENERATED_DIR "${out_dir}"
      TOOLGOV_GENERATED_HEADER "${gen_h}")
    if(NOT kind STREQUAL "STATIC")
      # SHARED and MODULE need it; an OBJECT library may end up in either.
      set_target_properties(${tgt} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    endif()
  endif()
  target_include_directories(${tgt} ${scope} "$<BUILD_INTERFACE:${out_dir}>")
  target_link_libraries(${tgt} ${scope} toolgov::runtime ${TG_LINK_LIBRARIES})
  set_property(TARGET ${tgt} APPEND PROPERTY TOOLGOV_PLUGINS ${name})
  set_property(TARGET ${tgt} APPEND PROPERTY TOOLGOV_MANIFESTS "${manifest}")
  set_property(TARGET ${tgt} PROPERTY TOOLGOV_GENERATED_DIR_${name} "${out_dir}")
  if(scope STREQUAL "PUBLIC")
    # install(TARGETS ... PUBLIC_HEADER DESTINATION ...) installs it.
    set_property(TARGET ${tgt} APPEND PROPERTY PUBLIC_HEADER "${gen_h}")
  endif()
  set_property(GLOBAL APPEND PROPERTY TOOLGOV_ALL_PLUGINS ${name})
  if(NOT TG_TARGET AND kind STREQUAL "MODULE")
    # A module is loaded at run time (toolgov-mcp --plugin): it exports one
    # entry function of a fixed name, found with dlsym, that returns the
    # plugin's descriptor. Only modules get it, so plugins linked together
    # never define it twice.
    set(entry_c "${CMAKE_CURRENT_BINARY_DIR}/toolgov_module/${name}.toolgov_module.c")
    file(GENERATE OUTPUT "${entry_c}" CONTENT
"/* generated by toolgov_add_plugin(${name} ... MODULE): do not edit */
#include <toolgov/module.h>
#include \"${name}.toolgov.h\"
TOOLGOV_MODULE_EXPORT const toolgov_plugin *toolgov_module_plugin(void);
TOOLGOV_MODULE_EXPORT const toolgov_plugin *toolgov_module_plugin(void)
{
    return &${name}_toolgov_plugin;
}
")
    target_sources(${tgt} PRIVATE "${entry_c}")
  endif()

  if(COMMAND _toolgov_add_drift_check)
    _toolgov_add_drift_check(${tgt} ${name} "${manifest}" "${gen}" "${gen_target}" ${sources})
  endif()
endfunction()

# The drift check step, kept in its own file.
include("${CMAKE_CURRENT_LIST_DIR}/ToolgovDriftCheck.cmake" OPTIONAL)
