#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""toolgov-mcp --audit FILE: the session's decisions as JSON lines.

A session over real pipes (initialize, a read tool's call, end of input)
must leave one JSON object a line in FILE, numbered from 1 in its run, with
the call's tool, plugin and effect; a log that cannot be written (/dev/full)
must not let the call run and must end the session with status 1 and a
message naming the file; --audit without a file is misuse (status 2).
"""
import json
import os
import subprocess
import sys
import tempfile

INIT = ('{"jsonrpc":"2.0","id":1,"method":"initialize","params":'
        '{"protocolVersion":"2025-11-25","capabilities":{}}}\n'
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
CALL = ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":'
        '{"name":"calendar_lookup","arguments":{}}}\n')


def session(exe, path):
    return subprocess.run([exe, "--audit", path], input=INIT + CALL, capture_output=True,
                          text=True, timeout=60)


def main(exe):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "audit.jsonl")
        p = session(exe, path)
        assert p.returncode == 0, (p.returncode, p.stderr)
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    assert text.endswith("\n"), text
    events = [json.loads(line) for line in text.split("\n")[:-1]]
    assert events, "no event"
    runs = {}
    for ev in events:
        runs[ev["run"]] = runs.get(ev["run"], 0) + 1
        assert ev["seq"] == runs[ev["run"]], ev
    calls = [ev for ev in events if ev.get("tool") == "calendar_lookup"]
    assert calls, events
    assert all(ev["plugin"] == "calendar" and ev["effect"] == "read" for ev in calls), calls
    print("%d events: %s" % (len(events), " ".join(ev["event"] for ev in events)))

    if os.path.exists("/dev/full"):
        p = session(exe, "/dev/full")
        assert p.returncode == 1, (p.returncode, p.stderr)
        assert "/dev/full: the audit log could not be written" in p.stderr, p.stderr
        reply = [json.loads(line) for line in p.stdout.splitlines() if '"id":2' in line]
        assert reply and (reply[0].get("error") or reply[0]["result"].get("isError")), p.stdout
    p = subprocess.run([exe, "--audit"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "--audit needs a file name" in p.stderr, p.stderr
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
