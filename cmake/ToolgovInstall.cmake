# SPDX-License-Identifier: MIT
# Install rules: the runtime library and headers, toolgov-gen, the CMake
# package (targets toolgov::runtime and toolgov::toolgov-gen, the function
# toolgov_add_plugin()) and toolgov.pc for builds that do not use CMake.
#
# Always included. With TOOLGOV_INSTALL ON (the default when toolgov is the
# top-level project) everything is installed by `cmake --install`; with it
# OFF (the default under add_subdirectory()/FetchContent) the same rules
# exist only for `cmake --install <dir> --component toolgov`, so a parent's
# plain install stays free of toolgov while toolgov::runtime is still in an
# export set, which install(EXPORT) of the parent's plugin targets requires.
include(CMakePackageConfigHelpers)

if(TOOLGOV_INSTALL)
  set(_toolgov_component COMPONENT toolgov)
else()
  set(_toolgov_component COMPONENT toolgov EXCLUDE_FROM_ALL)
endif()

set(TOOLGOV_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/toolgov" CACHE STRING
    "Where toolgovConfig.cmake is installed, relative to the prefix")

# Exported as toolgov::runtime and toolgov::runtime_headers, the names the
# build tree's aliases use, so user code is the same in both settings.
set_target_properties(toolgov_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(toolgov_runtime_headers PROPERTIES EXPORT_NAME runtime_headers)
set(_toolgov_install_targets toolgov_runtime toolgov_runtime_headers)
if(TARGET toolgov-gen)
  # toolgov-gen runs toolgov-gen-check (the libclang drift check) from its
  # own directory: install both.
  list(APPEND _toolgov_install_targets toolgov-gen toolgov-gen-check)
endif()
install(TARGETS ${_toolgov_install_targets}
  EXPORT toolgovTargets
  ${_toolgov_component}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/toolgov"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} ${_toolgov_component})
install(EXPORT toolgovTargets
  NAMESPACE toolgov::
  DESTINATION ${TOOLGOV_INSTALL_CMAKEDIR} ${_toolgov_component})

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/toolgovConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/toolgovConfig.cmake"
  INSTALL_DESTINATION ${TOOLGOV_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/toolgovConfigVersion.cmake"
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
set(_toolgov_cmake_files
  "${PROJECT_BINARY_DIR}/toolgovConfig.cmake"
  "${PROJECT_BINARY_DIR}/toolgovConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/ToolgovAddPlugin.cmake")
foreach(f ToolgovDriftCheck.cmake ToolgovLibClang.cmake)
  if(EXISTS "${PROJECT_SOURCE_DIR}/cmake/${f}")
    list(APPEND _toolgov_cmake_files "${PROJECT_SOURCE_DIR}/cmake/${f}")
  endif()
endforeach()
install(FILES ${_toolgov_cmake_files} DESTINATION ${TOOLGOV_INSTALL_CMAKEDIR}
  ${_toolgov_component})

# The .pc file finds its prefix from where it lies, so an installed tree
# can be moved (or installed with `cmake --install --prefix`).
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(TOOLGOV_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _toolgov_pc_up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  set(TOOLGOV_PC_PREFIX "\${pcfiledir}/${_toolgov_pc_up}")
endif()
# libsodium: a static libtoolgov.a (the default) leaves its symbols to the
# program that links it, so `pkg-config --libs toolgov` must name it
# (Requires) or a host that saves run state does not link; a shared
# libtoolgov carries it itself (Requires.private, for --static only).
get_target_property(_toolgov_rt_type toolgov_runtime TYPE)
if(_toolgov_rt_type STREQUAL "SHARED_LIBRARY")
  set(TOOLGOV_PC_SODIUM "Requires.private: libsodium")
else()
  set(TOOLGOV_PC_SODIUM "Requires: libsodium")
endif()
configure_file("${PROJECT_SOURCE_DIR}/cmake/toolgov.pc.in"
               "${PROJECT_BINARY_DIR}/toolgov.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/toolgov.pc"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig ${_toolgov_component})

# The manual pages, with the version filled in: toolgov-gen(1) with the
# generator, toolgov-mcp(1) with the MCP server, toolgov-agent(1) with the agent,
# toolgov-manifest(5) always.
# They are installed compressed (gzip -9n: no name or time stamp inside, so
# the package is reproducible), as Debian's policy asks; man reads .gz pages
# on every system toolgov builds on. Without gzip they go in as they are.
set(_toolgov_man_pages toolgov-manifest.5)
if(TARGET toolgov-gen)
  list(APPEND _toolgov_man_pages toolgov-gen.1 toolgov-gen-check.1)
endif()
if(TARGET toolgov-mcp)
  list(APPEND _toolgov_man_pages toolgov-mcp.1)
endif()
if(TARGET toolgov-agent)
  list(APPEND _toolgov_man_pages toolgov-agent.1)
endif()
find_program(TOOLGOV_GZIP gzip)
mark_as_advanced(TOOLGOV_GZIP)
set(_toolgov_man_outputs "")
# The guides the manual pages point to (docs/*.md: manifest.md lists every
# keyword and message) go to the documentation directory, compressed like
# the pages; TOOLGOV_DOC_SUFFIX names them in the pages as installed.
file(GLOB _toolgov_docs "${PROJECT_SOURCE_DIR}/docs/*.md")
if(TOOLGOV_GZIP)
  set(TOOLGOV_DOC_SUFFIX ".gz")
else()
  set(TOOLGOV_DOC_SUFFIX "")
endif()
foreach(_toolgov_doc IN LISTS _toolgov_docs)
  get_filename_component(_toolgov_doc_name "${_toolgov_doc}" NAME)
  if(TOOLGOV_GZIP)
    set(_toolgov_doc_gz "${PROJECT_BINARY_DIR}/doc/${_toolgov_doc_name}.gz")
    add_custom_command(OUTPUT "${_toolgov_doc_gz}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${PROJECT_BINARY_DIR}/doc"
      COMMAND ${CMAKE_COMMAND} -E copy "${_toolgov_doc}" "${PROJECT_BINARY_DIR}/doc/${_toolgov_doc_name}"
      COMMAND "${TOOLGOV_GZIP}" -9nf "${PROJECT_BINARY_DIR}/doc/${_toolgov_doc_name}"
      DEPENDS "${_toolgov_doc}"
      COMMENT "Compressing docs/${_toolgov_doc_name}" VERBATIM)
    list(APPEND _toolgov_man_outputs "${_toolgov_doc_gz}")
    set(_toolgov_doc "${_toolgov_doc_gz}")
  endif()
  install(FILES "${_toolgov_doc}" DESTINATION ${CMAKE_INSTALL_DOCDIR} ${_toolgov_component})
endforeach()
foreach(_toolgov_page IN LISTS _toolgov_man_pages)
  # Build tests configure partial copies of the tree (no man/); the
  # man_pages and package tests see to it that the real tree has them.
  if(NOT EXISTS "${PROJECT_SOURCE_DIR}/man/${_toolgov_page}.in")
    continue()
  endif()
  set(_toolgov_man "${PROJECT_BINARY_DIR}/man/${_toolgov_page}")
  configure_file("${PROJECT_SOURCE_DIR}/man/${_toolgov_page}.in" "${_toolgov_man}" @ONLY)
  string(REGEX REPLACE ".*\\.([1-9])$" "\\1" _toolgov_section "${_toolgov_page}")
  if(TOOLGOV_GZIP)
    add_custom_command(OUTPUT "${_toolgov_man}.gz"
      COMMAND "${TOOLGOV_GZIP}" -9nkf "${_toolgov_man}"
      DEPENDS "${_toolgov_man}"
      COMMENT "Compressing ${_toolgov_page}" VERBATIM)
    list(APPEND _toolgov_man_outputs "${_toolgov_man}.gz")
    set(_toolgov_man "${_toolgov_man}.gz")
  endif()
  install(FILES "${_toolgov_man}"
    DESTINATION ${CMAKE_INSTALL_MANDIR}/man${_toolgov_section} ${_toolgov_component})
endforeach()
if(_toolgov_man_outputs)
  add_custom_target(toolgov_man_pages ALL DEPENDS ${_toolgov_man_outputs})
endif()

# The licence travels with every installed copy (MIT asks for it).
if(EXISTS "${PROJECT_SOURCE_DIR}/LICENSE")
  install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION ${CMAKE_INSTALL_DOCDIR}
    ${_toolgov_component})
endif()
