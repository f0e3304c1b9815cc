#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The manual pages: each renders without a groff warning, names the version,
# and toolgov-gen(1) documents every command and option the program's own
# --help (and `check --help`) lists; --help points to both pages. With
# TOOLGOV_MCP, toolgov-mcp(1) likewise documents every option of its --help,
# which points to it. Where gzip is found, each page has its reproducible
# .gz (no name, no time stamp) beside it, the form that is installed.
#
#   man_pages.sh MAN_DIR TOOLGOV_GEN VERSION [TOOLGOV_MCP]
set -u
man_dir=$1
gen=$2
version=$3
mcp=${4:-}
failures=0
fail() { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }

pages="toolgov-gen.1 toolgov-manifest.5"
[ -n "$mcp" ] && pages="$pages toolgov-mcp.1"
# TOOLGOV_AGENT (the environment): toolgov-agent(1) likewise.
agent=${TOOLGOV_AGENT:-}
[ -n "$agent" ] && pages="$pages toolgov-agent.1"
for page in $pages; do
  f=$man_dir/$page
  [ -f "$f" ] || { fail "no $f"; continue; }
  warnings=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
  [ -z "$warnings" ] || fail "$page: groff says: $warnings"
  grep -q "^\.TH .*\"toolgov $version\"" "$f" || fail "$page: .TH does not name toolgov $version"
  if command -v gzip >/dev/null 2>&1; then
    if [ ! -f "$f.gz" ]; then
      fail "no $f.gz (the installed form)"
    else
      gzip -dc "$f.gz" | cmp -s - "$f" || fail "$page.gz does not hold $page"
      # gzip -n: no file name (flag bit 3) and a zero time stamp (bytes 4-7).
      head=$(od -An -tx1 -N8 "$f.gz" | tr -d ' \n')
      [ "${head:6:2}" = 02 ] || [ "${head:6:2}" = 00 ] || fail "$page.gz stores a file name"
      [ "${head:8:8}" = 00000000 ] || fail "$page.gz stores a time stamp"
    fi
  fi
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

if [ -n "$mcp" ]; then
  mtext=$(sed 's/\\-/-/g' "$man_dir/toolgov-mcp.1")
  mhelp=$("$mcp" --help)
  for opt in $(printf '%s\n' "$mhelp" | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
    printf '%s\n' "$mtext" | grep -qF -- "$opt" || fail "toolgov-mcp(1) does not document $opt"
  done
  for var in $(printf '%s\n' "$mhelp" | grep -oE '\bTOOLGOV_[A-Z_]+' | sort -u); do
    printf '%s\n' "$mtext" | grep -qF -- "$var" || fail "toolgov-mcp(1) does not document $var"
  done
  printf '%s\n' "$mhelp" | grep -q "man toolgov-mcp" || fail "toolgov-mcp --help does not point to toolgov-mcp(1)"
fi

if [ -n "$agent" ]; then
  atext=$(sed 's/\\-/-/g' "$man_dir/toolgov-agent.1")
  ahelp=$("$agent" --help)
  for opt in $(printf '%s\n' "$ahelp" | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
    printf '%s\n' "$atext" | grep -qF -- "$opt" || fail "toolgov-agent(1) does not document $opt"
  done
  for var in $(printf '%s\n' "$ahelp" | grep -oE '\b[A-Z][A-Z_]+_(KEY|TOOLS|SCOPE|FILE)\b' | sort -u); do
    printf '%s\n' "$atext" | grep -qF -- "$var" || fail "toolgov-agent(1) does not document $var"
  done
  printf '%s\n' "$ahelp" | grep -q "man toolgov-agent" || fail "toolgov-agent --help does not point to toolgov-agent(1)"
fi

# The manifest of toolgov-manifest(5)'s synopsis is valid.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^\.EX/ { f = 1; next } /^\.EE/ { exit } f' "$man_dir/toolgov-manifest.5" |
  sed 's/\\-/-/g' >"$tmp/calendar.yaml"
"$gen" validate "$tmp/calendar.yaml" >"$tmp/out" 2>&1 ||
  fail "the synopsis of toolgov-manifest(5) is not a valid manifest: $(cat "$tmp/out")"

[ "$failures" -eq 0 ] || exit 1
echo "manual pages: fine"
