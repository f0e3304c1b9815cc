#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A property may be named like any macro of the C standard headers.

gen/schema/c_std_macros.inc lists the object-like macros of the C standard library
headers (SIZE_MAX, EINVAL, INT_MAX, NAN, stdin, ...); a property's C name
that is one of them gets a '_' after it, or the struct member would expand
to a number in every source that includes the header (toolgov.h itself
includes <stdint.h>). This test declares one tool with a property of every
listed name, generates the plugin, and compiles, with every compiler given:

  - a handler source that includes every C standard header before the
    generated one and reads every member by its documented C name (the
    name and '_'), with -Wall -Wextra -Wpedantic -Werror;
  - the generated C file.

It fails before the list existed (SIZE_MAX alone broke the generated C
file). It also compares the list with the headers of this machine and
names any macro they define that the list lacks (a note, not a failure:
another C library may define more).

usage: std_macros.py TOOLGOV_GEN RUNTIME_INCLUDE LIST_FILE WORK_DIR CC [CC...]
where a CC ending in "++" compiles C++.
"""
import os
import re
import shutil
import subprocess
import sys

HEADERS = ("assert complex ctype errno fenv float inttypes iso646 limits locale math "
           "setjmp signal stdalign stdarg stdatomic stdbool stddef stdint stdio stdlib "
           "stdnoreturn string tgmath threads time uchar wchar wctype").split()
FLAGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def listed(path):
    names = re.findall(r'^"([A-Za-z0-9_]+)",$', open(path).read(), re.M)
    if len(names) < 500:
        fail("%s lists only %d names" % (path, len(names)))
    if names != sorted(names, key=lambda s: s.encode()):
        fail("%s is not sorted bytewise (bsearch needs it)" % path)
    return names


def main():
    if len(sys.argv) < 6:
        print(__doc__)
        sys.exit(2)
    gen, inc, list_file, work = sys.argv[1:5]
    compilers = sys.argv[5:]
    names = listed(list_file)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    man = os.path.join(work, "sm.yaml")
    with open(man, "w") as f:
        f.write("name: sm\nprovides: [tool]\ntools:\n  t:\n    effect: read\n"
                "    description: Every macro name as a property.\n"
                "    parameters:\n      type: object\n      properties:\n")
        for n in names:
            f.write("        %s: {type: string}\n" % n)
    rc, out = run([gen, "generate", "--manifest", man, "--out-dir", work])
    if rc != 0:
        fail("generate:\n" + out)

    src = os.path.join(work, "handler.c")
    with open(src, "w") as f:
        for h in HEADERS:
            f.write("#include <%s.h>\n" % h)
        f.write('#include "sm.toolgov.h"\n\n'
                "SM_TOOLGOV_HANDLER(t, call, args, out)\n{\n    size_t n = 0;\n"
                "    (void)call;\n    (void)out;\n")
        for name in names:
            f.write("    n += args->%s_.len + (size_t)args->has.%s_;\n" % (name, name))
        f.write("    return n ? 0 : TOOLGOV_EHANDLER;\n}\n")

    for cc in compilers:
        cxx = cc.endswith("++")
        modes = [["-x", "c++", "-std=c++17"]] if cxx else [["-std=c11"], ["-std=c2x"]]
        for mode in modes:
            tag = "%s %s" % (os.path.basename(cc), " ".join(mode))
            base = [cc] + mode + FLAGS + ["-I" + inc, "-I" + work, "-c", "-o", os.devnull]
            for s in (src, os.path.join(work, "sm.toolgov.c")):
                rc, out = run(base + [s])
                if rc != 0:
                    fail("%s: %s does not compile:\n%s" % (tag, s, out[:4000]))
            print("%s: the handler and the generated C file compile" % tag)

    # This machine's headers against the list (a note only).
    c = next((x for x in compilers if not x.endswith("++")), None)
    if c:
        text = "".join("#include <%s.h>\n" % h for h in HEADERS)
        p = subprocess.run([c, "-std=c2x", "-dM", "-E", "-x", "c", "-"], input=text,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        here = {m.group(1) for m in re.finditer(r"^#define ([A-Za-z][A-Za-z0-9_]*)[ \n]",
                                                p.stdout, re.M)}
        missing = sorted(here - set(names))
        if missing:
            print("note: %s defines %d object-like macros the list lacks: %s" %
                  (os.path.basename(c), len(missing), " ".join(missing[:40])))
    print("ok: %d macro names as properties" % len(names))


if __name__ == "__main__":
    main()
