#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A property may be named like any macro of toolgov's headers or of any
generated header, its own plugin's or another's.

The macro names are not listed by hand: the compiler's -dM output for a unit
that includes every public header of the runtime and the generated headers
of two plugins, less the macros the C standard headers define alone (those
are gen_std_macros'), is every macro toolgov defines today (TOOLGOV_ABI_VERSION,
TOOLGOV_EXTERN, TOOLGOV_HANDLER_LINKAGE_, the include guards,
<PLUGIN>_TOOLGOV_GENERATION, <PLUGIN>_TOOLGOV_HANDLER, ...). Then two plugins,
alpha and beta, each get a tool with one property named after each of those
macros, and with every compiler given:

  - each generated C file compiles;
  - one source includes both generated headers, in both orders, and
    defines both plugins' handlers, which read every property by its C name
    (the macro name with a 'p' before it, see docs/generated-code.md);

all with -Wall -Wextra -Wpedantic -Werror. It fails on a generator that
names a member after such a macro (TOOLGOV_ABI_VERSION broke the generated
header, another plugin's include guard emptied the member when that header
came first).

usage: toolgov_macros.py TOOLGOV_GEN RUNTIME_INCLUDE WORK_DIR CC [CC...]
where a CC ending in "++" compiles C++.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

FLAGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]
PLUGINS = ("alpha", "beta")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    return p.returncode, p.stdout


def generate(gen, work, name, props):
    man = os.path.join(work, name + ".yaml")
    with open(man, "w") as f:
        f.write("name: %s\nprovides: [tool]\ntools:\n  %s_tool:\n    effect: read\n"
                "    description: Properties named like macros.\n" % (name, name))
        if props:
            f.write("    parameters:\n      type: object\n      properties:\n")
            for p in props:
                f.write("        %s: {type: string}\n" % p)
    rc, out = run([gen, "generate", "--manifest", man, "--out-dir", work])
    if rc != 0:
        fail("generate %s:\n%s" % (name, out[:4000]))


def macros(cc, text, inc):
    rc, out = run([cc, "-std=c11", "-dM", "-E", "-x", "c", "-I" + inc[0], "-I" + inc[1], "-"],
                  input=text)
    if rc != 0:
        fail("%s -dM:\n%s" % (cc, out[:4000]))
    return set(re.findall(r"^#define ([A-Za-z_][A-Za-z0-9_]*)", out, re.M))


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        sys.exit(2)
    gen, inc, work = sys.argv[1:4]
    compilers = sys.argv[4:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    c = next((x for x in compilers if not x.endswith("++")), None)
    if not c:
        fail("no C compiler given")

    # Every macro toolgov's headers and the generated headers define.
    for n in PLUGINS:
        generate(gen, work, n, [])
    headers = sorted(os.path.basename(h) for h in glob.glob(os.path.join(inc, "toolgov", "*.h")))
    unit = "".join("#include <toolgov/%s>\n" % h for h in headers)
    unit += "".join('#include "%s.toolgov.h"\n' % n for n in PLUGINS)
    std = "#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <stdbool.h>\n" \
          "#include <stdio.h>\n"
    names = sorted(macros(c, std + unit, (inc, work)) - macros(c, std, (inc, work)))
    names = [n for n in names if "TOOLGOV" in n]
    for must in ("TOOLGOV_ABI_VERSION", "ALPHA_TOOLGOV_H", "BETA_TOOLGOV_GENERATION",
                 "TOOLGOV_HANDLER_LINKAGE_", "TOOLGOV_EXTERN"):
        if must not in names:
            fail("the -dM output lacks %s: %s" % (must, " ".join(names)))

    for n in PLUGINS:
        generate(gen, work, n, names)
    src = os.path.join(work, "both.c")
    for order, plugins in (("ab", PLUGINS), ("ba", PLUGINS[::-1])):
        src = os.path.join(work, "both_%s.c" % order)
        with open(src, "w") as f:
            for n in plugins:
                f.write('#include "%s.toolgov.h"\n' % n)
            for n in plugins:
                f.write("\n%s_TOOLGOV_HANDLER(%s_tool, call, args, out)\n{\n    size_t k = 0;\n"
                        "    (void)call;\n    (void)out;\n" % (n.upper(), n))
                for m in names:
                    f.write("    k += args->p%s.len + (size_t)args->has.p%s;\n" % (m, m))
                f.write("    return k ? 0 : TOOLGOV_EHANDLER;\n}\n")
        for cc in compilers:
            cxx = cc.endswith("++")
            mode = ["-x", "c++", "-std=c++17"] if cxx else ["-std=c11"]
            base = [cc] + mode + FLAGS + ["-I" + inc, "-I" + work, "-c", "-o", os.devnull]
            rc, out = run(base + [src])
            if rc != 0:
                fail("%s: both headers (%s) do not compile:\n%s" % (cc, order, out[:4000]))
            for n in PLUGINS:
                rc, out = run(base + [os.path.join(work, n + ".toolgov.c")])
                if rc != 0:
                    fail("%s: %s.toolgov.c does not compile:\n%s" % (cc, n, out[:4000]))
    print("ok: %d toolgov macro names as properties of two plugins, with %s" %
          (len(names), ", ".join(os.path.basename(x) for x in compilers)))


if __name__ == "__main__":
    main()
