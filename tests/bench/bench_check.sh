#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench_check.sh: the cost of the drift check per plugin, next to a bare
# libclang parse of the same sources in one process (SPEC section 8's
# baseline), `clang -fsyntax-only` and `gcc -O2 -c`, all measured in the same
# run with hyperfine. Prints medians; asserts nothing about time.
#
#   bench_check.sh TOOLGOV_GEN BARE_PARSE ARGS_DIR RUNTIME_INCLUDE WORK_DIR
#
# ARGS_DIR holds one <plugin>.args per example plugin (written by CMake:
# MANIFEST=, SOURCES=, FLAGS= with ';'-separated lists, the same flags the
# build's check gets). A synthetic plugin of 20 sources shows what one
# process per plugin saves.
set -euo pipefail

gen=$1
bare=$2
args_dir=$3
runtime_inc=$4
work=$5
clang_bin=$(command -v clang || command -v clang-14)
gcc_bin=$(command -v gcc)
runs=${BENCH_RUNS:-20}

command -v hyperfine >/dev/null || { echo "bench_check: needs hyperfine"; exit 1; }
rm -rf "$work"
mkdir -p "$work/obj"

q() { printf '%q ' "$@"; }

median_ms() { # csv file, row (1-based after header) -> median wall time in ms
  awk -F, -v r="$2" 'NR == r + 1 { printf "%.1f", $4 * 1000 }' "$1"
}
cpu_ms() { # csv file, row -> mean user+system CPU time in ms
  awk -F, -v r="$2" 'NR == r + 1 { printf "%.1f", ($5 + $6) * 1000 }' "$1"
}

results=()
bench() { # name, manifest, sources (;-list), flags (;-list)
  local name=$1 manifest=$2 srcs flags
  IFS=';' read -ra srcs <<<"$3"
  IFS=';' read -ra flags <<<"$4"
  local f=() x
  for x in "${flags[@]}"; do [ -n "$x" ] && f+=("$x"); done
  local lines
  lines=$("$clang_bin" -E "${f[@]}" "${srcs[@]}" 2>/dev/null | wc -l)
  # Every command must succeed on its own first: a failing one is not timed.
  "$gen" check --manifest "$manifest" -- "${f[@]}" "${srcs[@]}" 2>"$work/warn.txt"
  "$bare" "${f[@]}" -- "${srcs[@]}"
  local csv=$work/$name.csv
  (cd "$work/obj" && hyperfine --style none --warmup 3 --min-runs "$runs" --export-csv "$csv" \
    -n check "$(q "$gen" check --manifest "$manifest" --depfile "$work/$name.d" \
                  --stamp "$work/$name.stamp" -- "${f[@]}" "${srcs[@]}")" \
    -n bare "$(q "$bare" "${f[@]}" -- "${srcs[@]}")" \
    -n clang "$(q "$clang_bin" -fsyntax-only "${f[@]}" "${srcs[@]}")" \
    -n gcc "$(q "$gcc_bin" -O2 -c "${f[@]}" "${srcs[@]}")" >/dev/null 2>>"$work/hyperfine.txt")
  local c b cl g cc bc
  c=$(median_ms "$csv" 1)
  b=$(median_ms "$csv" 2)
  cl=$(median_ms "$csv" 3)
  g=$(median_ms "$csv" 4)
  cc=$(cpu_ms "$csv" 1)
  bc=$(cpu_ms "$csv" 2)
  results+=("$(printf '%-18s %3d %6d %8s %8s %6.2f %8s %8s %8s %8s' "$name" "${#srcs[@]}" \
    "$lines" "$c" "$b" "$(awk -v a="$c" -v b="$b" 'BEGIN { print a / b }')" "$cc" "$bc" \
    "$cl" "$g")")
}

for a in "$args_dir"/*.args; do
  [ -e "$a" ] || continue
  name=$(basename "$a" .args)
  manifest=$(sed -n 's/^MANIFEST=//p' "$a")
  sources=$(sed -n 's/^SOURCES=//p' "$a")
  flags=$(sed -n 's/^FLAGS=//p' "$a")
  bench "$name" "$manifest" "$sources" "$flags"
done

# A synthetic plugin: 20 sources of one plugin, each including the usual libc
# headers, its generated header and defining one handler and a few helpers.
syn=$work/synthetic
mkdir -p "$syn/gen"
{
  echo "name: synthetic"
  echo "provides: [tool]"
  echo "tools:"
  for i in $(seq -w 0 19); do
    printf '  tool_%s:\n    effect: read\n    description: Synthetic tool %s.\n' "$i" "$i"
  done
} >"$syn/synthetic.yaml"
"$gen" generate --manifest "$syn/synthetic.yaml" --out-dir "$syn/gen" >/dev/null
syn_sources=()
for i in $(seq -w 0 19); do
  s=$syn/s$i.c
  {
    echo '#include <stdio.h>'
    echo '#include <stdlib.h>'
    echo '#include <string.h>'
    echo '#include <ctype.h>'
    echo '#include "synthetic.toolgov.h"'
    for k in $(seq 1 12); do
      printf 'static size_t helper_%s(const char *s)\n{\n    size_t n = 0;\n    for (; *s; s++)\n        n += isdigit((unsigned char)*s) ? %s : 1;\n    return n;\n}\n' "$k" "$k"
    done
    printf 'SYNTHETIC_TOOLGOV_HANDLER(tool_%s, call, args, out)\n{\n    size_t n = 0;\n    (void)args;\n' "$i"
    for k in $(seq 1 12); do printf '    n += helper_%s(call->args);\n' "$k"; done
    printf '    return toolgov_result_printf(out, "%%zu", n);\n}\n'
  } >"$s"
  syn_sources+=("$s")
done
syn_list=$(IFS=';'; echo "${syn_sources[*]}")
bench synthetic_20 "$syn/synthetic.yaml" "$syn_list" "-std=gnu11;-I$syn/gen;-I$runtime_inc"

# Interleaved rounds (bare, check --jobs 1, check with its default jobs):
# background load then hits the three alike, which back-to-back hyperfine
# blocks cannot promise on a shared machine.
interleaved() {
  local rounds=${BENCH_ROUNDS:-12} r m t0 t1
  : >"$work/interleaved.txt"
  for r in $(seq "$rounds"); do
    for m in bare check-j1 check; do
      t0=$(date +%s%N)
      case $m in
        bare) "$bare" "-std=gnu11" "-I$syn/gen" "-I$runtime_inc" -- "${syn_sources[@]}" ;;
        check-j1) "$gen" check --jobs 1 --manifest "$syn/synthetic.yaml" -- "-std=gnu11" \
                    "-I$syn/gen" "-I$runtime_inc" "${syn_sources[@]}" ;;
        check) "$gen" check --manifest "$syn/synthetic.yaml" -- "-std=gnu11" \
                 "-I$syn/gen" "-I$runtime_inc" "${syn_sources[@]}" ;;
      esac
      t1=$(date +%s%N)
      echo "$m $(((t1 - t0) / 1000000))" >>"$work/interleaved.txt"
    done
  done
  echo
  echo "synthetic_20, $rounds interleaved rounds, median wall ms:"
  local base med
  for m in bare check-j1 check; do
    med=$(awk -v m="$m" '$1 == m { print $2 }' "$work/interleaved.txt" | sort -n |
          awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')
    [ "$m" = bare ] && base=$med
    printf '  %-9s %7s ms  %5.2fx bare\n' "$m" "$med" "$(awk -v a="$med" -v b="$base" 'BEGIN { print a / b }')"
  done
}
interleaved

echo
echo "drift check cost: median wall ms of >= $runs runs (cpu: mean user+sys ms);"
echo "lines after preprocessing; bare = libclang parse of the same sources in one process"
printf '%-18s %3s %6s %8s %8s %6s %8s %8s %8s %8s\n' plugin src lines check bare ratio \
  'chk-cpu' 'bare-cpu' 'clang-fs' 'gcc-O2-c'
for r in "${results[@]}"; do echo "$r"; done
if grep -q "outliers" "$work/hyperfine.txt" 2>/dev/null; then
  echo "(hyperfine saw outliers: the machine was busy; compare the CPU columns)"
fi
