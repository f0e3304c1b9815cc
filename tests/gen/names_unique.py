#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generated C names are unique across plugins by construction.

Generates a set of plugins chosen to collide under any naive naming scheme
(a plugin whose name is another's plus a tool-name prefix, plugin names
ending in the words the generator appends, plugin names equal to tool
names, names that are predefined macros or library macros, and every name
of up to three characters over {a, 1, _}), then builds ONE program from
all of them, for every compiler given:

  - separately: every generated C file and one handler source per plugin
    (including that plugin's header only), plus a main, compiled and linked
    together;
  - as one unit: a single source that includes every generated header,
    defines every handler, includes every generated C file and the main, so
    the static tables, macros and include guards of all plugins meet in one
    scope.

Each handler returns a number unique to its (plugin, tool); the main mounts
every plugin through a stand-in toolgov_register_tool() that calls the
registered function and checks that the number is the one of that tool of
that plugin, so a wrapper that reached the wrong handler fails too.
Names the loader refuses (a double underscore, a trailing '_' on a plugin
or a tool) must be refused. Under clang, -Wreserved-identifier checks that
no generated name is one C or C++ reserves, also where a property's or an
enum value's C name starts or ends with '_'.

usage: names_unique.py TOOLGOV_GEN RUNTIME_INCLUDE WORK_DIR CC [CC...]
where a CC ending in "++" compiles C++ (the generated C files included).
"""
import itertools
import os
import shutil
import subprocess
import sys

FLAGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]


def plugin_set():
    """{plugin: [(tool, has_params)]}"""
    ps = {}
    # Pairs that collide under <plugin>_tool_<tool> / <PLUGIN>_TOOL_<TOOL>.
    ps["mail"] = ["tool_id", "id", "count", "tool_count", "tool_x", "handler"]
    ps["mail_tool"] = ["id", "x", "count", "tool_id"]
    ps["a"] = ["toolgov", "toolgov_handler", "toolgov_h", "h", "handler", "generation", "b"]
    ps["a_toolgov"] = ["handler", "h", "generation", "b"]
    ps["a_toolgov_handler"] = ["x", "h"]
    ps["a_toolgov_h"] = ["x"]
    ps["a_b"] = ["c", "args_c", "handler_c"]
    ps["a_handler"] = ["c", "b"]
    ps["a_args"] = ["c"]
    # A plugin and a tool of the same name; names that are macros of the
    # platform or the library (gnu modes predefine linux and unix).
    ps["calendar"] = ["calendar", "tools", "registers", "provides"]
    ps["linux"] = ["unix", "errno", "stdin", "assert", "main", "linux", "offsetof", "i386"]
    ps["unix"] = ["linux", "null", "int64_t", "size_t", "stdout"]
    # Tool names that are C++ keywords (redis's MCP server has delete): they
    # stand only inside generated identifiers and as the pasted macro
    # argument, in C and in C++ alike, the alternative tokens included.
    ps["kv"] = ["delete", "new", "export", "this", "class", "operator", "template", "and",
                "or", "not", "xor_eq", "throw", "namespace", "wchar_t"]
    # Every name of up to three characters over {a, 1, _}.
    short = ["".join(p) for n in (1, 2, 3) for p in itertools.product("a1_", repeat=n)]
    short = [s for s in short if s[0] == "a" and "__" not in s and not s.endswith("_")]
    tools = short
    for p in short:
        ps["s" + p if p in ps else p] = list(tools)
    # C names that start or end with '_' (a keyword's mark, a separator, a
    # leading sign) where generated names join them to '_'.
    ps["edge"] = ["sort", "sort_p", "id"]
    return ps


# Tools with parameters: nested structs, arrays and enums whose generated
# names grow with property paths, next to tools whose names extend them.
PARAMS = {
    ("a", "b"): (
        "      type: object\n"
        "      properties:\n"
        "        c: {type: object, properties: {d: {type: string, enum: [is_int, x]}}}\n"
        "        item: {type: array, items: {type: string, enum: [is_int]}}\n"),
    ("a_b", "c"): (
        "      type: object\n"
        "      properties:\n"
        "        args: {type: object, properties: {c: {type: integer}}}\n"),
    ("a_args", "c"): (
        "      type: object\n"
        "      properties:\n"
        "        x: {type: string, enum: [a, b]}\n"),
    ("edge", "sort"): (
        "      type: object\n"
        "      properties:\n"
        "        order: {type: string, enum: [created, -created, +created, _x, x_]}\n"
        "        class: {type: string, enum: [a, b]}\n"
        "        default: {type: object, properties: {new: {type: string, enum: [c]}}}\n"
        "        _id: {type: object, properties: {-k: {type: array, items: {type: string, enum: [-]}}}}\n"
        "        x-: {type: array, items: {type: object, properties: {y: {type: boolean}}}}\n"
        "        $schema: {type: string, enum: [d]}\n"),
    ("edge", "sort_p"): (
        "      type: object\n"
        "      properties:\n"
        "        created: {type: string, enum: [a]}\n"),
}


def manifest(plugin, tools):
    out = ["name: %s\nprovides: [tool]\ntools:\n" % plugin]
    for t in tools:
        out.append("  %s:\n    effect: read\n    description: Tool %s of %s.\n" % (t, t, plugin))
        if (plugin, t) in PARAMS:
            out.append("    parameters:\n" + PARAMS[(plugin, t)])
    return "".join(out)


def handlers_source(plugin, tools, ids, include=True):
    up = plugin.upper()
    out = []
    if include:
        out.append('#include "%s.toolgov.h"\n\n' % plugin)
    for t in tools:
        out.append("%s_TOOLGOV_HANDLER(%s, call, args, out)\n{\n"
                   "    (void)call;\n    (void)args;\n    (void)out;\n    return %d;\n}\n\n"
                   % (up, t, ids[(plugin, t)]))
    return "".join(out)


def main_source(ps, ids):
    out = ["#include <stdio.h>\n#include <string.h>\n#include <toolgov/toolgov.h>\n\n"]
    for p in ps:
        out.append("extern const toolgov_plugin %s_toolgov_plugin;\n" % p)
    out.append("\nstruct expect { const char *plugin, *tool; int id; };\n"
               "static const struct expect expected[] = {\n")
    for (p, t), i in sorted(ids.items(), key=lambda kv: kv[1]):
        out.append('    { "%s", "%s", %d },\n' % (p, t, i))
    out.append("};\n\nstatic const toolgov_plugin *const plugins[] = {\n")
    for p in ps:
        out.append("    &%s_toolgov_plugin,\n" % p)
    out.append("};\n\n")
    out.append(r'''struct mount { const char *plugin; int calls, bad; };

#ifdef __cplusplus
extern "C" {
#endif
int toolgov_register_tool(toolgov_plugin_api *api, const char *name, const char *description,
                          toolgov_handler_fn fn)
{
    struct mount *m = (struct mount *)(void *)api;
    size_t i;
    (void)description;
    for (i = 0; i < sizeof expected / sizeof *expected; i++)
        if (strcmp(expected[i].plugin, m->plugin) == 0 && strcmp(expected[i].tool, name) == 0)
            break;
    m->calls++;
    if (i == sizeof expected / sizeof *expected || fn(NULL, NULL, NULL) != expected[i].id) {
        fprintf(stderr, "plugin %s: tool %s reaches the wrong handler\n", m->plugin, name);
        m->bad++;
    }
    return 0;
}

int toolgov_declare_tool(toolgov_plugin_api *api, const char *name, const toolgov_tool_spec **out)
{
    (void)api;
    (void)name;
    (void)out;
    return 0;
}
#ifdef __cplusplus
}
#endif

int main(void)
{
    size_t i, calls = 0;
    int bad = 0;
    for (i = 0; i < sizeof plugins / sizeof *plugins; i++) {
        struct mount m;
        m.plugin = plugins[i]->name;
        m.calls = m.bad = 0;
        if (plugins[i]->register_fn((toolgov_plugin_api *)(void *)&m) != 0 ||
            (size_t)m.calls != plugins[i]->tool_count)
            bad++;
        bad += m.bad;
        calls += (size_t)m.calls;
    }
    if (calls != sizeof expected / sizeof *expected)
        bad++;
    printf("%u plugins, %u handlers, %d wrong\n", (unsigned)(sizeof plugins / sizeof *plugins),
           (unsigned)calls, bad);
    return bad != 0;
}
''')
    return "".join(out)


def run(cmd, cwd=None):
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        sys.exit(2)
    gen, inc, work = sys.argv[1:4]
    compilers = sys.argv[4:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ps = plugin_set()
    ids = {}
    for p, tools in ps.items():
        for t in tools:
            ids[(p, t)] = len(ids) + 1

    # Names the loader refuses never reach the generator's output.
    for bad in ("a__b", "a_"):
        path = os.path.join(work, "refused.yaml")
        with open(path, "w") as f:
            f.write(manifest(bad, ["x"]))
        rc, out = run([gen, "generate", "--manifest", path, "--out-dir",
                       os.path.join(work, "refused")])
        if rc != 1:
            fail("plugin name %r was not refused:\n%s" % (bad, out))
    for bad in ("x__y", "x_"):
        with open(os.path.join(work, "refused.yaml"), "w") as f:
            f.write(manifest("ok", [bad]))
        if run([gen, "validate", os.path.join(work, "refused.yaml")])[0] != 1:
            fail("tool name %r was not refused" % bad)

    gen_dir = os.path.join(work, "gen")
    for p, tools in ps.items():
        path = os.path.join(work, p + ".yaml")
        with open(path, "w") as f:
            f.write(manifest(p, tools))
        rc, out = run([gen, "generate", "--manifest", path, "--out-dir", gen_dir])
        if rc != 0:
            fail("generate %s:\n%s" % (p, out))
        with open(os.path.join(work, p + "_handlers.c"), "w") as f:
            f.write(handlers_source(p, tools, ids))
    with open(os.path.join(work, "main.c"), "w") as f:
        f.write(main_source(ps, ids))
    with open(os.path.join(work, "unity.c"), "w") as f:
        for p in ps:
            f.write('#include "%s.toolgov.h"\n' % p)
        for p, tools in ps.items():
            f.write(handlers_source(p, tools, ids, include=False))
        for p in ps:
            f.write('#include "%s.toolgov.c"\n' % p)
        f.write('#include "main.c"\n')

    print("%d plugins, %d tools" % (len(ps), len(ids)))
    for cc in compilers:
        cxx = cc.endswith("++")
        lang = ["-x", "c++", "-std=c++11"] if cxx else ["-std=c99"]
        modes = [lang] if cxx else [lang, ["-std=gnu11"]]
        for mode in modes:
            tag = "%s %s" % (os.path.basename(cc), " ".join(mode))
            # clang also checks that no generated name is one C or C++
            # reserves (a '__' anywhere, '_' and a capital at the start).
            extra = ["-Wreserved-identifier"] if "clang" in os.path.basename(cc) else []
            base = [cc] + mode + FLAGS + extra + ["-I" + inc, "-I" + gen_dir, "-I" + work]
            objs = []
            odir = os.path.join(work, "obj-" + "".join(c if c.isalnum() else "_" for c in tag))
            os.makedirs(odir)
            srcs = [os.path.join(gen_dir, p + ".toolgov.c") for p in ps]
            srcs += [os.path.join(work, p + "_handlers.c") for p in ps]
            srcs.append(os.path.join(work, "main.c"))
            for i, s in enumerate(srcs):
                o = os.path.join(odir, "%d.o" % i)
                rc, out = run(base + ["-c", s, "-o", o])
                if rc != 0:
                    fail("%s: %s does not compile:\n%s" % (tag, s, out))
                objs.append(o)
            exe = os.path.join(odir, "separate")
            rc, out = run([cc, "-o", exe] + objs)
            if rc != 0:
                fail("%s: the plugins do not link into one program:\n%s" % (tag, out))
            rc, out = run([exe])
            if rc != 0:
                fail("%s: %s" % (tag, out))
            exe = os.path.join(odir, "unity")
            rc, out = run(base + ["-o", exe, os.path.join(work, "unity.c")])
            if rc != 0:
                fail("%s: all plugins in one translation unit do not compile:\n%s" % (tag, out))
            rc, out = run([exe])
            if rc != 0:
                fail("%s (one unit): %s" % (tag, out))
            print("%s: separate and one unit: %s" % (tag, out.strip()))
    print("ok")


if __name__ == "__main__":
    main()
