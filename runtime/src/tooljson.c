/* SPDX-License-Identifier: MIT */
/*
** tooljson.c: a tool list in each API's shape (see tooljson.h).
*/
#include "tooljson.h"

#include <string.h>

const char *toolgov__mcp_annotations(toolgov_effect e)
{
    switch (e) {
    case TOOLGOV_EFFECT_READ:
        return "{\"readOnlyHint\":true}";
    case TOOLGOV_EFFECT_WRITE:
        return "{\"readOnlyHint\":false,\"destructiveHint\":false,\"idempotentHint\":false}";
    case TOOLGOV_EFFECT_DESTRUCTIVE:
    default:
        return "{\"readOnlyHint\":false,\"destructiveHint\":true,\"idempotentHint\":false}";
    }
}

const char *toolgov__effect_mark(toolgov_effect e, int once)
{
    if (e == TOOLGOV_EFFECT_DESTRUCTIVE)
        return "[destructive, needs approval]";
    if (e == TOOLGOV_EFFECT_WRITE)
        return once ? "[write, asks once]" : "[write]";
    return once ? "[asks once]" : "";
}

static void put_description(toolgov__out *o, const toolgov__tool_view *t)
{
    toolgov__out_put(o, "\"", 1);
    if (t->mark[0]) {
        toolgov__out_str(o, t->mark);
        toolgov__out_put(o, " ", 1);
    }
    toolgov__out_json_chars(o, t->description, t->description_len);
    toolgov__out_put(o, "\"", 1);
}

/* Each API's entry: the name, the description and the schema under that
** API's keys (and MCP's annotations), in this order. */
static const struct shape {
    const char *head;       /* up to the name */
    const char *schema_key; /* after the description, up to the schema */
    const char *tail;
} shapes[] = {
    {"{\"type\":\"function\",\"function\":{\"name\":", ",\"parameters\":", "}}"},
    {"{\"name\":", ",\"input_schema\":", "}"},
    {"{\"name\":", ",\"inputSchema\":", "}"},
};

static void put_entry(toolgov__out *o, toolgov_tools_format fmt, const toolgov__tool_view *t)
{
    const char *schema = t->schema ? t->schema : TOOLGOV__NO_ARGS_SCHEMA;
    const struct shape *sh;

    if (fmt == TOOLGOV_TOOLS_JSON_SCHEMA) {
        toolgov__out_json_mem(o, t->name, t->name_len);
        toolgov__out_str(o, ":");
        toolgov__out_str(o, schema);
        return;
    }
    sh = &shapes[fmt];
    toolgov__out_str(o, sh->head);
    toolgov__out_json_mem(o, t->name, t->name_len);
    toolgov__out_str(o, ",\"description\":");
    put_description(o, t);
    toolgov__out_str(o, sh->schema_key);
    toolgov__out_str(o, schema);
    if (fmt == TOOLGOV_TOOLS_MCP) {
        toolgov__out_str(o, ",\"annotations\":");
        toolgov__out_str(o, toolgov__mcp_annotations(t->effect));
    }
    toolgov__out_str(o, sh->tail);
}

void toolgov__tools_write(toolgov__out *o, toolgov_tools_format fmt, size_t n,
                          toolgov__tool_view_fn view, void *ud)
{
    size_t i, listed = 0;

    toolgov__out_str(o, fmt == TOOLGOV_TOOLS_MCP           ? "{\"tools\":["
                        : fmt == TOOLGOV_TOOLS_JSON_SCHEMA ? "{"
                                                           : "[");
    for (i = 0; i < n; i++) {
        toolgov__tool_view t;

        if (!view(ud, i, &t))
            continue;
        if (listed++)
            toolgov__out_put(o, ",", 1);
        put_entry(o, fmt, &t);
    }
    toolgov__out_str(o, fmt == TOOLGOV_TOOLS_MCP           ? "]}"
                        : fmt == TOOLGOV_TOOLS_JSON_SCHEMA ? "}"
                                                           : "]");
}
