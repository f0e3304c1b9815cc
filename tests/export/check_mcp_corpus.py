#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The tool schemas of published MCP servers (tests/data/mcp-servers/)
through toolgov-gen and the runtime's decoder.

  check_mcp_corpus.py --gen TOOLGOV_GEN --source-dir DIR --work-dir DIR
                      --runtime-lib LIBTOOLGOV [--cc CC]... [--link-flags FLAGS]
                      [--update]

For every tool of every server a one-tool manifest (plugin named after the
server, effect read, the tool's description, its inputSchema pasted as
`parameters:` in JSON flow syntax) goes through `toolgov-gen validate`; its
outcome (`accepted`, or the first error line) must be the one recorded in
tests/export/mcp_corpus_expected.txt. Then per server, a manifest of its
accepted tools must validate, generate C that compiles (-Wall -Wextra
-Wpedantic -Werror, with handler stubs from `toolgov-gen stubs`), export to
MCP with each inputSchema equal to the original as a JSON value, and, linked
into a small driver (mcp_corpus_decode.c) with the runtime, decode a valid
call of each tool (its canonical text equal to the call with defaults filled
in) and refuse a call with a wrongly typed property with TOOLGOV_EARGS at
that property's path.

--update rewrites the expected outcomes from the current output (review the
diff). Prints one line per failure and "N passed, N failed".
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_export  # noqa: E402  (its pass/fail count)

DESCRIPTION_MAX = 1024  # bytes (docs/manifest.md)


def check(ok, what):
    check_export.check(ok, what)
    return ok


def run(cmd, cwd=None, stdin=None):
    return subprocess.run(cmd, cwd=cwd, input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=False)


def ident(name):
    """A server or tool name as a manifest identifier: lower case, every
    other byte '_', runs of '_' as one, no '_' at either end."""
    s = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    return s if s and s[0].isalpha() else "t_" + s


# Characters YAML takes for line breaks or refuses raw inside a quoted
# scalar: written as JSON escapes (all in the BMP, so no surrogate pairs).
_YAML_ODD = re.compile("[\u0085\u2028\u2029\ufeff\u007f-\u009f]")


def flow(value):
    """value as JSON text that YAML reads back as the same value: non-ASCII
    written as itself (a \\u escape of an astral character would be a
    surrogate pair, which YAML refuses), except YAML's own line breaks."""
    text = json.dumps(value, ensure_ascii=False)
    return _YAML_ODD.sub(lambda m: "\\u%04x" % ord(m.group(0)), text)


def cut(text, limit):
    """The longest prefix of text of at most limit UTF-8 bytes."""
    b = text.encode("utf-8")
    if len(b) <= limit:
        return text
    return b[:limit].decode("utf-8", errors="ignore")


def manifest(plugin, tools):
    """A manifest of (name, description, schema) tools."""
    lines = ["name: " + plugin, "provides: [tool]", "tools:"]
    for name, desc, schema in tools:
        lines.append("  %s:" % name)
        lines.append("    effect: read")
        lines.append("    description: " + flow(desc))
        lines.append("    parameters: " + flow(schema))
    return "\n".join(lines) + "\n"


def tool_description(tool):
    d = tool.get("description") or tool["name"]
    return cut(d, DESCRIPTION_MAX)


# ---- example calls ------------------------------------------------------

def types_of(s):
    t = s.get("type")
    if isinstance(t, list):
        return t
    return [t] if t else []


def is_raw(s):
    t = s.get("type")
    return isinstance(t, list) or t in (None, "null") or "anyOf" in s or "oneOf" in s


def example(s, full):
    """A value valid against schema s: required members only, or every
    declared member (full)."""
    if "default" in s:
        return s["default"]
    if "enum" in s:
        return s["enum"][0]
    if "examples" in s and s["examples"]:
        return s["examples"][0]
    for alt in ("anyOf", "oneOf"):
        if alt in s:
            # A oneOf value must match one branch only: the first branch
            # whose example no other branch takes.
            for i, b in enumerate(s[alt]):
                v = example(b, full)
                if alt == "anyOf" or not any(j != i and matches(o, v) for j, o in enumerate(s[alt])):
                    return v
            return example(s[alt][0], full)
    ts = types_of(s)
    t = next((x for x in ts if x != "null"), ts[0] if ts else None)
    if t == "object" or (t is None and "properties" in s):
        req = set(s.get("required", []))
        return {k: example(v, full) for k, v in s.get("properties", {}).items()
                if full or k in req}
    if t == "array":
        if "items" not in s:
            return [1] * s.get("minItems", 0)
        n = max(s.get("minItems", 0), 1 if full else 0)
        if "maxItems" in s:
            n = min(n, s["maxItems"])
        return [example(s["items"], full) for _ in range(n)]
    if t == "string":
        f = s.get("format")
        v = {"date": "2026-03-12", "time": "09:30", "date-time": "2026-03-12T09:30:00Z",
             "email": "a@example.com", "uri": "https://example.com/a"}.get(f, "x")
        v = v * max(1, -(-s.get("minLength", 0) // len(v)))
        return v[:s["maxLength"]] if "maxLength" in s else v
    if t in ("integer", "number"):
        lo = s.get("minimum", s.get("exclusiveMinimum", None))
        if lo is None:
            hi = s.get("maximum", s.get("exclusiveMaximum", None))
            return 1 if hi is None or hi > 1 else int(hi) - 1
        return int(lo) + 1 if "exclusiveMinimum" in s and "minimum" not in s else (
            lo if t == "number" else int(lo) if int(lo) >= lo else int(lo) + 1)
    if t == "boolean":
        return True
    if t == "null":
        return None
    return "x"  # no type: any value


def matches(s, v):
    """A rough check of v against s, enough to tell oneOf branches apart."""
    if "enum" in s:
        return v in s["enum"]
    ts = types_of(s)
    if not ts:
        return True
    kinds = {"object": dict, "array": list, "string": str, "boolean": bool}
    for t in ts:
        if t == "null" and v is None:
            return True
        if t in ("integer", "number") and isinstance(v, (int, float)) and not isinstance(v, bool):
            if t == "number" or float(v).is_integer():
                return True
        if t in kinds and isinstance(v, kinds[t]):
            if t == "object":
                return all(k in v for k in s.get("required", []))
            return True
    return False


def with_defaults(s, v):
    """What the decoder's canonical text reads as: v with the defaults of
    typed (not raw) objects filled in."""
    if is_raw(s) or not isinstance(v, (dict, list)):
        return v
    if isinstance(v, dict):
        out = dict(v)
        for k, ps in s.get("properties", {}).items():
            if k in out:
                out[k] = with_defaults(ps, out[k])
            elif "default" in ps:
                out[k] = ps["default"]
        return out
    return [with_defaults(s.get("items", {}), x) for x in v]


def wrong(s):
    """A value of the wrong type for typed schema s."""
    return 12345 if types_of(s) != ["integer"] and types_of(s) != ["number"] else "not a number"


def bad_call(schema, full):
    """A call with one typed property of the wrong type, and that
    property's JSON path (Pointer); or None."""
    props = schema.get("properties", {})
    req = schema.get("required", [])
    order = [k for k in req if k in props] + [k for k in props if k not in req]
    for k in order:
        if not is_raw(props[k]):
            call = dict(full)
            call[k] = wrong(props[k])
            return call, "/" + k.replace("~", "~0").replace("/", "~1")
    return None


# ---- the checks ---------------------------------------------------------

def load_expected(path):
    exp = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                key, _, outcome = line.partition(": ")
                exp[key] = outcome
    return exp


def first_error(stderr):
    for line in stderr.decode("utf-8", "replace").splitlines():
        if ": error: " in line:
            return line
    return stderr.decode("utf-8", "replace").strip() or "(no message)"


def check_server(a, server, tools, exp, got, work):
    plugin = ident(server)
    sdir = os.path.join(work, plugin)
    os.makedirs(sdir, exist_ok=True)
    accepted = []
    for tool in tools:
        name = ident(tool["name"])
        key = "%s/%s" % (server, tool["name"])
        schema = tool["inputSchema"]
        text = manifest(plugin, [(name, tool_description(tool), schema)])
        mpath = os.path.join(sdir, name + ".yaml")
        with open(mpath, "w", encoding="utf-8") as f:
            f.write(text)
        r = run([a.gen, "validate", name + ".yaml"], cwd=sdir)
        outcome = "accepted" if r.returncode == 0 else first_error(r.stderr)
        got[key] = outcome
        if not a.update:
            check(exp.get(key) == outcome,
                  "%s: expected %s, got %s" % (key, exp.get(key, "(not recorded)"), outcome))
        if outcome == "accepted":
            accepted.append((name, tool))
    # The tools of a description longer than the manifest allows were
    # checked cut; the whole description is refused at its line, with the
    # limit named.
    for tool in tools:
        d = tool.get("description") or ""
        if len(d.encode("utf-8")) > DESCRIPTION_MAX:
            name = ident(tool["name"])
            mpath = os.path.join(sdir, name + "_long.yaml")
            with open(mpath, "w", encoding="utf-8") as f:
                f.write(manifest(plugin, [(name, d, tool["inputSchema"])]))
            r = run([a.gen, "validate", os.path.basename(mpath)], cwd=sdir)
            err = first_error(r.stderr)
            check(r.returncode == 1 and err.startswith(os.path.basename(mpath) + ":6:18: error: ")
                  and "1024" in err,
                  "%s/%s: a %d-byte description: %s" % (server, tool["name"], len(d.encode()), err))
    if accepted:
        check_accepted(a, server, plugin, accepted, sdir)


def check_accepted(a, server, plugin, accepted, sdir):
    mpath = os.path.join(sdir, plugin + ".yaml")
    with open(mpath, "w", encoding="utf-8") as f:
        f.write(manifest(plugin, [(n, tool_description(t), t["inputSchema"]) for n, t in accepted]))
    r = run([a.gen, "validate", mpath])
    if not check(r.returncode == 0, "%s: the accepted tools together: %s" % (server, first_error(r.stderr))):
        return
    r = run([a.gen, "generate", "--manifest", mpath, "--out-dir", sdir])
    if not check(r.returncode == 0, "%s: generate: %s" % (server, first_error(r.stderr))):
        return
    # Export: every inputSchema equal to the original, as a JSON value.
    r = run([a.gen, "export", "--manifest", mpath, "--format", "mcp"])
    if check(r.returncode == 0, "%s: export: %s" % (server, first_error(r.stderr))):
        out = json.loads(r.stdout)
        names = [t["name"] for t in out["tools"]]
        check(names == [n for n, _ in accepted], "%s: exported names %s" % (server, names))
        for (n, t), e in zip(accepted, out["tools"]):
            check(e["inputSchema"] == t["inputSchema"],
                  "%s/%s: exported inputSchema differs:\n  %s\n  %s" % (
                      server, t["name"], json.dumps(t["inputSchema"], sort_keys=True),
                      json.dumps(e["inputSchema"], sort_keys=True)))
    # Compile the generated C with handler stubs and the decode driver.
    r = run([a.gen, "stubs", "--manifest", mpath])
    if not check(r.returncode == 0, "%s: stubs: %s" % (server, first_error(r.stderr))):
        return
    stubs = os.path.join(sdir, plugin + "_handlers.c")
    with open(stubs, "wb") as f:
        f.write(b'#include "' + plugin.encode() + b'.toolgov.h"\n' + r.stdout)
    exe = os.path.join(sdir, plugin + "_decode")
    flags = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
             "-I" + os.path.join(a.source_dir, "runtime/include"), "-I" + sdir,
             '-DPLUGIN_HEADER="%s.toolgov.h"' % plugin, "-DPLUGIN=%s_toolgov_plugin" % plugin,
             os.path.join(sdir, plugin + ".toolgov.c"), stubs,
             os.path.join(a.source_dir, "tests/export/mcp_corpus_decode.c")]
    lib_dir = os.path.dirname(os.path.abspath(a.runtime_lib))
    for k, cc in enumerate(a.cc):
        cmd = [cc] + flags + (a.link_flags.split() +
                              ["-o", exe, a.runtime_lib, "-Wl,-rpath," + lib_dir, "-lsodium"]
                              if k == 0 else ["-fsyntax-only"])
        r = run(cmd)
        if not check(r.returncode == 0, "%s: %s: %s" % (server, os.path.basename(cc),
                                                         r.stderr.decode()[:2000])):
            return
    # Calls: per tool a minimal and a full valid call, and a bad one.
    lines, want = [], []
    for i, (n, t) in enumerate(accepted):
        s = t["inputSchema"]
        minimal, full = example(s, False), example(s, True)
        for call in (minimal, full):
            lines.append("%d\t%s" % (i, json.dumps(call)))
            want.append((t["name"], "ok", with_defaults(s, call)))
        bad = bad_call(s, full)
        if bad:
            lines.append("%d\t%s" % (i, json.dumps(bad[0])))
            want.append((t["name"], "eargs", bad[1]))
    r = run([exe], stdin=("\n".join(lines) + "\n").encode())
    if not check(r.returncode == 0, "%s: decode driver: %s" % (server, r.stderr.decode()[:500])):
        return
    got = r.stdout.decode("utf-8").split("\n")
    for k, (tool, what, w) in enumerate(want):
        rc, _, text = got[k].partition("\t") if k < len(got) else ("", "", "(no output)")
        if what == "ok":
            ok = rc == "0"
            if ok:
                try:
                    ok = json.loads(text) == w
                except ValueError:
                    ok = False
            check(ok, "%s/%s: valid call %s: %s %s" % (server, tool, lines[k].split("\t", 1)[1], rc, text))
        else:
            check(rc == "EARGS" and (w + " ") in text,
                  "%s/%s: bad call %s: %s %s (wanted EARGS at %s)" % (
                      server, tool, lines[k].split("\t", 1)[1], rc, text, w))


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--gen", "--source-dir", "--work-dir", "--runtime-lib"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--cc", action="append", help="a C compiler (repeat: the first builds the "
                    "decode driver, the others compile the generated code too)")
    ap.add_argument("--link-flags", default="", help="flags for building the decode driver "
                    "(a sanitizer build's, say)")
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    a.cc = a.cc or ["cc"]
    src = a.source_dir
    data = os.path.join(src, "tests/data/mcp-servers")
    exp_path = os.path.join(src, "tests/export/mcp_corpus_expected.txt")
    exp, got = load_expected(exp_path), {}
    os.makedirs(a.work_dir, exist_ok=True)
    servers = sorted(f[:-5] for f in os.listdir(data) if f.endswith(".json"))
    for server in servers:
        with open(os.path.join(data, server + ".json"), encoding="utf-8") as f:
            tools = json.load(f)["tools"]
        check_server(a, server, tools, exp, got, a.work_dir)
    if a.update:
        with open(exp_path, "w", encoding="utf-8") as f:
            f.write("# SERVER/TOOL: the outcome of `toolgov-gen validate` on the tool's one-tool\n"
                    "# manifest (accepted, or the first error line); check_mcp_corpus.py --update\n"
                    "# writes it.\n")
            for k in got:
                f.write("%s: %s\n" % (k, got[k]))
    else:
        for k in exp:
            check(k in got, "%s: recorded but not in the corpus" % k)
    n = len(got)
    acc = sum(1 for v in got.values() if v == "accepted")
    print("%d servers, %d tools: %d accepted, %d refused" % (len(servers), n, acc, n - acc))
    print("%d passed, %d failed" % (check_export.passed, len(check_export.failures)))
    return 1 if check_export.failures else 0


if __name__ == "__main__":
    sys.exit(main())
