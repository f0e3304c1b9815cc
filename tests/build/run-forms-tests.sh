#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build-level tests of the forms of toolgov_add_plugin() (projects/forms):
# TARGET, OBJECT with OUTPUT_DIR, an exported plugin library whose generated
# header is installed (toolgov via add_subdirectory), a consumer of that
# installed package, `--warn-uninitialized` silence, and cross-compiling with
# a host toolgov-gen (TOOLGOV_GEN_EXECUTABLE) so none is built for the target.
#
#   run-forms-tests.sh TOOLGOV_SOURCE_DIR WORK_DIR HOST_TOOLGOV_GEN
set -u

toolgov=$1
work=$2
host_gen=$3

src=$work/src
bld=$work/build
out=$work/output.txt
failures=0
step=""

say() { printf '%s\n' "$*"; }
fail() {
  say "FAIL [$step]: $*"
  say "---- output ----"
  cat "$out"
  say "----------------"
  failures=$((failures + 1))
}
run() { "$@" >"$out" 2>&1; }
expect_line() { grep -Fxq -- "$1" "$out" || fail "no line: $1"; }
no_warnings() {
  if grep -Eq 'CMake (Warning|Deprecation)|uninitialized variable' "$out"; then
    fail "configure printed a warning"
  fi
}

rm -rf "$work"
mkdir -p "$work"
cp -R "$toolgov/tests/build/projects/forms" "$src"

step="configure (--warn-uninitialized)"
run cmake -S "$src" -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DTOOLGOV_SOURCE_DIR="$toolgov" --warn-uninitialized || { fail "configure failed"; exit 1; }
no_warnings

step="build"
run cmake --build "$bld" -j 2 || { fail "the build failed"; exit 1; }

step="TARGET: two plugins attached to agent"
run "$bld/agent" || fail "agent failed"
expect_line "clock_now effect=0 owner=clock"
expect_line "dice_roll effect=0 owner=dice"

step="OBJECT with OUTPUT_DIR"
run "$bld/notes_host" || fail "notes_host failed"
expect_line "notes_add effect=1 owner=notes"
[ -f "$bld/generated/notes/notes.toolgov.h" ] ||
  { run ls -R "$bld/generated"; fail "no header in OUTPUT_DIR"; }

step="no-op rebuild"
run cmake --build "$bld" -j 2 || fail "the no-op build failed"
expect_line "ninja: no work to do."

step="TARGET: the check reads the target's sources"
cp "$src/clock.c" "$work/clock.c.orig"
cat >>"$src/clock.c" <<'EOS'

CLOCK_TOOLGOV_HANDLER(clock_later, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "later");
}
EOS
if run cmake --build "$bld" -j 2; then
  fail "an undeclared handler in a TARGET plugin built"
fi
grep -q "error: handler for tool 'clock_later' is not declared in the manifest of plugin 'clock'" "$out" ||
  fail "no drift error for clock_later"
cp "$work/clock.c.orig" "$src/clock.c"
run cmake --build "$bld" -j 2 || fail "the build failed after the source was restored"

step="install the plugin (toolgov via add_subdirectory)"
prefix=$work/prefix
run cmake --install "$bld" --prefix "$prefix" || fail "install failed"
for f in include/forms/memo.toolgov.h lib/libmemo.a lib/cmake/forms/formsTargets.cmake; do
  [ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ -e "$prefix/include/toolgov" ] && fail "a plain install of the parent installed toolgov too"
run cmake --install "$bld" --prefix "$prefix" --component toolgov || fail "installing component toolgov failed"
for f in include/toolgov/toolgov.h lib/cmake/toolgov/toolgovConfig.cmake bin/toolgov-gen; do
  [ -f "$prefix/$f" ] || fail "component toolgov lacks $f"
done

step="consumer of the installed plugin"
run cmake -S "$src/consumer" -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    --warn-uninitialized || fail "consumer configure failed"
no_warnings
run cmake --build "$work/consumer" || fail "consumer build failed"
run "$work/consumer/memo_host" || fail "memo_host failed"
expect_line "memo_forget owner=memo"

step="cross-compiling without a host toolgov-gen"
if run cmake -S "$src" -B "$work/cross-nogen" -G Ninja \
     -DCMAKE_TOOLCHAIN_FILE="$src/toolchain.cmake" -DTOOLGOV_SOURCE_DIR="$toolgov"; then
  fail "configured without a toolgov-gen to run"
fi
grep -q "TOOLGOV_GEN_EXECUTABLE" "$out" || fail "the error does not name TOOLGOV_GEN_EXECUTABLE"

step="cross-compiling with TOOLGOV_GEN_EXECUTABLE"
run cmake -S "$src" -B "$work/cross" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_TOOLCHAIN_FILE="$src/toolchain.cmake" -DTOOLGOV_SOURCE_DIR="$toolgov" \
    -DTOOLGOV_GEN_EXECUTABLE="$host_gen" --warn-uninitialized || fail "configure failed"
no_warnings
grep -q "CMAKE_CROSSCOMPILING:INTERNAL=TRUE\|CMAKE_CROSSCOMPILING" "$work/cross/CMakeCache.txt" || true
run cmake --build "$work/cross" -j 2 || fail "the build failed"
built=$(find "$work/cross" -name 'toolgov-gen*' -type f -perm -u+x)
[ -z "$built" ] || fail "toolgov-gen was built for the target: $built"
run "$work/cross/agent" || fail "agent failed"
expect_line "dice_roll effect=0 owner=dice"

if [ "$failures" -ne 0 ]; then
  say "$failures failure(s)"
  exit 1
fi
say "all form tests passed"
