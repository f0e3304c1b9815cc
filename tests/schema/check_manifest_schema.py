#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Keeps the JSON Schema of the manifest format in agreement with toolgov-gen.

Every manifest the project has (the examples, the test and build-test
manifests, the fuzz corpus, each YAML example of docs/manifest.md) and every
rule case of the generator's own suite (written out by dump_rule_cases) is
judged twice: by `toolgov-gen validate` and by the schema with a real
validator (python3-jsonschema, draft 2020-12), after loading the YAML with
YAML 1.2 core rules as the generator and editors' YAML servers read it.

The rules:
  - what the generator accepts, the schema accepts;
  - what the generator refuses, the schema refuses too, unless every error
    the generator reports is one a schema cannot express (listed below with
    the reason; these are found only by the generator).
It also checks that every C and C++ keyword the schema refuses as a name
the generator refuses too. Prints one line per disagreement and a summary
line; exit status 1 on any disagreement.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

import jsonschema
import yaml

# Errors a JSON Schema cannot express: they are about the YAML text, not the
# data it stands for, or compare two values of one document.
INEXPRESSIBLE = [
    (r"duplicate key '", "a YAML loader keeps one of two equal keys; the schema never sees both"),
    (r"duplicate tool '", "the same: a mapping's keys are unique once loaded"),
    (r"YAML anchor '", "anchors are YAML syntax, gone once loaded"),
    (r"YAML alias '", "aliases are expanded by a loader"),
    (r"YAML tag '", "tags are YAML syntax"),
    (r"%TAG directives are not allowed", "directives are YAML syntax"),
    (r"invalid UTF-8 byte", "bytes below the text"),
    (r"NUL byte in the manifest", "bytes below the text"),
    (r"control character U\+[0-9A-F]+ is not allowed in a manifest", "bytes below the text"),
    (r"character U\+FFF[EF] is not allowed in YAML", "bytes below the text"),
    (r"the manifest is UTF-16", "bytes below the text"),
    (r"is \d+ bytes; the limit is 16 MiB", "the size of the file"),
    (r"collections nested more than \d+ deep", "the loader's depth, not the data"),
    (r"surrogate pair", "an escape libyaml does not read (PyYAML does)"),
    # The parameters rules that compare two values of one schema, or a
    # value against the schema it belongs to.
    (r"required names '.*', which is not a property", "a name compared with the properties"),
    (r"allow_nul names '.*', which is not a property", "a name compared with the properties"),
    (r"allow_nul applies to string properties", "a name compared with its property's type"),
    (r"is greater than (its )?(maximum|maxLength|maxItems)|is equal to exclusiveMaximum",
     "one bound compared with another"),
    (r"no integer lies between|leaves no 64-bit integer", "the integers a bound leaves"),
    (r"^(default|example \d+|enum value .*) of .* does not satisfy its own schema",
     "a default, an example or an enum value checked against the schema it belongs to"),
    (r"both become the C name", "C names are the generator's"),
    (r"is nested \d+ levels deep", "the depth of nested schemas"),
    (r"is a YAML number that JSON cannot hold", "YAML's number forms are gone once loaded"),
    (r"gives the generated C name", "C names are the generator's"),
    (r"unknown format '.*'; did you mean '", "a near miss by edit distance (the schema lists the "
     "checked formats for completion)"),
]
INEXPRESSIBLE = [(re.compile(p), why) for p, why in INEXPRESSIBLE]


class Yaml12Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core-schema scalars: only true/false forms are
    booleans (no yes/on), no timestamps, no sexagesimal numbers."""


Yaml12Loader.yaml_implicit_resolvers = {}
for tag, regexp, first in [
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    ("tag:yaml.org,2002:float",
     r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     list("-+0123456789.")),
]:
    Yaml12Loader.add_implicit_resolver(tag, re.compile(regexp), first)


def _int12(loader, node):
    v = loader.construct_scalar(node)
    if v.startswith("0o"):
        return int(v[2:], 8)
    if v.startswith("0x"):
        return int(v[2:], 16)
    return int(v, 10)


def _bool12(loader, node):
    return loader.construct_scalar(node).lower() == "true"


Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _int12)
Yaml12Loader.add_constructor("tag:yaml.org,2002:bool", _bool12)


def load_yaml(data):
    """The document as JSON data, or (None, reason) when YAML refuses it."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, "not UTF-8: %s" % e
    try:
        return yaml.load(text, Loader=Yaml12Loader), None
    except yaml.YAMLError as e:
        return None, "YAML: %s" % str(e).splitlines()[0]


def gen_verdict(gen, path):
    """(accepted, [error messages]) from toolgov-gen validate."""
    p = subprocess.run([gen, "--max-errors", "0", "validate", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if p.returncode not in (0, 1):
        raise SystemExit("toolgov-gen validate %s: exit %d\n%s" %
                         (path, p.returncode, p.stderr.decode("utf-8", "replace")))
    errors = []
    for line in p.stderr.decode("utf-8", "replace").splitlines():
        m = re.match(r"^.*?:\d+:\d+: error: (.*)$", line)
        if m:
            errors.append(m.group(1))
    if p.returncode == 1 and not errors:
        raise SystemExit("toolgov-gen validate %s failed without a located error" % path)
    return p.returncode == 0, errors


def schema_verdict(validator, data):
    """(accepted, [reasons])."""
    doc, why = load_yaml(data)
    if why:
        return False, [why]
    errs = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return not errs, ["/%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message[:160])
                      for e in errs]


def inexpressible(msg):
    return any(p.search(msg) for p, _ in INEXPRESSIBLE)


def doc_blocks(path):
    """The ```yaml blocks of a Markdown file, with their headings."""
    heading, out, block = "", [], None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if block is None:
                if line.startswith("#"):
                    heading = line.strip("# \n")
                elif line.strip() == "```yaml":
                    block = []
            elif line.strip() == "```":
                out.append(("%s: %s" % (os.path.basename(path), heading),
                            "".join(block).encode("utf-8")))
                block = None
            else:
                block.append(line)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schema", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--dump", required=True)
    ap.add_argument("--dump-schema", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    a = ap.parse_args()

    with open(a.schema, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    src = a.source_dir
    cases = []  # (label, bytes)
    patterns = ["examples/plugins/*/*.yaml", "tests/gen/manifests/*.yaml",
                "tests/build/projects/*/*.yaml", "tests/package/project/*.yaml",
                "tests/fuzz/corpus/manifest/*.yaml", "tests/gen/schema/*.yaml",
                "tests/export/manifests/*.yaml", "tests/mcp/module/*.yaml"]
    for pat in patterns:
        for p in sorted(glob.glob(os.path.join(src, pat))):
            with open(p, "rb") as f:
                cases.append((os.path.relpath(p, src), f.read()))
    cases += doc_blocks(os.path.join(src, "docs/manifest.md"))

    os.makedirs(a.work_dir, exist_ok=True)
    for old in glob.glob(os.path.join(a.work_dir, "*")):
        os.remove(old)
    subprocess.run([a.dump, a.work_dir], check=True)
    with open(os.path.join(a.work_dir, "index.tsv"), encoding="utf-8") as f:
        for line in f:
            name, what = line.rstrip("\n").split("\t", 1)
            with open(os.path.join(a.work_dir, name), "rb") as g:
                cases.append(("rule case '%s'" % what, g.read()))

    # The parameters rule cases (tests/gen/test_schema.c), each as the
    # parameters of one tool, once the generator reads parameters: in a
    # manifest (until then it refuses the key, and the cases say nothing).
    probe = os.path.join(a.work_dir, "probe.yaml")
    with open(probe, "w", encoding="utf-8") as f:
        f.write("name: p\nprovides: [tool]\ntools:\n  t:\n    effect: read\n    description: x\n"
                "    parameters: {type: object, properties: {a: {type: string}}}\n")
    if gen_verdict(a.gen, probe)[0]:
        subprocess.run([a.dump_schema, a.work_dir], check=True)
        with open(os.path.join(a.work_dir, "schema-index.tsv"), encoding="utf-8") as f:
            for line in f:
                name, what = line.rstrip("\n").split("\t", 1)
                with open(os.path.join(a.work_dir, name), "rb") as g:
                    cases.append(("parameters case '%s'" % what, g.read()))
    else:
        print("note: toolgov-gen does not read parameters: yet; the parameters rule cases are skipped")
    os.remove(probe)

    failed = 0
    counts = {"accepted by both": 0, "refused by both": 0,
              "refused by toolgov-gen only (inexpressible)": 0}
    scratch = os.path.join(a.work_dir, "case.yaml")
    for label, data in cases:
        with open(scratch, "wb") as f:
            f.write(data)
        g_ok, g_err = gen_verdict(a.gen, scratch)
        s_ok, s_err = schema_verdict(validator, data)
        if g_ok and s_ok:
            counts["accepted by both"] += 1
        elif not g_ok and not s_ok:
            counts["refused by both"] += 1
        elif g_ok:
            failed += 1
            print("FAIL %s: toolgov-gen accepts it, the schema refuses it:\n    %s" %
                  (label, "\n    ".join(s_err)))
        else:
            missed = [m for m in g_err if not inexpressible(m)]
            if missed:
                failed += 1
                print("FAIL %s: toolgov-gen refuses it, the schema accepts it:\n    %s" %
                      (label, "\n    ".join(missed)))
            else:
                counts["refused by toolgov-gen only (inexpressible)"] += 1

    # The keyword lists: a C keyword is refused as a plugin name and as a tool
    # name, a C++ keyword as a plugin name only, by the generator and the
    # schema alike.
    keywords = schema["$defs"]["identifier"]["not"]["anyOf"][0]["enum"]
    cxx_keywords = schema["$defs"]["cxxKeyword"]["enum"]
    for kw in keywords + cxx_keywords:
        for text, want_ok in (("name: %s\n" % kw, False),
                              ("name: p\nprovides: [tool]\ntools:\n  %s:\n    effect: read\n"
                               "    description: x\n" % kw, kw in cxx_keywords)):
            with open(scratch, "wb") as f:
                f.write(text.encode())
            g_ok, _ = gen_verdict(a.gen, scratch)
            s_ok, _ = schema_verdict(validator, text.encode())
            if g_ok != want_ok or s_ok != want_ok:
                failed += 1
                print("FAIL keyword '%s' as %s: toolgov-gen %s, schema %s" %
                      (kw, "a tool name" if text.startswith("name: p\n") else "the plugin name",
                       "accepts" if g_ok else "refuses", "accepts" if s_ok else "refuses"))
    keywords = keywords + cxx_keywords

    total = len(cases) + 2 * len(keywords)
    for k, v in counts.items():
        print("%-46s %d" % (k + ":", v))
    print("keyword names checked: %d" % (2 * len(keywords)))
    print("%d passed, %d failed" % (total - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
