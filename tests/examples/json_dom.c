/* SPDX-License-Identifier: MIT */
/*
** json_dom.c: the test-only JSON reader of json_dom.h (recursive, depth
** bounded; the transcripts it reads are produced by the demo itself).
*/
#include "json_dom.h"

#include <stdlib.h>
#include <string.h>

typedef struct rd {
    const char *p, *end;
    int depth;
} rd;

static jdom *value(rd *r);

static void ws(rd *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
        r->p++;
}

static jdom *node(jdom_type t)
{
    jdom *j = calloc(1, sizeof *j);
    if (j)
        j->type = t;
    return j;
}

static char *string(rd *r)
{
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    if (!s || r->p >= r->end || *r->p != '"')
        goto fail;
    r->p++;
    while (r->p < r->end && *r->p != '"') {
        char c = *r->p++;
        if ((unsigned char)c < 0x20)
            goto fail;
        if (c == '\\') {
            if (r->p >= r->end)
                goto fail;
            c = *r->p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case '"': case '\\': case '/': break;
            case 'u': {
                unsigned v = 0;
                int i;
                if (r->end - r->p < 4)
                    goto fail;
                for (i = 0; i < 4; i++) {
                    char h = *r->p++;
                    v <<= 4;
                    if (h >= '0' && h <= '9') v |= (unsigned)(h - '0');
                    else if (h >= 'a' && h <= 'f') v |= (unsigned)(h - 'a' + 10);
                    else if (h >= 'A' && h <= 'F') v |= (unsigned)(h - 'A' + 10);
                    else goto fail;
                }
                c = v < 0x80 ? (char)v : '?';
                break;
            }
            default:
                goto fail;
            }
        }
        if (n + 2 > cap) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                goto fail;
            s = t;
        }
        s[n++] = c;
    }
    if (r->p >= r->end)
        goto fail;
    r->p++;
    s[n] = '\0';
    return s;
fail:
    free(s);
    return NULL;
}

static int push(jdom *j, jdom *item, char *key)
{
    jdom **items = realloc(j->items, (j->count + 1) * sizeof *items);
    if (!items)
        return -1;
    j->items = items;
    if (j->type == JDOM_OBJECT) {
        char **keys = realloc(j->keys, (j->count + 1) * sizeof *keys);
        if (!keys)
            return -1;
        j->keys = keys;
        j->keys[j->count] = key;
    }
    j->items[j->count++] = item;
    return 0;
}

static jdom *container(rd *r, int object)
{
    jdom *j = node(object ? JDOM_OBJECT : JDOM_ARRAY);
    if (!j || ++r->depth > 64)
        goto fail;
    r->p++;
    ws(r);
    if (r->p < r->end && *r->p == (object ? '}' : ']')) {
        r->p++;
        r->depth--;
        return j;
    }
    for (;;) {
        char *key = NULL;
        jdom *v;
        ws(r);
        if (object) {
            if (!(key = string(r)))
                goto fail;
            ws(r);
            if (r->p >= r->end || *r->p != ':') {
                free(key);
                goto fail;
            }
            r->p++;
        }
        v = value(r);
        if (!v || push(j, v, key)) {
            free(key);
            jdom_free(v);
            goto fail;
        }
        ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == (object ? '}' : ']')) {
            r->p++;
            break;
        }
        goto fail;
    }
    r->depth--;
    return j;
fail:
    jdom_free(j);
    return NULL;
}

static jdom *value(rd *r)
{
    jdom *j;
    ws(r);
    if (r->p >= r->end)
        return NULL;
    switch (*r->p) {
    case '{':
        return container(r, 1);
    case '[':
        return container(r, 0);
    case '"':
        if (!(j = node(JDOM_STRING)))
            return NULL;
        if (!(j->str = string(r))) {
            free(j);
            return NULL;
        }
        return j;
    }
    if (r->end - r->p >= 4 && !memcmp(r->p, "null", 4)) {
        r->p += 4;
        return node(JDOM_NULL);
    }
    if (r->end - r->p >= 4 && !memcmp(r->p, "true", 4)) {
        r->p += 4;
        if ((j = node(JDOM_BOOL)))
            j->boolean = 1;
        return j;
    }
    if (r->end - r->p >= 5 && !memcmp(r->p, "false", 5)) {
        r->p += 5;
        return node(JDOM_BOOL);
    }
    {
        char buf[64], *e;
        size_t n = 0;
        while (r->p + n < r->end && n < sizeof buf - 1 && strchr("+-0123456789.eE", r->p[n]))
            n++;
        if (n == 0)
            return NULL;
        memcpy(buf, r->p, n);
        buf[n] = '\0';
        if (!(j = node(JDOM_NUMBER)))
            return NULL;
        j->num = strtod(buf, &e);
        if (e != buf + n) {
            free(j);
            return NULL;
        }
        r->p += n;
        return j;
    }
}

jdom *jdom_parse(const char *text, size_t len)
{
    rd r = {text, text + len, 0};
    jdom *j = value(&r);
    ws(&r);
    if (j && r.p != r.end) {
        jdom_free(j);
        return NULL;
    }
    return j;
}

void jdom_free(jdom *j)
{
    size_t i;
    if (!j)
        return;
    for (i = 0; i < j->count; i++) {
        jdom_free(j->items[i]);
        if (j->keys)
            free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
    free(j->str);
    free(j);
}

const jdom *jdom_get(const jdom *j, const char *key)
{
    size_t i;
    if (!j || j->type != JDOM_OBJECT)
        return NULL;
    for (i = 0; i < j->count; i++)
        if (!strcmp(j->keys[i], key))
            return j->items[i];
    return NULL;
}

const jdom *jdom_at(const jdom *j, size_t i)
{
    if (!j || j->type != JDOM_ARRAY || i >= j->count)
        return NULL;
    return j->items[i];
}

const jdom *jdom_path(const jdom *j, const char *path)
{
    char key[128];
    while (j && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        j = jdom_get(j, key);
        path += n + (path[n] == '.');
    }
    return j;
}

const char *jdom_str(const jdom *j)
{
    return j && j->type == JDOM_STRING ? j->str : NULL;
}

long jdom_long(const jdom *j, long dflt)
{
    return j && j->type == JDOM_NUMBER ? (long)j->num : dflt;
}

int jdom_bool(const jdom *j)
{
    return j && j->type == JDOM_BOOL ? j->boolean : -1;
}

size_t jdom_len(const jdom *j)
{
    return j && (j->type == JDOM_ARRAY || j->type == JDOM_OBJECT) ? j->count : 0;
}
