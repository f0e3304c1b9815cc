#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""toolgov-gen export: golden files, determinism, the shapes, and the MCP
output validated against MCP's published schema (ListToolsResult of
revision 2025-11-25, python3-jsonschema).

  check_export.py --gen TOOLGOV_GEN --source-dir DIR --work-dir DIR [--update]

--update rewrites the golden files from the current output (review the diff).
Prints one line per failure and "N passed, N failed".
"""
import argparse
import json
import os
import subprocess
import sys

import jsonschema
import yaml

FORMATS = ["openai", "anthropic", "mcp", "json-schema"]
# The manifests with golden exports: SPEC's example, the byte-escaping
# stress test, no tools, one with every effect and flag, and one with tools
# of the plugin's own loop (exported only with --loop own).
MANIFESTS = ["tests/gen/manifests/calendar.yaml", "tests/gen/manifests/strings.yaml",
             "tests/gen/manifests/empty.yaml", "tests/export/manifests/notes.yaml",
             "tests/gen/manifests/ownloop.yaml"]
# Which tools each --loop exports, by the manifest's loop: key.
LOOPS = {"pool": ("pool", "both"), "own": ("own", "both")}
NO_ARGS = {"type": "object", "properties": {}, "additionalProperties": False}
ANNOTATIONS = {
    "read": {"readOnlyHint": True},
    "write": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False},
    "destructive": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False},
}

failures = []
passed = 0


def check(ok, what):
    global passed
    if ok:
        passed += 1
    else:
        failures.append(what)
        print("FAIL " + what)


def run(gen, *args):
    return subprocess.run([gen, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gen", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    src = a.source_dir
    golden_dir = os.path.join(src, "tests/export/golden")
    os.makedirs(a.work_dir, exist_ok=True)

    with open(os.path.join(src, "tests/data/mcp-schema/schema-2025-11-25.json"), encoding="utf-8") as f:
        mcp = json.load(f)
    list_tools = jsonschema.Draft202012Validator(
        {"$schema": mcp["$schema"], "$defs": mcp["$defs"], "$ref": "#/$defs/ListToolsResult"})
    tool_def = jsonschema.Draft202012Validator(
        {"$schema": mcp["$schema"], "$defs": mcp["$defs"], "$ref": "#/$defs/Tool"})

    for rel in MANIFESTS:
        manifest = os.path.join(src, rel)
        base = os.path.splitext(os.path.basename(rel))[0]
        with open(manifest, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        all_tools = list((doc.get("tools") or {}).items())
        for fmt, loop in [(f, l) for f in FORMATS for l in ("pool", "own")]:
            tools = [(n, t) for n, t in all_tools if t.get("loop", "pool") in LOOPS[loop]]
            # The default is --loop pool: its output has golden files.
            flags = [] if loop == "pool" else ["--loop", loop]
            p = run(a.gen, "export", "--manifest", manifest, "--format", fmt, *flags)
            label = "%s --format %s %s" % (rel, fmt, " ".join(flags))
            check(p.returncode == 0 and p.stderr == b"", label + ": exit %d, stderr %r" % (p.returncode, p.stderr))
            again = run(a.gen, "export", "--manifest", manifest, "--format", fmt, *flags)
            check(again.stdout == p.stdout, label + ": two runs differ")
            if loop == "pool":
                golden = os.path.join(golden_dir, "%s.%s.json" % (base, fmt))
                if a.update:
                    with open(golden, "wb") as f:
                        f.write(p.stdout)
                with open(golden, "rb") as f:
                    check(f.read() == p.stdout, label + ": differs from " + os.path.relpath(golden, src))
                explicit = run(a.gen, "export", "--manifest", manifest, "--format", fmt, "--loop", "pool")
                check(explicit.stdout == p.stdout, label + ": --loop pool differs from the default")
            data = json.loads(p.stdout)
            names = [n for n, _ in tools]
            if fmt == "openai":
                check([t["function"]["name"] for t in data] == names, label + ": names")
                for (n, t), e in zip(tools, data):
                    check(set(e) == {"type", "function"} and e["type"] == "function", label + ": entry keys")
                    check(set(e["function"]) == {"name", "description", "parameters"}, label + ": function keys")
                    check(e["function"]["description"] == t["description"], label + ": description of " + n)
                    check(e["function"]["parameters"]["type"] == "object", label + ": parameters of " + n)
            elif fmt == "anthropic":
                check([t["name"] for t in data] == names, label + ": names")
                for (n, t), e in zip(tools, data):
                    check(set(e) == {"name", "description", "input_schema"}, label + ": keys")
                    check(e["description"] == t["description"], label + ": description of " + n)
                    check(e["input_schema"]["type"] == "object", label + ": input_schema of " + n)
            elif fmt == "mcp":
                errs = [e.message for e in list_tools.iter_errors(data)]
                check(not errs, label + ": not a valid ListToolsResult: %s" % errs[:3])
                check([t["name"] for t in data["tools"]] == names, label + ": names")
                for (n, t), e in zip(tools, data["tools"]):
                    check(not list(tool_def.iter_errors(e)), label + ": not a valid Tool: " + n)
                    check(e["annotations"] == ANNOTATIONS[t["effect"]], label + ": annotations of " + n)
                    check(e["description"] == t["description"], label + ": description of " + n)
            else:
                check(list(data) == names, label + ": names")
                for (n, t), (_, s) in zip(tools, data.items()):
                    jsonschema.Draft202012Validator.check_schema(s)
                    # The declared parameters, as written (no-arguments schema
                    # for a tool without them).
                    check(s == t.get("parameters", NO_ARGS), label + ": schema of " + n)

    # The command line.
    m = os.path.join(src, MANIFESTS[0])
    out = os.path.join(a.work_dir, "calendar.mcp.json")
    if os.path.exists(out):
        os.remove(out)
    p = run(a.gen, "export", "--manifest", m, "--format", "mcp", "--out", out)
    check(p.returncode == 0 and p.stdout == b"", "--out: exit %d, stdout %r" % (p.returncode, p.stdout))
    with open(out, "rb") as f, open(os.path.join(golden_dir, "calendar.mcp.json"), "rb") as g:
        check(f.read() == g.read(), "--out: the file differs from the golden")
    check(sorted(os.listdir(a.work_dir)) == ["calendar.mcp.json"], "--out: a temporary file was left")
    for args, code, words in [
        (["--manifest", m], 2, "export needs --format"),
        (["--format", "mcp"], 2, "export needs --manifest FILE"),
        (["--manifest", m, "--format", "gemini"], 2, "unknown format 'gemini' (expected openai, anthropic, mcp or json-schema)"),
        (["--manifest", m, "--format"], 2, "--format needs an argument"),
        (["--manifest", m, "--format", "mcp", "--bogus"], 2, "unknown argument '--bogus'"),
        (["--manifest", m, "--format", "mcp", "--loop", "both"], 2,
         "unknown loop 'both' (expected pool, the host's tools, or own, the plugin's own loop's)"),
        (["--manifest", os.path.join(src, "tests/export/missing.yaml"), "--format", "mcp"], 1, "missing.yaml"),
        (["--manifest", m, "--format", "mcp", "--out", "/nonexistent/dir/x.json"], 1,
         "/nonexistent/dir/x.json: error: "),
    ]:
        p = run(a.gen, "export", *args)
        err = p.stderr.decode("utf-8", "replace")
        check(p.returncode == code and words in err and p.stdout == b"",
              "export %s: exit %d, stderr %r" % (" ".join(args), p.returncode, err))
    bad = os.path.join(a.work_dir, "bad.yaml")
    with open(bad, "w") as f:
        f.write("name: cal\nprovides: [tool]\ntools:\n  t:\n    effect: wirte\n    description: x\n")
    p = run(a.gen, "export", "--manifest", bad, "--format", "openai")
    check(p.returncode == 1 and p.stdout == b"" and b"bad.yaml:5:13: error: unknown effect 'wirte'" in p.stderr,
          "a bad manifest: exit %d, stderr %r" % (p.returncode, p.stderr))
    os.remove(bad)

    # docs/function-calling.md's MCP example: the manifest it names is the
    # one the golden comes from, and its tools are the golden's first ones.
    doc_path = os.path.join(src, "docs", "function-calling.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    at = doc.find("exported for MCP")
    if at < 0:
        at = doc.find("exported\nfor MCP")
    check(at >= 0, "docs/function-calling.md: no MCP export example")
    if at >= 0:
        intro = doc[doc.rfind("\n\n", 0, at):at]
        named = [m for m in MANIFESTS if "`" + m + "`" in intro]
        check(named == [MANIFESTS[0]] and "calendar.mcp.json" in doc[at:at + 300],
              "docs/function-calling.md: the MCP example names %r, the golden is of %s"
              % (named, MANIFESTS[0]))
        start = doc.index("```json\n", at) + len("```json\n")
        shown = json.loads(doc[start:doc.index("```", start)])["tools"]
        with open(os.path.join(golden_dir, "calendar.mcp.json"), encoding="utf-8") as g:
            golden = json.load(g)["tools"]
        check(shown == golden[:len(shown)] and shown,
              "docs/function-calling.md: the MCP example is not the golden export's first tools")

    # toolgov.h states the no-arguments schema a spec carries: the same
    # text the exports write.
    import re
    with open(os.path.join(src, "runtime/include/toolgov/toolgov.h"), encoding="utf-8") as f:
        header = f.read()
    m = re.search(r"no-arguments schema\s*(?:\*\*\s*)?(\{[^\n]*?\})(?= when)", header)
    check(m is not None and json.loads(m.group(1)) == NO_ARGS,
          "toolgov.h: the no-arguments schema it states is %r, the exports write %s"
          % (m.group(1) if m else None, json.dumps(NO_ARGS)))

    print("%d passed, %d failed" % (passed, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
