/* SPDX-License-Identifier: MIT */
/*
** test_schema.c: the parameters compiler (gen/schema.c) as a library: every
** rule of the subset with the exact FILE:LINE:COL of its first error, the
** compiled node model, C names, defaults, formats, exact integers and the
** canonical text. Schemas are given as JSON text (gen/schema_json.c), whose
** marks are line:column of that text; the same rules through a manifest's
** YAML are covered in test_manifest.c.
*/
#define _GNU_SOURCE /* memmem */
#include "gen_test_util.h"

#include "schema/schema.h"
#include "schema/schema_c.h"

#include "../args/fixture_reminder.h"

typedef struct sfix {
    toolgov__arena arena;
    toolgov__diag d;
    toolgov__schema_ctx cx;
    FILE *f;
    char *buf;
    size_t size;
} sfix;

static void sfix_open(sfix *s)
{
    memset(s, 0, sizeof *s);
    toolgov__arena_init(&s->arena);
    s->f = open_memstream(&s->buf, &s->size);
    ck_assert_ptr_nonnull(s->f);
    toolgov__diag_init(&s->d, s->f, 0);
    s->cx.arena = &s->arena;
    s->cx.d = &s->d;
    s->cx.path = "s.json";
    s->cx.tool = "t";
}

/* Compile `json`; returns the root (NULL on errors); *text gets every
** diagnostic line (malloc'd). */
static toolgov__snode *sfix_compile(sfix *s, const char *json, char **text)
{
    toolgov__jval *v = NULL;
    toolgov__snode *n = NULL;
    toolgov__mark at = {1, 1};
    if (toolgov__jtext_parse(&s->cx, json, strlen(json), &v) == 0)
        (void)toolgov__schema_compile(&s->cx, v, at, &n);
    fflush(s->f);
    *text = strdup(s->buf ? s->buf : "");
    return n;
}

static void sfix_close(sfix *s)
{
    fclose(s->f);
    free(s->buf);
    toolgov__arena_free(&s->arena);
}

typedef struct bad_case {
    const char *what;
    const char *json;
    const char *first;    /* exact start of the first diagnostic line */
    const char *words[3]; /* further text that line must contain */
    size_t errors;
} bad_case;

#define O "{\"type\":\"object\",\"properties\":"

static const bad_case bad_cases[] = {
    /* ---- the root ------------------------------------------------------- */
    {"root not a mapping", "[1]", "s.json:1:1: error: the schema of the parameters of tool 't' must be a mapping", {"not a sequence"}, 1},
    {"root without type", "{\"properties\":{}}", "s.json:1:1: error: the parameters of tool 't' must say type: object", {"add type: object"}, 1},
    {"root of type string", "{\"type\":\"string\"}", "s.json:1:9: error: the parameters of tool 't' must be of type object", {"not string"}, 1},
    {"root anyOf", "{\"anyOf\":[{\"type\":\"object\"}],\"type\":\"object\"}", "s.json:1:2: error: the parameters of tool 't' cannot use anyOf at the top", {0}, 1},

    /* ---- keywords ------------------------------------------------------- */
    {"propertys", "{\"type\":\"object\",\"propertys\":{}}", "s.json:1:18: error: unknown keyword 'propertys' in the parameters of tool 't'; did you mean 'properties'?", {0}, 1},
    {"minLenght", O "{\"a\":{\"type\":\"string\",\"minLenght\":1}}}", "s.json:1:53: error: unknown keyword 'minLenght' in property 'a' of tool 't'; did you mean 'minLength'?", {0}, 1},
    {"requried", "{\"type\":\"object\",\"requried\":[]}", "s.json:1:18: error: unknown keyword 'requried'", {"did you mean 'required'?"}, 1},
    {"case slip", O "{\"a\":{\"type\":\"string\",\"MaxLength\":1}}}", "s.json:1:53: error: unknown keyword 'MaxLength'", {"did you mean 'maxLength'?"}, 1},
    {"unknown far", O "{\"a\":{\"type\":\"string\",\"colour\":1}}}", "s.json:1:53: error: unknown keyword 'colour' in property 'a'", {"a schema takes type, properties"}, 1},
    {"pattern", O "{\"a\":{\"type\":\"string\",\"pattern\":\"^x\"}}}", "s.json:1:53: error: keyword 'pattern' (in property 'a' of tool 't') is not supported; use enum or format", {0}, 1},
    {"$ref", O "{\"a\":{\"$ref\":\"#/$defs/x\"}}}", "s.json:1:37: error: keyword '$ref' (in property 'a' of tool 't') is not supported; write the referenced schema out in place", {0}, 1},
    {"$ref to a property", O "{\"a\":{\"type\":\"string\"},\"b\":{\"$ref\":\"#/properties/a\"}}}", "s.json:1:59: error: keyword '$ref' (in property 'b' of tool 't') is not supported; write the referenced schema out in place (here '#/properties/a')", {0}, 1},
    {"propertyNames of a record", O "{\"h\":{\"type\":\"object\",\"propertyNames\":{\"type\":\"string\"}}}}", "s.json:1:53: error: keyword 'propertyNames' (in property 'h' of tool 't') is not supported; propertyNames: {type: string} says nothing (every member name is a string): remove it", {0}, 1},
    {"propertyNames", O "{\"h\":{\"type\":\"object\",\"propertyNames\":{\"maxLength\":3}}}}", "s.json:1:53: error: keyword 'propertyNames' (in property 'h' of tool 't') is not supported; check the names in the handler", {0}, 1},
    {"allOf", O "{\"a\":{\"allOf\":[]}}}", "s.json:1:37: error: keyword 'allOf'", {"merge the schemas into one"}, 1},
    {"const", O "{\"a\":{\"const\":1}}}", "s.json:1:37: error: keyword 'const'", {"use enum with the one value"}, 1},
    {"nullable", O "{\"a\":{\"type\":\"string\",\"nullable\":true}}}", "s.json:1:53: error: keyword 'nullable'", {"type: [string, \"null\"]"}, 1},
    {"$defs at the root", "{\"type\":\"object\",\"$defs\":{}}", "s.json:1:18: error: keyword '$defs' (in the parameters of tool 't') is not supported", {0}, 1},
    {"duplicate keyword", "{\"type\":\"object\",\"type\":\"object\"}", "s.json:1:18: error: duplicate key 'type'; keep one", {0}, 1},

    /* ---- type ----------------------------------------------------------- */
    {"type misspelt", O "{\"a\":{\"type\":\"strng\"}}}", "s.json:1:44: error: unknown type 'strng' for property 'a' of tool 't'; did you mean 'string'?", {0}, 1},
    {"type int", O "{\"a\":{\"type\":\"int\"}}}", "s.json:1:44: error: unknown type 'int'", {"did you mean 'integer'?"}, 1},
    {"type far", O "{\"a\":{\"type\":\"wibble\"}}}", "s.json:1:44: error: unknown type 'wibble'", {"expected object, string, integer"}, 1},
    {"type number value", O "{\"a\":{\"type\":3}}}", "s.json:1:44: error: type of property 'a' of tool 't' must be a type name", {"not a number"}, 1},
    {"type empty list", O "{\"a\":{\"type\":[]}}}", "s.json:1:44: error: type of property 'a' of tool 't' is an empty list", {0}, 1},
    {"type twice in a list", O "{\"a\":{\"type\":[\"string\",\"string\"]}}}", "s.json:1:54: error: type 'string' is listed twice", {0}, 1},

    /* ---- keywords on the wrong type ---------------------------------------- */
    {"minLength on integer", O "{\"a\":{\"type\":\"integer\",\"minLength\":1}}}", "s.json:1:54: error: minLength applies to strings, and property 'a' of tool 't' is integer", {"remove it or change the type"}, 1},
    {"items on string", O "{\"a\":{\"type\":\"string\",\"items\":{}}}}", "s.json:1:53: error: items applies to arrays", {0}, 1},
    {"properties on array", O "{\"a\":{\"type\":\"array\",\"properties\":{}}}}", "s.json:1:52: error: properties applies to objects", {0}, 1},
    {"minimum on string", O "{\"a\":{\"type\":\"string\",\"minimum\":1}}}", "s.json:1:53: error: minimum applies to integers and numbers", {0}, 1},
    {"enum on boolean", O "{\"a\":{\"type\":\"boolean\",\"enum\":[true]}}}", "s.json:1:54: error: enum applies to strings, integers and numbers", {0}, 1},
    {"checked format on integer", O "{\"a\":{\"type\":\"integer\",\"format\":\"date\"}}}", "s.json:1:54: error: format 'date' is checked on strings, and property 'a' of tool 't' is integer", {"remove it or change the type"}, 1},

    /* ---- values of keywords ------------------------------------------------ */
    {"properties not a mapping", "{\"type\":\"object\",\"properties\":[]}", "s.json:1:31: error: properties of the parameters of tool 't' must be a mapping", {0}, 1},
    {"property schema not a mapping", O "{\"a\":\"string\"}}", "s.json:1:36: error: the schema of property 'a' of tool 't' must be a mapping such as {type: string}, not a string", {0}, 1},
    {"required not a list", O "{\"a\":{}},\"required\":\"a\"}", "s.json:1:51: error: required of the parameters of tool 't' must be a list", {0}, 1},
    {"required names a missing property", O "{\"title\":{}},\"required\":[\"titel\"]}", "s.json:1:56: error: required names 'titel', which is not a property of the parameters of tool 't'; did you mean 'title'?", {0}, 1},
    {"required far", O "{\"a\":{}},\"required\":[\"zzz\"]}", "s.json:1:52: error: required names 'zzz', which is not a property", {"declare it under properties"}, 1},
    {"required without properties", "{\"type\":\"object\",\"required\":[\"a\"]}", "s.json:1:30: error: required names 'a', but the parameters of tool 't' declares no properties", {0}, 1},
    {"required twice", O "{\"a\":{}},\"required\":[\"a\",\"a\"]}", "s.json:1:56: error: 'a' is listed twice in required", {0}, 1},
    {"additionalProperties schema", "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}", "s.json:1:41: error: additionalProperties of the parameters of tool 't' must be true or false, not a mapping", {"not supported"}, 1},
    {"description number", O "{\"a\":{\"description\":3}}}", "s.json:1:51: error: description of property 'a' of tool 't' must be a string, not a number", {0}, 1},
    {"examples not a list", O "{\"a\":{\"examples\":\"x\"}}}", "s.json:1:48: error: examples of property 'a' of tool 't' must be a list", {0}, 1},
    {"items tuple", O "{\"a\":{\"type\":\"array\",\"items\":[{}]}}}", "s.json:1:60: error: items of property 'a' of tool 't' is a list of schemas (the tuple form)", {0}, 1},
    {"minLength negative", O "{\"a\":{\"type\":\"string\",\"minLength\":-1}}}", "s.json:1:65: error: minLength of property 'a' of tool 't' must be a whole number of 0 or more, not a number '-1'", {0}, 1},
    {"maxItems fraction", O "{\"a\":{\"type\":\"array\",\"maxItems\":1.5}}}", "s.json:1:63: error: maxItems of property 'a'", {"whole number"}, 1},
    {"minimum string", O "{\"a\":{\"type\":\"integer\",\"minimum\":\"0\"}}}", "s.json:1:64: error: minimum of property 'a' of tool 't' must be a number, not a string '0'", {0}, 1},
    {"exclusiveMinimum draft-04", O "{\"a\":{\"type\":\"integer\",\"minimum\":0,\"exclusiveMinimum\":true}}}", "s.json:1:85: error: exclusiveMinimum of property 'a' of tool 't' is a boolean (the draft-04 form)", {"exclusiveMinimum: <number>"}, 1},
    /* A misspelt format would check nothing, in silence: a near miss of a
    ** checked one is an error with the name it is close to. */
    {"format emial", O "{\"a\":{\"type\":\"string\",\"format\":\"emial\"}}}", "s.json:1:62: error: unknown format 'emial' for property 'a' of tool 't'; did you mean 'email'?", {"the checked formats are date, time, date-time, email and uri"}, 1},
    {"format Email", O "{\"a\":{\"type\":\"string\",\"format\":\"Email\"}}}", "s.json:1:62: error: unknown format 'Email'", {"did you mean 'email'?"}, 1},
    {"format url", O "{\"a\":{\"type\":\"string\",\"format\":\"url\"}}}", "s.json:1:62: error: unknown format 'url'", {"did you mean 'uri'?"}, 1},
    {"format datetime", O "{\"a\":{\"type\":\"string\",\"format\":\"datetime\"}}}", "s.json:1:62: error: unknown format 'datetime'", {"did you mean 'date-time'?"}, 1},
    {"format blank", O "{\"a\":{\"type\":\"string\",\"format\":\"date-time \"}}}", "s.json:1:62: error: unknown format 'date-time '", {"did you mean 'date-time'?"}, 1},
    {"format DATE-TIME", O "{\"a\":{\"type\":\"string\",\"format\":\"DATE-TIME\"}}}", "s.json:1:62: error: unknown format 'DATE-TIME'", {"did you mean 'date-time'?"}, 1},
    {"format tmie on integer", O "{\"a\":{\"type\":\"integer\",\"format\":\"tmie\"}}}", "s.json:1:63: error: unknown format 'tmie'", {"did you mean 'time'?"}, 1},
    {"format number", O "{\"a\":{\"type\":\"string\",\"format\":1}}}", "s.json:1:62: error: format of property 'a' of tool 't' must be a string", {0}, 1},
    {"anyOf empty", O "{\"a\":{\"anyOf\":[]}}}", "s.json:1:45: error: anyOf of property 'a' of tool 't' must be a non-empty list of schemas", {0}, 1},
    {"anyOf branch bad", O "{\"a\":{\"anyOf\":[{\"type\":\"string\",\"pattern\":\"x\"}]}}}", "s.json:1:63: error: keyword 'pattern' (in property 'a (anyOf 1)' of tool 't') is not supported", {0}, 1},

    /* ---- contradictions ----------------------------------------------------- */
    {"minimum > maximum", O "{\"n\":{\"type\":\"integer\",\"minimum\":10,\"maximum\":5}}}", "s.json:1:64: error: minimum (10) of property 'n' of tool 't' is greater than maximum (5); no value fits", {0}, 1},
    {"exclusive bounds meet", O "{\"n\":{\"type\":\"number\",\"exclusiveMinimum\":1,\"exclusiveMaximum\":1}}}", "s.json:1:72: error: exclusiveMinimum (1) of property 'n' of tool 't' is equal to exclusiveMaximum (1)", {0}, 1},
    {"minLength > maxLength", O "{\"s\":{\"type\":\"string\",\"minLength\":3,\"maxLength\":2}}}", "s.json:1:65: error: minLength (3) of property 's' of tool 't' is greater than its maxLength (2)", {0}, 1},
    {"minItems > maxItems", O "{\"l\":{\"type\":\"array\",\"minItems\":3,\"maxItems\":2}}}", "s.json:1:63: error: minItems (3) of property 'l' of tool 't' is greater than its maxItems (2)", {0}, 1},

    /* ---- enum ------------------------------------------------------------- */
    {"enum of the wrong type", O "{\"p\":{\"type\":\"string\",\"enum\":[\"a\",2]}}}", "s.json:1:65: error: enum value 2 of property 'p' of tool 't' is an integer, but the type is string", {"quote it"}, 1},
    {"enum strings for integer", O "{\"p\":{\"type\":\"integer\",\"enum\":[\"1\"]}}}", "s.json:1:62: error: enum value '1' of property 'p' of tool 't' is a string, but the type is integer", {"remove the quotes"}, 1},
    {"enum boolean", O "{\"p\":{\"enum\":[true]}}}", "s.json:1:45: error: enum of property 'p' of tool 't' holds a boolean", {"type: boolean"}, 1},
    {"enum float", O "{\"p\":{\"enum\":[1.5]}}}", "s.json:1:45: error: enum of property 'p' of tool 't' holds a number '1.5'", {0}, 1},
    {"enum of decimals on number", O "{\"p\":{\"type\":\"number\",\"enum\":[1,1.5]}}}", "s.json:1:63: error: enum of property 'p' of tool 't' holds a number '1.5'; enum values are strings or integers", {0}, 1},
    {"anyOf and oneOf", O "{\"p\":{\"anyOf\":[{}],\"oneOf\":[{}]}}}", "s.json:1:50: error: property 'p' of tool 't' has both anyOf and oneOf", {0}, 1},
    {"enum empty", O "{\"p\":{\"type\":\"string\",\"enum\":[]}}}", "s.json:1:60: error: enum of property 'p' of tool 't' must be a non-empty list", {0}, 1},
    {"enum duplicate", O "{\"p\":{\"type\":\"string\",\"enum\":[\"a\",\"a\"]}}}", "s.json:1:65: error: enum value a is listed twice", {0}, 1},
    {"enum C name clash", O "{\"p\":{\"type\":\"string\",\"enum\":[\"a-b\",\"a_b\"]}}}", "s.json:1:67: error: enum values 'a-b' and 'a_b' of property 'p' of tool 't' both become the C name 'a_b'", {"or keep them as they are in a raw value (anyOf: [{type: string, enum: [...]}]"}, 1},

    /* ---- defaults ----------------------------------------------------------- */
    {"default wrong type", O "{\"n\":{\"type\":\"integer\",\"default\":\"5\"}}}", "s.json:1:64: error: default of property 'n' of tool 't' does not satisfy its own schema: the value must be an integer, got \"5\"; change the default or the schema", {0}, 1},
    {"default out of range", O "{\"n\":{\"type\":\"integer\",\"maximum\":10,\"default\":11}}}", "s.json:1:77: error: default of property 'n' of tool 't' does not satisfy its own schema: the value must be at most 10, got 11", {0}, 1},
    {"default not in enum", O "{\"p\":{\"type\":\"string\",\"enum\":[\"low\",\"high\"],\"default\":\"normal\"}}}", "s.json:1:85: error: default of property 'p'", {"the value must be one of \"low\", \"high\", got \"normal\"; change the default"}, 1},
    {"default bad format", O "{\"d\":{\"type\":\"string\",\"format\":\"date\",\"default\":\"12/03/2026\"}}}", "s.json:1:79: error: default of property 'd'", {"must be a date (YYYY-MM-DD), got \"12/03/2026\""}, 1},
    {"default too long", O "{\"s\":{\"type\":\"string\",\"maxLength\":2,\"default\":\"h\xc3\xa9l\"}}}", "s.json:1:77: error: default of property 's'", {"the value must be at most 2 characters long, got 3"}, 1},
    {"default object missing required", O "{\"o\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}},\"required\":[\"x\"],\"default\":{}}}}", "s.json:1:117: error: default of property 'o'", {"/x is required"}, 1},
    {"default array item", O "{\"l\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"},\"default\":[1,\"2\"]}}}", "s.json:1:92: error: default of property 'l'", {"/1 must be an integer, got \"2\""}, 1},
    {"default extra member", O "{\"o\":{\"type\":\"object\",\"additionalProperties\":false,\"default\":{\"z\":1}}}}", "s.json:1:97: error: default of property 'o'", {"/z is not allowed (no properties are)"}, 1},
    {"default 2.5 for integer", O "{\"n\":{\"type\":\"integer\",\"default\":2.5}}}", "s.json:1:64: error: default of property 'n'", {"the value must be an integer, got 2.5"}, 1},


    /* ---- examples and enum values, judged by the runtime's validator -------- */
    {"example wrong type", O "{\"n\":{\"type\":\"integer\",\"examples\":[1,\"x\"]}}}", "s.json:1:68: error: ", {"the value must be an integer, got \"x\"; change the example or the schema"}, 1},
    {"example above maximum", O "{\"n\":{\"type\":\"integer\",\"maximum\":10,\"examples\":[11]}}}", "s.json:1:79: error: ", {"the value must be at most 10, got 11"}, 1},
    {"example below minimum", O "{\"n\":{\"type\":\"number\",\"minimum\":0.5,\"examples\":[0.25]}}}", "s.json:1:79: error: ", {"the value must be at least 0.5, got 0.25"}, 1},
    {"example at exclusiveMinimum", O "{\"n\":{\"type\":\"integer\",\"exclusiveMinimum\":0,\"examples\":[0]}}}", "s.json:1:87: error: ", {"the value must be at least 1, got 0"} /* the bound as the tables tighten it */, 1},
    {"example at exclusiveMaximum", O "{\"n\":{\"type\":\"number\",\"exclusiveMaximum\":1,\"examples\":[1]}}}", "s.json:1:86: error: ", {"the value must be less than 1, got 1"}, 1},
    {"example not in enum", O "{\"p\":{\"type\":\"string\",\"enum\":[\"low\",\"high\"],\"examples\":[\"mid\"]}}}", "s.json:1:87: error: ", {"the value must be one of \"low\", \"high\", got \"mid\""}, 1},
    {"example bad format", O "{\"d\":{\"type\":\"string\",\"format\":\"time\",\"examples\":[\"9:30\"]}}}", "s.json:1:81: error: ", {"the value must be a time (HH:MM or HH:MM:SS, optional fraction and offset), got \"9:30\""}, 1},
    {"example too short", O "{\"s\":{\"type\":\"string\",\"minLength\":2,\"examples\":[\"\\u00e9\"]}}}", "s.json:1:79: error: ", {"the value must be at least 2 characters long, got 1"}, 1},
    {"example too long", O "{\"s\":{\"type\":\"string\",\"maxLength\":1,\"examples\":[\"ab\"]}}}", "s.json:1:79: error: ", {"the value must be at most 1 character long, got 2"}, 1},
    {"example too many items", O "{\"l\":{\"type\":\"array\",\"maxItems\":1,\"examples\":[[1,2]]}}}", "s.json:1:77: error: ", {"the value must have at most 1 item, got 2"}, 1},
    {"example too few items", O "{\"l\":{\"type\":\"array\",\"minItems\":2,\"examples\":[[]]}}}", "s.json:1:77: error: ", {"the value must have at least 2 items, got 0"}, 1},
    {"example item wrong type", O "{\"l\":{\"type\":\"array\",\"items\":{\"type\":\"boolean\"},\"examples\":[[true,\"yes\"]]}}}", "s.json:1:97: error: ", {"/1 must be a boolean (true or false), got \"yes\""}, 1},
    {"example missing required", O "{\"o\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}},\"required\":[\"x\"],\"examples\":[{\"y\":1}]}}}", "s.json:1:119: error: ", {"/x is required"}, 1},
    {"example extra member", O "{\"o\":{\"type\":\"object\",\"properties\":{\"x\":{}},\"additionalProperties\":false,\"examples\":[{\"x\":1,\"z\":2}]}}}", "s.json:1:127: error: ", {"/z is not allowed (allowed: x)"}, 1},
    {"example 2.5 for integer", O "{\"n\":{\"type\":\"integer\",\"examples\":[2.5]}}}", "s.json:1:66: error: ", {"the value must be an integer, got 2.5"}, 1},
    {"example beyond int64", O "{\"n\":{\"type\":\"integer\",\"examples\":[1e19]}}}", "s.json:1:66: error: ", {"the value must be an integer within the 64-bit range, got 1e19"}, 1},
    {"example number beyond double", O "{\"n\":{\"type\":\"number\",\"examples\":[1e400]}}}", "s.json:1:65: error: ", {"the value must be a finite number (this one is beyond the double range), got 1e400"}, 1},
    {"example raw type list", O "{\"r\":{\"type\":[\"string\",\"null\"],\"examples\":[1]}}}", "s.json:1:74: error: ", {"the value must be a string or null, got 1"}, 1},
    {"example anyOf none", O "{\"r\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}],\"examples\":[true]}}}", "s.json:1:96: error: ", {"the value must match at least one of its anyOf schemas, got true"}, 1},
    {"example oneOf two", O "{\"r\":{\"oneOf\":[{\"type\":\"number\"},{\"type\":\"integer\"}],\"examples\":[3]}}}", "s.json:1:96: error: ", {"the value must match exactly one of its oneOf schemas, matched 2"}, 1},
    {"example nested path", O "{\"o\":{\"type\":\"object\",\"properties\":{\"a~b\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"c/d\":{\"type\":\"string\"}}}}},\"examples\":[{\"a~b\":[{\"c/d\":\"x\"},{\"c/d\":7}]}]}}}", "s.json:1:195: error: ", {"/a~0b/1/c~1d must be a string, got 7"}, 1},
    {"example of the parameters", "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"a\"],\"examples\":[{\"a\":\"x\"},{}]}", "s.json:1:94: error: ", {"example 2 of the parameters of tool 't' does not satisfy its own schema: /a is required"}, 1},
    {"example every problem", O "{\"o\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}},\"examples\":[{\"a\":1,\"b\":\"x\"}]}}}", "s.json:1:130: error: ", {"/a must be a string, got 1"}, 2},
    {"examples of a bad schema unjudged", O "{\"s\":{\"type\":\"string\",\"minLength\":3,\"maxLength\":1,\"examples\":[\"ab\"]}}}", "s.json:1:65: error: ", {"is greater than its maxLength"}, 1},
    {"enum value too long", O "{\"s\":{\"type\":\"string\",\"enum\":[\"S\",\"XXL\"],\"maxLength\":2}}}", "s.json:1:65: error: ", {"enum value 'XXL' of property 's' of tool 't' does not satisfy its own schema: the value must be at most 2 characters long, got 3; remove the value or change the schema"}, 1},
    {"enum value out of bounds", O "{\"n\":{\"type\":\"integer\",\"enum\":[1,10],\"maximum\":5}}}", "s.json:1:64: error: ", {"enum value 10 of property 'n' of tool 't' does not satisfy its own schema: the value must be at most 5, got 10"}, 1},
    {"enum value bad format", O "{\"d\":{\"type\":\"string\",\"enum\":[\"2026-03-12\",\"soon\"],\"format\":\"date\"}}}", "s.json:1:74: error: ", {"enum value 'soon' of property 'd'"}, 1},
    {"enum value in no anyOf branch", O "{\"r\":{\"enum\":[\"a\",3],\"anyOf\":[{\"type\":\"string\"}]}}}", "s.json:1:49: error: ", {"enum value 3 of property 'r'"}, 1},
    /* ---- C names ------------------------------------------------------------ */
    {"C name clash", O "{\"a-b\":{},\"a_b\":{}}}", "s.json:1:41: error: properties 'a-b' and 'a_b' of the parameters of tool 't' both become the C name 'a_b'", {"rename one"}, 1},
    {"C name clash with keyword mapping", O "{\"for\":{},\"for_\":{}}}", "s.json:1:41: error: properties 'for' and 'for_'", {"'for_'"}, 1},

    /* ---- depth -------------------------------------------------------------- */
    {"a plain value at level nine", O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"array\",\"items\":{}}}}}}}}}}}}}}}}}}",
     "s.json:1:303: error: property 'a.a.a.a.a.a.a.b' of tool 't' is nested 9 levels deep", {0}, 1},
    {"ten levels", O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":{\"anyOf\":[{}]}}}}}}}}}}}}}}}}}",
     "s.json:1:281: error: property 'a.a.a.a.a.a.a.a' of tool 't' is nested 9 levels deep", {0}, 1},
    {"no integer between the bounds", O "{\"n\":{\"type\":\"integer\",\"exclusiveMinimum\":1,\"exclusiveMaximum\":2}}}", "s.json:1:73: error: no integer lies between exclusiveMinimum (1) and exclusiveMaximum (2) of property 'n' of tool 't'", {"make it type: number"}, 1},
    {"no integer between decimals", O "{\"n\":{\"type\":\"integer\",\"minimum\":1.2,\"maximum\":1.8}}}", "s.json:1:64: error: no integer lies between minimum (1.2) and maximum (1.8)", {0}, 1},
    {"maximum below every int64", O "{\"n\":{\"type\":\"integer\",\"maximum\":-1e19}}}", "s.json:1:64: error: maximum (-1e19) of property 'n' of tool 't' leaves no 64-bit integer", {0}, 1},
    {"exclusiveMinimum at the int64 top", O "{\"n\":{\"type\":\"integer\",\"exclusiveMinimum\":9223372036854775807}}}", "s.json:1:73: error: exclusiveMinimum (9223372036854775807) of property 'n' of tool 't' leaves no 64-bit integer", {0}, 1},
    {"enum value beyond int64", O "{\"n\":{\"type\":\"integer\",\"enum\":[1,9223372036854775808]}}}", "s.json:1:64: error: enum value 9223372036854775808 of property 'n' of tool 't' is an integer beyond the 64-bit range", {"write them as strings"}, 1},
    {"minLength beyond int64", O "{\"s\":{\"type\":\"string\",\"minLength\":1e30}}}", "s.json:1:65: error: minLength (1e30) of property 's' of tool 't' is more than any value can hold; no value fits: lower it", {0}, 1},
    {"nine levels", O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":" O "{\"a\":{\"type\":\"object\"}}}}}}}}}}}}}}}}}",
     "s.json:1:281: error: property 'a.a.a.a.a.a.a.a' of tool 't' is nested 9 levels deep; schemas nest at most 8 levels", {0}, 1},

    /* ---- several problems, all reported -------------------------------------- */
    {"every problem reported", O "{\"a\":{\"type\":\"strng\"},\"b\":{\"type\":\"integer\",\"minimum\":5,\"maximum\":1},\"c\":{\"pattern\":\"x\"}},\"required\":[\"d\"]}",
     "s.json:1:44: error: unknown type 'strng'", {0}, 4},

    /* ---- JSON text ------------------------------------------------------------ */
    {"JSON duplicate key", "{\"type\":\"object\",\n \"properties\":{\"a\":{},\n \"a\":{}}}", "s.json:3:2: error: duplicate key 'a'; keep one", {0}, 1},
    {"JSON syntax", "{\"type\":\"object\",}", "s.json:1:18: error: JSON syntax: expected a string key", {0}, 1},
};

/* More problems in one value than the runtime names in one message: the
** first eight are errors, a note counts the rest. */
START_TEST(test_example_problem_cap)
{
    sfix s;
    char *text;
    sfix_open(&s);
    (void)sfix_compile(&s, O "{}, \"additionalProperties\":false, \"examples\":"
                              "[{\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1,\"f\":1,\"g\":1,\"h\":1,"
                              "\"i\":1,\"j\":1}]}",
                       &text);
    ck_assert_uint_eq(s.d.errors, 8);
    ck_assert_ptr_nonnull(strstr(text, "s.json:1:82: error: example 1 of the parameters of tool 't' "
                                       "does not satisfy its own schema: /a is not allowed (no "
                                       "properties are); change the example or the schema\n"));
    ck_assert_ptr_nonnull(strstr(text, "/h is not allowed"));
    ck_assert_ptr_null(strstr(text, "/i is not allowed"));
    ck_assert_ptr_nonnull(strstr(text, "s.json:1:77: note: example 1 of the parameters of tool 't' "
                                       "has 2 more problems\n"));
    free(text);
    sfix_close(&s);
}
END_TEST

/* A keyword left out as unknown or unsupported only widens the schema, so
** its values are still judged: both problems are named, at their places.
** A schema with an error of another kind (here minimum above maximum)
** judges no value. */
START_TEST(test_values_beside_unknown_keyword)
{
    sfix s;
    char *text;
    sfix_open(&s);
    (void)sfix_compile(&s, O "{\"n\":{\"type\":\"integer\",\"maximun\":10,\"default\":\"5\"},"
                              "\"s\":{\"type\":\"string\",\"pattern\":\"^a\",\"enum\":[\"a\",1]},"
                              "\"m\":{\"type\":\"integer\",\"minimum\":9,\"maximum\":1,"
                              "\"default\":\"x\"}}}",
                       &text);
    ck_assert_str_eq(text,
        "s.json:1:54: error: unknown keyword 'maximun' in property 'n' of tool 't'; did you "
        "mean 'maximum'?\n"
        "s.json:1:77: error: default of property 'n' of tool 't' does not satisfy its own "
        "schema: the value must be an integer, got \"5\"; change the default or the schema\n"
        "s.json:1:103: error: keyword 'pattern' (in property 's' of tool 't') is not "
        "supported; use enum or format, or check the text in the handler\n"
        "s.json:1:130: error: enum value 1 of property 's' of tool 't' is an integer, but the "
        "type is string; write values of that type (quote it to make it a string)\n"
        "s.json:1:166: error: minimum (9) of property 'm' of tool 't' is greater than maximum "
        "(1); no value fits: fix one of them\n");
    ck_assert_uint_eq(s.d.errors, 5);
    free(text);
    sfix_close(&s);
}
END_TEST

START_TEST(test_bad_case)
{
    const bad_case *c = &bad_cases[_i];
    sfix s;
    char *text;
    toolgov__snode *n;
    size_t k;

    sfix_open(&s);
    n = sfix_compile(&s, c->json, &text);
    ck_assert_msg(n == NULL, "%s: compiled, expected errors", c->what);
    ck_assert_msg(strncmp(text, c->first, strlen(c->first)) == 0,
                  "%s: first diagnostic\n  got:      %s\n  expected: %s", c->what, text, c->first);
    for (k = 0; k < 3 && c->words[k]; k++) {
        const char *eol = strchr(text, '\n');
        ck_assert_msg(memmem(text, eol ? (size_t)(eol - text) : strlen(text), c->words[k],
                             strlen(c->words[k])) != NULL,
                      "%s: '%s' not in: %s", c->what, c->words[k], text);
    }
    ck_assert_msg(s.d.errors == c->errors, "%s: %zu errors, expected %zu:\n%s", c->what,
                  s.d.errors, c->errors, text);
    free(text);
    sfix_close(&s);
}
END_TEST

/* ---- what a good schema compiles to ----------------------------------------- */

static const char reminder[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"title\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":200,\"description\":\"What.\"},"
    "\"date\":{\"type\":\"string\",\"format\":\"date\"},"
    "\"priority\":{\"type\":\"string\",\"enum\":[\"low\",\"normal\",\"high\"],\"default\":\"normal\"},"
    "\"minutes_before\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1440,\"default\":0},"
    "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":10},"
    "\"where\":{\"type\":\"object\",\"properties\":{\"lat\":{\"type\":\"number\"}}},"
    "\"extra\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]},"
    "\"any\":{},"
    "\"flag\":{\"type\":\"boolean\"},"
    "\"list\":{\"type\":\"array\"}"
    "},\"required\":[\"title\",\"date\"],\"additionalProperties\":false,"
    "\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"$comment\":\"c\"}";

START_TEST(test_good_model)
{
    sfix s;
    char *text;
    toolgov__snode *n;
    const char *canon;
    size_t len;

    sfix_open(&s);
    n = sfix_compile(&s, reminder, &text);
    ck_assert_msg(n != NULL, "%s", text);
    ck_assert_str_eq(text, "");
    ck_assert_int_eq(n->type, TOOLGOV_S_OBJECT);
    ck_assert_int_eq(n->additional, 0);
    ck_assert_uint_eq(n->prop_count, 10);
    ck_assert_str_eq(n->props[0].name, "title");
    ck_assert_int_eq(n->props[0].required, 1);
    ck_assert_int_eq(n->props[0].schema->type, TOOLGOV_S_STRING);
    ck_assert_uint_eq(n->props[0].schema->lim->min_length.v, 1);
    ck_assert_uint_eq(n->props[0].schema->lim->max_length.v, 200);
    ck_assert_str_eq(n->props[0].schema->description, "What.");
    ck_assert_int_eq(n->props[1].schema->format, TOOLGOV_F_DATE);
    /* Only nodes that give limits have their own (schema.h). */
    ck_assert_ptr_eq(n->props[1].schema->lim, &toolgov__slimits_none);
    ck_assert_ptr_ne(n->props[0].schema->lim, &toolgov__slimits_none);
    ck_assert_ptr_eq(n->lim, &toolgov__slimits_none);
    ck_assert_int_eq(n->props[1].required, 1);
    ck_assert_int_eq(n->props[2].required, 0);
    ck_assert_ptr_nonnull(n->props[2].schema->enum_vals);
    ck_assert_str_eq(n->props[2].schema->enum_c_names[2], "high");
    ck_assert_ptr_nonnull(n->props[2].schema->default_val);
    ck_assert_int_eq(n->props[3].schema->type, TOOLGOV_S_INTEGER);
    ck_assert_int_eq(n->props[3].schema->lim->minimum.is_int, 1);
    ck_assert_int_eq(n->props[3].schema->lim->maximum.i, 1440);
    ck_assert_int_eq(n->props[4].schema->type, TOOLGOV_S_ARRAY);
    ck_assert_int_eq(n->props[4].schema->items->type, TOOLGOV_S_STRING);
    ck_assert_uint_eq(n->props[4].schema->lim->max_items.v, 10);
    ck_assert_int_eq(n->props[5].schema->type, TOOLGOV_S_OBJECT);
    ck_assert_int_eq(n->props[5].schema->props[0].schema->type, TOOLGOV_S_NUMBER);
    ck_assert_int_eq(n->props[6].schema->type, TOOLGOV_S_RAW);
    ck_assert_uint_eq(n->props[6].schema->any_of_count, 2);
    ck_assert_uint_eq(n->props[6].schema->any_of[1]->types, TOOLGOV_T_NULL);
    ck_assert_int_eq(n->props[7].schema->type, TOOLGOV_S_RAW);
    ck_assert_int_eq(n->props[8].schema->type, TOOLGOV_S_BOOLEAN);
    ck_assert_int_eq(n->props[9].schema->type, TOOLGOV_S_ARRAY);
    ck_assert_int_eq(n->props[9].schema->items->type, TOOLGOV_S_RAW);

    ck_assert_int_eq(toolgov__schema_text(&s.cx, n, &canon, &len), 0);
    ck_assert_str_eq(canon, reminder);
    ck_assert_uint_eq(len, strlen(reminder));
    ck_assert_int_eq(toolgov__schema_text(&s.cx, NULL, &canon, &len), 0);
    ck_assert_str_eq(canon, "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}");
    free(text);
    sfix_close(&s);
}
END_TEST

/* Raw values still get their keywords checked, and a type list is raw. */
START_TEST(test_raw_forms)
{
    static const char *const good[] = {
        O "{\"a\":{\"type\":[\"string\",\"null\"],\"maxLength\":3}}}",
        O "{\"a\":{\"type\":\"null\"}}}",
        O "{\"a\":{\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"string\",\"format\":\"date\"}]}}}",
        O "{\"a\":{\"type\":[\"integer\",\"null\"],\"enum\":[1,2,null],\"default\":null}}}",
        O "{\"a\":{\"description\":\"anything\",\"default\":{\"x\":[1,2]}}}}",
        O "{\"a\":{\"type\":\"string\",\"format\":\"hostname\"}}}",
        O "{\"a\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":1e3,\"default\":0.5}}}",
        O "{\"a\":{\"type\":\"integer\",\"default\":2.0}}}",
        /* A format the subset does not check is an annotation on any type
        ** (OpenAPI's numeric formats). */
        O "{\"a\":{\"type\":\"integer\",\"format\":\"int32\",\"minimum\":1}}}",
        O "{\"a\":{\"type\":\"number\",\"format\":\"double\"}}}",
        O "{\"a\":{\"type\":\"array\",\"format\":\"csv\",\"items\":{\"type\":\"string\"}}}}",
        /* Formats JSON Schema defines and toolgov does not check stay
        ** annotations, also the ones a letter or two from a checked one. */
        O "{\"a\":{\"type\":\"string\",\"format\":\"iri\"}}}",
        O "{\"a\":{\"type\":\"string\",\"format\":\"uuid\"}}}",
        O "{\"a\":{\"type\":\"string\",\"format\":\"idn-email\"}}}",
        O "{\"a\":{\"type\":\"string\",\"format\":\"json\"}}}",
        O "{\"a\":{\"type\":\"object\",\"examples\":[{\"x\":1}],\"title\":\"T\"}}}",
        "{\"type\":\"object\"}",
        /* Under a raw value nothing gets a C name, so names that would
        ** make one C name are fine there (GitHub's search_issues sorts by
        ** 'reactions-+1' and 'reactions--1'). */
        O "{\"a\":{\"anyOf\":[{\"type\":\"string\",\"enum\":[\"reactions-+1\",\"reactions--1\"]}]}}}",
        /* ... and typed, the two are spelt apart (reactions_plus_1 and
        ** reactions_1), as are C, C++ and C#. */
        O "{\"a\":{\"type\":\"string\",\"enum\":[\"reactions\",\"reactions-+1\",\"reactions--1\"]}}}",
        O "{\"a\":{\"type\":\"string\",\"enum\":[\"C\",\"C++\",\"C#\"]}}}",
        O "{\"a\":{\"type\":\"string\",\"enum\":[\"a-b\",\"a_b\"],\"anyOf\":[{\"minLength\":1}]}}}",
        O "{\"a\":{\"oneOf\":[{\"type\":\"object\",\"properties\":{\"a-b\":{},\"a_b\":{}}}]}}}",
        O "{\"a\":{\"type\":[\"object\",\"null\"],\"properties\":{\"x\":{\"type\":\"array\",\"items\":"
          "{\"type\":\"object\",\"properties\":{\"a-b\":{},\"a_b\":{}}}}}}}}",
    };
    size_t i;
    for (i = 0; i < sizeof good / sizeof *good; i++) {
        sfix s;
        char *text;
        toolgov__snode *n;
        sfix_open(&s);
        n = sfix_compile(&s, good[i], &text);
        ck_assert_msg(n != NULL, "%s: %s", good[i], text);
        free(text);
        sfix_close(&s);
    }
    /* A list of one type is that type; of two or more, a raw value. */
    {
        sfix s;
        char *text;
        toolgov__snode *n;
        sfix_open(&s);
        n = sfix_compile(&s, O "{\"a\":{\"type\":[\"string\"]},\"b\":{\"type\":[\"string\",\"integer\"]}}}",
                         &text);
        ck_assert_msg(n != NULL, "%s", text);
        ck_assert_int_eq(n->props[0].schema->type, TOOLGOV_S_STRING);
        ck_assert_int_eq(n->props[1].schema->type, TOOLGOV_S_RAW);
        free(text);
        sfix_close(&s);
    }
}
END_TEST

START_TEST(test_c_names)
{
    static const char *const cases[][2] = {
        {"title", "title"}, {"a-b", "a_b"}, {"a--b", "a_b"}, {"2fa", "p2fa"}, {"", "p"},
        {"-", "p"}, {"_id", "_id"}, {"_Id", "p_Id"}, {"default", "default_"},
        {"class", "class_"}, {"has", "has_"}, {"unix", "unix_"}, {"errno", "errno_"},
        {"caf\xc3\xa9", "caf_"}, {"$schema", "_schema"}, {"x y", "x_y"}, {"NULL", "NULL_"},
        {"bool", "bool_"}, {"typeof", "typeof_"}, {"size_t", "size_t_"}, {"int64_t", "int64_t_"},
        {"toolgov_str", "toolgov_str_"}, {"sizeof", "sizeof_"}, {"xor_eq", "xor_eq_"},
        {"EOF", "EOF_"}, {"_Bool", "p_Bool"},
        /* Symbols that tell values apart are spelt, not separators. */
        {"reactions-+1", "reactions_plus_1"}, {"reactions--1", "reactions_1"},
        {"C++", "C_plus_plus"}, {"C#", "C_hash"}, {"+1", "plus_1"}, {"<=", "lt_eq"},
        {">=", "gt_eq"}, {"a+b", "a_plus_b"}, {"@type", "at_type"}, {"&", "and_"},
        {"!x", "not_x"}, {"100%", "p100_percent"}, {"*", "star"}, {"x-*-y", "x_star_y"},
    };
    sfix s;
    size_t i;
    sfix_open(&s);
    for (i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_str_eq(toolgov__c_name(&s.cx, cases[i][0], strlen(cases[i][0])), cases[i][1]);
    sfix_close(&s);
}
END_TEST

START_TEST(test_int64)
{
    static const struct {
        const char *s;
        int ok;
        int64_t v;
    } cases[] = {
        {"0", 1, 0}, {"-0", 1, 0}, {"2", 1, 2}, {"2.0", 1, 2}, {"2.5", 0, 0}, {"1e2", 1, 100},
        {"2.50e1", 1, 25}, {"1E-1", 0, 0}, {"100e-2", 1, 1}, {"9223372036854775807", 1, INT64_MAX},
        {"-9223372036854775808", 1, INT64_MIN}, {"9223372036854775808", 0, 0},
        {"1e400", 0, 0}, {"0.000", 1, 0}, {"01", 0, 0}, {"1.", 0, 0}, {"-", 0, 0},
        {"92233720368547758070e-1", 1, INT64_MAX},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        int64_t v = -7;
        int ok = toolgov__jtext_int64(cases[i].s, strlen(cases[i].s), &v);
        ck_assert_msg(ok == cases[i].ok, "%s: %d", cases[i].s, ok);
        if (ok)
            ck_assert_msg(v == cases[i].v, "%s: %lld", cases[i].s, (long long)v);
    }
}
END_TEST

START_TEST(test_formats)
{
    static const struct {
        toolgov__sformat f;
        const char *s;
        int ok;
    } cases[] = {
        {TOOLGOV_F_DATE, "2026-03-12", 1}, {TOOLGOV_F_DATE, "2026-02-29", 0},
        {TOOLGOV_F_DATE, "2024-02-29", 1}, {TOOLGOV_F_DATE, "1900-02-29", 0},
        {TOOLGOV_F_DATE, "2000-02-29", 1}, {TOOLGOV_F_DATE, "12/03/2026", 0},
        {TOOLGOV_F_DATE, "2026-13-01", 0}, {TOOLGOV_F_DATE, "2026-3-1", 0},
        {TOOLGOV_F_TIME, "09:30", 1}, {TOOLGOV_F_TIME, "09:30:15", 1},
        {TOOLGOV_F_TIME, "09:30:15.25Z", 1}, {TOOLGOV_F_TIME, "09:30+02:00", 1},
        {TOOLGOV_F_TIME, "24:00", 0}, {TOOLGOV_F_TIME, "9:30", 0}, {TOOLGOV_F_TIME, "09:60", 0},
        {TOOLGOV_F_DATE_TIME, "2026-03-12T09:30:00Z", 1},
        {TOOLGOV_F_DATE_TIME, "2026-03-12t09:30:00.5-05:00", 1},
        {TOOLGOV_F_DATE_TIME, "2026-03-12T09:30Z", 0},
        {TOOLGOV_F_DATE_TIME, "2026-03-12T09:30:00", 0},
        {TOOLGOV_F_DATE_TIME, "2026-03-12", 0},
        {TOOLGOV_F_EMAIL, "a@b.co", 1}, {TOOLGOV_F_EMAIL, "a@b", 1} /* RFC 5321 */, {TOOLGOV_F_EMAIL, "@b.co", 0},
        {TOOLGOV_F_EMAIL, "a b@c.de", 0}, {TOOLGOV_F_EMAIL, "a@@b.co", 0},
        {TOOLGOV_F_URI, "https://example.com/x?y=1", 1}, {TOOLGOV_F_URI, "mailto:a@b.c", 1},
        {TOOLGOV_F_URI, "example.com", 0}, {TOOLGOV_F_URI, "https://a b", 0},
        {TOOLGOV_F_URI, "1http://x", 0}, {TOOLGOV_F_OTHER, "anything", 1},
    };
    /* Judged through an example, by the runtime's format checks (the
    ** generator has no checks of its own). */
    static const char *const words[] = {"", "date", "time", "date-time", "email", "uri",
                                        "color"};
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        sfix s;
        char json[256], *text;
        sfix_open(&s);
        snprintf(json, sizeof json, O "{\"v\":{\"type\":\"string\",\"format\":\"%s\","
                                      "\"examples\":[\"%s\"]}}}",
                 words[cases[i].f], cases[i].s);
        (void)sfix_compile(&s, json, &text);
        ck_assert_msg((s.d.errors == 0) == cases[i].ok, "%s %s: %s", words[cases[i].f],
                      cases[i].s, text);
        free(text);
        sfix_close(&s);
    }
}
END_TEST

/* The canonical text escapes what JSON needs and nothing else. */
START_TEST(test_canonical_escapes)
{
    sfix s;
    char *text;
    toolgov__snode *n;
    const char *canon;
    size_t len;
    sfix_open(&s);
    n = sfix_compile(&s, "{ \"type\" : \"object\",\n \"description\": \"a\\\"b\\\\c\\u0001\\n/\\u00e9\\ud83d\\ude00\" }", &text);
    ck_assert_msg(n != NULL, "%s", text);
    ck_assert_int_eq(toolgov__schema_text(&s.cx, n, &canon, &len), 0);
    ck_assert_str_eq(canon, "{\"type\":\"object\",\"description\":\"a\\\"b\\\\c\\u0001\\n/\xc3\xa9\xf0\x9f\x98\x80\"}");
    free(text);
    sfix_close(&s);
}
END_TEST

/* An error cap stops the formatting but not the counting. */
START_TEST(test_error_cap)
{
    sfix s;
    char *text;
    sfix_open(&s);
    s.d.max_errors = 1;
    ck_assert_ptr_null(sfix_compile(&s, O "{\"a\":{\"pattern\":1},\"b\":{\"propertys\":1},\"c\":{\"type\":\"x\"}}}", &text));
    ck_assert_uint_eq(s.d.errors, 3);
    free(text);
    sfix_close(&s);
}
END_TEST

/* SPEC 9's create_reminder, compiled and laid out in memory, gives exactly
** the tables decoder's hand-written fixture holds (tests/args). */
static const char spec_reminder[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"title\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":200},"
    "\"date\":{\"type\":\"string\",\"format\":\"date\"},"
    "\"time\":{\"type\":\"string\",\"format\":\"time\"},"
    "\"note\":{\"type\":\"string\"},"
    "\"priority\":{\"type\":\"string\",\"enum\":[\"low\",\"normal\",\"high\"],\"default\":\"normal\"},"
    "\"minutes_before\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1440,\"default\":0},"
    "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":10}"
    "},\"required\":[\"title\",\"date\",\"time\"],\"additionalProperties\":false}";

static void same_node(const toolgov_arg_schema *a, const toolgov_arg_schema *b, const char *what)
{
    size_t i;
    ck_assert_msg(a->kind == b->kind, "%s: kind %d vs %d", what, a->kind, b->kind);
    ck_assert_msg(a->flags == b->flags, "%s: flags %u vs %u", what, a->flags, b->flags);
    ck_assert_uint_eq(a->min_len, b->min_len);
    ck_assert_uint_eq(a->max_len, b->max_len);
    ck_assert_int_eq(a->format, b->format);
    ck_assert_int_eq(a->int_min, b->int_min);
    ck_assert_int_eq(a->int_max, b->int_max);
    ck_assert_uint_eq(a->str_enum_count, b->str_enum_count);
    for (i = 0; i < a->str_enum_count; i++)
        ck_assert_str_eq(a->str_enum[i], b->str_enum[i]);
    ck_assert_uint_eq(a->int_enum_count, b->int_enum_count);
    ck_assert_uint_eq(a->item_size, b->item_size);
    ck_assert_uint_eq(a->min_items, b->min_items);
    ck_assert_uint_eq(a->max_items, b->max_items);
    ck_assert_int_eq(a->items == NULL, b->items == NULL);
    if (a->items)
        same_node(a->items, b->items, what);
    ck_assert_uint_eq(a->field_count, b->field_count);
    ck_assert_uint_eq(a->struct_size, b->struct_size);
    ck_assert_uint_eq(a->types, b->types);
    ck_assert_uint_eq(a->alt_count, b->alt_count);
    for (i = 0; i < a->field_count; i++) {
        const toolgov_arg_field *x = &a->fields[i], *y = &b->fields[i];
        ck_assert_str_eq(x->name, y->name);
        ck_assert_uint_eq(x->name_len, y->name_len);
        ck_assert_msg(x->offset == y->offset, "%s: offset %zu vs %zu", x->name, x->offset,
                      y->offset);
        ck_assert_msg(x->has_offset == y->has_offset, "%s: has %zu vs %zu", x->name,
                      x->has_offset, y->has_offset);
        ck_assert_int_eq(x->required, y->required);
        ck_assert_int_eq(x->default_json == NULL, y->default_json == NULL);
        if (x->default_json)
            ck_assert_str_eq(x->default_json, y->default_json);
        same_node(x->schema, y->schema, x->name);
    }
}

START_TEST(test_tables_match_fixture)
{
    sfix s;
    char *text;
    toolgov__snode *n;
    const toolgov_arg_schema *t;
    sfix_open(&s);
    n = sfix_compile(&s, spec_reminder, &text);
    ck_assert_msg(n != NULL, "%s", text);
    ck_assert_int_eq(toolgov__schema_tables(&s.cx, n, &t), 0);
    same_node(t, &reminder_schema, "root");
    free(text);
    sfix_close(&s);
}
END_TEST

/* Overwrite every byte an arena handed out since its last reset with
** garbage: what still pointed there now reads garbage (and, once the arena
** is freed, ASan sees the use). */
static void clobber(toolgov__arena *a)
{
    void *p;
    toolgov__arena_reset(a);
    p = toolgov__arena_alloc(a, a->cap);
    ck_assert_ptr_nonnull(p);
    memset(p, 0x5a, a->cap);
}

/* Compile json with its value tree in `values` and the temporaries in
** `scratch`, then clobber both: the returned tree must not need them. */
static toolgov__snode *compile_apart(sfix *s, const char *json, toolgov__arena *values,
                                     toolgov__arena *scratch)
{
    toolgov__jval *v = NULL;
    toolgov__snode *n = NULL;
    toolgov__mark at = {1, 1};
    toolgov__arena_init(values);
    toolgov__arena_init(scratch);
    /* One chunk big enough for all of it, so that clobbering reaches it. */
    ck_assert_ptr_nonnull(toolgov__arena_alloc(values, 1u << 20));
    ck_assert_ptr_nonnull(toolgov__arena_alloc(scratch, 1u << 20));
    toolgov__arena_reset(values);
    toolgov__arena_reset(scratch);
    s->cx.arena = values;
    ck_assert_int_eq(toolgov__jtext_parse(&s->cx, json, strlen(json), &v), 0);
    s->cx.arena = &s->arena;
    s->cx.scratch = scratch;
    ck_assert_int_eq(toolgov__schema_compile(&s->cx, v, at, &n), 0);
    ck_assert_ptr_nonnull(n);
    s->cx.scratch = NULL;
    clobber(values);
    clobber(scratch);
    return n;
}

/* The compiled tree keeps nothing of the value tree or the scratch arena
** (schema.h): the loader resets both after every tool. */
START_TEST(test_tree_outlives_values)
{
    sfix s;
    toolgov__arena values, scratch;
    toolgov__snode *n;
    const toolgov_arg_schema *t;
    const toolgov__snode *pri;
    const char *canon;
    size_t len;

    sfix_open(&s);
    n = compile_apart(&s, spec_reminder, &values, &scratch);
    ck_assert_int_eq(toolgov__schema_text(&s.cx, n, &canon, &len), 0);
    ck_assert_uint_eq(len, strlen(spec_reminder));
    ck_assert_str_eq(canon, spec_reminder);
    ck_assert_int_eq(toolgov__schema_tables(&s.cx, n, &t), 0);
    same_node(t, &reminder_schema, "root");
    ck_assert_str_eq(n->props[4].name, "priority");
    pri = n->props[4].schema;
    ck_assert_uint_eq(pri->enum_vals->count, 3);
    ck_assert_str_eq(pri->enum_vals->items[2]->text, "high");
    ck_assert_str_eq(pri->default_val->text, "normal");
    ck_assert_str_eq(n->props[1].schema->format_name, "date");
    ck_assert_str_eq(n->props[5].schema->lim->maximum.text, "1440");
    /* Freed outright: nothing may read them any more (ASan). */
    toolgov__arena_free(&values);
    toolgov__arena_free(&scratch);
    ck_assert_int_eq(toolgov__schema_tables(&s.cx, n, &t), 0);
    same_node(t, &reminder_schema, "root");

    n = compile_apart(&s, reminder, &values, &scratch);
    ck_assert_int_eq(toolgov__schema_text(&s.cx, n, &canon, &len), 0);
    ck_assert_str_eq(canon, reminder);
    ck_assert_str_eq(n->props[0].schema->description, "What.");
    ck_assert_int_eq(n->props[9].schema->items->synth, 1);
    ck_assert_int_eq(n->props[4].schema->items->synth, 0);
    toolgov__arena_free(&values);
    toolgov__arena_free(&scratch);
    ck_assert_str_eq(n->props[0].schema->description, "What.");
    sfix_close(&s);
}
END_TEST

/* Canonical values: schema order, defaults filled, extras sorted, exact
** integers, shortest doubles, raw values sorted with number texts kept. */
START_TEST(test_canonical_values)
{
    static const char *const cases[][3] = {
        {O "{\"b\":{\"type\":\"integer\"},\"a\":{\"type\":\"number\",\"default\":0.10}}}",
         "{\"z\":1,\"b\":2.0,\"y\":{\"d\":1.50,\"c\":[1e2]}}",
         "{\"b\":2,\"a\":0.1,\"y\":{\"c\":[1e2],\"d\":1.50},\"z\":1}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":1e300}", "{\"n\":1e+300}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":1e20}", "{\"n\":100000000000000000000}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":1e21}", "{\"n\":1e+21}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":0.000001}", "{\"n\":0.000001}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":1.5e-7}", "{\"n\":1.5e-7}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":100.0}", "{\"n\":100}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":-123.456e2}", "{\"n\":-12345.6}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":5e-324}", "{\"n\":5e-324}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":0.30000000000000004}", "{\"n\":0.30000000000000004}"},
        {O "{\"n\":{\"type\":\"number\"}}}", "{\"n\":-0}", "{\"n\":-0}"},
        {O "{\"l\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}}}", "{\"l\":[1.0,-0,3e0]}", "{\"l\":[1,0,3]}"},
        {O "{\"o\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\",\"default\":\"x\"}}}}}", "{\"o\":{}}", "{\"o\":{\"k\":\"x\"}}"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        sfix s;
        char *text;
        toolgov__snode *n;
        toolgov__jval *v;
        const char *out;
        size_t len;
        sfix_open(&s);
        n = sfix_compile(&s, cases[i][0], &text);
        ck_assert_msg(n != NULL, "%s", text);
        ck_assert_int_eq(toolgov__jtext_parse(&s.cx, cases[i][1], strlen(cases[i][1]), &v), 0);
        ck_assert_int_eq(toolgov__schema_canonical_value(&s.cx, n, v, &out, &len), 0);
        ck_assert_str_eq(out, cases[i][2]);
        free(text);
        sfix_close(&s);
    }
}
END_TEST

/* The runtime's decisions on schemas the compiler built: what a call gets,
** canonical text or the message (NULL canonical: refused with `msg`). */
START_TEST(test_decode_rules)
{
    static const char *const cases[][3] = {
        /* A required property must be given, default or not. */
        {O "{\"title\":{\"type\":\"string\",\"default\":\"t\"}},\"required\":[\"title\"]}", "{}",
         "!t: /title is required"},
        {O "{\"title\":{\"type\":\"string\",\"default\":\"t\"}}}", "{}", "{\"title\":\"t\"}"},
        {O "{\"x\":{\"anyOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\","
           "\"default\":1}},\"required\":[\"a\"]}]}}}", "{\"x\":{}}",
         "!t: /x must match at least one of its anyOf schemas, got an object"},
        /* A type list keeps integer's int64 and number's finite rule. */
        {O "{\"x\":{\"type\":[\"integer\",\"null\"]}}}", "{\"x\":1e400}",
         "!t: /x must be an integer within the 64-bit range, got 1e400"},
        {O "{\"x\":{\"type\":[\"integer\",\"null\"]}}}", "{\"x\":12345678901234567890}",
         "!t: /x must be an integer within the 64-bit range, got 12345678901234567890"},
        {O "{\"x\":{\"type\":[\"integer\",\"null\"]}}}", "{\"x\":2.0}", "{\"x\":2.0}"},
        {O "{\"x\":{\"type\":[\"number\",\"null\"]}}}", "{\"x\":1e400}",
         "!t: /x must be a finite number (this one is beyond the double range), got 1e400"},
        {O "{\"x\":{\"type\":[\"number\",\"null\"]}}}", "{\"x\":1e30}", "{\"x\":1e30}"},
        {O "{\"x\":{\"type\":[\"integer\",\"number\"]}}}", "{\"x\":1e30}", "{\"x\":1e30}"},
        {O "{\"x\":{}}}", "{\"x\":1e400}", "{\"x\":1e400}"},
        /* Bounds of integers in a type list are exact. */
        {O "{\"x\":{\"type\":[\"integer\",\"null\"],\"minimum\":9007199254740993}}}",
         "{\"x\":9007199254740992}",
         "!t: /x must be at least 9007199254740993, got 9007199254740992"},
        {O "{\"x\":{\"type\":[\"integer\",\"null\"],\"maximum\":9007199254740992}}}",
         "{\"x\":9007199254740993}",
         "!t: /x must be at most 9007199254740992, got 9007199254740993"},
        {O "{\"x\":{\"type\":[\"integer\",\"null\"],\"exclusiveMinimum\":-9223372036854775808}}}",
         "{\"x\":-9223372036854775808}",
         "!t: /x must be greater than -9223372036854775808, got -9223372036854775808"},
        {O "{\"x\":{\"type\":[\"number\",\"null\"],\"minimum\":0.5}}}", "{\"x\":0}",
         "!t: /x must be at least 0.5, got 0"},
        {O "{\"x\":{\"type\":[\"number\",\"null\"],\"minimum\":0.5}}}", "{\"x\":1}", "{\"x\":1}"},
        /* A maximum count beyond int64 limits nothing. */
        {O "{\"s\":{\"type\":\"string\",\"maxLength\":9223372036854775808},\"l\":{\"type\":\"array\","
           "\"maxItems\":18446744073709551615}}}", "{\"s\":\"abc\",\"l\":[1]}", "{\"s\":\"abc\",\"l\":[1]}"},
        /* A number with an enum of integers (zod's numeric enum). */
        {O "{\"x\":{\"type\":\"number\",\"enum\":[0,1,2]}}}", "{\"x\":1.0}", "{\"x\":1}"},
        {O "{\"x\":{\"type\":\"number\",\"enum\":[0,1,2]}}}", "{\"x\":1.5}",
         "!t: /x must be one of 0, 1, 2, got 1.5"},
        {O "{\"x\":{\"type\":\"number\",\"enum\":[0,1,2]}}}", "{\"x\":3}",
         "!t: /x must be one of 0, 1, 2, got 3"},
        /* additionalProperties: {} admits anything, as true does. */
        {O "{\"x\":{\"type\":\"object\",\"additionalProperties\":{}}}}", "{\"x\":{\"b\":1,\"a\":[]}}",
         "{\"x\":{\"a\":[],\"b\":1}}"},
        {O "{\"x\":{\"type\":\"object\",\"additionalProperties\":{\"description\":\"any\"}}}}",
         "{\"x\":{\"b\":1}}", "{\"x\":{\"b\":1}}"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        sfix s;
        char *text;
        toolgov__snode *n;
        const toolgov_arg_schema *t;
        toolgov_args_decoder *dec = NULL;
        toolgov_decoded_args r;
        int rc;
        sfix_open(&s);
        n = sfix_compile(&s, cases[i][0], &text);
        ck_assert_msg(n != NULL, "case %zu: %s", i, text);
        ck_assert_int_eq(toolgov__schema_tables(&s.cx, n, &t), 0);
        ck_assert_int_eq(toolgov_args_decoder_new(&dec, NULL), 0);
        rc = toolgov_args_decode(&r, dec, t, "t", cases[i][1], strlen(cases[i][1]));
        if (cases[i][2][0] == '!') {
            ck_assert_msg(rc == TOOLGOV_EARGS, "case %zu: accepted as %s", i,
                          rc == 0 ? r.canonical : "?");
            ck_assert_str_eq(r.message, cases[i][2] + 1);
        } else {
            ck_assert_msg(rc == 0, "case %zu: refused: %s", i, rc ? r.message : "");
            ck_assert_str_eq(r.canonical, cases[i][2]);
        }
        toolgov_args_decoder_free(dec);
        free(text);
        sfix_close(&s);
    }
}
END_TEST

/* Integer bounds admit the integers of the written range. */
START_TEST(test_int_bounds)
{
    static const struct {
        const char *kw;
        int has_min, has_max;
        int64_t min, max;
    } cases[] = {
        {"\"minimum\":0.5,\"maximum\":2.5", 1, 1, 1, 2},
        {"\"exclusiveMinimum\":3,\"exclusiveMaximum\":7", 1, 1, 4, 6},
        {"\"exclusiveMinimum\":2.5,\"exclusiveMaximum\":7.5", 1, 1, 3, 7},
        {"\"minimum\":1,\"exclusiveMinimum\":1", 1, 0, 2, 0},
        {"\"minimum\":-1e30,\"maximum\":1e30", 0, 0, 0, 0},
        {"\"minimum\":-2.5", 1, 0, -2, 0},
        {"\"maximum\":-2.5", 0, 1, 0, -3},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++) {
        char json[256];
        sfix s;
        char *text;
        toolgov__snode *n;
        int hmin, hmax;
        int64_t mn, mx;
        snprintf(json, sizeof json, O "{\"n\":{\"type\":\"integer\",%s}}}", cases[i].kw);
        sfix_open(&s);
        n = sfix_compile(&s, json, &text);
        ck_assert_msg(n != NULL, "%s", text);
        toolgov__schema_int_bounds(n->props[0].schema, &hmin, &mn, &hmax, &mx);
        ck_assert_msg(hmin == cases[i].has_min && hmax == cases[i].has_max, "%s", cases[i].kw);
        if (hmin)
            ck_assert_int_eq(mn, cases[i].min);
        if (hmax)
            ck_assert_int_eq(mx, cases[i].max);
        free(text);
        sfix_close(&s);
    }
}
END_TEST

/* ---- through a manifest's YAML ------------------------------------------------ */

#define M "name: p\nprovides: [tool]\ntools:\n  t:\n    effect: read\n    description: d\n    parameters:\n"

typedef struct yaml_case {
    const char *what;
    const char *yaml;
    const char *first;
    const char *words[2];
    size_t errors;
} yaml_case;

static const yaml_case yaml_cases[] = {
    {"comma in a flow mapping", M "      type: object\n      properties:\n        date: {type: string, description: The day, YYYY-MM-DD.}\n",
     "m.yaml:10:52: error: unknown keyword 'YYYY-MM-DD.' in property 'date' of tool 't'; inside { } a comma ends a value", {"put the text before it in quotes"}, 1},
    {"hex number", M "      type: object\n      properties:\n        n: {type: integer, maximum: 0x10}\n",
     "m.yaml:10:37: error: '0x10' is a YAML number that JSON cannot hold as written", {"quote it"}, 1},
    {"leading-dot number", M "      type: object\n      properties:\n        n: {type: number, minimum: .5}\n",
     "m.yaml:10:36: error: '.5' is a YAML number", {0}, 1},
    {"anchor kept, the rest still checked", M "      type: object\n      properties:\n        a: &x {type: strng}\n",
     "m.yaml:10:12: error: YAML anchor '&x' is not allowed", {0}, 2},
    {"alias as a schema", M "      type: object\n      properties:\n        a: {type: string}\n        b: *a\n",
     "m.yaml:11:12: error: YAML alias '*a' is not allowed", {0}, 1},
    {"duplicate key", M "      type: object\n      type: object\n",
     "m.yaml:9:7: error: duplicate key 'type'; keep one", {0}, 1},
    {"duplicate property", M "      type: object\n      properties:\n        a: {}\n        a: {}\n",
     "m.yaml:11:9: error: duplicate key 'a'; keep one", {0}, 1},
    {"parameters empty", M "", "m.yaml:7:16: error: parameters of tool 't' is empty", {"remove parameters:"}, 1},
    {"parameters a scalar", M "      object\n", "m.yaml:8:7: error: the schema of the parameters of tool 't' must be a mapping", {"not a string"}, 1},
    {"parameters a sequence", M "      - type\n", "m.yaml:8:7: error: the schema of the parameters of tool 't' must be a mapping", {"not a sequence"}, 1},
    {"complex key", M "      type: object\n      ? [a]\n      : 1\n", "m.yaml:9:9: error: a key under parameters is a collection", {0}, 1},
    {"quoted number is a string", M "      type: object\n      properties:\n        n: {type: integer, minimum: \"1\"}\n",
     "m.yaml:10:37: error: minimum of property 'n' of tool 't' must be a number, not a string '1'", {0}, 1},
    {"yes is a string", M "      type: object\n      properties:\n        b: {type: boolean, default: yes}\n",
     "m.yaml:10:37: error: default of property 'b' of tool 't' does not satisfy its own schema: the value must be a boolean (true or false), got \"yes\"; change the default or the schema", {0}, 1},
    {"block example, bad member", M "      type: object\n      properties:\n        when: {type: string, format: date}\n      examples:\n        - when: 2026-03-12\n        - when: soon\n",
     "m.yaml:13:17: error: example 2 of the parameters of tool 't' does not satisfy its own schema: /when must be a date (YYYY-MM-DD), got \"soon\"; change the example or the schema", {0}, 1},
    {"NUL escape", M "      type: object\n      description: \"a\\0\"\n",
     "m.yaml:9:20: error: a string under parameters contains a NUL character", {0}, 1},
    {"C names clash across tools", "name: p\nprovides: [tool]\ntools:\n  a:\n    effect: read\n    description: d\n    parameters: {type: object, properties: {b_c: {type: string, enum: [x]}}}\n"
     "  a_b:\n    effect: read\n    description: d\n    parameters: {type: object, properties: {c: {type: string, enum: [y]}}}\n",
     "m.yaml:11:45: error: this gives the generated C name 'p_Enum_a_b_c', which something else in the manifest gives too", {"rename one"}, 1},
    {"C names: enum constant against a type", "name: p\nprovides: [tool]\ntools:\n  a:\n    effect: read\n    description: d\n    parameters:\n"
     "      type: object\n      properties:\n        x: {type: string, enum: [y_z]}\n        x_y: {type: string, enum: [z]}\n",
     "m.yaml:11:36: error: this gives the generated C name 'p_Enum_a_x_y_z'", {0}, 1},
};

START_TEST(test_yaml_case)
{
    const yaml_case *c = &yaml_cases[_i];
    char *text;
    size_t errors, k;
    toolgov__manifest *m = tg_load(c->yaml, strlen(c->yaml), &text, &errors);
    ck_assert_msg(m == NULL, "%s: loaded, expected errors", c->what);
    ck_assert_msg(strncmp(text, c->first, strlen(c->first)) == 0,
                  "%s: first diagnostic\n  got:      %s\n  expected: %s", c->what, text, c->first);
    for (k = 0; k < 2 && c->words[k]; k++) {
        const char *eol = strchr(text, '\n');
        ck_assert_msg(memmem(text, eol ? (size_t)(eol - text) : strlen(text), c->words[k],
                             strlen(c->words[k])) != NULL,
                      "%s: '%s' not in: %s", c->what, c->words[k], text);
    }
    ck_assert_msg(errors == c->errors, "%s: %zu errors, expected %zu:\n%s", c->what, errors,
                  c->errors, text);
    free(text);
}
END_TEST

/* SPEC 9's example, as a manifest: compiled, with its canonical text. */
START_TEST(test_yaml_spec_example)
{
    static const char yaml[] =
        "name: calendar\nprovides: [tool]\ntools:\n"
        "  create_reminder:\n    effect: write\n    description: Create one reminder.\n"
        "    parameters:\n      type: object\n      properties:\n"
        "        title:    {type: string, minLength: 1, maxLength: 200, description: What to remind about.}\n"
        "        date:     {type: string, format: date, description: \"The day, YYYY-MM-DD.\"}\n"
        "        time:     {type: string, format: time, description: \"The time of day, HH:MM.\"}\n"
        "        note:     {type: string}\n"
        "        priority: {type: string, enum: [low, normal, high], default: normal}\n"
        "        minutes_before: {type: integer, minimum: 0, maximum: 1440, default: 0}\n"
        "        tags:     {type: array, items: {type: string}, maxItems: 10}\n"
        "      required: [title, date, time]\n      additionalProperties: false\n"
        "  no_args:\n    effect: read\n    description: Nothing to give.\n";
    char *text;
    size_t errors;
    toolgov__manifest *m = tg_load(yaml, strlen(yaml), &text, &errors);
    toolgov__arena a;
    toolgov__diag d;
    toolgov__schema_ctx cx;
    const char *canon;
    size_t len;
    ck_assert_msg(m != NULL, "%s", text);
    ck_assert_ptr_nonnull(m->tools[0].params);
    ck_assert_ptr_null(m->tools[1].params);
    ck_assert_uint_eq(m->tools[0].params_at.line, 7);
    ck_assert_uint_eq(m->tools[0].params_at.col, 5);
    ck_assert_uint_eq(m->tools[0].params->prop_count, 7);
    toolgov__arena_init(&a);
    toolgov__diag_init(&d, stderr, 0);
    cx.arena = &a;
    cx.d = &d;
    cx.path = "m.yaml";
    cx.tool = NULL;
    cx.oom = 0;
    ck_assert_int_eq(toolgov__schema_text(&cx, m->tools[0].params, &canon, &len), 0);
    ck_assert_str_eq(canon,
        "{\"type\":\"object\",\"properties\":{"
        "\"title\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":200,\"description\":\"What to remind about.\"},"
        "\"date\":{\"type\":\"string\",\"format\":\"date\",\"description\":\"The day, YYYY-MM-DD.\"},"
        "\"time\":{\"type\":\"string\",\"format\":\"time\",\"description\":\"The time of day, HH:MM.\"},"
        "\"note\":{\"type\":\"string\"},"
        "\"priority\":{\"type\":\"string\",\"enum\":[\"low\",\"normal\",\"high\"],\"default\":\"normal\"},"
        "\"minutes_before\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1440,\"default\":0},"
        "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":10}},"
        "\"required\":[\"title\",\"date\",\"time\"],\"additionalProperties\":false}");
    toolgov__arena_free(&a);
    toolgov__manifest_free(m);
    free(text);
}
END_TEST

/* The C renderers: the struct members and the table rows of the SPEC
** example (the generated code is compiled by the golden tests). */
START_TEST(test_c_render)
{
    sfix s;
    char *text, *h, *c;
    const char *params, *schema;
    toolgov__snode *n;
    toolgov__buf hb, cb;
    toolgov__schema_share sh;
    sfix_open(&s);
    n = sfix_compile(&s, spec_reminder, &text);
    ck_assert_msg(n != NULL, "%s", text);
    toolgov__buf_init(&hb);
    toolgov__buf_init(&cb);
    ck_assert_int_eq(toolgov__schema_c_types(&hb, "cal", "create_reminder", n), 0);
    toolgov__schema_share_init(&sh);
    ck_assert_int_eq(toolgov__schema_c_tables(&cb, &sh, &s.cx, "cal", "create_reminder", n,
                                              &params, &schema), 0);
    ck_assert_str_eq(params, "cal_Params_create_reminder");
    ck_assert_int_eq(toolgov__schema_c_types(&hb, "cal", "none", NULL), 0);
    h = strndup(hb.data, hb.len);
    c = strndup(cb.data, cb.len);
    ck_assert_ptr_nonnull(strstr(h, "typedef enum cal_Enum_create_reminder_priority {\n"
                                    "    cal_Enum_create_reminder_priority_low = 0,\n"));
    ck_assert_ptr_nonnull(strstr(h, "    toolgov_str title;\n"));
    ck_assert_ptr_nonnull(strstr(h, "    cal_Enum_create_reminder_priority priority;\n"
                                    "    int64_t minutes_before;\n"
                                    "    struct { const toolgov_str *items; size_t count; } tags;\n"
                                    "    struct {\n        bool note;\n        bool tags;\n    } has;"));
    ck_assert_ptr_nonnull(strstr(h, "#define cal_Args_none toolgov_no_args\n"));
    ck_assert_ptr_nonnull(strstr(c, "offsetof(cal_Args_create_reminder, tags.items), "
                                    "offsetof(cal_Args_create_reminder, has.tags), 0, NULL }"));
    ck_assert_ptr_nonnull(strstr(c, "offsetof(cal_Args_create_reminder, priority), "
                                    "TOOLGOV_ARG_NO_HAS, 0, \"\\\"normal\\\"\" }"));
    ck_assert_ptr_nonnull(strstr(c, "static const toolgov_arg_schema cal_Params_create_reminder = {\n"
                                    "    TOOLGOV_ARG_OBJECT, TOOLGOV_ARG_F_CLOSED,"));
    ck_assert_ptr_nonnull(strstr(c, "static const char cal_Schema_"));
    ck_assert_ptr_nonnull(strstr(c, schema));
    toolgov__schema_share_free(&sh);
    free(h);
    free(c);
    toolgov__buf_free(&hb);
    toolgov__buf_free(&cb);
    free(text);
    sfix_close(&s);
}
END_TEST

/* Identical tables are written once per render: a second tool with the
** same schema adds nothing and names the first tool's root; a tool that
** shares only some properties reuses those nodes; a tool without
** parameters shares the one no-arguments schema text. */
START_TEST(test_c_share)
{
    static const char *const other =
        "{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\",\"minLength\":1,"
        "\"maxLength\":200},\"when\":{\"type\":\"string\",\"format\":\"date\"}},"
        "\"required\":[\"when\"]}";
    sfix s;
    char *text, *c;
    const char *at;
    const char *p1, *s1, *p2, *s2, *p3, *s3, *p4, *s4, *p5, *s5;
    toolgov__snode *n1, *n2, *n3;
    toolgov__buf cb;
    toolgov__schema_share sh;
    size_t len1, nodes1;
    sfix_open(&s);
    n1 = sfix_compile(&s, spec_reminder, &text);
    ck_assert_msg(n1 != NULL, "%s", text);
    free(text);
    n2 = sfix_compile(&s, spec_reminder, &text);
    ck_assert_msg(n2 != NULL, "%s", text);
    free(text);
    n3 = sfix_compile(&s, other, &text);
    ck_assert_msg(n3 != NULL, "%s", text);
    free(text);
    toolgov__buf_init(&cb);
    toolgov__schema_share_init(&sh);
    ck_assert_int_eq(toolgov__schema_c_tables(&cb, &sh, &s.cx, "cal", "a", n1, &p1, &s1), 0);
    len1 = cb.len;
    c = strndup(cb.data, cb.len);
    for (nodes1 = 0, at = c; (at = strstr(at, "static const toolgov_arg_schema cal_Node_")) != NULL;
         nodes1++)
        at++;
    free(c);
    ck_assert_uint_gt(nodes1, 0);
    /* The same schema: nothing written, the same names. */
    ck_assert_int_eq(toolgov__schema_c_tables(&cb, &sh, &s.cx, "cal", "b", n2, &p2, &s2), 0);
    ck_assert_uint_eq(cb.len, len1);
    ck_assert_str_eq(p2, "cal_Params_a");
    ck_assert_str_eq(s2, s1);
    /* Another schema: its own root and text; the title node (minLength 1,
    ** maxLength 200) and the date node are shared, so no new node has them. */
    ck_assert_int_eq(toolgov__schema_c_tables(&cb, &sh, &s.cx, "cal", "c", n3, &p3, &s3), 0);
    ck_assert_str_eq(p3, "cal_Params_c");
    ck_assert_str_ne(s3, s1);
    c = strndup(cb.data + len1, cb.len - len1);
    ck_assert_ptr_null(strstr(c, "static const toolgov_arg_schema cal_Node_"));
    ck_assert_ptr_nonnull(strstr(c, "offsetof(cal_Args_c, title)"));
    ck_assert_ptr_nonnull(strstr(c, "sizeof(cal_Args_c)"));
    free(c);
    /* No parameters: no root, one shared text. */
    ck_assert_int_eq(toolgov__schema_c_tables(&cb, &sh, &s.cx, "cal", "d", NULL, &p4, &s4), 0);
    ck_assert_ptr_null(p4);
    len1 = cb.len;
    ck_assert_int_eq(toolgov__schema_c_tables(&cb, &sh, &s.cx, "cal", "e", NULL, &p5, &s5), 0);
    ck_assert_ptr_null(p5);
    ck_assert_str_eq(s5, s4);
    ck_assert_uint_eq(cb.len, len1);
    toolgov__schema_share_free(&sh);
    toolgov__buf_free(&cb);
    sfix_close(&s);
}
END_TEST

/* Tools whose parameters: text is byte for byte the same compile to equal
** trees; every mark names the tool's own text. */
static int same_tree(const toolgov__snode *a, const toolgov__snode *b)
{
    return a && b && a->text_len == b->text_len && memcmp(a->text, b->text, a->text_len) == 0;
}

#define SHARED_TOOL(name, params) \
    "  " name ":\n    effect: read\n    description: d\n    parameters:\n" params
#define SHARED_PARAMS "      type: object\n      properties:\n        y: {type: object}\n"

START_TEST(test_shared_params)
{
    /* x, w: the same text, each followed by the next tool; v: the same
    ** parameters, but a comment follows; u: other text. */
    static const char yaml[] =
        "name: p\nprovides: [tool]\ntools:\n" SHARED_TOOL("x", SHARED_PARAMS)
        SHARED_TOOL("w", SHARED_PARAMS) SHARED_TOOL("v", SHARED_PARAMS)
        "    # trailing\n" SHARED_TOOL("u", "      type: object\n");
    /* w's property y gives p_Args_w_y, and so does tool w_y (no
    ** parameters): the note must name w's own line 17, not x's line 10. */
    static const char clash[] =
        "name: p\nprovides: [tool]\ntools:\n" SHARED_TOOL("x", SHARED_PARAMS)
        SHARED_TOOL("w", SHARED_PARAMS) "  w_y:\n    effect: read\n    description: d\n";
    /* One tree for both tools whose names clash within it: each tool's
    ** clash is reported at its own lines. */
    static const char inner[] =
        "name: p\nprovides: [tool]\ntools:\n"
        SHARED_TOOL("a", "      type: object\n      properties:\n        x: {type: string, enum: [y_z]}\n"
                         "        x_y: {type: string, enum: [z]}\n")
        SHARED_TOOL("b", "      type: object\n      properties:\n        x: {type: string, enum: [y_z]}\n"
                         "        x_y: {type: string, enum: [z]}\n");
    /* The same bad text twice: each reports at its own place. */
    static const char bad[] =
        "name: p\nprovides: [tool]\ntools:\n" SHARED_TOOL("a", "      type: objec\n")
        SHARED_TOOL("b", "      type: objec\n");
    char *text;
    size_t errors;
    toolgov__manifest *m = tg_load(yaml, strlen(yaml), &text, &errors);
    ck_assert_msg(m != NULL, "%s", text);
    ck_assert_uint_eq(m->tool_count, 4);
    ck_assert_ptr_nonnull(m->tools[0].params);
    ck_assert(same_tree(m->tools[1].params, m->tools[0].params));
    ck_assert_uint_eq(m->tools[1].params_at.line, 14);
    ck_assert_uint_eq(m->tools[1].params->at.line, m->tools[0].params->at.line + 7);
    ck_assert(same_tree(m->tools[2].params, m->tools[0].params));
    ck_assert_ptr_nonnull(m->tools[3].params);
    ck_assert(!same_tree(m->tools[3].params, m->tools[0].params));
    ck_assert_uint_eq(m->tools[2].params->prop_count, 1);
    ck_assert_uint_eq(m->tools[3].params->prop_count, 0);
    toolgov__manifest_free(m);
    free(text);

    /* Text P, then Q, then P again: the third finds the first by its hash. */
    {
        static const char aba[] =
            "name: p\nprovides: [tool]\ntools:\n" SHARED_TOOL("a", SHARED_PARAMS)
            SHARED_TOOL("b", "      type: object\n") SHARED_TOOL("c", SHARED_PARAMS)
            SHARED_TOOL("d", "      type: object\n");
        m = tg_load(aba, strlen(aba), &text, &errors);
        ck_assert_msg(m != NULL, "%s", text);
        ck_assert(same_tree(m->tools[2].params, m->tools[0].params));
        ck_assert_uint_eq(m->tools[2].params->at.line, m->tools[0].params->at.line + 12);
        ck_assert(!same_tree(m->tools[1].params, m->tools[0].params));
        toolgov__manifest_free(m);
        free(text);
    }

    /* Characters beyond ASCII before the tools (libyaml's marks count
    ** characters, the reuse compares bytes): 171 two-byte characters put
    ** a mark's index 171 bytes before its byte, one tool's length here.
    ** The reuse still finds the same text, and a tool whose text has the
    ** same length but another type gets its own tree; with a BOM too. */
    {
        static const char *const heads[] = {"", "\xEF\xBB\xBF"};
        static const char pad[] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
        size_t h;
        for (h = 0; h < 2; h++) {
            toolgov__buf y;
            int k;
            toolgov__buf_init(&y);
            toolgov__buf_printf(&y, "%sname: p\nprovides: [tool]\ntools:\n  first:\n"
                                    "    effect: read\n    description: \"", heads[h]);
            for (k = 0; k < 171; k++)
                toolgov__buf_put(&y, "\xC3\xA9", 2);
            toolgov__buf_printf(&y, "\"\n");
            for (k = 0; k < 5; k++) /* the last one's text is not reused */
                toolgov__buf_printf(&y, "  t%d:\n    effect: read\n    description: %s\n"
                                        "    parameters:\n      type: object\n"
                                        "      properties:\n        q: {type: %s}\n",
                                    k, pad, k == 2 ? "number" : "string");
            ck_assert(!y.oom);
            m = tg_load(y.data, y.len, &text, &errors);
            ck_assert_msg(m != NULL, "%s", text);
            ck_assert_uint_eq(m->tool_count, 6);
            ck_assert(same_tree(m->tools[2].params, m->tools[1].params));
            ck_assert(same_tree(m->tools[4].params, m->tools[1].params));
            ck_assert(!same_tree(m->tools[3].params, m->tools[1].params));
            ck_assert_int_eq(m->tools[3].params->props[0].schema->type, TOOLGOV_S_NUMBER);
            ck_assert_int_eq(m->tools[4].params->props[0].schema->type, TOOLGOV_S_STRING);
            toolgov__manifest_free(m);
            free(text);
            toolgov__buf_free(&y);
        }
    }

    /* Text equal to an earlier tool's parameters inside a quoted scalar
    ** and inside a flow mapping that span lines: a reading that leaves it
    ** out would change the scalar or the mapping, so the loader reads again
    ** without leaving anything out (tg_load checks every way agrees), and
    ** CRLF line ends, a tool after the skipped text with an error, and
    ** one with a C name clash report at their own lines. */
    {
        static const char *const texts[] = {
            "name: p\nprovides: [tool]\ntools:\n" SHARED_TOOL("a", SHARED_PARAMS)
            "  b:\n    effect: read\n    description: \"x\n    parameters:\n" SHARED_PARAMS
            "  y\"\n" SHARED_TOOL("c", SHARED_PARAMS) SHARED_TOOL("d", SHARED_PARAMS),
            "name: p\nprovides: [tool]\ntools:\n" SHARED_TOOL("a", SHARED_PARAMS)
            "  b: {effect: read, description: x,\n    parameters:\n" SHARED_PARAMS
            "  }\n" SHARED_TOOL("c", SHARED_PARAMS) SHARED_TOOL("d", SHARED_PARAMS),
            "name: p\r\nprovides: [tool]\r\ntools:\r\n  a:\r\n    effect: read\r\n"
            "    description: d\r\n    parameters:\r\n      type: object\r\n"
            "  b:\r\n    effect: read\r\n    description: d\r\n    parameters:\r\n"
            "      type: object\r\n  c:\r\n    effect: reed\r\n    description: d\r\n",
            "name: p\nprovides: [tool]\ntools:\n" SHARED_TOOL("a", SHARED_PARAMS)
            SHARED_TOOL("b", SHARED_PARAMS) SHARED_TOOL("c", "      type: objec\n")
            SHARED_TOOL("d", SHARED_PARAMS),
            "name: p\nprovides: [tool]\ntools:\n" SHARED_TOOL("a", SHARED_PARAMS)
            SHARED_TOOL("b", SHARED_PARAMS) SHARED_TOOL("c", SHARED_PARAMS)
            SHARED_TOOL("d", SHARED_PARAMS) "  c_y:\n    effect: read\n    description: d\n",
        };
        size_t k;
        for (k = 0; k < sizeof texts / sizeof *texts; k++) {
            m = tg_load(texts[k], strlen(texts[k]), &text, &errors);
            if (k < 2) {
                ck_assert_msg(m != NULL || errors > 0, "%s", text);
            } else if (k == 2) {
                ck_assert_ptr_null(m);
                ck_assert_msg(strstr(text, "m.yaml:15:13: error:") != NULL, "%s", text);
            } else if (k == 3) {
                ck_assert_ptr_null(m);
                ck_assert_msg(strstr(text, "m.yaml:22:13: error: unknown type 'objec'") != NULL,
                              "%s", text);
            } else {
                ck_assert_ptr_null(m);
                /* c's tree is a's (lines 8-10), shifted to c's own lines */
                ck_assert_msg(strstr(text, "m.yaml:32:3: error: this gives the generated C name "
                                           "'p_Args_c_y'") != NULL &&
                                  strstr(text, "m.yaml:24:9: note: 'p_Args_c_y' also comes from "
                                               "here") != NULL,
                              "%s", text);
            }
            toolgov__manifest_free(m);
            free(text);
        }
    }

    /* A lone CR anywhere (a line break the reuse does not follow): every
    ** tool compiles its own tree. */
    {
        char *cr = malloc(sizeof yaml + 8);
        ck_assert_ptr_nonnull(cr);
        memcpy(cr, yaml, sizeof yaml - 1);
        static const char tail[] = "# end\r";
        memcpy(cr + sizeof yaml - 1, tail, sizeof tail);
        m = tg_load(cr, strlen(cr), &text, &errors);
        ck_assert_msg(m != NULL, "%s", text);
        ck_assert(same_tree(m->tools[1].params, m->tools[0].params));
        toolgov__manifest_free(m);
        free(text);
        free(cr);
    }

    m = tg_load(clash, strlen(clash), &text, &errors);
    ck_assert_ptr_null(m);
    ck_assert_uint_eq(errors, 1);
    ck_assert_msg(strstr(text, "m.yaml:18:3: error: this gives the generated C name 'p_Args_w_y'") &&
                      strstr(text, "m.yaml:17:9: note: 'p_Args_w_y' also comes from here"),
                  "%s", text);
    free(text);

    m = tg_load(inner, strlen(inner), &text, &errors);
    ck_assert_ptr_null(m);
    ck_assert_uint_eq(errors, 2);
    ck_assert_msg(strstr(text, "m.yaml:11:36: error: this gives the generated C name 'p_Enum_a_x_y_z'") &&
                      strstr(text, "m.yaml:19:36: error: this gives the generated C name 'p_Enum_b_x_y_z'") &&
                      strstr(text, "m.yaml:18:34: note: 'p_Enum_b_x_y_z' also comes from here"),
                  "%s", text);
    free(text);

    m = tg_load(bad, strlen(bad), &text, &errors);
    ck_assert_ptr_null(m);
    ck_assert_uint_eq(errors, 2);
    ck_assert_msg(strstr(text, "m.yaml:8:13: error:") && strstr(text, "m.yaml:13:13: error:"),
                  "%s", text);
    free(text);
}
END_TEST

static Suite *schema_suite(void)
{
    Suite *s = suite_create("schema");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, test_bad_case, 0, (int)(sizeof bad_cases / sizeof *bad_cases));
    tcase_add_test(tc, test_example_problem_cap);
    tcase_add_test(tc, test_values_beside_unknown_keyword);
    tcase_add_test(tc, test_decode_rules);
    tcase_add_test(tc, test_good_model);
    tcase_add_test(tc, test_tree_outlives_values);
    tcase_add_test(tc, test_raw_forms);
    tcase_add_test(tc, test_c_names);
    tcase_add_test(tc, test_int64);
    tcase_add_test(tc, test_formats);
    tcase_add_test(tc, test_canonical_escapes);
    tcase_add_test(tc, test_error_cap);
    tcase_add_test(tc, test_tables_match_fixture);
    tcase_add_test(tc, test_canonical_values);
    tcase_add_test(tc, test_int_bounds);
    tcase_add_loop_test(tc, test_yaml_case, 0, (int)(sizeof yaml_cases / sizeof *yaml_cases));
    tcase_add_test(tc, test_yaml_spec_example);
    tcase_add_test(tc, test_c_render);
    tcase_add_test(tc, test_c_share);
    tcase_add_test(tc, test_shared_params);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(schema_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
