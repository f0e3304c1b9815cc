/* SPDX-License-Identifier: MIT */
/*
** json_dom.h: a small JSON reader for the examples' tests, which parse the
** transcripts toolgov-demo prints with --json and assert on their fields.
** Strict RFC 8259 apart from \u escapes, which are kept only for ASCII
** (enough for transcripts, whose non-ASCII text is raw UTF-8).
**
** Ownership: jdom_parse returns a tree owned by the caller, freed with
** jdom_free; every pointer the getters return is borrowed from the tree.
*/
#ifndef TOOLGOV_TESTS_JSON_DOM_H
#define TOOLGOV_TESTS_JSON_DOM_H

#include <stddef.h>

typedef enum jdom_type { JDOM_NULL, JDOM_BOOL, JDOM_NUMBER, JDOM_STRING, JDOM_ARRAY, JDOM_OBJECT } jdom_type;

typedef struct jdom {
    jdom_type type;
    double num;
    int boolean;
    char *str;            /* JDOM_STRING */
    char **keys;          /* JDOM_OBJECT */
    struct jdom **items;  /* JDOM_ARRAY, JDOM_OBJECT */
    size_t count;
} jdom;

/* Parse exactly one JSON value (surrounding blanks allowed); NULL on error. */
jdom *jdom_parse(const char *text, size_t len);
void jdom_free(jdom *j);

/* Member `key` of an object, NULL when absent or j is not an object. */
const jdom *jdom_get(const jdom *j, const char *key);
/* Element i of an array, NULL out of range. */
const jdom *jdom_at(const jdom *j, size_t i);
/* Follow a path of object keys separated by '.', e.g. "state.email.trash". */
const jdom *jdom_path(const jdom *j, const char *path);
/* The string value, or NULL when not a string. */
const char *jdom_str(const jdom *j);
/* The number as long, or `dflt` when not a number. */
long jdom_long(const jdom *j, long dflt);
/* 1/0 for true/false, -1 when not a boolean. */
int jdom_bool(const jdom *j);
size_t jdom_len(const jdom *j);

#endif
