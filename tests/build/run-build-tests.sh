#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build-level tests of the drift check: configure and build an outside
# project (tests/build/projects/weather) that uses toolgov through
# add_subdirectory(), then edit its sources step by step and assert on the
# exit status of each build and on the exact file:line:col of each
# diagnostic.
#
#   run-build-tests.sh TOOLGOV_SOURCE_DIR WORK_DIR GENERATOR C_COMPILER MODE
#
# MODE full: every drift kind, a source edit, a header edit, no-op rebuilds.
# MODE basic: a clean build, a no-op rebuild, a header edit re-running the
# check, one drift. MODE installed: the same through an installed toolgov
# (find_package). One configured project is reused across all steps, so
# toolgov itself is built once per run.
set -u

toolgov=$1
work=$2
generator=$3
cc=$4
mode=$5

src=$work/src
bld=$work/build
out=$work/build-output.txt
failures=0
step=""

say() { printf '%s\n' "$*"; }
fail() {
  say "FAIL [$step]: $*"
  say "---- build output ----"
  cat "$out"
  say "----------------------"
  failures=$((failures + 1))
}

build() { cmake --build "$bld" -j 2 >"$out" 2>&1; }

expect_ok() {
  step=$1
  build || fail "the build failed"
}

expect_fail() {
  step=$1
  if build; then
    fail "the build succeeded"
    return
  fi
}

# The output has this exact line.
expect_line() {
  grep -Fxq -- "$1" "$out" || fail "no line: $1"
}

# The output has a line starting with this text.
expect_prefix() {
  awk -v p="$1" 'index($0, p) == 1 { found = 1 } END { exit !found }' "$out" ||
    fail "no line starting: $1"
}

expect_absent() {
  if grep -Eq -- "$1" "$out"; then
    fail "unexpected output matching: $1"
  fi
}

# Nothing of toolgov ran and nothing compiled or linked.
expect_noop() {
  step=$1
  build || { fail "the no-op build failed"; return; }
  case $generator in
    Ninja) expect_line "ninja: no work to do." ;;
    *) ;;
  esac
  expect_absent 'toolgov: (checking|generating)|Building C|Linking C'
}

restore() { cp "$src.orig/$1" "$src/$1"; }

rm -rf "$work"
mkdir -p "$work/toolgov"
cp -R "$toolgov/tests/build/projects/weather" "$src"
cp -R "$src" "$src.orig"
# A snapshot of what an outside project needs of toolgov, so an edit in the
# working tree while the test runs cannot turn a no-op build into work.
for part in CMakeLists.txt LICENSE cmake gen man runtime schema; do
  cp -R "$toolgov/$part" "$work/toolgov/$part"
done
toolgov=$work/toolgov

step="configure"
if [ "$mode" = installed ]; then
  # Build and install toolgov itself, then use it through find_package().
  step="install toolgov"
  if ! { cmake -S "$toolgov" -B "$work/toolgov-build" -G "$generator" \
           -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
           -DTOOLGOV_BUILD_EXAMPLES=OFF -DBUILD_TESTING=OFF -DTOOLGOV_INSTALL=ON &&
         cmake --build "$work/toolgov-build" -j 2 &&
         cmake --install "$work/toolgov-build" --prefix "$work/prefix"; } >"$out" 2>&1; then
    fail "building and installing toolgov failed"
    exit 1
  fi
  step="configure"
  if ! cmake -S "$src" -B "$bld" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
       -DCMAKE_BUILD_TYPE=Debug -DCMAKE_PREFIX_PATH="$work/prefix" >"$out" 2>&1; then
    fail "configure failed"
    exit 1
  fi
elif ! cmake -S "$src" -B "$bld" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
     -DCMAKE_BUILD_TYPE=Debug -DTOOLGOV_SOURCE_DIR="$toolgov" >"$out" 2>&1; then
  fail "configure failed"
  exit 1
fi

expect_ok "clean build with $cc"
expect_absent 'warning:'
step="host runs"
"$bld/weather_host" >"$work/host.txt" 2>&1 || fail "weather_host failed: $(cat "$work/host.txt")"
grep -q "mounted weather: 0" "$work/host.txt" || fail "unexpected host output: $(cat "$work/host.txt")"

expect_noop "no-op rebuild"

# Touching a header the plugin reads (found through an include directory
# added after toolgov_add_plugin()) re-runs the check: the depfile.
touch "$src/include/weather_units.h"
expect_ok "header touched"
grep -q "toolgov: checking weather" "$out" || fail "the check did not re-run after a header edit"
expect_noop "no-op after header touch"

# Editing the header to define an undeclared handler fails the build at the
# header's line.
cat >>"$src/include/weather_units.h" <<'EOF'

#ifdef WEATHER_TOOLGOV_HANDLER
static inline WEATHER_TOOLGOV_HANDLER(hail, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "hail");
}
#endif
EOF
expect_fail "undeclared handler in a header"
expect_prefix "$src/include/weather_units.h:21:15: error: handler for tool 'hail' is not declared in the manifest of plugin 'weather'"
expect_absent 'Building C object.*weather\.c'
restore include/weather_units.h
expect_ok "header restored"

if [ "$mode" = full ]; then
  # Editing one plugin's source re-runs that plugin's check only.
  touch "$src/weather.c"
  expect_ok "one plugin edited"
  grep -q "toolgov: checking weather" "$out" || fail "weather's check did not re-run"
  expect_absent 'toolgov: (checking|generating) tides'

  # A changed toolgov-gen re-runs the steps it drives.
  printf '\n/* touched by the build test */\n' >>"$toolgov/gen/check/check.c"
  expect_ok "generator changed"
  grep -q "toolgov: checking weather" "$out" || fail "the check did not re-run for a new toolgov-gen"
  expect_noop "no-op after the generator changed"

  # A check that runs again recompiles nothing by itself. Touching the
  # manifest without changing it runs generate and the check, and compiles
  # nothing; editing a description compiles the generated C file only (the
  # header keeps its time, so no handler source recompiles). Ninja only:
  # the Makefile generators touch every output of generate after it runs.
  if [ "$generator" = Ninja ]; then
    touch "$src/weather.yaml"
    expect_ok "manifest touched, unchanged"
    grep -q "toolgov: generating weather" "$out" || fail "generate did not re-run"
    grep -q "toolgov: checking weather" "$out" || fail "the check did not re-run"
    expect_absent 'Building C|Linking C'
    expect_noop "no-op after the manifest was touched"
    sed -i 's/The forecast for the next days\./The forecast for the next five days./' \
      "$src/weather.yaml"
    expect_ok "description edited"
    grep -Eq 'Building C object .*weather\.toolgov\.c\.o' "$out" ||
      fail "the generated C file did not recompile"
    expect_absent 'Building C object .*/(weather|radar|host|tides)\.c\.o'
    restore weather.yaml
    expect_ok "description restored"
  fi

  # A source edit adding an undeclared handler fails the next build, before
  # anything of the plugin compiles.
  cat >>"$src/weather.c" <<'EOF'

WEATHER_TOOLGOV_HANDLER(snowfall, call, args, out)
{
    (void)args;
    (void)call;
    return toolgov_result_printf(out, "no snow");
}
EOF
  expect_fail "undeclared handler"
  expect_line "$src/weather.c:21:1: error: handler for tool 'snowfall' is not declared in the manifest of plugin 'weather'"
  expect_line "$src/weather.yaml:5:3: note: to declare it, add 'snowfall:' under 'tools:' with an 'effect:' (read, write or destructive) and a 'description:'"
  expect_absent 'Building C object'
  restore weather.c
  expect_ok "undeclared handler removed"

  # A rename on the code side: one error, both places.
  sed -i 's/TOOLGOV_HANDLER(forecast,/TOOLGOV_HANDLER(forcast,/' "$src/weather.c"
  expect_fail "renamed handler"
  expect_line "$src/weather.c:6:1: error: handler for tool 'forcast' is not declared in the manifest of plugin 'weather'; did you mean 'forecast'?"
  expect_line "$src/weather.yaml:5:3: note: 'forecast' is declared here and has no handler; rename the handler or the manifest key so they agree"
  expect_absent "tool 'forecast' is declared but"
  restore weather.c

  # A declared tool nobody implements: error at the manifest line.
  cat >>"$src/weather.yaml" <<'EOF'
  humidity:
    effect: read
    description: Relative humidity now.
EOF
  expect_fail "declared but missing"
  expect_line "$src/weather.yaml:15:3: error: tool 'humidity' is declared but no source of plugin 'weather' defines its handler; define it with 'WEATHER_TOOLGOV_HANDLER(humidity, call, args, out) { ... }'"
  restore weather.yaml

  # A hand-written registration of an undeclared literal name.
  cat >>"$src/radar.c" <<'EOF'

static int radar_entry(const toolgov_call *call, const void *args, toolgov_result *out)
{
    return weather_Handler_radar(call, args, out);
}
int weather_register_extra(toolgov_plugin_api *api);
int weather_register_extra(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "radar_loop", "animated", radar_entry);
}
EOF
  expect_fail "undeclared registration"
  expect_prefix "$src/radar.c:17:39: error: toolgov_register_tool() names tool 'radar_loop', which the manifest of plugin 'weather' does not declare"

  # The same with a computed name: a warning, and the build goes on.
  restore radar.c
  cat >>"$src/radar.c" <<'EOF'

static const char *weather_pick(void) { return "radar"; }
static int radar_entry(const toolgov_call *call, const void *args, toolgov_result *out)
{
    return weather_Handler_radar(call, args, out);
}
int weather_register_extra(toolgov_plugin_api *api);
int weather_register_extra(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, weather_pick(), "d", radar_entry);
}
EOF
  expect_ok "computed registration name"
  expect_prefix "$src/radar.c:18:39: warning: toolgov_register_tool() is called with a tool name computed at run time"
  restore radar.c

  # A syntax error: clang's diagnostic, as an error, and the build stops.
  sed -i 's/return toolgov_result_printf(out, "sunny, 21 %s", WEATHER_UNIT);/return toolgov_result_printf(out, "sunny, 21 %s", WEATHER_UNIT)/' "$src/weather.c"
  expect_fail "syntax error"
  expect_line "$src/weather.c:10:68: error: expected ';' after return statement"
  restore weather.c

  # A missing header: clang's diagnostic too.
  sed -i 's/#include "weather_units.h"/#include "weather_unit.h"/' "$src/weather.c"
  expect_fail "missing header"
  expect_line "$src/weather.c:4:10: error: 'weather_unit.h' file not found"
  restore weather.c

  expect_ok "all restored"
  expect_noop "final no-op rebuild"
fi

if [ "$failures" -ne 0 ]; then
  say "$failures failure(s) ($generator, $cc, $mode)"
  exit 1
fi
say "all build steps passed ($generator, $cc, $mode)"
