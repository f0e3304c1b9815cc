# Install rules: the runtime library and headers, toolgov-gen, the CMake
# package (targets toolgov::runtime and toolgov::toolgov-gen, the function
# toolgov_add_plugin()) and toolgov.pc for builds that do not use CMake.
include(CMakePackageConfigHelpers)

set(TOOLGOV_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/toolgov" CACHE STRING
    "Where toolgovConfig.cmake is installed, relative to the prefix")

set(_toolgov_install_targets toolgov_runtime toolgov_runtime_headers)
if(TARGET toolgov-gen)
  # toolgov-gen runs toolgov-gen-check (the libclang drift check) from its
  # own directory: install both.
  list(APPEND _toolgov_install_targets toolgov-gen toolgov-gen-check)
endif()
install(TARGETS ${_toolgov_install_targets}
  EXPORT toolgovTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/include/toolgov"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT toolgovTargets
  NAMESPACE toolgov::
  DESTINATION ${TOOLGOV_INSTALL_CMAKEDIR})

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
install(FILES ${_toolgov_cmake_files} DESTINATION ${TOOLGOV_INSTALL_CMAKEDIR})

configure_file("${PROJECT_SOURCE_DIR}/cmake/toolgov.pc.in"
               "${PROJECT_BINARY_DIR}/toolgov.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/toolgov.pc"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
