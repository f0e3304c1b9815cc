#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# spdx.sh: every tracked source, script and CMake file names its licence
# in an SPDX-License-Identifier line: the first line, or the second after a
# #! line.
#
#   scripts/spdx.sh [--fix] [DIR]    DIR: a git checkout (default: this one)
#
# Without --fix: lists each file that lacks the line and exits 1 (0 when
# none does, 77 when DIR is not a git checkout). With --fix: inserts the
# line, in the file's comment syntax, as a new first line (second after #!).
# Left out: data, golden files and fixtures whose line numbers tests assert
# (tests/data/, tests/*/data/, tests/*/golden/, the C sources of
# tests/build/projects/ but those of projects/forms), YAML, JSON, Markdown.
set -euo pipefail

fix=0
if [ "${1:-}" = "--fix" ]; then
  fix=1
  shift
fi
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
id="SPDX-License-Identifier: MIT"

files=$(git -C "$dir" ls-files 2>/dev/null) || {
  echo "spdx.sh: $dir is not a git checkout; nothing to check"
  exit 77
}

# The comment form of the line for a path, empty when the file needs none.
form() {
  case $1 in
    tests/data/* | tests/*/data/* | tests/*/golden/*) return ;;
    tests/build/projects/forms/*) ;;
    tests/build/projects/*.c | tests/build/projects/*.h | tests/build/projects/*.cpp) return ;;
    *.yaml.in) return ;;
    cmake/debian-changelog.in) return ;; # a Debian changelog: no comment syntax
  esac
  case $1 in
    *.c | *.h | *.cpp | *.cc | *.hpp) echo "/* $id */" ;;
    *.js | *.mjs | *.cjs | *.ts) echo "// $id" ;;
    *.[1-9] | *.[1-9].in) echo ".\\\" $id" ;;
    *.sh | *.py | *.cmake | *.in | */CMakeLists.txt | CMakeLists.txt | .ci/run | *.mk | Makefile)
      echo "# $id" ;;
  esac
}

missing=0
while IFS= read -r f; do
  [ -f "$dir/$f" ] || continue
  line=$(form "$f")
  [ -n "$line" ] || continue
  if head -n 2 "$dir/$f" | grep -q "SPDX-License-Identifier:"; then
    continue
  fi
  if [ "$fix" -eq 1 ]; then
    tmp=$(mktemp)
    if head -n 1 "$dir/$f" | grep -q '^#!'; then
      { head -n 1 "$dir/$f"; printf '%s\n' "$line"; tail -n +2 "$dir/$f"; } >"$tmp"
    else
      { printf '%s\n' "$line"; cat "$dir/$f"; } >"$tmp"
    fi
    cat "$tmp" >"$dir/$f" # keeps the file's mode
    rm -f "$tmp"
    echo "spdx.sh: added to $f"
  else
    echo "$f: no '$id' line (first line, or second after #!; scripts/spdx.sh --fix adds it)"
    missing=$((missing + 1))
  fi
done <<<"$files"

if [ "$missing" -ne 0 ]; then
  echo "spdx.sh: $missing file(s) without an SPDX line"
  exit 1
fi
