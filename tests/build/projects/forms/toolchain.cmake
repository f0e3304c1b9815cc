# SPDX-License-Identifier: MIT
# A "cross" toolchain that uses the host compiler (no cross compiler is
# available where the tests run): setting CMAKE_SYSTEM_NAME makes CMake
# treat the build as cross-compiling, so toolgov must use the host
# toolgov-gen given in TOOLGOV_GEN_EXECUTABLE instead of building its own.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${CMAKE_HOST_SYSTEM_PROCESSOR})
set(CMAKE_C_COMPILER cc)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
