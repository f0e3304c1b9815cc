# SPDX-License-Identifier: MIT
# The installed package of the forms project: its plugin needs toolgov.
include(CMakeFindDependencyMacro)
find_dependency(toolgov CONFIG)
include("${CMAKE_CURRENT_LIST_DIR}/formsTargets.cmake")
