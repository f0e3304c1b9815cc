#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build-level test of a plugin with a C++ handler next to a C plugin
# (tests/build/projects/mixed): the parent sets CMAKE_C_STANDARD and
# CMAKE_CXX_STANDARD for everything. Asserts that both plugins build, that a
# no-op rebuild does nothing (in each configuration of a multi-config
# generator, built one after the other), and that the check's depfiles name
# no path through '..' (a lexically normalised '/usr/lib/gcc/.../../../..'
# misses the file behind the /lib symlink, and the build is never up to date),
# and that an undeclared handler stops each configuration's build.
#
#   run-mixed-tests.sh TOOLGOV_SOURCE_DIR WORK_DIR GENERATOR
set -u

toolgov=$1
work=$2
generator=$3

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

case $generator in
  *Multi-Config) configs="Debug Release" ;;
  *) configs="Debug" ;;
esac

build() { cmake --build "$bld" --config "$1" -j 2 >"$out" 2>&1; }

expect_ok() {
  step=$1
  build "$2" || fail "the build failed"
}

expect_noop() {
  step=$1
  build "$2" || { fail "the no-op build failed"; return; }
  if grep -Eq 'toolgov: (checking|generating)|Building C|Linking C' "$out"; then
    fail "the no-op build did work"
  fi
  case $generator in
    Ninja*) grep -Fxq "ninja: no work to do." "$out" || fail "ninja had work to do" ;;
  esac
}

rm -rf "$work"
mkdir -p "$work/toolgov"
cp -R "$toolgov/tests/build/projects/mixed" "$src"
for part in CMakeLists.txt LICENSE cmake gen man runtime; do
  cp -R "$toolgov/$part" "$work/toolgov/$part"
done

step="configure"
if ! cmake -S "$src" -B "$bld" -G "$generator" -DCMAKE_BUILD_TYPE=Debug \
     -DCMAKE_CONFIGURATION_TYPES="Debug;Release" \
     -DTOOLGOV_SOURCE_DIR="$work/toolgov" >"$out" 2>&1; then
  fail "configure failed"
  exit 1
fi

for c in $configs; do
  expect_ok "build $c" "$c"
done
for c in $configs; do
  step="host runs ($c)"
  h=$bld/mixed_host
  [ -x "$bld/$c/mixed_host" ] && h=$bld/$c/mixed_host
  "$h" >"$out" 2>&1 || fail "mixed_host failed"
  grep -Fxq "mounted: 0" "$out" || fail "mixed_host did not mount the plugins"
done
for c in $configs; do
  expect_noop "no-op rebuild $c" "$c"
done

# A drift still stops the build before the plugin compiles (the stamp, a
# custom command of the plugin target, is ordered before its compiles by
# the generator itself, per configuration with a multi-config one).
cp "$src/clock.c" "$work/clock.c.orig"
cat >>"$src/clock.c" <<'EOT'

CLOCK_TOOLGOV_HANDLER(later, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "later");
}
EOT
for c in $configs; do
  step="undeclared handler ($c)"
  if build "$c"; then
    fail "the build succeeded"
  fi
  grep -Fxq "$src/clock.c:21:1: error: handler for tool 'later' is not declared in the manifest of plugin 'clock'" "$out" ||
    fail "no diagnostic at clock.c:21:1"
  if grep -Eq 'Building C object.*clock\.(dir|c)' "$out"; then
    fail "plugin clock compiled before its check failed"
  fi
done
cp "$work/clock.c.orig" "$src/clock.c"
for c in $configs; do
  expect_ok "handler removed ($c)" "$c"
done

step="depfiles"
found=0
while IFS= read -r -d '' d; do
  found=1
  if grep -n '/\.\./' "$d" >"$out"; then
    fail "$d names a path through '..'"
  fi
done < <(find "$bld" -name '*.check.d' -print0)
[ "$found" = 1 ] || fail "no depfile written"

if [ "$failures" -ne 0 ]; then
  printf '%d step(s) failed\n' "$failures"
  exit 1
fi
printf 'all steps passed (%s)\n' "$generator"
