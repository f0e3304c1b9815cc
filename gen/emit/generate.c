/* SPDX-License-Identifier: MIT */
/*
** generate.c: render, then replace the pair (see generate.h).
*/
#include "emit/generate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <toolgov/toolgov.h>

#include "emit/codegen.h"
#include "base/fileio.h"

/* dir + "/" + name + ext, malloc'd, or NULL. */
static char *out_path(const char *dir, const char *name, const char *ext)
{
    size_t ld = strlen(dir), ln = strlen(name), le = strlen(ext);
    char *p = malloc(ld + ln + le + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, ld);
    p[ld] = '/';
    memcpy(p + ld + 1, name, ln);
    memcpy(p + ld + 1 + ln, ext, le + 1);
    return p;
}

/* Render m, free `owned` (m itself, or NULL), write. */
static int generate(const toolgov__manifest *m, toolgov__manifest *owned, const char *out_dir,
                    toolgov__diag *d)
{
    toolgov__buf h, c;
    toolgov__out_file files[2];
    char *hpath = NULL, *cpath = NULL;
    int rc;

    toolgov__buf_init(&h);
    toolgov__buf_init(&c);
    rc = toolgov__codegen_render(&h, &c, m);
    if (rc) {
        toolgov__diag_error(d, m->path, 0, 0, "out of memory while generating code");
        goto out;
    }
    rc = toolgov__fileio_mkdirs(out_dir, d);
    if (rc)
        goto out;
    hpath = out_path(out_dir, m->name, ".toolgov.h");
    cpath = out_path(out_dir, m->name, ".toolgov.c");
    if (!hpath || !cpath) {
        toolgov__diag_error(d, out_dir, 0, 0, "out of memory");
        rc = TOOLGOV_ENOMEM;
        goto out;
    }
    /* Nothing below reads the manifest. */
    toolgov__manifest_free(owned);
    owned = NULL;
    /* The header first: see stamp_generation() in codegen.c for why the
    ** order matters when a run is killed between the two renames. */
    files[0].path = hpath;
    files[0].data = h.data ? h.data : "";
    files[0].len = h.len;
    files[1].path = cpath;
    files[1].data = c.data ? c.data : "";
    files[1].len = c.len;
    rc = toolgov__fileio_replace(files, 2, d);
out:
    toolgov__manifest_free(owned);
    free(hpath);
    free(cpath);
    toolgov__buf_free(&h);
    toolgov__buf_free(&c);
    return rc;
}

int toolgov__generate(const toolgov__manifest *m, const char *out_dir, toolgov__diag *d)
{
    return generate(m, NULL, out_dir, d);
}

int toolgov__generate_consume(toolgov__manifest **m, const char *out_dir, toolgov__diag *d)
{
    toolgov__manifest *own = *m;
    *m = NULL;
    return generate(own, own, out_dir, d);
}
