#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ci-hardening.sh: the hardening stages of CI (docs/testing.md).
#
#   scripts/ci-hardening.sh [STAGE...]     default: every stage, in this order
#
#   deps      install what is missing (Debian packages, non-interactive)
#   build     plain build (gcc, -Werror, RelWithDebInfo) in build-hard/,
#             with compile_commands.json for clang-tidy
#   memcheck  every test whose program the project builds, under valgrind
#             memcheck with CK_FORK=no, following the toolgov-gen processes
#             the tests start: any error or definite leak fails
#   fuzz      each libFuzzer target for FUZZ_SECONDS (default 60), two at a
#             time, from the committed seeds, the examples and the YAML test
#             suite, and the grants reader for a smoke of GRANTS_FUZZ_SECONDS
#             (default 10); a crash fails and leaves its input under build-fuzz/
#   cppcheck  cppcheck over gen/ runtime/ examples/ mcp/ agent/
#   tidy      clang-tidy (.clang-tidy) over the same sources
#
# Environment: HARD_DIR (build-hard), FUZZ_DIR (build-fuzz), FUZZ_SECONDS,
# GRANTS_FUZZ_SECONDS, JOBS (nproc). Exit status 0 only when every stage asked for passed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
HARD_DIR=${HARD_DIR:-$ROOT/build-hard}
FUZZ_DIR=${FUZZ_DIR:-$ROOT/build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
GRANTS_FUZZ_SECONDS=${GRANTS_FUZZ_SECONDS:-10}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

PACKAGES=(gcc clang cmake ninja-build pkg-config libyaml-dev libsodium-dev libclang-14-dev check
          valgrind cppcheck clang-tidy libclang-rt-14-dev python3)

say() { printf '== hardening: %s ==\n' "$*"; }

stage_deps() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing missing packages: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
}

stage_build() {
  say "plain build in $HARD_DIR"
  cmake -S . -B "$HARD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DTOOLGOV_WERROR=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
  cmake --build "$HARD_DIR" -j "$JOBS"
}

# Runs each test of $HARD_DIR whose command is a program built there, under
# valgrind, with the test's own environment and working directory; JOBS at
# a time. Compiler and shell-script tests are left to the plain run.
stage_memcheck() {
  say "valgrind memcheck over the test suite"
  [ -f "$HARD_DIR/CTestTestfile.cmake" ] || stage_build
  local logdir="$HARD_DIR/memcheck"
  rm -rf "$logdir"
  mkdir -p "$logdir"
  ctest --test-dir "$HARD_DIR" --show-only=json-v1 > "$logdir/tests.json"
  python3 - "$HARD_DIR" "$logdir" "$JOBS" <<'EOF'
import json, os, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

build, logdir, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
build = os.path.realpath(build)
tests = json.load(open(os.path.join(logdir, "tests.json")))["tests"]
valgrind = ["valgrind", "--tool=memcheck", "--error-exitcode=97",
            "--leak-check=full", "--errors-for-leak-kinds=definite",
            "--show-leak-kinds=definite", "--track-origins=no",
            # Leave a malloc defined by a test program itself alone (the
            # allocation-failure tests define one that forwards to glibc's):
            # valgrind then tracks the glibc calls it forwards to.
            "--soname-synonyms=somalloc=nouserintercepts",
            # Not into the processes a test starts: the CLI suites start
            # toolgov-gen hundreds of times, a second of valgrind start-up
            # each. toolgov-gen itself is checked below on every manifest
            # of the examples and the fuzz seeds, and its core in-process by
            # the allocation-failure and fuzz-replay tests.
            "--trace-children=no", "--child-silent-after-fork=yes", "--quiet"]

def props(t):
    out = {}
    for p in t.get("properties", []):
        out[p["name"]] = p["value"]
    return out

jobs_list = []
for t in tests:
    cmd = t.get("command") or []
    if not cmd or not os.path.realpath(cmd[0]).startswith(build + "/"):
        print(f"memcheck: skip {t['name']} (runs {cmd[0] if cmd else 'nothing'})")
        continue
    p = props(t)
    env = dict(os.environ)
    for kv in p.get("ENVIRONMENT", []):
        k, _, v = kv.partition("=")
        env[k] = v
    env["CK_FORK"] = "no"
    env["CK_DEFAULT_TIMEOUT"] = "0"
    env["TOOLGOV_TEST_TIMEOUT"] = "600"
    jobs_list.append((t["name"], cmd, env, p.get("WORKING_DIRECTORY", build)))

def run(job):
    name, cmd, env, cwd = job
    log = os.path.join(logdir, name + ".log")
    start = time.time()
    with open(log, "w") as f:
        rc = subprocess.call(valgrind + ["--log-file=" + log + ".vg.%p"] + cmd,
                             env=env, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    reports = []
    for fn in sorted(os.listdir(logdir)):
        if fn.startswith(name + ".log.vg."):
            text = open(os.path.join(logdir, fn)).read()
            if text.strip():
                reports.append(text)
    return name, rc, time.time() - start, log, reports

# toolgov-gen generate on every example manifest and manifest seed.
gen = os.path.join(build, "gen", "toolgov-gen")
root = os.getcwd()
manifests = []
for base in ("examples/plugins", "tests/fuzz/corpus/manifest", "tests/fuzz/regress/manifest"):
    for d, _, files in os.walk(os.path.join(root, base)):
        manifests += [os.path.join(d, f) for f in sorted(files) if not f.startswith(".")]
# And a few hostile ones, made here (nothing big is committed).
hostile = os.path.join(logdir, "hostile")
os.makedirs(hostile, exist_ok=True)
base = ("name: hostile\nprovides: [tool]\ntools:\n  lookup:\n    effect: read\n"
        "    description: Find things.\n")
bomb = "name: bomb\nprovides: [tool]\nl0: &a0 [" + ", ".join(['"lol"'] * 10) + "]\n"
for lv in range(1, 10):
    bomb += f"l{lv}: &a{lv} [" + ", ".join([f"*a{lv - 1}"] * 10) + "]\n"
bomb += "tools:\n  t:\n    effect: read\n    description: *a9\n"
made = {
    "deep.yaml": base + "    guidance: " + "[" * 100000 + "]" * 100000 + "\n",
    "bomb.yaml": bomb,
    "errors.yaml": "name: errors\nprovides: [tool]\ntools:\n" + "".join(
        f"  tool_{i:05d}:\n    effect: raed\n    description: Tool.\n" for i in range(10000)),
    "many.yaml": "name: many\nprovides: [tool]\ntools:\n" + "".join(
        f"  tool_{i:05d}:\n    effect: {('read', 'write', 'destructive')[i % 3]}\n"
        f"    description: Tool number {i}.\n" for i in range(10000)),
    "huge_key.yaml": "name: x\nprovides: [tool]\ntools:\n  " + "k" * (1 << 20)
        + ":\n    effect: read\n    description: A.\n",
}
for name, text in made.items():
    with open(os.path.join(hostile, name), "w") as f:
        f.write(text)
with open(os.path.join(hostile, "bom_crlf.yaml"), "wb") as f:
    f.write(b"\xef\xbb\xbf" + base.replace("\n", "\r\n").encode())
with open(os.path.join(hostile, "control.yaml"), "wb") as f:
    f.write(base.encode()[:-3] + b"\x01x\n")
manifests += [os.path.join(hostile, n) for n in sorted(os.listdir(hostile))]
gen_jobs = []
if os.path.exists(gen):
    for i, m in enumerate(manifests):
        out = os.path.join(logdir, "gen-out-%d" % i)
        os.makedirs(out, exist_ok=True)
        gen_jobs.append(("toolgov-gen:" + os.path.basename(m),
                         [gen, "generate", "--manifest", m, "--out-dir", out],
                         dict(os.environ), logdir))

def run_gen(job):
    name, cmd, env, cwd = job
    safe = name.replace("/", "_").replace(":", "_")
    log = os.path.join(logdir, safe + ".log")
    start = time.time()
    with open(log, "w") as f:
        rc = subprocess.call(valgrind + ["--log-file=" + log + ".vg"] + cmd, env=env,
                             cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    vg = open(log + ".vg").read() if os.path.exists(log + ".vg") else ""
    reports = [vg] if vg.strip() else []
    # Exit 1 is a refused manifest, which is fine; 97 is valgrind's.
    return name, (0 if rc in (0, 1) else rc), time.time() - start, log, reports

failed = []
with ThreadPoolExecutor(max_workers=jobs) as ex:
    for name, rc, secs, log, reports in ex.map(run_gen, gen_jobs):
        ok = rc == 0 and not reports
        if not ok:
            print(f"memcheck: FAIL {name} (exit {rc})", flush=True)
            failed.append(name)
            for r in reports:
                sys.stdout.write(r[-8000:])
print(f"memcheck: toolgov-gen on {len(gen_jobs)} manifests, {len(failed)} failed", flush=True)
with ThreadPoolExecutor(max_workers=jobs) as ex:
    for name, rc, secs, log, reports in ex.map(run, jobs_list):
        ok = rc == 0 and not reports
        print(f"memcheck: {'ok  ' if ok else 'FAIL'} {name} ({secs:.1f} s, exit {rc})", flush=True)
        if not ok:
            failed.append(name)
            sys.stdout.write(open(log).read()[-4000:])
            for r in reports:
                sys.stdout.write(r[-8000:])
print(f"memcheck: {len(jobs_list) + len(gen_jobs) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
EOF
}

stage_fuzz() {
  say "fuzz smoke runs, ${FUZZ_SECONDS} s each"
  cmake -S . -B "$FUZZ_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
        -DTOOLGOV_FUZZ=ON -DTOOLGOV_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build "$FUZZ_DIR" -j "$JOBS" --target fuzz_manifest fuzz_state fuzz_override fuzz_args fuzz_mcp \
    fuzz_loop fuzz_grants fuzz_upstream
  local work="$FUZZ_DIR/fuzz-run" seeds="$ROOT/tests/fuzz/corpus" y
  rm -rf "$work"
  mkdir -p "$work/artifacts" "$work/yaml"
  for y in "$ROOT"/tests/data/yaml-test-suite/*/in.yaml; do
    cp "$y" "$work/yaml/$(basename "$(dirname "$y")").yaml"
  done
  cp "$ROOT"/examples/plugins/*/*.yaml "$work/yaml/" 2>/dev/null || true
  run_one() {
    local t=$1 secs=${2:-$FUZZ_SECONDS}
    local flags=() dirs=("$work/corpus-$t" "$seeds/$t")
    mkdir -p "$work/corpus-$t"
    [ -d "$ROOT/tests/fuzz/regress/$t" ] && dirs+=("$ROOT/tests/fuzz/regress/$t")
    [ -f "$ROOT/tests/fuzz/$t.dict" ] && flags+=(-dict="$ROOT/tests/fuzz/$t.dict")
    [ "$t" = manifest ] && dirs+=("$work/yaml")
    # The first directory is the working corpus (new inputs go there); the
    # committed seeds and regression inputs are only read.
    if "$FUZZ_DIR/tests/fuzz/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 \
         -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/$t-" \
         "${flags[@]}" "${dirs[@]}" > "$work/$t.log" 2>&1; then
      echo "fuzz: $t: $(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/$t.log" |
                        grep -o '[0-9]*$') executions in ${secs} s, no crash"
    else
      echo "fuzz: $t: FAILED; the input is in $work/artifacts/"
      tail -60 "$work/$t.log"
      return 1
    fi
  }
  local rc=0 pids=() name
  for name in manifest state; do
    run_one "$name" & pids+=($!)
  done
  for name in "${pids[@]}"; do wait "$name" || rc=1; done
  pids=()
  for name in args override; do
    run_one "$name" & pids+=($!)
  done
  for name in "${pids[@]}"; do wait "$name" || rc=1; done
  pids=()
  run_one mcp || rc=1
  # The loop's response readers: a smoke run of seconds (run-long.sh for hours).
  run_one loop "${LOOP_FUZZ_SECONDS:-15}" || rc=1
  # The grants reader: a smoke run (scripts/fuzz-grants-long.sh runs it long).
  run_one grants "$GRANTS_FUZZ_SECONDS" || rc=1
  # toolgov-mcp's reader of upstream servers: seconds here (run-long.sh for hours).
  run_one upstream "${UPSTREAM_FUZZ_SECONDS:-15}" || rc=1
  return $rc
}

stage_cppcheck() {
  say "cppcheck"
  cppcheck -q --std=c11 --enable=warning,portability,performance \
    --inline-suppr --error-exitcode=1 -j "$JOBS" \
    --suppressions-list="$ROOT/scripts/cppcheck-suppressions.txt" \
    -I runtime/include -I runtime/src -I gen -I examples/common \
    --library=posix gen runtime examples mcp agent
  echo "cppcheck: clean"
}

# clang-tidy over every C file of gen/, runtime/, examples/, mcp/ and agent/. A finding
# fails the stage unless scripts/clang-tidy-known.txt lists its file and
# check: analyzer paths that were read and found impossible, each with its
# reason, kept out of the code so that its owners' files stay as they are.
stage_tidy() {
  say "clang-tidy"
  [ -f "$HARD_DIR/compile_commands.json" ] || stage_build
  local tidy=run-clang-tidy-14
  command -v "$tidy" >/dev/null || tidy=run-clang-tidy
  "$tidy" -p "$HARD_DIR" -j "$JOBS" -quiet \
    "$ROOT/(gen|runtime|examples|mcp|agent)/.*\\.c\$" > "$HARD_DIR/clang-tidy.log" 2>&1 || true
  python3 - "$ROOT" "$HARD_DIR/clang-tidy.log" "$ROOT/scripts/clang-tidy-known.txt" \
    "$HARD_DIR/compile_commands.json" <<'PY'
import json, os, re, sys
root, log, known_file, db = sys.argv[1:5]
files = {e["file"] for e in json.load(open(db))
         if re.match(re.escape(root) + r"/(gen|runtime|examples|mcp|agent)/.*\.c$", e["file"])}
if not files:
    sys.exit("clang-tidy: no source of gen/, runtime/ or examples/ in " + db)
known = set()
for line in open(known_file):
    fields = line.split("#", 1)[0].split()
    if len(fields) >= 2:
        known.add((fields[0], fields[1]))
text = re.sub(r"\x1b\[[0-9;]*m", "", open(log, errors="replace").read())
pat = re.compile(r"^(/[^:\s]+):(\d+):(\d+): (?:warning|error): (.*?) \[([^\],]+)")
new, accepted, used = set(), 0, set()
for line in text.splitlines():
    m = pat.match(line)
    if not m:
        continue
    rel = os.path.relpath(m.group(1), root)
    if (rel, m.group(5)) in known:
        accepted += 1
        used.add((rel, m.group(5)))
        continue
    new.add(f"{rel}:{m.group(2)}:{m.group(3)}: {m.group(4)} [{m.group(5)}]")
for n in sorted(new):
    print(n)
for f, c in sorted(known - used):
    print(f"clang-tidy: note: {f} {c} is listed as known but no longer reported; "
          "remove it from scripts/clang-tidy-known.txt")
print(f"clang-tidy: {len(files)} files, {len(new)} findings, {accepted} known false "
      "positives (scripts/clang-tidy-known.txt)")
sys.exit(1 if new else 0)
PY
}

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(deps build memcheck fuzz cppcheck tidy)
failed=()
for s in "${stages[@]}"; do
  start=$SECONDS
  # A subshell outside any condition, so that `set -e` holds inside it.
  set +e
  (set -e; "stage_$s")
  rc=$?
  set -e
  [ $rc -eq 0 ] || failed+=("$s")
  say "$s took $((SECONDS - start)) s"
done
if [ ${#failed[@]} -gt 0 ]; then
  say "FAILED: ${failed[*]}"
  exit 1
fi
say "passed"
