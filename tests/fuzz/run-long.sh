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
start=$(date +%s)
rc=0
nice -n "${FUZZ_NICE:-19}" "build-fuzz/tests/fuzz/fuzz_$target" -max_total_time="$seconds" \
  -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$work/artifacts/" "${flags[@]}" "${dirs[@]}" \
  > "$work/log" 2>&1 || rc=$?
end=$(date +%s)
echo "fuzz_$target: $((end - start)) s wall, exit $rc"
grep -E '^#[0-9]+.*(DONE|pulse|NEW)' "$work/log" | tail -1 || true
grep -E '^stat::' "$work/log" || true
echo "corpus: $(ls "$work/corpus" | wc -l) inputs; artifacts: $(ls "$work/artifacts" | wc -l)"
exit $rc
