#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-long.sh: a long libFuzzer run of one target outside CI, at the lowest
# CPU priority, keeping its corpus and any crash under WORK.
#
#   tests/fuzz/run-long.sh TARGET SECONDS [WORK]
#
# TARGET is a fuzz target name (args, state, override, manifest, mcp,
# grants, loop, upstream); the libFuzzer build is build-fuzz/ (configured here when
# missing). The run reads the committed seeds and regression inputs and
# writes new inputs to WORK/corpus (default build-fuzz/long-TARGET). The
# last lines of the log (executions, coverage, peak memory) are printed at
# the end; a crash leaves its input in WORK/artifacts and exits non-zero.
#
# With FUZZ_CPU=1, SECONDS counts the fuzzer's CPU time (user + system, read
# from /proc) instead of wall time: the run is interrupted once it has used
# that much CPU, however busy the machine is, and the CPU seconds it used are
# printed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: run-long.sh TARGET SECONDS [WORK]}
seconds=${2:?usage: run-long.sh TARGET SECONDS [WORK]}
work=${3:-build-fuzz/long-$target}
if [ ! -x "build-fuzz/tests/fuzz/fuzz_$target" ]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
        -DTOOLGOV_FUZZ=ON -DTOOLGOV_BUILD_EXAMPLES=OFF >/dev/null
  nice -n 19 cmake --build build-fuzz --target "fuzz_$target"
fi
mkdir -p "$work/corpus" "$work/artifacts"
dirs=("$work/corpus" "tests/fuzz/corpus/$target")
[ -d "tests/fuzz/regress/$target" ] && dirs+=("tests/fuzz/regress/$target")
flags=()
[ -f "tests/fuzz/$target.dict" ] && flags+=(-dict="tests/fuzz/$target.dict")
wall=$seconds
[ "${FUZZ_CPU:-0}" = 1 ] && wall=$((seconds * 100))
start=$(date +%s)
rc=0
nice -n "${FUZZ_NICE:-19}" "build-fuzz/tests/fuzz/fuzz_$target" -max_total_time="$wall" \
  -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$work/artifacts/" "${flags[@]}" "${dirs[@]}" \
  > "$work/log" 2>&1 &
pid=$!
tick=$(getconf CLK_TCK)
cpu=0
# The fuzzer's own CPU time, user + system (fields 14 and 15 of
# /proc/PID/stat; the command name in field 2 has no spaces here).
cpu_of() { awk -v t="$tick" '{ print int(($14 + $15) / t) }' "/proc/$1/stat" 2>/dev/null; }
if [ "${FUZZ_CPU:-0}" = 1 ]; then
  while kill -0 "$pid" 2>/dev/null; do
    cpu=$(cpu_of "$pid" || echo "$cpu")
    if [ "${cpu:-0}" -ge "$seconds" ]; then
      kill -INT "$pid" 2>/dev/null || true
      break
    fi
    sleep 5
  done
fi
wait "$pid" || rc=$?
# libFuzzer exits 72 when interrupted: here that is the CPU budget spent.
if [ "${FUZZ_CPU:-0}" = 1 ] && [ "$rc" = 72 ] && [ -z "$(ls "$work/artifacts")" ]; then
  rc=0
fi
end=$(date +%s)
if [ "${FUZZ_CPU:-0}" = 1 ]; then
  echo "fuzz_$target: $cpu s CPU, $((end - start)) s wall, exit $rc"
else
  echo "fuzz_$target: $((end - start)) s wall, exit $rc"
fi
grep -E '^#[0-9]+.*(DONE|pulse|NEW)' "$work/log" | tail -1 || true
grep -E '^stat::' "$work/log" || true
echo "corpus: $(ls "$work/corpus" | wc -l) inputs; artifacts: $(ls "$work/artifacts" | wc -l)"
exit $rc
