#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""corpus_manifest.py: a manifest of N tools (default 10,000) cycling the
tool schemas of tests/data/mcp-servers/ that toolgov-gen accepts one by one,
written in PyYAML's block style, to time `generate` on real schemas that
repeat (docs/testing.md, "Not reading a repeated text at all").

    tests/bench/corpus_manifest.py [--distinct] TOOLGOV_GEN OUT.yaml [N]

With --distinct each tool's schema gets a root `title` naming the tool, so
no two parameters texts are alike (every one is read and compiled).
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

import yaml


def main():
    args = sys.argv[1:]
    distinct = bool(args) and args[0] == "--distinct"
    if distinct:
        args = args[1:]
    gen, out = args[0], args[1]
    count = int(args[2]) if len(args) > 2 else 10000
    here = os.path.dirname(os.path.abspath(__file__))
    accepted = []
    with tempfile.TemporaryDirectory() as tmp:
        one = os.path.join(tmp, "one.yaml")
        for path in sorted(glob.glob(os.path.join(here, "../data/mcp-servers/*.json"))):
            for tool in json.load(open(path, encoding="utf-8"))["tools"]:
                m = {"name": "one", "provides": ["tool"],
                     "tools": {"x": {"effect": "read",
                                     "description": (tool.get("description") or "x")[:300] or "x",
                                     "parameters": tool["inputSchema"]}}}
                with open(one, "w", encoding="utf-8") as f:
                    f.write(yaml.safe_dump(m, sort_keys=False, allow_unicode=True))
                if subprocess.run([gen, "validate", one], capture_output=True).returncode == 0:
                    accepted.append(tool)
    tools = {}
    for i in range(count):
        t = accepted[i % len(accepted)]
        name = "t%05d_%s" % (i, t["name"][:40].replace("-", "_").strip("_"))
        tools[name] = {"effect": ("read", "write", "destructive")[i % 3],
                       "description": (t.get("description") or "x")[:300] or "x",
                       # a copy each time: PyYAML writes a shared object as an anchor
                       "parameters": json.loads(json.dumps(t["inputSchema"]))}
        if distinct:
            tools[name]["parameters"]["title"] = "Arguments of tool %d" % i
    with open(out, "w", encoding="utf-8") as f:
        f.write(yaml.safe_dump({"name": "big", "provides": ["tool"], "tools": tools},
                               sort_keys=False, allow_unicode=True, width=100))
    print("%s: %d tools from %d accepted schemas" % (out, count, len(accepted)))


if __name__ == "__main__":
    main()
