#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build-level test of the drift check against plugins that try to get past
# it (tests/build/projects/evasions): each plugin target is built on its own
# and must fail at the check, before anything of it compiles, with the
# diagnostic at the right file:line:col. A clean plugin builds.
#
#   run-evasion-tests.sh TOOLGOV_SOURCE_DIR WORK_DIR GENERATOR C_COMPILER CXX_COMPILER
set -u

toolgov=$1
work=$2
generator=$3
cc=$4
cxx=$5

src=$work/src
bld=$work/build
out=$work/build-output.txt
failures=0
step=""

fail() {
  printf 'FAIL [%s]: %s\n---- build output ----\n' "$step" "$*"
  cat "$out"
  printf -- '----------------------\n'
  failures=$((failures + 1))
}

build() { cmake --build "$bld" -j 2 --target "$1" >"$out" 2>&1; }

# expect_stop TARGET LINE-PREFIX...: the build of TARGET fails at its check
# and the output has a line starting with each prefix.
expect_stop() {
  local target=$1
  shift
  step="$target"
  if build "$target"; then
    fail "the build succeeded"
    return
  fi
  grep -q "toolgov: checking $target" "$out" || fail "the check of $target did not run"
  if grep -Eq "Building (C|CXX) object.*/$target\.dir/[^ ]*$target" "$out"; then
    fail "$target compiled before its check failed"
  fi
  local p
  for p in "$@"; do
    awk -v p="$p" 'index($0, p) == 1 { found = 1 } END { exit !found }' "$out" ||
      fail "no line starting: $p"
  done
}

rm -rf "$work"
mkdir -p "$work/toolgov"
cp -R "$toolgov/tests/build/projects/evasions" "$src"
for part in CMakeLists.txt LICENSE cmake gen man runtime schema; do
  cp -R "$toolgov/$part" "$work/toolgov/$part"
done

step="configure"
if ! cmake -S "$src" -B "$bld" -G "$generator" -DCMAKE_BUILD_TYPE=Debug \
     -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
     -DTOOLGOV_SOURCE_DIR="$work/toolgov" >"$out" 2>&1; then
  fail "configure failed"
  exit 1
fi

step="a clean plugin builds"
build ev_other || fail "ev_other did not build"

expect_stop ev_marker \
  "$src/ev_marker.c:10:1: error: handler for tool 'hidden' is not declared in the manifest of plugin 'ev_marker'"
expect_stop ev_pragma \
  "$src/ev_pragma.h:11:39: error: toolgov_register_tool() names tool 'hidden', which the manifest of plugin 'ev_pragma' does not declare"
expect_stop ev_system \
  "$src/sys/ev_system_extra.h:3:1: error: handler for tool 'hidden' is not declared in the manifest of plugin 'ev_system'"
expect_stop ev_members \
  "$src/ev_members.cpp:19:36: error: toolgov_register_tool() names tool 'in_ctor'" \
  "$src/ev_members.cpp:23:43: error: toolgov_register_tool() names tool 'in_template'"
expect_stop ev_two \
  "$src/ev_two.c:5:1: error: 'ev_other_Handler_ok' carries the handler mark of tool 'ok', but the handler of 'ok' in plugin 'ev_two' is 'ev_two_Handler_ok'"
expect_stop ev_shared \
  "$src/inc/ev_shared_impl.h:3:1: error: the handler for tool 'ok' is defined in a header that 2 sources of plugin 'ev_shared' include" \
  "$src/ev_shared_a.c:1:10: note: '$src/ev_shared_a.c' includes it here" \
  "$src/ev_shared_b.c:2:10: note: '$src/ev_shared_b.c' includes it here"
expect_stop ev_forged \
  "$src/ev_forged.c:14:5: error: 'ev_forged_helper' carries the handler mark of tool 'ok', but the handler of 'ok' in plugin 'ev_forged' is 'ev_forged_Handler_ok'"

expect_stop ev_flags \
  "$src/ev_flags_b.c:5:1: error: handler for tool 'hidden_b' is not declared in the manifest of plugin 'ev_flags'" \
  "$src/ev_flags_c.cpp:4:1: error: handler for tool 'hidden_c' is not declared in the manifest of plugin 'ev_flags'" \
  "$src/ev_flags_d.c++:3:1: error: handler for tool 'hidden_d' is not declared in the manifest of plugin 'ev_flags'" \
  "$src/ev_flags_e.c:5:1: error: handler for tool 'hidden_e' is not declared in the manifest of plugin 'ev_flags'"
step="ev_flags: the per-source handler is seen"
if grep -q "tool 'ok' is declared but" "$out"; then
  fail "the handler enabled by a per-source definition was not seen"
fi

# The pool of a host, checked when the host builds.
step="pool_good builds"
build pool_good || fail "pool_good did not build"
step="pool_bad stops at the pool check"
if build pool_bad; then
  fail "the build succeeded"
else
  grep -q "toolgov: checking the plugins of pool_bad as one pool" "$out" ||
    fail "the pool check did not run"
  awk -v p="$src/pool_b.yaml:7:3: error: tool 'shared_tool' of plugin 'pool_b' is declared by plugin 'pool_a' too" \
    'index($0, p) == 1 { found = 1 } END { exit !found }' "$out" || fail "no pool error at pool_b.yaml:7:3"
  awk -v p="$src/pool_a.yaml:4:3: note: 'shared_tool' is declared here first" \
    'index($0, p) == 1 { found = 1 } END { exit !found }' "$out" || fail "no note at pool_a.yaml:4:3"
  if grep -q "Building C object.*pool_bad.dir" "$out"; then
    fail "pool_bad compiled before its pool check failed"
  fi
fi

if [ "$failures" -ne 0 ]; then
  printf '%d step(s) failed\n' "$failures"
  exit 1
fi
printf 'all evasion steps passed (%s, %s)\n' "$generator" "$cc"
