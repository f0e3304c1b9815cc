#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Read back the JSON-lines audit log test_audit.c writes for one run.

Every line must be one JSON object (RFC 8259: Python's json with duplicate
keys, NaN/Infinity and anything after the object refused), ending in a
newline, with the fields of its kind; the events of the run must be numbered
1, 2, ... with no gap and name the same run. The run is the one drive()
plays, so the sequence of events is checked too.
"""
import json
import re
import sys

EXPECTED = [
    ("confirm_asked", "make_note"), ("approval_asked", "purge"),
    ("confirm_asked", "make_note"), ("confirm_answered", None),
    ("allowed", "make_note"), ("executed", "make_note"),
    ("refused", "purge"), ("approval_granted", "purge"),
    ("allowed", "purge"), ("approval_consumed", "purge"), ("executed", "purge"),
    ("refused", "nosuch"), ("args_error", "lookup"), ("args_error", "purge"),
    ("allowed", "lookup"), ("executed", "lookup"),
    ("allowed", "digest"), ("executed", "digest"), ("replayed", "digest"),
    ("run_ended", None), ("refused", "lookup"),
]
COMMON = {"v", "run", "seq", "time", "event", "decision", "confirmation", "approvals"}
CALL = {"tool", "plugin", "effect", "args", "args_form"}
KIND = {
    "refused": {"reason", "status"},
    "args_error": {"status", "message"},
    "executed": {"status", "output_len", "ended"},
    "replayed": {"output_len", "ended"},
    "confirm_answered": {"answer"},
    "run_ended": {"end"},
    "restored": {"end"},
}
TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$")


def no_dup(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def no_constant(name):
    raise ValueError("non-finite number " + name)


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    text = data.decode("utf-8")  # strict: invalid UTF-8 fails
    assert text.endswith("\n"), "the log must end with a newline"
    lines = text.split("\n")[:-1]
    assert len(lines) == len(EXPECTED), (len(lines), len(EXPECTED))
    for i, (line, (kind, tool)) in enumerate(zip(lines, EXPECTED)):
        ev = json.loads(line, object_pairs_hook=no_dup, parse_constant=no_constant)
        assert isinstance(ev, dict), line
        want = set(COMMON) | KIND.get(kind, set())
        if tool is not None:
            want |= CALL
        if kind in ("confirm_asked", "approval_asked") and i < 2:
            want |= {"batch_index", "batch_count"}
        assert set(ev) == want, (i, sorted(set(ev) ^ want))
        assert ev["v"] == 1 and ev["run"] == "jsonl-run", ev
        assert ev["seq"] == i + 1, ev
        assert ev["event"] == kind, ev
        assert TIME.match(ev["time"]), ev["time"]
        assert ev["confirmation"] in ("pending", "given", "refused"), ev
        assert isinstance(ev["approvals"], int) and ev["approvals"] >= 0, ev
        if tool is not None:
            assert ev["tool"] == tool, ev
            assert ev["args_form"] in ("canonical", "as_sent", "digest"), ev
            assert isinstance(ev["args"], str), ev
            if ev["args_form"] == "canonical":
                json.loads(ev["args"], object_pairs_hook=no_dup)
            if tool == "nosuch":
                assert ev["plugin"] is None and ev["effect"] is None, ev
            else:
                assert ev["plugin"] == "alpha", ev
                assert ev["effect"] in ("read", "write", "destructive"), ev
        if kind == "refused":
            assert ev["reason"] in ("unknown_tool", "declined", "not_approved", "ended",
                                    "no_handler", "never_granted"), ev
            assert ev["status"] < 0, ev
        if kind == "args_error":
            assert ev["message"], ev
    print("%s: %d events, valid JSON lines" % (path, len(lines)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
