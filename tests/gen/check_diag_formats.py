#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The machine forms of toolgov-gen's diagnostics, judged by real parsers.

For validate, generate and check, --diagnostics-format=sarif must write a
SARIF 2.1.0 log that the OASIS schema (tests/data/sarif/) accepts, with one
result per error at the right line and column and notes as related
locations; --diagnostics-format=json must write GCC's JSON shape. Text mode
with --caret=always shows the source line and a caret under the column, and
--color=always colours it while NO_COLOR and --color=never do not.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import jsonschema

BAD = ("name: cal\nprovides: [tool]\ntools:\n  x:\n    effect: wirte\n"
       "    description: d\n  x:\n    effect: read\n    description: again\n")
GOOD = ("name: demo\nprovides: [tool]\ntools:\n  alpha:\n    effect: read\n"
        "    description: A.\n  beta:\n    effect: read\n    description: B.\n")

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def run(argv, env=None):
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    if env:
        e.update(env)
    p = subprocess.run(argv, capture_output=True, text=True, env=e, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check_docs(gen, page, work):
    """Every ```console block of the page that starts with '$ toolgov-gen'
    is run in `work`, with the page's latest ```yaml block as manifest.yaml,
    and must print exactly the rest of the block (stdout, then stderr)."""
    os.makedirs(work, exist_ok=True)
    text = open(page).read()
    blocks, pos = [], 0
    while True:
        start = text.find("```", pos)
        if start < 0:
            break
        nl = text.index("\n", start)
        end = text.index("\n```\n", nl)
        blocks.append((text[start + 3:nl], text[nl + 1:end + 1]))
        pos = end + 5
    ran = 0
    for lang, body in blocks:
        if lang == "yaml":
            with open(os.path.join(work, "manifest.yaml"), "w") as f:
                f.write(body)
            continue
        if lang != "console" or not body.startswith("$ toolgov-gen "):
            continue
        first, _, want = body.partition("\n")
        words = first[2:].split()
        stdin = None
        if "<" in words:
            k = words.index("<")
            stdin = open(os.path.join(work, words[k + 1]))
            words = words[:k]
        p = subprocess.run([gen] + words[1:], cwd=work, stdin=stdin, capture_output=True,
                           text=True, timeout=60, env={k: v for k, v in os.environ.items()
                                                       if k != "NO_COLOR"})
        got = p.stdout + p.stderr
        check(got == want, "docs: '%s' printed\n%s\ninstead of\n%s" % (first, got, want))
        ran += 1
    check(ran >= 5, "docs: only %d examples ran" % ran)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--drift-data", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--docs", required=True)
    a = ap.parse_args()
    os.makedirs(a.work_dir, exist_ok=True)
    bad = os.path.join(a.work_dir, "bad.yaml")
    good = os.path.join(a.work_dir, "demo.yaml")
    with open(bad, "w") as f:
        f.write(BAD)
    with open(good, "w") as f:
        f.write(GOOD)
    with open(a.schema) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)

    def sarif_of(argv, want_rc):
        rc, out, err = run(argv)
        check(rc == want_rc, "%s: exit %d, wanted %d (%s)" % (argv[1], rc, want_rc, err))
        log = json.loads(out)
        errs = sorted(validator.iter_errors(log), key=lambda e: e.path)
        for e in errs:
            print(e, file=sys.stderr)
        check(not errs, "%s: the SARIF log does not match the 2.1.0 schema" % argv[1])
        return log, err

    # validate: two errors, the second with a note at the first declaration.
    log, err = sarif_of([a.gen, "validate", "--diagnostics-format=sarif", bad], 1)
    check(err == "", "validate: nothing on stderr in SARIF mode, got %r" % err)
    res = log["runs"][0]["results"]
    check(len(res) == 2, "validate: two results, got %d" % len(res))
    r0 = res[0]["locations"][0]["physicalLocation"]
    check(r0["region"] == {"startLine": 5, "startColumn": 13}, "validate: effect at 5:13")
    check(r0["artifactLocation"]["uri"].endswith("bad.yaml"), "validate: the file's URI")
    check("did you mean 'write'" in res[0]["message"]["text"], "validate: the message")
    rel = res[1].get("relatedLocations", [])
    check(len(rel) == 1 and rel[0]["physicalLocation"]["region"]["startLine"] == 4,
          "validate: the duplicate's note at line 4")
    check(log["runs"][0]["tool"]["driver"]["name"] == "toolgov-gen", "driver name")

    # generate: the same log shape, and nothing written on error.
    out_dir = os.path.join(a.work_dir, "out")
    shutil.rmtree(out_dir, ignore_errors=True)
    log, _ = sarif_of([a.gen, "generate", "--diagnostics-format=sarif", "--manifest", bad,
                       "--out-dir", out_dir], 1)
    check(len(log["runs"][0]["results"]) == 2, "generate: two results")
    check(not os.path.exists(out_dir), "generate: nothing written")
    log, _ = sarif_of([a.gen, "generate", "--diagnostics-format", "sarif", "--manifest", good,
                       "--out-dir", out_dir], 0)
    check(log["runs"][0]["results"] == [], "generate: a clean run has no results")

    # check: a handler defined without the macro, a declared tool without one.
    log, _ = sarif_of([a.gen, "check", "--diagnostics-format=sarif", "--manifest", good, "--",
                       "-I" + a.include, "-I" + a.drift_data,
                       os.path.join(a.drift_data, "plain_handler.c")], 1)
    res = log["runs"][0]["results"]
    check(len(res) >= 1, "check: at least one result")
    check(any(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
              .endswith("demo.yaml") for r in res), "check: an error at the manifest")
    check(log["runs"][0]["tool"]["driver"]["name"] == "toolgov-gen-check",
          "check: driver name")

    # Over --max-errors: the count of the errors left out is in the log.
    log, _ = sarif_of([a.gen, "--max-errors", "1", "validate", "--diagnostics-format=sarif",
                       bad], 1)
    check(len(log["runs"][0]["results"]) == 1, "sarif capped: one result")
    inv = log["runs"][0].get("invocations", [])
    check(len(inv) == 1 and inv[0]["executionSuccessful"] is False and
          inv[0]["toolExecutionNotifications"][0]["message"]["text"] ==
          "1 more error not shown (raise --max-errors to see them)",
          "sarif capped: the count of the rest, got %r" % inv)
    rc, out, _ = run([a.gen, "--max-errors", "1", "validate", "--diagnostics-format=json", bad])
    arr = json.loads(out)
    check(rc == 1 and len(arr) == 2 and arr[1] == {
        "kind": "note", "message": "1 more error not shown (raise --max-errors to see them)",
        "locations": [], "children": []}, "json capped: the count of the rest, got %r" % arr)

    # json: GCC's shape.
    rc, out, _ = run([a.gen, "validate", "--diagnostics-format=json", bad])
    arr = json.loads(out)
    check(rc == 1 and len(arr) == 2, "json: two diagnostics")
    check(arr[0]["kind"] == "error" and arr[0]["locations"][0]["caret"]["line"] == 5 and
          arr[0]["locations"][0]["caret"]["column"] == 13, "json: kind and caret")
    check(len(arr[1]["children"]) == 1 and arr[1]["children"][0]["kind"] == "note",
          "json: the note is a child")

    # text: caret, colour.
    rc, _, err = run([a.gen, "validate", "--caret=always", "--color=never", bad])
    lines = err.splitlines()
    check(lines[1:3] == ["    effect: wirte", "            ^"],
          "text: the source line and the caret, got %r" % lines[:3])
    rc, _, err = run([a.gen, "validate", "--color=always", bad])
    check("\x1b[1;31merror:" in err, "colour: --color=always colours")
    rc, _, err = run([a.gen, "validate", "--color=auto", bad], {"NO_COLOR": "1"})
    check("\x1b[" not in err, "colour: NO_COLOR (and no terminal) leaves it plain")
    rc, _, err = run([a.gen, "validate", "--color=sometimes", bad])
    check(rc == 2 and "--color wants auto, always or never" in err, "colour: a bad value")
    rc, _, err = run([a.gen, "validate", "--diagnostics-format=xml", bad])
    check(rc == 2, "format: a bad value is misuse")

    check_docs(a.gen, a.docs, os.path.join(a.work_dir, "docs"))

    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        return 1
    print("diagnostic formats: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
