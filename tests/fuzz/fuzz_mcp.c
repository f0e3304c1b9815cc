/* SPDX-License-Identifier: MIT */
/*
** fuzz_mcp.c: libFuzzer target for toolgov-mcp's protocol engine: the
** JSON-RPC 2.0 envelope, initialize, tools/list, tools/call with its
** arguments (decoded against declared parameters), elicitation answers and
** cancellations.
**
** Each input is a session: its lines (split at '\n') are fed one by one to a
** fresh server over the fuzz fixture's registry (a tool of every kind the
** gate tells apart) plus a plugin whose tool declares SPEC §9's
** create_reminder parameters. Invariants: handling a line never fails
** (the write function always succeeds, so only TOOLGOV_ENOMEM could, and it
** is checked for); every message the server sends is one line of strict
** JSON (the runtime's RFC 8259 reader accepts it) holding an object; the
** server never sends more than a bounded number of messages per line.
*/
#include <string.h>

#include "fuzz_runtime_fixture.h"

#include "fixture_reminder.h"
#include "json.h"
#include "server.h"

static int reminder_handler(const toolgov_call *call, const void *args, toolgov_result *out)
{
    const reminder_args *a = args;
    return toolgov_result_printf(out, "%s %s %s", call->tool, a->title.ptr, a->date.ptr);
}

static const toolgov_tool_spec reminder_tools[] = {
    {sizeof(toolgov_tool_spec), "create_reminder", "Create a reminder.", TOOLGOV_EFFECT_WRITE,
     TOOLGOV_CONFIRM_ONCE, "", 0, 0, 3, 3, &reminder_schema, REMINDER_SCHEMA_JSON},
};

static int reminder_register(toolgov_plugin_api *api)
{
    return toolgov_register_tool(api, "create_reminder", "Create a reminder.", reminder_handler);
}

static const char *const reminder_provides[] = {"tool"};

static const toolgov_plugin reminder_plugin = {
    TOOLGOV_ABI_VERSION, "reminders", "reminders.yaml", reminder_provides, 1,
    reminder_tools, 1, reminder_register,
};

static void *std_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    (void)osize;
    if (nsize == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, nsize);
}

typedef struct sink {
    toolgov__scratch arena;
    size_t sent; /* messages sent for the current line */
} sink;

/* Every message: one line, one strict JSON object. */
static int check_message(void *ud, const char *msg, size_t len)
{
    sink *k = ud;
    toolgov__json_doc doc;
    toolgov__json_error err;

    FUZZ_CHECK(memchr(msg, '\n', len) == NULL);
    toolgov__scratch_reset(&k->arena);
    FUZZ_CHECK(toolgov__json_parse(&doc, &err, &k->arena, msg, len, 64, (size_t)1 << 26, 0) == 0);
    FUZZ_CHECK(doc.count > 0 && doc.nodes[0].type == TOOLGOV__JSON_OBJECT);
    k->sent++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static toolgov_registry *reg;
    static toolgov_policy *pol;
    static toolgov_allocator alloc = {std_alloc, NULL};
    toolgov_mcp_options opt;
    toolgov_mcp_server *srv;
    sink k;
    const char *p = (const char *)data, *end = p + size;

    if (reg == NULL) {
        FUZZ_CHECK(toolgov_registry_new(&reg, NULL) == 0);
        FUZZ_CHECK(toolgov_registry_mount(reg, &fixture_plugin, NULL) == 0);
        FUZZ_CHECK(toolgov_registry_mount(reg, &reminder_plugin, NULL) == 0);
        FUZZ_CHECK(toolgov_policy_new(&pol, reg) == 0);
    }
    memset(&opt, 0, sizeof opt);
    opt.max_message = 1 << 16;
    toolgov__scratch_init(&k.arena, &alloc);
    FUZZ_CHECK(toolgov_mcp_server_new(&srv, reg, pol, &opt, check_message, &k) == 0);
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        k.sent = 0;
        if (len > toolgov_mcp_server_max_message(srv))
            FUZZ_CHECK(toolgov_mcp_server_oversized(srv, len) == 0);
        else
            FUZZ_CHECK(toolgov_mcp_server_handle(srv, p, len) == 0);
        /* One answer, plus at most the pending calls an answer releases (256). */
        FUZZ_CHECK(k.sent <= 1 + 256);
        p += len + (nl != NULL);
    }
    toolgov_mcp_server_free(srv);
    toolgov__scratch_free(&k.arena);
    return 0;
}
