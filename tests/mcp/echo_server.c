/* SPDX-License-Identifier: MIT */
/*
** echo_server.c: the floor of the MCP round-trip benchmark. A line-echo
** JSON-RPC server over stdio that does the least an MCP client accepts: it
** answers `initialize`, `tools/list` and every other request with a fixed
** result carrying the request's id, ignores notifications, and never
** parses JSON (it finds the id's text by search). What it costs is what the
** client and the pipes cost; a real server can only add to it.
**
** Not a server to copy: it trusts its input to be the compact JSON that the
** SDK client writes.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The id's JSON text (a number or a string without escapes), or NULL. */
static const char *find_id(const char *line, size_t *out_len)
{
    const char *p = strstr(line, "\"id\":");
    size_t n = 0;
    if (!p)
        return NULL;
    p += 5;
    if (*p == '"') {
        const char *e = strchr(p + 1, '"');
        if (!e)
            return NULL;
        n = (size_t)(e - p) + 1;
    } else {
        while (p[n] && p[n] != ',' && p[n] != '}')
            n++;
    }
    *out_len = n;
    return p;
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, stdin)) > 0) {
        size_t id_len = 0;
        const char *id = find_id(line, &id_len);
        const char *result;
        if (!id)
            continue; /* a notification */
        if (strstr(line, "\"method\":\"initialize\""))
            result = "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                     "\"serverInfo\":{\"name\":\"echo\",\"version\":\"0\"}}";
        else if (strstr(line, "\"method\":\"tools/list\""))
            result = "{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}";
        else
            result = "{\"content\":[{\"type\":\"text\",\"text\":\"echo\"}]}";
        printf("{\"jsonrpc\":\"2.0\",\"id\":%.*s,\"result\":%s}\n", (int)id_len, id, result);
        fflush(stdout);
    }
    free(line);
    return 0;
}
