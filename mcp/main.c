/* SPDX-License-Identifier: MIT */
/*
** main.c: toolgov-mcp, a Model Context Protocol server over stdio that
** serves toolgov plugins with their declared effects enforced.
**
**   toolgov-mcp [--plugin PATH [--plugin-config TEXT | --plugin-config-file FILE]]...
**               [--upstreams FILE] [--no-examples] [--max-message BYTES] [--audit FILE]
**               [--http [ADDR:]PORT]
**               [--grants FILE [--grants-user NAME] [--state-key FILE]]
**
** With no arguments it serves the example plugins over their built-in data
** (examples/). --plugin loads a plugin built as a MODULE library with
** toolgov_add_plugin(NAME ... MODULE): its descriptor is found through the
** fixed entry symbol (plugins.c); --plugin-config TEXT (or the contents of
** --plugin-config-file FILE) after it is the configuration that plugin's
** start entry gets (<toolgov/module.h>). The operator's TOOLGOV_CONFIRM_ONCE_TOOLS
** override applies as in every toolgov host. --audit FILE appends the
** audit trail of every run (toolgov/audit.h: one JSON object a line per
** decision of the gate) to FILE; a call whose decision cannot be logged
** does not run (the client gets an error result) and the exit status is 1.
** --upstreams FILE governs MCP servers toolgov did not write (upstream.h):
** each is started, its tools compared with the manifest the file names for
** it, and its declared tools served beside the plugins' through the same
** gate, their calls forwarded to it. --drift starts them, prints the drift
** report (upstream.h) on stdout and exits: 0 without drift, 1 with.
** --grants FILE keeps the answers a user asked to keep "always" as standing
** grants (toolgov/grants.h), sealed with the key in --state-key FILE (or
** TOOLGOV_STATE_KEY_FILE) and bound to the user (grants_file.h).
**
** Transport: one JSON-RPC message per line on stdin and stdout (MCP's stdio
** transport), or with --http MCP's Streamable HTTP (http.h); diagnostics go
** to stderr only. A line longer than the bound
** gets the JSON-RPC "invalid request" error and is skipped to its newline.
** End of input ends the session with exit status 0; a write error on
** stdout (the client is gone) ends it with 1.
**
** Exit status: 0 the session ended, 1 a failure while serving, 2 misuse of
** the command line or a plugin that could not be loaded.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <toolgov/audit.h>
#include <toolgov/drift.h>
#include <toolgov/policy.h>
#include <toolgov/toolgov.h>

#include "grants_file.h"
#include "http.h"
#include "plugins.h"
#include "server.h"
#ifdef TOOLGOV_MCP_UPSTREAMS
#include "upstream.h"
#endif

#define EXIT_MISUSE 2
#define READ_CHUNK 65536

static const char usage_text[] =
    "usage: toolgov-mcp [--plugin PATH [--plugin-config TEXT | --plugin-config-file FILE]]...\n"
    "                   [--upstreams FILE] [--no-examples] [--max-message BYTES]\n"
    "                   [--audit FILE] [--http [ADDR:]PORT]\n"
    "                   [--grants FILE [--grants-user NAME] [--state-key FILE]]\n"
    "       toolgov-mcp --import NAME --upstreams FILE\n"
    "       toolgov-mcp --drift --upstreams FILE\n"
    "\n"
    "A Model Context Protocol server (stdio, JSON-RPC 2.0) that serves toolgov\n"
    "plugins with their declared effects enforced: writes ask the user once per\n"
    "session, destructive calls ask every time (MCP elicitation).\n"
    "\n"
    "options:\n"
    "  --plugin PATH        load a plugin built with toolgov_add_plugin(... MODULE)\n"
    "  --plugin-config TEXT the configuration of the --plugin before it, handed\n"
    "                       to the plugin's start entry (TOOLGOV_MODULE_INIT)\n"
    "  --plugin-config-file FILE  the same, read from FILE (at most 1 MiB)\n"
    "  --upstreams FILE     govern the MCP servers FILE lists ({\"mcpServers\": ...},\n"
    "                       each with the \"manifest\" that declares its tools)\n"
    "  --import NAME        write a manifest to review for server NAME of the\n"
    "                       --upstreams file on stdout (its tools, suggested effects,\n"
    "                       pins), then exit\n"
    "  --drift              start the --upstreams servers, compare what they offer\n"
    "                       with their manifests, print the drift report on stdout\n"
    "                       and exit (0: no drift, 1: drift)\n"
    "  --no-examples        do not serve the built-in example plugins\n"
    "  --max-message BYTES  the largest message accepted (default 4194304)\n"
    "  --audit FILE         append every decision of the gate to FILE (JSON lines)\n"
    "  --http [ADDR:]PORT   serve MCP's Streamable HTTP at http://ADDR:PORT/mcp\n"
    "                       instead of stdio (ADDR default 127.0.0.1; PORT 0: any)\n"
    "  --grants FILE        keep the answers the user chooses to keep always in FILE\n"
    "                       (sealed; read at start, written as they are given)\n"
    "  --grants-user NAME   the user the grants belong to (default: the login name)\n"
    "  --state-key FILE     the key that seals them (32 bytes; made when missing)\n"
    "  --help               show this help\n"
    "  --version            show the version\n"
    "\n"
    "environment:\n"
    "  TOOLGOV_CONFIRM_ONCE_TOOLS  writes that ask first, added to the manifests'\n"
    "                              (none: clear those first, so alone no write asks;\n"
    "                              empty or unset: the manifests decide)\n"
    "  TOOLGOV_CONFIRM_SCOPE       run (a yes covers the run's writes) or listed\n"
    "                              (only the calls the question listed)\n"
    "  TOOLGOV_STATE_KEY_FILE      the key file when --state-key is not given\n"
    "\n"
    "The manual: man toolgov-mcp\n";

static int misuse(const char *what, const char *arg)
{
    fprintf(stderr, "toolgov-mcp: %s%s%s\ntry 'toolgov-mcp --help' for usage\n", what,
            arg ? ": " : "", arg ? arg : "");
    return EXIT_MISUSE;
}

/* write(2) the whole of buf, then a newline, in one system call when the
** pipe takes it all. */
static int write_line(void *ud, const char *msg, size_t len)
{
    int fd = *(int *)ud;
    struct iovec iov[2];
    int k = 0;
    iov[0].iov_base = (void *)(uintptr_t)msg;
    iov[0].iov_len = len;
    iov[1].iov_base = (void *)(uintptr_t)"\n";
    iov[1].iov_len = 1;
    while (k < 2) {
        ssize_t w = writev(fd, iov + k, 2 - k);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        while (k < 2 && (size_t)w >= iov[k].iov_len) {
            w -= (ssize_t)iov[k].iov_len;
            k++;
        }
        if (k < 2) {
            iov[k].iov_base = (char *)iov[k].iov_base + w;
            iov[k].iov_len -= (size_t)w;
        }
    }
    return 0;
}

/* Read lines from fd 0 and hand each to the server. 0 at end of input, -1
** when a response could not be written. Input quiet for a second lets the
** server say what changed meanwhile (toolgov_mcp_server_idle: an upstream
** server's tool list). */
static int serve(toolgov_mcp_server *srv)
{
    size_t max = toolgov_mcp_server_max_message(srv);
    size_t cap = READ_CHUNK, len = 0, skipped = 0;
    char *buf = malloc(cap);
    int skipping = 0, rc = 0;

    if (!buf)
        return -1;
    for (;;) {
        ssize_t got;
        size_t start = 0, i;
        if (len == cap) {
            /* Room for one more chunk: a message never needs more than
            ** max + 2 bytes (CR LF), the rest is skipped. */
            size_t ncap = cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                rc = -1;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        {
            struct pollfd pfd = {0, POLLIN, 0};
            int ready = poll(&pfd, 1, 1000);
            if (ready == 0) {
                if (toolgov_mcp_server_idle(srv) != 0)
                    goto fail;
                continue;
            }
        }
        got = read(0, buf + len, cap - len);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            rc = 0; /* a broken stdin is the end of the session */
            break;
        }
        if (got == 0) {
            /* A last message without its newline is still one message. */
            int last = 0;
            if (len && buf[len - 1] == '\r')
                len--;
            if (skipping)
                last = toolgov_mcp_server_oversized(srv, skipped + len);
            else if (len > 0)
                last = toolgov_mcp_server_handle(srv, buf, len);
            rc = last ? -1 : 0;
            break;
        }
        for (i = len, len += (size_t)got; i < len; i++) {
            size_t n;
            if (buf[i] != '\n')
                continue;
            n = i - start;
            if (skipping) {
                skipping = 0;
                if (toolgov_mcp_server_oversized(srv, skipped + n) != 0)
                    goto fail;
            } else {
                if (n && buf[start + n - 1] == '\r')
                    n--;
                if (n > max) {
                    if (toolgov_mcp_server_oversized(srv, n) != 0)
                        goto fail;
                } else if (n > 0 && toolgov_mcp_server_handle(srv, buf + start, n) != 0) {
                    goto fail;
                }
            }
            start = i + 1;
        }
        memmove(buf, buf + start, len - start);
        len -= start;
        if (skipping || len > max + 1) {
            /* Too long already: stop keeping it, count it and skip to its
            ** newline; give back what the buffer grew to. */
            if (!skipping)
                skipped = 0;
            skipping = 1;
            skipped += len;
            len = 0;
            if (cap > 4 * READ_CHUNK) {
                char *nb = realloc(buf, READ_CHUNK);
                if (nb) {
                    buf = nb;
                    cap = READ_CHUNK;
                }
            }
        }
    }
    free(buf);
    return rc;
fail:
    free(buf);
    return -1;
}

/* Free what the command line read, and return `status`. */
static int drop_modules(toolgov_mcp_module *mods, char **files, size_t nfiles, int status)
{
    while (nfiles)
        free(files[--nfiles]);
    free(files);
    free(mods);
    return status;
}

int main(int argc, char **argv)
{
    toolgov_mcp_plugins plugins;
    toolgov_mcp_options opt;
    toolgov_policy *pol = NULL;
    toolgov_mcp_server *srv = NULL;
    toolgov_mcp_module *mods = NULL;
    char **files = NULL; /* configuration files read, freed after the modules start */
    size_t nfiles = 0;
    const char *audit_path = NULL, *upstreams_path = NULL, *import_name = NULL;
    const char *grants_path = NULL, *grants_user = NULL, *key_path = NULL;
    toolgov_mcp_grants_file grants;
    int grants_open = 0;
    FILE *audit_file = NULL;
    toolgov_audit_jsonl *audit = NULL;
#ifdef TOOLGOV_MCP_UPSTREAMS
    toolgov_mcp_upstreams *upstreams = NULL;
#endif
    size_t npaths = 0;
    int examples = 1, i, rc, status = 1, out_fd = 1, drift_only = 0, http = 0;
    char http_addr[64];
    unsigned http_port = 0;

    memset(&opt, 0, sizeof opt);
    memset(&plugins, 0, sizeof plugins);
    mods = calloc((size_t)argc, sizeof *mods);
    files = calloc((size_t)argc, sizeof *files);
    if (!mods || !files)
        return drop_modules(mods, files, 0, 1);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            return drop_modules(mods, files, nfiles, 0);
        } else if (strcmp(a, "--version") == 0) {
            printf("toolgov-mcp %s\n", TOOLGOV_VERSION_STRING);
            return drop_modules(mods, files, nfiles, 0);
        } else if (strcmp(a, "--plugin") == 0 || strncmp(a, "--plugin=", 9) == 0) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || !*v)
                return drop_modules(mods, files, nfiles, misuse("--plugin needs a path", NULL));
            mods[npaths++].path = v;
        } else if (strcmp(a, "--plugin-config") == 0 || strncmp(a, "--plugin-config=", 16) == 0 ||
                   strcmp(a, "--plugin-config-file") == 0 ||
                   strncmp(a, "--plugin-config-file=", 21) == 0) {
            int from_file = strncmp(a, "--plugin-config-file", 20) == 0;
            size_t name_len = from_file ? 20 : 15;
            const char *v = a[name_len] == '=' ? a + name_len + 1
                                               : (i + 1 < argc ? argv[++i] : NULL);
            toolgov_mcp_module *m = npaths ? &mods[npaths - 1] : NULL;
            if (!v || (from_file && !*v))
                return drop_modules(mods, files, nfiles,
                                    misuse(from_file ? "--plugin-config-file needs a file name"
                                                     : "--plugin-config needs a text",
                                           NULL));
            if (!m)
                return drop_modules(mods, files, nfiles,
                                    misuse("a plugin configuration belongs to the --plugin "
                                           "before it, and none was given",
                                           a));
            if (m->config)
                return drop_modules(mods, files, nfiles,
                                    misuse("a second configuration for one plugin", m->path));
            if (from_file) {
                char *text = toolgov_mcp_read_config(v, &m->config_len, "toolgov-mcp", stderr);
                if (!text)
                    return drop_modules(mods, files, nfiles, EXIT_MISUSE);
                files[nfiles++] = text;
                m->config = text;
            } else {
                m->config = v;
                m->config_len = strlen(v);
            }
        } else if (strcmp(a, "--audit") == 0 || strncmp(a, "--audit=", 8) == 0) {
            audit_path = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!audit_path || !*audit_path)
                return drop_modules(mods, files, nfiles,
                                    misuse("--audit needs a file name", NULL));
        } else if (strcmp(a, "--upstreams") == 0 || strncmp(a, "--upstreams=", 12) == 0) {
            upstreams_path = a[11] == '=' ? a + 12 : (i + 1 < argc ? argv[++i] : NULL);
            if (!upstreams_path || !*upstreams_path)
                return drop_modules(mods, files, nfiles,
                                    misuse("--upstreams needs a file name", NULL));
        } else if (strcmp(a, "--import") == 0 || strncmp(a, "--import=", 9) == 0) {
            import_name = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!import_name || !*import_name)
                return drop_modules(mods, files, nfiles,
                                    misuse("--import needs the name of a server in the "
                                           "--upstreams file", NULL));
        } else if (strcmp(a, "--grants") == 0 || strcmp(a, "--grants-user") == 0 ||
                   strcmp(a, "--state-key") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : NULL;
            if (!v || !*v)
                return drop_modules(mods, files, nfiles,
                                    misuse(a[2] == 'g' ? (a[8] ? "--grants-user needs a name"
                                                               : "--grants needs a file name")
                                                       : "--state-key needs a file name",
                                           NULL));
            *(a[2] == 's' ? &key_path : a[8] ? &grants_user : &grants_path) = v;
        } else if (strcmp(a, "--no-examples") == 0) {
            examples = 0;
        } else if (strcmp(a, "--drift") == 0) {
            drift_only = 1;
        } else if (strcmp(a, "--http") == 0 || strncmp(a, "--http=", 7) == 0) {
            const char *v = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || !*v)
                return drop_modules(mods, files, nfiles,
                                    misuse("--http needs [ADDR:]PORT, e.g. 127.0.0.1:8080",
                                           NULL));
            if (toolgov_mcp_http_parse(v, http_addr, &http_port, stderr) != 0)
                return drop_modules(mods, files, nfiles, EXIT_MISUSE);
            http = 1;
        } else if (strcmp(a, "--max-message") == 0 || strncmp(a, "--max-message=", 14) == 0) {
            const char *v = a[13] == '=' ? a + 14 : (i + 1 < argc ? argv[++i] : NULL);
            char *end = NULL;
            unsigned long long n = 0;
            errno = 0;
            if (v && *v >= '0' && *v <= '9')
                n = strtoull(v, &end, 10);
            if (!end || *end || errno || n < 64 || n > (16ull << 20))
                return drop_modules(
                    mods, files, nfiles,
                    misuse("--max-message needs a number of bytes from 64 to 16777216", v));
            opt.max_message = (size_t)n;
        } else {
            return drop_modules(mods, files, nfiles, misuse("unknown argument", a));
        }
    }
    if ((grants_user || key_path) && !grants_path)
        return drop_modules(mods, files, nfiles,
                            misuse("--grants-user and --state-key go with --grants FILE", NULL));
    if (!key_path)
        key_path = getenv("TOOLGOV_STATE_KEY_FILE");
    if (grants_path && (!key_path || !*key_path))
        return drop_modules(mods, files, nfiles,
                            misuse("--grants needs the key that seals it: --state-key FILE, or "
                                   "TOOLGOV_STATE_KEY_FILE (never beside the grants file)",
                                   NULL));
    if (!examples && npaths == 0 && !upstreams_path)
        return drop_modules(
            mods, files, nfiles,
            misuse("--no-examples and no --plugin or --upstreams: there is nothing to serve",
                   NULL));
    if (drift_only && (!upstreams_path || import_name))
        return drop_modules(mods, files, nfiles,
                            misuse("--drift needs --upstreams FILE (and no --import)", NULL));
    if (import_name && !upstreams_path)
        return drop_modules(mods, files, nfiles,
                            misuse("--import needs --upstreams FILE, where the server is listed",
                                   NULL));
#ifdef TOOLGOV_MCP_UPSTREAMS
    if (upstreams_path &&
        toolgov_mcp_upstreams_load(&upstreams, upstreams_path,
                                   opt.max_message ? opt.max_message : TOOLGOV_MCP_MAX_MESSAGE,
                                   import_name != NULL, stderr) != 0)
        return drop_modules(mods, files, nfiles, EXIT_MISUSE);
    if (import_name) {
        /* A manifest to review on stdout; nothing is served. */
        signal(SIGPIPE, SIG_IGN);
        rc = toolgov_mcp_upstreams_import(upstreams, import_name, stdout, stderr);
        toolgov_mcp_upstreams_free(upstreams);
        return drop_modules(mods, files, nfiles, rc ? 1 : 0);
    }
#else
    if (upstreams_path)
        return drop_modules(mods, files, nfiles,
                            misuse("this toolgov-mcp was built without toolgov-gen, so it "
                                   "cannot read manifests for --upstreams",
                                   NULL));
#endif
    /* A client that closes its end must not kill us mid-write. */
    signal(SIGPIPE, SIG_IGN);

    rc = toolgov_mcp_plugins_open(&plugins, examples, mods, npaths, "toolgov-mcp", stderr);
    drop_modules(mods, files, nfiles, 0);
#ifdef TOOLGOV_MCP_UPSTREAMS
    /* The servers' tools join the pool after the plugins' (a name both
    ** use stays the plugin's, with a drift row). */
    if (rc == 0 && upstreams && toolgov_mcp_upstreams_start(upstreams, plugins.reg, stderr))
        rc = -1;
    opt.tool_unavailable = toolgov_mcp_upstreams_unavailable;
    if (upstreams)
        opt.tools_changed = toolgov_mcp_upstreams_changed;
    opt.tool_ud = upstreams;
    if (rc == 0 && drift_only) {
        /* The report, then out: nothing is served. */
        status = toolgov_mcp_upstreams_report(upstreams, stdout) ? 1 : 0;
        if (fflush(stdout) != 0)
            status = EXIT_MISUSE;
        toolgov_mcp_plugins_close(&plugins);
        toolgov_mcp_upstreams_free(upstreams);
        return status;
    }
#endif
    if (rc) {
        toolgov_mcp_plugins_close(&plugins);
#ifdef TOOLGOV_MCP_UPSTREAMS
        toolgov_mcp_upstreams_free(upstreams);
#endif
        return EXIT_MISUSE;
    }
    if ((rc = toolgov_policy_new(&pol, plugins.reg)) ||
        (rc = toolgov_policy_override_from_env(pol))) {
        fprintf(stderr, "toolgov-mcp: %s\n", toolgov_strerror(rc));
        goto out;
    }
    /* Drift (an override naming no tool, a refused registration) is the
    ** operator's to see, on stderr; the session still starts. */
    toolgov_mcp_plugins_report_drift(&plugins, pol, stderr);
    if (audit_path) {
        if (!(audit_file = fopen(audit_path, "a"))) {
            fprintf(stderr, "toolgov-mcp: %s: cannot open the audit log: %s\n", audit_path,
                    strerror(errno));
            goto out;
        }
        if ((rc = toolgov_audit_jsonl_new(&audit, audit_file, NULL))) {
            fprintf(stderr, "toolgov-mcp: %s: %s\n", audit_path, toolgov_strerror(rc));
            goto out;
        }
        opt.audit = toolgov_audit_jsonl_observe;
        opt.audit_ud = audit;
#ifdef TOOLGOV_MCP_UPSTREAMS
        if (upstreams)
            toolgov_mcp_upstreams_audit(upstreams, audit_file);
#endif
    }
    if (grants_path) {
        grants_open = 1;
        if (toolgov_mcp_grants_open(&grants, grants_path, grants_user, key_path, plugins.reg,
                                    "toolgov-mcp", stderr) != 0) {
            status = EXIT_MISUSE;
            goto out;
        }
        opt.grants = grants.set;
        opt.grant_store = toolgov_mcp_grants_store;
        opt.grant_store_ud = &grants;
    }
    if (http) {
        /* One engine per session, each with its run; the same options. */
        status = toolgov_mcp_http_serve(http_addr, http_port, plugins.reg, pol, &opt,
                                        stderr) == 0 ? 0 : 1;
        goto out;
    }
    if ((rc = toolgov_mcp_server_new(&srv, plugins.reg, pol, &opt, write_line, &out_fd))) {
        fprintf(stderr, "toolgov-mcp: %s\n", toolgov_strerror(rc));
        goto out;
    }
    status = serve(srv) == 0 ? 0 : 1;
out:
    toolgov_mcp_server_free(srv);
    if (grants_open)
        toolgov_mcp_grants_close(&grants);
    if (audit) {
        int err = 0;
        if ((rc = toolgov_audit_jsonl_status(audit, &err))) {
            fprintf(stderr, "toolgov-mcp: %s: the audit log could not be written: %s\n",
                    audit_path, err ? strerror(err) : toolgov_strerror(rc));
            status = 1;
        }
        toolgov_audit_jsonl_free(audit);
    }
#ifdef TOOLGOV_MCP_UPSTREAMS
    if (upstreams)
        toolgov_mcp_upstreams_audit(upstreams, NULL);
#endif
    if (audit_file && fclose(audit_file) != 0 && status == 0) {
        fprintf(stderr, "toolgov-mcp: %s: the audit log could not be closed: %s\n", audit_path,
                strerror(errno));
        status = 1;
    }
    toolgov_policy_free(pol);
    toolgov_mcp_plugins_close(&plugins);
#ifdef TOOLGOV_MCP_UPSTREAMS
    /* After the registry, which borrows the servers' tool tables. */
    toolgov_mcp_upstreams_free(upstreams);
#endif
    return status;
}
