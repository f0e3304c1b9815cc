/* SPDX-License-Identifier: MIT */
/*
** main.c: the toolgov-demo command line.
**
**   toolgov-demo [options] [all | SCENARIO...]
**
** With no scenario, or `all`, every scenario plays in order. Questions to
** the user are answered by each scenario's script unless --answer yes|no
** says otherwise; --interactive asks the person at the terminal instead
** (y/n on stdin; the question goes to stderr so stdout stays the
** transcript). --json prints one JSON object per scenario, one a line.
** --audit FILE appends the audit trail of every run (toolgov/audit.h: one
** JSON object a line per decision of the gate) to FILE; a log that cannot
** be written stops the writes it would record and fails the command.
** TOOLGOV_CONFIRM_ONCE_TOOLS, when set, is the operator's override of the
** confirm-once set in every scenario (see demo.h); TOOLGOV_CONFIRM_SCOPE
** (run or listed) says what the user's yes covers, and a value that is
** neither stops every scenario with a message that says so.
** Exit status: 0, 1 when a scenario could not be played, 2 on misuse.
*/
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "demo.h"

typedef struct answer_script {
    int forced;         /* -1: the scenario's default */
    int scenario_default;
} answer_script;

static int scripted_answer(void *ud, const char *kind, const char *question)
{
    const answer_script *s = ud;
    (void)kind;
    (void)question;
    return s->forced >= 0 ? s->forced : s->scenario_default;
}

typedef struct terminal {
    FILE *in;
    FILE *prompt;
} terminal;

static int terminal_answer(void *ud, const char *kind, const char *question)
{
    terminal *t = ud;
    int tries;
    fprintf(t->prompt, "\n[%s] %s\n", kind, question);
    for (tries = 0; tries < 3; tries++) {
        char line[64];
        size_t n;
        fprintf(t->prompt, "answer y/n: ");
        fflush(t->prompt);
        if (!fgets(line, sizeof line, t->in)) {
            fprintf(t->prompt, "(no answer: taken as no)\n");
            return 0;
        }
        n = strcspn(line, "\r\n");
        line[n] = '\0';
        if (!strcmp(line, "y") || !strcmp(line, "Y") || !strcmp(line, "yes"))
            return 1;
        if (!strcmp(line, "n") || !strcmp(line, "N") || !strcmp(line, "no"))
            return 0;
        fprintf(t->prompt, "please answer y or n\n");
    }
    fprintf(t->prompt, "(no clear answer: taken as no)\n");
    return 0;
}

static void usage(FILE *f)
{
    size_t i;
    fprintf(f, "usage: toolgov-demo [--json] [--answer yes|no | --interactive] "
               "[--audit FILE] [all | SCENARIO...]\nscenarios:\n");
    for (i = 0; i < demo_scenario_count; i++)
        fprintf(f, "  %-14s %s\n", demo_scenarios[i].name, demo_scenarios[i].title);
    fprintf(f, "environment:\n  %s  the operator's confirm-once override, e.g. 'none' or "
               "'none,create_reminder'\n"
               "  %s       what a yes covers: 'run' (every write of the run, the default) or "
               "'listed' (the calls the question listed)\n",
            TOOLGOV_CONFIRM_ONCE_ENV, TOOLGOV_CONFIRM_SCOPE_ENV);
}

static const demo_scenario *find_scenario(const char *name)
{
    size_t i;
    for (i = 0; i < demo_scenario_count; i++)
        if (!strcmp(demo_scenarios[i].name, name))
            return &demo_scenarios[i];
    return NULL;
}

int main(int argc, char **argv)
{
    const demo_scenario *chosen[64];
    size_t nchosen = 0, i;
    answer_script script = {-1, 1};
    terminal term = {stdin, stderr};
    demo_answerer answerer;
    int json = 0, interactive = 0, all = 0, status = 0;
    const char *audit_path = NULL;
    FILE *audit_file = NULL;
    toolgov_audit_jsonl *audit = NULL;

    for (i = 1; i < (size_t)argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--interactive")) {
            interactive = 1;
        } else if (!strcmp(a, "--answer") || !strncmp(a, "--answer=", 9)) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < (size_t)argc ? argv[++i] : NULL);
            if (v && !strcmp(v, "yes")) {
                script.forced = 1;
            } else if (v && !strcmp(v, "no")) {
                script.forced = 0;
            } else {
                fprintf(stderr, "toolgov-demo: error: --answer takes 'yes' or 'no'\n");
                return 2;
            }
        } else if (!strcmp(a, "--audit") || !strncmp(a, "--audit=", 8)) {
            audit_path = a[7] == '=' ? a + 8 : (i + 1 < (size_t)argc ? argv[++i] : NULL);
            if (!audit_path || !*audit_path) {
                fprintf(stderr, "toolgov-demo: error: --audit takes a file name\n");
                return 2;
            }
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "toolgov-demo: error: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (!strcmp(a, "all")) {
            all = 1;
        } else {
            const demo_scenario *sc = find_scenario(a);
            if (!sc) {
                fprintf(stderr, "toolgov-demo: error: unknown scenario '%s'\n", a);
                usage(stderr);
                return 2;
            }
            if (nchosen == sizeof chosen / sizeof chosen[0]) {
                fprintf(stderr, "toolgov-demo: error: too many scenarios\n");
                return 2;
            }
            chosen[nchosen++] = sc;
        }
    }
    if (interactive && script.forced >= 0) {
        fprintf(stderr, "toolgov-demo: error: --interactive and --answer exclude each other\n");
        return 2;
    }
    if (all || nchosen == 0) {
        nchosen = 0;
        for (i = 0; i < demo_scenario_count; i++)
            chosen[nchosen++] = &demo_scenarios[i];
    }

    if (audit_path) {
        int rc;
        audit_file = fopen(audit_path, "a");
        if (!audit_file) {
            fprintf(stderr, "toolgov-demo: error: %s: cannot open the audit log: %s\n",
                    audit_path, strerror(errno));
            return 1;
        }
        if ((rc = toolgov_audit_jsonl_new(&audit, audit_file, NULL))) {
            fprintf(stderr, "toolgov-demo: error: %s: %s\n", audit_path, toolgov_strerror(rc));
            fclose(audit_file);
            return 1;
        }
    }
    if (interactive) {
        answerer.ask = terminal_answer;
        answerer.ud = &term;
    } else {
        answerer.ask = scripted_answer;
        answerer.ud = &script;
    }
    for (i = 0; i < nchosen; i++) {
        demo_transcript tr;
        int rc;
        memset(&tr, 0, sizeof tr);
        tr.live = json ? NULL : stdout;
        tr.audit = audit;
        script.scenario_default = chosen[i]->default_answer;
        rc = demo_play(&tr, chosen[i], &demo_scripted_model, &answerer);
        if (json)
            demo_report_json(stdout, &tr);
        if (rc) {
            fprintf(stderr, "toolgov-demo: error: scenario '%s' failed: %s\n", chosen[i]->name,
                    toolgov_strerror(rc));
            status = 1;
        }
        demo_transcript_free(&tr);
        fflush(stdout);
    }
    if (audit) {
        int err = 0, rc = toolgov_audit_jsonl_status(audit, &err);
        if (rc) {
            fprintf(stderr, "toolgov-demo: error: %s: the audit log could not be written: %s\n",
                    audit_path, err ? strerror(err) : toolgov_strerror(rc));
            status = 1;
        }
        toolgov_audit_jsonl_free(audit);
        if (fclose(audit_file) != 0 && !rc) {
            fprintf(stderr, "toolgov-demo: error: %s: the audit log could not be closed: %s\n",
                    audit_path, strerror(errno));
            status = 1;
        }
    }
    return status;
}
