/* SPDX-License-Identifier: MIT */
/*
** upstream.c: MCP servers governed behind toolgov-mcp (see upstream.h).
**
** Three parts: the upstreams file (read with the runtime's strict JSON
** reader, every problem at FILE:LINE:COL), each entry's manifest turned
** into a plugin built at run time (toolgov-gen's loader and schema
** compiler, the parameters as in-memory descriptor tables), and the running
** side (start, initialize, tools/list compared with the manifest, the
** handler that forwards a call that passed the gate).
*/
#define _POSIX_C_SOURCE 200809L /* open_memstream, strdup */
#include "upstream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/diag.h"
#include "internal.h"
#include "json.h"
#include "manifest/manifest.h"
#include "plugins.h"
#include "base/names.h"
#include "schema/schema.h"
#include "server.h"
#include "upstream_conn.h"

#include <sodium.h>

/* The largest upstreams file read. */
#define CONFIG_MAX_BYTES ((size_t)1 << 20)
/* The most servers one file may list. */
#define MAX_SERVERS 64
/* The environment MCP hosts hand a stdio server (the TypeScript SDK's
** getDefaultEnvironment on POSIX), before the entry's own `env`. */
static const char *const default_env[] = {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"};

/* What the server offers for one declared tool, as last read. */
typedef struct tool_state {
    unsigned char offered;  /* in its last tools/list */
    unsigned char pin_bad;  /* pinned, and the definition does not match */
    unsigned char served;   /* servable when the client last heard of the list */
    unsigned char have;     /* part[] holds the last definition read */
    unsigned char part[4][32]; /* SHA-256 of each part (part_names) */
} tool_state;

/* The parts of a tool's definition a pin covers besides its name, in the
** order of their keys in the canonical text; each has a digest of its own
** in the pin, after the whole one: ";a=" and 12 hex digits, then d, i, o. */
static const char *const part_names[4] = {"annotations", "description", "inputSchema",
                                          "outputSchema"};
#define PIN_WHOLE 71                /* "sha256:" and 64 hex digits */
#define PIN_PART 15                 /* ";a=" and 12 hex digits */
#define PIN_LEN (PIN_WHOLE + 4 * PIN_PART)

/* One drift row, kept for the --drift report and the audit trail. */
typedef struct drift_row {
    const char *server;   /* the upstream's name (the set owns it) */
    const char *kind;     /* static: undeclared, not_offered, withdrawn, ... */
    char *tool;           /* as the server or manifest names it, escaped */
    char changed[64];     /* the parts that changed, ", "-separated, or "" */
    char *message;        /* the sentence printed on stderr */
} drift_row;

/* The most rows kept; later ones are still printed, and counted. */
#define MAX_DRIFT_ROWS 4096
/* The most rows one reading of a server's list shows; the rest are counted
** in one row, so a server offering thousands of tools floods nothing. */
#define ROWS_PER_LIST 32

typedef struct upstream {
    char *name;             /* the key under mcpServers */
    char **argv;            /* command then args, NULL-terminated */
    char **envp;            /* NULL-terminated */
    char *cwd;              /* NULL: toolgov-mcp's */
    char *url;              /* reached over Streamable HTTP there, or NULL */
    char **headers;         /* its extra request headers, "Name: value", NULL-ended */
    char *manifest_path;
    int timeout_ms;
    toolgov__manifest *m;
    toolgov__arena arena;   /* the tool specs and their tables */
    toolgov_tool_spec *specs;
    tool_state *st;         /* per manifest tool */
    FILE *err;              /* where drift rows go */
    toolgov_mcp_upstreams *set; /* the set it belongs to */
    char *reported;         /* undeclared names already reported, each NUL-ended */
    size_t reported_len;
    int listed;             /* its tools/list has been read once */
    size_t burst;           /* drift rows of the list being read */
    size_t hushed;          /* of those, past ROWS_PER_LIST, not shown */
    long long retry_at;     /* down: when to start it again (monotonic ms) */
    long long looked_at;    /* when the changed hook last read what it said */
    long long refreshed_at; /* when a call's check last read it */
    int backoff_ms;         /* the wait before the next start: 1 s, doubling to 60 s */
    toolgov_plugin plugin;
    toolgov__upconn conn;
    char down[512];         /* why the server is not serving, or "" */
    toolgov__jbuf params;   /* a forwarded call's params */
    toolgov_allocator alloc;
} upstream;

struct toolgov_mcp_upstreams {
    upstream *ups;
    size_t count;
    size_t max_message;
    drift_row *rows;      /* every drift row so far, in order */
    size_t row_count, rows_dropped;
    FILE *audit;          /* where rows go as audit events, or NULL */
    int audit_failed;     /* a write to it failed */
};

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* A name a server gave, for a row on stderr: control bytes, backslashes,
** quotes and bytes past 120 shown escaped or cut, so a row is one line.
** Quoted in out (NAME_TEXT_MAX bytes). */
#define NAME_TEXT_MAX (120 * 4 + 8)
static const char *name_text(char out[NAME_TEXT_MAX], const char *s, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    size_t i, k = 0;
    out[k++] = '\'';
    for (i = 0; i < n && i < 120; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f || c == '\\' || c == '\'') {
            out[k++] = '\\';
            out[k++] = 'x';
            out[k++] = digits[c >> 4];
            out[k++] = digits[c & 15];
        } else {
            out[k++] = (char)c;
        }
    }
    if (n > 120) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k++] = '\'';
    out[k] = '\0';
    return out;
}

static void put_name(FILE *f, const char *s, size_t n)
{
    char q[NAME_TEXT_MAX];
    fputs(name_text(q, s, n), f);
}

/* ---- the upstreams file ------------------------------------------------- */

typedef struct cfg {
    const char *path;
    const char *text;
    toolgov__json_doc doc;
    FILE *err;
    int errors;
} cfg;

static void where(const cfg *c, size_t pos, unsigned *line, unsigned *col)
{
    size_t i;
    *line = 1;
    *col = 1;
    for (i = 0; i < pos && i < c->doc.len; i++) {
        unsigned char b = (unsigned char)c->text[i];
        if (b == '\n') {
            (*line)++;
            *col = 1;
        } else if ((b & 0xC0u) != 0x80u) {
            (*col)++;
        }
    }
}

static void cfg_error(cfg *c, long node, const char *fmt, const char *a, const char *b)
{
    unsigned line = 1, col = 1;
    if (node >= 0)
        where(c, c->doc.nodes[node].pos, &line, &col);
    fprintf(c->err, "%s:%u:%u: error: ", c->path, line, col);
    fprintf(c->err, fmt, a ? a : "", b ? b : "");
    fputc('\n', c->err);
    c->errors++;
}

/* A path from the file, relative ones taken from the file's directory. */
static char *resolve(const char *dir, const char *p)
{
    size_t dl, pl = strlen(p);
    char *r;
    if (p[0] == '/' || !dir)
        return dup_n(p, pl);
    dl = strlen(dir);
    r = malloc(dl + pl + 2);
    if (r) {
        memcpy(r, dir, dl);
        r[dl] = '/';
        memcpy(r + dl + 1, p, pl + 1);
    }
    return r;
}

static char *env_entry(const char *k, size_t kl, const char *v, size_t vl)
{
    char *e = malloc(kl + vl + 2);
    if (e) {
        memcpy(e, k, kl);
        e[kl] = '=';
        memcpy(e + kl + 1, v, vl);
        e[kl + 1 + vl] = '\0';
    }
    return e;
}

/* The child's environment: the default set from ours, then the entry's
** (an entry's variable replaces a default one of the same name). */
static int build_env(cfg *c, upstream *up, long env)
{
    size_t n = env >= 0 ? c->doc.nodes[env].len : 0, k = 0, i;
    size_t nd = sizeof default_env / sizeof default_env[0];
    up->envp = calloc(nd + n + 1, sizeof *up->envp);
    if (!up->envp)
        return -1;
    for (i = 0; i < nd; i++) {
        const char *v = getenv(default_env[i]);
        long over = env >= 0 ? toolgov__json_get(&c->doc, (size_t)env, default_env[i],
                                                 strlen(default_env[i]))
                             : -1;
        if (!v || over >= 0)
            continue;
        if (!(up->envp[k++] = env_entry(default_env[i], strlen(default_env[i]), v, strlen(v))))
            return -1;
    }
    if (env >= 0) {
        long j = (long)env + 1;
        for (i = 0; i < n; i++) {
            const toolgov__json *key = &c->doc.nodes[j], *val = &c->doc.nodes[j + 1];
            if (val->type != TOOLGOV__JSON_STRING) {
                cfg_error(c, j + 1, "the value of env variable '%s' must be a string%s",
                          key->u.str, NULL);
            } else if (key->len == 0 || memchr(key->u.str, '=', key->len) ||
                       strlen(key->u.str) != key->len || strlen(val->u.str) != val->len) {
                cfg_error(c, j, "env variable name '%s' is not usable (empty, or holds '=' or "
                                "a NUL)%s", key->u.str, NULL);
            } else if (!(up->envp[k++] = env_entry(key->u.str, key->len, val->u.str, val->len))) {
                return -1;
            }
            j = (long)val->end;
        }
    }
    return 0;
}

static const char *const entry_keys[] = {"command", "args", "env", "cwd", "manifest",
                                         "timeout", "type", "url", "headers"};

/* Request headers toolgov-mcp sets itself (the transport's), which an
** entry's "headers" may not replace. */
static const char *const own_headers[] = {"accept", "content-type", "content-length", "host",
                                          "mcp-session-id", "mcp-protocol-version", "expect",
                                          "transfer-encoding", "connection", "last-event-id"};

static int is_tchar(unsigned char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* The entry's "headers": {"Name": "value"} as "Name: value" lines. */
static int read_headers(cfg *c, upstream *up, long hdrs)
{
    size_t n = c->doc.nodes[hdrs].len, i, k, m = 0;
    long j = hdrs + 1;
    if (!(up->headers = calloc(n + 1, sizeof *up->headers)))
        return -1;
    for (i = 0; i < n; i++) {
        const toolgov__json *key = &c->doc.nodes[j], *val = &c->doc.nodes[j + 1];
        int ok = key->len > 0 && key->len <= 256, own = 0;
        for (k = 0; ok && k < key->len; k++)
            ok = is_tchar((unsigned char)key->u.str[k]);
        for (k = 0; ok && k < sizeof own_headers / sizeof own_headers[0]; k++)
            own |= strlen(own_headers[k]) == key->len &&
                   strncasecmp(own_headers[k], key->u.str, key->len) == 0;
        if (!ok) {
            cfg_error(c, j, "server '%s': header name '%s' is not an HTTP token (letters, digits "
                            "and !#$%%&'*+-.^_`|~, 1 to 256 of them)", up->name, key->u.str);
        } else if (own) {
            cfg_error(c, j, "server '%s': header '%s' is set by toolgov-mcp itself (the "
                            "transport's); leave it out", up->name, key->u.str);
        } else if (val->type != TOOLGOV__JSON_STRING || val->len > 8192 ||
                   strlen(val->u.str) != val->len || strpbrk(val->u.str, "\r\n")) {
            cfg_error(c, j + 1, "server '%s': the value of header '%s' must be a string of at "
                                "most 8192 bytes without line breaks or NUL", up->name,
                      key->u.str);
        } else {
            char *line = malloc(key->len + val->len + 3);
            if (!line)
                return -1;
            memcpy(line, key->u.str, key->len);
            memcpy(line + key->len, ": ", 2);
            memcpy(line + key->len + 2, val->u.str, val->len + 1);
            up->headers[m++] = line;
        }
        j = (long)val->end;
    }
    return 0;
}

/* An entry reached by URL (Streamable HTTP): "url" and "headers". */
static int read_url_entry(cfg *c, upstream *up, long e, long url, long hdrs)
{
    static const char *const stdio_only[] = {"command", "args", "env", "cwd"};
    const toolgov__json *u = url >= 0 ? &c->doc.nodes[url] : NULL;
    size_t i;
    for (i = 0; i < sizeof stdio_only / sizeof stdio_only[0]; i++) {
        long k = toolgov__json_get(&c->doc, (size_t)e, stdio_only[i], strlen(stdio_only[i]));
        if (k >= 0)
            cfg_error(c, k, "server '%s' is reached by \"url\" (Streamable HTTP): \"%s\" is "
                            "for a server started with \"command\"; an entry is one or the other",
                      up->name, stdio_only[i]);
    }
    if (!u || u->type != TOOLGOV__JSON_STRING || u->len > 2048 || strlen(u->u.str) != u->len ||
        (strncasecmp(u->u.str, "http://", 7) != 0 && strncasecmp(u->u.str, "https://", 8) != 0) ||
        u->len <= 8) {
        cfg_error(c, url >= 0 ? url : e, "server '%s' needs \"url\", the http:// or https:// "
                                         "address of its Streamable HTTP endpoint (such as "
                                         "http://127.0.0.1:3001/mcp)%s", up->name, NULL);
        return 0;
    }
    for (i = 0; i < u->len; i++)
        if ((unsigned char)u->u.str[i] <= 0x20 || u->u.str[i] == 0x7f) {
            cfg_error(c, url, "server '%s': \"url\" holds a space or a control character "
                              "(percent-encode it)%s", up->name, NULL);
            return 0;
        }
    if (!(up->url = dup_n(u->u.str, u->len)))
        return -1;
    if (hdrs >= 0 && !toolgov__json_is(&c->doc, hdrs, TOOLGOV__JSON_OBJECT)) {
        cfg_error(c, hdrs, "server '%s': \"headers\" must be an object of strings, such as "
                           "{\"Authorization\": \"Bearer ...\"}%s", up->name, NULL);
        return 0;
    }
    return hdrs >= 0 ? read_headers(c, up, hdrs) : 0;
}

static int read_entry(cfg *c, upstream *up, long key, long e, const char *dir, int importing)
{
    long cmd, args, env, cwd, man, tmo, type, url, hdrs;
    size_t i, n;
    int by_url;
    long j;

    up->name = dup_n(c->doc.nodes[key].u.str, c->doc.nodes[key].len);
    if (!up->name)
        return -1;
    up->timeout_ms = TOOLGOV_MCP_UPSTREAM_TIMEOUT_MS;
    if (c->doc.nodes[key].len == 0 || c->doc.nodes[key].len > 64 ||
        strlen(up->name) != c->doc.nodes[key].len) {
        cfg_error(c, key, "a server's name must be 1 to 64 bytes without NUL%s%s", NULL, NULL);
        return 0;
    }
    if (!toolgov__json_is(&c->doc, e, TOOLGOV__JSON_OBJECT)) {
        cfg_error(c, e, "server '%s' must be an object with \"command\" or \"url\", and "
                        "\"manifest\"%s", up->name, NULL);
        return 0;
    }
    /* Every key known: a misspelt one must not leave a server ungoverned. */
    for (j = e + 1, n = 0; n < c->doc.nodes[e].len; n++) {
        const toolgov__json *k = &c->doc.nodes[j];
        int known = 0;
        for (i = 0; i < sizeof entry_keys / sizeof entry_keys[0]; i++)
            known |= toolgov__json_str_eq(k, entry_keys[i], strlen(entry_keys[i]));
        if (!known)
            cfg_error(c, j, "unknown key '%s' in server '%s' (the keys are command, args, env, "
                            "cwd, manifest, timeout, type, url and headers)", k->u.str, up->name);
        j = (long)c->doc.nodes[j + 1].end;
    }
    cmd = toolgov__json_get(&c->doc, (size_t)e, "command", 7);
    args = toolgov__json_get(&c->doc, (size_t)e, "args", 4);
    env = toolgov__json_get(&c->doc, (size_t)e, "env", 3);
    cwd = toolgov__json_get(&c->doc, (size_t)e, "cwd", 3);
    man = toolgov__json_get(&c->doc, (size_t)e, "manifest", 8);
    tmo = toolgov__json_get(&c->doc, (size_t)e, "timeout", 7);
    type = toolgov__json_get(&c->doc, (size_t)e, "type", 4);
    url = toolgov__json_get(&c->doc, (size_t)e, "url", 3);
    hdrs = toolgov__json_get(&c->doc, (size_t)e, "headers", 7);
    /* "type" as MCP hosts write it: stdio, or http for Streamable HTTP. */
    by_url = url >= 0;
    if (type >= 0) {
        const toolgov__json *t = &c->doc.nodes[type];
        int is_str = t->type == TOOLGOV__JSON_STRING;
        int http = is_str && (toolgov__json_str_eq(t, "http", 4) ||
                              toolgov__json_str_eq(t, "streamable-http", 15) ||
                              toolgov__json_str_eq(t, "streamableHttp", 14));
        if (is_str && toolgov__json_str_eq(t, "sse", 3)) {
            cfg_error(c, type, "server '%s': the older HTTP+SSE transport (\"type\": \"sse\") is "
                               "not supported; a server that speaks Streamable HTTP is reached "
                               "with \"url\" and \"type\": \"http\"%s", up->name, NULL);
            return 0;
        }
        if (!http && !(is_str && toolgov__json_str_eq(t, "stdio", 5))) {
            cfg_error(c, type, "server '%s': \"type\" must be \"stdio\" (with \"command\") or "
                               "\"http\" (with \"url\", Streamable HTTP)%s", up->name, NULL);
            return 0;
        }
        if (http != by_url) {
            cfg_error(c, type, http ? "server '%s': \"type\": \"http\" needs \"url\"%s"
                                    : "server '%s': \"type\": \"stdio\" needs \"command\", not "
                                      "\"url\"%s", up->name, NULL);
            return 0;
        }
    }
    if (by_url) {
        if (read_url_entry(c, up, e, url, hdrs))
            return -1;
    } else if (hdrs >= 0) {
        cfg_error(c, hdrs, "server '%s': \"headers\" are for a server reached by \"url\" "
                           "(Streamable HTTP); a stdio server takes \"env\"%s", up->name, NULL);
    }
    if (!by_url &&
        (!toolgov__json_is(&c->doc, cmd, TOOLGOV__JSON_STRING) || c->doc.nodes[cmd].len == 0)) {
        cfg_error(c, cmd >= 0 ? cmd : e, "server '%s' needs \"command\", a non-empty string "
                                         "(the program to start)%s", up->name, NULL);
        return 0;
    }
    if ((man >= 0 || !importing) &&
        (!toolgov__json_is(&c->doc, man, TOOLGOV__JSON_STRING) || c->doc.nodes[man].len == 0)) {
        cfg_error(c, man >= 0 ? man : e,
                  "server '%s' needs \"manifest\", the path of the manifest that declares its "
                  "tools (toolgov-mcp --import writes one to review)%s", up->name, NULL);
        return 0;
    }
    if (args >= 0 && !toolgov__json_is(&c->doc, args, TOOLGOV__JSON_ARRAY)) {
        cfg_error(c, args, "server '%s': \"args\" must be an array of strings%s", up->name, NULL);
        return 0;
    }
    if (env >= 0 && !toolgov__json_is(&c->doc, env, TOOLGOV__JSON_OBJECT)) {
        cfg_error(c, env, "server '%s': \"env\" must be an object of strings%s", up->name, NULL);
        return 0;
    }
    if (cwd >= 0 && !toolgov__json_is(&c->doc, cwd, TOOLGOV__JSON_STRING)) {
        cfg_error(c, cwd, "server '%s': \"cwd\" must be a string%s", up->name, NULL);
        return 0;
    }
    if (tmo >= 0) {
        int64_t v = 0;
        if (!toolgov__json_is(&c->doc, tmo, TOOLGOV__JSON_NUMBER) ||
            toolgov__json_int64(&c->doc.nodes[tmo], &v) != 0 || v < 1 || v > 3600000)
            cfg_error(c, tmo, "server '%s': \"timeout\" must be a number of milliseconds from 1 "
                              "to 3600000%s", up->name, NULL);
        else
            up->timeout_ms = (int)v;
    }
    if (man >= 0 && !(up->manifest_path = resolve(dir, c->doc.nodes[man].u.str)))
        return -1;
    if (by_url)
        return 0;
    n = args >= 0 ? c->doc.nodes[args].len : 0;
    up->argv = calloc(n + 2, sizeof *up->argv);
    if (!up->argv || !(up->argv[0] = dup_n(c->doc.nodes[cmd].u.str, c->doc.nodes[cmd].len)))
        return -1;
    for (i = 0, j = args + 1; i < n; i++) {
        const toolgov__json *a = &c->doc.nodes[j];
        if (a->type != TOOLGOV__JSON_STRING || strlen(a->u.str) != a->len)
            cfg_error(c, j, "server '%s': every item of \"args\" must be a string without NUL%s",
                      up->name, NULL);
        else if (!(up->argv[i + 1] = dup_n(a->u.str, a->len)))
            return -1;
        j = (long)a->end;
    }
    if (strlen(up->argv[0]) != c->doc.nodes[cmd].len)
        cfg_error(c, cmd, "server '%s': \"command\" holds a NUL%s", up->name, NULL);
    if (build_env(c, up, env))
        return -1;
    if (cwd >= 0 && !(up->cwd = resolve(dir, c->doc.nodes[cwd].u.str)))
        return -1;
    return 0;
}

/* ---- a manifest as a plugin built at run time -------------------------- */

static const char no_args_schema[] =
    "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";

static int build_plugin(upstream *up, FILE *err)
{
    toolgov__diag d;
    toolgov__schema_ctx cx;
    toolgov__manifest *m;
    const char *base;
    size_t i;
    int bad = 0;

    toolgov__diag_init(&d, err, 0);
    m = up->m = toolgov__manifest_load(up->manifest_path, &d);
    if (!m) {
        toolgov__diag_finish(&d);
        fprintf(err, "toolgov-mcp: server '%s': its manifest %s has errors (above); fix them "
                     "and check with 'toolgov-gen validate %s'\n",
                up->name, up->manifest_path, up->manifest_path);
        return -1;
    }
    toolgov__arena_init(&up->arena);
    memset(&cx, 0, sizeof cx);
    cx.arena = &up->arena;
    cx.d = &d;
    cx.path = m->path;
    up->specs = toolgov__arena_alloc(&up->arena, (m->tool_count ? m->tool_count : 1) *
                                                     sizeof *up->specs);
    up->st = calloc(m->tool_count ? m->tool_count : 1, sizeof *up->st);
    if (!up->specs || !up->st) {
        toolgov__diag_finish(&d);
        fputs("toolgov-mcp: out of memory\n", err);
        return -1;
    }
    for (i = 0; i < m->tool_count; i++) {
        const toolgov__tool_decl *t = &m->tools[i];
        toolgov_tool_spec *s = &up->specs[i];
        const char *text = NULL;
        size_t len = 0;
        memset(s, 0, sizeof *s);
        if (!(t->loop & TOOLGOV__LOOP_POOL)) {
            toolgov__diag_error(&d, m->path, t->at.line, t->at.col,
                                "tool '%s': a server's tool is served, so 'loop: own' has no "
                                "meaning here; remove the loop key", t->name);
            bad = 1;
            continue;
        }
        s->size = sizeof *s;
        s->name = t->name;
        s->description = t->description;
        s->effect = t->effect;
        s->confirm = t->confirm;
        s->guidance = t->guidance ? t->guidance : "";
        s->pinned = t->pinned;
        s->answers_directly = t->answers_directly;
        s->manifest_line = t->at.line;
        s->manifest_column = t->at.col;
        s->schema_json = no_args_schema;
        if (t->params) {
            cx.tool = t->name;
            if (toolgov__schema_tables(&cx, t->params, &s->params) != 0 ||
                toolgov__schema_text(&cx, t->params, &text, &len) != 0) {
                toolgov__diag_finish(&d);
                fputs("toolgov-mcp: out of memory\n", err);
                return -1;
            }
            s->schema_json = text;
        }
    }
    toolgov__diag_finish(&d);
    if (bad)
        return -1;
    base = strrchr(m->path, '/');
    up->plugin.abi_version = TOOLGOV_ABI_VERSION;
    up->plugin.name = m->name;
    up->plugin.manifest_file = base ? base + 1 : m->path;
    up->plugin.provides = m->provides;
    up->plugin.provides_count = m->provides_count;
    up->plugin.tools = up->specs;
    up->plugin.tool_count = m->tool_count;
    return 0;
}

static void upstream_free(upstream *up)
{
    size_t i;
    toolgov__upconn_free(&up->conn);
    toolgov__jbuf_free(&up->params);
    if (up->argv)
        for (i = 0; up->argv[i]; i++)
            free(up->argv[i]);
    free(up->argv);
    if (up->envp)
        for (i = 0; up->envp[i]; i++)
            free(up->envp[i]);
    free(up->envp);
    free(up->cwd);
    if (up->headers)
        for (i = 0; up->headers[i]; i++)
            free(up->headers[i]);
    free(up->headers);
    free(up->url);
    free(up->manifest_path);
    free(up->st);
    free(up->reported);
    if (up->m)
        toolgov__manifest_free(up->m);
    toolgov__arena_free(&up->arena);
    free(up->name);
}

void toolgov_mcp_upstreams_free(toolgov_mcp_upstreams *u)
{
    size_t i;
    if (!u)
        return;
    for (i = 0; i < u->row_count; i++) {
        free(u->rows[i].tool);
        free(u->rows[i].message);
    }
    free(u->rows);
    for (i = 0; i < u->count; i++)
        upstream_free(&u->ups[i]);
    free(u->ups);
    free(u);
}

int toolgov_mcp_upstreams_load(toolgov_mcp_upstreams **out, const char *path,
                               size_t max_message, int importing, FILE *err)
{
    toolgov_mcp_upstreams *u = NULL;
    toolgov_allocator alloc = {NULL, NULL}; /* the C library's */
    toolgov__scratch arena;
    toolgov__json_error jerr;
    cfg c;
    char *text, *dir = NULL, *slash;
    size_t len = 0, i, n;
    long servers, j;
    int rc;

    *out = NULL;
    if (!(text = toolgov_mcp_read_file(path, CONFIG_MAX_BYTES, "the upstreams file", &len,
                                       "toolgov-mcp", err)))
        return -1;
    memset(&c, 0, sizeof c);
    c.path = path;
    c.text = text;
    c.err = err;
    toolgov__scratch_init(&arena, &alloc);
    rc = toolgov__json_parse(&c.doc, &jerr, &arena, text, len, 32, CONFIG_MAX_BYTES, 0);
    if (rc) {
        unsigned line = 1, col = 1;
        c.doc.len = len;
        where(&c, jerr.pos, &line, &col);
        fprintf(err, "%s:%u:%u: error: the upstreams file is not valid JSON: %s%s%s\n", path,
                line, col, rc == TOOLGOV_ENOMEM ? "out of memory" : jerr.msg,
                jerr.key ? ": " : "", jerr.key ? jerr.key : "");
        goto fail;
    }
    servers = toolgov__json_is(&c.doc, 0, TOOLGOV__JSON_OBJECT)
                  ? toolgov__json_get(&c.doc, 0, "mcpServers", 10)
                  : -1;
    if (!toolgov__json_is(&c.doc, servers, TOOLGOV__JSON_OBJECT)) {
        cfg_error(&c, servers >= 0 ? servers : 0,
                  "the upstreams file must be an object with \"mcpServers\", an object of "
                  "servers: {\"mcpServers\": {\"NAME\": {\"command\": ..., \"manifest\": ...}}}%s%s",
                  NULL, NULL);
        goto fail;
    }
    n = c.doc.nodes[servers].len;
    if (n == 0 || n > MAX_SERVERS) {
        cfg_error(&c, servers, n ? "more than 64 servers in one file%s%s"
                                 : "\"mcpServers\" lists no server%s%s", NULL, NULL);
        goto fail;
    }
    if (!(u = calloc(1, sizeof *u)) || !(u->ups = calloc(n, sizeof *u->ups)))
        goto oom;
    u->max_message = max_message;
    if ((slash = strrchr(path, '/')) != NULL && !(dir = dup_n(path, (size_t)(slash - path) + (slash == path))))
        goto oom;
    for (i = 0, j = servers + 1; i < n; i++) {
        upstream *up = &u->ups[i];
        toolgov__upconn_init(&up->conn, max_message);
        toolgov__jbuf_init(&up->params, &up->alloc);
        u->count++;
        if (read_entry(&c, up, j, j + 1, dir, importing))
            goto oom;
        j = (long)c.doc.nodes[j + 1].end;
    }
    if (c.errors)
        goto fail;
    for (i = 0; i < u->count && !importing; i++)
        if (build_plugin(&u->ups[i], err))
            c.errors++;
    for (i = 0; i < u->count && !c.errors && !importing; i++) {
        size_t k;
        for (k = 0; k < i; k++)
            if (strcmp(u->ups[k].plugin.name, u->ups[i].plugin.name) == 0) {
                fprintf(err, "toolgov-mcp: servers '%s' and '%s' both use manifest name '%s'; "
                             "give each server a manifest of its own name\n",
                        u->ups[k].name, u->ups[i].name, u->ups[i].plugin.name);
                c.errors++;
            }
    }
    if (c.errors)
        goto fail;
    free(dir);
    free(text);
    toolgov__scratch_free(&arena);
    *out = u;
    return 0;
oom:
    fputs("toolgov-mcp: out of memory\n", err);
fail:
    toolgov_mcp_upstreams_free(u);
    free(dir);
    free(text);
    toolgov__scratch_free(&arena);
    return -1;
}

/* ---- running ------------------------------------------------------------ */

static const char init_params[] =
    "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
    "\"clientInfo\":{\"name\":\"toolgov-mcp\",\"version\":\"" TOOLGOV_VERSION_STRING "\"}}";

static void row(FILE *err, const upstream *up)
{
    fprintf(err, "toolgov-mcp: upstream '%s': ", up->name);
}

/* A JSON string member ,"key":"value" of an audit line. */
static void put_member(toolgov__jbuf *b, const char *key, const char *v)
{
    toolgov__jbuf_putc(b, ',');
    toolgov__json_put_str(b, key, strlen(key));
    toolgov__jbuf_putc(b, ':');
    toolgov__json_put_str(b, v, strlen(v));
}

/* One drift row as an audit event: a JSON line of its own in the --audit
** file, beside the runs' events (docs/mcp.md). */
static void audit_row(toolgov_mcp_upstreams *set, const drift_row *r)
{
    toolgov_allocator alloc = {NULL, NULL};
    toolgov__jbuf b;
    struct timespec ts;
    struct tm tm;
    char when[40];

    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(when + strlen(when), sizeof when - strlen(when), ".%09ldZ", ts.tv_nsec);
    toolgov__jbuf_init(&b, &alloc);
    toolgov__jbuf_puts(&b, "{\"v\":1");
    put_member(&b, "time", when);
    put_member(&b, "event", "upstream_drift");
    put_member(&b, "server", r->server);
    put_member(&b, "tool", r->tool);
    put_member(&b, "drift", r->kind);
    put_member(&b, "changed", r->changed);
    put_member(&b, "message", r->message);
    toolgov__jbuf_puts(&b, "}\n");
    if (toolgov__jbuf_finish(&b) || fwrite(b.ptr, 1, b.len, set->audit) != b.len ||
        fflush(set->audit) != 0) {
        if (!set->audit_failed)
            fputs("toolgov-mcp: the audit log could not be written (a drift row)\n", stderr);
        set->audit_failed = 1;
    }
    toolgov__jbuf_free(&b);
}

static void keep_row(upstream *up, const char *kind, const char *tool, const char *changed,
                     const char *msg);

/* A drift row: printed on stderr as it happens, kept for the report, and
** written to the audit trail. tool[0..tool_len) is the name as the server
** or the manifest gives it (escaped for the row); changed the parts that
** changed, or "". */
static void drift(upstream *up, const char *kind, const char *tool, size_t tool_len,
                  const char *changed, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static void drift(upstream *up, const char *kind, const char *tool, size_t tool_len,
                  const char *changed, const char *fmt, ...)
{
    char msg[1024], q[NAME_TEXT_MAX];
    va_list ap;

    if (++up->burst > ROWS_PER_LIST) {
        up->hushed++;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    row(up->err, up);
    fprintf(up->err, "drift: %s\n", msg);
    keep_row(up, kind, tool ? name_text(q, tool, tool_len) : "", changed, msg);
}

/* Keep a row (tool: quoted as name_text gives it, or "") for the report and
** write it to the audit trail. */
static void keep_row(upstream *up, const char *kind, const char *tool, const char *changed,
                     const char *msg)
{
    toolgov_mcp_upstreams *set = up->set;
    if (!set)
        return;
    if (set->row_count == MAX_DRIFT_ROWS) {
        set->rows_dropped++;
        return;
    }
    if (set->row_count % 64 == 0) {
        drift_row *nr = realloc(set->rows, (set->row_count + 64) * sizeof *nr);
        if (!nr) {
            set->rows_dropped++;
            return;
        }
        set->rows = nr;
    }
    {
        drift_row *r = &set->rows[set->row_count];
        const char *t = tool;
        size_t tl = strlen(t);
        if (tl >= 2 && t[0] == '\'') { /* kept without the quotes */
            t++;
            tl -= 2;
        }
        r->server = up->name;
        r->kind = kind;
        r->tool = dup_n(t, tl);
        snprintf(r->changed, sizeof r->changed, "%s", changed ? changed : "");
        r->message = strdup(msg);
        if (!r->tool || !r->message) {
            free(r->tool);
            free(r->message);
            set->rows_dropped++;
            return;
        }
        set->row_count++;
        if (set->audit)
            audit_row(set, r);
    }
}

/* The declared tool the server calls name[0..len): its upstream_name, or
** its key when it has none. -1 when none is. */
static long find_decl(const upstream *up, const char *name, size_t len)
{
    size_t i;
    if (strlen(name) != len)
        return -1;
    for (i = 0; i < up->m->tool_count; i++) {
        const toolgov__tool_decl *t = &up->m->tools[i];
        if (strcmp(t->upstream_name ? t->upstream_name : t->name, name) == 0)
            return (long)i;
    }
    return -1;
}

/* The server's name for declared tool i. */
static const char *server_name_of(const upstream *up, size_t i)
{
    const toolgov__tool_decl *t = &up->m->tools[i];
    return t->upstream_name ? t->upstream_name : t->name;
}

static void hex(char *out, const unsigned char *d, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        out[2 * i] = digits[d[i] >> 4];
        out[2 * i + 1] = digits[d[i] & 15];
    }
    out[2 * n] = '\0';
}

/* The pin of a tool's definition (node `tool` of d), PIN_LEN characters:
** the digest of the whole canonical definition, then of each part; and
** each part's full digest in parts (NULL: not wanted). */
static int definition_pin(const toolgov__json_doc *d, size_t tool, toolgov__jbuf *b,
                          char pin[PIN_LEN + 1], unsigned char parts[4][32])
{
    unsigned char own[4][32];
    static const char *const keys[5] = {"annotations", "description", "inputSchema", "name",
                                        "outputSchema"};
    unsigned char whole[32];
    size_t i;
    int first = 1;

    if (!parts)
        parts = own;
    /* The canonical definition: the five members present, in key order,
    ** each value canonical (object keys sorted, no whitespace; SPEC 9). */
    toolgov__jbuf_clear(b);
    toolgov__jbuf_putc(b, '{');
    for (i = 0; i < 5; i++) {
        long v = toolgov__json_get(d, tool, keys[i], strlen(keys[i]));
        size_t start;
        if (v < 0)
            continue;
        if (!first)
            toolgov__jbuf_putc(b, ',');
        first = 0;
        toolgov__json_put_str(b, keys[i], strlen(keys[i]));
        toolgov__jbuf_putc(b, ':');
        start = b->len;
        toolgov__json_put_value(b, d, (size_t)v);
        if (i != 3 && !b->failed) {
            size_t p = i < 3 ? i : 3;
            crypto_hash_sha256(parts[p], (const unsigned char *)b->ptr + start, b->len - start);
        }
    }
    toolgov__jbuf_putc(b, '}');
    if (toolgov__jbuf_finish(b))
        return -1;
    for (i = 0; i < 5; i++)
        if (i != 3 && toolgov__json_get(d, tool, keys[i], strlen(keys[i])) < 0)
            crypto_hash_sha256(parts[i < 3 ? i : 3], (const unsigned char *)"", 0);
    crypto_hash_sha256(whole, (const unsigned char *)b->ptr, b->len);
    memcpy(pin, "sha256:", 7);
    hex(pin + 7, whole, 32);
    for (i = 0; i < 4; i++) {
        char *q = pin + PIN_WHOLE + i * PIN_PART;
        q[0] = ';';
        q[1] = part_names[i][0];
        q[2] = '=';
        hex(q + 3, parts[i], 6);
    }
    return 0;
}

/* Report an undeclared tool once per name. */
static void report_undeclared(upstream *up, const char *name, size_t len)
{
    size_t off = 0;
    char *nr;
    while (off < up->reported_len) {
        size_t l = strlen(up->reported + off);
        if (l == len && memcmp(up->reported + off, name, len) == 0)
            return;
        off += l + 1;
    }
    {
        char q[NAME_TEXT_MAX];
        drift(up, "undeclared", name, len, NULL,
              "tool %s is offered by the server but not declared in its manifest %s; it is "
              "not served", name_text(q, name, len), up->manifest_path);
    }
    if (up->reported_len > 65536 || strlen(name) != len)
        return;
    nr = realloc(up->reported, up->reported_len + len + 1);
    if (nr) {
        up->reported = nr;
        memcpy(nr + up->reported_len, name, len + 1);
        up->reported_len += len + 1;
    }
}

/* Append part name p to the list in changed[0..n). */
static void add_part(char *changed, size_t n, size_t p)
{
    size_t l = strlen(changed);
    snprintf(changed + l, n - l, "%s%s", l ? ", " : "", part_names[p]);
}

/* Compare one declared tool's definition as just read with its pin and
** with what was read before; rows for every change, naming the parts. */
static void judge_tool(upstream *up, size_t i, const char *pin, unsigned char parts[4][32])
{
    tool_state *st = &up->st[i];
    const toolgov__tool_decl *t = &up->m->tools[i];
    char changed[64] = "", against[64] = "";
    size_t p;
    int bad = t->pin && strncmp(t->pin, pin, PIN_WHOLE) != 0;

    if (st->have)
        for (p = 0; p < 4; p++)
            if (memcmp(st->part[p], parts[p], 32) != 0)
                add_part(changed, sizeof changed, p);
    /* What differs from the pin: its part digests say which part. */
    if (bad && strlen(t->pin) == PIN_LEN)
        for (p = 0; p < 4; p++)
            if (memcmp(t->pin + PIN_WHOLE + p * PIN_PART, pin + PIN_WHOLE + p * PIN_PART,
                       PIN_PART) != 0)
                add_part(against, sizeof against, p);
    if (changed[0]) {
        drift(up, bad ? "pin_mismatch" : "changed", t->name, strlen(t->name), changed,
              "tool '%s' changed its %s since toolgov-mcp started; %s", t->name, changed,
              bad ? "it does not match its pin and is refused until the manifest is reviewed "
                    "again"
              : t->pin ? "it still matches its pin"
                       : "it has no pin, so it is still served, under the manifest's "
                         "description and parameters");
    } else if (bad && !st->pin_bad) {
        if (against[0])
            drift(up, "pin_mismatch", t->name, strlen(t->name), against,
                  "tool '%s' does not match its pin in %s:%u:%u: its %s changed since it was "
                  "reviewed (toolgov-mcp --import '%s' shows it now); it is refused",
                  t->name, up->m->path, t->at.line, t->at.col, against, up->name);
        else
            drift(up, "pin_mismatch", t->name, strlen(t->name), "",
                  "tool '%s' does not match its pin in %s:%u:%u: the server's definition "
                  "changed since it was reviewed (the pin holds no part digests to say which "
                  "part; toolgov-mcp --import '%s' writes them); it is refused",
                  t->name, up->m->path, t->at.line, t->at.col, up->name);
    }
    st->pin_bad = (unsigned char)bad;
    memcpy(st->part, parts, sizeof st->part);
    st->have = 1;
}

/* Request one page of tools/list (the first when cursor is NULL). 0 with
** *res the result's node in up->conn.doc, or non-zero with why said. */
static int list_page(upstream *up, const char *cursor, long *res, char *why, size_t n)
{
    toolgov__jbuf_clear(&up->params);
    if (cursor) {
        toolgov__jbuf_puts(&up->params, "{\"cursor\":");
        toolgov__json_put_str(&up->params, cursor, strlen(cursor));
        toolgov__jbuf_putc(&up->params, '}');
    }
    if (toolgov__jbuf_finish(&up->params)) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    return toolgov__upconn_request(&up->conn, "tools/list", cursor ? up->params.ptr : NULL,
                                   TOOLGOV_MCP_UPSTREAM_START_MS, res, why, n);
}

/* Read tools/list to its last page and compare it with the manifest (and
** with the last list): the declared tools offered, undeclared ones
** reported, pins checked. 0, or -1 with up->down set. */
static int read_tools(upstream *up)
{
    const toolgov__json_doc *d = &up->conn.doc;
    char *cursor = NULL, why[400], pin[PIN_LEN + 1];
    unsigned char *now = NULL, parts[4][32];
    size_t pages = 0, total = 0, i;
    toolgov__jbuf def;
    int rc = -1;

    toolgov__jbuf_init(&def, &up->alloc);
    up->burst = up->hushed = 0;
    now = calloc(up->m->tool_count ? up->m->tool_count : 1, 1);
    if (!now) {
        snprintf(up->down, sizeof up->down, "out of memory");
        goto out;
    }
    for (;;) {
        long res, tools, next, k;
        if (list_page(up, cursor, &res, why, sizeof why) != 0) {
            snprintf(up->down, sizeof up->down, "tools/list failed: %s", why);
            goto out;
        }
        tools = toolgov__json_get(d, (size_t)res, "tools", 5);
        if (tools < 0 || d->nodes[tools].type != TOOLGOV__JSON_ARRAY) {
            snprintf(up->down, sizeof up->down, "its tools/list result has no \"tools\" array");
            goto out;
        }
        for (i = 0, k = tools + 1; i < d->nodes[tools].len; i++, k = (long)d->nodes[k].end) {
            long nm = d->nodes[k].type == TOOLGOV__JSON_OBJECT
                          ? toolgov__json_get(d, (size_t)k, "name", 4) : -1;
            const toolgov__json *name = nm >= 0 ? &d->nodes[nm] : NULL;
            long idx;
            if (++total > TOOLGOV_MCP_UPSTREAM_MAX_TOOLS) {
                snprintf(up->down, sizeof up->down, "it offers more than %d tools",
                         TOOLGOV_MCP_UPSTREAM_MAX_TOOLS);
                goto out;
            }
            if (!name || name->type != TOOLGOV__JSON_STRING) {
                drift(up, "unnamed", NULL, 0, NULL,
                      "a tool without a name in its tools/list; ignored");
                continue;
            }
            idx = find_decl(up, name->u.str, name->len);
            if (idx < 0) {
                report_undeclared(up, name->u.str, name->len);
            } else if (now[idx]) {
                char q[NAME_TEXT_MAX];
                drift(up, "duplicate", name->u.str, name->len, NULL,
                      "tool %s is offered twice; the first is judged",
                      name_text(q, name->u.str, name->len));
            } else {
                now[idx] = 1;
                if (definition_pin(d, (size_t)k, &def, pin, parts)) {
                    snprintf(up->down, sizeof up->down, "out of memory");
                    goto out;
                }
                judge_tool(up, (size_t)idx, pin, parts);
            }
        }
        next = toolgov__json_get(d, (size_t)res, "nextCursor", 10);
        free(cursor);
        cursor = NULL;
        if (next < 0 || d->nodes[next].type != TOOLGOV__JSON_STRING)
            break;
        if (++pages >= TOOLGOV_MCP_UPSTREAM_MAX_PAGES) {
            snprintf(up->down, sizeof up->down, "its tools/list has more than %d pages",
                     TOOLGOV_MCP_UPSTREAM_MAX_PAGES);
            goto out;
        }
        if (!(cursor = dup_n(d->nodes[next].u.str, d->nodes[next].len))) {
            snprintf(up->down, sizeof up->down, "out of memory");
            goto out;
        }
    }
    for (i = 0; i < up->m->tool_count; i++) {
        const toolgov__tool_decl *t = &up->m->tools[i];
        if (!now[i] && (!up->listed || up->st[i].offered)) {
            if (up->listed)
                drift(up, "withdrawn", t->name, strlen(t->name), NULL,
                      "tool '%s' is no longer offered by the server; it is not served",
                      t->name);
            else
                drift(up, "not_offered", t->name, strlen(t->name), NULL,
                      "tool '%s' is declared in %s:%u:%u but the server does not offer it; "
                      "it is not served", t->name, up->m->path, t->at.line, t->at.col);
        }
        up->st[i].offered = now[i];
    }
    if (!up->listed) {
        size_t unpinned = 0;
        for (i = 0; i < up->m->tool_count; i++)
            unpinned += up->m->tools[i].pin == NULL;
        if (unpinned) {
            row(up->err, up);
            fprintf(up->err, "%zu of its %zu declared tools have no pin: a change of their "
                             "definition is reported, not refused (toolgov-mcp --import writes "
                             "pins)\n", unpinned, up->m->tool_count);
        }
    }
    up->listed = 1;
    rc = 0;
out:
    if (up->hushed) {
        char msg[200];
        snprintf(msg, sizeof msg, "%zu more drift rows of this tools/list not shown (over %d); "
                                  "toolgov-mcp --import '%s' lists what it offers",
                 up->hushed, ROWS_PER_LIST, up->name);
        row(up->err, up);
        fprintf(up->err, "drift: %s\n", msg);
        keep_row(up, "more", "", "", msg);
        up->hushed = 0;
    }
    free(now);
    free(cursor);
    toolgov__jbuf_free(&def);
    return rc;
}

/* Start, initialize, read the tools. 0, or -1 with up->down said. */
static int connect_upstream(upstream *up, int list)
{
    toolgov__upconn_spawn sp;
    char why[400];
    long res, ver;

    up->down[0] = '\0';
    sp.argv = (const char *const *)(void *)up->argv;
    sp.envp = (const char *const *)(void *)up->envp;
    sp.cwd = up->cwd;
    sp.url = up->url;
    sp.headers = (const char *const *)(void *)up->headers;
    if (toolgov__upconn_start(&up->conn, &sp, why, sizeof why)) {
        snprintf(up->down, sizeof up->down, "it did not start: %s", why);
        return -1;
    }
    if (toolgov__upconn_request(&up->conn, "initialize", init_params,
                                TOOLGOV_MCP_UPSTREAM_START_MS, &res, why, sizeof why) != 0) {
        snprintf(up->down, sizeof up->down, "initialize failed: %s", why);
        toolgov__upconn_stop(&up->conn, 200);
        return -1;
    }
    ver = toolgov__json_get(&up->conn.doc, (size_t)res, "protocolVersion", 15);
    if (ver < 0 || up->conn.doc.nodes[ver].type != TOOLGOV__JSON_STRING) {
        snprintf(up->down, sizeof up->down, "its initialize result has no protocolVersion");
        toolgov__upconn_stop(&up->conn, 200);
        return -1;
    }
    up->conn.list_changed = 0;
    if (toolgov__upconn_ready(&up->conn, up->conn.doc.nodes[ver].u.str) ||
        toolgov__upconn_notify(&up->conn, "notifications/initialized", NULL) ||
        (list && read_tools(up))) {
        if (!up->down[0])
            snprintf(up->down, sizeof up->down, "the server closed the connection");
        toolgov__upconn_stop(&up->conn, 200);
        return -1;
    }
    return 0;
}

/* ---- forwarding a call ------------------------------------------------- */

static upstream *find_upstream(toolgov_mcp_upstreams *u, const char *owner)
{
    size_t i;
    for (i = 0; owner && i < u->count; i++)
        if (strcmp(u->ups[i].plugin.name, owner) == 0)
            return &u->ups[i];
    return NULL;
}

static long long clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The server stopped serving (up->down says why): stop it, and start it
** again after the backoff (1 s, doubling to 60 s) when its tools are next
** wanted; meanwhile they are unavailable, said so. */
static void went_down(upstream *up)
{
    toolgov__upconn_stop(&up->conn, 200);
    up->backoff_ms = up->backoff_ms ? up->backoff_ms * 2 : 1000;
    if (up->backoff_ms > 60000)
        up->backoff_ms = 60000;
    up->retry_at = clock_ms() + up->backoff_ms;
    row(up->err, up);
    fprintf(up->err, "not serving: %s; its tools are unavailable, a restart is tried in %d s\n",
            up->down, up->backoff_ms / 1000);
    keep_row(up, "unavailable", "", "", up->down);
}

/* A server that is down and due: start it again, read and judge its tools. */
static void maybe_restart(upstream *up)
{
    if (!up->down[0] || clock_ms() < up->retry_at)
        return;
    row(up->err, up);
    fputs("starting it again\n", up->err);
    if (connect_upstream(up, 1) != 0)
        went_down(up);
}

/* What the server said meanwhile, without waiting: a changed tool list is
** read again and judged before anything of it is listed or called; a
** server that broke is taken down, one that is due is started again. */
static void refresh(upstream *up)
{
    char why[400];
    if (!up->down[0] && toolgov__upconn_pump(&up->conn, why, sizeof why) != 0) {
        snprintf(up->down, sizeof up->down, "%.400s", why);
        went_down(up);
    }
    if (!up->down[0] && !toolgov__upconn_alive(&up->conn)) {
        snprintf(up->down, sizeof up->down, "it exited");
        went_down(up);
    }
    if (!up->down[0] && up->conn.list_changed) {
        up->conn.list_changed = 0;
        if (read_tools(up))
            went_down(up);
    }
    maybe_restart(up);
}

/* Whether declared tool i can be served now. */
static int servable(const upstream *up, size_t i)
{
    return !up->down[0] && up->st[i].offered && !up->st[i].pin_bad;
}

/* 1 when a declared tool became servable or stopped being so since the
** last call; the state is then taken as known to the client. */
static int served_changed(upstream *up)
{
    size_t i;
    int changed = 0;
    for (i = 0; i < up->m->tool_count; i++) {
        unsigned char now = (unsigned char)servable(up, i);
        if (now != up->st[i].served) {
            up->st[i].served = now;
            changed = 1;
        }
    }
    return changed;
}

int toolgov_mcp_upstreams_changed(void *ud)
{
    toolgov_mcp_upstreams *u = ud;
    size_t i;
    int changed = 0;
    long long now = clock_ms();
    for (i = 0; u && i < u->count; i++) {
        upstream *up = &u->ups[i];
        /* Asked after every message: a look at most every 200 ms keeps it
        ** off the path of a burst of calls (each call's own check reads
        ** what the server said before the call is listed or forwarded). */
        if (now - up->looked_at >= 200) {
            up->looked_at = now;
            refresh(up);
        }
        changed |= served_changed(up);
    }
    return changed;
}

void toolgov_mcp_upstreams_audit(toolgov_mcp_upstreams *u, FILE *audit)
{
    size_t i;
    u->audit = audit;
    for (i = 0; audit && i < u->row_count; i++)
        audit_row(u, &u->rows[i]);
}

size_t toolgov_mcp_upstreams_report(const toolgov_mcp_upstreams *u, FILE *out)
{
    size_t i;
    fputs("# server\ttool\tdrift\tchanged\tmessage\n", out);
    for (i = 0; i < u->row_count; i++) {
        const drift_row *r = &u->rows[i];
        fprintf(out, "%s\t%s\t%s\t%s\t%s\n", r->server, r->tool[0] ? r->tool : "-", r->kind,
                r->changed[0] ? r->changed : "-", r->message);
    }
    if (u->rows_dropped)
        fprintf(out, "# %zu more rows not kept (over %d)\n", u->rows_dropped, MAX_DRIFT_ROWS);
    return u->row_count + u->rows_dropped;
}

/* max_age_ms: what the server said is read first unless it was read that
** recently (the server's check before a call has just read it; the call's
** own check then costs no system call). */
static int tool_unavailable(upstream *up, const char *tool, char *why, size_t n,
                            long long max_age_ms)
{
    long idx = toolgov__manifest_find(up->m, tool);
    long long now = clock_ms();
    if (now - up->refreshed_at > max_age_ms || up->conn.list_changed) {
        up->refreshed_at = now;
        refresh(up);
    }
    if (up->down[0]) {
        long long left = up->retry_at - clock_ms();
        snprintf(why, n, "%s is not available: the MCP server '%s' is not serving (%s); a "
                         "restart is tried in %lld s", tool, up->name, up->down,
                 left > 0 ? (left + 999) / 1000 : 0);
        return 1;
    }
    if (idx < 0 || !up->st[idx].offered) {
        snprintf(why, n, "%s is not available: it is declared for the MCP server '%s', which does "
                         "not offer it (drift); the operator has to review it", tool, up->name);
        return 1;
    }
    if (up->st[idx].pin_bad) {
        snprintf(why, n, "%s is refused: the MCP server '%s' changed its definition since it was "
                         "reviewed (it no longer matches its pin); the operator has to review it "
                         "again", tool, up->name);
        return 1;
    }
    return 0;
}

int toolgov_mcp_upstreams_unavailable(void *ud, const char *owner, const char *tool, char *why,
                                      size_t n)
{
    upstream *up = ud ? find_upstream(ud, owner) : NULL;
    return up ? tool_unavailable(up, tool, why, n, -1) : 0;
}

/* The text of a content block for the model: text as it is, other kinds
** said in brackets (their data is not passed on as text). */
static void put_block(toolgov_result *out, const toolgov__json_doc *d, long b)
{
    long type = d->nodes[b].type == TOOLGOV__JSON_OBJECT ? toolgov__json_get(d, (size_t)b, "type", 4)
                                                         : -1;
    const toolgov__json *t = type >= 0 ? &d->nodes[type] : NULL;
    long f;
    if (t && toolgov__json_str_eq(t, "text", 4) &&
        (f = toolgov__json_get(d, (size_t)b, "text", 4)) >= 0 &&
        d->nodes[f].type == TOOLGOV__JSON_STRING) {
        toolgov_result_append(out, d->nodes[f].u.str, d->nodes[f].len);
    } else if (t && (toolgov__json_str_eq(t, "image", 5) || toolgov__json_str_eq(t, "audio", 5))) {
        f = toolgov__json_get(d, (size_t)b, "mimeType", 8);
        toolgov_result_printf(out, "[%s content, %s, not shown]", t->u.str,
                              f >= 0 && d->nodes[f].type == TOOLGOV__JSON_STRING ? d->nodes[f].u.str
                                                                                 : "unknown type");
    } else if (t && toolgov__json_str_eq(t, "resource", 8)) {
        long r = toolgov__json_get(d, (size_t)b, "resource", 8);
        long tx = r >= 0 && d->nodes[r].type == TOOLGOV__JSON_OBJECT
                      ? toolgov__json_get(d, (size_t)r, "text", 4) : -1;
        long uri = r >= 0 && d->nodes[r].type == TOOLGOV__JSON_OBJECT
                       ? toolgov__json_get(d, (size_t)r, "uri", 3) : -1;
        if (tx >= 0 && d->nodes[tx].type == TOOLGOV__JSON_STRING)
            toolgov_result_append(out, d->nodes[tx].u.str, d->nodes[tx].len);
        else
            toolgov_result_printf(out, "[resource %s, not shown]",
                                  uri >= 0 && d->nodes[uri].type == TOOLGOV__JSON_STRING
                                      ? d->nodes[uri].u.str : "without uri");
    } else if (t && toolgov__json_str_eq(t, "resource_link", 13)) {
        f = toolgov__json_get(d, (size_t)b, "uri", 3);
        toolgov_result_printf(out, "[resource link: %s]",
                              f >= 0 && d->nodes[f].type == TOOLGOV__JSON_STRING ? d->nodes[f].u.str
                                                                                 : "without uri");
    } else {
        toolgov_result_printf(out, "[a content block of an unknown kind, not shown]");
    }
}

/* The server's progress on a forwarded call, relayed to the client under
** the client's own token: progress, total and message only, each of its
** type (the message cut at 500 bytes). */
static void relay_progress(void *ud, const toolgov__json_doc *d, long params)
{
    toolgov_mcp_call_ctx *cc = ud;
    toolgov_allocator alloc = {NULL, NULL};
    long p = toolgov__json_get(d, (size_t)params, "progress", 8);
    long t = toolgov__json_get(d, (size_t)params, "total", 5);
    long m = toolgov__json_get(d, (size_t)params, "message", 7);
    toolgov__jbuf b;
    if (!toolgov__json_is(d, p, TOOLGOV__JSON_NUMBER))
        return;
    toolgov__jbuf_init(&b, &alloc);
    toolgov__jbuf_puts(&b, ",\"progress\":");
    toolgov__json_put_value(&b, d, (size_t)p);
    if (toolgov__json_is(d, t, TOOLGOV__JSON_NUMBER)) {
        toolgov__jbuf_puts(&b, ",\"total\":");
        toolgov__json_put_value(&b, d, (size_t)t);
    }
    if (toolgov__json_is(d, m, TOOLGOV__JSON_STRING)) {
        toolgov__jbuf_puts(&b, ",\"message\":");
        toolgov__json_put_str(&b, d->nodes[m].u.str, d->nodes[m].len > 500 ? 500 : d->nodes[m].len);
    }
    if (!toolgov__jbuf_finish(&b))
        (void)cc->progress(cc, b.ptr, b.len);
    toolgov__jbuf_free(&b);
}

/* The handler of every upstream tool: the call passed decoding and the
** gate; forward its canonical arguments and hand back what the server
** said. When the client asked for progress (toolgov_mcp_call_ctx), the
** forwarded call asks the server under a token of ours, and the server's
** progress for that token is relayed. */
static int forward_call(const toolgov_call *call, const void *args, toolgov_result *out)
{
    upstream *up = call->plugin_ctx;
    const toolgov__json_doc *d = &up->conn.doc;
    toolgov_mcp_call_ctx *cc;
    char why[600];
    long res, content, is_err, sc;
    size_t i;
    int rc;

    (void)args;
    if (tool_unavailable(up, call->tool, why, sizeof why, 20)) {
        toolgov_result_printf(out, "%s", why);
        return TOOLGOV_EHANDLER;
    }
    toolgov__jbuf_clear(&up->params);
    {
        long idx = toolgov__manifest_find(up->m, call->tool);
        const char *sn = idx >= 0 ? server_name_of(up, (size_t)idx) : call->tool;
        toolgov__jbuf_puts(&up->params, "{\"name\":");
        toolgov__json_put_str(&up->params, sn, strlen(sn));
    }
    toolgov__jbuf_puts(&up->params, ",\"arguments\":");
    toolgov__jbuf_put(&up->params, call->args, call->args_len);
    cc = call->run_ctx;
    if (cc && cc->progress_token && cc->progress) {
        /* Our token is the id the request is about to take. */
        char tok[24];
        snprintf(tok, sizeof tok, "%ld", up->conn.next_id);
        toolgov__jbuf_puts(&up->params, ",\"_meta\":{\"progressToken\":");
        toolgov__jbuf_puts(&up->params, tok);
        toolgov__jbuf_putc(&up->params, '}');
        up->conn.progress_token = up->conn.next_id;
        up->conn.on_progress = relay_progress;
        up->conn.progress_ud = cc;
    }
    toolgov__jbuf_putc(&up->params, '}');
    if (toolgov__jbuf_finish(&up->params)) {
        up->conn.progress_token = 0;
        up->conn.on_progress = NULL;
        return TOOLGOV_ENOMEM;
    }
    rc = toolgov__upconn_request(&up->conn, "tools/call", up->params.ptr, up->timeout_ms, &res,
                                 why, sizeof why);
    up->conn.progress_token = 0;
    up->conn.on_progress = NULL;
    up->conn.progress_ud = NULL;
    if (rc == 1) {
        toolgov_result_printf(out, "%s failed: the MCP server '%s' refused the call: %s",
                              call->tool, up->name, why);
        return TOOLGOV_EHANDLER;
    }
    if (rc != 0) {
        if (rc == -1) {
            snprintf(up->down, sizeof up->down, "%.400s", why);
            went_down(up);
        }
        toolgov_result_printf(out, "%s failed: %s (MCP server '%s'); whether it changed "
                                   "anything is not known, so check before calling it again",
                              call->tool, why, up->name);
        return TOOLGOV_EHANDLER;
    }
    up->backoff_ms = 0; /* it answers: the next failure waits 1 s again */
    content = toolgov__json_get(d, (size_t)res, "content", 7);
    is_err = toolgov__json_get(d, (size_t)res, "isError", 7);
    sc = toolgov__json_get(d, (size_t)res, "structuredContent", 17);
    if (content >= 0 && d->nodes[content].type == TOOLGOV__JSON_ARRAY) {
        long b = content + 1;
        for (i = 0; i < d->nodes[content].len; i++, b = (long)d->nodes[b].end) {
            if (i)
                toolgov_result_append(out, "\n", 1);
            put_block(out, d, b);
        }
    }
    if (toolgov_result_len(out) == 0 && sc >= 0) {
        toolgov__jbuf_clear(&up->params);
        toolgov__json_put_value(&up->params, d, (size_t)sc);
        if (!toolgov__jbuf_finish(&up->params))
            toolgov_result_set(out, up->params.ptr, up->params.len);
    }
    if (is_err >= 0 && d->nodes[is_err].type == TOOLGOV__JSON_TRUE) {
        if (toolgov_result_len(out) == 0)
            toolgov_result_printf(out, "%s failed on the MCP server '%s' (no message)",
                                  call->tool, up->name);
        return TOOLGOV_EHANDLER;
    }
    return 0;
}

static int register_upstream(toolgov_plugin_api *api)
{
    upstream *up = toolgov__plugin_api_ctx(api);
    size_t i;
    for (i = 0; i < up->plugin.tool_count; i++) {
        int rc = toolgov_register_tool(api, up->specs[i].name, up->specs[i].description,
                                       forward_call);
        if (rc == TOOLGOV_ENOMEM)
            return rc;
    }
    return 0;
}

int toolgov_mcp_upstreams_start(toolgov_mcp_upstreams *u, toolgov_registry *reg, FILE *err)
{
    size_t i;
    for (i = 0; i < u->count; i++) {
        upstream *up = &u->ups[i];
        int rc;
        up->err = err;
        up->set = u;
        if (connect_upstream(up, 1))
            went_down(up);
        (void)served_changed(up); /* the client's first list is this one */
        up->plugin.register_fn = register_upstream;
        if ((rc = toolgov_registry_mount(reg, &up->plugin, up)) != 0) {
            row(err, up);
            fprintf(err, "its manifest %s could not be mounted as plugin '%s': %s\n",
                    up->manifest_path, up->plugin.name, toolgov_strerror(rc));
            return -1;
        }
    }
    return 0;
}

/* ---- import ------------------------------------------------------------- */

/* A JSON value as YAML flow text: members in the order the server wrote
** them (property order is the order of canonical arguments), ": " and ", "
** between them so every YAML reader takes it; strings in JSON's escapes,
** which YAML's double quotes read the same. Returns the next node. */
static size_t put_flow(toolgov__jbuf *b, const toolgov__json_doc *d, size_t i)
{
    const toolgov__json *n = &d->nodes[i];
    size_t k, j = i + 1;
    switch (n->type) {
    case TOOLGOV__JSON_OBJECT:
    case TOOLGOV__JSON_ARRAY:
        toolgov__jbuf_putc(b, n->type == TOOLGOV__JSON_OBJECT ? '{' : '[');
        for (k = 0; k < n->len; k++) {
            if (k)
                toolgov__jbuf_put(b, ", ", 2);
            if (n->type == TOOLGOV__JSON_OBJECT) {
                toolgov__json_put_str(b, d->nodes[j].u.str, d->nodes[j].len);
                toolgov__jbuf_put(b, ": ", 2);
                j++;
            }
            j = put_flow(b, d, j);
        }
        toolgov__jbuf_putc(b, n->type == TOOLGOV__JSON_OBJECT ? '}' : ']');
        return n->end;
    case TOOLGOV__JSON_STRING:
        toolgov__json_put_str(b, n->u.str, n->len);
        break;
    case TOOLGOV__JSON_NUMBER:
        toolgov__jbuf_put(b, n->u.str, n->len);
        break;
    case TOOLGOV__JSON_TRUE:
        toolgov__jbuf_puts(b, "true");
        break;
    case TOOLGOV__JSON_FALSE:
        toolgov__jbuf_puts(b, "false");
        break;
    default:
        toolgov__jbuf_puts(b, "null");
        break;
    }
    return i + 1;
}

/* A manifest name made of s: lowercase letters, digits and single '_'
** (camelCase split), a letter first; NUL-terminated in out[0..64]. */
static void manifest_name(char out[65], const char *s, size_t len, const char *prefix)
{
    size_t i, n = 0;
    int under = 1; /* no '_' first */
    for (i = 0; i < len && n < 56; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 'A' && c <= 'Z') {
            if (i > 0 && !under && s[i - 1] >= 'a' && s[i - 1] <= 'z')
                out[n++] = '_';
            out[n++] = (char)(c - 'A' + 'a');
            under = 0;
        } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            out[n++] = (char)c;
            under = 0;
        } else if (!under) {
            out[n++] = '_';
            under = 1;
        }
    }
    while (n > 0 && out[n - 1] == '_')
        n--;
    out[n] = '\0';
    if (n == 0 || !(out[0] >= 'a' && out[0] <= 'z') || strncmp(out, "toolgov", 7) == 0) {
        size_t pl = strlen(prefix);
        memmove(out + pl, out, n + 1);
        memcpy(out, prefix, pl);
        out[64] = '\0';
    }
}

/* 1 when name is a good tool (or plugin) name by toolgov-gen's rules. */
static int name_ok(const char *name, enum toolgov__name_kind kind)
{
    toolgov__diag d;
    toolgov__mark at = {1, 1};
    FILE *sink = fopen("/dev/null", "w");
    int ok;
    if (!sink)
        return 0;
    toolgov__diag_init(&d, sink, 1);
    ok = toolgov__name_check(&d, "-", at, name, strlen(name), kind) == 0;
    toolgov__diag_finish(&d);
    fclose(sink);
    return ok;
}

/* The compiler's verdict on a tool's inputSchema: 0 representable, or 1
** with its errors (one a line) in *report (malloc'd). */
static int schema_verdict(const char *text, size_t len, const char *tool, char **report)
{
    toolgov__diag d;
    toolgov__arena arena;
    toolgov__schema_ctx cx;
    toolgov__jval *root = NULL;
    toolgov__snode *node = NULL;
    toolgov__mark at = {1, 1};
    size_t rlen = 0;
    FILE *ms = open_memstream(report, &rlen);
    int bad;
    if (!ms) {
        *report = NULL;
        return 1;
    }
    toolgov__arena_init(&arena);
    toolgov__diag_init(&d, ms, 20);
    memset(&cx, 0, sizeof cx);
    cx.arena = &arena;
    cx.d = &d;
    cx.path = "inputSchema";
    cx.tool = tool;
    bad = toolgov__jtext_parse(&cx, text, len, &root) != 0 ||
          toolgov__schema_compile(&cx, root, at, &node) != 0 || d.errors > 0;
    toolgov__diag_finish(&d);
    fclose(ms);
    toolgov__arena_free(&arena);
    return bad;
}

/* Whether the server's tool named by node nm can be declared: a name a
** manifest can hold as upstream_name (1 to 128 bytes, no blank, no control
** character) and not offered before. When not, a line on err and a comment
** in the manifest say why it is left out. */
static int declarable(FILE *out, const toolgov__json_doc *d, long nm, char *const *snames,
                      size_t n, FILE *err, const char *server)
{
    const toolgov__json *name = &d->nodes[nm];
    const unsigned char *v = (const unsigned char *)name->u.str;
    const char *why = NULL;
    char q[NAME_TEXT_MAX];
    size_t i;

    if (name->len == 0 || name->len > 128)
        why = "its name is not 1 to 128 bytes, so no manifest can name it";
    for (i = 0; !why && i < name->len; i++)
        if (v[i] <= 0x20 || v[i] == 0x7f)
            why = "its name holds a blank or a control character, so no manifest can name it";
    for (i = 0; !why && i < n; i++)
        if (strlen(snames[i]) == name->len && memcmp(snames[i], v, name->len) == 0)
            why = "it is offered twice; the first is imported";
    if (!why)
        return 1;
    name_text(q, name->u.str, name->len);
    fprintf(err, "toolgov-mcp: import '%s': tool %s: %s; left out\n", server, q, why);
    fprintf(out, "\n  # LEFT OUT: the server's tool %s: %s.\n", q, why);
    return 0;
}

/* One tool of the list as a manifest entry (or, when it cannot be one, the
** entry commented out with the reason). 1 when written as an entry. */
static int import_tool(FILE *out, const toolgov__json_doc *d, size_t k, toolgov__jbuf *b,
                        char (*keys)[65], char *const *snames, size_t nkeys, FILE *err,
                        const char *server)
{
    long nm = toolgov__json_get(d, k, "name", 4), de = toolgov__json_get(d, k, "description", 11);
    long is = toolgov__json_get(d, k, "inputSchema", 11), an = toolgov__json_get(d, k, "annotations", 11);
    long ro = an >= 0 && d->nodes[an].type == TOOLGOV__JSON_OBJECT
                  ? toolgov__json_get(d, (size_t)an, "readOnlyHint", 12) : -1;
    long ds = an >= 0 && d->nodes[an].type == TOOLGOV__JSON_OBJECT
                  ? toolgov__json_get(d, (size_t)an, "destructiveHint", 15) : -1;
    const toolgov__json *name = &d->nodes[nm];
    char *key = keys[nkeys], pin[PIN_LEN + 1], *report = NULL;
    const char *effect, *why;
    size_t i, suffix = 2, dlen;
    long clash = -1;
    int no_schema = 0;

    manifest_name(key, name->u.str, name->len, "t_");
    if (!name_ok(key, TOOLGOV_NAME_TOOL) && strlen(key) < 58)
        strcat(key, "_tool");
    for (i = 0; i < nkeys; i++)
        if (strcmp(keys[i], key) == 0) {
            /* Two server names made one key: number the later one. */
            char base[59];
            if (clash < 0)
                clash = (long)i;
            snprintf(base, sizeof base, "%s", keys[i]);
            snprintf(key, 65, "%s_%u", base, (unsigned)(suffix++ % 10000));
            i = (size_t)-1;
        }
    (void)definition_pin(d, k, b, pin, NULL);
    if (ro >= 0 && d->nodes[ro].type == TOOLGOV__JSON_TRUE) {
        effect = "read";
        why = "readOnlyHint: true";
    } else if (ds >= 0 && d->nodes[ds].type == TOOLGOV__JSON_FALSE) {
        effect = "write";
        why = "destructiveHint: false; a write asks once per run";
    } else {
        effect = "destructive";
        why = ds >= 0 ? "destructiveHint: true" : "no destructiveHint: MCP's default is destructive";
    }
    if (is >= 0 && d->nodes[is].type == TOOLGOV__JSON_OBJECT) {
        toolgov__jbuf_clear(b);
        (void)put_flow(b, d, (size_t)is);
        if (toolgov__jbuf_finish(b) || schema_verdict(b->ptr, b->len, key, &report))
            no_schema = 1;
        if (!no_schema) {
            free(report); /* the compiler had nothing to say */
            report = NULL;
        }
    } else {
        no_schema = 2;
        report = strdup("the server gives no inputSchema object (MCP requires one)");
    }
    fputc('\n', out);
    if (clash >= 0) {
        char q[NAME_TEXT_MAX], q2[NAME_TEXT_MAX];
        fprintf(err, "toolgov-mcp: import '%s': tools %s and %s make the same name here; the "
                     "second is %s: review the names\n", server,
                name_text(q, snames[clash], strlen(snames[clash])),
                name_text(q2, name->u.str, name->len), key);
        fprintf(out, "  # RENAMED: the server's %s is %s here, since %s already took the name\n"
                     "  # %s once governed. Review which is which before serving them.\n",
                q2, key, q, keys[clash]);
    }
    if (no_schema) {
        fprintf(err, "toolgov-mcp: import '%s': tool ", server);
        put_name(err, name->u.str, name->len);
        fputs(no_schema == 2 ? ": it gives no inputSchema; written commented out\n"
                             : ": its inputSchema is outside what toolgov decodes; written "
                               "commented out\n",
              err);
        if (no_schema == 2)
            fprintf(out, "  # NOT IMPORTED: '%.*s' gives no inputSchema, so what its arguments "
                         "may be is\n  # not known. Write the parameters it takes "
                         "(docs/manifest.md), then remove the #s.\n",
                    (int)(name->len > 128 ? 128 : name->len), name->u.str);
        else
            fprintf(out, "  # NOT IMPORTED: the inputSchema of '%.*s' is outside the subset "
                         "toolgov decodes, and a\n  # weaker schema would let calls through "
                         "that the server's own would refuse. Write\n  # parameters that say "
                         "the same in the subset (docs/manifest.md), then remove the #s.\n",
                    (int)(name->len > 128 ? 128 : name->len), name->u.str);
        if (no_schema != 2)
            fputs("  # The compiler said:\n", out);
        {
            const char *p = report;
            while (no_schema != 2 && p && *p) {
                const char *nl = strchr(p, '\n');
                size_t n = nl ? (size_t)(nl - p) : strlen(p);
                fprintf(out, "  #   %.*s\n", (int)n, p);
                p = nl ? nl + 1 : NULL;
            }
        }
        free(report);
        fprintf(out, "  # %s:\n  #   effect: %s\n", key, effect);
        return 0;
    }
    fprintf(out, "  %s:\n", key);
    fprintf(out, "    # SUGGESTED from the server's annotations (%s):\n"
                 "    # review: the server's hints are not trusted, this effect is.\n", why);
    fprintf(out, "    effect: %s\n", effect);
    dlen = de >= 0 && d->nodes[de].type == TOOLGOV__JSON_STRING ? d->nodes[de].len : 0;
    if (dlen == 0) {
        fputs("    # The server gives no description: write what the tool does.\n", out);
        fputs("    description: \"(no description)\"\n", out);
    } else {
        size_t n = dlen;
        if (n > TOOLGOV_DESCRIPTION_MAX) {
            n = TOOLGOV_DESCRIPTION_MAX - 4;
            while (n > 0 && ((unsigned char)d->nodes[de].u.str[n] & 0xC0u) == 0x80u)
                n--;
            fprintf(out, "    # The server's description is %zu bytes; cut to the limit of %u: "
                         "review it.\n", dlen, TOOLGOV_DESCRIPTION_MAX);
        }
        toolgov__jbuf_clear(b);
        toolgov__json_put_str(b, d->nodes[de].u.str, n);
        if (!toolgov__jbuf_finish(b))
            fprintf(out, "    description: %s\n", b->ptr);
    }
    if (strlen(name->u.str) != name->len || strcmp(key, name->u.str) != 0) {
        toolgov__jbuf_clear(b);
        toolgov__json_put_str(b, name->u.str, name->len);
        if (!toolgov__jbuf_finish(b))
            fprintf(out, "    upstream_name: %s\n", b->ptr);
    }
    toolgov__jbuf_clear(b);
    (void)put_flow(b, d, (size_t)is);
    if (!toolgov__jbuf_finish(b))
        fprintf(out, "    parameters: %s\n", b->ptr);
    fprintf(out, "    pin: %s\n", pin);
    return 1;
}

int toolgov_mcp_upstreams_import(toolgov_mcp_upstreams *u, const char *name, FILE *out,
                                 FILE *err)
{
    upstream *up = NULL;
    const toolgov__json_doc *d;
    toolgov__jbuf b;
    char *cursor = NULL, why[400], plugin[65], (*keys)[65] = NULL, **snames = NULL;
    size_t i, pages = 0, nkeys = 0, written = 0;
    long tools_end;
    char *text = NULL;
    size_t text_len = 0;
    FILE *body;
    int rc = -1;

    for (i = 0; i < u->count; i++)
        if (strcmp(u->ups[i].name, name) == 0)
            up = &u->ups[i];
    if (!up) {
        fprintf(err, "toolgov-mcp: --import %s: the upstreams file lists no server of that name\n",
                name);
        return -1;
    }
    if (connect_upstream(up, 0)) {
        fprintf(err, "toolgov-mcp: --import %s: %s\n", name, up->down);
        return -1;
    }
    d = &up->conn.doc;
    toolgov__jbuf_init(&b, &up->alloc);
    keys = calloc(TOOLGOV_MCP_UPSTREAM_MAX_TOOLS, sizeof *keys);
    snames = calloc(TOOLGOV_MCP_UPSTREAM_MAX_TOOLS, sizeof *snames);
    /* The whole text first: nothing is written unless all of it can be. */
    body = open_memstream(&text, &text_len);
    if (!keys || !snames || !body) {
        fputs("toolgov-mcp: out of memory\n", err);
        goto out;
    }
    manifest_name(plugin, name, strlen(name), "server_");
    if (!name_ok(plugin, TOOLGOV_NAME_PLUGIN) && strlen(plugin) < 58)
        strcat(plugin, "_mcp");
    fprintf(body, "# The tools of the MCP server '%s', imported by toolgov-mcp --import to be\n"
                  "# reviewed. Every effect is a suggestion from the server's annotations,\n"
                  "# which MCP calls untrusted hints: the effect you leave here is what the\n"
                  "# gate enforces. Descriptions and parameters are what the model will see;\n"
                  "# edit them freely. A pin is the digest of the server's definition of the\n"
                  "# tool as imported: a server whose definition changes has the tool refused\n"
                  "# until it is imported and reviewed again. Delete the tools not to serve.\n",
            name);
    fprintf(body, "name: %s\nprovides:\n  - tool\ntools:", plugin);
    tools_end = ftell(body);
    for (;;) {
        long res, tools, next, k;
        if (list_page(up, cursor, &res, why, sizeof why) != 0) {
            fprintf(err, "toolgov-mcp: --import %s: tools/list failed: %s\n", name, why);
            goto out;
        }
        tools = toolgov__json_get(d, (size_t)res, "tools", 5);
        if (tools < 0 || d->nodes[tools].type != TOOLGOV__JSON_ARRAY) {
            fprintf(err, "toolgov-mcp: --import %s: its tools/list result has no \"tools\" "
                         "array\n", name);
            goto out;
        }
        for (i = 0, k = tools + 1; i < d->nodes[tools].len; i++, k = (long)d->nodes[k].end) {
            long nm = d->nodes[k].type == TOOLGOV__JSON_OBJECT
                          ? toolgov__json_get(d, (size_t)k, "name", 4) : -1;
            if (nm < 0 || d->nodes[nm].type != TOOLGOV__JSON_STRING) {
                fprintf(err, "toolgov-mcp: --import %s: a tool without a name; left out\n", name);
                continue;
            }
            if (nkeys == TOOLGOV_MCP_UPSTREAM_MAX_TOOLS) {
                fprintf(err, "toolgov-mcp: --import %s: more than %d tools\n", name,
                        TOOLGOV_MCP_UPSTREAM_MAX_TOOLS);
                goto out;
            }
            if (!declarable(body, d, nm, snames, nkeys, err, name))
                continue;
            if (!(snames[nkeys] = dup_n(d->nodes[nm].u.str, d->nodes[nm].len))) {
                fputs("toolgov-mcp: out of memory\n", err);
                goto out;
            }
            written += (size_t)import_tool(body, d, (size_t)k, &b, keys, snames, nkeys, err,
                                           name);
            nkeys++;
        }
        next = toolgov__json_get(d, (size_t)res, "nextCursor", 10);
        free(cursor);
        cursor = NULL;
        if (next < 0 || d->nodes[next].type != TOOLGOV__JSON_STRING)
            break;
        if (++pages >= TOOLGOV_MCP_UPSTREAM_MAX_PAGES ||
            !(cursor = dup_n(d->nodes[next].u.str, d->nodes[next].len))) {
            fprintf(err, "toolgov-mcp: --import %s: more than %d pages of tools\n", name,
                    TOOLGOV_MCP_UPSTREAM_MAX_PAGES);
            goto out;
        }
    }
    fputc('\n', body);
    if (fflush(body) != 0 || tools_end < 0 || (size_t)tools_end > text_len)
        goto out;
    /* No tool written as an entry (none offered, or each commented out):
    ** "tools: {}", so the manifest still reads. */
    if ((written == 0 && (fwrite(text, 1, (size_t)tools_end, out) != (size_t)tools_end ||
                          fputs(" {}", out) < 0 ||
                          fwrite(text + tools_end, 1, text_len - (size_t)tools_end, out) !=
                              text_len - (size_t)tools_end)) ||
        (written > 0 && fwrite(text, 1, text_len, out) != text_len) || fflush(out) != 0) {
        fprintf(err, "toolgov-mcp: --import %s: writing the manifest failed\n", name);
        goto out;
    }
    rc = 0;
out:
    if (body)
        fclose(body);
    free(text);
    free(cursor);
    free(keys);
    for (i = 0; snames && i < nkeys; i++)
        free(snames[i]);
    free(snames);
    toolgov__jbuf_free(&b);
    toolgov__upconn_stop(&up->conn, 500);
    return rc;
}
