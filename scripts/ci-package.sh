#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ci-package.sh: the packages, as a user gets them. Makes the .deb and the
# .tar.gz with cpack in a build tree, extracts the .deb with dpkg-deb -x into
# a temporary directory (nothing is installed on the machine), and builds and
# runs the outside project tests/package/project against that tree through
# find_package(), a pkg-config host, and the manual pages through man -M;
# lintian must find no error in the .deb.
#
#   scripts/ci-package.sh [BUILD_DIR]     default: build (./dev.sh test's)
set -euo pipefail
cd "$(dirname "$0")/.."
bld=${1:-build}

if [ ! -f "$bld/CMakeCache.txt" ]; then
  cmake -S . -B "$bld" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$bld" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
rm -f "$bld"/toolgov_*.deb "$bld"/toolgov-*.tar.gz
(cd "$bld" && cpack -G "DEB;TGZ" >/dev/null)
deb=$(ls "$bld"/toolgov_*.deb)
tgz=$(ls "$bld"/toolgov-*.tar.gz)
echo "ci-package: made $(basename "$deb") ($(stat -c %s "$deb") bytes), $(basename "$tgz")"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "ci-package: FAIL: $*" >&2; exit 1; }

# Its dependencies: named, and present here (so the build below is what a
# user who installed the .deb with apt gets).
depends=$(dpkg-deb -f "$deb" Depends)
for want in libyaml-0-2 libclang1- libsodium-dev libcurl4; do
  case ", $depends" in *", $want"*) ;; *) fail "Depends lacks $want: $depends" ;; esac
done
for p in $(printf '%s' "$depends" | tr ',' '\n' | sed 's/(.*)//; s/ //g'); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    fail "the package depends on $p, which is not installed here"
done

dpkg-deb -x "$deb" "$tmp/root"
usr=$tmp/root/usr
for f in bin/toolgov-gen bin/toolgov-gen-check bin/toolgov-mcp bin/toolgov-agent \
         include/toolgov/toolgov.h include/toolgov/loop.h \
         share/man/man1/toolgov-gen.1.gz share/man/man1/toolgov-mcp.1.gz \
         share/man/man1/toolgov-agent.1.gz \
         share/man/man5/toolgov-manifest.5.gz share/doc/toolgov/LICENSE; do
  [ -f "$usr/$f" ] || fail "the .deb lacks /usr/$f"
done
ls "$usr"/lib/*/cmake/toolgov/toolgovConfig.cmake "$usr"/lib/cmake/toolgov/toolgovConfig.cmake \
  >/dev/null 2>&1 || true

# find_package() against the extracted tree.
cmake -S tests/package/project -B "$tmp/project" -G Ninja \
      -DCMAKE_PREFIX_PATH="$usr" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "configure"; }
cmake --build "$tmp/project" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "build"; }
grep -q "toolgov: checking notes" "$tmp/log" || fail "the drift check did not run"
# The host also runs calls: two spellings of one call, one canonical text;
# a handler reading its typed arguments; refused arguments; an unknown tool.
want='notes_find effect=0 notes_add effect=1 confirm=0 owner=notes
canonical {"title":"milk","priority":"normal","tags":["shop"]} same
notes_find rc=0 output=found notes for milk (at most 10)
notes_add rc=EARGS output=notes_add: /title must be a string, got 5
notes_drop rc=ENOENT'
out=$("$tmp/project/notes_host")
[ "$out" = "$want" ] || fail "notes_host printed: $out"

# The installed generator exports the declared parameters (MCP's shape).
"$usr/bin/toolgov-gen" export --manifest tests/package/project/notes.yaml --format mcp \
  >"$tmp/export.json" || fail "toolgov-gen export failed"
/usr/bin/python3 - "$tmp/export.json" <<'PY' || fail "the exported tools lack their parameters"
import json, sys
tools = {t["name"]: t for t in json.load(open(sys.argv[1]))["tools"]}
assert tools["notes_find"]["inputSchema"]["required"] == ["word"], tools
assert tools["notes_add"]["inputSchema"]["properties"]["priority"]["default"] == "normal", tools
PY

# pkg-config against the extracted tree: relocated, flags and generator path.
pcdir=$(dirname "$(find "$usr" -name toolgov.pc | head -n 1)")
gen=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=toolgov_gen toolgov)
case $gen in "$usr"/*) ;; *) fail ".pc toolgov_gen is '$gen', outside the tree" ;; esac
[ "$("$gen" --version)" = "toolgov-gen $(PKG_CONFIG_PATH=$pcdir pkg-config --modversion toolgov)" ] ||
  fail "toolgov-gen --version and the .pc's version differ"
printf '#include <toolgov/toolgov.h>\n#include <stdio.h>\nint main(void){puts(toolgov_version());return 0;}\n' >"$tmp/pc.c"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror "$tmp/pc.c" -o "$tmp/pc" \
   $(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs toolgov)
[ "$("$tmp/pc")" = "$(PKG_CONFIG_PATH=$pcdir pkg-config --modversion toolgov)" ] ||
  fail "toolgov_version() differs from the .pc's version"

# The manual pages, as man finds them.
# (Captured first: grep -q closing the pipe early would fail it under pipefail.)
page=$(MANPAGER=cat man -M "$usr/share/man" toolgov-gen 2>/dev/null || true)
grep -Eq "toolgov-gen +- +generate" <<<"$page" || fail "man toolgov-gen does not show the page"
page=$(MANPAGER=cat man -M "$usr/share/man" 5 toolgov-manifest 2>/dev/null || true)
grep -Eq "toolgov-manifest +- +the YAML file" <<<"$page" ||
  fail "man 5 toolgov-manifest does not show the page"
page=$(MANPAGER=cat man -M "$usr/share/man" toolgov-mcp 2>/dev/null || true)
grep -Eq "toolgov-mcp +- +a Model Context Protocol server" <<<"$page" ||
  fail "man toolgov-mcp does not show the page"

# Debian's own checker: no error (warnings are printed, and known: the .pc
# file lives in usr/lib/pkgconfig, not a multiarch directory). Installed when
# missing, as .ci/run installs everything else.
if ! command -v lintian >/dev/null 2>&1; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  { DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends lintian ||
    { "${sudo[@]}" apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends lintian; }
  } >/dev/null 2>&1 || echo "ci-package: lintian could not be installed; not run"
fi
if command -v lintian >/dev/null 2>&1; then
  tags=$(lintian --tag-display-limit 0 "$deb" 2>&1 | grep -E '^[EWI]: ' || true)
  [ -z "$tags" ] || printf '%s\n' "$tags" | sed 's/^/ci-package: lintian: /'
  if grep -q '^E: ' <<<"$tags"; then fail "lintian reports errors (above)"; fi
  echo "ci-package: lintian: no error"
fi

# The .tar.gz holds the same tree.
listing=$(tar -tzf "$tgz")
grep -q '/bin/toolgov-gen$' <<<"$listing" || fail "the .tar.gz lacks bin/toolgov-gen"
# ... and, unpacked anywhere, serves a find_package() user as the .deb does.
mkdir "$tmp/tgz"
tar -xzf "$tgz" -C "$tmp/tgz"
top=$(ls -d "$tmp"/tgz/*/)
cmake -S tests/package/project -B "$tmp/project-tgz" -G Ninja \
      -DCMAKE_PREFIX_PATH="$top" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "configure (.tar.gz)"; }
cmake --build "$tmp/project-tgz" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "build (.tar.gz)"; }
"$tmp/project-tgz/notes_host" >/dev/null || fail "notes_host (.tar.gz) failed"
echo "ci-package: the .deb's contents build and run the outside project (find_package, pkg-config, man); so does the unpacked .tar.gz"
