/* SPDX-License-Identifier: MIT */
/*
** main.c: toolgov-agent, a terminal agent on toolgov's loop (loop.h) and a
** model API over HTTP (transport.h).
**
**   toolgov-agent [--base-url URL] [--model NAME]
**                 [--api openai|openai-responses|anthropic] [--api-key-file FILE]
**                 [--plugin PATH]... [--once QUESTION] [--audit FILE] [--state FILE]
**                 [--timeout SECONDS] [--connect-timeout SECONDS] [--retries N]
**                 [--max-steps N] [--grants FILE [--grants-user NAME]] [--stream] [--strict]
**
** Without --base-url it talks to the demo's scripted model, in process.
** Questions to the user go to standard output; each is answered by one
** line of standard input (y or Y first: yes; anything else or the end of
** input: no; with --grants, a or A first: yes, and always: a standing
** grant kept in FILE, grants_file.h). Without --once each line of standard input is one turn.
**
** Exit status: 0 every turn ended normally (the answer, an answers-directly
** tool's output, a refusal, the output limit); 1 an API error (its message
** on standard error), an unreadable response or no answer from the
** endpoint: nothing runs after it; 2 misuse; 3 a step or size limit.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/audit.h>
#include <toolgov/loop.h>
#include <toolgov/policy.h>
#include <toolgov/run.h>
#include <toolgov/toolgov.h>

#include "grants_file.h"
#include "plugins.h"
#include "scripted.h"
#include "transport.h"

#include <sys/stat.h>
#include <unistd.h>

#define EXIT_API 1
#define EXIT_MISUSE 2
#define EXIT_LIMIT 3
#define EXIT_SAVED 4
#define MAX_PLUGINS 64

static const char usage_text[] =
    "usage: toolgov-agent [--base-url URL] [--model NAME]\n"
    "                     [--api openai|openai-responses|anthropic] [--api-key-file FILE]\n"
    "                     [--plugin PATH [--plugin-config TEXT | --plugin-config-file FILE]]...\n"
    "                     [--once QUESTION] [--audit FILE]\n"
    "                     [--state FILE] [--timeout SECONDS] [--connect-timeout SECONDS]\n"
    "                     [--retries N] [--max-steps N] [--grants FILE [--grants-user NAME]]\n"
    "                     [--stream] [--strict]\n"
    "\n"
    "A terminal agent: the model proposes tool calls, toolgov's gate decides,\n"
    "writes ask you once per turn, destructive calls ask every time.\n"
    "\n"
    "options:\n"
    "  --base-url URL          the API's base (e.g. http://127.0.0.1:8080/v1; the\n"
    "                          request goes to URL/chat/completions, URL/responses\n"
    "                          or URL/messages); none: the built-in scripted model\n"
    "  --model NAME            the model to ask for\n"
    "  --api API               openai (default), openai-responses or anthropic\n"
    "  --api-key-file FILE     read the API key from FILE (else OPENAI_API_KEY or\n"
    "                          ANTHROPIC_API_KEY; never on the command line)\n"
    "  --plugin PATH           mount a plugin built with toolgov_add_plugin(... MODULE)\n"
    "                          (none: the seven example plugins)\n"
    "  --plugin-config TEXT    the configuration of the --plugin before it, handed to\n"
    "                          its start entry (TOOLGOV_MODULE_INIT, toolgov/module.h)\n"
    "  --plugin-config-file FILE  the same, read from FILE (at most 1 MiB)\n"
    "  --once QUESTION         one turn, then exit\n"
    "  --audit FILE            append every decision of the gate to FILE (JSON lines)\n"
    "  --state FILE            stop at a question and save the turn in FILE;\n"
    "                          run again with --state FILE to answer and go on\n"
    "  --timeout SECONDS       the longest one request may take (default 300)\n"
    "  --connect-timeout SECONDS  (default 10)\n"
    "  --retries N             retries on 429, 5xx and network failures (default 3)\n"
    "  --max-steps N           model requests per turn (default 8)\n"
    "  --stream                ask for streamed responses and show the answer as it\n"
    "                          comes (a stream cut short runs nothing of it)\n"
    "  --strict                OpenAI's strict mode for the tools (openai and\n"
    "                          openai-responses): every property required, the\n"
    "                          optional ones nullable; null reads as absent\n"
    "  --grants FILE           answer a to a question: yes, and always (kept in FILE,\n"
    "                          sealed with the state key; read at start)\n"
    "  --grants-user NAME      the user the grants belong to (default: the login name)\n"
    "  --help, --version\n"
    "\n"
    "environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, TOOLGOV_CONFIRM_ONCE_TOOLS,\n"
    "TOOLGOV_CONFIRM_SCOPE, TOOLGOV_STATE_KEY_FILE (the key that seals --state)\n"
    "\n"
    "The manual: man toolgov-agent\n";

typedef struct agent {
    const char *base_url;
    toolgov_loop_api api;
    char url[2048];
    char key_header[1100];
    int have_key;
    int scripted;
    toolgov_http_options http;
    FILE *in;
    int http_failed;
    int stream;                 /* --stream */
    int delta_shown;            /* the last response's text went out as it came */
    toolgov_loop *streaming;    /* the loop a stream is fed to */
    const char *state_path;     /* --state, or NULL */
    char run_id[TOOLGOV_RUN_ID_MAX + 1]; /* the run's identity under --state:
                                         ** binds the saved text to its file */
    toolgov_state_key key;
    toolgov_mcp_grants_file grants; /* --grants, when have_grants */
    int have_grants;
} agent;

/* With the example plugins, the user's memory the demo has too. */
static int memory_search(const toolgov_call *call, const void *args, toolgov_result *out)
{
    (void)call;
    (void)args;
    return toolgov_result_printf(out, "- Prefers reminders at 08:30 on the day something is "
                                      "due.\n- Pays the rent by bank transfer, never by card.\n");
}

static int misuse(const char *what, const char *arg)
{
    fprintf(stderr, "toolgov-agent: %s%s%s\ntry 'toolgov-agent --help' for usage\n", what,
            arg ? ": " : "", arg ? arg : "");
    return EXIT_MISUSE;
}

static int read_key_file(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n;
    if (!f) {
        fprintf(stderr, "toolgov-agent: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!fgets(out, (int)size, f)) {
        fclose(f);
        fprintf(stderr, "toolgov-agent: %s: the file is empty; put the API key on its first "
                        "line\n", path);
        return -1;
    }
    fclose(f);
    n = strlen(out);
    while (n && (out[n - 1] == '\n' || out[n - 1] == '\r' || out[n - 1] == ' '))
        out[--n] = '\0';
    return 0;
}

/* A piece of a streamed body: to the loop, and its answer text to the
** terminal as it comes. Non-zero stops reading (the turn has ended). */
static int stream_piece(void *ud, const char *data, size_t len)
{
    agent *ag = ud;
    const char *delta;
    size_t dlen;

    if (toolgov_loop_response_chunk(ag->streaming, data, len, &delta, &dlen))
        return 1;
    if (dlen) {
        /* each line shown as a person should see it, the breaks kept */
        toolgov_text_shown_write(stdout, delta, dlen, TOOLGOV_SHOWN_LINES);
        fflush(stdout);
        ag->delta_shown = 1;
    }
    return 0;
}

static int send_http(void *ud, toolgov_loop *lp, const char *req, size_t len)
{
    agent *ag = ud;
    const char *headers[5];
    size_t n = 0;
    toolgov_http_response r;
    int rc;

    if (ag->scripted) {
        char *body = NULL, err[256];
        size_t blen = 0;
        if (toolgov_agent_scripted(req, len, &body, &blen, err, sizeof err)) {
            toolgov_loop_abort(lp, err);
            return -1;
        }
        rc = toolgov_loop_response(lp, body, blen);
        free(body);
        return rc == TOOLGOV_ENOMEM ? -1 : 0;
    }
    headers[n++] = "Content-Type: application/json";
    if (ag->have_key)
        headers[n++] = ag->key_header;
    if (ag->api == TOOLGOV_LOOP_ANTHROPIC)
        headers[n++] = "anthropic-version: 2023-06-01";
    ag->delta_shown = 0;
    ag->streaming = lp;
    ag->http.on_data = ag->stream ? stream_piece : NULL;
    ag->http.data_ud = ag;
    if (ag->stream)
        headers[n++] = "Accept: text/event-stream";
    if (toolgov_http_post(&ag->http, ag->url, headers, n, req, len, &r) != 0) {
        char why[2400];
        snprintf(why, sizeof why, "no answer from %s: %s", ag->url, r.error);
        ag->http_failed = 1;
        toolgov_loop_abort(lp, why);
        return -1;
    }
    if (r.streamed) {
        /* The loop has had the body; a stream it refused has ended the
        ** turn already. A dropped connection is the loop's to judge: a
        ** stream cut before its end runs nothing. */
        rc = r.stopped ? 0 : toolgov_loop_response_end(lp);
        if (ag->delta_shown && rc)
            fputc('\n', stdout);
        if (rc == TOOLGOV_EINVAL && r.error[0])
            fprintf(stderr, "toolgov-agent: the stream from %s: %s\n", ag->url, r.error);
        toolgov_http_response_free(&r);
        return rc == TOOLGOV_ENOMEM ? -1 : 0;
    }
    rc = toolgov_loop_response(lp, r.body, r.len);
    if (rc == TOOLGOV_EINVAL && r.status >= 300)
        fprintf(stderr, "toolgov-agent: HTTP %ld from %s\n", r.status, ag->url);
    toolgov_http_response_free(&r);
    return rc == TOOLGOV_ENOMEM ? -1 : 0;
}

/* "a": keep the yes as standing allows, in the file and for this process:
** of each tool the confirmation listed, or of exactly the approved call. */
static void keep_always(agent *ag, const toolgov_loop_action *q)
{
    size_t i, j;

    for (i = 0; i < q->n_calls; i++) {
        toolgov_grant g;
        int seen = 0;

        for (j = 0; j < i && q->question != TOOLGOV_LOOP_APPROVAL; j++)
            seen |= strcmp(q->calls[j].tool, q->calls[i].tool) == 0;
        if (seen)
            continue;
        memset(&g, 0, sizeof g);
        g.tool = q->calls[i].tool;
        g.args = q->question == TOOLGOV_LOOP_APPROVAL ? q->calls[i].args : NULL;
        g.verdict = TOOLGOV_GRANT_ALLOW;
        if (toolgov_mcp_grants_store(&ag->grants, &g) == 0)
            fprintf(stdout, "(kept: %s%s runs without asking from now on)\n", g.tool,
                    g.args ? " with exactly these arguments" : "");
        (void)toolgov_grants_add(NULL, ag->grants.set, ag->grants.reg, &g);
    }
}

static int ask_terminal(void *ud, const toolgov_loop_action *q)
{
    agent *ag = ud;
    char line[256];
    fprintf(stdout, ag->have_grants ? "%s\n[y/N/a: yes, and always] " : "%s\n[y/N] ", q->text);
    fflush(stdout);
    if (!fgets(line, sizeof line, ag->in)) {
        fputc('\n', stdout);
        return 0;
    }
    /* The rest of a longer line is not another answer. */
    if (ag->have_grants && (line[0] == 'a' || line[0] == 'A')) {
        keep_always(ag, q);
        line[0] = 'y';
    }
    while (!strchr(line, '\n') && fgets(line, sizeof line, ag->in))
        ;
    return line[0] == 'y' || line[0] == 'Y';
}

static int exit_of(toolgov_loop_end end)
{
    switch (end) {
    case TOOLGOV_LOOP_END_ANSWERED:
    case TOOLGOV_LOOP_END_ANSWERED_DIRECTLY:
    case TOOLGOV_LOOP_END_REFUSAL:
    case TOOLGOV_LOOP_END_TRUNCATED:
        return 0;
    case TOOLGOV_LOOP_END_STEP_LIMIT:
    case TOOLGOV_LOOP_END_SIZE_LIMIT:
        return EXIT_LIMIT;
    default:
        return EXIT_API;
    }
}

/* Write the saved turn to the state file (a new file, renamed over). */
static int save_state(agent *ag, toolgov_loop *lp)
{
    char tmp[PATH_MAX + 8];
    size_t len = 0;
    char *text;
    int fd, rc;

    if ((rc = toolgov_loop_save(NULL, 0, &len, lp, &ag->key)) ||
        !(text = malloc(len + 1))) {
        fprintf(stderr, "toolgov-agent: --state: %s\n", toolgov_strerror(rc ? rc : TOOLGOV_ENOMEM));
        return -1;
    }
    if ((rc = toolgov_loop_save(text, len + 1, NULL, lp, &ag->key))) {
        free(text);
        fprintf(stderr, "toolgov-agent: --state: %s\n", toolgov_strerror(rc));
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", ag->state_path);
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len || fsync(fd) != 0 || close(fd) != 0 ||
        rename(tmp, ag->state_path) != 0) {
        fprintf(stderr, "toolgov-agent: --state %s: %s\n", ag->state_path, strerror(errno));
        if (fd >= 0)
            unlink(tmp);
        free(text);
        return -1;
    }
    free(text);
    return 0;
}

/* Drive the started (or restored) turn; its exit status. `resumed`: the
** first question is the one the saved turn stopped at, answered now. */
static int drive(agent *ag, toolgov_loop *lp, int resumed)
{
    toolgov_loop_action a;
    int rc;

    for (;;) {
        if ((rc = toolgov_loop_next(lp, &a))) {
            fprintf(stderr, "toolgov-agent: %s\n", toolgov_strerror(rc));
            return EXIT_API;
        }
        if (a.what == TOOLGOV_LOOP_DONE)
            break;
        if (a.what == TOOLGOV_LOOP_SEND) {
            if (send_http(ag, lp, a.text, a.len) < 0)
                toolgov_loop_abort(lp, "the transport failed");
            continue;
        }
        if (ag->state_path && !resumed) {
            /* Stop here: the question is saved, answered by a later run. */
            if (save_state(ag, lp))
                return EXIT_API;
            fprintf(stdout, "%s\n", a.text);
            fprintf(stdout, "(saved in %s: run toolgov-agent --state %s again with the answer "
                            "on standard input)\n", ag->state_path, ag->state_path);
            fflush(stdout);
            return EXIT_SAVED;
        }
        resumed = 0;
        if ((rc = toolgov_loop_answer(lp, ask_terminal(ag, &a)))) {
            fprintf(stderr, "toolgov-agent: %s\n", toolgov_strerror(rc));
            return EXIT_API;
        }
    }
    if (ag->delta_shown &&
        (a.end == TOOLGOV_LOOP_END_ANSWERED || a.end == TOOLGOV_LOOP_END_TRUNCATED)) {
        fputc('\n', stdout); /* the answer went out as it came */
    } else if (a.len) {
        toolgov_text_shown_write(stdout, a.text, a.len, TOOLGOV_SHOWN_LINES);
        fputc('\n', stdout);
    }
    fflush(stdout);
    if (exit_of(a.end))
        fprintf(stderr, "toolgov-agent: the turn ended (%s): %s\n", toolgov_loop_end_name(a.end),
                a.error);
    return exit_of(a.end);
}

static int new_run(toolgov_run **run, const toolgov_policy *pol, toolgov_audit_jsonl *audit,
                   const char *id)
{
    int rc;
    if ((rc = toolgov_run_new(run, pol, NULL)) || (id && (rc = toolgov_run_set_id(*run, id)))) {
        fprintf(stderr, "toolgov-agent: %s\n", toolgov_strerror(rc));
        toolgov_run_free(*run);
        *run = NULL;
        return -1;
    }
    if (audit) {
        toolgov_audit_options ao;
        memset(&ao, 0, sizeof ao);
        ao.observer = toolgov_audit_jsonl_observe;
        ao.ud = audit;
        if ((rc = toolgov_run_set_audit(*run, &ao))) {
            fprintf(stderr, "toolgov-agent: --audit: %s\n", toolgov_strerror(rc));
            toolgov_run_free(*run);
            *run = NULL;
            return -1;
        }
    }
    return 0;
}

/* One turn; its exit status. */
static int turn(agent *ag, toolgov_loop *lp, const toolgov_policy *pol,
                toolgov_audit_jsonl *audit, const char *question, const char *const *tools,
                size_t n_tools)
{
    toolgov_run *run = NULL;
    int rc;

    if (new_run(&run, pol, audit, ag->state_path ? ag->run_id : NULL))
        return EXIT_API;
    if (ag->have_grants)
        (void)toolgov_run_set_grants(run, ag->grants.set);
    if ((rc = toolgov_loop_start(lp, run, question, tools, n_tools))) {
        fprintf(stderr, "toolgov-agent: %s\n", toolgov_strerror(rc));
        toolgov_run_free(run);
        return EXIT_API;
    }
    rc = drive(ag, lp, 0);
    toolgov_run_free(run);
    return rc;
}

/* Resume the turn saved in the state file; its exit status. The file is
** removed once restored, so no answer is ever applied twice. */
static int resume(agent *ag, toolgov_loop *lp, const toolgov_policy *pol,
                  toolgov_audit_jsonl *audit, const char *text, size_t len)
{
    toolgov_run *run = NULL;
    int rc;

    if (new_run(&run, pol, audit, ag->run_id))
        return EXIT_API;
    if (ag->have_grants)
        (void)toolgov_run_set_grants(run, ag->grants.set);
    rc = toolgov_loop_restore(lp, run, text, len, &ag->key);
    if (rc) {
        fprintf(stderr, "toolgov-agent: --state %s: %s\n", ag->state_path,
                rc == TOOLGOV_ESTATE ? "refused: not a turn saved for this state file under this "
                                       "key, or changed since"
                                     : toolgov_strerror(rc));
        toolgov_run_free(run);
        return EXIT_MISUSE;
    }
    if (unlink(ag->state_path) != 0) {
        fprintf(stderr, "toolgov-agent: --state %s: %s\n", ag->state_path, strerror(errno));
        toolgov_run_free(run);
        return EXIT_API;
    }
    rc = drive(ag, lp, 1);
    toolgov_run_free(run);
    return rc;
}

/* The key that seals --state: TOOLGOV_STATE_KEY_FILE, else FILE.key; made
** (mode 0600) when missing. */
static int load_key(agent *ag)
{
    const char *env = getenv("TOOLGOV_STATE_KEY_FILE");
    char path[PATH_MAX + 8];
    int fd;
    ssize_t n;

    if (env && *env)
        snprintf(path, sizeof path, "%s", env);
    else
        snprintf(path, sizeof path, "%s.key", ag->state_path);
    fd = open(path, O_RDONLY);
    if (fd >= 0) {
        n = read(fd, ag->key.bytes, sizeof ag->key.bytes);
        close(fd);
        if (n != (ssize_t)sizeof ag->key.bytes) {
            fprintf(stderr, "toolgov-agent: state key %s: not a key (%d bytes are)\n", path,
                    (int)sizeof ag->key.bytes);
            return -1;
        }
        return 0;
    }
    if (toolgov_state_key_generate(&ag->key) ||
        (fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0 ||
        write(fd, ag->key.bytes, sizeof ag->key.bytes) != (ssize_t)sizeof ag->key.bytes ||
        close(fd) != 0) {
        fprintf(stderr, "toolgov-agent: state key %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The state file's text, or NULL when it does not exist (*len 0). */
static char *read_state(const char *path, size_t *len, int *failed)
{
    FILE *f = fopen(path, "rb");
    char *text;
    long n;

    *len = 0;
    *failed = 0;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (64L << 20) ||
        fseek(f, 0, SEEK_SET) || !(text = malloc((size_t)n + 1)) ||
        fread(text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        *failed = 1;
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return text;
}

static int parse_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Free the configuration files the command line read; return `status`. */
static int free_configs(char **configs, int status)
{
    size_t i;
    for (i = 0; i < MAX_PLUGINS; i++) {
        free(configs[i]);
        configs[i] = NULL;
    }
    return status;
}

int main(int argc, char **argv)
{
    agent ag;
    toolgov_mcp_module plugins[MAX_PLUGINS];
    char *configs[MAX_PLUGINS] = {NULL}; /* configuration files read */
    int config_files[MAX_PLUGINS] = {0};  /* plugins[i].config names a file */
    size_t n_plugins = 0, i, n_tools = 0;
    const char *once = NULL, *audit_path = NULL, *state_path = NULL, *key_file = NULL;
    const char *model = NULL, **tools = NULL, *grants_path = NULL, *grants_user = NULL;
    toolgov_loop_options lo;
    toolgov_mcp_plugins p;
    toolgov_policy *pol = NULL;
    toolgov_loop *lp = NULL;
    toolgov_audit_jsonl *audit = NULL;
    FILE *audit_file = NULL;
    int status = 0, rc, a;
    long v;

    memset(plugins, 0, sizeof plugins);
    memset(&ag, 0, sizeof ag);
    memset(&lo, 0, sizeof lo);
    memset(&p, 0, sizeof p);
    ag.in = stdin;
    ag.http.log = stderr;
    for (a = 1; a < argc; a++) {
        const char *opt = argv[a];
        const char *val = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(opt, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (!strcmp(opt, "--version")) {
            printf("toolgov-agent %s\n", toolgov_version());
            return 0;
        }
        if (!strcmp(opt, "--stream")) {
            ag.stream = 1;
            continue;
        }
        if (!strcmp(opt, "--strict")) {
            lo.strict = 1;
            continue;
        }
        if (!strcmp(opt, "--api-key")) {
            return misuse("the API key is never taken on the command line (it would show in "
                          "the process list); use OPENAI_API_KEY, ANTHROPIC_API_KEY or "
                          "--api-key-file",
                          NULL);
        }
        if (strncmp(opt, "--", 2) != 0)
            return misuse("unexpected argument", opt);
        if (!val)
            return misuse("option needs a value", opt);
        a++;
        if (!strcmp(opt, "--base-url"))
            ag.base_url = val;
        else if (!strcmp(opt, "--model"))
            model = val;
        else if (!strcmp(opt, "--api")) {
            if (!strcmp(val, "openai"))
                ag.api = TOOLGOV_LOOP_OPENAI_CHAT;
            else if (!strcmp(val, "openai-responses"))
                ag.api = TOOLGOV_LOOP_OPENAI_RESPONSES;
            else if (!strcmp(val, "anthropic"))
                ag.api = TOOLGOV_LOOP_ANTHROPIC;
            else
                return misuse("--api takes openai, openai-responses or anthropic", val);
        } else if (!strcmp(opt, "--api-key-file"))
            key_file = val;
        else if (!strcmp(opt, "--plugin")) {
            if (n_plugins == MAX_PLUGINS)
                return misuse("too many --plugin options", val);
            plugins[n_plugins++].path = val;
        } else if (!strcmp(opt, "--plugin-config") || !strcmp(opt, "--plugin-config-file")) {
            toolgov_mcp_module *m = n_plugins ? &plugins[n_plugins - 1] : NULL;
            if (!m || m->config)
                return misuse(m ? "a second configuration for one plugin"
                                : "a plugin configuration belongs to the --plugin before it, "
                                  "and none was given",
                              opt);
            /* A file is read once the command line is read whole. */
            m->config = val;
            m->config_len = strlen(val);
            config_files[n_plugins - 1] = !strcmp(opt, "--plugin-config-file");
        } else if (!strcmp(opt, "--once"))
            once = val;
        else if (!strcmp(opt, "--audit"))
            audit_path = val;
        else if (!strcmp(opt, "--state"))
            state_path = val;
        else if (!strcmp(opt, "--grants"))
            grants_path = val;
        else if (!strcmp(opt, "--grants-user"))
            grants_user = val;
        else if (!strcmp(opt, "--timeout")) {
            if (parse_count(val, 1, 86400, &v))
                return misuse("--timeout takes whole seconds from 1 to 86400", val);
            ag.http.timeout_ms = v * 1000;
        } else if (!strcmp(opt, "--connect-timeout")) {
            if (parse_count(val, 1, 3600, &v))
                return misuse("--connect-timeout takes whole seconds from 1 to 3600", val);
            ag.http.connect_timeout_ms = v * 1000;
        } else if (!strcmp(opt, "--retries")) {
            if (parse_count(val, 0, 100, &v))
                return misuse("--retries takes a number from 0 to 100", val);
            ag.http.retries = (unsigned)v;
            ag.http.no_retries = v == 0;
        } else if (!strcmp(opt, "--max-steps")) {
            if (parse_count(val, 1, 1000, &v))
                return misuse("--max-steps takes a number from 1 to 1000", val);
            lo.max_steps = (unsigned)v;
        } else
            return misuse("unknown option", opt);
    }
    if (state_path) {
        char cwd[PATH_MAX], full[2 * PATH_MAX + 2];
        unsigned long long h = 0xcbf29ce484222325ull;
        size_t k, fl;
        ag.state_path = state_path;
        if (state_path[0] == '/')
            snprintf(full, sizeof full, "%s", state_path);
        else if (getcwd(cwd, sizeof cwd))
            snprintf(full, sizeof full, "%s/%s", cwd, state_path);
        else
            return misuse("--state: the current directory is unknown", state_path);
        /* The run's identity names the state file: a hash of its whole path
        ** and the path's last part, within the identity's bound. */
        fl = strlen(full);
        for (k = 0; k < fl; k++)
            h = (h ^ (unsigned char)full[k]) * 0x100000001b3ull;
        snprintf(ag.run_id, sizeof ag.run_id, "toolgov-agent %016llx %.80s", h,
                 fl > 80 ? full + fl - 80 : full);
        if (load_key(&ag))
            return EXIT_MISUSE;
    }

    if (!ag.base_url) {
        /* The scripted model speaks chat completions only. */
        ag.scripted = 1;
        ag.api = TOOLGOV_LOOP_OPENAI_CHAT;
        if (!model)
            model = "scripted";
    } else {
        size_t blen = strlen(ag.base_url);
        const char *path = ag.api == TOOLGOV_LOOP_OPENAI_CHAT        ? "/chat/completions"
                           : ag.api == TOOLGOV_LOOP_OPENAI_RESPONSES ? "/responses"
                                                                     : "/messages";
        char key[1024];
        const char *env = ag.api == TOOLGOV_LOOP_ANTHROPIC ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
        while (blen && ag.base_url[blen - 1] == '/')
            blen--;
        if (strncmp(ag.base_url, "http://", 7) && strncmp(ag.base_url, "https://", 8))
            return misuse("--base-url must start with http:// or https://", ag.base_url);
        if (blen + strlen(path) + 1 > sizeof ag.url)
            return misuse("--base-url is too long", ag.base_url);
        snprintf(ag.url, sizeof ag.url, "%.*s%s", (int)blen, ag.base_url, path);
        key[0] = '\0';
        if (key_file) {
            if (read_key_file(key_file, key, sizeof key))
                return EXIT_MISUSE;
        } else if (getenv(env)) {
            snprintf(key, sizeof key, "%s", getenv(env));
        }
        if (key[0]) {
            ag.have_key = 1;
            if (ag.api == TOOLGOV_LOOP_ANTHROPIC)
                snprintf(ag.key_header, sizeof ag.key_header, "x-api-key: %s", key);
            else
                snprintf(ag.key_header, sizeof ag.key_header, "Authorization: Bearer %s", key);
        }
    }

    for (i = 0; i < n_plugins; i++) {
        if (!config_files[i])
            continue;
        if (!(configs[i] = toolgov_mcp_read_config(plugins[i].config, &plugins[i].config_len,
                                                   "toolgov-agent", stderr)))
            return free_configs(configs, EXIT_MISUSE);
        plugins[i].config = configs[i];
    }
    rc = toolgov_mcp_plugins_open(&p, n_plugins == 0, plugins, n_plugins, "toolgov-agent", stderr);
    free_configs(configs, 0);
    if (rc) {
        toolgov_mcp_plugins_close(&p);
        return EXIT_MISUSE;
    }
    if (n_plugins == 0 &&
        (rc = toolgov_registry_bind_builtin(p.reg, "memory_search", memory_search, NULL))) {
        fprintf(stderr, "toolgov-agent: %s\n", toolgov_strerror(rc));
        status = EXIT_MISUSE;
        goto out;
    }
    if ((rc = toolgov_policy_new(&pol, p.reg)) || (rc = toolgov_policy_override_from_env(pol))) {
        fprintf(stderr, "toolgov-agent: the policy: %s\n", toolgov_strerror(rc));
        status = EXIT_MISUSE;
        goto out;
    }
    toolgov_mcp_plugins_report_drift(&p, pol, stderr);
    if (grants_user && !grants_path) {
        status = misuse("--grants-user goes with --grants FILE", grants_user);
        goto out;
    }
    if (grants_path) {
        /* The key that seals --state seals the grants too. */
        const char *env = getenv("TOOLGOV_STATE_KEY_FILE");
        char kpath[PATH_MAX + 8];
        if (env && *env)
            snprintf(kpath, sizeof kpath, "%s", env);
        else if (state_path)
            snprintf(kpath, sizeof kpath, "%s.key", state_path);
        else {
            status = misuse("--grants needs the key that seals it: TOOLGOV_STATE_KEY_FILE (or "
                            "--state FILE, whose FILE.key it then shares)", grants_path);
            goto out;
        }
        ag.have_grants = 1;
        if (toolgov_mcp_grants_open(&ag.grants, grants_path, grants_user, kpath, p.reg,
                                    "toolgov-agent", stderr) != 0) {
            status = EXIT_MISUSE;
            goto out;
        }
    }
    /* The tools on the loop: every plugin tool in the pool, and
    ** memory_search when it is bound (the core's other built-ins have no
    ** handler here). */
    tools = calloc(toolgov_registry_count(p.reg) + 1, sizeof *tools);
    if (!tools) {
        status = EXIT_API;
        goto out;
    }
    for (i = 0; i < toolgov_registry_count(p.reg); i++) {
        const toolgov_tool_spec *s = toolgov_registry_at(p.reg, i);
        if (toolgov_registry_offers(p.reg, s->name))
            tools[n_tools++] = s->name;
    }
    if (audit_path) {
        if (!(audit_file = fopen(audit_path, "a")) ||
            toolgov_audit_jsonl_new(&audit, audit_file, NULL)) {
            fprintf(stderr, "toolgov-agent: --audit %s: %s\n", audit_path, strerror(errno));
            status = EXIT_MISUSE;
            goto out;
        }
    }
    lo.api = ag.api;
    lo.model = model;
    if (ag.scripted)
        ag.stream = 0; /* the scripted model answers whole */
    lo.stream = ag.stream;
    lo.preamble = "You are toolgov-agent, a careful assistant. Use the tools to do what the "
                  "user asks, then answer briefly.";
    if ((rc = toolgov_loop_new(&lp, pol, &lo))) {
        fprintf(stderr, "toolgov-agent: %s\n", toolgov_strerror(rc));
        status = EXIT_API;
        goto out;
    }
    if (state_path) {
        int failed;
        size_t slen;
        char *saved = read_state(state_path, &slen, &failed);
        if (failed) {
            fprintf(stderr, "toolgov-agent: --state %s: cannot read it\n", state_path);
            status = EXIT_MISUSE;
        } else if (saved) {
            status = resume(&ag, lp, pol, audit, saved, slen);
            free(saved);
        } else if (!once) {
            status = misuse("--state FILE needs --once QUESTION when FILE does not exist",
                            state_path);
        } else {
            status = turn(&ag, lp, pol, audit, once, tools, n_tools);
        }
    } else if (once) {
        status = turn(&ag, lp, pol, audit, once, tools, n_tools);
    } else {
        char line[8192];
        while (fgets(line, sizeof line, stdin)) {
            size_t n = strlen(line);
            while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                line[--n] = '\0';
            if (!n)
                continue;
            status = turn(&ag, lp, pol, audit, line, tools, n_tools);
            if (status == EXIT_API)
                break;
        }
    }
    if (audit) {
        int err = 0;
        if ((rc = toolgov_audit_jsonl_status(audit, &err)) != 0) {
            fprintf(stderr, "toolgov-agent: --audit %s: %s\n", audit_path,
                    err ? strerror(err) : toolgov_strerror(rc));
            status = EXIT_API;
        }
    }
out:
    toolgov_loop_free(lp);
    toolgov_audit_jsonl_free(audit);
    if (audit_file)
        fclose(audit_file);
    free(tools);
    toolgov_policy_free(pol);
    if (ag.have_grants)
        toolgov_mcp_grants_close(&ag.grants);
    toolgov_mcp_plugins_close(&p);
    return status;
}
