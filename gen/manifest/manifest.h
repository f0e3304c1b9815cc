/* SPDX-License-Identifier: MIT */
/*
** manifest.h: load and validate one toolgov plugin manifest (libyaml).
**
** toolgov__manifest_load() parses the file with libyaml's event API, keeping
** the start mark of every key and value, checks every rule of SPEC section 1
** and reports each problem through the diag sink as FILE:LINE:COL. It either
** returns a complete, valid manifest or NULL: a manifest with errors is never
** handed out, so nothing downstream can generate from a half-checked file.
**
** Ownership: the returned manifest owns every string in it (one arena) and is
** freed with toolgov__manifest_free(). `path` is copied.
*/
#ifndef TOOLGOV_GEN_MANIFEST_H
#define TOOLGOV_GEN_MANIFEST_H

#include <stddef.h>

#include "base/diag.h"
#include "base/fileio.h" /* TOOLGOV_MANIFEST_MAX_BYTES */
#include "base/names.h"
#include <toolgov/toolgov.h>

#define TOOLGOV_DESCRIPTION_MAX 1024u
#define TOOLGOV_GUIDANCE_MAX 4096u

struct toolgov__snode; /* schema.h: a compiled `parameters:` */

/* Where a tool runs (the `loop:` key), as bits: the host's pool, the
** plugin's own loop (toolgov_declare_tool), or both. */
enum {
    TOOLGOV__LOOP_POOL = 1, /* loop: pool (the default) */
    TOOLGOV__LOOP_OWN = 2,  /* loop: own */
    TOOLGOV__LOOP_BOTH = 3  /* loop: both */
};

typedef struct toolgov__tool_decl {
    const char *name;          /* the key under tools: */
    toolgov__mark at;          /* where the key is */
    toolgov_effect effect;
    toolgov__mark effect_at;
    toolgov_confirm confirm;   /* NEVER for read and destructive */
    int confirm_given;         /* 1 when the manifest wrote confirm: */
    const char *description;   /* never NULL */
    size_t description_len;
    const char *guidance;      /* "" when absent */
    size_t guidance_len;
    int pinned;
    int answers_directly;
    int loop;                  /* TOOLGOV__LOOP_* bits; POOL when absent */
    const struct toolgov__snode *params; /* compiled parameters; NULL: none */
    toolgov__mark params_at;   /* where the parameters: key is */
    const char *pin;           /* "sha256:<64 hex>" of an upstream server's
                               ** tool (toolgov-mcp); NULL when absent */
    const char *upstream_name; /* the upstream server's name for the tool
                               ** when it is not `name`; NULL when absent */
    const char **allow_nul;    /* allow_nul: the string properties whose
                               ** values may hold a NUL (\u0000); their
                               ** nodes get allow_nul set (schema.h) */
    toolgov__mark *allow_nul_at;
    size_t allow_nul_count;
} toolgov__tool_decl;

typedef struct toolgov__manifest {
    const char *path;          /* as given on the command line */
    const char *name;
    toolgov__mark name_at;
    const char **provides;
    toolgov__mark *provides_at;
    size_t provides_count;
    toolgov__tool_decl *tools;      /* in manifest order */
    size_t tool_count;
    void *arena_;              /* private */
} toolgov__manifest;

/* Load and validate. Returns NULL on any error (all of them reported to d)
** or when out of memory (reported as an error at the file). */
toolgov__manifest *toolgov__manifest_load(const char *path, toolgov__diag *d);

/* The same, from memory; `path` names the buffer in diagnostics. */
toolgov__manifest *toolgov__manifest_load_mem(const char *path, const char *data,
                                              size_t len, toolgov__diag *d);

void toolgov__manifest_free(toolgov__manifest *m);

/* Index of the tool named `name`, or -1. */
long toolgov__manifest_find(const toolgov__manifest *m, const char *name);

#endif /* TOOLGOV_GEN_MANIFEST_H */
