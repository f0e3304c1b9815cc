# SPDX-License-Identifier: MIT
# CPack: `cpack` in a build tree makes a Debian package and a .tar.gz of
# everything `cmake --install` installs (runtime, headers, toolgov-gen and
# toolgov-gen-check, the CMake package, toolgov.pc, the manual pages, the
# manifest schema). Included by the top-level CMakeLists.txt only when
# toolgov is the top-level project.
#
#   cmake --build build && (cd build && cpack)       # both
#   (cd build && cpack -G DEB)                        # one
#
# The .deb installs under /usr and is a development package: with the static
# libtoolgov.a it carries, what a program linking it needs is a dependency
# too. TOOLGOV_DEB_DEPENDS lists the Debian packages it depends on; append
# to it (before this file is included) when the runtime or the generator
# gains a library.
set(CPACK_PACKAGE_NAME "toolgov")
set(CPACK_PACKAGE_VENDOR "The toolgov authors")
set(CPACK_PACKAGE_CONTACT "The toolgov authors <maintainers@users.noreply.a-seed-c4548a96.example>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Manifest-declared tool effects for C agent hosts")
# Lines of at most 80 columns: the Debian control file shows them as they are.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "toolgov lets a C program that gives an LLM agent tools from plugins know,\n"
    "for every tool, whether it reads, writes or destroys something of the\n"
    "user's. A YAML manifest declares each tool's effect and parameters;\n"
    "toolgov-gen generates the C tables, a libclang drift check fails the build\n"
    "when handlers and manifest disagree, libtoolgov gates every call at run\n"
    "time, and toolgov-mcp serves plugins to MCP clients with the same rules.")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGE_FILE_NAME "toolgov-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_SOURCE_GENERATOR "")
# Installed programs are stripped in both packages (the build tree keeps
# the debugging information); static archives are never stripped.
set(CPACK_STRIP_FILES ON)

# Debian: CPack's DEB generator packs under /usr whatever CMAKE_INSTALL_PREFIX
# is (its default packaging prefix); the .tar.gz holds bin/, include/, lib/,
# share/ under its one top directory.
set(CPACK_DEBIAN_PACKAGE_NAME "toolgov")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
if(NOT DEFINED TOOLGOV_DEB_DEPENDS)
  set(TOOLGOV_DEB_DEPENDS "libc6")
endif()
# The static libtoolgov.a leaves libsodium (saved-state authentication) to
# the program that links it: its link library and .pc file.
list(APPEND TOOLGOV_DEB_DEPENDS "libsodium-dev")
if(TARGET toolgov-gen)
  # toolgov-gen reads YAML; toolgov-gen-check loads libclang of the LLVM it
  # was built with.
  list(APPEND TOOLGOV_DEB_DEPENDS "libyaml-0-2" "libclang1-${TOOLGOV_LLVM_VERSION}")
endif()
if(TARGET toolgov-agent OR TARGET toolgov_mcp_upstream)
  # toolgov-agent moves the model's bytes with libcurl; toolgov-mcp reaches
  # upstream servers by URL with it.
  list(APPEND TOOLGOV_DEB_DEPENDS "libcurl4")
endif()
list(REMOVE_DUPLICATES TOOLGOV_DEB_DEPENDS)
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${TOOLGOV_DEB_DEPENDS}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.16), pkg-config, gcc | c-compiler")

# What Debian's policy asks of every package, checked by lintian in
# scripts/ci-package.sh: the licence as usr/share/doc/<package>/copyright and
# a Debian-format changelog.gz (one entry per version, pointing to the
# project's CHANGELOG.md, installed beside it as CHANGELOG.md.gz). Both are
# compressed without name or time stamp, like the manual pages; the entry's
# date honours SOURCE_DATE_EPOCH.
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION ${CMAKE_INSTALL_DOCDIR}
  RENAME copyright ${_toolgov_component})
if(TOOLGOV_GZIP AND EXISTS "${PROJECT_SOURCE_DIR}/CHANGELOG.md")
  string(TIMESTAMP TOOLGOV_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/debian-changelog.in"
                 "${PROJECT_BINARY_DIR}/debian/changelog" @ONLY)
  configure_file("${PROJECT_SOURCE_DIR}/CHANGELOG.md"
                 "${PROJECT_BINARY_DIR}/debian/CHANGELOG.md" COPYONLY)
  set(_toolgov_doc_gz "")
  foreach(_toolgov_doc changelog CHANGELOG.md)
    add_custom_command(OUTPUT "${PROJECT_BINARY_DIR}/debian/${_toolgov_doc}.gz"
      COMMAND "${TOOLGOV_GZIP}" -9nkf "${PROJECT_BINARY_DIR}/debian/${_toolgov_doc}"
      DEPENDS "${PROJECT_BINARY_DIR}/debian/${_toolgov_doc}"
      COMMENT "Compressing ${_toolgov_doc}" VERBATIM)
    list(APPEND _toolgov_doc_gz "${PROJECT_BINARY_DIR}/debian/${_toolgov_doc}.gz")
  endforeach()
  add_custom_target(toolgov_changelog ALL DEPENDS ${_toolgov_doc_gz})
  install(FILES ${_toolgov_doc_gz} DESTINATION ${CMAKE_INSTALL_DOCDIR} ${_toolgov_component})
endif()

include(CPack)
