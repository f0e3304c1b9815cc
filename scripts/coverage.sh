#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# coverage.sh: line coverage of the test suite, per directory, with plain gcov.
#
#   scripts/coverage.sh [ctest args...]
#
# Configures build-cov/ (COV_DIR) with -DTOOLGOV_COVERAGE=ON (gcc, -O0),
# builds, runs ctest, then runs gcov over every object file of the project's
# own sources and prints, per directory and per file, the lines executed out
# of the executable lines. A line counts as covered when any object that
# compiles it ran it (a source built into several targets is merged line by
# line). Generated files and the tests themselves are left out. The per-file
# table, with the line numbers no test ran, also goes to build-cov/coverage.txt. Needs gcc's gcov and
# python3 only; no gcovr, no lcov.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
COV_DIR=${COV_DIR:-$ROOT/build-cov}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# COV_REPORT_ONLY=1: summarise the counts of the last run, without building.
if [ "${COV_REPORT_ONLY:-0}" != 1 ]; then
cmake -S . -B "$COV_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=gcc \
      -DCMAKE_CXX_COMPILER=g++ -DTOOLGOV_COVERAGE=ON >/dev/null
cmake --build "$COV_DIR" -j "$JOBS"
find "$COV_DIR" -name '*.gcda' -delete
ctest --test-dir "$COV_DIR" -j "$JOBS" --output-on-failure "$@" || {
  echo "coverage: some tests failed; the numbers below count what ran" >&2
}
fi

rm -rf "$COV_DIR/gcov"
mkdir -p "$COV_DIR/gcov"
python3 - "$ROOT" "$COV_DIR" <<'EOF'
import os, subprocess, sys
from collections import defaultdict

root, cov = sys.argv[1], sys.argv[2]
out_dir = os.path.join(cov, "gcov")
areas = ("gen/", "runtime/", "examples/")
lines = defaultdict(dict)  # source -> {line: executed?}

gcdas = []
for d, _, files in os.walk(cov):
    gcdas += [os.path.join(d, f) for f in files if f.endswith(".gcda")]

for gcda in gcdas:
    # One gcov run per object, in a scratch directory, text to stdout.
    res = subprocess.run(["gcov", "-t", "-o", os.path.dirname(gcda), gcda],
                         cwd=out_dir, capture_output=True, text=True, errors="replace")
    src = None
    for raw in res.stdout.splitlines():
        parts = raw.split(":", 2)
        if len(parts) < 3:
            continue
        count, num = parts[0].strip(), parts[1].strip()
        if num == "0":
            if parts[2].startswith("Source:"):
                path = os.path.realpath(os.path.join(cov, parts[2][len("Source:"):]))
                rel = os.path.relpath(path, root)
                src = rel if rel.startswith(areas) and "/tests/" not in path else None
            continue
        if src is None or count == "-" or not num.isdigit():
            continue
        n = int(num)
        hit = count not in ("#####", "=====")
        lines[src][n] = lines[src].get(n, False) or hit

per_dir = defaultdict(lambda: [0, 0])
rows = []
for src in sorted(lines):
    total = len(lines[src])
    done = sum(1 for v in lines[src].values() if v)
    rows.append((src, done, total))
    top = src.split("/")[0]
    if src.startswith("runtime/"):
        top = "runtime"
    elif src.startswith("examples/"):
        top = "/".join(src.split("/")[:2])
    for key in {top, src.split("/")[0]}:
        per_dir[key][0] += done
        per_dir[key][1] += total

def pct(a, b):
    return 100.0 * a / b if b else 0.0

def ranges(nums):
    out, start, prev = [], None, None
    for n in nums:
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = n
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ",".join(out)

with open(os.path.join(cov, "coverage.txt"), "w") as f:
    for src, done, total in rows:
        missed = sorted(n for n, hit in lines[src].items() if not hit)
        f.write(f"{pct(done, total):6.1f}%  {done:5d}/{total:<5d}  {src}"
                f"{'  not run: ' + ranges(missed) if missed else ''}\n")
print("line coverage by directory (executed/executable lines):")
for key in sorted(per_dir):
    done, total = per_dir[key]
    print(f"  {key:28s} {pct(done, total):6.1f}%  {done}/{total}")
print("per file:")
for src, done, total in rows:
    print(f"  {pct(done, total):6.1f}%  {done:5d}/{total:<5d}  {src}")
EOF
