/* SPDX-License-Identifier: MIT */
/*
** test_manifest.c: every manifest rule and every kind of bad input, through
** the core library (toolgov__manifest_load_mem) with the diagnostics
** captured. Each case asserts the exact FILE:LINE:COL of the first error,
** key words of its message, and the number of errors of the run.
*/
#define _GNU_SOURCE /* memmem */
#include "gen_test_util.h"

#include "emit/stubs.h"
#include "base/text.h"

#define T "name: p\nprovides: [tool]\ntools:\n"

typedef struct bad_case {
    const char *what;
    const char *yaml;
    size_t len;             /* 0: strlen(yaml) */
    const char *first;      /* exact start of the first diagnostic line */
    const char *words[3];   /* further text that line must contain */
    size_t errors;          /* errors the run reports */
} bad_case;

static const bad_case bad_cases[] = {
    /* ---- the file and the YAML stream ---------------------------------- */
    {"empty file", "", 0, "m.yaml:1:1: error: the manifest is empty", {"name:"}, 1},
    {"comments only", "# nothing\n# here\n", 0, "m.yaml:1:1: error: the manifest is empty", {0}, 1},
    {"empty document", "---\n", 0, "m.yaml:2:1: error: the manifest's document is empty", {0}, 1},
    {"top-level scalar", "hello\n", 0, "m.yaml:1:1: error: the top level of a manifest must be a mapping", {"not a scalar"}, 1},
    {"top-level sequence", "- name: a\n", 0, "m.yaml:1:1: error: the top level of a manifest must be a mapping", {"not a sequence"}, 1},
    {"two documents", "name: a\n---\nname: b\n", 0, "m.yaml:2:1: error: a manifest holds one YAML document", {"second"}, 1},
    {"two documents after ...", "name: a\n...\n---\nname: b\n", 0, "m.yaml:3:1: error: a manifest holds one YAML document", {0}, 1},
    {"anchor", "name: &x a\n", 0, "m.yaml:1:7: error: YAML anchor '&x' is not allowed", {"remove it"}, 1},
    {"alias", "name: a\nprovides: &p [tool]\ntools: *p\n", 0, "m.yaml:2:11: error: YAML anchor '&p' is not allowed", {0}, 2},
    {"alias value", T "  t:\n    effect: read\n    description: x\n    guidance: *g\n", 0,
     "m.yaml:7:15: error: YAML alias '*g' is not allowed", {"never expanded"}, 1},
    {"tag", "name: !!str a\n", 0, "m.yaml:1:7: error: YAML tag 'tag:yaml.org,2002:str' is not allowed", {"plain text"}, 1},
    {"local tag on a mapping", "--- !thing\nname: a\n", 0, "m.yaml:1:5: error: YAML tag '!thing' is not allowed", {0}, 1},
    {"TAG directive", "%TAG !e! tag:example.com,2000:\n---\nname: a\n", 0, "m.yaml:1:1: error: %TAG directives are not allowed", {0}, 1},
    {"invalid UTF-8", "name: a\xff\n", 0, "m.yaml:1:8: error: invalid UTF-8 byte 0xff", {"re-save the file as UTF-8"}, 1},
    {"overlong UTF-8", "name: a\n# \xc0\xaf\n", 0, "m.yaml:2:3: error: invalid UTF-8 byte 0xc0", {0}, 1},
    {"UTF-8 surrogate", "name: a # \xed\xa0\x80\n", 0, "m.yaml:1:11: error: invalid UTF-8 byte 0xed", {0}, 1},
    {"truncated UTF-8 at the end", "name: a\xe2\x82", 0, "m.yaml:1:8: error: invalid UTF-8 byte 0xe2", {0}, 1},
    {"invalid UTF-8 on two lines", "name: \xff\n# \xfe\n", 0, "m.yaml:1:7: error: invalid UTF-8 byte 0xff", {0}, 2},
    {"column counts characters", "# caf\xc3\xa9 \xff\n", 0, "m.yaml:1:8: error: invalid UTF-8 byte 0xff", {0}, 1},
    {"NUL byte", "name: a\0b\n", 9, "m.yaml:1:8: error: NUL byte in the manifest", {"remove it"}, 1},
    {"control byte", "name: a\x01\n", 0, "m.yaml:1:8: error: control character U+0001 is not allowed", {"only tab, CR and LF"}, 1},
    {"DEL byte", "name: a\x7f\n", 0, "m.yaml:1:8: error: control character U+007F", {0}, 1},
    {"C1 control (NEL)", "name: a\xc2\x85\n", 0, "m.yaml:1:8: error: control character U+0085", {0}, 1},
    {"noncharacter U+FFFF", "name: a\xef\xbf\xbf\n", 0, "m.yaml:1:8: error: character U+FFFF is not allowed", {0}, 1},
    {"UTF-16 BOM", "\xff\xfen\0a\0", 6, "m.yaml:1:1: error: the manifest is UTF-16", {"save it as UTF-8"}, 1},
    {"control after CRLF lines", "name: a\r\nprovides: []\r\n\x02\r\n", 0, "m.yaml:3:1: error: control character U+0002", {0}, 1},
    {"control after CR-only lines", "name: a\rprovides: []\r\x02\r", 0, "m.yaml:3:1: error: control character U+0002", {0}, 1},
    {"column after a BOM", "\xef\xbb\xbfname: a\x01\n", 0, "m.yaml:1:8: error: control character U+0001", {0}, 1},
    {"NUL from an escape", T "  t:\n    effect: read\n    description: \"a\\0b\"\n", 0,
     "m.yaml:6:18: error: 'description' of tool 't' contains a NUL character", {"a C string cannot hold it"}, 1},
    {"control from an escape", T "  t:\n    effect: read\n    description: \"bell\\a\"\n", 0,
     "m.yaml:6:18: error: 'description' of tool 't' contains control character U+0007", {0}, 1},
    {"C1 control from an escape", T "  t:\n    effect: read\n    description: \"x\\N\"\n", 0,
     "m.yaml:6:18: error: 'description' of tool 't' contains control character U+0085", {0}, 1},
    {"NUL in a tool name escape", T "  \"a\\0\":\n    effect: read\n    description: x\n", 0,
     "m.yaml:4:3: error: tool name contains a NUL character", {0}, 1},
    {"syntax error", "name: \"abc\n", 0, "m.yaml:2:1: error: YAML syntax: found unexpected end of stream", {"check the indentation"}, 1},
    {"syntax error in a flow sequence", "name: p\nprovides: [tool\n", 0, "m.yaml:3:1: error: YAML syntax: did not find expected ',' or ']'", {0}, 1},
    {"syntax error with context", "name: p\n- a\n", 0, "m.yaml:2:1: error: YAML syntax: did not find expected key", {0}, 1},
    {"surrogate pair escape", T "  t:\n    effect: read\n    description: \"\\ud83c\\udfaf x\"\n", 0,
     "m.yaml:6:21: error: YAML syntax: '\\ud83c\\udfaf' is JSON's way of writing one character beyond U+FFFF (a UTF-16 surrogate pair), which YAML does not read; write the character itself, or \\U0001F3AF", {0}, 1},
    /* After characters beyond ASCII (libyaml's marks count characters,
    ** the escape is found by its byte offset). */
    {"surrogate pair escape after UTF-8 text", T "  s:\n    effect: read\n    description: \xc3\xa9\xe2\x82\xac\xf0\x9f\x8e\xaf\n  t:\n    effect: read\n    description: \"\\ud83c\\udfaf x\"\n", 0,
     "m.yaml:9:21: error: YAML syntax: '\\ud83c\\udfaf' is JSON's way of writing one character beyond U+FFFF", {0}, 1},
    {"lone surrogate escape", T "  t:\n    effect: read\n    description: \"x \\uDFAF\"\n", 0,
     "m.yaml:6:23: error: YAML syntax: '\\uDFAF' is half of a UTF-16 surrogate pair, not a character", {"its \\U escape"}, 1},
    {"tab indenting a tool", T "\tt: {effect: read, description: x}\n", 0,
     "m.yaml:4:1: error: YAML syntax: a tab indents this line; YAML indents with spaces only", {"replace the tab"}, 1},
    {"tab after spaces", T "  t:\n  \teffect: read\n", 0,
     "m.yaml:5:3: error: YAML syntax: a tab indents this line; YAML indents with spaces only", {0}, 1},
    {"bad indentation in tools", T "  t:\n    effect: read\n   description: x\n", 0, "m.yaml:4:3: error: tool 't' has no 'description'", {0}, 2},
    {"complex key", "? [a]\n: b\nname: x\n", 0, "m.yaml:1:3: error: a key in the manifest is a sequence", {"keys must be plain words"}, 1},
    {"deep nesting where a scalar belongs", "name: a\nprovides: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[tool]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n", 0,
     "m.yaml:2:12: error: each provides entry must be a single word", {"not a sequence"}, 1},

    /* ---- top-level keys -------------------------------------------------- */
    {"duplicate top-level key", "name: a\nname: b\n", 0, "m.yaml:2:1: error: duplicate key 'name'; keep one", {0}, 1},
    {"unknown top-level key, close", "nmae: a\n", 0, "m.yaml:1:1: error: unknown key 'nmae' at the top level; did you mean 'name'?", {0}, 2},
    {"unknown top-level key, far", "name: a\nversion: 2\n", 0, "m.yaml:2:1: error: unknown key 'version' at the top level; expected name, provides or tools", {0}, 1},
    {"name missing", "provides: []\n", 0, "m.yaml:1:1: error: the manifest has no 'name'", {"add name:"}, 1},
    {"name missing, reported at the mapping", "# c\n\nprovides: []\n", 0, "m.yaml:3:1: error: the manifest has no 'name'", {0}, 1},
    {"name empty", "name:\n", 0, "m.yaml:1:6: error: name is empty", {0}, 1},
    {"name quoted empty", "name: ''\n", 0, "m.yaml:1:7: error: plugin name is empty", {0}, 1},
    {"name uppercase", "name: Calendar\n", 0, "m.yaml:1:7: error: plugin name 'Calendar' must start with a lowercase letter", {"[a-z][a-z0-9_]*"}, 1},
    {"name with a dash", "name: my-plugin\n", 0, "m.yaml:1:7: error: plugin name 'my-plugin' contains '-'", {"use only a-z, 0-9 and _"}, 1},
    {"name with a digit first", "name: 9lives\n", 0, "m.yaml:1:7: error: plugin name '9lives' must start with a lowercase letter", {0}, 1},
    {"name non-ASCII", "name: caf\xc3\xa9\n", 0, "m.yaml:1:7: error: plugin name 'caf\xc3\xa9' contains byte 0xc3", {0}, 1},
    {"name too long", "name: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 0,
     "m.yaml:1:7: error: plugin name 'aaaa", {"is 65 bytes long; the limit is 64"}, 1},
    {"name a C keyword", "name: int\n", 0, "m.yaml:1:7: error: plugin name 'int' is a C keyword", {"C identifiers"}, 1},
    {"name a C++ keyword", "name: class\n", 0, "m.yaml:1:7: error: plugin name 'class' is a C++ keyword", {"compiled as C++"}, 1},
    {"name with toolgov prefix", "name: toolgov_extra\n", 0, "m.yaml:1:7: error: plugin name 'toolgov_extra' starts with 'toolgov'", {"reserved"}, 1},
    {"name with a double underscore", "name: a__b\n", 0, "m.yaml:1:7: error: plugin name 'a__b' contains '__'", {"C++ reserves"}, 1},
    {"name ending in underscore", "name: cal_\n", 0, "m.yaml:1:7: error: plugin name 'cal_' ends in '_'", {0}, 1},
    {"tool name ending in underscore", "name: cal\nprovides: [tool]\ntools:\n  get_:\n    effect: read\n    description: d\n", 0,
     "m.yaml:4:3: error: tool name 'get_' ends in '_'", {"remove the trailing '_'"}, 1},
    {"name a mapping", "name: {a: b}\n", 0, "m.yaml:1:7: error: name must be a single value, not a mapping", {0}, 1},
    {"name a sequence", "name:\n  - a\n", 0, "m.yaml:2:3: error: name must be a single value, not a sequence", {0}, 1},

    /* ---- provides -------------------------------------------------------- */
    {"provides a scalar", "name: a\nprovides: tool\n", 0, "m.yaml:2:11: error: provides must be a sequence of kinds such as [tool], not a scalar", {0}, 1},
    {"provides null", "name: a\nprovides:\n", 0, "m.yaml:2:10: error: provides must be a sequence", {"provides: []"}, 1},
    {"provides a mapping", "name: a\nprovides: {tool: 1}\n", 0, "m.yaml:2:11: error: provides must be a sequence", {"not a mapping"}, 1},
    {"provides entry not an identifier", "name: a\nprovides: [Tool]\n", 0, "m.yaml:2:12: error: provides entry 'Tool' must start with a lowercase letter", {0}, 1},
    {"provides entry a mapping", "name: a\nprovides: [{a: b}]\n", 0, "m.yaml:2:12: error: each provides entry must be a single word", {"not a mapping"}, 1},
    {"provides duplicate", "name: a\nprovides: [tool, skill, tool]\n", 0, "m.yaml:2:25: error: 'tool' is listed twice in provides", {0}, 1},
    {"provides lacks tool", "name: a\nprovides: [skill]\ntools:\n  t:\n    effect: read\n    description: x\n", 0,
     "m.yaml:2:1: error: provides does not list 'tool', but the manifest declares 1 tool;", {"add tool to provides"}, 1},
    {"provides lacks tool, misspelt", "name: a\nprovides: [skill, tools]\ntools:\n  t:\n    effect: read\n    description: x\n", 0,
     "m.yaml:2:1: error: provides does not list 'tool', but the manifest declares 1 tool; did you mean 'tool' instead of 'tools'?", {0}, 1},
    {"provides missing with tools", "name: a\ntools:\n  t:\n    effect: read\n    description: x\n", 0,
     "m.yaml:2:1: error: the manifest declares 1 tool but has no 'provides'", {"provides: [tool]"}, 1},

    /* ---- tools ----------------------------------------------------------- */
    {"tools a sequence", "name: a\nprovides: [tool]\ntools:\n  - t\n", 0, "m.yaml:4:3: error: tools must be a mapping from tool names", {"not a sequence"}, 1},
    {"tools null", "name: a\ntools:\n", 0, "m.yaml:2:7: error: tools must be a mapping", {"tools: {}"}, 1},
    {"tool name uppercase", T "  Lookup:\n    effect: read\n    description: x\n", 0, "m.yaml:4:3: error: tool name 'Lookup' must start with a lowercase letter", {0}, 1},
    {"tool name a C keyword", T "  register:\n    effect: read\n    description: x\n", 0, "m.yaml:4:3: error: tool name 'register' is a C keyword", {0}, 1},
    {"tool name a C23 keyword", T "  typeof:\n    effect: destructive\n    description: x\n", 0, "m.yaml:4:3: error: tool name 'typeof' is a C keyword", {0}, 1},
    {"tool name too long", T "  t23456789012345678901234567890123456789012345678901234567890123456789:\n    effect: read\n    description: x\n", 0,
     "m.yaml:4:3: error: tool name 't2345", {"is 69 bytes long; the limit is 64"}, 1},
    {"tool name with a space", T "  find events:\n    effect: read\n    description: x\n", 0, "m.yaml:4:3: error: tool name 'find events' contains ' '", {0}, 1},
    {"duplicate tool", T "  t:\n    effect: read\n    description: x\n  t:\n    effect: read\n    description: y\n", 0,
     "m.yaml:7:3: error: duplicate tool 't'", {"remove or rename"}, 1},
    {"tool body a scalar", T "  t: read\n", 0, "m.yaml:4:6: error: tool 't' must be a mapping (effect:, description:, ...), not a scalar", {0}, 1},
    {"tool body empty", T "  t:\n", 0, "m.yaml:4:5: error: tool 't' has no declaration", {"effect: and description:"}, 1},
    {"tool body a sequence", T "  t: [read]\n", 0, "m.yaml:4:6: error: tool 't' must be a mapping", {"not a sequence"}, 1},
    {"tool key a mapping", T "  t:\n    {a: b}: c\n    effect: read\n    description: x\n", 0, "m.yaml:5:5: error: a key in a tool is a mapping", {0}, 1},
    {"unknown tool key, close", T "  t:\n    effect: read\n    descripton: x\n", 0,
     "m.yaml:6:5: error: unknown key 'descripton' in tool 't'; did you mean 'description'?", {0}, 2},
    {"unknown tool key, far", T "  t:\n    effect: read\n    description: x\n    timeout: 3\n", 0,
     "m.yaml:7:5: error: unknown key 'timeout' in tool 't'; expected effect, confirm, description, guidance, pinned, answers_directly, parameters, loop, pin, upstream_name or allow_nul", {0}, 1},
    {"allow_nul on an integer", T "  t:\n    effect: read\n    description: x\n    allow_nul: [n]\n    parameters:\n      type: object\n      properties:\n        n: {type: integer}\n", 0,
     "m.yaml:7:17: error: allow_nul applies to string properties, and property 'n' of tool 't' is an integer; remove it from allow_nul", {0}, 1},
    {"allow_nul on a string enum", T "  t:\n    effect: read\n    description: x\n    parameters:\n      type: object\n      properties:\n        k: {type: string, enum: [a, b]}\n    allow_nul: [k]\n", 0,
     "m.yaml:11:17: error: allow_nul applies to string properties, and property 'k' of tool 't' is a string enum", {0}, 1},
    {"allow_nul names no property", T "  t:\n    effect: read\n    description: x\n    allow_nul: [payload]\n", 0,
     "m.yaml:7:17: error: allow_nul names 'payload', which is not a property of tool 't'", {0}, 1},
    {"allow_nul a scalar", T "  t:\n    effect: read\n    description: x\n    allow_nul: payload\n", 0,
     "m.yaml:7:16: error: allow_nul of tool 't' must be a list of string property names such as [payload], not a scalar", {0}, 1},
    {"allow_nul twice", T "  t:\n    effect: read\n    description: x\n    allow_nul: [p, p]\n    parameters: {type: object, properties: {p: {type: string}}}\n", 0,
     "m.yaml:7:20: error: 'p' is listed twice in allow_nul of tool 't'; keep one", {0}, 1},
    {"pin not a digest", T "  t:\n    effect: read\n    description: x\n    pin: sha256:ABC\n", 0,
     "m.yaml:7:10: error: pin of tool 't' must be \"sha256:\" and 64 lowercase hex digits", {"import the server's tools again"}, 1},
    {"pin part misspelt", T "  t:\n    effect: read\n    description: x\n    pin: sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef;a=000000000000;d=000000000000;i=000000000000;x=000000000000\n", 0,
     "m.yaml:7:10: error: pin of tool 't' must be \"sha256:\" and 64 lowercase hex digits (then, optionally,", {"each with 12"}, 1},
    {"upstream_name with a blank", T "  t:\n    effect: read\n    description: x\n    upstream_name: get sum\n", 0,
     "m.yaml:7:20: error: upstream_name of tool 't' must be the server's name for the tool", {0}, 1},
    {"duplicate tool key", T "  t:\n    effect: read\n    effect: write\n    description: x\n", 0,
     "m.yaml:6:5: error: duplicate key 'effect' in tool 't'; keep one", {0}, 1},

    /* ---- effect ---------------------------------------------------------- */
    {"effect missing", T "  t:\n    description: x\n", 0, "m.yaml:4:3: error: tool 't' has no 'effect'", {"read, write or destructive"}, 1},
    {"effect misspelt", "name: cal\nprovides:\n  - tool\ntools:\n  create_reminder:\n    description: Create one reminder.\n    effect: wirte\n", 0,
     "m.yaml:7:13: error: unknown effect 'wirte' for tool 'create_reminder'; did you mean 'write'? (expected read, write or destructive)", {0}, 1},
    {"effect capitalised", T "  t:\n    effect: Read\n    description: x\n", 0, "m.yaml:5:13: error: unknown effect 'Read' for tool 't'; did you mean 'read'?", {0}, 1},
    {"effect unknown", T "  t:\n    effect: maybe\n    description: x\n", 0, "m.yaml:5:13: error: unknown effect 'maybe' for tool 't' (expected read, write or destructive)", {0}, 1},
    {"effect empty", T "  t:\n    effect:\n    description: x\n", 0, "m.yaml:5:12: error: effect of tool 't' has no value", {0}, 1},
    {"effect a sequence", T "  t:\n    effect: [read, write]\n    description: x\n", 0, "m.yaml:5:13: error: 'effect' of tool 't' must be a single value, not a sequence", {0}, 1},

    /* ---- description and guidance ---------------------------------------- */
    {"description missing", T "  t:\n    effect: read\n", 0, "m.yaml:4:3: error: tool 't' has no 'description'", {0}, 1},
    {"description empty", T "  t:\n    effect: read\n    description: \"\"\n", 0, "m.yaml:6:18: error: description of tool 't' is empty", {0}, 1},
    {"description null", T "  t:\n    effect: read\n    description:\n", 0, "m.yaml:6:17: error: description of tool 't' is empty", {0}, 1},
    {"description a mapping", T "  t:\n    effect: read\n    description:\n      text: x\n", 0,
     "m.yaml:7:7: error: 'description' of tool 't' must be a single value, not a mapping", {0}, 1},

    /* ---- confirm --------------------------------------------------------- */
    {"confirm on read", T "  t:\n    effect: read\n    confirm: once\n    description: x\n", 0,
     "m.yaml:6:5: error: confirm applies only to write tools, and tool 't' is read; remove confirm:", {0}, 1},
    {"confirm on destructive", T "  t:\n    effect: destructive\n    confirm: never\n    description: x\n", 0,
     "m.yaml:6:5: error: confirm applies only to write tools, and tool 't' is destructive", {"approved on every call"}, 1},
    {"confirm misspelt", T "  t:\n    effect: write\n    confirm: nevr\n    description: x\n", 0,
     "m.yaml:6:14: error: unknown confirm 'nevr' for tool 't'; did you mean 'never'? (expected once or never)", {0}, 1},
    {"confirm unknown", T "  t:\n    effect: write\n    confirm: always\n    description: x\n", 0,
     "m.yaml:6:14: error: unknown confirm 'always' for tool 't' (expected once or never)", {0}, 1},

    /* ---- booleans -------------------------------------------------------- */
    {"pinned quoted", T "  t:\n    effect: read\n    description: x\n    pinned: \"true\"\n", 0,
     "m.yaml:7:13: error: 'pinned' of tool 't' must be a YAML boolean, not the string \"true\"", {"remove the quotes"}, 1},
    {"pinned single-quoted", T "  t:\n    effect: read\n    description: x\n    pinned: 'false'\n", 0,
     "m.yaml:7:13: error: 'pinned' of tool 't' must be a YAML boolean, not the string \"false\"", {0}, 1},
    {"pinned yes", T "  t:\n    effect: read\n    description: x\n    pinned: yes\n", 0,
     "m.yaml:7:13: error: 'pinned' of tool 't' must be true or false, not 'yes'", {0}, 1},
    {"pinned a number", T "  t:\n    effect: read\n    description: x\n    pinned: 1\n", 0,
     "m.yaml:7:13: error: 'pinned' of tool 't' must be true or false, not '1'", {0}, 1},
    {"pinned empty", T "  t:\n    effect: read\n    description: x\n    pinned:\n", 0,
     "m.yaml:7:12: error: 'pinned' of tool 't' has no value", {0}, 1},
    {"answers_directly quoted", T "  t:\n    effect: read\n    description: x\n    answers_directly: \"yes\"\n", 0,
     "m.yaml:7:23: error: 'answers_directly' of tool 't' must be a YAML boolean, not the string \"yes\"", {0}, 1},

    /* ---- loop: where a tool runs ------------------------------------------ */
    {"loop misspelt", T "  t:\n    effect: read\n    description: x\n    loop: onw\n", 0,
     "m.yaml:7:11: error: unknown loop 'onw' for tool 't'; did you mean 'own'? (expected pool, own or both)", {0}, 1},
    {"loop a word of its own", T "  t:\n    effect: read\n    description: x\n    loop: host\n", 0,
     "m.yaml:7:11: error: unknown loop 'host' for tool 't' (expected pool, own or both)", {0}, 1},
    {"loop empty", T "  t:\n    effect: read\n    description: x\n    loop:\n", 0,
     "m.yaml:7:10: error: loop of tool 't' has no value; expected pool, own or both", {0}, 1},
    {"loop a sequence", T "  t:\n    effect: read\n    description: x\n    loop: [own]\n", 0,
     "m.yaml:7:11: error: 'loop' of tool 't' must be a single value", {0}, 1},
    {"pinned outside the pool", T "  t:\n    effect: read\n    pinned: true\n    description: x\n    loop: own\n", 0,
     "m.yaml:6:5: error: pinned keeps a tool on the host's shortlist, and tool 't' is not in the pool (loop: own); remove pinned: or set loop: both", {0}, 1},

    /* ---- answers_directly and the gate ----------------------------------- */
    {"answers_directly on a confirm-once write (default)", T "  t:\n    effect: write\n    description: x\n    answers_directly: true\n", 0,
     "m.yaml:7:5: error: answers_directly is not allowed on tool 't', a write that asks for confirmation (confirm: once by default)", {"set confirm: never"}, 1},
    {"answers_directly on a confirm-once write (explicit)", T "  t:\n    effect: write\n    confirm: once\n    description: x\n    answers_directly: true\n", 0,
     "m.yaml:8:5: error: answers_directly is not allowed on tool 't', a write that asks for confirmation (confirm: once)", {0}, 1},
    {"answers_directly on a destructive tool", T "  t:\n    effect: destructive\n    description: x\n    answers_directly: True\n", 0,
     "m.yaml:7:5: error: answers_directly is not allowed on destructive tool 't'", {"remove it"}, 1},
};

START_TEST(test_bad_input)
{
    const bad_case *c = &bad_cases[_i];
    size_t len = c->len ? c->len : strlen(c->yaml), errors = 0, k;
    char *text = NULL;
    toolgov__manifest *m = tg_load(c->yaml, len, &text, &errors);

    ck_assert_msg(m == NULL, "case '%s': accepted", c->what);
    ck_assert_msg(strncmp(text, c->first, strlen(c->first)) == 0,
                  "case '%s': first diagnostic\n  got:  %s\n  want: %s", c->what, text, c->first);
    for (k = 0; k < 3 && c->words[k]; k++) {
        const char *eol = strchr(text, '\n');
        ck_assert_msg(eol && memmem(text, (size_t)(eol - text), c->words[k], strlen(c->words[k])),
                      "case '%s': first line lacks '%s':\n%s", c->what, c->words[k], text);
    }
    ck_assert_msg(errors == c->errors, "case '%s': %zu errors, want %zu:\n%s", c->what, errors,
                  c->errors, text);
    free(text);
}
END_TEST

/* Every C keyword (C89 to C23) is refused as a plugin name and as a tool
** name; every C++ keyword as a plugin name, while a tool name may be one
** (it only ever stands inside generated identifiers; redis's MCP server has
** a tool named delete). The refusal depends on sorted tables and a shape
** filter: check all. */
START_TEST(test_every_keyword)
{
    static const char *const c_kw[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
        "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
        "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
        "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
        "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert",
        "thread_local", "true", "typeof", "typeof_unqual"};
    static const char *const cxx_kw[] = {
        "and", "and_eq", "asm", "bitand", "bitor", "catch",
        "char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield",
        "compl", "concept", "const_cast", "consteval", "constinit", "decltype",
        "delete", "dynamic_cast", "explicit", "export", "friend", "mutable",
        "namespace", "new", "noexcept", "not", "not_eq", "operator", "or",
        "or_eq", "private", "protected", "public", "reinterpret_cast", "requires",
        "static_cast", "template", "this", "throw",
        "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq"};
    size_t i;
    for (i = 0; i < sizeof c_kw / sizeof c_kw[0] + sizeof cxx_kw / sizeof cxx_kw[0]; i++) {
        int is_c = i < sizeof c_kw / sizeof c_kw[0];
        const char *kw = is_c ? c_kw[i] : cxx_kw[i - sizeof c_kw / sizeof c_kw[0]];
        char y[256], *text;
        size_t errors;
        toolgov__manifest *m;
        snprintf(y, sizeof y, "name: %s\n", kw);
        ck_assert_msg(tg_load(y, strlen(y), &text, &errors) == NULL, "plugin '%s' accepted", kw);
        ck_assert_msg(strstr(text, is_c ? "is a C keyword" : "is a C++ keyword") != NULL, "%s: %s",
                      kw, text);
        free(text);
        snprintf(y, sizeof y, T "  %s:\n    effect: read\n    description: x\n", kw);
        m = tg_load(y, strlen(y), &text, &errors);
        if (is_c) {
            ck_assert_msg(m == NULL, "tool '%s' accepted", kw);
            ck_assert_msg(strstr(text, "m.yaml:4:3: error: tool name '") == text &&
                              strstr(text, "is a C keyword") != NULL,
                          "%s: %s", kw, text);
        } else {
            ck_assert_msg(m != NULL, "tool '%s' refused: %s", kw, text);
            toolgov__manifest_free(m);
        }
        free(text);
    }
    /* Near misses are fine names. */
    {
        static const char *const ok[] = {"integer", "classes", "do_it", "new_event", "tru"};
        for (i = 0; i < 5; i++) {
            char y[256], *text;
            size_t errors;
            toolgov__manifest *m;
            snprintf(y, sizeof y, T "  %s:\n    effect: read\n    description: x\n", ok[i]);
            m = tg_load(y, strlen(y), &text, &errors);
            ck_assert_msg(m != NULL, "'%s' refused: %s", ok[i], text);
            toolgov__manifest_free(m);
            free(text);
        }
    }
}
END_TEST

/* Sizes: the limits are inclusive, one byte more is an error. */
static char *tool_with(const char *key, size_t n, char fill)
{
    size_t cap = n + 256;
    char *y = malloc(cap);
    size_t o;
    ck_assert_ptr_nonnull(y);
    o = (size_t)snprintf(y, cap, T "  t:\n    effect: read\n    description: x\n    %s: ", key);
    if (strcmp(key, "description") == 0)
        o = (size_t)snprintf(y, cap, T "  t:\n    effect: read\n    %s: ", key);
    memset(y + o, fill, n);
    y[o + n] = '\n';
    y[o + n + 1] = '\0';
    return y;
}

START_TEST(test_length_limits)
{
    static const struct { const char *key; size_t limit; unsigned line, col; } k[] = {
        {"description", TOOLGOV_DESCRIPTION_MAX, 6, 18},
        {"guidance", TOOLGOV_GUIDANCE_MAX, 7, 15},
    };
    size_t i;
    for (i = 0; i < 2; i++) {
        char *y = tool_with(k[i].key, k[i].limit, 'a'), *text, want[160];
        size_t errors;
        toolgov__manifest *m = tg_load(y, strlen(y), &text, &errors);
        ck_assert_msg(m != NULL, "%s of %zu bytes refused:\n%s", k[i].key, k[i].limit, text);
        ck_assert_uint_eq(strcmp(k[i].key, "guidance") == 0 ? m->tools[0].guidance_len
                                                            : m->tools[0].description_len,
                          k[i].limit);
        toolgov__manifest_free(m);
        free(text);
        free(y);

        y = tool_with(k[i].key, k[i].limit + 1, 'a');
        m = tg_load(y, strlen(y), &text, &errors);
        ck_assert_ptr_null(m);
        snprintf(want, sizeof want, "m.yaml:%u:%u: error: %s of tool 't' is %zu bytes; the limit is %zu",
                 k[i].line, k[i].col, k[i].key, k[i].limit + 1, k[i].limit);
        ck_assert_msg(strncmp(text, want, strlen(want)) == 0, "got %s want %s", text, want);
        ck_assert_uint_eq(errors, 1);
        free(text);
        free(y);
    }
}
END_TEST

START_TEST(test_file_too_big)
{
    size_t len = TOOLGOV_MANIFEST_MAX_BYTES + 1;
    char *y = malloc(len), *text;
    size_t errors;
    ck_assert_ptr_nonnull(y);
    memset(y, '#', len);
    ck_assert_ptr_null(tg_load(y, len, &text, &errors));
    ck_assert_str_eq(text, "m.yaml:1:1: error: the manifest is 16777217 bytes; the limit is 16 MiB "
                           "(16777216 bytes)\n");
    free(text);
    free(y);
}
END_TEST

/* A hostile nesting depth is refused at its first level, in linear time
** and without recursion (100,000 levels would overflow a recursive walk). */
START_TEST(test_deep_nesting)
{
    size_t depth = 100000, i, o = 0;
    char *y = malloc(2 * depth + 256), *text;
    size_t errors;
    ck_assert_ptr_nonnull(y);
    o += (size_t)sprintf(y, "name: a\ndescription: ");
    for (i = 0; i < depth; i++)
        y[o++] = '[';
    for (i = 0; i < depth; i++)
        y[o++] = ']';
    y[o++] = '\n';
    ck_assert_ptr_null(tg_load(y, o, &text, &errors));
    ck_assert_msg(errors == 2, "%s", text);
    ck_assert_msg(strncmp(text, "m.yaml:2:1: error: unknown key 'description' at the top level", 60) == 0,
                  "%s", text);
    /* Skipping stops at 64 levels: libyaml's scanner slows down with depth. */
    ck_assert_ptr_nonnull(strstr(text, "\nm.yaml:2:78: error: collections nested more than 64 deep"));
    free(text);

    o = (size_t)sprintf(y, T "  t:\n    effect: read\n    description: ");
    for (i = 0; i < depth; i++)
        y[o++] = '{';
    for (i = 0; i < depth; i++)
        y[o++] = '}';
    y[o++] = '\n';
    ck_assert_ptr_null(tg_load(y, o, &text, &errors));
    ck_assert_uint_eq(errors, 2);
    ck_assert_msg(strstr(text, "m.yaml:6:18: error: 'description' of tool 't' must be a single value, "
                               "not a mapping") == text, "%s", text);
    free(text);
    free(y);
}
END_TEST

/* ---- valid manifests --------------------------------------------------- */

static toolgov__manifest *load_ok(const char *yaml, size_t len)
{
    char *text;
    size_t errors;
    toolgov__manifest *m = tg_load(yaml, len ? len : strlen(yaml), &text, &errors);
    ck_assert_msg(m != NULL, "refused:\n%s", text);
    ck_assert_uint_eq(errors, 0);
    ck_assert_str_eq(text, "");
    free(text);
    return m;
}

START_TEST(test_spec_example)
{
    static const char y[] =
        "name: calendar\n"
        "provides:\n"
        "  - tool\n"
        "tools:\n"
        "  calendar_lookup:\n"
        "    effect: read\n"
        "    description: Find events in the user's calendar for a day or a range.\n"
        "  create_reminder:\n"
        "    effect: write\n"
        "    confirm: once\n"
        "    description: Create one reminder at a date and time.\n"
        "  daily_plan:\n"
        "    effect: read\n"
        "    description: Summarise the whole day.\n"
        "    pinned: true\n"
        "    answers_directly: true\n"
        "    guidance: >-\n"
        "      For a whole-day question call daily_plan; it already merges calendar,\n"
        "      tasks and bills.\n";
    toolgov__manifest *m = load_ok(y, 0);
    ck_assert_str_eq(m->name, "calendar");
    ck_assert_uint_eq(m->name_at.line, 1);
    ck_assert_uint_eq(m->name_at.col, 7);
    ck_assert_uint_eq(m->provides_count, 1);
    ck_assert_str_eq(m->provides[0], "tool");
    ck_assert_uint_eq(m->provides_at[0].line, 3);
    ck_assert_uint_eq(m->provides_at[0].col, 5);
    ck_assert_uint_eq(m->tool_count, 3);
    ck_assert_str_eq(m->tools[0].name, "calendar_lookup");
    ck_assert_uint_eq(m->tools[0].at.line, 5);
    ck_assert_uint_eq(m->tools[0].at.col, 3);
    ck_assert_int_eq(m->tools[0].effect, TOOLGOV_EFFECT_READ);
    ck_assert_uint_eq(m->tools[0].effect_at.line, 6);
    ck_assert_uint_eq(m->tools[0].effect_at.col, 13);
    ck_assert_int_eq(m->tools[0].confirm, TOOLGOV_CONFIRM_NEVER);
    ck_assert_str_eq(m->tools[0].guidance, "");
    ck_assert_int_eq(m->tools[1].effect, TOOLGOV_EFFECT_WRITE);
    ck_assert_int_eq(m->tools[1].confirm, TOOLGOV_CONFIRM_ONCE);
    ck_assert_int_eq(m->tools[1].confirm_given, 1);
    ck_assert_int_eq(m->tools[2].pinned, 1);
    ck_assert_int_eq(m->tools[2].answers_directly, 1);
    ck_assert_str_eq(m->tools[2].guidance,
                     "For a whole-day question call daily_plan; it already merges calendar, tasks and bills.");
    ck_assert_int_eq(toolgov__manifest_find(m, "create_reminder"), 1);
    ck_assert_int_eq(toolgov__manifest_find(m, "daily_plan"), 2);
    ck_assert_int_eq(toolgov__manifest_find(m, "daily"), -1);
    ck_assert_int_eq(toolgov__manifest_find(m, ""), -1);
    toolgov__manifest_free(m);
}
END_TEST

/* loop: pool by default, own and both as bits; pinned is fine with both,
** answers_directly with own (the child run ends on it). */
START_TEST(test_loop_words)
{
    static const char y[] =
        "name: mail\n"
        "provides: [tool]\n"
        "tools:\n"
        "  a:\n    effect: read\n    description: x\n"
        "  b:\n    effect: read\n    description: x\n    loop: pool\n"
        "  c:\n    effect: write\n    description: x\n    loop: own\n"
        "  d:\n    effect: read\n    description: x\n    loop: both\n    pinned: true\n"
        "  e:\n    effect: read\n    description: x\n    loop: own\n    answers_directly: true\n"
        "  f:\n    effect: read\n    description: x\n    loop: own\n    pinned: false\n";
    toolgov__manifest *m = load_ok(y, 0);
    ck_assert_uint_eq(m->tool_count, 6);
    ck_assert_int_eq(m->tools[0].loop, TOOLGOV__LOOP_POOL);
    ck_assert_int_eq(m->tools[1].loop, TOOLGOV__LOOP_POOL);
    ck_assert_int_eq(m->tools[2].loop, TOOLGOV__LOOP_OWN);
    ck_assert_int_eq(m->tools[3].loop, TOOLGOV__LOOP_BOTH);
    ck_assert_int_eq(m->tools[4].loop, TOOLGOV__LOOP_OWN);
    ck_assert_int_eq(m->tools[5].loop, TOOLGOV__LOOP_OWN);
    toolgov__manifest_free(m);
}
END_TEST

START_TEST(test_crlf_and_bom)
{
    static const char y[] = "\xef\xbb\xbfname: p\r\nprovides: [tool]\r\ntools:\r\n"
                            "  t:\r\n    effect: write\r\n    description: \"two\\nlines\"\r\n";
    toolgov__manifest *m = load_ok(y, 0);
    ck_assert_uint_eq(m->name_at.col, 7); /* the BOM is not a column */
    ck_assert_uint_eq(m->tools[0].at.line, 4);
    ck_assert_uint_eq(m->tools[0].at.col, 3);
    ck_assert_str_eq(m->tools[0].description, "two\nlines");
    toolgov__manifest_free(m);
}
END_TEST

START_TEST(test_boolean_forms)
{
    static const char *const forms[] = {"true", "True", "TRUE", "false", "False", "FALSE"};
    size_t i;
    for (i = 0; i < 6; i++) {
        char y[256];
        toolgov__manifest *m;
        snprintf(y, sizeof y, T "  t:\n    effect: read\n    description: x\n    pinned: %s\n"
                                "    answers_directly: %s\n", forms[i], forms[i]);
        m = load_ok(y, 0);
        ck_assert_int_eq(m->tools[0].pinned, i < 3);
        ck_assert_int_eq(m->tools[0].answers_directly, i < 3);
        toolgov__manifest_free(m);
    }
}
END_TEST

START_TEST(test_gate_rules_allowed)
{
    /* answers_directly where the gate is "never", and false anywhere. */
    toolgov__manifest *m = load_ok(T
        "  r:\n    effect: read\n    description: x\n    answers_directly: true\n"
        "  w:\n    effect: write\n    confirm: never\n    description: x\n    answers_directly: true\n"
        "  d:\n    effect: destructive\n    description: x\n    answers_directly: false\n"
        "  o:\n    effect: write\n    description: x\n    answers_directly: false\n", 0);
    ck_assert_uint_eq(m->tool_count, 4);
    ck_assert_int_eq(m->tools[1].confirm, TOOLGOV_CONFIRM_NEVER);
    ck_assert_int_eq(m->tools[2].confirm, TOOLGOV_CONFIRM_NEVER); /* destructive */
    ck_assert_int_eq(m->tools[3].confirm, TOOLGOV_CONFIRM_ONCE);  /* the default */
    ck_assert_int_eq(m->tools[3].confirm_given, 0);
    toolgov__manifest_free(m);
}
END_TEST

START_TEST(test_upstream_keys)
{
    /* A tool of an upstream MCP server (toolgov-mcp --upstreams): its pin
    ** and the server's own name for it are kept; absent, both are NULL. */
    toolgov__manifest *m = load_ok(T
        "  get_sum:\n    effect: read\n    description: x\n    upstream_name: get-sum\n"
        "    pin: sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
        "  other:\n    effect: read\n    description: y\n"
        "  parts:\n    effect: read\n    description: z\n"
        "    pin: sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef;a=0123456789ab;d=0123456789ab;i=0123456789ab;o=0123456789ab\n", 0);
    ck_assert_uint_eq(m->tool_count, 3);
    ck_assert_str_eq(m->tools[2].pin, "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef;a=0123456789ab;d=0123456789ab;"
                                      "i=0123456789ab;o=0123456789ab");
    ck_assert_str_eq(m->tools[0].upstream_name, "get-sum");
    ck_assert_str_eq(m->tools[0].pin,
                     "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    ck_assert_ptr_null(m->tools[1].pin);
    ck_assert_ptr_null(m->tools[1].upstream_name);
    toolgov__manifest_free(m);
}
END_TEST

START_TEST(test_minimal_and_flow)
{
    toolgov__manifest *m = load_ok("name: a\n", 0);
    ck_assert_uint_eq(m->tool_count, 0);
    ck_assert_uint_eq(m->provides_count, 0);
    ck_assert_int_eq(toolgov__manifest_find(m, "x"), -1);
    toolgov__manifest_free(m);

    m = load_ok("{name: a, provides: [tool, skill], tools: {t: {effect: read, description: 'x y'}}}", 0);
    ck_assert_uint_eq(m->provides_count, 2);
    ck_assert_str_eq(m->tools[0].description, "x y");
    ck_assert_uint_eq(m->tools[0].at.line, 1);
    ck_assert_uint_eq(m->tools[0].at.col, 44);
    toolgov__manifest_free(m);

    /* provides without tools, tools: {} and a document marker are fine. */
    m = load_ok("---\nname: a\nprovides: [skill]\ntools: {}\n...\n", 0);
    ck_assert_uint_eq(m->tool_count, 0);
    toolgov__manifest_free(m);
}
END_TEST

/* Many tools: names are checked through a hash, order is kept. */
START_TEST(test_many_tools_order_and_find)
{
    size_t n = 5000, i, cap = n * 80 + 64, o;
    char *y = malloc(cap), name[32];
    toolgov__manifest *m;
    ck_assert_ptr_nonnull(y);
    o = (size_t)snprintf(y, cap, T);
    for (i = 0; i < n; i++)
        o += (size_t)snprintf(y + o, cap - o, "  tool_%zu:\n    effect: read\n    description: d%zu\n", i, i);
    m = load_ok(y, o);
    ck_assert_uint_eq(m->tool_count, n);
    for (i = 0; i < n; i += 97) {
        snprintf(name, sizeof name, "tool_%zu", i);
        ck_assert_str_eq(m->tools[i].name, name);
        ck_assert_int_eq(toolgov__manifest_find(m, name), (long)i);
        ck_assert_uint_eq(m->tools[i].at.line, 4 + 3 * (unsigned)i);
    }
    toolgov__manifest_free(m);
    free(y);
}
END_TEST

/* ---- all errors of a run ------------------------------------------------ */

START_TEST(test_all_errors_reported)
{
    static const char y[] =
        "name: Cal\n"                       /* 1: bad name */
        "provides: [tool]\n"
        "tools:\n"
        "  lookup:\n"
        "    effect: raed\n"                /* 5: misspelt effect */
        "    description: x\n"
        "  remind:\n"
        "    effect: write\n"
        "    confirm: sometimes\n"          /* 9: bad confirm */
        "    description: y\n"
        "  purge:\n"
        "    effect: destructive\n"
        "    description: z\n"
        "    answers_directly: true\n"      /* 14: not allowed */
        "  fine:\n"
        "    effect: read\n"
        "    description: ok\n"
        "    pinned: \"true\"\n"            /* 18: string, not boolean */
        "extra: 1\n";                       /* 19: unknown key */
    char *text;
    size_t errors;
    ck_assert_ptr_null(tg_load(y, strlen(y), &text, &errors));
    ck_assert_uint_eq(errors, 6);
    ck_assert_ptr_nonnull(strstr(text, "m.yaml:1:7: error: plugin name 'Cal'"));
    ck_assert_ptr_nonnull(strstr(text, "m.yaml:5:13: error: unknown effect 'raed' for tool 'lookup'; did you mean 'read'?"));
    ck_assert_ptr_nonnull(strstr(text, "m.yaml:9:14: error: unknown confirm 'sometimes' for tool 'remind'"));
    ck_assert_ptr_nonnull(strstr(text, "m.yaml:14:5: error: answers_directly is not allowed on destructive tool 'purge'"));
    ck_assert_ptr_nonnull(strstr(text, "m.yaml:18:13: error: 'pinned' of tool 'fine' must be a YAML boolean"));
    ck_assert_ptr_nonnull(strstr(text, "m.yaml:19:1: error: unknown key 'extra' at the top level"));
    free(text);
}
END_TEST

START_TEST(test_duplicate_notes)
{
    char *text;
    size_t errors;
    ck_assert_ptr_null(tg_load(T "  t:\n    effect: read\n    description: x\n  t:\n    effect: read\n    description: x\n",
                               0 + strlen(T "  t:\n    effect: read\n    description: x\n  t:\n    effect: read\n    description: x\n"),
                               &text, &errors));
    ck_assert_str_eq(text, "m.yaml:7:3: error: duplicate tool 't'; each tool is declared once: remove or rename this one\n"
                           "m.yaml:4:3: note: 't' first declared here\n");
    free(text);
}
END_TEST

/* Nothing is handed out from a manifest with an error, and the load after
** it starts clean (no state kept between loads). */
START_TEST(test_no_state_between_loads)
{
    char *text;
    size_t errors;
    toolgov__manifest *m;
    ck_assert_ptr_null(tg_load("name: Bad\n", 10, &text, &errors));
    free(text);
    m = load_ok("name: good\n", 0);
    ck_assert_str_eq(m->name, "good");
    toolgov__manifest_free(m);
    toolgov__manifest_free(NULL);
    ck_assert_int_eq(toolgov__manifest_find(NULL, "x"), -1);
}
END_TEST

/* Loading from a file: missing file, directory, the happy path. */
START_TEST(test_load_file)
{
    char *dir = tg_tmpdir(), path[512], *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    toolgov__diag d;
    toolgov__manifest *m;

    toolgov__diag_init(&d, f, 0);
    snprintf(path, sizeof path, "%s/none.yaml", dir);
    ck_assert_ptr_null(toolgov__manifest_load(path, &d));
    ck_assert_ptr_null(toolgov__manifest_load(dir, &d));
    snprintf(path, sizeof path, "%s/ok.yaml", dir);
    tg_write_file(path, "name: ok\n", 9);
    m = toolgov__manifest_load(path, &d);
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(m->path, path);
    toolgov__manifest_free(m);
    fclose(f);
    ck_assert_uint_eq(d.errors, 2);
    ck_assert_ptr_nonnull(strstr(buf, "none.yaml: error: cannot open the manifest: No such file or directory\n"));
    ck_assert_ptr_nonnull(strstr(buf, ": error: is a directory, not a manifest file\n"));
    free(buf);
    tg_rm_rf(dir);
    free(dir);
}
END_TEST

/* Byte offsets to line:column, as libyaml counts: the conversion used for
** the byte scan and for reader errors libyaml reports as offsets. */
START_TEST(test_offsets_to_line_col)
{
    static const unsigned char t[] = "\xef\xbb\xbf" "ab\r\n"   /* BOM, CRLF */
                                     "c\xc3\xa9" "d\r"            /* 2-byte char, lone CR */
                                     "e\xe2\x80\xa8"              /* U+2028 ends a line */
                                     "f\xf0\x9f\x8e\x89g\n"     /* 4-byte char */
                                     "h";
    static const struct { size_t off; unsigned line, col; } want[] = {
        {0, 1, 1}, {3, 1, 1}, {4, 1, 2}, {5, 1, 3}, {7, 2, 1}, {8, 2, 2}, {10, 2, 3},
        {11, 2, 4}, {12, 3, 1}, {13, 3, 2}, {16, 4, 1}, {17, 4, 2}, {21, 4, 3}, {23, 5, 1},
    };
    size_t i, len = sizeof t - 1;
    toolgov__text_pos p;
    toolgov__text_pos_init(&p, t, len);
    for (i = 0; i < sizeof want / sizeof want[0]; i++) {
        toolgov__mark m = toolgov__text_pos_to(&p, t, len, want[i].off);
        ck_assert_msg(m.line == want[i].line && m.col == want[i].col,
                      "offset %zu: %u:%u, want %u:%u", want[i].off, m.line, m.col, want[i].line,
                      want[i].col);
    }
    /* Past the end clamps to the end. */
    ck_assert_uint_eq(toolgov__text_pos_to(&p, t, len, len + 100).col, 2);
}
END_TEST

START_TEST(test_show_excerpt)
{
    char out[TOOLGOV_SHOW_MAX], long_text[200];
    ck_assert_str_eq(toolgov__text_show(out, "a\tb\x01", 4), "a\\x09b\\x01");
    memset(long_text, 'x', sizeof long_text);
    ck_assert_uint_eq(strlen(toolgov__text_show(out, long_text, sizeof long_text)), 63);
    ck_assert_str_eq(out + 60, "...");
}
END_TEST

/* A handler stub's comment holds the description's first line: no
** comment may close or open inside it (-Wcomment, a glob in a description). */
START_TEST(test_stub_comment_holds)
{
    static const char yaml[] =
        "name: files\nprovides: [tool]\ntools:\n"
        "  a:\n    effect: read\n    description: \"Find files such as src/**/*.c\"\n"
        "  b:\n    effect: read\n    description: \"x/*y*/z and a*/ and /*\"\n"
        "  c:\n    effect: read\n    description: \"ends in a slash /\"\n";
    char *text, out[1024];
    size_t i;
    toolgov__manifest *m = tg_load(yaml, sizeof yaml - 1, &text, NULL);
    ck_assert_msg(m != NULL, "%s", text);
    for (i = 0; i < m->tool_count; i++) {
        const char *open, *close;
        size_t n = toolgov__handler_stub(out, sizeof out, m, &m->tools[i]);
        ck_assert_uint_lt(n, sizeof out);
        open = strstr(out, "/* ");
        ck_assert_ptr_nonnull(open);
        close = strstr(open + 2, "*/");
        ck_assert_ptr_nonnull(close);
        ck_assert_msg(close[-1] == ' ' && close[2] == '\n', "%s", out);
        ck_assert_msg(memmem(open + 2, (size_t)(close - open - 2), "/*", 2) == NULL, "%s", out);
    }
    toolgov__manifest_free(m);
    free(text);
}
END_TEST

static Suite *manifest_suite(void)
{
    Suite *s = suite_create("manifest");
    TCase *tc = tcase_create("bad input");
    tcase_add_loop_test(tc, test_bad_input, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
    tcase_add_test(tc, test_length_limits);
    tcase_add_test(tc, test_upstream_keys);
    tcase_add_test(tc, test_stub_comment_holds);
    tcase_add_test(tc, test_every_keyword);
    tcase_add_test(tc, test_file_too_big);
    tcase_add_test(tc, test_deep_nesting);
    tcase_add_test(tc, test_all_errors_reported);
    tcase_add_test(tc, test_duplicate_notes);
    suite_add_tcase(s, tc);
    tc = tcase_create("valid");
    tcase_add_test(tc, test_spec_example);
    tcase_add_test(tc, test_loop_words);
    tcase_add_test(tc, test_crlf_and_bom);
    tcase_add_test(tc, test_boolean_forms);
    tcase_add_test(tc, test_gate_rules_allowed);
    tcase_add_test(tc, test_minimal_and_flow);
    tcase_add_test(tc, test_many_tools_order_and_find);
    tcase_add_test(tc, test_no_state_between_loads);
    tcase_add_test(tc, test_load_file);
    suite_add_tcase(s, tc);
    tc = tcase_create("text");
    tcase_add_test(tc, test_offsets_to_line_col);
    tcase_add_test(tc, test_show_excerpt);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(manifest_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
