/* SPDX-License-Identifier: MIT */
/*
** fixture_nodes.h: a hand-written argument table with a property of every
** kind, flag and format of args.h (nested objects, arrays of objects, raw
** values with anyOf, oneOf and type lists), for the decoder's rule tests.
** Static const data; nothing is owned.
*/
#ifndef TOOLGOV_TEST_FIXTURE_NODES_H
#define TOOLGOV_TEST_FIXTURE_NODES_H

#include <stddef.h>
#include <stdint.h>

#include "toolgov/args.h"

typedef struct nodes_person {
    toolgov_str name;
    int64_t age;
    struct { bool age; } has;
} nodes_person;

typedef struct nodes_where {
    toolgov_str city;
    toolgov_str zip;
    struct { bool city; } has;
} nodes_where;

typedef struct nodes_args {
    int64_t i;
    double n;
    bool b;
    int64_t level;
    toolgov_str day, at, when, mail, link;
    struct { const nodes_person *items; size_t count; } people;
    nodes_where where;
    toolgov_str due, maybe, any, one;
    struct {
        bool i, n, b, level, day, at, when, mail, link, people, where, due, maybe, any, one;
    } has;
} nodes_args;

/* Every member of a node, positionally, from a few that vary. */
#define NODES_LEAF(kind, flags, minl, maxl, fmt, imin, imax, dmin, dmax, types) \
    { kind, flags, minl, maxl, fmt, imin, imax, dmin, dmax, NULL, 0, NULL, 0, NULL, 0, \
      0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, 0, types, NULL, 0 }
#define NODES_STR(fmt) \
    NODES_LEAF(TOOLGOV_ARG_STRING, 0u, 0, TOOLGOV_ARG_UNBOUNDED, fmt, 0, 0, 0.0, 0.0, 0u)
#define NODES_HAS(m) offsetof(nodes_args, has.m)

static const toolgov_arg_schema nodes_str = NODES_STR(TOOLGOV_FORMAT_NONE);
static const toolgov_arg_schema nodes_date = NODES_STR(TOOLGOV_FORMAT_DATE);
static const toolgov_arg_schema nodes_time = NODES_STR(TOOLGOV_FORMAT_TIME);
static const toolgov_arg_schema nodes_date_time = NODES_STR(TOOLGOV_FORMAT_DATE_TIME);
static const toolgov_arg_schema nodes_email = NODES_STR(TOOLGOV_FORMAT_EMAIL);
static const toolgov_arg_schema nodes_uri = NODES_STR(TOOLGOV_FORMAT_URI);
/* -11 < i < 100 */
static const toolgov_arg_schema nodes_i = NODES_LEAF(
    TOOLGOV_ARG_INTEGER, TOOLGOV_ARG_F_HAS_MIN | TOOLGOV_ARG_F_EXCL_MIN | TOOLGOV_ARG_F_HAS_MAX |
    TOOLGOV_ARG_F_EXCL_MAX, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, -11, 100, 0.0, 0.0, 0u);
/* n >= -0.5 */
static const toolgov_arg_schema nodes_n = NODES_LEAF(
    TOOLGOV_ARG_NUMBER, TOOLGOV_ARG_F_HAS_MIN, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
    0, 0, -0.5, 0.0, 0u);
static const toolgov_arg_schema nodes_bool = NODES_LEAF(
    TOOLGOV_ARG_BOOLEAN, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0, 0u);
static const int64_t nodes_levels[] = {1, 3, 5};
static const toolgov_arg_schema nodes_level = {
    TOOLGOV_ARG_INTEGER_ENUM, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, nodes_levels, 3, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, 0, 0u, NULL, 0
};
/* age >= 0 */
static const toolgov_arg_schema nodes_age = NODES_LEAF(
    TOOLGOV_ARG_INTEGER, TOOLGOV_ARG_F_HAS_MIN, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
    0, 0, 0.0, 0.0, 0u);

static const toolgov_arg_field nodes_person_fields[] = {
    { "name", 4, &nodes_str, offsetof(nodes_person, name), TOOLGOV_ARG_NO_HAS, 1, NULL },
    { "age", 3, &nodes_age, offsetof(nodes_person, age), offsetof(nodes_person, has.age), 0, NULL },
};
static const toolgov_arg_schema nodes_person_schema = {
    TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, nodes_person_fields, 2,
    sizeof(nodes_person), 0u, NULL, 0
};
static const toolgov_arg_schema nodes_people = {
    TOOLGOV_ARG_ARRAY, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, &nodes_person_schema, sizeof(nodes_person), 1, TOOLGOV_ARG_UNBOUNDED,
    NULL, 0, 0, 0u, NULL, 0
};

static const toolgov_arg_field nodes_where_fields[] = {
    { "city", 4, &nodes_str, offsetof(nodes_where, city), offsetof(nodes_where, has.city), 0, NULL },
    { "zip", 3, &nodes_str, offsetof(nodes_where, zip), TOOLGOV_ARG_NO_HAS, 0, "\"0001\"" },
};
static const toolgov_arg_schema nodes_where_schema = {
    TOOLGOV_ARG_OBJECT, TOOLGOV_ARG_F_CLOSED, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
    0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, nodes_where_fields, 2,
    sizeof(nodes_where), 0u, NULL, 0
};

/* due: anyOf [{type: string, format: date}, {type: integer}] */
static const toolgov_arg_schema nodes_due_alts[] = {
    NODES_STR(TOOLGOV_FORMAT_DATE),
    NODES_LEAF(TOOLGOV_ARG_INTEGER, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
               0, 0, 0.0, 0.0, 0u),
};
static const toolgov_arg_schema nodes_due = {
    TOOLGOV_ARG_RAW, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, 0, 0u, nodes_due_alts, 2
};
/* maybe: {type: [string, null], maxLength: 3} */
static const toolgov_arg_schema nodes_maybe = NODES_LEAF(
    TOOLGOV_ARG_RAW, 0u, 0, 3, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    TOOLGOV_JSON_STRING | TOOLGOV_JSON_NULL);
/* any: {} */
static const toolgov_arg_schema nodes_any = NODES_LEAF(
    TOOLGOV_ARG_RAW, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0, 0u);
/* one: oneOf [{type: integer}, {type: number, minimum: 10}] */
static const toolgov_arg_schema nodes_one_alts[] = {
    NODES_LEAF(TOOLGOV_ARG_INTEGER, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
               0, 0, 0.0, 0.0, 0u),
    NODES_LEAF(TOOLGOV_ARG_NUMBER, TOOLGOV_ARG_F_HAS_MIN, 0, TOOLGOV_ARG_UNBOUNDED,
               TOOLGOV_FORMAT_NONE, 0, 0, 10.0, 0.0, 0u),
};
static const toolgov_arg_schema nodes_one = {
    TOOLGOV_ARG_RAW, TOOLGOV_ARG_F_ONE_OF, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
    0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, 0, 0u,
    nodes_one_alts, 2
};

static const toolgov_arg_field nodes_fields[] = {
    { "i", 1, &nodes_i, offsetof(nodes_args, i), NODES_HAS(i), 0, NULL },
    { "n", 1, &nodes_n, offsetof(nodes_args, n), NODES_HAS(n), 0, NULL },
    { "b", 1, &nodes_bool, offsetof(nodes_args, b), NODES_HAS(b), 0, NULL },
    { "level", 5, &nodes_level, offsetof(nodes_args, level), NODES_HAS(level), 0, NULL },
    { "day", 3, &nodes_date, offsetof(nodes_args, day), NODES_HAS(day), 0, NULL },
    { "at", 2, &nodes_time, offsetof(nodes_args, at), NODES_HAS(at), 0, NULL },
    { "when", 4, &nodes_date_time, offsetof(nodes_args, when), NODES_HAS(when), 0, NULL },
    { "mail", 4, &nodes_email, offsetof(nodes_args, mail), NODES_HAS(mail), 0, NULL },
    { "link", 4, &nodes_uri, offsetof(nodes_args, link), NODES_HAS(link), 0, NULL },
    { "people", 6, &nodes_people, offsetof(nodes_args, people.items), NODES_HAS(people), 0, NULL },
    { "where", 5, &nodes_where_schema, offsetof(nodes_args, where), NODES_HAS(where), 0, NULL },
    { "due", 3, &nodes_due, offsetof(nodes_args, due), NODES_HAS(due), 0, NULL },
    { "maybe", 5, &nodes_maybe, offsetof(nodes_args, maybe), NODES_HAS(maybe), 0, NULL },
    { "any", 3, &nodes_any, offsetof(nodes_args, any), NODES_HAS(any), 0, NULL },
    { "one", 3, &nodes_one, offsetof(nodes_args, one), NODES_HAS(one), 0, NULL },
};
static const toolgov_arg_schema nodes_schema = {
    TOOLGOV_ARG_OBJECT, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0,
    NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, nodes_fields,
    sizeof nodes_fields / sizeof nodes_fields[0], sizeof(nodes_args), 0u, NULL, 0
};

#endif /* TOOLGOV_TEST_FIXTURE_NODES_H */
