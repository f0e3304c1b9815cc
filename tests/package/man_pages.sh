#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The manual pages: each renders without a groff warning, names the version,
# and toolgov-gen(1) documents every command and option the program's own
# --help (and `check --help`) lists; --help points to both pages.
#
#   man_pages.sh MAN_DIR TOOLGOV_GEN VERSION
set -u
man_dir=$1
gen=$2
version=$3
failures=0
fail() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }

for page in toolgov-gen.1 toolgov-manifest.5; do
  f=$man_dir/$page
  [ -f "$f" ] || { fail "no $f"; continue; }
  warnings=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
  [ -z "$warnings" ] || fail "$page: groff says: $warnings"
  grep -q "^\.TH .*\"toolgov $version\"" "$f" || fail "$page: .TH does not name toolgov $version"
done

# The page's text with roff's escapes for '-' undone.
text=$(sed 's/\\-/-/g' "$man_dir/toolgov-gen.1")
help=$("$gen" --help; "$gen" check --help)
for opt in $(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
  printf '%s\n' "$text" | grep -qF -- "$opt" || fail "toolgov-gen(1) does not document $opt"
done
# Each command of --help has its own entry (.TP, then .B/.BI <command>)
# under COMMANDS.
commands=$(printf '%s\n' "$text" | sed -n '/^\.SH COMMANDS/,/^\.SH /p' |
           awk 'tp && /^\.BI? / { print $2 } { tp = ($0 == ".TP") }' | tr -d '"')
for cmd in $(printf '%s\n' "$help" | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | sort -u); do
  printf '%s\n' "$commands" | grep -qx -- "$cmd" ||
    fail "toolgov-gen(1) has no entry for the command $cmd under COMMANDS"
done
printf '%s\n' "$help" | grep -q "man toolgov-gen" || fail "--help does not point to toolgov-gen(1)"
printf '%s\n' "$help" | grep -q "man 5 toolgov-manifest" || fail "--help does not point to toolgov-manifest(5)"

# The manifest of toolgov-manifest(5)'s synopsis is valid.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^\.EX/ { f = 1; next } /^\.EE/ { exit } f' "$man_dir/toolgov-manifest.5" |
  sed 's/\\-/-/g' >"$tmp/calendar.yaml"
"$gen" validate "$tmp/calendar.yaml" >"$tmp/out" 2>&1 ||
  fail "the synopsis of toolgov-manifest(5) is not a valid manifest: $(cat "$tmp/out")"

[ "$failures" -eq 0 ] || exit 1
echo "manual pages: fine"
