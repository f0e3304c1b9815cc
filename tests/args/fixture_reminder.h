/* SPDX-License-Identifier: MIT */
/*
** fixture_reminder.h: the argument struct and descriptor tables of SPEC §9's
** create_reminder example, written out by hand in exactly the shape
** toolgov-gen emits them, so the decoder's tests do not need the generator.
** Everything here is static const data; nothing is owned.
*/
#ifndef TOOLGOV_TEST_FIXTURE_REMINDER_H
#define TOOLGOV_TEST_FIXTURE_REMINDER_H

#include <stddef.h>
#include <stdint.h>

#include "toolgov/args.h"

typedef enum reminder_priority {
    REMINDER_PRIORITY_LOW = 0,
    REMINDER_PRIORITY_NORMAL = 1,
    REMINDER_PRIORITY_HIGH = 2
} reminder_priority;

typedef struct reminder_args {
    toolgov_str title;
    toolgov_str date;
    toolgov_str time;
    toolgov_str note;
    reminder_priority priority;
    int64_t minutes_before;
    struct {
        const toolgov_str *items;
        size_t count;
    } tags;
    struct {
        bool note;
        bool tags;
    } has;
} reminder_args;

/* The generated C enum must be int-sized: the decoder stores an int. */
typedef char reminder_priority_is_int[sizeof(reminder_priority) == sizeof(int) ? 1 : -1];

static const toolgov_arg_schema reminder_string_item = {
    TOOLGOV_ARG_STRING, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
    0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED,
    NULL, 0, 0, 0u, NULL, 0
};

static const char *const reminder_priority_names[] = { "low", "normal", "high" };

static const toolgov_arg_schema reminder_nodes[] = {
    /* 0 title */
    { TOOLGOV_ARG_STRING, 0u, 1, 200, TOOLGOV_FORMAT_NONE,
      0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED,
      NULL, 0, 0, 0u, NULL, 0 },
    /* 1 date */
    { TOOLGOV_ARG_STRING, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_DATE,
      0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED,
      NULL, 0, 0, 0u, NULL, 0 },
    /* 2 time */
    { TOOLGOV_ARG_STRING, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_TIME,
      0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED,
      NULL, 0, 0, 0u, NULL, 0 },
    /* 3 priority */
    { TOOLGOV_ARG_STRING_ENUM, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
      0, 0, 0.0, 0.0, reminder_priority_names, 3, NULL, 0, NULL, 0, 0,
      TOOLGOV_ARG_UNBOUNDED, NULL, 0, 0, 0u, NULL, 0 },
    /* 4 minutes_before */
    { TOOLGOV_ARG_INTEGER, TOOLGOV_ARG_F_HAS_MIN | TOOLGOV_ARG_F_HAS_MAX, 0,
      TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE, 0, 1440, 0.0, 0.0, NULL, 0,
      NULL, 0, NULL, 0, 0, TOOLGOV_ARG_UNBOUNDED, NULL, 0, 0, 0u, NULL, 0 },
    /* 5 tags */
    { TOOLGOV_ARG_ARRAY, 0u, 0, TOOLGOV_ARG_UNBOUNDED, TOOLGOV_FORMAT_NONE,
      0, 0, 0.0, 0.0, NULL, 0, NULL, 0, &reminder_string_item,
      sizeof(toolgov_str), 0, 10, NULL, 0, 0, 0u, NULL, 0 }
};

static const toolgov_arg_field reminder_fields[] = {
    { "title", 5, &reminder_nodes[0], offsetof(reminder_args, title),
      TOOLGOV_ARG_NO_HAS, 1, NULL },
    { "date", 4, &reminder_nodes[1], offsetof(reminder_args, date),
      TOOLGOV_ARG_NO_HAS, 1, NULL },
    { "time", 4, &reminder_nodes[2], offsetof(reminder_args, time),
      TOOLGOV_ARG_NO_HAS, 1, NULL },
    { "note", 4, &reminder_string_item, offsetof(reminder_args, note),
      offsetof(reminder_args, has.note), 0, NULL },
    { "priority", 8, &reminder_nodes[3], offsetof(reminder_args, priority),
      TOOLGOV_ARG_NO_HAS, 0, "\"normal\"" },
    { "minutes_before", 14, &reminder_nodes[4],
      offsetof(reminder_args, minutes_before), TOOLGOV_ARG_NO_HAS, 0, "0" },
    { "tags", 4, &reminder_nodes[5], offsetof(reminder_args, tags.items),
      offsetof(reminder_args, has.tags), 0, NULL }
};

static const toolgov_arg_schema reminder_schema = {
    TOOLGOV_ARG_OBJECT, TOOLGOV_ARG_F_CLOSED, 0, TOOLGOV_ARG_UNBOUNDED,
    TOOLGOV_FORMAT_NONE, 0, 0, 0.0, 0.0, NULL, 0, NULL, 0, NULL, 0, 0,
    TOOLGOV_ARG_UNBOUNDED, reminder_fields,
    sizeof reminder_fields / sizeof reminder_fields[0], sizeof(reminder_args),
    0u, NULL, 0
};

/* The schema text that goes with the tables (a spec row's schema_json):
** mount checks that the two agree. */
#define REMINDER_SCHEMA_JSON                                                                  \
    "{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\",\"minLength\":1,"         \
    "\"maxLength\":200},\"date\":{\"type\":\"string\",\"format\":\"date\"},\"time\":{\"type\":"    \
    "\"string\",\"format\":\"time\"},\"note\":{\"type\":\"string\"},\"priority\":{\"type\":"       \
    "\"string\",\"enum\":[\"low\",\"normal\",\"high\"],\"default\":\"normal\"},"                \
    "\"minutes_before\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1440,\"default\":0},"     \
    "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":10}},"            \
    "\"required\":[\"title\",\"date\",\"time\"],\"additionalProperties\":false}"

#endif /* TOOLGOV_TEST_FIXTURE_REMINDER_H */
