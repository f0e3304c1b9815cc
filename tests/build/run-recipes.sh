#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The recipes of docs/integration.md, built from the page itself: every
# fenced block preceded by `<!-- file: <recipe>/<path> -->` is written out,
# common/ into every recipe, and each recipe is built the way the page says
# and its agent run (its output must be the page's `$ ./build/agent` line):
#   subdir   add_subdirectory() of toolgov's tree
#   fetch    FetchContent from a git clone, GIT_TAG main (a temporary clone
#            whose main is this checkout's HEAD commit)
#   package  find_package() of toolgov installed from BUILD_DIR
#   make     pkg-config and the page's Makefile under make -j, with the
#            grouped target running toolgov-gen generate exactly once
#
#   run-recipes.sh TOOLGOV_SOURCE_DIR WORK_DIR BUILD_DIR [EXTRA_FLAGS]
set -u

toolgov=$1
work=$2
build_dir=$3
extra=${4:-}
doc=$toolgov/docs/integration.md
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

rm -rf "$work"
mkdir -p "$work/doc"

# Write out the marked blocks.
awk -v dir="$work/doc" '
  /^<!-- file: .* -->$/ { f = $3; want = 1; next }
  want && /^```/ { want = 0; inblock = 1; path = dir "/" f
                   sub(/\/[^\/]*$/, "", path); system("mkdir -p \"" path "\"");
                   printf "" > (dir "/" f); next }
  inblock && /^```$/ { inblock = 0; close(dir "/" f); next }
  inblock { print >> (dir "/" f) }
' "$doc"
expected=$(awk 'prev == "$ ./build/agent" { print; exit } { prev = $0 }' "$doc")
step="extract"
for f in common/calendar.yaml common/calendar.c common/agent.c subdir/CMakeLists.txt \
         fetch/CMakeLists.txt package/CMakeLists.txt make/Makefile; do
  [ -s "$work/doc/$f" ] || fail "docs/integration.md has no block for $f"
done
[ -n "$expected" ] || fail "docs/integration.md shows no output of ./build/agent"
[ "$failures" -eq 0 ] || exit 1

recipe() {
  mkdir -p "$work/$1"
  cp "$work/doc/common/"* "$work/doc/$1/"* "$work/$1/"
}
cmake_flags=(-G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS=$extra"
             "-DCMAKE_EXE_LINKER_FLAGS=$extra")
check_agent() {
  run "$1" || { fail "agent failed"; return; }
  grep -Fxq -- "$expected" "$out" || fail "agent printed something else than: $expected"
}

step="subdir"
recipe subdir
mkdir -p "$work/subdir/third_party"
ln -s "$toolgov" "$work/subdir/third_party/toolgov"
if run cmake -S "$work/subdir" -B "$work/subdir/build" "${cmake_flags[@]}" &&
   run cmake --build "$work/subdir/build" -j 2; then
  check_agent "$work/subdir/build/agent"
else
  fail "build failed"
fi

step="fetch"
if head=$(git -C "$toolgov" rev-parse HEAD 2>/dev/null); then
  recipe fetch
  run git clone -q "$toolgov" "$work/toolgov-repo" &&
    run git -C "$work/toolgov-repo" checkout -q -B main "$head" ||
    fail "making the repository to fetch failed"
  if run cmake -S "$work/fetch" -B "$work/fetch/build" "${cmake_flags[@]}" \
         -DTOOLGOV_GIT_REPOSITORY="file://$work/toolgov-repo" &&
     run cmake --build "$work/fetch/build" -j 2; then
    check_agent "$work/fetch/build/agent"
  else
    fail "build failed"
  fi
else
  say "fetch: skipped, $toolgov is not a git checkout"
fi

step="package"
prefix=$work/prefix
recipe package
if run cmake --install "$build_dir" --prefix "$prefix" &&
   run cmake -S "$work/package" -B "$work/package/build" "${cmake_flags[@]}" \
       -DCMAKE_PREFIX_PATH="$prefix" --warn-uninitialized &&
   { ! grep -Eq 'CMake (Warning|Deprecation)' "$out" || fail "configure printed a warning"; } &&
   run cmake --build "$work/package/build" -j 2; then
  check_agent "$work/package/build/agent"
else
  fail "build failed"
fi

step="make"
recipe make
gen=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=toolgov_gen toolgov)
[ -x "$gen" ] || fail "the .pc file's toolgov_gen is not an executable: '$gen'"
# Count the generator's runs through a wrapper in its place.
cat >"$work/count-gen" <<EOS
#!/bin/sh
echo "\$1" >>"$work/gen-runs.txt"
exec "$gen" "\$@"
EOS
chmod +x "$work/count-gen"
if (cd "$work/make" && PKG_CONFIG_PATH="$prefix/lib/pkgconfig" CFLAGS="$extra" \
      LDFLAGS="$extra" run make -j 4 TOOLGOV_GEN="$work/count-gen"); then
  check_agent "$work/make/agent"
  n=$(grep -c '^generate$' "$work/gen-runs.txt")
  [ "$n" -eq 1 ] || fail "generate ran $n times under make -j 4"
  grep -q '^check$' "$work/gen-runs.txt" || fail "the drift check did not run"
else
  fail "make failed"
fi

if [ "$failures" -ne 0 ]; then
  say "$failures failure(s)"
  exit 1
fi
say "every recipe of docs/integration.md builds and runs"
