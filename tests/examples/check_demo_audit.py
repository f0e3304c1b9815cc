#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""toolgov-demo --audit FILE: every scenario's runs logged as JSON lines.

Plays every scenario with --audit into a fresh file and reads it back with
a strict JSON reader (duplicate keys and non-finite numbers refused): one
object a line, each run's events numbered 1, 2, ... without a gap, run ids
"<scenario>/turn-<n>", and the decisions the scenarios are known to make
(a confirmation asked and answered, an approval granted and used up, calls
executed, a refusal). Then a log that cannot be written (/dev/full) must
fail the command with a message naming the file, and run no write.
"""
import json
import os
import subprocess
import sys
import tempfile


def no_dup(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def no_constant(name):
    raise ValueError("non-finite number " + name)


def main(demo):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "audit.jsonl")
        p = subprocess.run([demo, "--audit", path, "all"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        assert p.returncode == 0, p.stderr
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
    assert text.endswith("\n")
    seqs = {}
    kinds = set()
    for line in text.split("\n")[:-1]:
        ev = json.loads(line, object_pairs_hook=no_dup, parse_constant=no_constant)
        run = ev["run"]
        scenario, _, turn = run.rpartition("/turn-")
        assert scenario and turn.isdigit(), run
        want = seqs.get(run, 0) + 1
        assert ev["seq"] == want, (run, ev["seq"], want)
        seqs[run] = want
        kinds.add(ev["event"])
        if "tool" in ev:
            assert ev["args_form"] in ("canonical", "as_sent"), ev
    for k in ("confirm_asked", "confirm_answered", "allowed", "executed", "run_ended"):
        assert k in kinds, (k, sorted(kinds))
    print("%d runs, %d events, kinds: %s" % (len(seqs), sum(seqs.values()),
                                             " ".join(sorted(kinds))))

    if os.path.exists("/dev/full"):
        p = subprocess.run([demo, "--audit", "/dev/full", "all"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        assert p.returncode == 1, (p.returncode, p.stderr)
        assert "/dev/full: the audit log could not be written" in p.stderr, p.stderr
    p = subprocess.run([demo, "--audit"], capture_output=True, text=True)
    assert p.returncode == 2 and "--audit takes a file name" in p.stderr, p.stderr
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
