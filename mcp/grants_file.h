/* SPDX-License-Identifier: MIT */
/*
** grants_file.h: standing grants on disk (--grants FILE), for toolgov-mcp
** and toolgov-agent.
**
** The operator names a file for the grants and a key file for the seal
** (--state-key FILE, or TOOLGOV_STATE_KEY_FILE: the key that seals what the
** host keeps, as run state is sealed; never on the command line). The key
** file holds the key's 32 bytes, as toolgov-agent's does; when it does not
** exist it is made (mode 0600) with a new key, and one that others may
** read is refused. The grants text is sealed with that key and bound to the user
** (--grants-user NAME, else the login name of the process's user): a file
** sealed under another key, for another user, or altered is refused at
** start with a message, never half-read. A missing grants file is an empty
** set. Each grant the user keeps "always" is added to the file's set and
** the file rewritten whole (a temporary file renamed over it).
**
** Ownership: the struct owns its set (handed to the server, borrowed) and
** copies the paths it is given. Messages go to `err`.
*/
#ifndef TOOLGOV_MCP_GRANTS_FILE_H
#define TOOLGOV_MCP_GRANTS_FILE_H

#include <stdio.h>

#include <toolgov/grants.h>
#include <toolgov/run.h>
#include <toolgov/toolgov.h>

typedef struct toolgov_mcp_grants_file {
    char *path;
    const toolgov_registry *reg;
    toolgov_grants *set;     /* the session's set: the file's grants, then the
                             ** session's own */
    toolgov_state_key key;
    char user[TOOLGOV_GRANTS_NAME_MAX + 1];
    FILE *err;
    const char *prog;        /* the program's name, for messages */
} toolgov_mcp_grants_file;

/* Read the key (making it when missing) and the grants file. 0, or -1
** after a message on `err` saying what is wrong and how to fix it.
** `user` NULL: the login name; `prog` names the program in messages
** (static). */
int toolgov_mcp_grants_open(toolgov_mcp_grants_file *gf, const char *path, const char *user,
                            const char *key_path, const toolgov_registry *reg, const char *prog,
                            FILE *err);

/* The server's grant store (toolgov_mcp_grant_store_fn): add the grant to
** the file (read again, so grants kept meanwhile by another session stay)
** and write it whole. 0, or a TOOLGOV_E* code after a message on `err`. */
int toolgov_mcp_grants_store(void *gf, const toolgov_grant *grant);

void toolgov_mcp_grants_close(toolgov_mcp_grants_file *gf);

#endif /* TOOLGOV_MCP_GRANTS_FILE_H */
