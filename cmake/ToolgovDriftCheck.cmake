# SPDX-License-Identifier: MIT
# ToolgovDriftCheck.cmake: the drift check step of toolgov_add_plugin().
#
# _toolgov_add_drift_check(<target> <name> <manifest> <gen> <gen_target> <sources>...)
#
# Runs `toolgov-gen check` over the C and C++ sources of plugin <name> as
# part of building <target> (the plugin's own library, or the existing target
# it was attached to with TARGET), each source with the arguments its own
# compile gets that change how code parses: the target's include
# directories, compile definitions and options (usage requirements of linked
# libraries included), its language's standard, the directory's
# CMAKE_C_FLAGS/CMAKE_CXX_FLAGS[_<CONFIG>], and the source's own
# COMPILE_DEFINITIONS, COMPILE_OPTIONS, INCLUDE_DIRECTORIES and COMPILE_FLAGS.
# A source is checked when its LANGUAGE is C or CXX (the same decision CMake
# makes to compile it; headers and assembly in SOURCES are skipped), and is
# parsed as that language.
#
# The arguments are written per language by file(GENERATE) into response
# files (<name>.check-C.rsp, <name>.check-CXX.rsp) that the check reads:
# file(GENERATE) evaluates generator expressions once per language, so
# $<COMPILE_LANGUAGE:...> and $<COMPILE_LANG_AND_ID:...> in any of those
# properties are decided as for the compile (a custom command would
# evaluate them as false). The source properties and LANGUAGE are read when
# the calling directory is done (CMake 3.19+), so set_source_files_properties()
# and target_*() calls made after toolgov_add_plugin() count. Warning flags
# are never passed (clang may reject gcc's, and -Werror would turn a warning
# in a header into a failed check).
#
# The check writes a depfile of every file libclang read and touches a stamp
# on success. The stamp is a source of the target, so the command belongs to
# the target and every generator runs it before the target's compiles (Ninja
# as an order-only dependency of each object, Makefiles in the target's
# depend step, Visual Studio and Xcode as a custom build step): a drift stops
# the build before anything of the plugin compiles, before a link error
# about a missing handler could appear. The objects do not depend on the
# stamp's time, so a check that runs again (the manifest was touched, a
# description edited) recompiles nothing by itself: a handler source
# recompiles only when the generated header or the source changed. It re-runs when a source, a header
# it read, the manifest, the generated header, a response file (the flags
# changed) or toolgov-gen changes, and never on a no-op rebuild.
#
# This file is included by ToolgovAddPlugin.cmake; include() opens a policy
# scope, and functions remember the policies in force where they are
# defined, so the settings below apply to every call wherever it is made.
include_guard(GLOBAL)

if(POLICY CMP0116)
  # Ninja: depfile paths are transformed like Makefiles do (3.20+). The
  # depfile holds absolute paths, which both settings read the same.
  cmake_policy(SET CMP0116 NEW)
endif()

# The compiler arguments the check passes for target <tgt>, as a list of
# generator expressions with no raw ';' inside (so the list survives being
# passed around; use it with COMMAND_EXPAND_LISTS or file(GENERATE)): the target's C standard, include directories, compile
# definitions, and the options that change how code parses. Evaluated at
# generate time, so they follow target_*() calls made later.
function(_toolgov_drift_check_flags out tgt)
  set(inc "$<TARGET_PROPERTY:${tgt},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${tgt},COMPILE_DEFINITIONS>")
  set(opts "$<TARGET_PROPERTY:${tgt},COMPILE_OPTIONS>")
  set(std "$<TARGET_PROPERTY:${tgt},C_STANDARD>")
  set(ext "$<TARGET_PROPERTY:${tgt},C_EXTENSIONS>")
  # C_EXTENSIONS unset means ON, as for the compile itself; clang 14 spells
  # C23 as c2x.
  set(std_flag
    "$<$<BOOL:${std}>:-std=$<IF:$<OR:$<STREQUAL:${ext},>,$<BOOL:${ext}>>,gnu,c>$<IF:$<STREQUAL:${std},23>,2x,${std}>>")
  set(inc_flags "$<$<BOOL:${inc}>:-I$<JOIN:${inc},$<SEMICOLON>-I>>")
  set(def_flags "$<$<BOOL:${defs}>:-D$<JOIN:${defs},$<SEMICOLON>-D>>")
  # From the options, only what changes how the code parses, in joined
  # form or as one "SHELL:-include cfg.h" item (toolgov-gen splits it);
  # warning flags never (clang may reject gcc's, -Werror would fail
  # the check on a warning).
  set(opt_flags
    "$<FILTER:${opts},INCLUDE,^(-std=|-[DUI].|-isystem.|-iquote.|-idirafter.|-include.|-imacros.|-f(no-)?(un)?signed-char$|-fshort-(enums|wchar)$|SHELL:(-[DUI]|-isystem|-iquote|-idirafter|-include|-imacros)[ \t])>")
  # CMAKE_C_FLAGS and CMAKE_C_FLAGS_<CONFIG> (CFLAGS from the environment,
  # toolchain files), filtered alike by _toolgov_drift_check_cflags(); they
  # come first, as on the compiler's command line.
  set(cflags "$<TARGET_PROPERTY:${tgt},TOOLGOV_CHECK_CFLAGS>"
    "$<TARGET_PROPERTY:${tgt},TOOLGOV_CHECK_CFLAGS_$<UPPER_CASE:$<CONFIG>>>")
  set(${out} ${cflags} "${std_flag}" "${inc_flags}" "${def_flags}" "${opt_flags}" PARENT_SCOPE)
endfunction()

# Keep the arguments of a flags string that change how code parses (as for
# COMPILE_OPTIONS, plus the two-word forms and a sysroot).
function(_toolgov_drift_check_filter out flags)
  separate_arguments(toks UNIX_COMMAND "${flags}")
  set(keep "")
  set(take_next OFF)
  set(join "")
  foreach(t IN LISTS toks)
    if(join)
      # "-D X" becomes "-DX": a response file line that is only -D is an
      # element a generator expression left empty, which the check drops.
      list(APPEND keep "${join}${t}")
      set(join "")
    elseif(take_next)
      list(APPEND keep "${t}")
      set(take_next OFF)
    elseif(t MATCHES "^-[DUI]$")
      set(join "${t}")
    elseif(t MATCHES "^(-isystem|-iquote|-idirafter|-include|-imacros|--sysroot|-isysroot)$")
      list(APPEND keep "${t}")
      set(take_next ON)
    elseif(t MATCHES "^(-std=|-[DUI].|-isystem.|-iquote.|-idirafter.|--sysroot=.|-f(no-)?(un)?signed-char$|-fshort-(enums|wchar)$)")
      list(APPEND keep "${t}")
    endif()
  endforeach()
  set(${out} "${keep}" PARENT_SCOPE)
endfunction()

# Record the directory's C and C++ flags on the plugin target for the
# check (TOOLGOV_CHECK_CFLAGS[_<CONFIG>], TOOLGOV_CHECK_CXXFLAGS[_<CONFIG>]).
# Run at the call and again when the directory is done (CMake 3.19+), since
# the compile uses the value the flags have at the end of the directory.
function(_toolgov_drift_check_cflags tgt)
  set(configs ${CMAKE_CONFIGURATION_TYPES} ${CMAKE_BUILD_TYPE}
      Debug Release RelWithDebInfo MinSizeRel)
  list(REMOVE_DUPLICATES configs)
  foreach(lang C CXX)
    if(lang STREQUAL "C")
      set(prop TOOLGOV_CHECK_CFLAGS)
    else()
      set(prop TOOLGOV_CHECK_CXXFLAGS)
    endif()
    _toolgov_drift_check_filter(common "${CMAKE_${lang}_FLAGS}")
    set_property(TARGET ${tgt} PROPERTY ${prop} "${common}")
    foreach(c IN LISTS configs)
      string(TOUPPER "${c}" c)
      _toolgov_drift_check_filter(f "${CMAKE_${lang}_FLAGS_${c}}")
      set_property(TARGET ${tgt} PROPERTY ${prop}_${c} "${f}")
    endforeach()
  endforeach()
endfunction()

# The C++ standard for a plugin with C++ sources, as the compiler gets it:
# CXX_STANDARD, else the C++ compiler's own default (g++ 12 is gnu++17,
# libclang 14 would parse as gnu++14). toolgov-gen gives each source only
# its own language's -std=.
function(_toolgov_drift_check_cxx_std out tgt)
  set(std "$<TARGET_PROPERTY:${tgt},CXX_STANDARD>")
  set(ext "$<TARGET_PROPERTY:${tgt},CXX_EXTENSIONS>")
  set(dflt "${CMAKE_CXX_STANDARD_COMPUTED_DEFAULT}")
  if(NOT dflt MATCHES "^[0-9]+$")
    set(dflt "")
  endif()
  set(v "$<IF:$<BOOL:${std}>,${std},${dflt}>")
  # clang 14 spells C++23 as c++2b.
  set(${out}
    "$<$<BOOL:${v}>:-std=$<IF:$<OR:$<STREQUAL:${ext},>,$<BOOL:${ext}>>,gnu,c>++$<IF:$<STREQUAL:${v},23>,2b,${v}>>"
    PARENT_SCOPE)
endfunction()

# The parse-affecting options of a list, as a generator expression.
set(_TOOLGOV_CHECK_OPTION_REGEX
  "^(-std=|-[DUI].|-isystem.|-iquote.|-idirafter.|-include.|-imacros.|-f(no-)?(un)?signed-char$|-fshort-(enums|wchar)$|SHELL:(-[DUI]|-isystem|-iquote|-idirafter|-include|-imacros)[ \t])")

# The content of one language's response file: for each source of that
# language, a line "--toolgov-source=<path>" then its arguments one per
# line. Evaluated by file(GENERATE) with COMPILE_LANGUAGE set to <lang>.
function(_toolgov_drift_check_rsp out tgt name lang)
  set(nl "\n")
  set(inc "$<TARGET_PROPERTY:${tgt},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${tgt},COMPILE_DEFINITIONS>")
  set(opts "$<TARGET_PROPERTY:${tgt},COMPILE_OPTIONS>")
  if(lang STREQUAL "C")
    set(std "$<TARGET_PROPERTY:${tgt},C_STANDARD>")
    set(ext "$<TARGET_PROPERTY:${tgt},C_EXTENSIONS>")
    set(std_flag
      "$<$<BOOL:${std}>:-std=$<IF:$<OR:$<STREQUAL:${ext},>,$<BOOL:${ext}>>,gnu,c>$<IF:$<STREQUAL:${std},23>,2x,${std}>>")
    set(flags_prop TOOLGOV_CHECK_CFLAGS)
    set(x "c")
  else()
    _toolgov_drift_check_cxx_std(std_flag ${tgt})
    set(flags_prop TOOLGOV_CHECK_CXXFLAGS)
    set(x "c++")
  endif()
  # The directory's flags string first, as on the compiler's command line.
  set(common
    "$<JOIN:$<TARGET_PROPERTY:${tgt},${flags_prop}>,${nl}>"
    "$<JOIN:$<TARGET_PROPERTY:${tgt},${flags_prop}_$<UPPER_CASE:$<CONFIG>>>,${nl}>"
    "${std_flag}"
    "$<$<BOOL:${inc}>:-I$<JOIN:${inc},${nl}-I>>"
    "$<$<BOOL:${defs}>:-D$<JOIN:${defs},${nl}-D>>"
    "$<JOIN:$<FILTER:${opts},INCLUDE,${_TOOLGOV_CHECK_OPTION_REGEX}>,${nl}>")
  list(JOIN common "${nl}" common)
  get_target_property(units ${tgt} TOOLGOV_CHECK_UNITS_${name}_${lang})
  set(text "")
  foreach(u IN LISTS units)
    # The source's own properties, read as they are now (at the end of the
    # directory from CMake 3.19); generator expressions in them are
    # evaluated with the rest.
    set(own "")
    get_source_file_property(v "${u}" INCLUDE_DIRECTORIES)
    if(v)
      string(REPLACE ";" "${nl}-I" v "${v}")
      list(APPEND own "-I${v}")
    endif()
    get_source_file_property(v "${u}" COMPILE_DEFINITIONS)
    if(v)
      string(REPLACE ";" "${nl}-D" v "${v}")
      list(APPEND own "-D${v}")
    endif()
    get_source_file_property(v "${u}" COMPILE_OPTIONS)
    if(v)
      list(APPEND own "$<JOIN:$<FILTER:${v},INCLUDE,${_TOOLGOV_CHECK_OPTION_REGEX}>,${nl}>")
    endif()
    get_source_file_property(v "${u}" COMPILE_FLAGS)
    if(v)
      _toolgov_drift_check_filter(f "${v}")
      list(JOIN f "${nl}" f)
      list(APPEND own "${f}")
    endif()
    list(JOIN own "${nl}" own)
    string(APPEND text "--toolgov-source=${u}${nl}-x${nl}${x}${nl}${common}${nl}${own}${nl}")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Decide which SOURCES of plugin <name> (on target <tgt>) are checked, by
# their LANGUAGE, and write the response files. Run at the call and again
# when the directory is done (CMake 3.19+): LANGUAGE and the source
# properties may be set later.
function(_toolgov_drift_check_sources tgt name)
  get_target_property(srcs ${tgt} TOOLGOV_CHECK_REQUESTED_${name})
  get_target_property(rsp_dir ${tgt} TOOLGOV_GENERATED_DIR_${name})
  set(units_C "")
  set(units_CXX "")
  foreach(src IN LISTS srcs)
    get_source_file_property(lang "${src}" LANGUAGE)
    if(NOT lang)
      # Not set, and not computed yet (a source given to target_sources()):
      # CMake decides by the extension lists of the enabled languages.
      get_filename_component(ext "${src}" LAST_EXT)
      string(SUBSTRING "${ext}." 1 -1 ext)
      string(REGEX REPLACE "\\.$" "" ext "${ext}")
      foreach(l C CXX)
        if(ext IN_LIST CMAKE_${l}_SOURCE_FILE_EXTENSIONS)
          set(lang ${l})
        endif()
      endforeach()
    endif()
    if(lang STREQUAL "C" OR lang STREQUAL "CXX")
      list(APPEND units_${lang} "${src}")
    endif()
  endforeach()
  if(NOT units_C AND NOT units_CXX)
    message(FATAL_ERROR
      "toolgov_add_plugin(${name}): SOURCES lists no C or C++ source for the drift "
      "check to read (expected the .c files defining the handlers; a source counts "
      "by its LANGUAGE, C or CXX)")
  endif()
  set_target_properties(${tgt} PROPERTIES
    TOOLGOV_CHECK_UNITS_${name}_C "${units_C}" TOOLGOV_CHECK_UNITS_${name}_CXX "${units_CXX}")
  set(target_arg "")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.19)
    set(target_arg TARGET ${tgt})
  endif()
  get_property(done TARGET ${tgt} PROPERTY TOOLGOV_CHECK_RSP_WRITTEN_${name})
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(lang C CXX)
    if(NOT lang IN_LIST langs)
      continue()
    endif()
    _toolgov_drift_check_rsp(text ${tgt} ${name} ${lang})
    # file(GENERATE) takes one content per output, so the content is a
    # property that the second run (at the end of the directory) replaces.
    set_property(TARGET ${tgt} PROPERTY TOOLGOV_CHECK_RSP_${name}_${lang} "${text}")
    if(NOT done)
      file(GENERATE OUTPUT "${rsp_dir}/${name}.check-${lang}.rsp"
        CONTENT "$<GENEX_EVAL:$<TARGET_PROPERTY:${tgt},TOOLGOV_CHECK_RSP_${name}_${lang}>>"
        CONDITION "$<COMPILE_LANGUAGE:${lang}>" ${target_arg})
    endif()
  endforeach()
  set_property(TARGET ${tgt} PROPERTY TOOLGOV_CHECK_RSP_WRITTEN_${name} ON)
endfunction()

function(_toolgov_add_drift_check tgt name manifest gen gen_target)
  get_target_property(out_dir ${tgt} TOOLGOV_GENERATED_DIR_${name})
  set(gen_h "${out_dir}/${name}.toolgov.h")
  set(gen_c "${out_dir}/${name}.toolgov.c")
  set(stamp "${out_dir}/${name}.check.stamp")
  set(depfile "${out_dir}/${name}.check.d")
  get_filename_component(manifest_name "${manifest}" NAME)

  # Only translation units are parsed (a source whose LANGUAGE is C or
  # CXX); headers listed in SOURCES are read through the sources that
  # include them.
  set(requested "")
  foreach(src IN LISTS ARGN)
    if(src MATCHES "\\$<")
      # Silently leaving it out would report its handlers as missing.
      message(FATAL_ERROR
        "toolgov_add_plugin(${name}): SOURCES entry '${src}' is a generator "
        "expression, which the drift check cannot resolve when it sets up the "
        "check; list handler sources as plain paths (choose with if()), or add a "
        "source that defines no handler with target_sources(${tgt} ...)")
    endif()
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND requested "${abs}")
  endforeach()
  set_target_properties(${tgt} PROPERTIES TOOLGOV_CHECK_REQUESTED_${name} "${requested}")
  # The check parses each handler source alone, with the target's flags: the
  # compiler must see the same. A unity build (CMAKE_UNITY_BUILD) would put
  # the host's other sources, and their macros, before the handlers in one
  # unit, and a precompiled header (target_precompile_headers) is included
  # before each source without the source naming it; either can change what
  # a handler source means after the check has passed (a macro that hides
  # the handler macro, an include guard), so the handler sources and the
  # generated C file are left out of both. Each still compiles with the
  # target's own flags; the target's other sources keep them.
  set_source_files_properties(${requested} "${gen_c}" PROPERTIES
    SKIP_UNITY_BUILD_INCLUSION ON SKIP_PRECOMPILE_HEADERS ON)

  _toolgov_drift_check_cflags(${tgt})
  _toolgov_drift_check_sources(${tgt} ${name})
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.19) # DEFER is new in 3.19
    # DEFER evaluates its arguments when the call runs: put the names in now.
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _toolgov_drift_check_cflags [[${tgt}]])")
    cmake_language(EVAL CODE
      "cmake_language(DEFER CALL _toolgov_drift_check_sources [[${tgt}]] [[${name}]])")
  endif()
  get_target_property(units_c ${tgt} TOOLGOV_CHECK_UNITS_${name}_C)
  get_target_property(units_cxx ${tgt} TOOLGOV_CHECK_UNITS_${name}_CXX)
  set(units ${units_c} ${units_cxx})
  set(rsp_files "")
  set(rsp_args "")
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(lang C CXX)
    if(lang IN_LIST langs)
      list(APPEND rsp_files "${out_dir}/${name}.check-${lang}.rsp")
      list(APPEND rsp_args "@${out_dir}/${name}.check-${lang}.rsp")
    endif()
  endforeach()

  # `toolgov-gen check` runs toolgov-gen-check from beside itself (so that
  # generating never loads libclang): a rebuilt check must re-run the step.
  set(check_deps "")
  foreach(t toolgov::toolgov-gen-check toolgov-gen-check)
    if(TARGET ${t})
      get_target_property(real ${t} ALIASED_TARGET)
      if(real)
        set(t ${real})
      endif()
      get_target_property(imported ${t} IMPORTED)
      list(APPEND check_deps "$<TARGET_FILE:${t}>")
      if(NOT imported)
        list(APPEND check_deps ${t})
      endif()
      break()
    endif()
  endforeach()

  if(CMAKE_GENERATOR MATCHES "Ninja" OR CMAKE_VERSION VERSION_GREATER_EQUAL 3.21 OR
     (CMAKE_VERSION VERSION_GREATER_EQUAL 3.20 AND CMAKE_GENERATOR MATCHES "Makefiles"))
    set(deps_args DEPFILE "${depfile}")
  elseif(CMAKE_GENERATOR MATCHES "Makefiles")
    # Before 3.20 Makefiles have no DEPFILE: let make scan the includes.
    set(deps_args "")
    foreach(u IN LISTS units)
      list(APPEND deps_args IMPLICIT_DEPENDS C "${u}")
    endforeach()
  else()
    set(deps_args "")
  endif()

  add_custom_command(
    OUTPUT "${stamp}"
    COMMAND "${gen}" check --manifest "${manifest}" --depfile "${depfile}"
            --stamp "${stamp}"
            -- ${rsp_args}
    DEPENDS "${manifest}" "${gen_h}" ${requested} ${rsp_files} ${gen_target} "${gen}"
            ${check_deps}
    ${deps_args}
    COMMENT "toolgov: checking ${name} against ${manifest_name}"
    COMMAND_EXPAND_LISTS
    VERBATIM)

  target_sources(${tgt} PRIVATE "${stamp}")
  # For tools that want to run the same check by hand (tests/bench).
  set_property(TARGET ${tgt} APPEND PROPERTY TOOLGOV_CHECK_SOURCES "${units}")
endfunction()

# toolgov_link_plugins(<host> PLUGINS <target>... [PUBLIC | PRIVATE | INTERFACE])
#
# Links the plugin targets into <host> (target_link_libraries, PRIVATE by
# default) and checks their manifests as one pool as part of building
# <host>: `toolgov-gen validate` over every manifest the targets carry (a
# target made with TARGET may carry several), so two plugins that the runtime
# would refuse together at mount (a tool name declared by both, a built-in's
# name taken, one plugin name twice) fail the build, before <host> compiles.
# A plugin target that is <host> itself (toolgov_add_plugin(... TARGET <host>))
# is checked but not linked. Re-runs when a manifest or toolgov-gen changes.
function(toolgov_link_plugins host)
  cmake_parse_arguments(PARSE_ARGV 1 TG "PUBLIC;PRIVATE;INTERFACE" "" "PLUGINS")
  set(usage "toolgov_link_plugins(<host target> PLUGINS <plugin targets>... [PUBLIC|PRIVATE|INTERFACE])")
  if(TG_UNPARSED_ARGUMENTS)
    list(JOIN TG_UNPARSED_ARGUMENTS " " extra)
    message(FATAL_ERROR
      "toolgov_link_plugins(${host}): unexpected argument(s) '${extra}'; the form is ${usage}")
  endif()
  if(NOT TG_PLUGINS)
    message(FATAL_ERROR
      "toolgov_link_plugins(${host}): no plugins named; the form is ${usage}")
  endif()
  if(NOT TARGET ${host})
    message(FATAL_ERROR "toolgov_link_plugins(${host}): no target named '${host}'")
  endif()
  # One call per host: a second would add a second pool check that sees only
  # its own plugins, so clashes between the two lists would go unseen.
  if(TARGET ${host}_toolgov_pool)
    message(FATAL_ERROR
      "toolgov_link_plugins(${host}): the plugins of '${host}' were already linked by an "
      "earlier call; name every plugin of the host in one call, so they are checked as "
      "one pool")
  endif()
  set(scope PRIVATE)
  set(scopes "")
  foreach(s PUBLIC PRIVATE INTERFACE)
    if(TG_${s})
      set(scope ${s})
      list(APPEND scopes ${s})
    endif()
  endforeach()
  list(LENGTH scopes nscopes)
  if(nscopes GREATER 1)
    list(JOIN scopes " and " both)
    message(FATAL_ERROR
      "toolgov_link_plugins(${host}): ${both} given; choose one of PUBLIC, PRIVATE "
      "(the default) and INTERFACE")
  endif()
  set(manifests "")
  set(link "")
  foreach(p IN LISTS TG_PLUGINS)
    if(NOT TARGET ${p})
      message(FATAL_ERROR
        "toolgov_link_plugins(${host}): '${p}' is not a target; name the targets of "
        "toolgov_add_plugin() (the plugin's name, or the TARGET it was attached to)")
    endif()
    get_target_property(ms ${p} TOOLGOV_MANIFESTS)
    if(NOT ms)
      message(FATAL_ERROR
        "toolgov_link_plugins(${host}): target '${p}' carries no toolgov plugin "
        "(make it with toolgov_add_plugin())")
    endif()
    list(APPEND manifests ${ms})
    if(NOT p STREQUAL host)
      list(APPEND link ${p})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES manifests)
  if(link)
    target_link_libraries(${host} ${scope} ${link})
  endif()

  _toolgov_gen_executable(gen gen_target ${host})
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/toolgov/${host}.pool.stamp")
  add_custom_command(
    OUTPUT "${stamp}"
    COMMAND "${gen}" validate ${manifests}
    COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
    DEPENDS ${manifests} ${gen_target} "${gen}"
    COMMENT "toolgov: checking the plugins of ${host} as one pool"
    VERBATIM)
  # A target of its own that <host> depends on: every compile of <host>
  # waits for it (a source's OBJECT_DEPENDS would reach other targets
  # sharing that source).
  add_custom_target(${host}_toolgov_pool DEPENDS "${stamp}")
  add_dependencies(${host} ${host}_toolgov_pool)
endfunction()
