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

FORMATS = ["openai", "anthropic", "mcp", "json-schema", "openai-responses"]
# OpenAI's strict mode (--strict): the two OpenAI formats. The rules, from
# OpenAI's function calling guide ("strict mode") and structured outputs
# guide ("supported schemas"): every object lists all its properties in
# "required" and has "additionalProperties": false; an optional property
# takes null as well; keywords strict mode does not take are left out (and
# said in the description); string formats only those it names.
STRICT_FORMATS = ["openai", "openai-responses"]
UNSUPPORTED = {"minLength", "maxLength", "minProperties", "maxProperties", "patternProperties",
               "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contains",
               "minContains", "maxContains", "uniqueItems", "default", "examples", "$schema",
               "if", "then", "else", "not", "dependentRequired", "dependentSchemas",
               "contentEncoding", "contentMediaType"}
STRICT_STRING_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4",
                         "ipv6", "uuid"}
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


def strict_problems(s, orig, optional, path):
    """What in the strict schema s (of the declared schema orig) breaks
    strict mode's rules; optional: a property not in its object's required."""
    out = []
    if not isinstance(s, dict) or not isinstance(orig, dict):
        return [path + ": not a schema"] if s != orig else []
    if optional:
        t = s.get("type")
        if "anyOf" in s and "type" not in orig:
            if len(s["anyOf"]) != 2 or s["anyOf"][1] != {"type": "null"} or len(s) != 1:
                return [path + ": an optional property without a type is not anyOf [it, null]"]
            return strict_problems(s["anyOf"][0], orig, False, path)
        if not (isinstance(t, list) and "null" in t):
            out.append(path + ": optional but its type %r does not take null" % (t,))
        if "enum" in s and None not in s["enum"]:
            out.append(path + ": optional but its enum does not list null")
    moved = [k for k in orig if k in UNSUPPORTED or
             (k == "format" and orig[k] not in STRICT_STRING_FORMATS)]
    for k in s:
        if k in UNSUPPORTED:
            out.append("%s: keyword %s strict mode does not take" % (path, k))
        if k == "format" and s[k] not in STRICT_STRING_FORMATS:
            out.append("%s: format %r strict mode does not take" % (path, s[k]))
    for k in moved:
        if "%s: %s" % (k, json.dumps(orig[k], separators=(",", ":"))) not in s.get("description", ""):
            out.append("%s: %s is neither kept nor said in the description" % (path, k))
    for k in orig:
        if k not in moved and k not in ("type", "enum", "required", "description", "properties",
                                        "items", "additionalProperties", "anyOf", "oneOf",
                                        "allOf") and s.get(k) != orig[k]:
            out.append("%s: %s changed" % (path, k))
    if "enum" in orig and [v for v in s.get("enum", []) if v is not None or None in orig["enum"]] != orig["enum"]:
        out.append(path + ": enum changed")
    is_object = "properties" in s or s.get("type") == "object" or (
        isinstance(s.get("type"), list) and "object" in s["type"])
    if is_object:
        props = s.get("properties", {})
        if s.get("additionalProperties") is not False:
            out.append(path + ": additionalProperties is not false")
        if s.get("required") != list(props):
            out.append(path + ": required %r is not every property %r" % (s.get("required"), list(props)))
        if list(props) != list(orig.get("properties", {})):
            out.append(path + ": the properties changed")
        for name, sub in props.items():
            out += strict_problems(sub, orig.get("properties", {}).get(name), name not in orig.get("required", []),
                                   path + "." + name)
    if "items" in s:
        out += strict_problems(s["items"], orig.get("items"), False, path + "[]")
    for k in ("anyOf", "oneOf", "allOf"):
        if k in s and k in orig:
            for n, (a, b) in enumerate(zip(s[k], orig[k])):
                out += strict_problems(a, b, False, "%s.%s[%d]" % (path, k, n))
    return out


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
        combos = [(f, l, False) for f in FORMATS for l in ("pool", "own")]
        combos += [(f, l, True) for f in STRICT_FORMATS for l in ("pool", "own")]
        for fmt, loop, strict in combos:
            tools = [(n, t) for n, t in all_tools if t.get("loop", "pool") in LOOPS[loop]]
            # The default is --loop pool: its output has golden files.
            flags = ([] if loop == "pool" else ["--loop", loop]) + (["--strict"] if strict else [])
            p = run(a.gen, "export", "--manifest", manifest, "--format", fmt, *flags)
            label = "%s --format %s %s" % (rel, fmt, " ".join(flags))
            check(p.returncode == 0 and p.stderr == b"", label + ": exit %d, stderr %r" % (p.returncode, p.stderr))
            again = run(a.gen, "export", "--manifest", manifest, "--format", fmt, *flags)
            check(again.stdout == p.stdout, label + ": two runs differ")
            if loop == "pool":
                golden = os.path.join(golden_dir, "%s.%s%s.json" % (base, fmt, ".strict" if strict else ""))
                if a.update:
                    with open(golden, "wb") as f:
                        f.write(p.stdout)
                with open(golden, "rb") as f:
                    check(f.read() == p.stdout, label + ": differs from " + os.path.relpath(golden, src))
                explicit = run(a.gen, "export", "--manifest", manifest, "--format", fmt, "--loop", "pool",
                               *flags)
                check(explicit.stdout == p.stdout, label + ": --loop pool differs from the default")
            data = json.loads(p.stdout)
            names = [n for n, _ in tools]
            if fmt in STRICT_FORMATS:
                # Chat: {"type","function":{...}}; Responses: the function flat.
                fns = [e["function"] if fmt == "openai" else e for e in data]
                check([f["name"] for f in fns] == names, label + ": names")
                keys = {"name", "description", "parameters"}
                if strict or fmt == "openai-responses":
                    keys.add("strict")
                for (n, t), e, f in zip(tools, data, fns):
                    if fmt == "openai":
                        check(set(e) == {"type", "function"} and e["type"] == "function", label + ": entry keys")
                    else:
                        check(e["type"] == "function", label + ": entry type")
                        keys.add("type")
                    check(set(f) == keys, label + ": function keys %r" % sorted(f))
                    check(f["description"] == t["description"], label + ": description of " + n)
                    check(f["parameters"]["type"] == "object", label + ": parameters of " + n)
                    check(f.get("strict", strict) is strict, label + ": strict of " + n)
                    if strict:
                        problems = strict_problems(f["parameters"], t.get("parameters", NO_ARGS), False, n)
                        check(not problems, label + ": breaks strict mode: %s" % problems[:3])
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
        (["--manifest", m, "--format", "gemini"], 2,
         "unknown format 'gemini' (expected openai, openai-responses, anthropic, mcp or json-schema)"),
        (["--manifest", m, "--format", "anthropic", "--strict"], 2,
         "--strict is OpenAI's strict mode: it goes with --format openai or openai-responses, not 'anthropic'"),
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
