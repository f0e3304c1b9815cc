#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dev.sh: the two commands of the README, and the sanitizer build CI adds.
#
#   ./dev.sh demo [scenario...]   install what is missing, build, run toolgov-demo
#   ./dev.sh test                 install what is missing, build, run every test
#   ./dev.sh sanitize             the same tests under ASan+UBSan (clang)
#   ./dev.sh tsan                 concurrent runs over one registry under TSan
#
# Packages come from Debian's apt-get, installed only when missing, without
# questions. Builds go to build/ (and build-asan/); re-running is incremental.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(gcc g++ clang cmake ninja-build pkg-config libyaml-dev libsodium-dev libclang-14-dev
          check valgrind libclang-rt-14-dev python3-jsonschema python3-yaml
          libcurl4-openssl-dev)

deps() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "dev.sh: installing missing packages: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
}

# The MCP tests drive toolgov-mcp with the official SDK client, pinned in
# tests/mcp/package-lock.json: install it once, when npm is there.
# The reference MCP servers governed in the upstream tests likewise
# (tests/upstream/package-lock.json).
node_deps() {
  command -v npm >/dev/null 2>&1 || return 0
  if [ ! -d tests/mcp/node_modules/@modelcontextprotocol/sdk ]; then
    echo "dev.sh: installing the MCP SDK client for the tests (npm ci in tests/mcp)"
    (cd tests/mcp && npm ci --no-audit --no-fund >/dev/null)
  fi
  if [ ! -f tests/agent/types/node_modules/typescript/package.json ]; then
    echo "dev.sh: installing the SDK types for the agent's request check (npm ci in tests/agent/types)"
    (cd tests/agent/types && npm ci --no-audit --no-fund >/dev/null)
  fi
  if [ ! -f tests/upstream/node_modules/@modelcontextprotocol/server-memory/package.json ]; then
    echo "dev.sh: installing the reference MCP servers for the tests (npm ci in tests/upstream)"
    (cd tests/upstream && npm ci --no-audit --no-fund >/dev/null)
  fi
}

jobs() { nproc 2>/dev/null || echo 2; }

build() {
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DTOOLGOV_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j "$(jobs)"
}

cmd=${1:-help}
[ $# -gt 0 ] && shift
case "$cmd" in
  demo)
    deps
    build build
    exec build/examples/demo/toolgov-demo "$@"
    ;;
  test)
    deps
    node_deps
    build build
    ctest --test-dir build --output-on-failure -j "$(jobs)" "$@"
    ;;
  sanitize)
    deps
    node_deps
    build build-asan -DTOOLGOV_SANITIZE=ON -DCMAKE_C_COMPILER=clang \
          -DCMAKE_CXX_COMPILER=clang++
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan --output-on-failure -j "$(jobs)" "$@"
    ;;
  tsan)
    deps
    cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
          -DTOOLGOV_WERROR=ON -DTOOLGOV_TSAN=ON \
          -DCMAKE_C_COMPILER=clang >/dev/null
    cmake --build build-tsan -j "$(jobs)" --target runtime_threads_tsan
    TSAN_OPTIONS=halt_on_error=1 \
      ctest --test-dir build-tsan --output-on-failure -R '_tsan$' "$@"
    ;;
  *)
    sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'
    [ "$cmd" = help ] || exit 2
    ;;
esac
